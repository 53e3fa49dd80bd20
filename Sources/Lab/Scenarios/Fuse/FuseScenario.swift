import TerminalUI
import Tether

/// Scenario 3, from seed 002: a fuse cuts a long-lived consumer's subscription when the
/// sheet-owned forwarder it came through deinitializes.
///
/// The repository and the consumer outlive the sheet (they are the lab's residents); the
/// forwarder is the sheet's view model. Bound, the forwarder's publisher goes through
/// `fuse(heldBy:on:)`: dismissing the sheet blows the fuse, the consumer's log shows
/// `.finished`, and nothing of the scenario stays in the ledger. Leaky, the forwarder maps with
/// a `weak` capture and no fuse: after dismissal the consumer keeps receiving `nil` on every
/// rotation — a leak named by the hand-over's call site, each `nil` a zombie delivery.
public enum FuseScenario {
    public static let id = "fuse"

    /// The scenario as number `number` (3 in the lab).
    public static func scenario(number: Int = 3) -> Scenario {
        Scenario(
            id: id, number: number, title: "Fuse",
            summary: "the consumer's subscription ends with the forwarder",
            seed: "seed 002",
            make: { mode, environment in FuseScreen(mode: mode, environment: environment) })
    }
}

/// The Fuse sheet: the forwarder's state, the consumer's subscriptions and its log.
@MainActor
final class FuseScreen: Screen {
    let lifecycle: Lifecycle
    let id = FuseScenario.id
    let title = "Fuse"
    let mode: Mode
    private let model: ForwarderViewModel
    private let consumer: OrientationConsumer

    init(mode: Mode, environment: LabEnvironment) {
        self.mode = mode
        lifecycle = Lifecycle(ledger: environment.ledger)
        model = ForwarderViewModel(mode: mode, environment: environment, parent: lifecycle.lifetime)
        consumer = OrientationConsumer.resident(in: environment)
    }

    var presentation: Presentation { .sheet(widthPercent: 96, heightPercent: 92) }

    func render(into buffer: inout Buffer, area: Rect, theme: Theme) {
        let block = Block(title: " Fuse (\(mode.rawValue)) ", theme: theme)
        block.render(into: &buffer, area: area)
        let inner = block.inner(area).inset(horizontal: 1, vertical: 0)
        guard !inner.isEmpty else { return }
        let head = headLines(theme: theme)
        let headHeight = min(
            inner.height, head.reduce(0) { $0 + Paragraph.wrap($1, width: inner.width).count })
        let parts = inner.rows([.fixed(headHeight), .fixed(1), .fill()])
        Paragraph(head, style: theme.text).render(into: &buffer, area: parts[0])
        buffer.setString(
            "Consumer's log (it outlives this sheet)", x: parts[1].x, y: parts[1].y, maxWidth: parts[1].width,
            style: theme.title)
        let log = consumer.log.map { text in
            Line(text, style: text.contains("nil") ? LabStyle(theme: theme).alarm : theme.text)
        }
        LogView(log.isEmpty ? [Line("nothing yet", style: theme.dimmed)] : log).render(
            into: &buffer, area: parts[2])
    }

    private func headLines(theme: Theme) -> [Line] {
        let explanation: Line =
            mode == .bound
            ? Line(
                "Bound: map { [unowned self] … }.fuse(heldBy: self, on: \\.cancellables) — dismissing blows "
                    + "the fuse and the consumer sees .finished.", style: theme.dimmed)
            : Line(
                "Leaky: map { [weak self] in self?.map($0) }, no fuse — after dismissal the consumer keeps "
                    + "receiving nil: a leak, each nil a zombie.", style: LabStyle(theme: theme).leaky)
        let fuse: Span =
            switch model.isFuseBlown {
            case .some(true): Span("blown", style: LabStyle(theme: theme).alarm)
            case .some(false): Span("intact — blows when this forwarder deinitializes", style: theme.accent)
            case .none: Span("none", style: LabStyle(theme: theme).leaky)
            }
        var lines = [
            explanation,
            Line([
                Span("forwarder "), Span(model.lifetime.ownerID?.description ?? "?", style: theme.accent),
                Span("  mapped \(model.mapped)"),
                Span(model.lastMapped.map { "  last \($0)" } ?? ""),
            ]),
            Line([Span("fuse "), fuse]),
        ]
        for subscription in consumer.subscriptions.suffix(3) {
            lines.append(describe(subscription, theme: theme))
        }
        return lines
    }

    private func describe(_ subscription: OrientationConsumer.Subscription, theme: Theme) -> Line {
        let mine = subscription.number == model.subscriptionNumber
        var spans = [
            Span("consumer #\(subscription.number) "),
            Span(mine ? "(this forwarder)" : "(\(subscription.forwarder))", style: theme.dimmed),
            Span("  \(subscription.values) values"),
        ]
        if subscription.nils > 0 {
            spans.append(Span("  \(subscription.nils) nils", style: LabStyle(theme: theme).alarm))
        }
        switch subscription.state {
        case .receiving: spans.append(Span("  receiving"))
        case .finished: spans.append(Span("  finished: fuse blew", style: LabStyle(theme: theme).calm))
        }
        return Line(spans)
    }

    func handle(_ key: Key, context: ScreenContext) -> Bool { false }
}
