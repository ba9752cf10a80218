import Foundation

/// Checks on an NSS key log file (the format browsers, curl and Python's `SSLKEYLOGFILE` write): one secret per
/// line, `LABEL CLIENT_RANDOM_HEX SECRET_HEX` (labels such as `CLIENT_RANDOM` for TLS 1.2,
/// `CLIENT_TRAFFIC_SECRET_0` and `SERVER_HANDSHAKE_TRAFFIC_SECRET` for TLS 1.3), `#` comments and blank lines.
/// Format: NSS "Key Log Format" (firefox-source-docs.mozilla.org/security/nss/legacy/key_log_format), as Wireshark's
/// `tls.keylog_file` preference reads it. SyncSim never uses the secrets itself: tshark does.
public enum TLSKeyLog {
    /// A line of the key log that is not a comment, not blank and not `LABEL HEX HEX`.
    public struct FormatError: Error, Hashable, CustomStringConvertible {
        /// The key log's path as given.
        public var path: String
        /// 1-based line number, or nil when the file as a whole is unusable (unreadable, no secrets in it).
        public var line: Int?
        /// What was found and what was expected.
        public var detail: String

        public var description: String {
            if let line { return "\(path): line \(line): \(detail)" }
            return "\(path): \(detail)"
        }
    }

    /// Reads the key log at `path` and checks every line.
    /// - Returns: how many secrets (`LABEL HEX HEX` lines) it holds, at least 1.
    /// - Throws: `FormatError` naming the file (and line): cannot be read, a line that is not a secret, comment or
    ///   blank, or no secret at all.
    public static func validate(path: String) throws -> Int {
        guard let data = FileManager.default.contents(atPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot be read" : "no such file"
            throw FormatError(path: path, line: nil, detail: "\(reason) (the TLS key log given with --tls-keylog)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw FormatError(path: path, line: nil, detail: "not UTF-8 text, so not an NSS key log")
        }
        var secrets = 0
        // Character-wise, "\r\n" is one newline character: Windows line ends split too.
        for (index, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) || line.hasPrefix("#") { continue }
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            let labelIsValid = fields.first.map { label in
                label.allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
            } ?? false
            guard fields.count == 3, labelIsValid, fields[1...].allSatisfy(isHex) else {
                let shown = line.count > 60 ? line.prefix(60) + "..." : line[...]
                throw FormatError(
                    path: path, line: index + 1,
                    detail: "expected 'LABEL CLIENT_RANDOM SECRET' (NSS key log: a label such as CLIENT_RANDOM "
                        + "or CLIENT_TRAFFIC_SECRET_0, then two hex strings), got '\(shown)'")
            }
            secrets += 1
        }
        guard secrets > 0 else {
            throw FormatError(path: path, line: nil, detail: "holds no secrets (no 'LABEL CLIENT_RANDOM SECRET' line)")
        }
        return secrets
    }

    private static func isHex(_ text: Substring) -> Bool {
        !text.isEmpty && text.count % 2 == 0 && text.allSatisfy(\.isHexDigit)
    }
}
