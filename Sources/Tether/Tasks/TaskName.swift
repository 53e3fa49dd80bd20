/// The name of a task Tether starts (`Task.name`, which lldb's `task list` and swift-inspect
/// show): its owner's id and the call site that started it
/// (`OrientationViewModel#1 OrientationViewModel.swift:46`), or the call site alone when it has
/// no owner.
///
/// The site's part is spelled once per call site (the ledger's ``SiteTable`` keeps it): a task
/// with no owner costs no string of its own, one with an owner a concatenation. A plain value:
/// `Sendable`.
struct TaskName: Sendable, Equatable {
    let text: String

    init(owner: OwnerID?, site: String) {
        guard let owner else {
            text = site
            return
        }
        // One string of the right size, appended to: interpolating the owner's id would spell it
        // into a string of its own first.
        let serial = String(owner.serial)
        var text = owner.typeName
        text.reserveCapacity(text.utf8.count + serial.utf8.count + site.utf8.count + 2)
        text += "#"
        text += serial
        text += " "
        text += site
        self.text = text
    }

    /// The site alone, spelled now: for a ledger that is off, which keeps no site table.
    init(site: CallSite) { text = site.description }
}
