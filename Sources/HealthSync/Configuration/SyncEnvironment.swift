import Foundation

/// Everything a sync decision depends on outside the data: the clock, waiting, randomness
/// and the device's conditions. Tests pass their own and never sleep.
public struct SyncEnvironment: Sendable {
    public var now: @Sendable () -> Date
    /// Waits `seconds` (throws when the task is cancelled).
    public var sleep: @Sendable (_ seconds: Double) async throws -> Void
    /// A uniformly random number in `range` (full jitter of retry waits).
    public var random: @Sendable (_ range: ClosedRange<Double>) -> Double
    /// The device's battery, power mode and network, as of now.
    public var conditions: @Sendable () async -> DeviceConditions

    public init(
        now: @escaping @Sendable () -> Date, sleep: @escaping @Sendable (Double) async throws -> Void,
        random: @escaping @Sendable (ClosedRange<Double>) -> Double, conditions: @escaping @Sendable () async -> DeviceConditions
    ) {
        self.now = now
        self.sleep = sleep
        self.random = random
        self.conditions = conditions
    }

    /// The real clock, `Task.sleep`, the system's generator and ``DeviceConditions/system()``.
    public static let live = SyncEnvironment(
        now: { Date() }, sleep: { seconds in try await Task.sleep(for: .seconds(seconds)) },
        random: { range in Double.random(in: range) }, conditions: { DeviceConditions.system() })
}

/// Battery, power mode and network, as far as the platform tells.
public struct DeviceConditions: Sendable, Hashable {
    public enum Network: String, Sendable, Hashable {
        /// Wi-Fi or Ethernet.
        case unmetered
        /// Cellular or a hotspot.
        case metered
        case offline
    }

    /// 0…1, or `nil` without a battery (a desktop, a server).
    public var batteryLevel: Double?
    public var isCharging: Bool
    public var isLowPowerMode: Bool
    public var network: Network

    public init(
        batteryLevel: Double? = nil, isCharging: Bool = false, isLowPowerMode: Bool = false, network: Network = .unmetered
    ) {
        self.batteryLevel = batteryLevel
        self.isCharging = isCharging
        self.isLowPowerMode = isLowPowerMode
        self.network = network
    }

    /// On Linux: the first battery of `/sys/class/power_supply` (capacity and status);
    /// the network counts as unmetered (Linux does not say). On Apple platforms the app
    /// passes UIDevice's battery state and NWPathMonitor's `isExpensive` instead.
    public static func system(powerSupplies: String = "/sys/class/power_supply") -> DeviceConditions {
        var conditions = DeviceConditions()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: powerSupplies)) ?? []
        for name in names.sorted() {
            let folder = (powerSupplies as NSString).appendingPathComponent(name)
            func read(_ file: String) -> String? {
                (try? String(contentsOfFile: (folder as NSString).appendingPathComponent(file), encoding: .utf8))?
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            }
            guard read("type") == "Battery", let capacity = read("capacity").flatMap(Double.init) else { continue }
            conditions.batteryLevel = min(max(capacity / 100, 0), 1)
            conditions.isCharging = ["Charging", "Full"].contains(read("status") ?? "")
            break
        }
        return conditions
    }
}
