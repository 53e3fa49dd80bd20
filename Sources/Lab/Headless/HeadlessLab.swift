import Foundation
import TerminalUI
import Tether

/// The lab without a terminal: the same ``LabApp`` on a `TestBackend`, with a `ManualClock`
/// for lab time, driven one ``KeyStep`` at a time. What `tether-lab --headless` runs, and what
/// tests call in-process.
///
/// After each key the run *settles*: it yields to the main actor until the work the key
/// triggered has run — until the ledger's counters, the clock's pending work and the lab's
/// change count stay the same for several yields in a row. `wait:MS` moves the clock from one
/// pending deadline to the next, settling after each, so leak verdicts and slow work happen in
/// order. `q`
/// (or ``quit()``) tears the whole stack down, then lets the grace period pass and settles,
/// so a bound lab ends with every counter at 0. When the steps run out without `q`, the state
/// is left as it is.
///
/// ```swift
/// let lab = HeadlessLab()
/// await lab.run(try KeyScript.parse("1 r r Esc wait:400"))
/// print(lab.json())
/// ```
///
/// Main-actor isolated; one run per instance.
@MainActor
public final class HeadlessLab {
    /// How far past the grace period quitting (and the soak, after each dismissal) moves the
    /// clock, so that the last verdicts are sure to have fallen due.
    public static let tick: Duration = .milliseconds(10)

    public let clock: ManualClock
    public let environment: LabEnvironment
    public let backend: TestBackend
    public let lab: LabApp
    /// True once `q` (or ``quit()``) tore the lab down; later steps are ignored.
    public private(set) var hasQuit = false

    /// Builds a headless lab of `size` (120×40 by default) listing `scenarios`.
    public init(
        size: Size = Size(width: 120, height: 40), scenarios: [Scenario] = Scenarios.all,
        theme: Theme = .standard
    ) {
        clock = ManualClock()
        environment = LabEnvironment(clock: clock)
        backend = TestBackend(size: size)
        lab = LabApp(backend: backend, environment: environment, scenarios: scenarios, theme: theme)
        lab.application.render()
    }

    /// Runs `steps` in order, stopping after `q`.
    public func run(_ steps: [KeyStep]) async {
        for step in steps {
            if hasQuit { break }
            await perform(step)
        }
    }

    /// Runs one step and settles; draws a frame unless the step quit.
    public func perform(_ step: KeyStep) async {
        guard !hasQuit else { return }
        switch step {
        case .key(let key):
            lab.application.send(key)
            await settle()
            if lab.application.isFinished {
                await finish()
                return
            }
        case .wait(let duration):
            await advance(by: duration)
        }
        lab.application.render()
    }

    /// Presses `key`, as ``perform(_:)`` does.
    public func press(_ key: Key) async { await perform(.key(key)) }

    /// Quits as `q` does: tears the stack down, lets the grace period pass, settles.
    public func quit() async {
        guard !hasQuit else { return }
        lab.application.quit()
        await finish()
    }

    private func finish() async {
        hasQuit = true
        lab.tearDown()
        await settle()
        await advance(by: environment.ledger.gracePeriod + HeadlessLab.tick)
    }

    /// Moves lab time forward by `duration`, stopping at each pending deadline on the way and
    /// settling there, so what falls due runs — and what it schedules in turn is seen — in order.
    ///
    /// Nothing in the lab happens between two deadlines of its clock, so the clock jumps from
    /// one to the next instead of stepping through the time between in 10 ms steps, each of
    /// which had to settle. (The soak runs at twice the rate for it.)
    ///
    /// Lab time must not outrun the work it waits on. In bound mode, while an owner has ended but
    /// its object still lives — its last task may be winding down on another thread, holding
    /// it — the run yields until it is gone (at most ``patience`` times) before moving the
    /// clock, as the 300 ms of a real grace period would let that work finish; else a leak
    /// verdict could catch an owner on its way out. (The soak saw that once in 60,000
    /// dismissals under valgrind, which runs threads one at a time.) In leaky mode an owner that
    /// ended and lives on is the lesson, and nothing is waited for.
    public func advance(by duration: Duration) async {
        let end = clock.now + duration
        while clock.now < end {
            var waited = 0
            while environment.mode == .bound, waited < HeadlessLab.patience, hasOwnerOnItsWayOut {
                await Task.yield()
                waited += 1
            }
            clock.advance(to: min(clock.nextDeadline ?? end, end))
            await settle()
        }
    }

    /// How many times ``advance(by:)`` yields at most, in bound mode, for an owner that ended to
    /// be released before it moves the clock. Not until it is released: some are held until a
    /// deadline of the lab's clock (the fuse scenario's forwarder), which only moving it reaches.
    public static let patience = 64

    /// Whether an owner has ended and its object is not yet gone, before its verdict: a count
    /// the ledger keeps, read without building a snapshot (which would also re-arm the lab's
    /// change handler on every yield).
    private var hasOwnerOnItsWayOut: Bool { environment.ledger.counters.ending > 0 }

    private struct Fingerprint: Equatable {
        var counters: LedgerSnapshot.Counters
        var pending: Int
        var changes: Int
    }

    private var fingerprint: Fingerprint {
        Fingerprint(
            counters: environment.ledger.counters, pending: clock.pendingCount, changes: lab.changeCount)
    }

    /// Lets the work triggered by the last step run: yields until nothing observable changes for
    /// `quietYields` yields in a row (at most `maxYields` in all).
    ///
    /// The last yield of a quiet stretch also waits for a task of low priority to run on the
    /// global executor, so work a step started off the main actor (a scenario's task on its way
    /// to the lab clock's `sleep`) has at least begun; if it changes anything, the stretch starts
    /// again. Work that began but is held up by a busy CPU can still be missed: only work on the
    /// main actor is sure to be seen.
    public func settle(quietYields: Int = 8, maxYields: Int = 2000) async {
        var last = fingerprint
        var quiet = 0
        for _ in 0..<maxYields {
            await Task.yield()
            if quiet == quietYields - 1 { await Task.detached(priority: .background) {}.value }
            let now = fingerprint
            if now == last {
                quiet += 1
                if quiet >= quietYields { return }
            } else {
                quiet = 0
                last = now
            }
        }
    }

    /// The state as the design's JSON describes it.
    public func dump() -> LabDump { lab.dump() }

    /// ``dump()`` as JSON: pretty-printed with sorted keys, so equal states print equal text.
    public func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encode(dump()), as: UTF8.self)
        } catch {
            preconditionFailure("LabDump always encodes: \(error)")
        }
    }

    /// The last frame drawn, one line a row without trailing spaces (after `q`, the frame
    /// before the teardown).
    public var screenText: String { backend.trimmedTextLines.joined(separator: "\n") }
}
