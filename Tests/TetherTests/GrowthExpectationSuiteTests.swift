import Testing
import Tether
import TetherTesting

/// A long-lived object of the app's, made on `Ledger.shared` as an app makes it.
private final class Session: Sendable {
    let bag = DisposeBag()
    init() { bag.track(self) }
}

private final class SheetViewModel: Sendable {
    static let line: UInt = #line + 5
    let bag = DisposeBag()

    init(session: Session, updates: PassthroughSubject<Int, Never>, leaky: Bool) {
        bag.track(self)
        updates.sink { [weak self] _ in _ = self }.store(boundTo: leaky ? session.bag : bag)
    }

    func dismiss() { bag.dispose() }
}

/// Two tests written as the documentation's example, side by side in one suite on the shared
/// ledger, running in parallel: each is judged on what its own body made.
@Suite struct GrowthExpectationSuiteTests {
    let updates = PassthroughSubject<Int, Never>()

    @Test func presentingTheBoundSheetLeavesNothingInTheSession() async {
        let session = Session()
        await expectNoGrowth {
            let sheet = SheetViewModel(session: session, updates: updates, leaky: false)
            await Task.yield()  // lets the other test's runs interleave with this one's
            sheet.dismiss()
        }
    }

    @Test func presentingTheLeakySheetGrowsTheSession() async {
        let session = Session()
        await withKnownIssue {
            await expectNoGrowth {
                let sheet = SheetViewModel(session: session, updates: updates, leaky: true)
                await Task.yield()
                sheet.dismiss()
            }
        } matching: { issue in
            issue.comments.contains {
                $0.rawValue.contains(
                    "grows: 3 subscriptions at GrowthExpectationSuiteTests.swift:\(SheetViewModel.line)")
            }
        }
        session.bag.dispose()
    }
}
