import TerminalUI
import Tether

/// Scenario 3: a fuse cuts a long-lived consumer's subscription when the sheet-owned
/// forwarder it came through deinitializes.
///
/// The repository and the consumer outlive the sheet (they are the lab's residents); the
/// forwarder is the sheet's view model. Bound, the forwarder's publisher goes through
/// `fuse(heldBy:on:)`: dismissing the sheet blows the fuse, the consumer's log shows
/// `.finished`, and nothing of the scenario stays in the ledger. Leaky, the forwarder maps with
/// a `weak` capture and no fuse: after dismissal the consumer keeps receiving `nil` on every
/// rotation — a leak named by the hand-over's call site, each `nil` a zombie delivery.
extension ForwarderViewModel: ScenarioModel {
    /// The forwarder, its fuse, and the consumer's latest subscriptions.
    func statusLines(style: LabStyle) -> [Line] {
        let theme = style.theme
        let fuse: TextSpan =
            switch isFuseBlown {
            case .some(true): TextSpan("blown", style: style.alarm)
            case .some(false):
                TextSpan("intact — blows when this forwarder deinitializes", style: theme.accent)
            case .none: TextSpan("none", style: style.leaky)
            }
        let forwarder = Line([
            TextSpan("forwarder "), TextSpan(lifetime.ownerID?.description ?? "?", style: theme.accent),
            TextSpan("  mapped \(mapped)"), TextSpan(lastMapped.map { "  last \($0)" } ?? ""),
        ])
        return [forwarder, Line([TextSpan("fuse "), fuse])]
            + consumer.subscriptions.suffix(3).map { describe($0, style: style) }
    }

    /// At least the log's title and three lines.
    var bodyRows: Int { 4 }

    /// The consumer's log, which outlives the sheet.
    func renderBody(into buffer: inout Buffer, area: Rect, style: LabStyle) {
        let parts = area.rows([.fixed(1), .fill()])
        buffer.setString(
            "Consumer's log (it outlives this sheet)", x: parts[0].x, y: parts[0].y, maxWidth: parts[0].width,
            style: style.theme.title)
        let log = consumer.log.items.map { text in
            Line(text, style: text.contains("nil") ? style.alarm : style.theme.text)
        }
        LogView(log.isEmpty ? [Line("nothing yet", style: style.theme.dimmed)] : log).render(
            into: &buffer, area: parts[1])
    }

    private func describe(_ subscription: OrientationConsumer.Subscription, style: LabStyle) -> Line {
        let mine = subscription.number == subscriptionNumber
        var spans = [
            TextSpan("consumer #\(subscription.number) "),
            TextSpan(mine ? "(this forwarder)" : "(\(subscription.forwarder))", style: style.theme.dimmed),
            TextSpan("  \(subscription.values) values"),
        ]
        if subscription.nils > 0 { spans.append(TextSpan("  \(subscription.nils) nils", style: style.alarm)) }
        switch subscription.state {
        case .receiving: spans.append(TextSpan("  receiving"))
        case .finished: spans.append(TextSpan("  finished: fuse blew", style: style.calm))
        }
        return Line(spans)
    }
}
