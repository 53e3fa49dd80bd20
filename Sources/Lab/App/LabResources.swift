/// The files of `Resources/`, embedded in the binary so the lab runs from any directory.
///
/// Stateless; safe from any thread.
public enum LabResources {
    /// The lab's version, as `--version` prints it.
    public static let version = "0.1.0"

    /// The help text, with `{{keys}}` where the key table goes.
    public static var helpTemplate: String { String(decoding: PackageResources.help_txt, as: UTF8.self) }

    /// Attach's help text, with `{{keys}}` where the key table goes.
    public static var attachHelpTemplate: String {
        String(decoding: PackageResources.attach_help_txt, as: UTF8.self)
    }

    /// The key map (`Resources/keymap.txt`).
    public static var keyMapText: String { String(decoding: PackageResources.keymap_txt, as: UTF8.self) }

    /// What the scenarios say to users (`Resources/scenarios.txt`).
    public static var scenariosText: String {
        String(decoding: PackageResources.scenarios_txt, as: UTF8.self)
    }

    /// The demo scripts of `Resources/scripts/`, by name without `.keys`.
    public static let scripts: [String: String] = [
        "bound-orientation": String(decoding: PackageResources.bound_orientation_keys, as: UTF8.self),
        "leaky-orientation": String(decoding: PackageResources.leaky_orientation_keys, as: UTF8.self),
        "tour": String(decoding: PackageResources.tour_keys, as: UTF8.self),
    ]

    /// The bundled script called `name` (with or without `.keys`), if any.
    public static func script(named name: String) -> String? {
        let base = name.hasSuffix(".keys") ? String(name.dropLast(5)) : name
        return scripts[base]
    }
}
