/// An id as the field's clients send it in a request: a MessagePack integer, or its decimal digits as a string.
///
/// Field clients disagree on the type: vkmax 1.0.2 sends MSG_EDIT's `messageId` as a string (PyPI `vkmax`,
/// `vkmax/functions/messages.py`, `edit_message`: `str(message_id)`), as PyMax 2.5.0 does a forwarded message's
/// `link.messageId` (`pymax/api/messages/payloads.py`, `ForwardLink.message_id: str`), while PyMax sends MSG_EDIT's
/// as an integer (`EditMessagePayload.message_id: int`). The server takes both; SyncSim always sends integers.
/// A string that is not a decimal Int64 is a data-corrupted error naming the string; any other type keeps the
/// integer decoder's type-mismatch error.
struct FieldId: Decodable {
    var value: Int64

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        do {
            value = try container.decode(Int64.self)
        } catch let integerError {
            guard let text = try? container.decode(String.self) else { throw integerError }
            guard let number = Int64(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "expected Int64 or its decimal string, found \"\(text)\"")
            }
            value = number
        }
    }
}

extension KeyedDecodingContainer {
    /// The id at `key`, an integer or its decimal string (`FieldId`).
    /// - Throws: `DecodingError` when the key is missing or its value is neither.
    func decodeFieldId(forKey key: Key) throws -> Int64 { try decode(FieldId.self, forKey: key).value }

    /// The ids at `key`, an array of integers or decimal strings (`FieldId`).
    /// - Throws: `DecodingError` when the key is missing, not an array, or an element is neither.
    func decodeFieldIds(forKey key: Key) throws -> [Int64] { try decode([FieldId].self, forKey: key).map(\.value) }
}
