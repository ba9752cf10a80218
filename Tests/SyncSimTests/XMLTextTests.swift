import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import SyncSim

@Suite struct XMLTextTests {
    @Test("character data escapes markup and apostrophes, keeps quotes and line ends, replaces forbidden characters",
          arguments: [
              ("a < b & c > d", "a &lt; b &amp; c &gt; d"),
              ("it's \"quoted\"", "it&apos;s \"quoted\""),
              ("tab\tline\ncr\r", "tab\tline\ncr\r"),
              ("bell\u{07} nul\u{00} \u{FFFE}\u{FFFF}", "bell\u{FFFD} nul\u{FFFD} \u{FFFD}\u{FFFD}"),
              ("Линус 🙂", "Линус 🙂"),
          ])
    func characterData(text: String, expected: String) {
        #expect(XMLText.characterData(text) == expected)
    }

    @Test("attribute values are quoted, with quotes and line feeds escaped as well", arguments: [
        ("plain", "\"plain\""),
        ("say \"hi\" & 'bye'", "\"say &quot;hi&quot; &amp; &apos;bye&apos;\""),
        ("two\nlines", "\"two&#10;lines\""),
    ])
    func attribute(text: String, expected: String) {
        #expect(XMLText.attribute(text) == expected)
    }

    @Test("any string gives well-formed XML that reads back as the string (forbidden characters as U+FFFD)")
    func parsesBack() throws {
        let text = "<a href=\"x\">Tom & Jerry's\n\"show\"</a>\u{01}"
        let xml = "<r v=\(XMLText.attribute(text))>\(XMLText.characterData(text))</r>"
        let document = try XMLDocument(data: Data(xml.utf8))
        let root = try #require(document.rootElement())
        let expected = text.replacingOccurrences(of: "\u{01}", with: "\u{FFFD}")
        #expect(root.stringValue == expected)
        #expect(root.attribute(forName: "v")?.stringValue == expected)
    }
}
