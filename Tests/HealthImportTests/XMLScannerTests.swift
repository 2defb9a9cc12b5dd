import Foundation
import HealthCore
import Testing
import ZIPFoundation

@testable import HealthImportReader

/// The streaming scanner gives the same records whatever the chunk boundaries.
@Suite struct XMLScannerTests {
    static func records(_ data: Data, chunk: Int) throws -> (ExportInfo, [HealthRecord]) {
        var records: [HealthRecord] = []
        var scanner = XMLScanner(handler: ExportXMLHandler { records.append($0) }, initialCapacity: 16)
        defer { scanner.deallocate() }
        var offset = 0
        while offset < data.count {
            try scanner.feed(data.subdata(in: offset..<min(offset + chunk, data.count)))
            offset += chunk
        }
        try scanner.finish()
        return (scanner.handler.info, records)
    }

    @Test(arguments: [
        "opendroid-hk/sampleexport.xml", "dogsheep-healthkit-to-sqlite/export.xml",
        "rinoshiyo-apple-health-mcp-server/sample_export.xml",
    ])
    func chunkBoundariesDoNotMatter(_ path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path(path)))
        let (info, whole) = try Self.records(data, chunk: data.count)
        #expect(!whole.isEmpty)
        for chunk in [1, 2, 3, 7, 64, 1000] {
            let (chunkedInfo, chunked) = try Self.records(data, chunk: chunk)
            #expect(chunked == whole, "chunk \(chunk)")
            #expect(chunkedInfo == info)
        }
    }

    @Test func entitiesControlCharactersAndUnknownElements() throws {
        let xml = """
            <?xml version="1.0"?>
            <!DOCTYPE HealthData [
              <!-- HealthKit Export Version: 12 -->
              <!ATTLIST Broken
                type CDATA #IMPLIED
              <!ELEMENT Dup EMPTY> >
            ]>
            <HealthData locale="de_DE">
             <Record type="HKDataTypeSleepDurationGoal" sourceName="Tom &amp; &quot;Jerry&quot; &#x1F600;" unit="hr" value="8" startDate="2024-01-01 00:00:00 +0100" endDate="2024-01-01 00:00:00 +0100">
              <MetadataEntry key="meal" value="a\u{0B}b"/>
              <MetadataEntry key="Meal" value="2"/>
             </Record>
             <VisionPrescription type="glasses" dateIssued="2023-01-01 00:00:00 +0100" expirationDate="2025-01-01 00:00:00 +0100">
              <RightEye sphere="-1.25" sphereUnit="D"/>
             </VisionPrescription>
            </HealthData>
            """
        let (info, records) = try Self.records(Data(xml.utf8), chunk: 5)
        #expect(info.exportVersion == 12)
        #expect(info.locale == "de_DE")
        #expect(records.count == 2)
        guard case .sample(let sample) = records[0], case .other(let element) = records[1] else {
            Issue.record("unexpected records \(records)")
            return
        }
        #expect(sample.type.identifier == "HKDataTypeSleepDurationGoal")
        #expect(sample.type.kind == .other)
        #expect(sample.source.name == "Tom & \"Jerry\" 😀")
        #expect(sample.metadata == [MetadataEntry(key: "meal", value: "a\u{0B}b"), MetadataEntry(key: "Meal", value: "2")])
        #expect(element.name == "VisionPrescription")
        #expect(
            element.children == [
                RawElement(
                    name: "RightEye",
                    attributes: [
                        MetadataEntry(key: "sphere", value: "-1.25"), MetadataEntry(key: "sphereUnit", value: "D"),
                    ])
            ])
    }

    @Test func mismatchedTagsAreReportedWithTheirLine() throws {
        let xml =
            "<HealthData>\n <Record type=\"x\" sourceName=\"a\" startDate=\"2024-01-01 00:00:00 +0000\">\n</Workout>\n</HealthData>"
        #expect {
            _ = try Self.records(Data(xml.utf8), chunk: 4)
        } throws: { error in
            "\(error)".contains("line 3") && "\(error)".contains("does not match <Record>")
        }
    }

    @Test func numbersParseExactly() {
        for text in ["0", "72", "-3.5", "2.95276", "0.000001", "123456789.123456789", "1e3", "1.7976931348623157e308", "4.30455"]
        {
            let parsed = Array(text.utf8).withUnsafeBytes { ByteParsing.double($0) }
            #expect(parsed == Double(text), "\(text)")
        }
        for text in ["", "-", "abc", "1.2.3", "nan", ".", "-.", "+."] {
            #expect(Array(text.utf8).withUnsafeBytes { ByteParsing.double($0) } == nil, "\(text)")
        }
    }
}

