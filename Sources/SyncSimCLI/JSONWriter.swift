import Foundation
import SyncSim

/// Writes `MessagePackValue`s as compact, deterministic JSON: map pairs in wire order, no added whitespace.
///
/// MessagePack has types JSON lacks; they are written as:
/// - binary: a string of its bytes in standard base64 (RFC 4648 §4), e.g. `"AP8="` for 00 ff;
/// - non-string map keys: the key's JSON text as a string (`1` -> `"1"`);
/// - ext: `{"ext":TYPE,"base64":"..."}`; timestamp: `{"timestamp":{"seconds":S,"nanoseconds":N}}`;
/// - non-finite floats: the strings `"NaN"`, `"Infinity"`, `"-Infinity"`.
enum JSONWriter {
    /// The value as one line of JSON.
    static func string(for value: MessagePackValue) -> String {
        var output = ""
        write(value, into: &output)
        return output
    }

    /// Appends the value's JSON to `output`.
    static func write(_ value: MessagePackValue, into output: inout String) {
        switch value {
        case .nil: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .int(let number): output += String(number)
        case .uint(let number): output += String(number)
        case .float(let number): writeFloat(number.isFinite, number.description, number < 0, into: &output)
        case .double(let number): writeFloat(number.isFinite, number.description, number < 0, into: &output)
        case .string(let text): JSONText.appendString(text, to: &output)
        case .binary(let bytes): JSONText.appendString(Data(bytes).base64EncodedString(), to: &output)
        case .array(let elements):
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                write(element, into: &output)
            }
            output += "]"
        case .map(let pairs):
            output += "{"
            for (index, pair) in pairs.enumerated() {
                if index > 0 { output += "," }
                if case .string(let key) = pair.key {
                    JSONText.appendString(key, to: &output)
                } else {
                    JSONText.appendString(string(for: pair.key), to: &output)
                }
                output += ":"
                write(pair.value, into: &output)
            }
            output += "}"
        case .ext(let type, let data):
            output += "{\"ext\":\(type),"
            // The field's wrapped value (extension type 1 holding one MessagePack value, an id or a time: docs/
            // protocol.md §2) is shown as what it wraps too.
            if type == MessagePackValue.wrappedValueExtType, let wrapped = try? MessagePackValue(messagePack: data) {
                output += "\"wrapped\":"
                write(wrapped, into: &output)
                output += ","
            }
            output += "\"base64\":"
            JSONText.appendString(Data(data).base64EncodedString(), to: &output)
            output += "}"
        case .timestamp(let seconds, let nanoseconds):
            output += "{\"timestamp\":{\"seconds\":\(seconds),\"nanoseconds\":\(nanoseconds)}}"
        }
    }

    private static func writeFloat(_ isFinite: Bool, _ text: String, _ isNegative: Bool, into output: inout String) {
        if isFinite {
            output += text
        } else if text == "nan" || text == "-nan" {
            output += "\"NaN\""
        } else {
            output += isNegative ? "\"-Infinity\"" : "\"Infinity\""
        }
    }
}
