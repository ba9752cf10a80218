/// A download from `syncsim serve`'s CDN end: an HTTP/1.1 `GET /file/<id>`, `GET /video/<id>` or `GET /photo/<id>`,
/// the addresses FILE_DOWNLOAD, VIDEO_PLAY and a photo's `baseUrl` give (`ServerKnobs.cdnURL`). MaxBridge 1.8.0
/// fetches them (`MaxBridge/max_api.py`: `get_file` takes the name from `X-File-Name`, `get_video` keeps the bytes
/// only when `Content-Type` names video).
///
/// The answer is what was uploaded under that id (serve keeps uploads' bytes), `200` with `Content-Type`
/// `video/mp4` for a video, `image/jpeg` for a photo and `application/octet-stream` for a file, a file's name in
/// `X-File-Name` (percent-encoded UTF-8, SyncSim's choice: a header carries ASCII; an ASCII name reads as is) and in
/// `Content-Disposition` (`filename*`, RFC 6266 §4.3); or `404` when nothing was uploaded under the id.
struct HTTPDownload: Equatable {
    /// What a download names.
    enum Kind: String, Equatable {
        case file, video, photo
    }

    var kind: Kind
    var id: Int64
    /// A `HEAD` request: the answer's head alone, with the `Content-Length` the `GET` would have (RFC 9110 §9.3.2).
    /// Before session 39 a `HEAD` was taken for the field's binary frames and closed without a word.
    var headOnly = false

    /// The download of `kind` `id`.
    init(kind: Kind, id: Int64, headOnly: Bool = false) {
        self.kind = kind
        self.id = id
        self.headOnly = headOnly
    }

    /// The download a request target names (`/video/12`, a query ignored), or nil when it names none.
    init?(target: Substring) {
        let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].isEmpty, let kind = Kind(rawValue: String(parts[1])),
              let id = Int64(parts[2]) else { return nil }
        self.kind = kind
        self.id = id
    }

    /// The request target of a request head's first line (`GET /file/3 HTTP/1.1`), nil when the line is not a GET.
    static func target(inRequestHead head: [UInt8]) -> Substring? {
        guard let (method, target) = request(inHead: head), method == "GET" else { return nil }
        return target
    }

    /// The method and target of a request head's first line (`HEAD /file/3 HTTP/1.1`), nil when it is no such line.
    static func request(inHead head: [UInt8]) -> (method: Substring, target: Substring)? {
        let line = head.prefix { $0 != 13 && $0 != 10 }
        let words = String(decoding: line, as: UTF8.self).split(separator: " ", omittingEmptySubsequences: false)
        guard words.count == 3 else { return nil }
        return (words[0], words[1])
    }

    /// The download a request head asks for (`GET` or `HEAD` of a download's address), nil for any other request.
    init?(requestHead head: [UInt8]) {
        guard let (method, target) = Self.request(inHead: head), method == "GET" || method == "HEAD",
              let download = HTTPDownload(target: target) else { return nil }
        self = download
        headOnly = method == "HEAD"
    }

    /// The answer: `bytes` with the kind's `Content-Type` and, for a named file, its name; `404` when `bytes` is nil.
    /// With `headOnly` (a `HEAD`), the same head without the body.
    static func answer(kind: Kind, id: Int64, bytes: [UInt8]?, fileName: String?, headOnly: Bool = false) -> [UInt8] {
        guard let bytes else {
            let body = Array("{\"error\":\"nothing was uploaded as \(kind.rawValue) \(id)\"}".utf8)
            return Array(("HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Length: \(body.count)"
                + "\r\nConnection: close\r\n\r\n").utf8) + (headOnly ? [] : body)
        }
        let contentType = switch kind {
        case .file: "application/octet-stream"
        case .video: "video/mp4"
        case .photo: "image/jpeg"
        }
        var head = "HTTP/1.1 200 OK\r\nContent-Type: \(contentType)\r\nContent-Length: \(bytes.count)\r\n"
        if let fileName {
            let encoded = percentEncoded(fileName)
            head += "X-File-Name: \(encoded)\r\nContent-Disposition: attachment; filename*=UTF-8''\(encoded)\r\n"
        }
        return Array((head + "Connection: close\r\n\r\n").utf8) + (headOnly ? [] : bytes)
    }

    /// `text` with every byte outside RFC 3986's unreserved set written `%XX`.
    static func percentEncoded(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                encoded += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return encoded
    }
}
