/// XML 1.0 text for the XML SyncSim writes by hand (JUnit reports, SVG charts): character data and quoted
/// attribute values, escaped so any string gives well-formed XML.
///
/// The one place that escapes XML; writers lay out their elements themselves.
public enum XMLText {
    /// `text` as XML character data (XML 1.0 §2.4).
    ///
    /// `&`, `<`, `>` and `'` become `&amp;`, `&lt;`, `&gt;`, `&apos;`; tab, line feed and carriage return stay; the
    /// characters XML 1.0 forbids (the other C0 controls, U+FFFE, U+FFFF) become U+FFFD. `"` stays as is: it needs
    /// no escape outside attributes.
    /// - Parameter text: any string.
    /// - Returns: the escaped text, e.g. `a &lt; b` for `a < b`.
    public static func characterData(_ text: String) -> String { escape(text, inAttribute: false) }

    /// `text` as a double-quoted attribute value (XML 1.0 §2.3), quotes included: escaped as character data, and
    /// `"` as `&quot;` and line feed as `&#10;` so that attribute-value normalization keeps it.
    /// - Parameter text: any string.
    /// - Returns: the quoted value, e.g. `"say &quot;hi&quot;"`.
    public static func attribute(_ text: String) -> String { "\"" + escape(text, inAttribute: true) + "\"" }

    private static func escape(_ text: String, inAttribute: Bool) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"" where inAttribute: result += "&quot;"
            case "\n" where inAttribute: result += "&#10;"
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "'": result += "&apos;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                result += "\u{FFFD}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
