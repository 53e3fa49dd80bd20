import SwiftSyntax

/// `task-in-sink`: a `Task {}` started inside a `sink` closure and not kept, whose body does
/// lasting work — it loops, or awaits work handed in as a parameter (the naive
/// `asyncSink` of seed 003). Cancelling the subscription cancels none of the tasks it started; a
/// task kept in a property whose previous value is never cancelled is as lost. Left alone: a
/// one-shot `Task { await self.save(value) }` (an app's action handlers are full of them, and
/// they end by themselves), a task stored in a bag or a collection, the latest-wins
/// `task?.cancel(); task = Task {}`, `asyncSink`, top-level code.
final class TaskInSinkRule: RuleVisitor {
    override class var id: RuleID { .taskInSink }

    override func visit(_ call: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        guard let (_, operation) = Tasks.creation(call), let owner = context.owner(of: call),
            !owner.isAppLifetime, let sink = enclosingSinkClosure(of: call),
            lasts(operation, owner: owner, in: call)
        else { return .visitChildren }
        switch ValueFlow.destination(of: call) {
        case .discarded:
            break
        case .assigned(let target):
            // Latest wins: the closure cancels what the property held before replacing it.
            let key = Ownership.key(target)
            let cancelled = sink.statements.tokens(viewMode: .sourceAccurate).contains { token in
                guard token.text == "cancel", token.position < call.position,
                    let access = token.parent?.parent?.as(MemberAccessExprSyntax.self), let base = access.base
                else { return false }
                return Ownership.key(base) == key
            }
            if cancelled { return .visitChildren }
        case .stored, .collected, .returned, .used:
            return .visitChildren
        }
        report(
            at: call,
            "a Task started in a sink: cancelling the subscription cancels none of the tasks it started",
            fix: "asyncSink { value in … } runs each body in a task it cancels with the subscription (Tether)"
        )
        return .visitChildren
    }

    /// Whether the task's body loops or awaits a closure the enclosing function was given: work of
    /// unknown length, per value. (A sleep is usually a short delay before one-shot work.)
    private func lasts(_ operation: ClosureExprSyntax, owner: TypeInfo, in call: FunctionCallExprSyntax)
        -> Bool
    {
        if Loops.containsAsyncLoop(operation.statements)
            || Loops.callsSelfMethod(in: operation.statements, among: owner.loopingMethods)
        {
            return true
        }
        let parameters = Set(
            call.ancestor(FunctionDeclSyntax.self)?.signature.parameterClause.parameters.map {
                ($0.secondName ?? $0.firstName).text
            } ?? [])
        return operation.statements.tokens(viewMode: .sourceAccurate).contains { token in
            guard let reference = token.parent?.as(DeclReferenceExprSyntax.self),
                let called = reference.parent?.as(FunctionCallExprSyntax.self)
                    ?? reference.parent?.parent?.as(FunctionCallExprSyntax.self),
                called.calledExpression.trimmedDescription.hasSuffix(token.text)
            else { return false }
            return parameters.contains(token.text)
        }
    }

    /// The `sink` closure `call` runs in, with no other task between them.
    private func enclosingSinkClosure(of call: FunctionCallExprSyntax) -> ClosureExprSyntax? {
        var current = call.parent
        while let syntax = current {
            if syntax.is(FunctionDeclSyntax.self) || syntax.is(InitializerDeclSyntax.self) { return nil }
            if let closure = syntax.as(ClosureExprSyntax.self),
                let owner = closure.parent?.as(FunctionCallExprSyntax.self)
                    ?? closure.parent?.parent?.parent?.as(FunctionCallExprSyntax.self)
            {
                if Tasks.creation(owner) != nil { return nil }
                if Calls.name(of: owner) == "sink" { return closure }
            }
            current = syntax.parent
        }
        return nil
    }
}
