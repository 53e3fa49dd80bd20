import Tether

/// The LiveData scenario's view model: three panels observing one `LiveData` of the orientation.
///
/// The view model's bag ends with the sheet; each panel's bag is its child. Bound, every panel
/// registers with its own bag, so dismissing the sheet removes every observer. Leaky, each panel
/// registers with a bag the long-lived LiveData side keeps (a resident of the lab) and its
/// completion holds the panel strongly: nothing ever removes the registration, the panels outlive
/// the sheet and keep receiving. The registrations are attributed to the view model, so the ledger
/// names them in its leak and counts what they receive after the sheet as zombie deliveries.
///
/// Main-actor isolated; owned by its screen.
@MainActor
final class LiveDataViewModel {
    /// Where the leaky panels register: a bag that lives as long as the lab.
    static let leakyObservers = Resident.bag("livedata.observers")

    let bag: DisposeBag
    let mode: Mode
    private(set) var panels: [LiveDataPanel] = []
    private let liveData: LiveData<Orientation>

    init(mode: Mode, environment: LabEnvironment, parent: Lifetime) {
        self.mode = mode
        liveData = environment.device.orientationLiveData
        bag = DisposeBag(ledger: environment.ledger)
        bag.track(self)
        // The sheet's end disposes the bag; held weakly, so the sheet does not keep it.
        parent.onEnd { [weak bag] in bag?.dispose() }
        let target: DisposeBag? =
            switch mode {
            case .bound: nil
            case .leaky: environment.resident(LiveDataViewModel.leakyObservers)
            }
        panels = ["A", "B", "C"].map { name in
            LiveDataPanel(
                name: name, liveData: liveData, parent: bag, leakyBag: target, environment: environment)
        }
    }

    /// Registrations alive on the LiveData: three per sheet, more while leaky panels linger.
    var observerCount: Int { liveData.observerCount }
}

/// One observing panel: the last orientation it received and how many values.
///
/// Its bag is a child of the view model's and it is a ledger owner. Bound, it registers with
/// that bag, capturing itself weakly. Leaky (`leakyBag` given), it registers with the long-lived
/// bag, attributed to the view model, capturing itself strongly: the LiveData keeps it alive (and
/// through its bag, the view model's), and it keeps receiving.
@MainActor
final class LiveDataPanel {
    let name: String
    let bag: DisposeBag
    private(set) var last: Orientation?
    private(set) var received = 0
    private weak var environment: LabEnvironment?

    init(
        name: String, liveData: LiveData<Orientation>, parent: DisposeBag, leakyBag: DisposeBag?,
        environment: LabEnvironment
    ) {
        self.name = name
        self.environment = environment
        bag = DisposeBag(boundTo: parent, ledger: environment.ledger)
        bag.track(self)
        if let leakyBag {
            // Nobody ends this bag, and the completion holds the panel: never removed.
            // tether-lint: ignore sink-retain-cycle — the leaky twin of add(observer:disposeBag:)
            liveData.add(observer: self, disposeBag: leakyBag, attributedTo: parent) { value in
                MainActor.assumeIsolated { self.receive(value) }
            }
        } else {
            liveData.add(observer: self, disposeBag: bag) { [weak self] value in
                MainActor.assumeIsolated { self?.receive(value) }
            }
        }
    }

    private func receive(_ value: Orientation) {
        last = value
        received += 1
        environment?.changed()
    }
}
