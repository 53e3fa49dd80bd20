import Logging

extension Ledger {
    /// Logs each leak the ledger finds to `logger`: one record at `.warning`, the trace's first
    /// line as its message, and the owner, its call site, the signature and the survivors as
    /// metadata. Lasts until the returned token is cancelled or released.
    ///
    /// ```swift
    /// let leaks = Ledger.shared.reportLeaks(to: Logger(label: "app.leaks"))
    /// ```
    ///
    /// With swift-log's bootstrap on Apple platforms the records can go to `os_log`; on a server,
    /// to whatever backend the process uses.
    public func reportLeaks(to logger: Logger) -> AnyCancellable {
        onLeak { report in
            logger.warning(
                "\(report.headline)",
                metadata: [
                    "owner": "\(report.owner)",
                    "site": "\(report.ownerSite)",
                    "signature": "\(report.signature)",
                    "survivors": .array(
                        report.survivors.map {
                            "\($0.kind.rawValue) \($0.site), \($0.delivered)"
                        }),
                ])
        }
    }
}

extension Ledger {
    /// Logs each site that starts growing to `logger`: one record at `.warning`, the report's
    /// first line as its message, and the owner, its call site, the kind, the site, the counts and
    /// the signature as metadata. Lasts until the returned token is cancelled or released.
    ///
    /// ```swift
    /// let growth = Ledger.shared.reportGrowth(to: Logger(label: "app.growth"))
    /// ```
    public func reportGrowth(to logger: Logger) -> AnyCancellable {
        onGrowth { report in
            logger.warning(
                "\(report.headline)",
                metadata: [
                    "owner": "\(report.owner)",
                    "ownerSite": "\(report.ownerSite)",
                    "kind": "\(report.kind.rawValue)",
                    "site": "\(report.site)",
                    "counts": .array(report.counts.map { "\($0)" }),
                    "signature": "\(report.signature)",
                ])
        }
    }
}
