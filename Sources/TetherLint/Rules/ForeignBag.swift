import SwiftSyntax

/// `foreign-bag`: a subscription or task stored, from inside a type, in another object's bag —
/// `.store(in: &session.cancellables)`, `service.bag.insert(…)`, LiveData's
/// `disposeBag: other.bag`. It lives as long as that object, one more each time this code
/// runs: the growth the ledger's checkpoints find. Left alone: the type's own bags (and a
/// struct's that it stores inline), locals and parameters, top-level code, and owners as
/// long-lived as the app.
final class ForeignBagRule: RuleVisitor {
    override class var id: RuleID { .foreignBag }

    override func visit(_ call: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        guard let owner = context.owner(of: call), !owner.isAppLifetime else { return .visitChildren }
        let name = Calls.name(of: call)
        if name == "store", Calls.labels(of: call) == ["in"], let bag = call.arguments.first?.expression {
            check(bag, owner: owner, offerFix: true)
        } else if name == "insert", let receiver = Calls.receiver(of: call), Self.looksLikeBag(receiver) {
            check(receiver, owner: owner, offerFix: false)
        } else if let bag = Calls.argument("disposeBag", of: call) {
            check(bag, owner: owner, offerFix: false)
        }
        return .visitChildren
    }

    private func check(_ bag: ExprSyntax, owner: TypeInfo, offerFix: Bool) {
        let stripped = ValueFlow.stripInOut(bag)
        guard let path = Ownership.components(of: stripped), path.count > 1,
            !Ownership.isOwn(stripped, owner: owner, types: context.types)
        else { return }
        let message =
            "stored in \(stripped.trimmedDescription), another object's bag: it lives as long as that object, "
            + "one more each time this runs"
        guard let own = owner.onlyStoreBag else {
            report(at: bag, message, fix: "store it in \(owner.name)'s own bag")
            return
        }
        // The same `store(in:)` overload: a set for a set, a lifetime for Tether's bags.
        let sameKind = bag.is(InOutExprSyntax.self) == (own.kind == .cancellables)
        let safe = offerFix && sameKind && (own.kind == .cancellables || context.importsTether)
        report(
            at: bag, message,
            fix: "store it in \(owner.name)'s own \(own.name): .store(in: \(own.storeArgument))",
            edits: safe ? [.replace(bag, with: own.storeArgument)] : [])
    }

    private static func looksLikeBag(_ expr: ExprSyntax) -> Bool {
        let last = Ownership.components(of: expr)?.last?.lowercased() ?? ""
        return last.contains("bag") || last.contains("cancellables") || last.contains("subscriptions")
    }
}