@Suite struct BeatTimeTests {
    @Test func localeFormats() {
        #expect(BeatTime.secondsOfDay("11:26:02.34 AM") == 41162.34)
        #expect(BeatTime.secondsOfDay("12:00:01.20 AM") == 1.2)
        #expect(BeatTime.secondsOfDay("12:30:00 PM") == 45000)
        #expect(BeatTime.secondsOfDay("9:05:01.5\u{202F}PM") == 75901.5)
        #expect(BeatTime.secondsOfDay("00:20:37,80") == 1237.8)
        #expect(BeatTime.secondsOfDay("23:59:59.99") == 86399.99)
        #expect(BeatTime.secondsOfDay("noon") == nil)
        #expect(BeatTime.secondsOfDay("25:00:00") == nil)
    }

    @Test func anchoredAcrossMidnight() throws {
        // Parent starts 23:59:50 at -0800; beats at 23:59:58.5 and 00:00:01.2 the next day.
        let parent = try #require(ExportDate.parse("2024-01-01 23:59:50 -0800"))
        let before = BeatTime.anchor(secondsOfDay: 86398.5, parentStart: parent.date, utcOffsetSeconds: -28800)
        let after = BeatTime.anchor(secondsOfDay: 1.2, parentStart: parent.date, utcOffsetSeconds: -28800)
        #expect(before.timeIntervalSince(parent.date) == 8.5)
        #expect((after.timeIntervalSince(parent.date) * 10).rounded() == 112)
        // And the other way: a parent just after midnight with a beat written before it.
        let early = try #require(ExportDate.parse("2024-01-02 00:00:02 +0100"))
        let previous = BeatTime.anchor(secondsOfDay: 86399, parentStart: early.date, utcOffsetSeconds: 3600)
        #expect(previous.timeIntervalSince(early.date) == -3)
    }

    @Test func beatsOfAnImportedRecordCrossMidnight() throws {
        let xml = """
            <HealthData locale="en_US">
             <Record type="HKQuantityTypeIdentifierHeartRateVariabilitySDNN" sourceName="W" unit="ms" value="40" startDate="2024-01-01 23:59:50 -0800" endDate="2024-01-02 00:00:50 -0800">
              <HeartRateVariabilityMetadataList>
               <InstantaneousBeatsPerMinute bpm="60" time="11:59:58.50 PM"/>
               <InstantaneousBeatsPerMinute bpm="61" time="12:00:01.20 AM"/>
              </HeartRateVariabilityMetadataList>
             </Record>
            </HealthData>
            """
        let (_, records) = try XMLScannerTests.records(Data(xml.utf8), chunk: 100)
        guard case .sample(let sample) = records.first else {
            Issue.record("no sample")
            return
        }
        let beats = try #require(sample.beats)
        #expect(beats.map(\.beatsPerMinute) == [60, 61])
        #expect(beats[0].time.timeIntervalSince(sample.start) == 8.5)
        #expect((beats[1].time.timeIntervalSince(sample.start) * 10).rounded() == 112)
    }
}

/// A construct of megabytes fed in small chunks — a comment, a processing instruction, a
/// CDATA section, a DOCTYPE's internal subset — is searched for its end once, not from its
/// start again on every chunk: a 50 kB zip whose GPX held a 48 MB comment of "- - -" kept
/// an import busy for 79 s. Here, in 1 kB chunks, the old scanner ran for hours.
@Suite struct XMLScannerLongConstructTests {
    @Test func longConstructsAreSearchedOnce() throws {
        let megabytes = 4
        let dashes = String(repeating: "- ", count: megabytes << 19)
        let xml = """
            <?xml version="1.0"?>
            <!DOCTYPE HealthData [
            \(String(repeating: "<!ELEMENT a (b)>\n", count: 100_000))]>
            <HealthData locale="en_US">
             <!--\(dashes)-->
             <?pi \(String(repeating: "? ", count: megabytes << 19))?>
             <Note><![CDATA[\(String(repeating: "] ", count: megabytes << 19))]]></Note>
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Watch" unit="count" \
            startDate="2024-02-29 07:00:00 +0100" endDate="2024-02-29 07:10:00 +0100" value="120"/>
            </HealthData>
            """
        let data = Data(xml.utf8)
        let (_, whole) = try XMLScannerTests.records(data, chunk: data.count)
        let clock = ContinuousClock()
        var chunked: [HealthRecord] = []
        let elapsed = try clock.measure { chunked = try XMLScannerTests.records(data, chunk: 1_000).1 }
        #expect(whole.count == 2 && chunked == whole)
        // Linear: well under a second even in a debug build; quadratic: hours.
        #expect(elapsed < .seconds(30), "\(elapsed)")
    }

    /// A start tag that never ends is refused past 16 MB, naming where it starts (each chunk
    /// parses an unfinished tag again from its `<`).
    @Test func aStartTagOfMoreThan16MBIsRefused() throws {
        let value = String(repeating: "x", count: 170_000)
        let attributes = (0..<100).map { " a\($0)=\"\(value)\"" }.joined()
        let data = Data("<HealthData>\n <Record\(attributes)".utf8)
        do {
            _ = try XMLScannerTests.records(data, chunk: data.count)
            Issue.record("the tag should be refused")
        } catch let error as XMLScanError {
            #expect(error.description.contains("a start tag of more than 16 MB") && error.description.contains("line 2"))
        }
    }
}

