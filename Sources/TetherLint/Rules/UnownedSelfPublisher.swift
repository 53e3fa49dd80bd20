import SwiftSyntax

/// `unowned-self-publisher`: `[unowned self]` in a closure of a publisher chain that a function
/// or a computed property returns (seed 002). Whoever subscribes can outlive `self`, and the
/// next value crashes on the dangling reference. Left alone: a chain fused to `self`
/// (`.fuse(heldBy: self, on:)`, which cuts it when `self` goes), a chain that is not returned,
/// `[weak self]`, and owners as long-lived as the app.
final class UnownedSelfPublisherRule: RuleVisitor {
    override class var id: RuleID { .unownedSelfPublisher }

    override func visit(_ closure: ClosureExprSyntax) -> SyntaxVisitorContinueKind {
        guard SelfReferences.capture(of: closure) == .unowned,
            let item = SelfReferences.selfCaptureItem(of: closure),
            let owner = context.owner(of: closure), owner.isReference, !owner.isAppLifetime,
            let call = closure.parent?.as(FunctionCallExprSyntax.self)
                ?? closure.parent?.parent?.parent?.as(FunctionCallExprSyntax.self)
        else { return .visitChildren }
        // Up the chain from the closure's operator to the whole expression.
        var outer = call
        var above: [FunctionCallExprSyntax] = []
        while let next = Calls.memberCall(on: outer)?.call {
            above.append(next)
            outer = next
        }
        guard !above.contains(where: { Calls.name(of: $0) == "fuse" }),
            case .returned = ValueFlow.destination(of: outer),
            isPublisher(above, returnedFrom: closure)
        else { return .visitChildren }
        let erase = above.first { Calls.name(of: $0) == "eraseToAnyPublisher" }
        let bag = owner.bags.first { $0.kind == .cancellables || $0.kind == .cancellable }
        var edits: [Edit] = []
        if let erase, let bag, owner.bags.count == 1, context.importsTether,
            let period = erase.calledExpression.as(MemberAccessExprSyntax.self)?.period
        {
            let fuse = ".fuse(heldBy: self, on: \\.\(bag.name))"
            let text =
                period.leadingTrivia.contains(where: \.isNewline)
                ? fuse + "\n" + context.indentation(of: period) : fuse
            edits = [.insert(text, at: period.positionAfterSkippingLeadingTrivia)]
        }
        report(
            at: item,
            "[unowned self] in a publisher that \(owner.name) returns: a subscriber that outlives \(owner.name) "
                + "crashes on the next value",
            fix:
                "fuse the chain to self before it is erased: .fuse(heldBy: self, on: \\.\(bag?.name ?? "cancellables")) "
                + "(Tether)",
            edits: edits)
        return .visitChildren
    }

    /// A publisher chain: erased to `AnyPublisher`, or returned where the declared type says so.
    private func isPublisher(_ above: [FunctionCallExprSyntax], returnedFrom closure: ClosureExprSyntax)
        -> Bool
    {
        if above.contains(where: { Calls.name(of: $0) == "eraseToAnyPublisher" }) { return true }
        var current = closure.parent
        while let syntax = current {
            if let function = syntax.as(FunctionDeclSyntax.self) {
                return function.signature.returnClause?.type.trimmedDescription.contains("Publisher") == true
            }
            if let binding = syntax.as(PatternBindingSyntax.self),
                binding.typeAnnotation?.type.trimmedDescription.contains("Publisher") == true
            {
                return true
            }
            current = syntax.parent
        }
        return false
    }
}
