import SwiftSyntax

/// Where the value of an expression goes: the question every rule asks of a task or a
/// subscription ("is it kept, and by whom?").
enum Destination {
    /// A bare statement, `_ =`, `let _ =`, the one statement of a closure, or a local never
    /// used again.
    case discarded
    /// `.store(in: bag)` or `bag.insert(x)`: `bag` is the expression named, `&` included.
    case stored(in: ExprSyntax)
    /// Assigned to `target` (`self.task = …`, `task = …`, a stored property's initializer).
    case assigned(to: ExprSyntax)
    /// Appended or inserted into a collection `target` (`tasks.append(…)`, `tasks[id] = …`).
    case collected(in: ExprSyntax)
    /// Returned from a function, a computed property, or a closure's single expression.
    case returned
    /// Anything else: an argument, a method call on it (`.cancel()`, `.value`)…
    case used
}

enum ValueFlow {
    /// Where the value of `expr` goes. A chain through `.asCancellable()` or `.eraseToAnyPublisher()`
    /// is followed; a value bound to a local `let` is followed to the local's uses.
    static func destination(of expr: some ExprSyntaxProtocol) -> Destination {
        var node = Syntax(expr)
        while true {
            guard let parent = node.parent else { return .used }
            if parent.is(TryExprSyntax.self) || parent.is(AwaitExprSyntax.self)
                || parent.is(TupleExprSyntax.self)
                    && parent.as(TupleExprSyntax.self)!.elements.count == 1
                || parent.is(LabeledExprListSyntax.self)
                    && parent.parent?.is(TupleExprSyntax.self) == true
                || parent.is(LabeledExprSyntax.self)
                    && parent.parent?.parent?.is(TupleExprSyntax.self) == true
            {
                node = parent
                continue
            }
            if let current = node.as(ExprSyntax.self), let call = Calls.memberCall(on: current) {
                switch call.name {
                case "store":
                    guard let bag = call.call.arguments.first?.expression else { return .used }
                    return .stored(in: bag)
                case "asCancellable", "eraseToAnyPublisher", "eraseToAnyCancellable":
                    node = Syntax(call.call)
                    continue
                default:
                    return .used
                }
            }
            if parent.is(CodeBlockItemSyntax.self) {
                return statementDestination(parent.as(CodeBlockItemSyntax.self)!)
            }
            if parent.is(ExprListSyntax.self), let sequence = parent.parent?.as(SequenceExprSyntax.self) {
                let elements = Array(sequence.elements)
                guard elements.count == 3, elements[1].is(AssignmentExprSyntax.self),
                    elements[2].id == node.id
                else {
                    return .used
                }
                if elements[0].is(DiscardAssignmentExprSyntax.self) { return .discarded }
                if let subscripted = elements[0].as(SubscriptCallExprSyntax.self) {
                    return .collected(in: subscripted.calledExpression)
                }
                return .assigned(to: elements[0])
            }
            if let initializer = parent.as(InitializerClauseSyntax.self),
                let binding = initializer.parent?.as(PatternBindingSyntax.self)
            {
                return bindingDestination(binding)
            }
            if parent.is(ReturnStmtSyntax.self) { return .returned }
            if let argument = parent.as(LabeledExprSyntax.self),
                let call = argument.parent?.parent?.as(FunctionCallExprSyntax.self),
                ["insert", "append", "add"].contains(Calls.name(of: call)),
                let receiver = Calls.receiver(of: call)
            {
                return Calls.name(of: call) == "append" ? .collected(in: receiver) : .stored(in: receiver)
            }
            return .used
        }
    }

    static func stripInOut(_ expr: ExprSyntax) -> ExprSyntax {
        expr.as(InOutExprSyntax.self)?.expression ?? expr
    }

    /// A statement's value: returned when it is the one statement of a body that returns one,
    /// else discarded.
    private static func statementDestination(_ item: CodeBlockItemSyntax) -> Destination {
        guard let list = item.parent?.as(CodeBlockItemListSyntax.self), list.count == 1 else {
            return .discarded
        }
        let body = list.parent
        if let closure = body?.as(ClosureExprSyntax.self) {
            // A single-expression closure returns its value when the closure is typed to: a
            // `map` or a function-builder style argument does, a `sink` or a `Button` action
            // does not. Only the known value-returning callers are read as returns.
            if let call = closure.parent?.as(FunctionCallExprSyntax.self)
                ?? closure.parent?.parent?.parent?.as(FunctionCallExprSyntax.self),
                ["map", "flatMap", "compactMap", "append", "init"].contains(Calls.name(of: call))
            {
                return .returned
            }
            return closure.signature?.returnClause == nil ? .discarded : .returned
        }
        if let block = body?.as(CodeBlockSyntax.self) {
            if let function = block.parent?.as(FunctionDeclSyntax.self) {
                return function.signature.returnClause == nil ? .discarded : .returned
            }
            if block.parent?.is(AccessorDeclSyntax.self) == true { return .returned }
        }
        // A computed property's implicit getter.
        if body?.is(AccessorBlockSyntax.self) == true { return .returned }
        return .discarded
    }

    private static func bindingDestination(_ binding: PatternBindingSyntax) -> Destination {
        if binding.pattern.is(WildcardPatternSyntax.self) { return .discarded }
        guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier else { return .used }
        // A stored property's initializer: the property holds it.
        if binding.parent?.parent?.parent?.is(MemberBlockItemSyntax.self) == true {
            return .assigned(to: ExprSyntax(DeclReferenceExprSyntax(baseName: name.trimmed)))
        }
        return localDestination(name: name.text, declaredBy: binding)
    }

    /// Follows a local to the statements after its declaration: the first one that stores,
    /// assigns, collects or returns it says where it goes; a local never used again is
    /// discarded.
    private static func localDestination(name: String, declaredBy binding: PatternBindingSyntax)
        -> Destination
    {
        guard let item = binding.ancestor(CodeBlockItemSyntax.self),
            let list = item.parent?.as(CodeBlockItemListSyntax.self)
        else { return .used }
        var used = false
        for later in list where later.position > item.position {
            for token in later.tokens(viewMode: .sourceAccurate) where token.text == name {
                guard let reference = token.parent?.as(DeclReferenceExprSyntax.self) else { continue }
                if let access = reference.parent?.as(MemberAccessExprSyntax.self),
                    access.declName.id == reference.id
                {
                    continue
                }
                used = true
                switch destination(of: reference) {
                case .used: continue
                case let other: return other
                }
            }
        }
        return used ? .used : .discarded
    }
}

extension SyntaxProtocol {
    /// The nearest ancestor of type `T`.
    func ancestor<T: SyntaxProtocol>(_ type: T.Type) -> T? {
        var current = parent
        while let syntax = current {
            if let found = syntax.as(T.self) { return found }
            current = syntax.parent
        }
        return nil
    }
}
