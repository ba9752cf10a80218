/// JSON text for the outputs SyncSim writes by hand (run and sweep JSON lines, `syncsim decode`): string literals
/// and numbers, deterministic and locale-free, so equal values give equal bytes.
///
/// The one place that escapes JSON strings; writers build objects with their keys in a fixed order themselves.
public enum JSONText {
    /// `text` as a JSON string literal, quotes included (RFC 8259 §7).
    ///
    /// `"` and `\` are escaped, as are the control characters U+0000...U+001F: `\n`, `\r`, `\t`, `\b`, `\f` in their
    /// short forms, the others as `\u00XX` (lower-case hex). Everything else, non-ASCII included, is written as is.
    /// - Parameter text: any string.
    /// - Returns: the literal, e.g. `"a\"b\n"` for a, quote, b, line feed.
    public static func string(_ text: String) -> String {
        var output = ""
        appendString(text, to: &output)
        return output
    }

    /// Appends `text` as a JSON string literal to `output`; the same bytes as `string(_:)`.
    /// - Parameters:
    ///   - text: any string.
    ///   - output: the JSON being written.
    public static func appendString(_ text: String, to output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }

    /// `value` as a JSON number in Swift's shortest round-trip form (`2.0`, `1500.5`, `1e-05`); `null` for nil, NaN
    /// and infinities, which JSON cannot hold.
    /// - Parameter value: a number, or nil for none.
    /// - Returns: the number's text or `null`.
    public static func number(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "null" }
        return "\(value)"
    }
}
