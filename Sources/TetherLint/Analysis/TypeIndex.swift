import SwiftSyntax

/// What one file says about a type: its kind, its members, its bags, what its `deinit` ends.
///
/// Built from the type's declaration and its extensions in the same file (a checker that reads
/// one file at a time sees no other). A type declared elsewhere and only extended here has kind
/// `.extended`: the rules treat it as a class, the common case for code that starts tasks.
struct TypeInfo {
    enum Kind { case `class`, actor, `struct`, `enum`, `protocol`, extended }

    /// A bag a subscription or task can be stored in.
    struct Bag: Equatable {
        enum Kind { case cancellables, lifetime, cancellable }
        var name: String
        var kind: Kind
        /// Declared with `var`: a `Set` must be, to be passed `inout`.
        var isVariable: Bool

        /// Whether a fix can store a task or a subscription here with `.store(in:)` (a set) or
        /// `.store(boundTo:)` (a Tether lifetime).
        var takesStore: Bool { kind == .lifetime || kind == .cancellables && isVariable }

        /// The argument of the store call that names this bag.
        var storeArgument: String {
            switch kind {
            case .cancellables: "&\(name)"
            case .lifetime, .cancellable: name
            }
        }

        /// The store call's label: Combine's `in:` for a set, Tether's `boundTo:` for a lifetime.
        var storeLabel: String { kind == .cancellables ? "in" : "boundTo" }

        /// The call that stores a task or a subscription here: `.store(in: &cancellables)`,
        /// `.store(boundTo: bag)`.
        var storeCall: String { ".store(\(storeLabel): \(storeArgument))" }
    }

    var name: String
    var kind: Kind = .extended
    /// Declared a SwiftUI `View` (or named like one and has a `body`).
    var isView = false
    /// Lives as long as the app: an app delegate, an `App`, a `@main` type, a `.shared` singleton.
    var isAppLifetime = false
    /// Every property and method name: a bare use of one in a closure is an implicit `self`.
    var members: Set<String> = []
    /// Stored properties' names and their declared types ("" when inferred).
    var storedProperties: [String: String] = [:]
    var bags: [Bag] = []
    /// Methods whose bodies loop until cancelled or over an async sequence.
    var loopingMethods: Set<String> = []
    /// Names whose tasks are cancelled (`name?.cancel()`) in `deinit`, and elsewhere.
    var cancelledInDeinit: Set<String> = []
    var cancelledElsewhere: Set<String> = []
    /// `deinit` finishes a stream (`continuation.finish()`): a loop over it ends with the owner.
    var deinitFinishesStream = false

    /// The one bag a fix can store into, when there is exactly one.
    var onlyStoreBag: Bag? {
        let candidates = bags.filter(\.takesStore)
        return candidates.count == 1 ? candidates[0] : nil
    }

    /// Whether instances are references that a capture can keep alive.
    var isReference: Bool { kind == .class || kind == .actor || kind == .extended }
}

/// The types of one file, by name.
struct TypeIndex {
    private(set) var types: [String: TypeInfo] = [:]

    init(_ file: SourceFileSyntax) {
        let collector = Collector(viewMode: .sourceAccurate)
        collector.walk(file)
        types = collector.types
        for name in types.keys { types[name]?.loopingMethods = collector.loopingMethods(of: name) }
    }

    subscript(name: String) -> TypeInfo? { types[name] }

    /// The type whose instance `node` runs in, or nil in top-level code, in a static member, or
    /// inside a protocol.
    func owner(of node: some SyntaxProtocol) -> TypeInfo? {
        var current = node.parent
        while let syntax = current {
            if let function = syntax.as(FunctionDeclSyntax.self), function.modifiers.isStatic { return nil }
            if let variable = syntax.as(VariableDeclSyntax.self), variable.modifiers.isStatic { return nil }
            if let name = Self.typeName(of: syntax) {
                guard let info = types[name], info.kind != .protocol else { return nil }
                return info
            }
            current = syntax.parent
        }
        return nil
    }

    /// The name a type declaration or extension declares members for.
    static func typeName(of syntax: Syntax) -> String? {
        if let decl = syntax.asProtocol(NamedDeclSyntax.self), syntax.asProtocol(DeclGroupSyntax.self) != nil
        {
            return decl.name.text
        }
        if let ext = syntax.as(ExtensionDeclSyntax.self) {
            // `extension Outer.Inner` adds to `Inner`; generic arguments are not part of the name.
            let text = ext.extendedType.trimmedDescription
            let base = text.split(separator: "<").first.map(String.init) ?? text
            return base.split(separator: ".").last.map(String.init) ?? base
        }
        return nil
    }
}

extension DeclModifierListSyntax {
    var isStatic: Bool {
        contains { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) }
    }
}

