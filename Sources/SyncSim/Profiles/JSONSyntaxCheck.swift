/// A strict reading of a JSON text's syntax (RFC 8259) ahead of Foundation's parser, for the files users write:
/// Foundation on Linux accepts a trailing comma and a key given twice in one object (keeping one of the values
/// silently), and names no place for a text cut short. This check refuses both and says where, as line and column.
///
/// It only checks: values are not built. Numbers follow RFC 8259 §6, strings §7 (escapes, no raw control
/// characters), literals `true`, `false`, `null`; nesting deeper than `maximumDepth` is refused rather than recursed.
enum JSONSyntaxCheck {
    /// A syntax fault: where (1-based line and column, counted in bytes of the line) and what.
    struct Problem: Equatable {
        var line: Int
        var column: Int
        var text: String

        var description: String { "line \(line), column \(column): \(text)" }
    }

    /// Objects and arrays nested deeper than this are refused (a link-profile file needs five levels).
    static let maximumDepth = 64

    /// The first syntax fault of `bytes`, or nil when they are one JSON value, with only whitespace around it (and
    /// a UTF-8 byte order mark before it, which RFC 8259 §8.1 lets a parser ignore).
    static func firstProblem(in bytes: [UInt8]) -> Problem? {
        var reader = Reader(bytes: bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.offset = 3 }
        do {
            reader.skipWhitespace()
            try reader.value(depth: 0)
            reader.skipWhitespace()
            if !reader.atEnd { throw reader.problem("more text after the JSON value") }
            return nil
        } catch let problem as Problem {
            return problem
        } catch {
            return Problem(line: 1, column: 1, text: "\(error)")
        }
    }

    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        var atEnd: Bool { offset >= bytes.count }

        func problem(_ text: String, at position: Int? = nil) -> Problem {
            let end = min(position ?? offset, bytes.count)
            var line = 1
            var lineStart = 0
            for index in 0..<end where bytes[index] == UInt8(ascii: "\n") {
                line += 1
                lineStart = index + 1
            }
            return Problem(line: line, column: end - lineStart + 1, text: text)
        }

        func found() -> String {
            guard !atEnd else { return "the end of the file" }
            let byte = bytes[offset]
            if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
            return "byte 0x" + String(byte, radix: 16, uppercase: true)
        }

