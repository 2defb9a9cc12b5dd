import Foundation
import HealthCore

/// Reads the track points of a GPX 1.1 file (`workout-routes/route_….gpx`): position,
/// elevation, time, and Apple's `speed`, `course`, `hAcc`, `vAcc` extensions.
enum GPXReader {
    static func points(_ data: Data, name: String) throws -> [RoutePoint] {
        var scanner = XMLScanner(handler: GPXHandler(), initialCapacity: max(4096, data.count + 1))
        defer { scanner.deallocate() }
        do {
            try scanner.feed(data)
            try scanner.finish()
        } catch let error as XMLScanError {
            throw ImportError(.malformedFile, file: name, error.description)
        } catch let error as ExportFormatError {
            // A point without a position: the file named, as for any other fault in it.
            throw ImportError(.malformedFile, file: name, error.description)
        }
        return scanner.handler.points
    }
}

private struct GPXHandler: XMLHandler {
    var points: [RoutePoint] = []
    private var current: RoutePoint?
    private var field: Field?
    private var text: [UInt8] = []

    private enum Field { case ele, time, speed, course, hAcc, vAcc }

    var wantsText: Bool { field != nil }

    mutating func startElement(_ tag: XMLTag) throws {
        if tag.nameIs("trkpt") || tag.nameIs("rtept") {
            let latitude = tag.attribute("lat").flatMap { ByteParsing.double(tag.bytes($0.value)) }
            let longitude = tag.attribute("lon").flatMap { ByteParsing.double(tag.bytes($0.value)) }
            // A point without a readable position is kept as no position: the reader leaves it
            // out and counts it (RoutePoint.plausible), as any point off the Earth.
            current = RoutePoint(latitude: latitude ?? .nan, longitude: longitude ?? .nan)
        } else if current != nil {
            field =
                if tag.nameIs("ele") { .ele } else if tag.nameIs("time") { .time } else if tag.nameIs("speed") {
                    .speed
                } else if tag.nameIs("course") { .course } else if tag.nameIs("hAcc") { .hAcc } else if tag.nameIs("vAcc") {
                    .vAcc
                } else { nil }
            text.removeAll(keepingCapacity: true)
        }
    }

    mutating func text(_ text: XMLText) throws { self.text.append(contentsOf: text.bytes) }

    mutating func comment(_ text: XMLText) {}

    mutating func endElement(_ tag: XMLTag) throws {
        if tag.nameIs("trkpt") || tag.nameIs("rtept"), let point = current {
            points.append(point)
            current = nil
            return
        }
        guard let field, current != nil else { return }
        text.withUnsafeBytes { raw in
            var lower = 0
            var upper = raw.count
            while lower < upper, raw[lower] <= 32 { lower += 1 }
            while upper > lower, raw[upper - 1] <= 32 { upper -= 1 }
            let value = UnsafeRawBufferPointer(rebasing: raw[lower..<upper])
            switch field {
            case .ele: current!.elevation = ByteParsing.double(value)
            case .time: current!.time = ExportDate.parse(value)?.date
            case .speed: current!.speed = ByteParsing.double(value)
            case .course: current!.course = ByteParsing.double(value)
            case .hAcc: current!.horizontalAccuracy = ByteParsing.double(value)
            case .vAcc: current!.verticalAccuracy = ByteParsing.double(value)
            }
        }
        self.field = nil
    }
}