/// What a handler waits for is bounded: a comment (or CDATA, declaration, end tag) of more
/// than 16 MB, a wanted text value of more than 16 MB, a route point's value of more than
/// 1 MB are refused — each is held whole until it ends — and a long value streamed in
/// chunks is searched once for its end (a route's value was searched again per chunk).
@Suite struct XMLScannerHeldBytesTests {
    static func route(value: Int) -> Data {
        var data = Data(#"<gpx version="1.1"><trk><trkseg><trkpt lat="1" lon="1"><ele>"#.utf8)
        data.append(Data(repeating: 48, count: value))
        data.append(Data("</ele></trkpt></trkseg></trk></gpx>".utf8))
        return data
    }

    static func streamed(_ data: Data, chunk: Int) throws -> [RoutePoint]? {
        try GPXReader.plausiblePoints(name: "route.gpx", maxPoints: 10) { consume in
            var offset = 0
            while offset < data.count {
                try consume(data.subdata(in: offset..<min(offset + chunk, data.count)))
                offset += chunk
            }
            return true
        }?.points
    }

    @Test func longValuesAndCommentsAreRefused() throws {
        #expect(try Self.streamed(Self.route(value: 1_000), chunk: 1_000)?.first?.elevation == 0)
        for (value, words) in [(2 << 20, "a point's value of more than 1 MB"), (17 << 20, "a text value of more than 16 MB")] {
            let clock = ContinuousClock()
            let elapsed = clock.measure {
                do {
                    _ = try Self.streamed(Self.route(value: value), chunk: 4_096)
                    Issue.record("\(value) should be refused")
                } catch {
                    #expect("\(error)".contains(words), "\(error)")
                }
            }
            // Searched once: a fraction of a second even in a debug build; per chunk, minutes.
            #expect(elapsed < .seconds(30), "\(elapsed)")
        }
        var comment = Data("<HealthData>\n <!--".utf8)
        comment.append(Data(repeating: 120, count: 17 << 20))
        comment.append(Data("-->\n</HealthData>".utf8))
        #expect(throws: XMLScanError.self) { try XMLScannerTests.records(comment, chunk: 1 << 20) }
        do {
            _ = try XMLScannerTests.records(comment, chunk: 1 << 20)
        } catch {
            #expect("\(error)".contains("a comment, CDATA section, declaration or end tag of more than 16 MB"))
        }
    }
}

/// A start tag of more than 1,024 attributes is refused, naming its line; 1,024 are read.
@Suite struct XMLScannerAttributeCapTests {
    @Test func aStartTagOfMoreThan1024AttributesIsRefused() throws {
        func export(attributes: Int) -> Data {
            let extra = (0..<attributes - 5).map { " a\($0)=\"b\"" }.joined()
            return Data(
                """
                <HealthData locale="en_US">
                 <Record type="HKQuantityTypeIdentifierStepCount" unit="count" startDate="2024-02-29 07:00:00 +0100" \
                endDate="2024-02-29 07:10:00 +0100" value="120"\(extra)/>
                </HealthData>
                """.utf8)
        }
        #expect(try XMLScannerTests.records(export(attributes: 1_024), chunk: 100).1.count == 1)
        do {
            _ = try XMLScannerTests.records(export(attributes: 1_025), chunk: 100)
            Issue.record("the tag should be refused")
        } catch let error as XMLScanError {
            #expect(
                error.description.contains("a start tag of more than 1,024 attributes") && error.description.contains("line 2"))
        }
    }
}

/// Our CRC-32 is zip's: the check value of the standard, and ZIPFoundation's own
/// (byte-at-a-time) result on every length and alignment around the 8-byte steps.
@Suite struct CRC32Tests {
    @Test func checkValue() {
        var crc = CRC32()
        Array("123456789".utf8).withUnsafeBytes { crc.update($0) }
        #expect(crc.value == 0xCBF4_3926)
    }

    @Test func matchesZIPFoundationInAnyChunking() {
        var state: UInt64 = 7
        let bytes = (0..<1000).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        for length in [0, 1, 7, 8, 9, 15, 16, 17, 999, 1000] {
            let data = Data(bytes.prefix(length))
            for chunk in [1, 3, 8, 13, 1000] {
                var crc = CRC32()
                var start = 0
                while start < data.count {
                    let end = min(start + chunk, data.count)
                    data[start..<end].withUnsafeBytes { crc.update($0) }
                    start = end
                }
                #expect(crc.value == data.crc32(checksum: 0), "length \(length), chunk \(chunk)")
            }
        }
    }
}
