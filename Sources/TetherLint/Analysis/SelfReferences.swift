import SwiftSyntax

/// How closures hold `self`: their capture lists, and where their bodies use `self` — written
/// out or implicit (a bare property or method name of the owner, which a `Task` closure allows).
enum SelfReferences {
    enum Capture {
        /// `[weak self]`
        case weak
        /// `[unowned self]` or `[unowned(unsafe) self]`
        case unowned
        /// `[self]`, or `self` named with no capture list entry: held strongly.
        case strong
    }

    /// How `closure`'s capture list binds `self`; `.strong` when it does not mention it.
    static func capture(of closure: ClosureExprSyntax) -> Capture {
        guard let item = selfCaptureItem(of: closure) else { return .strong }
        switch item.specifier?.specifier.tokenKind {
        case .keyword(.weak): return .weak
        case .keyword(.unowned): return .unowned
        default: return .strong
        }
    }

    /// The capture list's `self` entry: `weak self` in `[weak workspace, weak self]`.
    static func selfCaptureItem(of closure: ClosureExprSyntax) -> ClosureCaptureSyntax? {
        closure.signature?.capture?.items.first { item in
            item.name.tokenKind == .keyword(.self)
                && (item.initializer == nil || isSelf(item.initializer!.value))
        }
    }

    /// `self`, `self?` or `(self)`.
    static func isSelf(_ expr: ExprSyntax) -> Bool {
        if let reference = expr.as(DeclReferenceExprSyntax.self) {
            return reference.baseName.tokenKind == .keyword(.self)
        }
        if let optional = expr.as(OptionalChainingExprSyntax.self) { return isSelf(optional.expression) }
        if let forced = expr.as(ForceUnwrapExprSyntax.self) { return isSelf(forced.expression) }
        if let tuple = expr.as(TupleExprSyntax.self), tuple.elements.count == 1 {
            return isSelf(tuple.elements.first!.expression)
        }
        return false
    }

    /// Every use of `self` inside `node`: `self` written out (outside string literals' text), and
    /// bare names of `owner`'s members that no local declaration of the enclosing function
    /// shadows. A nested closure's capture list is a use too: the outer closure must hold
    /// `self` to create it.
    static func uses(in node: some SyntaxProtocol, owner: TypeInfo?) -> [Syntax] {
        // Read only when a bare name is one of the owner's members: most closures have none.
        var locals: Set<String>?
        var found: [Syntax] = []
        for token in node.tokens(viewMode: .sourceAccurate) {
            switch token.tokenKind {
            case .keyword(.self):
                // `guard let self` declares a name; `self` in a `[weak self]` list is a use.
                if token.parent?.is(IdentifierPatternSyntax.self) == true { continue }
                if token.parent?.is(DeclReferenceExprSyntax.self) == true
                    || token.parent?.is(ClosureCaptureSyntax.self) == true
                {
                    found.append(Syntax(token))
                }
            case .identifier(let name), .dollarIdentifier(let name):
                guard let owner, let reference = token.parent?.as(DeclReferenceExprSyntax.self) else {
                    continue
                }
                let member = name.hasPrefix("$") ? String(name.dropFirst()) : name
                guard owner.members.contains(member) else { continue }
                if locals == nil { locals = LocalNames.declared(around: Syntax(node)) }
                guard locals?.contains(member) == false else { continue }
                if let access = reference.parent?.as(MemberAccessExprSyntax.self),
                    access.declName.id == reference.id
                {
                    continue
                }
                if reference.parent?.is(LabeledExprSyntax.self) == true,
                    reference.parent?.as(LabeledExprSyntax.self)?.label?.id == token.id
                {
                    continue
                }
                found.append(Syntax(token))
            default:
                continue
            }
        }
        return found
    }

    /// Whether `closure` holds `self` strongly for as long as it lives: no weak or unowned
    /// `self` in its list, and a use of `self` in its body.
    static func holdsSelfStrongly(_ closure: ClosureExprSyntax, owner: TypeInfo?) -> Syntax? {
        guard capture(of: closure) == .strong else { return nil }
        if let item = selfCaptureItem(of: closure) { return Syntax(item) }
        return uses(in: closure.statements, owner: owner).first
    }
}

/// Names declared by the functions and closures around a node: parameters, `let` and `var`,
/// loop variables and capture-list names. Conservative: a member shadowed anywhere in the
/// enclosing function counts as local everywhere in it.
enum LocalNames {
    static func declared(around node: Syntax) -> Set<String> {
        var scope: Syntax = node
        var current = node.parent
        while let syntax = current {
            if syntax.is(FunctionDeclSyntax.self) || syntax.is(InitializerDeclSyntax.self)
                || syntax.is(AccessorDeclSyntax.self) || syntax.is(DeinitializerDeclSyntax.self)
                || syntax.is(MemberBlockItemSyntax.self)
                || syntax.is(CodeBlockItemSyntax.self)
                    && syntax.parent?.parent?.is(SourceFileSyntax.self) == true
            {
                scope = syntax
                break
            }
            scope = syntax
            current = syntax.parent
        }
        var names: Set<String> = []
        for token in scope.tokens(viewMode: .sourceAccurate) {
            guard case .identifier(let name) = token.tokenKind, let parent = token.parent else { continue }
            if parent.is(IdentifierPatternSyntax.self) || parent.is(ClosureShorthandParameterSyntax.self)
                || parent.is(ClosureCaptureSyntax.self)
            {
                names.insert(name)
            } else if let parameter = parent.as(FunctionParameterSyntax.self) {
                if token.id == (parameter.secondName ?? parameter.firstName).id { names.insert(name) }
            } else if let parameter = parent.as(ClosureParameterSyntax.self) {
                if token.id == (parameter.secondName ?? parameter.firstName).id { names.insert(name) }
            } else if let parameter = parent.as(EnumCaseParameterSyntax.self),
                parameter.secondName?.id == token.id
            {
                names.insert(name)
            }
        }
        return names
    }
}
