/// A photo upload to `syncsim serve`'s CDN end, read from the start of a connection: an HTTP/1.1
/// `POST /upload?photoIds=<photoId>` whose body has a `Content-Length` (RFC 9112 §6.3).
///
/// PHOTO_UPLOAD answers a `url` on the server's own address (`ServerKnobs.cdnURL`); PyMax 2.5.0 posts the photo
/// there as multipart form data and reads `{"photos": {"<photoId>": {"token": "..."}}}` back
/// (`pymax/api/uploads/service.py`, `upload_photo`; `pymax/api/uploads/models.py`, `PhotoUploadResponse`). The body is
/// not parsed: its size is what the CDN model stores. A chunked body is refused (411): the client is asked to say
/// its length.
struct HTTPUpload {
    /// A finished upload: the photo id from the request target and the body's size.
    struct Received: Equatable {
        var photoId: Int64
        var sizeBytes: Int
    }

    /// A request head longer than this is refused (431).
    static let maxHeadBytes = 16 * 1024
    /// A body longer than this is refused (413): 64 MiB, beyond any photo a client sends.
    static let maxBodyBytes = 64 * 1024 * 1024

    private var head: [UInt8] = []
    /// Once the head was read: the photo id and the body's announced length.
    private var announced: (photoId: Int64, contentLength: Int)?
    private var bodyBytes = 0

    /// Takes bytes read from the socket.
    /// - Returns: the upload once its whole body came, else nil.
    /// - Throws: `ConnectionTransport.Failure` naming what is wrong, with the HTTP error answer to write.
    mutating func receive(_ bytes: [UInt8]) throws(ConnectionTransport.Failure) -> Received? {
        var rest = bytes[...]
        if announced == nil {
            head += rest
            rest = []
            guard let end = Self.headEnd(in: head) else {
                if head.count > Self.maxHeadBytes { throw Self.failure(431, "the request head exceeds 16 KiB") }
                return nil
            }
            rest = head[(end + 4)...]
            announced = try Self.parseHead(Array(head[..<end]))
            head = []
        }
        guard let announced else { return nil }
        bodyBytes += rest.count
        if bodyBytes > announced.contentLength {
            throw Self.failure(400, "the body is longer than its Content-Length, \(announced.contentLength)")
        }
        return bodyBytes == announced.contentLength
            ? Received(photoId: announced.photoId, sizeBytes: bodyBytes) : nil
    }

    /// The answer to a finished upload: 200 with the token PyMax reads, or 404 when no PHOTO_UPLOAD asked for
    /// `photoId` (or the CDN refused it).
    static func answer(photoId: Int64, token: String?) -> [UInt8] {
        guard let token else {
            return response(404, "Not Found", json: "{\"error\":\"no upload was asked for photo \(photoId)\"}")
        }
        return response(200, "OK", json: "{\"photos\":{\"\(photoId)\":{\"token\":\"\(token)\"}}}")
    }

    private static func headEnd(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }

    private static func parseHead(_ bytes: [UInt8]) throws(ConnectionTransport.Failure)
        -> (photoId: Int64, contentLength: Int) {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw failure(400, "the request head is not UTF-8 text")
        }
        let lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)
        let requestLine = lines[0].split(separator: " ", omittingEmptySubsequences: false)
        guard requestLine.count == 3, requestLine[2].hasPrefix("HTTP/1.") else {
            throw failure(400, "request line '\(lines[0].prefix(80))' is not 'POST PATH HTTP/1.1'")
        }
        guard requestLine[0] == "POST" else {
            throw failure(405, "method '\(requestLine[0].prefix(20))' is not POST (only GET /websocket and POST /upload)")
        }
        let target = requestLine[1]
        let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard path[0] == "/upload" else {
            throw failure(404, "path '\(path[0].prefix(80))' is not /upload")
        }
        let query = path.count > 1 ? path[1].split(separator: "&") : []
        let photoIds = query.compactMap { pair -> Substring? in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return parts.count == 2 && (parts[0] == "photos" || parts[0] == "photoIds") ? parts[1] : nil
        }
        guard let first = photoIds.first, let photoId = Int64(first) else {
            throw failure(400, "target '\(target.prefix(80))' names no photo id (query 'photoIds=<id>')")
        }
        var contentLength: Int?
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else {
                throw failure(400, "header line '\(line.prefix(80))' has no colon")
            }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingWhitespace
            if name == "transfer-encoding" {
                throw failure(411, "Transfer-Encoding '\(value.prefix(40))': send the body with a Content-Length")
            }
            if name == "content-length" {
                guard let length = Int(value), length >= 0 else {
                    throw failure(400, "Content-Length '\(value.prefix(40))' is not a byte count")
                }
                contentLength = length
            }
        }
        guard let contentLength else { throw failure(411, "the request has no Content-Length") }
        guard contentLength <= maxBodyBytes else {
            throw failure(413, "Content-Length \(contentLength) exceeds \(maxBodyBytes) bytes")
        }
        return (photoId, contentLength)
    }

    private static let reasons = [400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed",
                                  411: "Length Required", 413: "Content Too Large",
                                  431: "Request Header Fields Too Large"]

    private static func failure(_ status: Int, _ description: String) -> ConnectionTransport.Failure {
        let escaped = description.unicodeScalars.map { scalar -> String in
            switch scalar {
            case "\"", "\\": "\\" + String(scalar)
            case _ where scalar.value < 0x20: " "
            default: String(scalar)
            }
        }.joined()
        return ConnectionTransport.Failure(description: "HTTP upload: \(description)",
                                           answer: response(status, reasons[status]!, json: "{\"error\":\"\(escaped)\"}"))
    }

    private static func response(_ status: Int, _ reason: String, json: String) -> [UInt8] {
        let body = Array(json.utf8)
        return Array(("HTTP/1.1 \(status) \(reason)\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n").utf8) + body
    }
}
