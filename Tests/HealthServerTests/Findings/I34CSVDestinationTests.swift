import Foundation
import Testing

/// Found while running CI after an attack session: `export csv --out /dev/null`, run as
/// root, removed the device and left a regular file in its place (the export was written
/// beside its destination and moved over it), so every later `> /dev/null` on the machine
/// failed. A destination that is not a regular file is now written in place, and a link to
/// a file keeps being a link.
@Suite struct I34CSVDestinationTests {
    /// A store of two generated days, in a folder of its own.
    static func store() throws -> (folder: String, store: String) {
        let folder = try CommandLine33.temporaryFolder("csv-out")
        let export = folder + "/export.xml"
        #expect(
            try CommandLine33.run(["synth", "--days", "2", "--start", "2024-06-01", "--seed", "5", "--out", export]).status == 0)
        let store = folder + "/health.sqlite"
        #expect(try CommandLine33.run(["import", export, "--db", store, "--quiet"]).status == 0)
        return (folder, store)
    }

    /// A named pipe stays a pipe, and its reader gets every row. (The reading end is open,
    /// without blocking, before the export starts; two days of steps fit the pipe's buffer.)
    @Test func aPipeIsWrittenInPlace() throws {
        let (folder, store) = try Self.store()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let pipe = folder + "/rows.fifo"
        #expect(mkfifo(pipe, 0o600) == 0)
        let reading = open(pipe, O_RDONLY | O_NONBLOCK)
        try #require(reading >= 0)
        defer { close(reading) }
        let run = try CommandLine33.run(["export", "csv", "--metrics", "steps", "--all-dates", "--db", store, "--out", pipe])
        #expect(run.status == 0, "\(run.err)")
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while case let count = read(reading, &buffer, buffer.count), count > 0 { received.append(contentsOf: buffer[0..<count]) }
        let expected = try CommandLine33.run(["export", "csv", "--metrics", "steps", "--all-dates", "--db", store])
        #expect(String(decoding: received, as: UTF8.self) == expected.out)
        #expect(expected.out.hasPrefix("Date,Metric,Value,Unit\n") && expected.out.utf8.count < 65_536)
        #expect((try FileManager.default.attributesOfItem(atPath: pipe)[.type] as? FileAttributeType) != .typeRegular)
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: folder)).contains { $0.contains(".partial-") })
    }

    /// A link to a file: the file gets the rows, the link stays a link.
    @Test func aLinkIsFollowed() throws {
        let (folder, store) = try Self.store()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let real = folder + "/real.csv"
        let link = folder + "/link.csv"
        try Data("older\n".utf8).write(to: URL(fileURLWithPath: real))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
        let run = try CommandLine33.run(["export", "csv", "--metrics", "steps", "--all-dates", "--db", store, "--out", link])
        #expect(run.status == 0, "\(run.err)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == real)
        #expect(try String(contentsOfFile: real, encoding: .utf8).hasPrefix("Date,Metric,Value,Unit\n"))
    }
}
