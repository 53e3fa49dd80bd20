import Glibc

/// Reads small text files without Foundation.
enum FileReader {
    /// The file at `path` as UTF-8, or nil when it cannot be read.
    static func read(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&chunk, 1, chunk.count, file)
            if n > 0 { bytes.append(contentsOf: chunk[0..<n]) }
            if n < chunk.count {
                if ferror(file) != 0 { return nil }
                break
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
