import OpenCombine
import Tether

/// One owner's life, as the Lifetimes, Inspector and MetricsReporting suites bind and end it: a
/// tracked `DisposeBag` holding one subscription, which ends when the owner is released.
public final class BagOwner {
    public let bag = DisposeBag()
    private var received = 0

    public init(_ events: PassthroughSubject<Int, Never>) {
        bag.track(self)
        events.sink { [unowned self] in received &+= $0 }.store(boundTo: bag)
    }
}
