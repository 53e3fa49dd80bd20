import SwiftSyntax

/// `strong-self-loop`: a task's loop that holds its owner strongly, so the owner never
/// deinitializes and nothing that waits for its `deinit` cancels the loop (seed 000):
/// `guard let self` before a `for await`; `self` used by a looping task with no `[weak self]`;
/// `await self?.listen()` where `listen()` loops (the call holds `self` as long as it runs);
/// `self` held strongly by an `Observations {}` closure (unless it is returned: the caller
/// loops). Left alone: Tether's bound forms
/// (`Task(boundTo:) {}`, `forEach(boundTo:)`, `.store(boundTo: lifetime)`, and their old
/// spellings `lifetime.task {}` and `.store(in: lifetime)`), a task kept in a
/// property that another method cancels, `[weak self]` unwrapped inside the loop, a loop over
/// a stream the same function finishes, value types, and tasks that do not loop.
final class StrongSelfLoopRule: RuleVisitor {
    override class var id: RuleID { .strongSelfLoop }

    override func visit(_ call: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        guard let owner = context.owner(of: call), owner.isReference, !owner.isAppLifetime else {
            return .visitChildren
        }
        if let (_, operation) = Tasks.creation(call), !isBound(call, owner: owner),
            !Loops.enclosingFunctionFinishesStream(call)
        {
            check(operation, owner: owner)
        } else if Calls.name(of: call) == "Observations",
            call.calledExpression.is(DeclReferenceExprSyntax.self),
            let closure = call.trailingClosure, !isBoundSequence(call), !Self.isReturned(call),
            let use = SelfReferences.holdsSelfStrongly(closure, owner: owner)
        {
            report(
                at: use,
                "Observations { } holds self strongly: the sequence, and the loop over it, keep \(owner.name) alive",
                fix:
                    "capture [weak self] in the closure, or iterate it with forEach(boundTo: lifetime) (Tether)"
            )
        }
        return .visitChildren
    }

    private func check(_ operation: ClosureExprSyntax, owner: TypeInfo) {
        let loop = Loops.firstAsyncLoop(in: operation.statements)
        switch SelfReferences.capture(of: operation) {
        case .weak:
            if let binding = Self.bindingBeforeLoop(operation) {
                report(
                    at: binding,
                    "this unwrap holds self strongly for the whole loop below: \(owner.name) never deinitializes, "
                        + "and the loop never ends",
                    fix: "move the unwrap inside the loop: for await … { guard let self else { return } … }",
                    edits: moveUnwrapEdits(operation, owner: owner))
            } else if let call = Loops.selfMethodCall(in: operation.statements, among: owner.loopingMethods) {
                report(
                    at: call,
                    "\(call.calledExpression.trimmedDescription)() holds self strongly for as long as it loops: "
                        + "\(owner.name) never deinitializes",
                    fix: "loop in the task with [weak self] unwrapped inside the loop, or bind the task: "
                        + "Task(boundTo: lifetime) { } (Tether)")
            }
        case .strong:
            let loops =
                loop != nil || Loops.callsSelfMethod(in: operation.statements, among: owner.loopingMethods)
            guard loops, let first = SelfReferences.holdsSelfStrongly(operation, owner: owner) else { return }
            let inLoop = loop.flatMap { SelfReferences.uses(in: $0, owner: owner).first } ?? first
            report(
                at: inLoop,
                "this task's loop holds self strongly: \(owner.name) never deinitializes, so nothing cancels the loop",
                fix: "capture [weak self] and unwrap it inside the loop")
        case .unowned:
            return
        }
    }

    /// Bound by Tether, or kept in a property another method cancels: ended from outside.
    private func isBound(_ call: FunctionCallExprSyntax, owner: TypeInfo) -> Bool {
        switch ValueFlow.destination(of: call) {
        case .stored(let bag):
            // A lifetime ends from outside; a set of cancellables only at the deinit the loop prevents.
            if let kind = owner.bags.first(where: { $0.name == Ownership.key(bag) })?.kind {
                return kind == .lifetime
            }
            return !bag.is(InOutExprSyntax.self)
        case .assigned(let target):
            return owner.cancelledElsewhere.contains(Ownership.key(target))
        case .collected, .returned, .used:
            return true
        case .discarded:
            return false
        }
    }

