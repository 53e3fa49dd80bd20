import Testing
import Tether

#if canImport(XCTest)
import XCTest
#endif

/// Records a Swift Testing issue when `tracker` finds anything left after the grace period.
///
/// - Parameters:
///   - tracker: The tracker the code under test ran in.
///   - owner: Check only this owner; nil for everything the tracker recorded.
public func expectNoLeaks(
    _ tracker: LeakTracker, owner: OwnerID? = nil, sourceLocation: SourceLocation = #_sourceLocation
) {
    let report = tracker.report(owner: owner)
    if !report.isEmpty {
        Issue.record(Comment(rawValue: report.description), sourceLocation: sourceLocation)
    }
}

#if canImport(XCTest)
/// Fails an XCTest when `tracker` finds anything left after the grace period.
public func XCTAssertNoLeaks(
    _ tracker: LeakTracker, owner: OwnerID? = nil, file: StaticString = #filePath, line: UInt = #line
) {
    let report = tracker.report(owner: owner)
    if !report.isEmpty { XCTFail(report.description, file: file, line: line) }
}
#endif
