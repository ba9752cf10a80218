import CCrypto
import Foundation

/// The opening handshake of a WebSocket server (RFC 6455 §4.2): a client's HTTP/1.1 `GET` with `Upgrade: websocket`
/// read from the start of a connection, and the `101 Switching Protocols` answer.
///
/// No subprotocol is accepted, and by default no extension: the answer names none, which a client must take as
/// "none in use" (RFC 6455 §4.2.2, §9.1). PyMax's `WebClient` (`pymax/transport/websocket.py`, the `websockets`
/// library) offers permessage-deflate and goes on without it. `syncsim serve --websocket-deflate` agrees to that
/// offer (RFC 7692; `WebSocketSession`), and the answer then names the agreement.
struct WebSocketHandshake: Equatable {
    /// The request's target, e.g. `/websocket` (PyMax's default URL `wss://api.oneme.ru/websocket`, `pymax/config.py`).
    var path: String
    /// The `Sec-WebSocket-Key` header as sent: base64 of 16 bytes.
    var key: String
    /// The values of the `Sec-WebSocket-Extensions` headers as sent (each a comma-separated list of offers).
    var extensionOffers: [String] = []

    /// The GUID every server appends to the key before hashing (RFC 6455 §1.3, §4.2.2).
    static let acceptGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// Parses a request head: the bytes before the blank line (`\r\n\r\n`), without it.
    /// - Throws: `WebSocketError` naming the line or header that is wrong, with the HTTP error answer to write.
    init(requestHead head: [UInt8]) throws(WebSocketError) {
        guard let text = String(validating: head, as: UTF8.self) else {
            throw .handshake("the request head is not UTF-8 text")
        }
        let lines = text.components(separatedBy: "\r\n")
        let requestLine = lines[0].split(separator: " ", omittingEmptySubsequences: false)
        guard requestLine.count == 3 else {
            throw .handshake("request line '\(lines[0].prefix(80))' is not 'GET PATH HTTP/1.1'")
        }
        guard requestLine[0] == "GET" else {
            throw .handshake("method '\(requestLine[0].prefix(20))' is not GET (RFC 6455 §4.1)", status: 405)
        }
        guard requestLine[2] == "HTTP/1.1" else {
            throw .handshake("version '\(requestLine[2].prefix(20))' is not HTTP/1.1 (RFC 6455 §4.1)", status: 505)
        }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else {
                throw .handshake("header line '\(line.prefix(80))' has no ':'")
            }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers.append((name, value))
        }
        func values(_ name: String) -> [String] { headers.filter { $0.name == name }.map(\.value) }
        func tokens(_ name: String) -> [String] {
            values(name).flatMap { $0.split(separator: ",") }
                .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        }
        guard tokens("upgrade").contains("websocket") else {
            let upgrade = values("upgrade").joined(separator: ", ")
            throw .handshake("header Upgrade does not name websocket (got '\(upgrade)')"
                + "; this port speaks the field's TCP frames or WebSocket", status: 426)
        }
        guard tokens("connection").contains("upgrade") else {
            throw .handshake("header Connection does not name Upgrade "
                + "(got '\(values("connection").joined(separator: ", "))')")
        }
        guard values("sec-websocket-version") == ["13"] else {
            let version = values("sec-websocket-version").joined(separator: ", ")
            throw .handshake("header Sec-WebSocket-Version is '\(version)'"
                + ", not 13 (RFC 6455 §4.2.1)", status: 426, extraHeader: "Sec-WebSocket-Version: 13")
        }
        let keys = values("sec-websocket-key")
        guard keys.count == 1, let decoded = Data(base64Encoded: keys[0]), decoded.count == 16 else {
            throw .handshake("header Sec-WebSocket-Key '\(keys.joined(separator: ", ").prefix(60))' is not the "
                + "base64 of 16 bytes (RFC 6455 §4.1)")
        }
        self.path = String(requestLine[1])
        self.key = keys[0]
        self.extensionOffers = values("sec-websocket-extensions")
    }

    /// `Sec-WebSocket-Accept` for `key`: base64 of the SHA-1 of the key and `acceptGUID` (RFC 6455 §4.2.2; the
    /// RFC's example: key `dGhlIHNhbXBsZSBub25jZQ==` gives `s3pPLMBiTxaQ9kYGzzhZRbK+xOo=`).
    static func accept(forKey key: String) -> String {
        let input = Array((key + acceptGUID).utf8)
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let done = EVP_Digest(input, input.count, &digest, &length, EVP_sha1(), nil)
        precondition(done == 1 && length == 20, "OpenSSL's SHA-1 failed")
        return Data(digest.prefix(20)).base64EncodedString()
    }

    /// The `101 Switching Protocols` answer, naming the extension agreed (a `Sec-WebSocket-Extensions` value) if any.
    func answer(extensions: String? = nil) -> [UInt8] {
        Array(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Accept: \(Self.accept(forKey: key))\r\n"
            + (extensions.map { "Sec-WebSocket-Extensions: \($0)\r\n" } ?? "") + "\r\n").utf8)
    }

    /// An HTTP error answer with `reason` as its body; the connection is closed after it.
    static func errorAnswer(status: Int, reason: String, extraHeader: String? = nil) -> [UInt8] {
        let phrases = [400: "Bad Request", 405: "Method Not Allowed", 426: "Upgrade Required",
                       431: "Request Header Fields Too Large", 505: "HTTP Version Not Supported"]
        let body = "syncsim serve: \(reason)\n"
        var head = "HTTP/1.1 \(status) \(phrases[status] ?? "Bad Request")\r\n"
            + "Content-Type: text/plain; charset=utf-8\r\n"
        if let extraHeader { head += extraHeader + "\r\n" }
        head += "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
        return Array((head + body).utf8)
    }
}
