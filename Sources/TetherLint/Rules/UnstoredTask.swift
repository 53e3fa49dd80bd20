import SwiftSyntax

/// `unstored-task`: a `Task {}` whose value is discarded, in a class, an actor or a SwiftUI
/// `View`, whose body loops over an async sequence or until cancelled. Nothing cancels the loop
/// when its owner goes (seed 000). Left alone: a task stored or bound (`.store(in:)`,
/// `.store(boundTo:)`, `Task(boundTo:) {}`, a property), a task that does not loop, value types that are not views,
/// top-level code, owners that live as long as the app, a loop over a stream the same function
/// finishes, and the weak loop over a stream that the owner's `deinit` finishes.
final class UnstoredTaskRule: RuleVisitor {
    override class var id: RuleID { .unstoredTask }

    override func visit(_ call: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        guard let (kind, operation) = Tasks.creation(call), let owner = context.owner(of: call),
            !owner.isAppLifetime, owner.isReference || owner.isView,
            case .discarded = ValueFlow.destination(of: call)
        else { return .visitChildren }
        let loops =
            Loops.containsAsyncLoop(operation.statements)
            || Loops.callsSelfMethod(in: operation.statements, among: owner.loopingMethods)
        guard loops, !Loops.enclosingFunctionFinishesStream(call) else { return .visitChildren }
        // A loop that holds its owner only weakly over a stream the owner's deinit finishes ends
        // with the owner: the pattern well-kept apps use on purpose.
        if owner.deinitFinishesStream, SelfReferences.capture(of: operation) == .weak,
            !StrongSelfLoopRule.unwrapsBeforeLoop(operation)
        {
            return .visitChildren
        }
        let task = kind == .detached ? "Task.detached" : kind == .attributed ? "Task.attributed(to:)" : "Task"
        if owner.isView && !owner.isReference {
            report(
                at: call,
                "\(task)'s loop is never cancelled: it keeps running after \(owner.name) disappears",
                fix:
                    "start the loop in the view's .task { } modifier, which cancels it when the view disappears"
            )
            return .visitChildren
        }
        guard let bag = owner.onlyStoreBag else {
            report(
                at: call, "\(task)'s value is discarded: its loop keeps running after \(owner.name) is gone",
                fix:
                    "keep the task and cancel it with \(owner.name): .store(boundTo: bag) or Task(boundTo: bag) { } (Tether)"
            )
            return .visitChildren
        }
        let fix = bag.storeCall
        report(
            at: call, "\(task)'s value is discarded: its loop keeps running after \(owner.name) is gone",
            fix: "store it in \(owner.name)'s \(bag.name): \(fix)", edits: edits(storing: call, with: fix))
        return .visitChildren
    }

    /// Appends the store call to a task started as a statement of a method or an initializer
    /// (a closure would need an explicit `self`), dropping a `_ =` or `let _ =` before it.
    /// Tether's `store(boundTo:)` and `Task.store(in:)` need the file to import Tether.
    private func edits(storing call: FunctionCallExprSyntax, with store: String) -> [Edit] {
        guard context.importsTether, !Self.isInClosure(call) else { return [] }
        var edits = [Edit.insert(store, at: call.endPositionBeforeTrailingTrivia)]
        let statement = call.ancestor(CodeBlockItemSyntax.self)
        if let statement, statement.item.id != call.id {
            guard statement.item.is(SequenceExprSyntax.self) || statement.item.is(VariableDeclSyntax.self)
            else {
                return []
            }
            edits.append(
                Edit(
                    start: statement.positionAfterSkippingLeadingTrivia.utf8Offset,
                    end: call.positionAfterSkippingLeadingTrivia.utf8Offset, replacement: ""))
        }
        return edits
    }

    static func isInClosure(_ node: some SyntaxProtocol) -> Bool {
        var current = node.parent
        while let syntax = current {
            if syntax.is(ClosureExprSyntax.self) { return true }
            if syntax.is(FunctionDeclSyntax.self) || syntax.is(InitializerDeclSyntax.self)
                || syntax.is(AccessorDeclSyntax.self)
            {
                return false
            }
            current = syntax.parent
        }
        return false
    }
}
