import Foundation
import HealthCore

/// Reads the track points of a GPX 1.1 file (`workout-routes/route_….gpx`): position,
/// elevation, time, and Apple's `speed`, `course`, `hAcc`, `vAcc` extensions.
enum GPXReader {
    /// Every point of the GPX file `data`, as written.
    static func points(_ data: Data, name: String) throws -> [RoutePoint] {
        try read(name: name, keepsImplausible: true, maxPoints: .max) {
            try $0(data)
            return true
        }!.points
    }

    /// The points of the GPX file that `stream` hands over in chunks, each made plausible as
    /// it is read (``RoutePoint/plausible``: a point off the Earth left out, an impossible
    /// field cleared), and how many were altered; `nil` when `stream` finds no file (it
    /// returns `false`). Memory is the points and one chunk, whatever the file's size, plus
    /// whatever construct is still open (a tag, comment or value: refused past 16 MB, a
    /// point's value past 1 MB); past `maxPoints` points the read stops with
    /// ``LinkedFileRefused/tooManyPoints``.
    static func plausiblePoints(
        name: String, maxPoints: Int, streaming stream: (_ consume: (Data) throws -> Void) throws -> Bool
    ) throws -> (points: [RoutePoint], altered: Int)? {
        try read(name: name, keepsImplausible: false, maxPoints: maxPoints, stream)
    }

    private static func read(
        name: String, keepsImplausible: Bool, maxPoints: Int,
        _ stream: (_ consume: (Data) throws -> Void) throws -> Bool
    ) throws -> (points: [RoutePoint], altered: Int)? {
        var scanner = XMLScanner(
            handler: GPXHandler(keepsImplausible: keepsImplausible, maxPoints: maxPoints), initialCapacity: 1 << 16)
        defer { scanner.deallocate() }
        // A fault in the XML is reported once the source has handed over the whole file: a
        // damaged zip entry (its size or CRC-32 checked at its end) is the cause to name. A
        // route past the cap stops the read at once.
        var fault: (any Error)?
        let found = try stream { chunk in
            guard fault == nil else { return }
            do { try scanner.feed(chunk) } catch let refused as LinkedFileRefused { throw refused } catch { fault = error }
        }
        guard found else { return nil }
        do {
            if let fault { throw fault }
            try scanner.finish()
        } catch let error as XMLScanError {
            throw ImportError(.malformedFile, file: name, error.description)
        } catch let error as ExportFormatError {
            // A point without a position: the file named, as for any other fault in it.
            throw ImportError(.malformedFile, file: name, error.description)
        }
        return (scanner.handler.points, scanner.handler.altered)
    }
}

private struct GPXHandler: XMLHandler {
    let keepsImplausible: Bool
    let maxPoints: Int
    var points: [RoutePoint] = []
    /// Points left out or changed by ``RoutePoint/plausible`` (none when they are kept).
    var altered = 0
    private var current: RoutePoint?
    private var field: Field?
    private var text: [UInt8] = []

    private enum Field { case ele, time, speed, course, hAcc, vAcc }

    init(keepsImplausible: Bool, maxPoints: Int) {
        self.keepsImplausible = keepsImplausible
        self.maxPoints = maxPoints
    }

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

    mutating func text(_ text: XMLText) throws {
        // A value split by comments arrives in pieces: refused past a megabyte (a number or a time).
        guard self.text.count + text.bytes.count <= 1 << 20 else {
            throw ExportFormatError("a point's value of more than 1 MB")
        }
        self.text.append(contentsOf: text.bytes)
    }

    mutating func comment(_ text: XMLText) {}

    mutating func endElement(_ tag: XMLTag) throws {
        if tag.nameIs("trkpt") || tag.nameIs("rtept"), let point = current {
            current = nil
            guard points.count < maxPoints else { throw LinkedFileRefused.tooManyPoints }
            if keepsImplausible {
                points.append(point)
                return
            }
            let kept = point.plausible
            if kept != point { altered += 1 }
            if let kept { points.append(kept) }
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