/// Walks a file once, filling in each type's entry.
private final class Collector: SyntaxVisitor {
    var types: [String: TypeInfo] = [:]
    /// Methods' bodies by type and name, for the looping fixed point.
    private var methodBodies: [String: [String: CodeBlockSyntax]] = [:]

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        declare(node, .class)
    }
    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind {
        declare(node, .actor)
    }
    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
        declare(node, .struct)
    }
    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
        declare(node, .enum)
    }
    override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind {
        declare(node, .protocol)
    }
    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
        declare(node, nil)
    }

    // Members are read from their type's member list; their bodies hold no types worth walking.
    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: DeinitializerDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

    private func declare(_ node: some DeclGroupSyntax, _ kind: TypeInfo.Kind?) -> SyntaxVisitorContinueKind {
        guard let name = TypeIndex.typeName(of: Syntax(node)) else { return .visitChildren }
        var info = types[name] ?? TypeInfo(name: name)
        if let kind { info.kind = kind }
        let inherited = Set(
            node.inheritanceClause?.inheritedTypes.map { $0.type.trimmedDescription } ?? [])
        if inherited.contains("View") || inherited.contains("SwiftUI.View") { info.isView = true }
        let appProtocols: Set = ["App", "UIApplicationDelegate", "NSApplicationDelegate"]
        if !inherited.isDisjoint(with: appProtocols) || name.hasSuffix("AppDelegate")
            || node.attributes.contains(where: {
                $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "main"
            })
        {
            info.isAppLifetime = true
        }
        for member in node.memberBlock.members { add(member.decl, to: &info) }
        types[name] = info
        return .visitChildren
    }

    private func add(_ decl: DeclSyntax, to info: inout TypeInfo) {
        if let variable = decl.as(VariableDeclSyntax.self) {
            for binding in variable.bindings {
                guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else {
                    continue
                }
                info.members.insert(name)
                if variable.modifiers.isStatic {
                    if name == "shared" { info.isAppLifetime = true }
                    continue
                }
                let isComputed =
                    binding.accessorBlock.map { block in
                        if case .accessors(let list) = block.accessors {
                            return list.contains { ["get", "set"].contains($0.accessorSpecifier.text) }
                        }
                        return true
                    } ?? false
                if isComputed { continue }
                let initializer = binding.initializer?.value.trimmedDescription ?? ""
                // `var state = State()`: the type a call of a type's name makes.
                let made = binding.initializer?.value.as(FunctionCallExprSyntax.self).map {
                    Calls.name(of: $0)
                }
                let type =
                    binding.typeAnnotation?.type.trimmedDescription
                    ?? made.flatMap { $0.first?.isUppercase == true ? $0 : nil } ?? ""
                info.storedProperties[name] = type
                if let bag = Self.bagKind(type: type, initializer: initializer) {
                    info.bags.append(
                        .init(
                            name: name, kind: bag,
                            isVariable: variable.bindingSpecifier.tokenKind == .keyword(.var)))
                }
            }
        } else if let function = decl.as(FunctionDeclSyntax.self) {
            info.members.insert(function.name.text)
            if let body = function.body, !function.modifiers.isStatic {
                methodBodies[info.name, default: [:]][function.name.text] = body
                info.cancelledElsewhere.formUnion(Self.cancelledNames(in: body))
            }
        } else if let deinitializer = decl.as(DeinitializerDeclSyntax.self), let body = deinitializer.body {
            info.cancelledInDeinit.formUnion(Self.cancelledNames(in: body))
            if body.tokens(viewMode: .sourceAccurate).contains(where: { $0.text == "finish" }) {
                info.deinitFinishesStream = true
            }
        } else if let initializer = decl.as(InitializerDeclSyntax.self), let body = initializer.body {
            info.cancelledElsewhere.formUnion(Self.cancelledNames(in: body))
        }
    }

    /// A stored property's bag kind, from its declared type or its initializer.
    static func bagKind(type: String, initializer: String) -> TypeInfo.Bag.Kind? {
        let compact = (type + " " + initializer).filter { !$0.isWhitespace }
        if compact.contains("Set<AnyCancellable>") { return .cancellables }
        if type == "DisposeBag" || type == "Lifetime" || initializer.hasPrefix("DisposeBag(")
            || initializer.hasPrefix("Lifetime(")
        {
            return .lifetime
        }
        if type == "AnyCancellable?" { return .cancellable }
        return nil
    }

    /// The names `x` of every `x.cancel()`, `x?.cancel()` or `self.x?.cancel()` in `body`.
    static func cancelledNames(in body: some SyntaxProtocol) -> Set<String> {
        var names: Set<String> = []
        for token in body.tokens(viewMode: .sourceAccurate) where token.text == "cancel" {
            guard let access = token.parent?.parent?.as(MemberAccessExprSyntax.self),
                access.parent?.is(FunctionCallExprSyntax.self) == true, let base = access.base
            else { continue }
            var text = base.trimmedDescription
            if text.hasSuffix("?") { text.removeLast() }
            if text.hasPrefix("self.") { text.removeFirst(5) }
            names.insert(text)
        }
        return names
    }

    /// The methods of `type` whose own bodies loop. One level only: a method that calls a looping
    /// one is usually a one-shot flow (a sign-in, a download) whose loop ends.
    func loopingMethods(of type: String) -> Set<String> {
        Set((methodBodies[type] ?? [:]).filter { Loops.containsAsyncLoop($0.value) }.keys)
    }
}
