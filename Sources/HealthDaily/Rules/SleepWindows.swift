import Foundation
import HealthCore

/// The sleep windows of consecutive days: each day's `[D-1 18:00, D 12:00)` in its zone
/// (``LocalDay/sleepWindow``), made not to overlap.
///
/// After a move six hours or more east (a flight to Tokyo), a day's window reaches past the
/// start of the next day's (18:00 there), and a night in the overlap would count on both
/// days. The two windows then meet at one instant: the wake time of the last stretch of
/// sleep in the overlap that ends before the earlier window does (a night slept before the
/// move, or on a day the zone changes early: a stretch of sleep is the day's it wakes on),
/// else the start of the later window (a night slept after the move wakes past the earlier
/// window: the later day's). A stretch is the sleep samples of every source stitched over
/// gaps of up to 30 minutes (``SleepSessionBuilder/stitchGap``).
enum SleepWindows {
    static func of(_ days: [LocalDay], sleep: SampleIndex) -> [DateInterval] {
        var windows = days.map(\.sleepWindow)
        for index in windows.indices.dropLast() {
            let (earlier, later) = (windows[index], windows[index + 1])
            guard later.start < earlier.end else { continue }
            let overlap = DateInterval(start: later.start, end: earlier.end + SleepSessionBuilder.stitchGap)
            var cut = later.start
            var stretch: (start: Date, end: Date)?
            for sample in sleep.overlapping(overlap).sorted(by: { $0.start < $1.start }) {
                if let open = stretch, sample.start.timeIntervalSince(open.end) <= SleepSessionBuilder.stitchGap {
                    stretch = (open.start, max(open.end, sample.end))
                    continue
                }
                if let done = stretch, done.end < earlier.end { cut = max(cut, done.end) }
                stretch = (sample.start, sample.end)
            }
            if let done = stretch, done.end < earlier.end { cut = max(cut, done.end) }
            windows[index] = DateInterval(start: earlier.start, end: max(earlier.start, cut))
            windows[index + 1] = DateInterval(start: min(cut, later.end), end: later.end)
        }
        return windows
    }
}
