import Foundation

/// One page of a scan of samples (``HealthQuerying/samplePages(of:startingIn:)``) and how
/// to read the page after it.
public struct SampleScanPage: Sendable {
    /// Never empty, except the first page of a scan that finds nothing.
    public var rows: [SampleRow]
    /// Reads the next page; `nil` after the last.
    public var next: (@Sendable () async throws -> SampleScanPage)?

    public init(rows: [SampleRow], next: (@Sendable () async throws -> SampleScanPage)?) {
        self.rows = rows
        self.next = next
    }

    /// `rows` handed on in pages of ``sampleScanPageSize``: a store that reads a scan at once
    /// (in memory, HealthKit without a cursor) pages it the way the databases do.
    public static func pages(of rows: [SampleRow], from offset: Int = 0) -> SampleScanPage {
        let end = min(offset + sampleScanPageSize, rows.count)
        guard end < rows.count else { return SampleScanPage(rows: Array(rows[offset..<end]), next: nil) }
        return SampleScanPage(rows: Array(rows[offset..<end])) { @Sendable in pages(of: rows, from: end) }
    }
}

/// A scan of samples as an `AsyncSequence` of pages (`for try await rows in …`), for
/// exports of millions of rows: the stores read a page at a time by keyset, each in a
/// transaction of its own. While the caller takes a page, the next is read (on two cores
/// the store's decoding and the caller's formatting run side by side): two pages in memory
/// at most, and a caller that stops early (or is cancelled) stops the scan.
public struct SamplePages: AsyncSequence, Sendable {
    public typealias Element = [SampleRow]

    private let first: @Sendable () async throws -> SampleScanPage

    /// The pages from `first` on, each page reading its successor.
    public init(first: @escaping @Sendable () async throws -> SampleScanPage) {
        self.first = first
    }

    public func makeAsyncIterator() -> Iterator { Iterator(first: first) }

    public struct Iterator: AsyncIteratorProtocol {
        private let reading: Reading

        init(first: @escaping @Sendable () async throws -> SampleScanPage) {
            reading = Reading(first)
        }

        public mutating func next() async throws -> [SampleRow]? {
            try await reading.next()
        }
    }

    /// The page being read: cancelled when the iteration is dropped before its end.
    private final class Reading {
        private var pending: Task<SampleScanPage, any Error>?
        private var first: (@Sendable () async throws -> SampleScanPage)?

        init(_ first: @escaping @Sendable () async throws -> SampleScanPage) {
            self.first = first
        }

        func next() async throws -> [SampleRow]? {
            let page: SampleScanPage
            if let first {
                self.first = nil
                page = try await first()
            } else if let pending {
                self.pending = nil
                page = try await withTaskCancellationHandler {
                    try await pending.value
                } onCancel: {
                    pending.cancel()
                }
            } else {
                return nil
            }
            guard !page.rows.isEmpty else { return nil }
            if let next = page.next { pending = Task { try await next() } }
            return page.rows
        }

        deinit { pending?.cancel() }
    }
}
