#if !canImport(HealthKit)
    import Foundation

    /// Whether this app may write a type: what `authorizationStatus(for:)` reports.
    public enum HKAuthorizationStatus: Int, Sendable {
        case notDetermined = 0
        case sharingDenied = 1
        case sharingAuthorized = 2
    }

    /// Whether asking for authorization would show the user anything.
    public enum HKAuthorizationRequestStatus: Int, Sendable {
        case unknown = 0
        case shouldRequest = 1
        case unnecessary = 2
    }

    /// What "the user" answers when an app asks for access: on a phone a person decides in
    /// the Health sheet; here a policy does (only here: HealthKit has no such type).
    ///
    /// As a file (``init(contentsOf:)``), JSON with the type identifiers granted for reading
    /// and for sharing (writing), `"*"` for every type:
    ///
    /// ```json
    /// {"read": ["HKQuantityTypeIdentifierStepCount", "HKCategoryTypeIdentifierSleepAnalysis"],
    ///  "share": []}
    /// ```
    public struct HKAuthorizationPolicy: Sendable, Hashable {
        /// Identifiers the user allows reading (`nil`: all).
        public var read: Set<String>?
        /// Identifiers the user allows writing (`nil`: all).
        public var share: Set<String>?

        public init(read: Set<String>?, share: Set<String>?) {
            self.read = read
            self.share = share
        }

        /// Every request granted.
        public static let grantAll = HKAuthorizationPolicy(read: nil, share: nil)
        /// Every request denied.
        public static let denyAll = HKAuthorizationPolicy(read: [], share: [])

        /// Reads a policy file; a malformed one throws, naming the file and what is wrong.
        public init(contentsOf url: URL) throws {
            let data = try Data(contentsOf: url)
            guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw HKError(.errorInvalidArgument, message: "\(url.path): an authorization policy is a JSON object")
            }
            func list(_ key: String) throws -> Set<String>? {
                switch object[key] {
                case nil: return []
                case let text as String where text == "*": return nil
                case let items as [String]: return Set(items)
                default:
                    throw HKError(
                        .errorInvalidArgument, message: "\(url.path): \"\(key)\" must be a list of type identifiers or \"*\"")
                }
            }
            self.init(read: try list("read"), share: try list("share"))
        }

        func allowsReading(_ type: HKObjectType) -> Bool { read?.contains(type.identifier) ?? true }
        func allowsSharing(_ type: HKObjectType) -> Bool { share?.contains(type.identifier) ?? true }
    }
#endif
