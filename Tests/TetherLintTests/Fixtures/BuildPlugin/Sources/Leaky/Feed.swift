/// A loop nobody cancels: the plugin's one warning.
@MainActor
public final class Feed {
    public init(updates: AsyncStream<Int>) {
        Task { [weak self] in
            for await value in updates { self?.show(value) }
        }
    }

    func show(_ value: Int) {}
}
