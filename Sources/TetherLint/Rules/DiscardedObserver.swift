import SwiftSyntax

/// `discarded-observer`: `addObserver(forName:object:queue:using:)` on any notification center
/// whose token is discarded — a bare statement, `_ =` or `let _ =`. Nothing can remove the
/// observer, and its block runs as long as the program. Left alone: a kept token, the
/// selector-based `addObserver(_:selector:name:object:)` (it returns nothing), top-level code,
/// and owners as long-lived as the app.
final class DiscardedObserverRule: RuleVisitor {
    override class var id: RuleID { .discardedObserver }

    override func visit(_ call: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        guard let access = call.calledExpression.as(MemberAccessExprSyntax.self),
            access.declName.baseName.text == "addObserver", Calls.labels(of: call).first == "forName",
            let owner = context.owner(of: call), !owner.isAppLifetime,
            case .discarded = ValueFlow.destination(of: call)
        else { return .visitChildren }
        report(
            at: access.declName,
            "the observer's token is discarded: the observer is never removed and its block runs as long as the program",
            fix:
                "keep the token and pass it to removeObserver(_:) when done, or use tetherPublisher(for:) (Tether)"
        )
        return .visitChildren
    }
}
