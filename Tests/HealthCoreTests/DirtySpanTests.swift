import Foundation
import HealthCore
import Testing

/// Dirty spans (issue 32, H3) and the per-key mutex the days' computation runs under.
@Suite struct DirtySpanTests {
    static func at(_ hours: Double) -> Date { Date(timeIntervalSince1970: 1_717_200_000 + hours * 3600) }

    @Test func spansMergeWhenTheyOverlapOrLieWithinTheGap() {
        let spans = [
            DateInterval(start: Self.at(30), end: Self.at(31)), DateInterval(start: Self.at(0), end: Self.at(1)),
            DateInterval(start: Self.at(5), end: Self.at(6)), DateInterval(start: Self.at(0.5), end: Self.at(2)),
        ]
        #expect(
            DirtySpan.merged(spans) == [
                DateInterval(start: Self.at(0), end: Self.at(6)), DateInterval(start: Self.at(30), end: Self.at(31)),
            ])
        #expect(DirtySpan.merged([]) == [])
        #expect(DirtySpan(id: 1, interval: DirtySpan.everything).isEverything)
    }

    @Test func aKeyedMutexRunsOneBodyAtATimePerKey() async throws {
        let mutex = KeyedMutex()
        let inside = Locked(0)
        let most = Locked(0)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<20 {
                group.addTask {
                    try await mutex.withLock(index % 2 == 0 ? "a" : "a") {
                        let now = inside.withLock { count in
                            count += 1
                            return count
                        }
                        most.withLock { $0 = max($0, now) }
                        try await Task.sleep(for: .milliseconds(2))
                        inside.withLock { $0 -= 1 }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(most.withLock { $0 } == 1)
        // A body that throws releases the key.
        await #expect(throws: CancellationError.self) { try await mutex.withLock("b") { throw CancellationError() } }
        #expect(try await mutex.withLock("b") { 7 } == 7)
    }
}
