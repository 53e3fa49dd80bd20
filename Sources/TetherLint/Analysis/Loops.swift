import SwiftSyntax

/// Loops that run until their task is cancelled: the ones that outlive an owner.
enum Loops {
    /// Whether `node` holds a `for await` / `for try await` loop, or a `while` / `repeat` loop
    /// that awaits: a loop that lasts as long as its sequence or until cancelled. Tasks started
    /// inside `node` are their own tasks and are not looked into.
    static func containsAsyncLoop(_ node: some SyntaxProtocol) -> Bool {
        firstAsyncLoop(in: node) != nil
    }

    /// The first such loop in `node`, in source order.
    static func firstAsyncLoop(in node: some SyntaxProtocol) -> Syntax? {
        let finder = LoopFinder(viewMode: .sourceAccurate)
        finder.walk(node)
        return finder.found
    }

    /// Whether the function `node` runs in finishes a stream (`continuation.finish()`): a loop
    /// over a stream made there ends when it does.
    static func enclosingFunctionFinishesStream(_ node: some SyntaxProtocol) -> Bool {
        var current = node.parent
        while let syntax = current {
            if syntax.is(FunctionDeclSyntax.self) || syntax.is(InitializerDeclSyntax.self) {
                return syntax.tokens(viewMode: .sourceAccurate).contains { token in
                    token.text == "finish" && token.parent?.parent?.is(MemberAccessExprSyntax.self) == true
                }
            }
            current = syntax.parent
        }
        return false
    }

    /// Whether `body` calls one of `methods` on `self`: `self.m()`, `self?.m()`, a bare `m()`.
    static func callsSelfMethod(in body: some SyntaxProtocol, among methods: Set<String>) -> Bool {
        selfMethodCall(in: body, among: methods) != nil
    }

    /// The first call in `body` of one of `methods` on `self`.
    static func selfMethodCall(in body: some SyntaxProtocol, among methods: Set<String>)
        -> FunctionCallExprSyntax?
    {
        guard !methods.isEmpty else { return nil }
        for node in body.tokens(viewMode: .sourceAccurate) where methods.contains(node.text) {
            guard let reference = node.parent?.as(DeclReferenceExprSyntax.self) else { continue }
            let callee: ExprSyntax
            if let access = reference.parent?.as(MemberAccessExprSyntax.self), access.declName == reference {
                guard let base = access.base, SelfReferences.isSelf(base) else { continue }
                callee = ExprSyntax(access)
            } else {
                callee = ExprSyntax(reference)
            }
            if let call = callee.parent?.as(FunctionCallExprSyntax.self), call.calledExpression == callee,
                !Tasks.isInNestedTask(Syntax(call), below: Syntax(body))
            {
                return call
            }
        }
        return nil
    }
}

private final class LoopFinder: SyntaxVisitor {
    var found: Syntax?

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        if found != nil { return .skipChildren }
        // A task started inside is its own task; a task group's loop over its children ends
        // with them.
        if Tasks.creation(node) != nil { return .skipChildren }
        let name = Calls.name(of: node)
        return name.hasPrefix("with") && name.hasSuffix("TaskGroup") ? .skipChildren : .visitChildren
    }

    override func visit(_ node: ForStmtSyntax) -> SyntaxVisitorContinueKind {
        if found == nil, node.awaitKeyword != nil { found = Syntax(node) }
        return found == nil ? .visitChildren : .skipChildren
    }

    override func visit(_ node: WhileStmtSyntax) -> SyntaxVisitorContinueKind {
        if found == nil, Self.awaits(node) { found = Syntax(node) }
        return found == nil ? .visitChildren : .skipChildren
    }

    override func visit(_ node: RepeatStmtSyntax) -> SyntaxVisitorContinueKind {
        if found == nil, Self.awaits(node) { found = Syntax(node) }
        return found == nil ? .visitChildren : .skipChildren
    }

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

    private static func awaits(_ node: some SyntaxProtocol) -> Bool {
        node.tokens(viewMode: .sourceAccurate).contains { $0.tokenKind == .keyword(.await) }
    }
}
