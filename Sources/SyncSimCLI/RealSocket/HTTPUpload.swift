#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An upload to `syncsim serve`'s CDN end, read from the start of a connection: an HTTP/1.1
/// `POST /upload?photoIds=<photoId>` (or `fileIds=`, `videoIds=`) whose body has a `Content-Length` (RFC 9112 §6.3).
///
/// PHOTO_UPLOAD answers a `url` on the server's own address (`ServerKnobs.cdnURL`); PyMax 2.5.0 posts the photo
/// there as multipart form data and reads `{"photos": {"<photoId>": {"token": "..."}}}` back
/// (`pymax/api/uploads/service.py`, `upload_photo`; `pymax/api/uploads/models.py`, `PhotoUploadResponse`).
/// FILE_UPLOAD and VIDEO_UPLOAD answer `url`s with `fileIds` or `videoIds` **(SyncSim's URL shape: the client only
/// POSTs to it)**; PyMax posts the raw bytes with `Content-Disposition: attachment; filename=<percent-encoded name>`
/// (`upload_file`, `upload_video`, `upload_voice`), checks for status 200 and, for a video note, reads a JSON map.
/// python-max-client 1.0.2 (`functions/uploads.py`, `_upload`) posts every kind as `multipart/form-data` with one
/// part, `file`, whose `Content-Disposition` names the file (RFC 7578). The upload is the body's bytes, or of a
/// multipart body the first part's (its head within the body's first 16 KiB, its end at the closing delimiter), with
/// the file's name; serve keeps them for downloads (`HTTPDownload`). A chunked body is refused (411): the client is
/// asked to say its length.
struct HTTPUpload {
    /// What the request target names.
    enum Target: Equatable {
        /// A photo, by the id PHOTO_UPLOAD gave (`photoIds` or `photos`).
        case photo(Int64)
        /// A file's, video's or voice message's slot, by the id FILE_UPLOAD or VIDEO_UPLOAD gave (`fileIds`,
        /// `videoIds`).
        case media(Int64)
    }

    /// A finished upload: what the request target names, the bytes uploaded and the name `Content-Disposition`
    /// gave (percent-decoded), if any.
    struct Received: Equatable {
        var target: Target
        var bytes: [UInt8]
        var fileName: String?

        /// The upload's size in bytes.
        var sizeBytes: Int { bytes.count }
    }

    /// A request head longer than this is refused (431).
    static let maxHeadBytes = 16 * 1024
    /// A body longer than this is refused (413): 64 MiB, beyond any photo a client sends.
    static let maxBodyBytes = 64 * 1024 * 1024

    private var head: [UInt8] = []
    /// Once the head was read: the target, the body's announced length, the file name and a multipart body's
    /// boundary.
    private var announced: Head?
    private var body: [UInt8] = []

    private struct Head {
        var target: Target
        var contentLength: Int
        var fileName: String?
        var boundary: [UInt8]?
    }

    /// Takes bytes read from the socket.
    /// - Returns: the upload once its whole body came, else nil.
    /// - Throws: `ConnectionTransport.Failure` naming what is wrong, with the HTTP error answer to write.
    mutating func receive(_ bytes: [UInt8]) throws(ConnectionTransport.Failure) -> Received? {
        var rest = bytes[...]
        if announced == nil {
            head += rest
            rest = []
            guard let bounds = Self.headBounds(in: head) else {
                if head.count > Self.maxHeadBytes { throw Self.failure(431, "the request head exceeds 16 KiB") }
                return nil
            }
            rest = head[bounds.bodyStart...]
            announced = try Self.parseHead(Array(head[..<bounds.end]))
            head = []
        }
        guard let announced else { return nil }
        if body.count + rest.count > announced.contentLength {
            throw Self.failure(400, "the body is longer than its Content-Length, \(announced.contentLength)")
        }
        body += rest
        guard body.count == announced.contentLength else { return nil }
        guard let boundary = announced.boundary else {
            return Received(target: announced.target, bytes: body, fileName: announced.fileName)
        }
        let part = try Self.firstPart(of: body, boundary: boundary)
        return Received(target: announced.target, bytes: Array(body[part.bytes]),
                        fileName: part.fileName ?? announced.fileName)
    }

