import Tether

/// The lifecycle scenario's view model: a LiveData observer and a one-second ticker that follow
/// the screen's lifecycle state.
///
/// It owns the screen's lifecycle in the ledger (it tracks the lifecycle's lifetime and holds
/// the lifecycle), so what is bound to that lifecycle is attributed to it. Bound: the orientation
/// is observed with the screen's lifecycle as owner (`observe(self)`, over the screen's
/// lifecycle) — active while at least started, paused below, handed the latest value once when it
/// becomes active again — and the ticker runs in `repeatOnLifecycle(.started)`, stopped while the
/// screen is hidden. Leaky: the orientation is observed without an owner, with a bag the lab
/// keeps and a completion that holds the view model, and the ticker is a plain task nobody
/// stores: neither pauses while covered, both outlive the sheet (a leak, and zombie deliveries).
///
/// Main-actor isolated; owned by its screen.
@MainActor
final class LifecycleViewModel: LifecycleOwner {
    /// Where the leaky observer registers: a bag that lives as long as the lab.
    static let leakyObservers = Resident.bag("lifecycle.observers")

    let lifecycle: Lifecycle
    let mode: Mode
    private(set) var last: Orientation?
    private(set) var received = 0
    private(set) var receivedWhileCovered = 0
    private(set) var receivedOnReturn = 0
    private(set) var ticks = 0
    private(set) var isTicking = false
    private(set) var isCovered = false
    /// What happened, oldest first.
    private(set) var history = BoundedLog<String>(capacity: 6)
    private var isReturning = false
    private var stateToken: AnyCancellable?
    private weak var environment: LabEnvironment?

    init(mode: Mode, environment: LabEnvironment, lifecycle: Lifecycle) {
        self.mode = mode
        self.lifecycle = lifecycle
        self.environment = environment
        let lifetime = lifecycle.lifetime
        lifetime.track(self)
        // Closes the "on return" window once the screen is back on top (not a ledger entry; the
        // lifecycle drops it at destroyed).
        stateToken = lifecycle.observe(receiveCurrent: false) { [weak self] state in
            guard state == .resumed else { return }
            MainActor.assumeIsolated { self?.isReturning = false }
        }
        let liveData = environment.device.orientationLiveData
        let clock = environment.clock
        switch mode {
        case .bound:
            liveData.observe(boundTo: self) { [weak self] value in
                MainActor.assumeIsolated { self?.receive(value) }
            }
            Task(boundTo: lifetime) { [weak self, lifecycle] in
                await lifecycle.repeatOnLifecycle(.started) { [weak self] in
                    await self?.tick(on: clock)
                }
            }
        case .leaky:
            // No lifecycle owner, a bag nobody ends, a completion holding the view model.
            // tether-lint: ignore sink-retain-cycle — the leaky twin of observe(self)
            liveData.add(
                observer: self, disposeBag: environment.resident(LifecycleViewModel.leakyObservers),
                attributedTo: lifetime
            ) { value in
                MainActor.assumeIsolated { self.receive(value) }
            }
            // Never stored, never stopped.
            // tether-lint: ignore unstored-task — the leaky twin of repeatOnLifecycle(.started)
            Task.attributed(to: lifetime) { [weak self] in
                // tether-lint: ignore strong-self-loop — the leaky twin of repeatOnLifecycle(.started)
                await self?.tick(on: clock)
            }
        }
    }

    /// Whether the observer is receiving now.
    var isObserverActive: Bool { mode == .leaky || lifecycle.state >= .started }

    /// Observer registrations the ledger counts as paused, across the lab.
    var pausedInLedger: Int { environment?.ledger.counters.paused ?? 0 }

    /// The screen is about to be hidden by the cover.
    func willCover() {
        isCovered = true
        note(mode == .bound ? "covered: observer paused, ticker stopped" : "covered: nothing pauses")
    }

    /// The cover was dismissed; the screen is about to become active again.
    func didReturn() {
        isCovered = false
        isReturning = true
        note("back on top")
    }

    private func receive(_ value: Orientation) {
        last = value
        received += 1
        if isCovered {
            receivedWhileCovered += 1
            note("received \(value.rawValue) while covered")
        } else if isReturning {
            receivedOnReturn += 1
            note("received \(value.rawValue) on return, once")
        } else {
            note("received \(value.rawValue)\(received == 1 ? " on start" : "")")
        }
    }

    /// Counts a tick every second of lab time until cancelled.
    private func tick(on clock: any TetherClock) async {
        isTicking = true
        environment?.changed()
        defer {
            isTicking = false
            environment?.changed()
        }
        while true {
            do { try await clock.sleep(for: .seconds(1)) } catch { return }
            ticks += 1
            environment?.changed()
        }
    }

    private func note(_ line: String) {
        history.append(line)
        environment?.changed()
    }
}