    private func isBoundSequence(_ call: FunctionCallExprSyntax) -> Bool {
        if let member = Calls.memberCall(on: call), member.name == "forEach",
            Calls.labels(of: member.call).first == "boundTo"
        {
            return true
        }
        var current = call.parent
        while let syntax = current {
            if let outer = syntax.as(FunctionCallExprSyntax.self), Tasks.isBoundTaskCall(outer) {
                return true
            }
            current = syntax.parent
        }
        return false
    }

    /// An `Observations` a function returns belongs to its caller, which decides how long to loop.
    private static func isReturned(_ call: FunctionCallExprSyntax) -> Bool {
        if case .returned = ValueFlow.destination(of: call) { return true }
        return false
    }

    /// The `guard let self` / `if let self` (or `let strongSelf = self`) that comes before a
    /// loop of `operation`, outside any loop: it holds `self` for the whole loop.
    static func bindingBeforeLoop(_ operation: ClosureExprSyntax) -> OptionalBindingConditionSyntax? {
        guard let loop = Loops.firstAsyncLoop(in: operation.statements) else { return nil }
        for token in operation.statements.tokens(viewMode: .sourceAccurate)
        where token.position < loop.position {
            guard token.tokenKind == .keyword(.self),
                let binding = token.ancestor(OptionalBindingConditionSyntax.self),
                binding.pattern.trimmedDescription == "self"
                    || binding.initializer.map({ SelfReferences.isSelf($0.value) }) == true,
                !isInsideLoopOrClosure(Syntax(binding), below: operation)
            else { continue }
            return binding
        }
        return nil
    }

    static func unwrapsBeforeLoop(_ operation: ClosureExprSyntax) -> Bool {
        bindingBeforeLoop(operation) != nil
    }

    private static func isInsideLoopOrClosure(_ node: Syntax, below top: ClosureExprSyntax) -> Bool {
        var current = node.parent
        while let syntax = current, syntax.id != top.id {
            if syntax.is(ForStmtSyntax.self) || syntax.is(WhileStmtSyntax.self)
                || syntax.is(RepeatStmtSyntax.self)
                || syntax.is(ClosureExprSyntax.self)
            {
                return true
            }
            current = syntax.parent
        }
        return false
    }

    /// Moves `guard let self else { return }` from before the loop to the top of its body, when
    /// that is all it takes: the guard and the loop are statements of the task itself, and
    /// nothing outside the loop's body uses `self`.
    private func moveUnwrapEdits(_ operation: ClosureExprSyntax, owner: TypeInfo) -> [Edit] {
        let items = Array(operation.statements)
        guard let guardIndex = items.firstIndex(where: { $0.item.is(GuardStmtSyntax.self) }),
            let guardStmt = items[guardIndex].item.as(GuardStmtSyntax.self),
            guardStmt.trimmedDescription.filter({ !$0.isWhitespace }) == "guardletselfelse{return}",
            let loopIndex = items.firstIndex(where: { $0.item.as(ForStmtSyntax.self)?.awaitKeyword != nil }),
            loopIndex > guardIndex, let loop = items[loopIndex].item.as(ForStmtSyntax.self),
            let first = loop.body.statements.first,
            first.leadingTrivia.contains(where: \.isNewline)
        else { return [] }
        let outside = items.enumerated().filter { $0.offset != guardIndex && $0.offset != loopIndex }.map(
            \.element)
        let usesSelfOutside =
            outside.contains { !SelfReferences.uses(in: $0, owner: owner).isEmpty }
            || !SelfReferences.uses(in: loop.sequence, owner: owner).isEmpty
            || loop.whereClause.map { !SelfReferences.uses(in: $0, owner: owner).isEmpty } == true
        guard !usesSelfOutside else { return [] }
        // The guard's whole line goes; it comes back as the loop body's first line.
        let start =
            guardStmt.positionAfterSkippingLeadingTrivia.utf8Offset
            - context.indentation(of: guardStmt).utf8.count
        let end =
            items[guardIndex + 1].positionAfterSkippingLeadingTrivia.utf8Offset
            - context.indentation(of: items[guardIndex + 1]).utf8.count
        return [
            Edit(start: start, end: end, replacement: ""),
            .insert(
                "\n" + context.indentation(of: first) + "guard let self else { return }",
                at: loop.body.leftBrace.endPositionBeforeTrailingTrivia),
        ]
    }
}
