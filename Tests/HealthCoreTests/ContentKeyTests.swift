import Foundation
import Testing

@testable import HealthCore

@Suite struct ContentKeyTests {
    static func steps(_ value: Double = 100, device: String, start: String = "2024-01-15 07:30:00 -0800") -> Sample {
        let parsed = ExportDate.parse(start)!
        return Sample(
            type: .stepCount, start: parsed.date, end: parsed.date.addingTimeInterval(600),
            value: .quantity(value, unit: "count"),
            source: Source(name: "Jane’s iPhone", version: "17.1"), device: Device(exportString: device),
            utcOffsetSeconds: parsed.utcOffsetSeconds)
    }

    @Test func ignoresTheDeviceAddressAndTheWrittenOffset() {
        let a = Self.steps(device: "<<HKDevice: 0x1>, name:iPhone, hardware:iPhone14,2>")
        let b = Self.steps(device: "<<HKDevice: 0x2ff>, name:iPhone, hardware:iPhone14,2>", start: "2024-01-15 08:30:00 -0700")
        #expect(a.contentKey == b.contentKey)
    }

    @Test func changesWithAnyField() {
        let base = Self.steps(device: "<<HKDevice: 0x1>, name:iPhone>")
        var other = base
        other.value = .quantity(101, unit: "count")
        #expect(other.contentKey != base.contentKey)
        other = base
        other.source.version = "17.2"
        #expect(other.contentKey != base.contentKey)
        other = base
        other.metadata = [MetadataEntry(key: "HKWasUserEntered", value: "1")]
        #expect(other.contentKey != base.contentKey)
        other = base
        other.type = .distanceWalkingRunning
        #expect(other.contentKey != base.contentKey)
    }

    @Test func metadataTimestampsCountAsInstants() {
        var a = Self.steps(device: "")
        var b = a
        a.metadata = [MetadataEntry(key: "Original Creation Date", value: "2015-12-21 13:46:53 +0300")]
        b.metadata = [MetadataEntry(key: "Original Creation Date", value: "2015-12-21 11:46:53 +0100")]
        #expect(a.contentKey == b.contentKey)
    }

    @Test func fieldBoundariesMatter() {
        var ab = ContentKeyBuilder(tag: "t")
        ab.add("ab")
        ab.add("c")
        var abc = ContentKeyBuilder(tag: "t")
        abc.add("a")
        abc.add("bc")
        #expect(ab.finish() != abc.finish())
    }

    @Test func murmurMatchesTheReferenceVectors() {
        // Reference values of MurmurHash3_x64_128 with seed 0.
        #expect(MurmurHash3.hash128(UnsafeRawBufferPointer(start: nil, count: 0)) == ContentKey(high: 0, low: 0))
        let hello = Array("hello".utf8)
        let key = hello.withUnsafeBytes { MurmurHash3.hash128($0) }
        #expect(key.high == 0xcbd8_a7b3_41bd_9b02 && key.low == 0x5b1e_906a_48ae_1d19)
        let fox = Array("The quick brown fox jumps over the lazy dog".utf8)
        let foxKey = fox.withUnsafeBytes { MurmurHash3.hash128($0) }
        #expect(foxKey.high == 0xe34b_bc7b_bc07_1b6c && foxKey.low == 0x7a43_3ca9_c49a_9347)
    }

    /// The streaming hash gives the reference key whatever the pieces: fed in every split of
    /// the 43-byte vector into three pieces, and 1 MiB of bytes in uneven chunks.
    @Test func streamingGivesTheSameKeyWhateverThePieces() {
        let fox = Array("The quick brown fox jumps over the lazy dog".utf8)
        for first in 0...fox.count {
            for second in first...fox.count {
                var hasher = StreamingContentHash()
                hasher.update(Array(fox[..<first]))
                hasher.update(Array(fox[first..<second]))
                hasher.update(Array(fox[second...]))
                let key = hasher.finish()
                #expect(key.high == 0xe34b_bc7b_bc07_1b6c && key.low == 0x7a43_3ca9_c49a_9347, "\(first), \(second)")
            }
        }
        let large = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
        var hasher = StreamingContentHash()
        var offset = 0
        var step = 1
        while offset < large.count {
            let end = min(large.count, offset + step)
            hasher.update(Array(large[offset..<end]))
            offset = end
            step = step * 7 % 65_521 + 3
        }
        #expect(hasher.finish() == large.withUnsafeBytes { MurmurHash3.hash128($0) })
    }
}

/// Issue 37 §1: a batch's keys are built in one reused builder with each type's tag computed
/// once; they are the keys each sample has on its own, whatever came before in the builder.
@Suite struct I37BatchContentKeyTests {
    @Test func i37_keysBuiltInOneBuilderAreEachSamplesOwnKey() {
        let types: [SampleType] = [.heartRate, .stepCount, .sleepAnalysis, SampleType("HKQuantityTypeIdentifierVO2Max")]
        let start = Date(timeIntervalSince1970: 1_704_067_200)
        var builder = ContentKeyBuilder(tag: "sample")
        var seen = Set<ContentKey>()
        for index in 0..<500 {
            var metadata: [MetadataEntry] = []
            // Long and short samples alternate, so a short one follows bytes of a long one.
            for entry in 0..<(index % 4 == 0 ? 12 : index % 3) {
                metadata.append(MetadataEntry(key: "key\(entry)", value: String(repeating: "v", count: index % 50)))
            }
            let type = types[(index / 7) % types.count]
            let sample = Sample(
                type: type, start: start.addingTimeInterval(Double(index) * 17),
                end: start.addingTimeInterval(Double(index) * 17 + 5),
                value: index % 5 == 0
                    ? .category("HKCategoryValueSleepAnalysisAsleepCore") : .quantity(Double(index), unit: "count"),
                source: Source(name: "source \(index % 3)", version: index % 2 == 0 ? nil : "1.\(index)"),
                device: index % 6 == 0 ? nil : Device(name: "device \(index % 4)", hardware: "Watch\(index % 2)"),
                metadata: metadata)
            let key = sample.contentKey(typeTag: ContentKey.typeTag(type.identifier), builder: &builder)
            #expect(key == sample.contentKey, "\(index)")
            seen.insert(key)
        }
        #expect(seen.count == 500)
    }
}
