/// The counters over the last minute, as the snapshots told them: what the inspector's
/// sparklines draw.
///
/// Time is the snapshots' own (the serving ledger's clock), never this process's: a sample is
/// recorded when a snapshot comes, and the window ends at the newest one. So a program that
/// changes nothing sends nothing, and nothing here needs waking to move the window on — the
/// sparkline covers the minute up to the last change. A plain value: `Sendable`.
struct CounterHistory: Sendable, Equatable {
    struct Sample: Sendable, Equatable {
        var time: Duration
        var counters: LabDump.Counters
    }

    /// How far back a sparkline looks.
    static let window: Duration = .seconds(60)

    /// The samples, oldest first: those of the window, and the last one before it (the value the
    /// window starts with).
    private(set) var samples: [Sample] = []

    /// Records the counters at `time`. A time before the last sample's is another clock (the
    /// process at the path was restarted): the history starts again.
    mutating func record(_ counters: LabDump.Counters, at time: Duration) {
        if let last = samples.last {
            if time < last.time {
                samples.removeAll()
            } else if last.counters == counters {
                return
            }
        }
        samples.append(Sample(time: time, counters: counters))
        let start = time - CounterHistory.window
        // Keep one sample at or before the window's start: the value the window opens with.
        if let firstInside = samples.firstIndex(where: { $0.time > start }), firstInside > 1 {
            samples.removeFirst(firstInside - 1)
        }
    }

    /// The largest value of `counter` in each of `buckets` equal slices of the last minute, up to
    /// the newest sample; nil for a slice before the first sample.
    func values(_ counter: KeyPath<LabDump.Counters, Int>, buckets: Int) -> [Int?] {
        guard buckets > 0, let end = samples.last?.time else { return [] }
        let start = end - CounterHistory.window
        var result: [Int?] = []
        result.reserveCapacity(buckets)
        var next = 0  // the first sample not yet looked at
        var current: Int?  // the value at the slice's start
        for bucket in 0..<buckets {
            let to = start + CounterHistory.window * Double(bucket + 1) / Double(buckets)
            var top = current
            while next < samples.count, samples[next].time <= to {
                let value = samples[next].counters[keyPath: counter]
                top = max(top ?? value, value)
                current = value
                next += 1
            }
            result.append(top)
        }
        return result
    }
}
