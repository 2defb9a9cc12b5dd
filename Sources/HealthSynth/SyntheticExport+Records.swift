import Foundation
import HealthCore

/// Emits records of the synthetic export in the export's XML form, counting them.
final class RecordEmitter {
    let out: XMLOutput
    var rng: SplitMix
    /// Object addresses differ between exports of the same data: a stream of its own.
    private var addressRNG: SplitMix
    var unique: [String: Int] = [:]
    var duplicateCopies = 0

    static let watchSource = ("Jane’s Apple Watch", "10.1")
    static let phoneSource = ("Jane’s iPhone", "17.1")
    /// The no-watch persona's ring, Garmin watch (through Garmin Connect) and bed mat.
    static let ringSource = ("Oura", "5.12")
    static let garminSource = ("Connect", "5.3")
    static let matSource = ("Withings", "6.3")

    /// The devices that write records.
    enum DeviceKind {
        case watch, phone, ring, garmin, mat
    }

    init(out: XMLOutput, seed: UInt64) {
        self.out = out
        rng = SplitMix(seed: seed ^ 0xD1B5_4A32_D192_ED03)
        addressRNG = SplitMix(seed: UInt64(out.exportOffset + 86400) ^ 0x5851_F42D_4C95_7F2D)
    }

    /// The app that writes the records of `kind`.
    static func source(of kind: DeviceKind) -> (String, String) {
        switch kind {
        case .watch: watchSource
        case .phone: phoneSource
        case .ring: ringSource
        case .garmin: garminSource
        case .mat: matSource
        }
    }

    /// A device string with a fresh `0x…` object address, as real exports have.
    func device(watch: Bool) -> String { device(watch ? .watch : .phone) }

    /// A device string of `kind` with a fresh `0x…` object address.
    func device(_ kind: DeviceKind) -> String {
        let address = String(0x2_8000_0000 + addressRNG.next() % 0x0FFF_FFFF, radix: 16)
        switch kind {
        case .watch:
            return
                "<<HKDevice: 0x\(address)>, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,1, software:10.1>"
        case .phone:
            return
                "<<HKDevice: 0x\(address)>, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone14,2, software:17.1>"
        case .ring:
            return "<<HKDevice: 0x\(address)>, name:Oura Ring, manufacturer:Oura, model:Oura Ring Gen3, software:2.9.4>"
        case .garmin:
            return "<<HKDevice: 0x\(address)>, name:Forerunner 265, manufacturer:Garmin, model:Forerunner 265, software:19.18>"
        case .mat:
            return "<<HKDevice: 0x\(address)>, name:Sleep Analyzer, manufacturer:Withings, model:WSA01, software:2.3>"
        }
    }

    /// Writes one `<Record>`; `copies` > 1 writes exact duplicates (a real-export quirk).
    func record(
        _ type: String, source: (String, String), device: String?, unit: String?, value: String?, start: Date, end: Date,
        metadata: [(String, String)] = [], beats: [(Date, Double)] = [], copies: Int = 1, count: Bool = true
    ) {
        if count { unique[type, default: 0] += 1 }
        duplicateCopies += copies - 1
        for _ in 0..<copies {
            out.write("  <Record")
            out.attribute("type", type)
            out.attribute("sourceName", source.0)
            out.attribute("sourceVersion", source.1)
            if let device { out.attribute("device", device) }
            if let unit { out.attribute("unit", unit) }
            out.dateAttribute("creationDate", end.addingTimeInterval(5))
            out.dateAttribute("startDate", start)
            out.dateAttribute("endDate", end)
            if let value { out.attribute("value", value) }
            if metadata.isEmpty && beats.isEmpty {
                out.write("/>\n")
                continue
            }
            out.write(">\n")
            writeMetadata(metadata)
            if !beats.isEmpty {
                out.write("   <HeartRateVariabilityMetadataList>\n")
                for (time, bpm) in beats {
                    out.write("    <InstantaneousBeatsPerMinute")
                    out.attribute("bpm", String(Int(bpm)))
                    out.attribute("time", beatTime(time))
                    out.write("/>\n")
                }
                out.write("   </HeartRateVariabilityMetadataList>\n")
            }
            out.write("  </Record>\n")
        }
    }

    /// Writes a `<Correlation>` holding `children` (records that also appear at top level,
    /// so they are not counted again).
    func correlation(
        _ type: String, source: (String, String), time: Date, metadata: [(String, String)] = [],
        children: [(type: String, unit: String, value: String)]
    ) {
        unique[type, default: 0] += 1
        out.write("  <Correlation")
        out.attribute("type", type)
        out.attribute("sourceName", source.0)
        out.attribute("sourceVersion", source.1)
        out.dateAttribute("creationDate", time.addingTimeInterval(5))
        out.dateAttribute("startDate", time)
        out.dateAttribute("endDate", time)
        out.write(">\n")
        writeMetadata(metadata)
        for child in children {
            record(
                child.type, source: source, device: nil, unit: child.unit, value: child.value, start: time, end: time,
                metadata: metadata, count: false)
        }
        out.write("  </Correlation>\n")
    }

    private func writeMetadata(_ metadata: [(String, String)]) {
        for (key, value) in metadata {
            out.write("   <MetadataEntry")
            out.attribute("key", key)
            out.attribute("value", value)
            out.write("/>\n")
        }
    }

    /// `h:mm:ss.SS AM` in the export's offset, the en_US form of beat times.
    private func beatTime(_ time: Date) -> String {
        let local = time.timeIntervalSince1970 + Double(out.exportOffset)
        let secondOfDay = local - (local / 86400).rounded(.down) * 86400
        let hour = Int(secondOfDay / 3600)
        let minute = Int(secondOfDay / 60) % 60
        let seconds = secondOfDay - Double(hour * 3600 + minute * 60)
        let hour12 = hour % 12 == 0 ? 12 : hour % 12
        return String(format: "%d:%02d:%05.2f %@", hour12, minute, seconds, hour < 12 ? "AM" : "PM")
    }

    /// Splits `total` over `[start, end)` in pieces of `minLength…maxLength` seconds;
    /// the integer parts add up to `total` exactly.
    func pieces(_ start: Date, _ end: Date, total: Int, minLength: Double, maxLength: Double) -> [(Date, Date, Int)] {
        var bounds: [Date] = [start]
        while let last = bounds.last, last < end {
            bounds.append(min(last.addingTimeInterval(rng.uniform(minLength...maxLength)), end))
        }
        let duration = end.timeIntervalSince(start)
        var result: [(Date, Date, Int)] = []
        var given = 0
        for index in 1..<bounds.count {
            let upTo =
                index == bounds.count - 1
                ? total : Int((Double(total) * bounds[index].timeIntervalSince(start) / duration).rounded())
            result.append((bounds[index - 1], bounds[index], upTo - given))
            given = upTo
        }
        return result
    }
}

extension Double {
    /// Fixed decimals, for values in the XML.
    func fixed(_ digits: Int) -> String { String(format: "%.\(digits)f", self) }
}
