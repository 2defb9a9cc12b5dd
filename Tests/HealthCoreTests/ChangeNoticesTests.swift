import Foundation
import Testing

@testable import HealthCore

/// The observer registry behind `observe(_:)`.
@Suite struct ChangeNoticesTests {
    @Test func anObserverNobodyHoldsLeavesByItself() {
        let registry = ChangeObservers()
        let counts = Locked<[Int]>([])
        var notices: ChangeNotices? = registry.add([.stepCount]) { count in counts.withLock { $0.append(count) } }
        #expect(registry.count == 1)
        registry.notify(ChangeNotice(types: [.heartRate], lastAnchor: QueryAnchor(1)))  // not observed: dropped
        notices = nil
        #expect(notices == nil && registry.count == 0)
        #expect(counts.withLock { $0 } == [1, 0])  // what stops a store's polling
    }

    @Test func finishingEndsTheSequenceOnce() async {
        let registry = ChangeObservers()
        let counts = Locked<[Int]>([])
        let notices = registry.add(nil) { count in counts.withLock { $0.append(count) } }
        registry.notify(ChangeNotice(types: [.heartRate], lastAnchor: QueryAnchor(3)))
        notices.finish()
        notices.finish()
        var iterator = notices.makeAsyncIterator()
        // As AsyncStream: what was pending is still delivered, then the end.
        #expect(await iterator.next() == ChangeNotice(types: [.heartRate], lastAnchor: QueryAnchor(3)))
        #expect(await iterator.next() == nil)
        #expect(counts.withLock { $0 } == [1, 0])
    }
}
