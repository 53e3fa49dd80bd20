import SwiftSyntax

/// Reading calls: their names, receivers, labels and closures.
enum Calls {
    /// The called name: `sink` in `publisher.sink {}`, `Task` in `Task {}` and `Task<Void, Never> {}`.
    static func name(of call: FunctionCallExprSyntax) -> String {
        name(ofCallee: call.calledExpression)
    }

    static func name(ofCallee callee: ExprSyntax) -> String {
        if let reference = callee.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
        if let access = callee.as(MemberAccessExprSyntax.self) { return access.declName.baseName.text }
        if let generic = callee.as(GenericSpecializationExprSyntax.self) {
            return name(ofCallee: generic.expression)
        }
        return ""
    }

    /// The receiver of a method call: `publisher` in `publisher.sink {}`; nil for a bare call.
    static func receiver(of call: FunctionCallExprSyntax) -> ExprSyntax? {
        call.calledExpression.as(MemberAccessExprSyntax.self)?.base
    }

    /// The argument labels, in order ("" for an unlabelled argument).
    static func labels(of call: FunctionCallExprSyntax) -> [String] {
        call.arguments.map { $0.label?.text ?? "" }
    }

    static func argument(_ label: String, of call: FunctionCallExprSyntax) -> ExprSyntax? {
        call.arguments.first { $0.label?.text == label }?.expression
    }

    /// Every closure handed to the call: closure arguments, then the trailing closures.
    static func closures(of call: FunctionCallExprSyntax) -> [ClosureExprSyntax] {
        var closures = call.arguments.compactMap { $0.expression.as(ClosureExprSyntax.self) }
        if let trailing = call.trailingClosure { closures.append(trailing) }
        closures += call.additionalTrailingClosures.map(\.closure)
        return closures
    }

    /// The call `node` is the callee's member access of: `x.store(in:)` for `x` → that call.
    static func memberCall(on node: some ExprSyntaxProtocol) -> (name: String, call: FunctionCallExprSyntax)?
    {
        guard let access = node.parent?.as(MemberAccessExprSyntax.self), access.base?.id == node.id,
            let call = access.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == access.id
        else { return nil }
        return (access.declName.baseName.text, call)
    }

    /// The receivers along a chain `a.b().c().d()`, from `call` down to its root.
    static func chain(from call: FunctionCallExprSyntax) -> [FunctionCallExprSyntax] {
        var calls = [call]
        var current = receiver(of: call)
        while let expr = current {
            if let inner = expr.as(FunctionCallExprSyntax.self) {
                calls.append(inner)
                current = receiver(of: inner)
            } else if let access = expr.as(MemberAccessExprSyntax.self) {
                current = access.base
            } else if let optional = expr.as(OptionalChainingExprSyntax.self) {
                current = optional.expression
            } else {
                current = nil
            }
        }
        return calls
    }

    /// The expression at the root of a chain: `Just(1)` in `Just(1).map {}.sink {}`.
    static func root(of call: FunctionCallExprSyntax) -> ExprSyntax {
        var current = ExprSyntax(call)
        while true {
            if let inner = current.as(FunctionCallExprSyntax.self), let base = receiver(of: inner) {
                current = base
            } else if let access = current.as(MemberAccessExprSyntax.self), let base = access.base {
                current = base
            } else if let optional = current.as(OptionalChainingExprSyntax.self) {
                current = optional.expression
            } else {
                return current
            }
        }
    }
}
