import SwiftSyntax

/// Where tasks are started, and the forms that bind them.
enum Tasks {
    enum Creation {
        /// `Task {}`, `Task(priority:) {}`, `Task<T, E> {}`.
        case plain
        case detached
        /// Tether's `Task.attributed(to:)`: visible in the ledger, bound to nothing.
        case attributed
    }

    /// What starts a task: `Task {}`, `Task.detached {}`, `Task.attributed(to:) {}`, with the
    /// operation closure. Tether's bound forms (`Task(boundTo:) {}`, the old `lifetime.task {}`)
    /// are not task creations here.
    static func creation(_ call: FunctionCallExprSyntax) -> (kind: Creation, operation: ClosureExprSyntax)? {
        let kind: Creation
        let callee = call.calledExpression
        if isBoundTaskInit(call) { return nil }
        if isTaskType(callee) {
            kind = .plain
        } else if let access = callee.as(MemberAccessExprSyntax.self), let base = access.base,
            isTaskType(base)
        {
            switch access.declName.baseName.text {
            case "detached": kind = .detached
            case "attributed": kind = .attributed
            case "init": kind = .plain
            default: return nil
            }
        } else {
            return nil
        }
        let operation =
            call.trailingClosure
            ?? call.arguments.first { $0.label?.text == "operation" }?.expression.as(ClosureExprSyntax.self)
        guard let operation else { return nil }
        return (kind, operation)
    }

    private static func isTaskType(_ expr: ExprSyntax) -> Bool {
        if let reference = expr.as(DeclReferenceExprSyntax.self) { return reference.baseName.text == "Task" }
        if let generic = expr.as(GenericSpecializationExprSyntax.self) {
            return isTaskType(generic.expression)
        }
        return false
    }

    /// `Task(boundTo: lifetime) {}` (or `Task.init(boundTo:)`): Tether's task, bound as it starts.
    private static func isBoundTaskInit(_ call: FunctionCallExprSyntax) -> Bool {
        guard call.arguments.first?.label?.text == "boundTo" else { return false }
        let callee = call.calledExpression
        if isTaskType(callee) { return true }
        guard let access = callee.as(MemberAccessExprSyntax.self), let base = access.base else {
            return false
        }
        return access.declName.baseName.text == "init" && isTaskType(base)
    }

    /// Tether's bound task forms: `Task(boundTo:) {}`, `sequence.forEach(boundTo:) {}` and the
    /// old `lifetime.task {}`.
    static func isBoundTaskCall(_ call: FunctionCallExprSyntax) -> Bool {
        if isBoundTaskInit(call) { return true }
        let name = Calls.name(of: call)
        if name == "forEach", Calls.labels(of: call).first == "boundTo" { return true }
        if name == "task", let receiver = Calls.receiver(of: call),
            !receiver.trimmedDescription.hasPrefix("Task"),
            call.trailingClosure != nil
        {
            return true
        }
        return false
    }

    /// Whether `node` lies inside a task started below `top` (so it runs in a task of its own).
    static func isInNestedTask(_ node: Syntax, below top: Syntax) -> Bool {
        var current = node.parent
        while let syntax = current, syntax.id != top.id {
            if let closure = syntax.as(ClosureExprSyntax.self),
                let call = closure.parent?.as(FunctionCallExprSyntax.self)
                    ?? closure.parent?.parent?.parent?.as(FunctionCallExprSyntax.self),
                creation(call)?.operation.id == closure.id
            {
                return true
            }
            current = syntax.parent
        }
        return false
    }
}
