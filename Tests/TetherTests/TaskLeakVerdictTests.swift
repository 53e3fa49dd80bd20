import Foundation
import TestSupport
import Testing
import Tether
import TetherTesting

// The four shapes of a `for await` loop in a view model (seed 000), and what the ledger says
// after the owner's end: a loop that holds its owner leaks, naming the task's call site; a
// loop that lets go of it, or a stored task, leaves nothing behind.

private let ping = Notification.Name("TaskLeakVerdictTests.ping")

/// Loops over pings with `self` captured strongly by the loop.
@MainActor private final class StrongLoop {
    let bag = DisposeBag()
    var seen = 0
    var loop: Task<Void, Never>?
    private(set) var taskLine: UInt = 0

    init(center: NotificationCenter) {
        bag.track(self)
        start(center: center)
    }

    private func start(center: NotificationCenter) {
        // Made before the task starts, so no ping is missed while the task is being scheduled.
        let pings = center.tetherNotifications(named: ping)
        taskLine = #line + 1
        loop = Task.attributed(to: bag) { @MainActor in
            for await _ in pings { self.seen += 1 }
        }
    }
}

/// `[weak self]`, then `guard let self` before the loop: the loop holds `self` all along.
@MainActor private final class GuardBeforeLoop {
    let bag = DisposeBag()
    var seen = 0
    var loop: Task<Void, Never>?
    private(set) var taskLine: UInt = 0

    init(center: NotificationCenter) {
        bag.track(self)
        start(center: center)
    }

    private func start(center: NotificationCenter) {
        let pings = center.tetherNotifications(named: ping)
        taskLine = #line + 1
        loop = Task.attributed(to: bag) { @MainActor [weak self] in
            guard let self else { return }
            for await _ in pings { self.seen += 1 }
        }
    }
}

/// `[weak self]`, unwrapped inside the loop body: the loop ends at the first value after the
/// owner is gone.
@MainActor private final class UnwrapInsideLoop {
    let bag = DisposeBag()
    var seen = 0
    var loop: Task<Void, Never>?

    init(center: NotificationCenter) {
        bag.track(self)
        start(center: center)
    }

    private func start(center: NotificationCenter) {
        let pings = center.tetherNotifications(named: ping)
        loop = Task.attributed(to: bag) { @MainActor [weak self] in
            for await _ in pings {
                guard let self else { return }
                self.seen += 1
            }
        }
    }
}

/// A strong loop, but stored: the owner's end cancels it.
@MainActor private final class StoredLoop {
    let bag = DisposeBag()
    var seen = 0
    var loop: Task<Void, Never>?

    init(center: NotificationCenter) {
        bag.track(self)
        start(center: center)
    }

    private func start(center: NotificationCenter) {
        let pings = center.tetherNotifications(named: ping)
        let task = Task { @MainActor in
            for await _ in pings { self.seen += 1 }
        }
        task.store(boundTo: bag)
        loop = task
    }
}

@MainActor
@Suite struct TaskLeakVerdictTests {
    @Test func loopCapturingItsOwnerStronglyIsALeakNamingTheTask() async throws {
        let tracker = LeakTracker()
        let center = NotificationCenter()
        var model: StrongLoop? = tracker.run { StrongLoop(center: center) }
        center.post(name: ping, object: nil)
        await waitUntil { model?.seen == 1 }
        model?.bag.dispose()
        weak let weakModel = model
        model = nil
        center.post(name: ping, object: nil)
        await waitUntil { weakModel?.seen == 2 }

        let report = tracker.report()
        let leak = try #require(report.leaks.first)
        #expect(report.leaks.count == 1)
        #expect(leak.owner.typeName == "StrongLoop")
        #expect(leak.kind == .task)
        #expect(leak.site.description == "TaskLeakVerdictTests.swift:\(weakModel?.taskLine ?? 0)")
        #expect(tracker.ledger.counters.zombies == 1)
        weakModel?.loop?.cancel()
    }

    @Test func guardLetSelfBeforeTheLoopIsALeakNamingTheTask() async throws {
        let tracker = LeakTracker()
        let center = NotificationCenter()
        var model: GuardBeforeLoop? = tracker.run { GuardBeforeLoop(center: center) }
        center.post(name: ping, object: nil)
        await waitUntil { model?.seen == 1 }
        model?.bag.dispose()
        weak let weakModel = model
        model = nil
        #expect(weakModel != nil, "the loop keeps its owner alive")

        let report = tracker.report()
        let leak = try #require(report.leaks.first)
        #expect(leak.owner.typeName == "GuardBeforeLoop")
        #expect(leak.kind == .task)
        #expect(leak.site.description == "TaskLeakVerdictTests.swift:\(weakModel?.taskLine ?? 0)")
        weakModel?.loop?.cancel()
    }

    @Test func weakSelfUnwrappedInsideTheLoopIsNoLeak() async throws {
        let tracker = LeakTracker()
        let center = NotificationCenter()
        var model: UnwrapInsideLoop? = tracker.run { UnwrapInsideLoop(center: center) }
        center.post(name: ping, object: nil)
        await waitUntil { model?.seen == 1 }
        let loop = try #require(model?.loop)
        model?.bag.dispose()
        model = nil
        // The next value finds the owner gone and ends the loop.
        center.post(name: ping, object: nil)
        await loop.value
        #expect(tracker.report().isEmpty)
        expectNoLeaks(tracker)
    }

    @Test func storedTaskIsNoLeak() async throws {
        let tracker = LeakTracker()
        let center = NotificationCenter()
        var model: StoredLoop? = tracker.run { StoredLoop(center: center) }
        center.post(name: ping, object: nil)
        await waitUntil { model?.seen == 1 }
        let loop = try #require(model?.loop)
        weak let weakModel = model
        // The loop holds its owner, so the owner cannot end by deinit: its end is explicit (a
        // dismissal), which cancels the stored task, which lets go of the owner.
        model?.bag.dispose()
        model = nil
        await loop.value
        #expect(weakModel == nil)
        expectNoLeaks(tracker)
    }
}
