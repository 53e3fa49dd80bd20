import SwiftSyntax

/// `sink-retain-cycle`: a subscription whose closure holds `self` strongly and that `self`
/// keeps — a cycle no `deinit` breaks (seeds 001 and 004). Subscriptions are `.sink {}` and
/// `.assign(to:on: self)` stored in `self`'s own bag or property, `$property.observe {}` on
/// `self`'s own observed property (its storage holds the closure), and LiveData's
/// `add(observer: self, …) {}` (the closure undoes the weak hold on the observer). Tether's
/// `sink(attributedTo:)` and `observe(_:attributedTo:)` are the naive code too. Left alone:
/// `sink(boundTo:)` and `observe(_:boundTo:)` (or its old `observe(_:in:)`), `[weak self]` or
/// `[unowned self]`, subscriptions stored elsewhere, finite publishers (`Just`, `Future`,
/// `.first()`…) that release their closures when they complete, and owners as long-lived as the
/// app.
final class SinkRetainCycleRule: RuleVisitor {
    override class var id: RuleID { .sinkRetainCycle }

    /// Publishers that complete after a value or two, releasing the sink's closure.
    private static let finiteRoots: Set = ["Just", "Future", "Fail", "Empty", "Deferred", "Result"]
    private static let finiteOperators: Set = ["first", "prefix", "output", "dataTaskPublisher", "timeout"]

    override func visit(_ call: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        guard let owner = context.owner(of: call), owner.isReference, !owner.isAppLifetime,
            let access = call.calledExpression.as(MemberAccessExprSyntax.self)
        else { return .visitChildren }
        let name = access.declName
        let labels = Calls.labels(of: call)
        switch name.baseName.text {
        case "sink" where !labels.contains("boundTo") && !isFinite(call):
            guard let bag = storage(of: call, owner: owner) else { break }
            checkClosures(
                of: call, at: name, owner: owner,
                message: "sink captures self strongly and is stored in \(owner.name)'s own \(bag): "
                    + "a cycle no deinit breaks",
                fix: "capture [weak self] (or bind it: sink(boundTo: lifetime), Tether)")
        case "assign" where labels == ["to", "on"]:
            guard let target = Calls.argument("on", of: call), SelfReferences.isSelf(target), !isFinite(call),
                let bag = storage(of: call, owner: owner)
            else { break }
            report(
                at: name,
                "assign(to:on: self) holds self strongly and is stored in \(owner.name)'s own \(bag): "
                    + "a cycle no deinit breaks",
                fix: "assign(to: &$property) for a @Published property, or sink(boundTo:) with [weak self]")
        case "observe" where !labels.contains("boundTo") && !labels.contains("in"):
            guard let receiver = access.base, let property = Self.ownProjection(receiver, owner: owner) else {
                break
            }
            checkClosures(
                of: call, at: name, owner: owner,
                message: "the observation captures self strongly and $\(property)'s storage, which is "
                    + "\(owner.name)'s, keeps it: a cycle no deinit breaks",
                fix: "capture [weak self], or bind it: observe(_:boundTo: lifetime)")
        case "add" where labels.first == "observer":
            guard let observer = call.arguments.first?.expression, SelfReferences.isSelf(observer) else {
                break
            }
            checkClosures(
                of: call, at: name, owner: owner,
                message: "the completion captures self strongly, undoing the weak hold on the observer: "
                    + "\(owner.name) stays alive as long as the registration",
                fix: "capture [weak self] in the completion")
        default:
            break
        }
        return .visitChildren
    }

    /// What of `owner`'s keeps the subscription: "cancellables", "bag", a property's name.
    private func storage(of call: FunctionCallExprSyntax, owner: TypeInfo) -> String? {
        switch ValueFlow.destination(of: call) {
        case .stored(let bag), .collected(let bag):
            return Ownership.isOwnProperty(ValueFlow.stripInOut(bag), owner: owner) ? Ownership.key(bag) : nil
        case .assigned(let target):
            return Ownership.isOwnProperty(target, owner: owner) ? Ownership.key(target) : nil
        case .discarded, .returned, .used:
            return nil
        }
    }

    private func isFinite(_ call: FunctionCallExprSyntax) -> Bool {
        let root = Calls.root(of: call)
        let rootName =
            root.as(FunctionCallExprSyntax.self).map { Calls.name(of: $0) }
            ?? root.as(DeclReferenceExprSyntax.self)?.baseName.text ?? ""
        if Self.finiteRoots.contains(rootName) { return true }
        return Calls.chain(from: call).contains { Self.finiteOperators.contains(Calls.name(of: $0)) }
    }

    /// `a` for `$a` or `self.$a` when `a` is one of `owner`'s members.
    private static func ownProjection(_ receiver: ExprSyntax, owner: TypeInfo) -> String? {
        guard let names = Ownership.components(of: receiver),
            let last = names.last, last.hasPrefix("$"), names.count == 1 || names == ["self", last]
        else { return nil }
        let property = String(last.dropFirst())
        return owner.members.contains(property) ? property : nil
    }

    private func checkClosures(
        of call: FunctionCallExprSyntax, at name: some SyntaxProtocol, owner: TypeInfo, message: String,
        fix: String
    ) {
        let strong = Calls.closures(of: call).filter {
            SelfReferences.holdsSelfStrongly($0, owner: owner) != nil
        }
        guard !strong.isEmpty else { return }
        report(at: name, message, fix: fix, edits: strong.flatMap { weakSelfEdits($0) })
    }

    /// `[weak self]` in the capture list and `guard let self else { return }` first in the body:
    /// the closure returns nothing, so this changes nothing while `self` lives.
    private func weakSelfEdits(_ closure: ClosureExprSyntax) -> [Edit] {
        let signature = closure.signature
        let unwrap: String
        if let first = closure.statements.first, first.leadingTrivia.contains(where: \.isNewline) {
            unwrap = "\n" + context.indentation(of: first) + "guard let self else { return }"
        } else {
            unwrap = " guard let self else { return };"
        }
        guard let signature else {
            // `{ self.x = $0 }`: the capture list and the unwrap go in one place.
            return [
                .insert(" [weak self] in" + unwrap, at: closure.leftBrace.endPositionBeforeTrailingTrivia)
            ]
        }
        var edits = [Edit.insert(unwrap, at: signature.inKeyword.endPositionBeforeTrailingTrivia)]
        if let item = SelfReferences.selfCaptureItem(of: closure) {
            edits.append(.replace(item.name, with: "weak self"))
        } else if let capture = signature.capture {
            edits.append(.insert("weak self, ", at: capture.leftSquare.endPositionBeforeTrailingTrivia))
        } else if !signature.attributes.isEmpty {
            edits.append(.insert(" [weak self]", at: signature.attributes.endPositionBeforeTrailingTrivia))
        } else {
            edits.append(.insert("[weak self] ", at: signature.positionAfterSkippingLeadingTrivia))
        }
        return edits
    }
}
