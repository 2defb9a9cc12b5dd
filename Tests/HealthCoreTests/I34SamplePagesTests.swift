import Foundation
import Testing

@testable import HealthCore

/// Issue 34 §2: a scan is an `AsyncSequence` of pages. The next page is read while the
/// caller takes one, never further ahead; a caller that stops stops the scan; a page that
/// fails fails the iteration there.
@Suite struct I34SamplePagesTests {
    struct Broken: Error {}

    /// A scan of `count` pages of one row each (the row's start is the page's number),
    /// counting the pages read; page `failing` throws.
    static func pages(_ count: Int, reads: Locked<[Int]>, failing: Int? = nil) -> SamplePages {
        @Sendable func page(_ number: Int) async throws -> SampleScanPage {
            reads.withLock { $0.append(number) }
            if number == failing { throw Broken() }
            let row = SampleRow(
                start: Double(number), end: Double(number), value: nil, valueText: nil, unit: nil, sourceName: "",
                timeZoneIdentifier: nil)
            guard number + 1 < count else { return SampleScanPage(rows: [row], next: nil) }
            return SampleScanPage(rows: [row]) { @Sendable in try await page(number + 1) }
        }
        return SamplePages { try await page(0) }
    }

    @Test func i34_async_everyPageOnceInOrder() async throws {
        let reads = Locked<[Int]>([])
        var starts: [Double] = []
        for try await rows in Self.pages(4, reads: reads) { starts += rows.map(\.start) }
        #expect(starts == [0, 1, 2, 3])
        #expect(reads.withLock { $0 } == [0, 1, 2, 3])
    }

    @Test func i34_async_aCallerThatStopsReadsAtMostOnePageAhead() async throws {
        let reads = Locked<[Int]>([])
        for try await rows in Self.pages(100, reads: reads) {
            #expect(rows.map(\.start) == [0])
            break
        }
        // The second page may have been read ahead; nothing after it.
        try await Task.sleep(for: .milliseconds(50))
        #expect(reads.withLock { $0 }.allSatisfy { $0 <= 1 })
    }

    @Test func i34_async_aFailingPageFailsTheIterationThere() async throws {
        let reads = Locked<[Int]>([])
        var starts: [Double] = []
        await #expect(throws: Broken.self) {
            for try await rows in Self.pages(5, reads: reads, failing: 2) { starts += rows.map(\.start) }
        }
        #expect(starts == [0, 1])
    }

    /// A store that reads a scan at once hands it on in pages of 5,000.
    @Test func i34_async_rowsReadAtOnceArePagedAsTheDatabasesPage() async throws {
        let rows = (0..<12_001).map {
            SampleRow(
                start: Double($0), end: Double($0), value: nil, valueText: nil, unit: nil, sourceName: "",
                timeZoneIdentifier: nil)
        }
        var sizes: [Int] = []
        var starts: [Double] = []
        for try await page in SamplePages(first: { SampleScanPage.pages(of: rows) }) {
            sizes.append(page.count)
            starts += page.map(\.start)
        }
        #expect(sizes == [5_000, 5_000, 2_001])
        #expect(starts == rows.map(\.start))
        var none = 0
        for try await page in SamplePages(first: { SampleScanPage.pages(of: []) }) { none += page.count }
        #expect(none == 0)
    }
}
