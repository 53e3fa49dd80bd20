import Foundation

/// The process's memory as `/proc/self/status` reports it (Linux); nil elsewhere.
///
/// Stateless; safe from any thread.
public enum ProcessMemory {
    /// Resident set size now, in bytes (`VmRSS`).
    public static var residentBytes: Int? { read("VmRSS:") }
    /// Peak resident set size, in bytes (`VmHWM`).
    public static var peakResidentBytes: Int? { read("VmHWM:") }

    private static func read(_ field: String) -> Int? {
        // /proc files report a size of 0, so read them line by line rather than by size.
        guard let file = fopen("/proc/self/status", "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 512)
        while fgets(&buffer, Int32(buffer.count), file) != nil {
            let line = String(
                decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard line.hasPrefix(field) else { continue }
            let kilobytes = line.dropFirst(field.count).split(whereSeparator: { $0 == " " || $0 == "\t" })
                .first.flatMap { Int($0) }
            return kilobytes.map { $0 * 1024 }
        }
        return nil
    }

    /// `12.3 MB`.
    public static func format(_ bytes: Int) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_048_576)
    }
}