    /// A multipart body's first part (RFC 7578; RFC 2046 §5.1.1): where its bytes lie, from the end of its head to the
    /// body's last delimiter (`CRLF--boundary`; a client sends one part, so that delimiter closes it), and the file
    /// name its `Content-Disposition` gives.
    /// - Throws: `ConnectionTransport.Failure` (400) when the body does not open with the boundary, the part's head
    ///   does not end within 16 KiB, or no delimiter closes the part.
    private static func firstPart(of body: [UInt8], boundary: [UInt8])
        throws(ConnectionTransport.Failure) -> (bytes: Range<Int>, fileName: String?) {
        let prefix = body.prefix(maxHeadBytes)
        let opening = Array("--".utf8) + boundary
        guard let start = firstIndex(of: opening, in: prefix) else {
            throw failure(400, "the multipart body does not open with its boundary")
        }
        guard let headEnd = firstIndex(of: [13, 10, 13, 10], in: prefix[(start + opening.count)...]) else {
            throw failure(400, "the multipart body's first part has no head ending within 16 KiB")
        }
        let partHead = String(decoding: prefix[(start + opening.count)..<headEnd], as: UTF8.self)
        var fileName: String?
        for line in partHead.split(separator: "\r\n") {
            guard let colon = line.firstIndex(of: ":"),
                  line[..<colon].lowercased() == "content-disposition" else { continue }
            fileName = Self.fileName(inDisposition: line[line.index(after: colon)...].trimmingWhitespace)
        }
        let delimiter = [13, 10] + opening
        let dataStart = headEnd + 4
        // The part ends at the first delimiter after its head (RFC 2046 §5.1.1: the boundary occurs in no part). That
        // delimiter must be the closing one, `CRLF--boundary--`: an upload slot takes one upload, and before session 39
        // a second part was stored inside the first (its head and bytes taken for the file's).
        guard let closing = Self.firstIndex(of: delimiter, in: body, from: dataStart) else {
            throw failure(400, "no closing delimiter ends the multipart body's first part")
        }
        let after = closing + delimiter.count
        guard body.count >= after + 2, body[after] == UInt8(ascii: "-"), body[after + 1] == UInt8(ascii: "-") else {
            throw failure(400, "the multipart body holds more than one part (a second begins at body byte "
                + "\(closing + 2)); an upload takes one file: send one part, or one upload per file")
        }
        return (dataStart..<closing, fileName)
    }

    /// The first index of `needle` in `haystack` at or after `start` (memchr for its first byte, then memcmp: a body may
    /// hold 64 MiB).
    private static func firstIndex(of needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard start >= 0, haystack.count - start >= needle.count, let first = needle.first else { return nil }
        return haystack.withUnsafeBytes { hay in
            needle.withUnsafeBytes { pin -> Int? in
                guard let base = hay.baseAddress, let pinBase = pin.baseAddress else { return nil }
                let last = hay.count - pin.count
                var from = start
                while from <= last, let found = memchr(base + from, Int32(first), last - from + 1) {
                    let index = base.distance(to: UnsafeRawPointer(found))
                    if memcmp(base + index, pinBase, pin.count) == 0 { return index }
                    from = index + 1
                }
                return nil
            }
        }
    }

    private static func firstIndex(of needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for index in haystack.startIndex...(haystack.endIndex - needle.count)
        where haystack[index..<(index + needle.count)].elementsEqual(needle) {
            return index
        }
        return nil
    }

    /// The answer to a finished file, video or voice upload: 200 with `{"id": <id>}`, or 404 when no FILE_UPLOAD or
    /// VIDEO_UPLOAD handed out slot `id`.
    static func answer(mediaId id: Int64, stored: Bool) -> [UInt8] {
        guard stored else {
            return response(404, "Not Found", json: "{\"error\":\"no upload was asked for slot \(id)\"}")
        }
        return response(200, "OK", json: "{\"id\":\(id)}")
    }

    /// The answer to an upload to a slot (`slot`: `photo 3`, `slot 5`) that already holds an earlier upload's bytes:
    /// 409 Conflict. The first upload stays: a message sent with the slot serves its bytes.
    static func answerAlreadyUploaded(slot: String) -> [UInt8] {
        response(409, "Conflict",
                 json: "{\"error\":\"\(slot) was uploaded to before; an upload slot takes one upload\"}")
    }

    /// The answer to a finished upload: 200 with the token PyMax reads, or 404 when no PHOTO_UPLOAD asked for
    /// `photoId` (or the CDN refused it).
    static func answer(photoId: Int64, token: String?) -> [UInt8] {
        guard let token else {
            return response(404, "Not Found", json: "{\"error\":\"no upload was asked for photo \(photoId)\"}")
        }
        return response(200, "OK", json: "{\"photos\":{\"\(photoId)\":{\"token\":\"\(token)\"}}}")
    }

    /// Where a request head ends: the index of its blank line's `\r\n\r\n`, or nil while it has not come.
    static func headEnd(in bytes: [UInt8]) -> Int? { firstIndex(of: [13, 10, 13, 10], in: bytes[...]) }

