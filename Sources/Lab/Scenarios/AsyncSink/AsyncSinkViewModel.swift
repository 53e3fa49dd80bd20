import Tether

/// The asyncSink sheet's view model: every rotation starts three seconds of lab-time work
/// (thirty steps of 100 ms, each a progress update), under an overlap policy `p` cycles.
///
/// Bound, the work runs in Tether's `asyncSink(overlap:)`, stored in the view model's lifetime:
/// dismissing the sheet cancels *every* running body. Leaky, it runs in the article's naive
/// asyncSink (``Combine/Publisher/naiveAsyncSink(attributedTo:overlap:fileID:line:receiveValue:)``),
/// which cancels only the last body: the others keep running after dismissal — a leak named by
/// the sink's line here, each of their progress updates a zombie delivery.
@MainActor
final class AsyncSinkViewModel {
    /// One rotation's work.
    struct Job: Equatable {
        enum State: String, Equatable {
            case waiting, running, done, cancelled
        }

        let number: Int
        let orientation: Orientation
        var steps = 0
        var state = State.waiting

        var progress: Double { Double(steps) / Double(AsyncSinkViewModel.steps) }
    }

    nonisolated static let steps = 30
    nonisolated static let step = Duration.milliseconds(100)

    let lifetime: Lifetime
    let mode: Mode
    private(set) var overlap = AsyncSinkOverlap.concurrent
    /// The latest jobs, oldest first.
    var jobs: [Job] { log.items }
    /// How many jobs were started in all.
    private(set) var started = 0
    private let environment: LabEnvironment
    private var sink: (cancellable: AnyCancellable, token: Lifetime.Token)?
    private var log = BoundedLog<Job>(capacity: 12)

    init(mode: Mode, environment: LabEnvironment, parent: Lifetime) {
        self.mode = mode
        self.environment = environment
        lifetime = Lifetime(boundTo: parent, ledger: environment.ledger)
        lifetime.track(self)
        subscribe()
    }

    /// How many jobs are running now.
    var running: Int { jobs.count { $0.state == .running } }

    /// Switches to the next overlap policy: the current sink is cancelled (and its bodies with
    /// it) and a new one made.
    func cycleOverlap() {
        overlap = overlap.next
        if let sink {
            lifetime.remove(sink.token)
            sink.cancellable.cancel()
        }
        log.update { jobs in
            for index in jobs.indices where jobs[index].state == .running || jobs[index].state == .waiting {
                jobs[index].state = .cancelled
            }
        }
        subscribe()
        environment.changed()
    }

    private func subscribe() {
        let rotations = environment.device.orientationPublisher.dropFirst()
        let clock = environment.clock
        let cancellable: AnyCancellable
        switch mode {
        case .bound:
            cancellable = rotations.asyncSink(overlap: overlap) { @MainActor [weak self] orientation in
                await AsyncSinkViewModel.work(for: orientation, in: WeakModel(model: self), clock: clock)
            }
        case .leaky:
            cancellable = rotations.naiveAsyncSink(attributedTo: lifetime, overlap: overlap) {
                [weak self] orientation in
                await AsyncSinkViewModel.work(for: orientation, in: WeakModel(model: self), clock: clock)
            }
        }
        sink = (cancellable, cancellable.store(boundTo: lifetime))
    }

    /// The slow work: thirty steps of lab time, each a progress update for `model`'s bar.
    ///
    /// Holds the view model weakly, so the work never keeps it alive: after the sheet is gone a
    /// step still runs (and counts as a delivery to a dead owner) if nothing cancelled it.
    private static func work(
        for orientation: Orientation, in weakModel: WeakModel, clock: any TetherClock
    ) async {
        guard let number = weakModel.model?.start(orientation) else { return }
        for _ in 0..<steps {
            do {
                try await clock.sleep(for: step)
            } catch {
                weakModel.model?.update(number) { $0.state = .cancelled }
                return
            }
            Task.countDelivery()
            weakModel.model?.update(number) { job in
                job.steps += 1
                job.state = job.steps == steps ? .done : .running
            }
        }
    }

    /// The view model, held weakly by the work.
    private struct WeakModel {
        weak var model: AsyncSinkViewModel?
    }

    private func start(_ orientation: Orientation) -> Int {
        started += 1
        log.append(Job(number: started, orientation: orientation, state: .running))
        environment.changed()
        return started
    }

    private func update(_ number: Int, _ change: (inout Job) -> Void) {
        log.update { jobs in
            if let index = jobs.firstIndex(where: { $0.number == number }) { change(&jobs[index]) }
        }
        environment.changed()
    }
}

extension AsyncSinkOverlap {
    /// The policy `p` switches to.
    var next: AsyncSinkOverlap {
        switch self {
        case .concurrent: .serial
        case .serial: .latest
        case .latest: .dropWhileBusy
        case .dropWhileBusy: .concurrent
        }
    }

    /// Its name in the sheet.
    var name: String {
        switch self {
        case .concurrent: ".concurrent"
        case .serial: ".serial"
        case .latest: ".latest"
        case .dropWhileBusy: ".dropWhileBusy"
        }
    }
}
