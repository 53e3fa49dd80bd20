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
        if name == "store", ["in", "boundTo"].contains(Calls.labels(of: call)),
            let argument = call.arguments.first
        {
            check(argument.expression, owner: owner, fixing: argument)
        } else if name == "insert", let receiver = Calls.receiver(of: call), Self.looksLikeBag(receiver) {
            check(receiver, owner: owner)
        } else if let bag = Calls.argument("disposeBag", of: call) {
            check(bag, owner: owner)
        }
        return .visitChildren
    }

    /// Reports `bag` if it is another object's; `argument`, a store call's, is the one a fix rewrites.
    private func check(_ bag: ExprSyntax, owner: TypeInfo, fixing argument: LabeledExprSyntax? = nil) {
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
        // The same kind of store: a set for a set, a lifetime for Tether's bags. The argument is
        // rewritten with its label, so that an old `store(in: lifetime)` becomes `store(boundTo:)`.
        let sameKind = bag.is(InOutExprSyntax.self) == (own.kind == .cancellables)
        let safe = sameKind && (own.kind == .cancellables || context.importsTether)
        let edits = argument.map {
            [Edit.replace($0.expression, with: own.storeArgument, labelled: own.storeLabel, in: $0)]
        }
        report(
            at: bag, message, fix: "store it in \(owner.name)'s own \(own.name): \(own.storeCall)",
            edits: safe ? edits ?? [] : [])
    }

    private static func looksLikeBag(_ expr: ExprSyntax) -> Bool {
        let last = Ownership.components(of: expr)?.last?.lowercased() ?? ""
        return last.contains("bag") || last.contains("cancellables") || last.contains("subscriptions")
    }
}