    /// Where a request head ends, its lines ended by CRLF or by a bare LF (RFC 9112 §2.2: a recipient may take a bare
    /// LF as a line's end, and ignore the CR before it): `end`, the index where the head's last line ends (before its
    /// line end), and `bodyStart`, just past the blank line; `bareLF` when a line of the head ends in a LF alone. Nil
    /// while the blank line has not come. Before session 39 serve waited for `\r\n\r\n` alone, so a request whose
    /// lines ended in LF was never answered.
    static func headBounds(in bytes: [UInt8]) -> (end: Int, bodyStart: Int, bareLF: Bool)? {
        var bareLF = false
        var index = 0
        while index < bytes.count {
            guard bytes[index] == 10 else {
                index += 1
                continue
            }
            if index == 0 || bytes[index - 1] != 13 { bareLF = true }
            let end = index > 0 && bytes[index - 1] == 13 ? index - 1 : index
            if index + 1 < bytes.count, bytes[index + 1] == 10 {
                return (end, index + 2, true)
            }
            if index + 2 < bytes.count, bytes[index + 1] == 13, bytes[index + 2] == 10 {
                return (end, index + 3, bareLF)
            }
            index += 1
        }
        return nil
    }

    /// A request head's lines, each without its CRLF or bare LF (`headBounds(in:)`).
    static func lines(ofHead text: String) -> [Substring] {
        text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            Substring(line.last == "\r" ? line.dropLast() : line)
        }
    }

    private static func parseHead(_ bytes: [UInt8]) throws(ConnectionTransport.Failure) -> Head {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw failure(400, "the request head is not UTF-8 text")
        }
        let lines = Self.lines(ofHead: text)
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
        let named = query.compactMap { pair -> Target? in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, let id = Int64(parts[1]) else { return nil }
            switch parts[0] {
            case "photos", "photoIds": return .photo(id)
            case "fileIds", "videoIds": return .media(id)
            default: return nil
            }
        }
        guard let uploadTarget = named.first else {
            throw failure(400, "target '\(target.prefix(80))' names no upload id (query 'photoIds=<id>', 'fileIds=<id>' "
                               + "or 'videoIds=<id>')")
        }
        var contentLength: Int?
        var fileName: String?
        var boundary: [UInt8]?
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
            if name == "content-disposition" { fileName = Self.fileName(inDisposition: value) }
            if name == "content-type", value.lowercased().hasPrefix("multipart/") {
                boundary = try Self.boundary(inContentType: value)
            }
        }
        guard let contentLength else { throw failure(411, "the request has no Content-Length") }
        guard contentLength <= maxBodyBytes else {
            throw failure(413, "Content-Length \(contentLength) exceeds \(maxBodyBytes) bytes")
        }
        return Head(target: uploadTarget, contentLength: contentLength, fileName: fileName, boundary: boundary)
    }

    /// The `boundary` parameter of a multipart `Content-Type` (RFC 2046 §5.1.1: 1 to 70 characters, quoted or not).
    /// - Throws: `ConnectionTransport.Failure` (400) when it is missing or longer than 70 bytes.
    private static func boundary(inContentType value: Substring) throws(ConnectionTransport.Failure) -> [UInt8] {
        for parameter in value.split(separator: ";").dropFirst() {
            let parts = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0].trimmingWhitespace.lowercased() == "boundary" else { continue }
            var raw = Substring(parts[1].trimmingWhitespace)
            if raw.count >= 2, raw.hasPrefix("\""), raw.hasSuffix("\"") { raw = raw.dropFirst().dropLast() }
            guard (1...70).contains(raw.utf8.count) else {
                throw failure(400, "multipart boundary '\(raw.prefix(80))' is not 1 to 70 characters")
            }
            return Array(raw.utf8)
        }
        throw failure(400, "Content-Type '\(value.prefix(80))' names no boundary")
    }

    /// The `filename` parameter of a `Content-Disposition` value (RFC 6266 §4.1), quoted or not, percent-decoded
    /// (PyMax quotes the name with `urllib.parse.quote`); nil without one or when it does not decode to UTF-8.
    static func fileName(inDisposition value: Substring) -> String? {
        for parameter in value.split(separator: ";").dropFirst() {
            let parts = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0].trimmingWhitespace.lowercased() == "filename" else { continue }
            var raw = Substring(parts[1].trimmingWhitespace)
            if raw.count >= 2, raw.hasPrefix("\""), raw.hasSuffix("\"") { raw = raw.dropFirst().dropLast() }
            var bytes: [UInt8] = []
            var utf8 = raw.utf8[...]
            while let byte = utf8.popFirst() {
                if byte == UInt8(ascii: "%"), utf8.count >= 2,
                   let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) {
                    bytes.append(value)
                    utf8 = utf8.dropFirst(2)
                } else {
                    bytes.append(byte)
                }
            }
            return String(validating: bytes, as: UTF8.self)
        }
        return nil
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