        mutating func skipWhitespace() {
            while !atEnd, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[offset]) { offset += 1 }
        }

        mutating func expect(_ byte: UInt8, _ what: String) throws {
            guard !atEnd, bytes[offset] == byte else { throw problem("expected \(what), found \(found())") }
            offset += 1
        }

        mutating func value(depth: Int) throws {
            guard !atEnd else { throw problem("expected a value, found the end of the file") }
            switch bytes[offset] {
            case UInt8(ascii: "{"): try object(depth: depth + 1)
            case UInt8(ascii: "["): try array(depth: depth + 1)
            case UInt8(ascii: "\""): _ = try string()
            case UInt8(ascii: "t"): try literal("true")
            case UInt8(ascii: "f"): try literal("false")
            case UInt8(ascii: "n"): try literal("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
            default: throw problem("expected a value, found \(found())")
            }
        }

        mutating func object(depth: Int) throws {
            guard depth <= JSONSyntaxCheck.maximumDepth else { throw problem("nested deeper than \(JSONSyntaxCheck.maximumDepth)") }
            offset += 1
            var keys: Set<[UInt8]> = []
            skipWhitespace()
            if !atEnd, bytes[offset] == UInt8(ascii: "}") {
                offset += 1
                return
            }
            while true {
                skipWhitespace()
                guard !atEnd, bytes[offset] == UInt8(ascii: "\"") else {
                    let trailingComma = !keys.isEmpty && !atEnd && bytes[offset] == UInt8(ascii: "}")
                    throw problem("expected a key in quotes, found \(found())"
                                  + (trailingComma ? " (a comma before '}' is not JSON)" : ""))
                }
                let keyStart = offset
                let key = try string()
                guard keys.insert(key).inserted else {
                    let name = String(decoding: key, as: UTF8.self)
                    throw problem("key \"\(name)\" is given twice in one object", at: keyStart)
                }
                skipWhitespace()
                try expect(UInt8(ascii: ":"), "':' after a key")
                skipWhitespace()
                try value(depth: depth)
                skipWhitespace()
                guard !atEnd else { throw problem("expected ',' or '}', found the end of the file") }
                if bytes[offset] == UInt8(ascii: ",") {
                    offset += 1
                    continue
                }
                try expect(UInt8(ascii: "}"), "',' or '}'")
                return
            }
        }

        mutating func array(depth: Int) throws {
            guard depth <= JSONSyntaxCheck.maximumDepth else { throw problem("nested deeper than \(JSONSyntaxCheck.maximumDepth)") }
            offset += 1
            skipWhitespace()
            if !atEnd, bytes[offset] == UInt8(ascii: "]") {
                offset += 1
                return
            }
            while true {
                skipWhitespace()
                if !atEnd, bytes[offset] == UInt8(ascii: "]") {
                    throw problem("expected a value, found ']' (a comma before ']' is not JSON)")
                }
                try value(depth: depth)
                skipWhitespace()
                guard !atEnd else { throw problem("expected ',' or ']', found the end of the file") }
                if bytes[offset] == UInt8(ascii: ",") {
                    offset += 1
                    continue
                }
                try expect(UInt8(ascii: "]"), "',' or ']'")
                return
            }
        }

        /// Reads a string at the opening quote; returns its contents with the one-character escapes decoded and
        /// `\u` escapes as written (so two spellings of one key, plain and `\u`, count as two keys here).
        mutating func string() throws -> [UInt8] {
            let start = offset
            offset += 1
            var decoded: [UInt8] = []
            while true {
                guard !atEnd else { throw problem("a string is not closed", at: start) }
                let byte = bytes[offset]
                switch byte {
                case UInt8(ascii: "\""):
                    offset += 1
                    return decoded
                case UInt8(ascii: "\\"):
                    offset += 1
                    guard !atEnd else { throw problem("a string is not closed", at: start) }
                    let escape = bytes[offset]
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"):
                        decoded.append(escape)
                    case UInt8(ascii: "b"): decoded.append(0x08)
                    case UInt8(ascii: "f"): decoded.append(0x0C)
                    case UInt8(ascii: "n"): decoded.append(0x0A)
                    case UInt8(ascii: "r"): decoded.append(0x0D)
                    case UInt8(ascii: "t"): decoded.append(0x09)
                    case UInt8(ascii: "u"):
                        guard offset + 4 < bytes.count,
                              bytes[(offset + 1)...(offset + 4)].allSatisfy({ Self.isHexDigit($0) }) else {
                            throw problem("\\u must be followed by four hex digits")
                        }
                        // Kept as written: a key spelled with \u and one spelled plainly count as two keys here,
                        // which no hand-written file does; Foundation's decoder still reads both.
                        decoded.append(contentsOf: bytes[(offset - 1)...(offset + 4)])
                        offset += 4
                    default:
                        throw problem("unknown escape \\\(Character(Unicode.Scalar(escape)))")
                    }
                    offset += 1
                case 0x00..<0x20:
                    throw problem("a control character (byte 0x\(String(byte, radix: 16, uppercase: true))) inside a string; write it escaped")
                default:
                    decoded.append(byte)
                    offset += 1
                }
            }
        }

        static func isHexDigit(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
        }

        mutating func literal(_ word: String) throws {
            let expected = Array(word.utf8)
            guard offset + expected.count <= bytes.count,
                  Array(bytes[offset..<(offset + expected.count)]) == expected else {
                throw problem("expected a value, found \(found())")
            }
            offset += expected.count
        }

        /// RFC 8259 §6: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
        mutating func number() throws {
            func digits() -> Int {
                let start = offset
                while !atEnd, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[offset]) { offset += 1 }
                return offset - start
            }
            if bytes[offset] == UInt8(ascii: "-") { offset += 1 }
            guard !atEnd else { throw problem("a number is cut short") }
            if bytes[offset] == UInt8(ascii: "0") {
                offset += 1
                if !atEnd, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[offset]) {
                    throw problem("a number may not start with 0 followed by digits")
                }
            } else if digits() == 0 {
                throw problem("expected a digit, found \(found())")
            }
            if !atEnd, bytes[offset] == UInt8(ascii: ".") {
                offset += 1
                guard digits() > 0 else { throw problem("expected a digit after '.', found \(found())") }
            }
            if !atEnd, bytes[offset] == UInt8(ascii: "e") || bytes[offset] == UInt8(ascii: "E") {
                offset += 1
                if !atEnd, bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-") { offset += 1 }
                guard digits() > 0 else { throw problem("expected a digit in the exponent, found \(found())") }
            }
        }
    }
}

extension JSONSyntaxCheck.Problem: Error {}
