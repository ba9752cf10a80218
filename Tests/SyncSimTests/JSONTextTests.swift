import Foundation
import Testing
import SyncSim

@Suite struct JSONTextTests {
    @Test("strings escape quotes, backslashes and control characters and keep everything else", arguments: [
        ("plain", "\"plain\""),
        ("say \"hi\"", "\"say \\\"hi\\\"\""),
        ("back\\slash", "\"back\\\\slash\""),
        ("a\nb\rc\td", "\"a\\nb\\rc\\td\""),
        ("\u{08}\u{0C}", "\"\\b\\f\""),
        ("\u{00}\u{01}\u{1F}", "\"\\u0000\\u0001\\u001f\""),
        ("Линус 🙂 \u{7F}", "\"Линус 🙂 \u{7F}\""),
        ("", "\"\""),
    ])
    func strings(text: String, expected: String) {
        #expect(JSONText.string(text) == expected)
        var appended = "["
        JSONText.appendString(text, to: &appended)
        #expect(appended == "[" + expected)
    }

    @Test("every string round-trips through Foundation's JSON parser")
    func roundTrip() throws {
        let seed: UInt64 = 20261129
        var generator = SeededGenerator(seed: seed)
        for _ in 0..<200 {
            let scalars = (0..<Int(generator.next() % 12)).compactMap { _ -> Unicode.Scalar? in
                let pick = generator.next() % 4
                return Unicode.Scalar(UInt32(pick == 0 ? generator.next() % 0x20 : generator.next() % 0x500))
            }
            let text = String(String.UnicodeScalarView(scalars))
            let data = Data("[\(JSONText.string(text))]".utf8)
            let decoded = try JSONSerialization.jsonObject(with: data) as? [String]
            #expect(decoded == [text], "seed \(seed), text \(text.unicodeScalars.map(\.value))")
        }
    }

    @Test("numbers in the shortest round-trip form; null for nil, NaN and infinities", arguments: [
        (2.0, "2.0"), (1500.5, "1500.5"), (-0.25, "-0.25"), (1e-05, "1e-05"), (Double.nan, "null"),
        (Double.infinity, "null"), (-Double.infinity, "null"),
    ])
    func numbers(value: Double, expected: String) {
        #expect(JSONText.number(value) == expected)
    }

    @Test("a missing number is null")
    func missingNumber() {
        #expect(JSONText.number(nil) == "null")
    }
}
