import Testing

@testable import Tether

/// The leaks a ledger reports and whom they cover, driven through the book's transitions alone.
@Suite struct LeakBookTests {
    let parent = OwnerHandle(key: 1, slot: 0)
    let child = OwnerHandle(key: 2, slot: 1)
    let grandchild = OwnerHandle(key: 3, slot: 2)
    let site = CallSite(fileID: "App/Model.swift", line: 12)

    func report(_ type: String, survivors: [LeakReport.Survivor] = []) -> LeakReport {
        LeakReport(
            owner: OwnerID(typeName: type, serial: 1), ownerSite: site, endedAt: .zero,
            foundAt: .milliseconds(300), survivors: survivors)
    }

    func survivor(delivered: Int) -> LeakReport.Survivor {
        LeakReport.Survivor(
            kind: .task, site: site, deliveries: delivered, deliveriesAfterEnd: 0, bound: false)
    }

    @Test func reportsAreKeptInTheOrderMadeAndHeardOnce() {
        var book = LeakBook()
        #expect(book.isEmpty)
        book.report(report("Second"), of: child, survivors: [], order: 20)
        book.report(report("First"), of: parent, survivors: [], order: 10)
        #expect(!book.isEmpty)
        #expect(book.inOrder.map(\.owner) == [parent, child])
        #expect(book.takeUnheard().map(\.owner.typeName) == ["Second", "First"], "in the order found")
        #expect(book.takeUnheard().isEmpty)
    }

    @Test func aSurvivorThatEndsKeepsItsCountsAndOtherEntriesChangeNothing() {
        var book = LeakBook()
        book.report(
            report("Model", survivors: [survivor(delivered: 1), survivor(delivered: 2)]), of: parent,
            survivors: [100, 200], order: 1)
        book.entryEnded(200, of: parent, as: survivor(delivered: 7))
        book.entryEnded(300, of: parent, as: survivor(delivered: 9))
        book.entryEnded(100, of: child, as: survivor(delivered: 9))
        #expect(book.leak(of: parent)?.report.survivors.map(\.deliveries) == [1, 7])
        #expect(book.leak(of: parent)?.survivors == [100, 200])
        #expect(book.leak(of: child) == nil)
    }

    @Test func forgettingAnOwnerHandsBackWhomItCoveredInOrder() {
        var book = LeakBook()
        book.report(report("Parent"), of: parent, survivors: [], order: 1)
        book.cover(child, by: parent.key)
        book.cover(grandchild, by: parent.key)
        #expect(book.covered(by: parent.key) == [child, grandchild])
        #expect(book.forget(parent) == [child, grandchild])
        #expect(book.leak(of: parent) == nil && book.isEmpty)
        #expect(book.covered(by: parent.key).isEmpty)
        #expect(book.forget(parent).isEmpty, "forgotten once")
    }

    /// A child covered by an ancestor that has not leaked yet (its verdict is pending) is handed
    /// back all the same when that ancestor settles: covering needs no report.
    @Test func anAncestorWithoutAReportCoversAndHandsBackToo() {
        var book = LeakBook()
        book.cover(child, by: parent.key)
        #expect(book.isEmpty, "no leak reported")
        #expect(book.forget(parent) == [child])
    }
}
