import SyncSim
import Testing
@testable import SyncSimCLI

/// `syncsim serve`'s CDN end: a photo upload's HTTP POST, read in pieces, and every way one is refused.
@Suite struct HTTPUploadTests {
    static func request(target: String = "/upload?photoIds=7", method: String = "POST",
                        headers: String = "Content-Length: 10\r\n", body: String = "0123456789") -> [UInt8] {
        Array("\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:9\r\n\(headers)\r\n\(body)".utf8)
    }

    /// The default request's body.
    static let digits = Array("0123456789".utf8)

    /// A multipart body with one part, `file`, as aiohttp's `FormData` writes it (python-max-client 1.0.2 `_upload`;
    /// PyMax 2.5.0's photo).
    static func multipart(boundary: String = "b0undary", fileName: String = "%D0%BE%D1%82%D1%87%D1%91%D1%82.pdf",
                          data: String = "0123456789") -> (headers: String, body: String) {
        let body = "--\(boundary)\r\nContent-Type: application/octet-stream\r\n"
            + "Content-Disposition: form-data; name=\"file\"; filename=\"\(fileName)\"\r\n\r\n"
            + "\(data)\r\n--\(boundary)--\r\n"
        return ("Content-Type: multipart/form-data; boundary=\(boundary)\r\nContent-Length: \(body.utf8.count)\r\n", body)
    }

    @Test("an upload read a byte at a time ends with its body; the answer carries the token as PyMax reads it")
    func inPieces() throws {
        var upload = HTTPUpload()
        let form = Self.multipart(fileName: "image.jpg")
        let bytes = Self.request(headers: form.headers, body: form.body)
        var received: [HTTPUpload.Received] = []
        for byte in bytes {
            if let done = try upload.receive([byte]) { received.append(done) }
        }
        #expect(received == [HTTPUpload.Received(target: .photo(7), bytes: Self.digits, fileName: "image.jpg")])
        let answer = String(decoding: HTTPUpload.answer(photoId: 7, token: "photo-7"), as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(answer.hasSuffix("\r\n\r\n{\"photos\":{\"7\":{\"token\":\"photo-7\"}}}"))
        #expect(String(decoding: HTTPUpload.answer(photoId: 8, token: nil), as: UTF8.self)
            .hasPrefix("HTTP/1.1 404 Not Found\r\n"))
    }

    @Test("a multipart upload (python-max-client 1.0.2) stores its part's size and name, also when the body is large")
    func multipartUpload() throws {
        let data = String(repeating: "x", count: 100_000)
        let form = Self.multipart(boundary: "----WebKitFormBoundaryA1", data: data)
        let bytes = Self.request(target: "/upload?fileIds=3", headers: form.headers, body: form.body)
        var upload = HTTPUpload()
        var received: [HTTPUpload.Received] = []
        for start in stride(from: 0, to: bytes.count, by: 1_000) {
            if let done = try upload.receive(Array(bytes[start..<min(start + 1_000, bytes.count)])) { received.append(done) }
        }
        #expect(received == [HTTPUpload.Received(target: .media(3), bytes: Array(data.utf8), fileName: "отчёт.pdf")])
        var quoted = HTTPUpload()
        let quotedForm = Self.multipart(boundary: "q", data: "")
        #expect(try quoted.receive(Self.request(
            target: "/upload?videoIds=4",
            headers: "Content-Type: multipart/form-data; boundary=\"q\"\r\nContent-Length: \(quotedForm.body.utf8.count)\r\n",
            body: quotedForm.body)) == HTTPUpload.Received(target: .media(4), bytes: [], fileName: "отчёт.pdf"))
    }

    @Test("PyMax 2.5.0's other query key, `photos`, names the photo too")
    func photosKey() throws {
        var upload = HTTPUpload()
        #expect(try upload.receive(Self.request(target: "/upload?x=1&photos=12")) ==
            HTTPUpload.Received(target: .photo(12), bytes: Self.digits))
    }

    @Test("a file's or video's POST (PyMax 2.5.0 upload_file, upload_video) names its slot; the file name is kept")
    func mediaUpload() throws {
        var upload = HTTPUpload()
        let disposition = "Content-Disposition: attachment; filename=%D0%BE%D1%82%D1%87%D1%91%D1%82%201.pdf\r\n"
        #expect(try upload.receive(Self.request(target: "/upload?fileIds=3", headers: disposition
                                                + "Content-Length: 10\r\nContent-Range: 0-9/10\r\n"))
            == HTTPUpload.Received(target: .media(3), bytes: Self.digits, fileName: "отчёт 1.pdf"))
        var video = HTTPUpload()
        #expect(try video.receive(Self.request(target: "/upload?videoIds=4")) ==
            HTTPUpload.Received(target: .media(4), bytes: Self.digits))
        #expect(HTTPUpload.fileName(inDisposition: "attachment; filename=\"a b.txt\"") == "a b.txt")
        #expect(HTTPUpload.fileName(inDisposition: "attachment") == nil)
        #expect(HTTPUpload.fileName(inDisposition: "attachment; filename=%FF") == nil)
        let answer = String(decoding: HTTPUpload.answer(mediaId: 3, stored: true), as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\n") && answer.hasSuffix("{\"id\":3}"))
        #expect(String(decoding: HTTPUpload.answer(mediaId: 9, stored: false), as: UTF8.self)
            .hasPrefix("HTTP/1.1 404 Not Found\r\n"))
    }

    @Test("a GET of /file/<id>, /video/<id> or /photo/<id> is a download; any other GET a WebSocket handshake")
    func downloads() throws {
        #expect(HTTPDownload(target: "/file/3") == HTTPDownload(kind: .file, id: 3))
        #expect(HTTPDownload(target: "/video/12?x=1") == HTTPDownload(kind: .video, id: 12))
        #expect(HTTPDownload(target: "/photo/1") == HTTPDownload(kind: .photo, id: 1))
        for other in ["/websocket", "/file/", "/file/x", "/file/3/4", "/audio/3", "file/3"] {
            #expect(HTTPDownload(target: Substring(other)) == nil)
        }
        // Read in pieces: nothing until the head is complete, then the download.
        var transport = ConnectionTransport.undecided
        let request = Array("GET /video/12 HTTP/1.1\r\nHost: 127.0.0.1:9\r\n\r\n".utf8)
        let encoder = FrameEncoder()
        let first = try transport.unwrap(Array(request[..<10]), encoder: encoder)
        #expect(first.download == nil && first.writes.isEmpty)
        let rest = try transport.unwrap(Array(request[10...]), encoder: encoder)
        #expect(rest.download == HTTPDownload(kind: .video, id: 12))
        // The answer: the bytes, the kind's type, a file's name percent-encoded in X-File-Name; 404 without bytes.
        let answer = String(decoding: HTTPDownload.answer(kind: .file, id: 3, bytes: Self.digits,
                                                          fileName: "отчёт 1.pdf"), as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: 10\r\n"))
        #expect(answer.contains("\r\nX-File-Name: %D0%BE%D1%82%D1%87%D1%91%D1%82%201.pdf\r\n"))
        #expect(answer.hasSuffix("\r\n\r\n0123456789"))
        let video = String(decoding: HTTPDownload.answer(kind: .video, id: 4, bytes: [1], fileName: nil), as: UTF8.self)
        #expect(video.contains("Content-Type: video/mp4\r\n") && !video.contains("X-File-Name"))
        #expect(String(decoding: HTTPDownload.answer(kind: .photo, id: 5, bytes: nil, fileName: nil), as: UTF8.self)
            .hasPrefix("HTTP/1.1 404 Not Found\r\n"))
    }

    @Test("a WebSocket handshake read in pieces still upgrades (the GET is buffered until its head is complete)")
    func handshakeInPieces() throws {
        var transport = ConnectionTransport.undecided
        let request = Array(("GET /websocket HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n").utf8)
        var upgraded: String?
        var writes: [[UInt8]] = []
        for byte in request {
            let unwrapped = try transport.unwrap([byte], encoder: FrameEncoder())
            upgraded = upgraded ?? unwrapped.upgradedPath
            writes += unwrapped.writes
        }
        #expect(upgraded == "/websocket" && transport.isWebSocket)
        #expect(writes.count == 1 && String(decoding: writes[0], as: UTF8.self).hasPrefix("HTTP/1.1 101 "))
    }

    /// Mutations of well-formed uploads, downloads and handshakes, fed in random pieces: each connection's bytes end
    /// in an upload no longer than its body, a download of a route that parses, a WebSocket, nothing yet, or a
    /// refusal with an HTTP answer; never a crash or a trap (run under `make test-asan` for memory errors).
    @Test("mutated HTTP requests, read in random pieces, end in an answer or a refusal, never a crash")
    func mutatedRequests() {
        var generator = SeededGenerator(seed: 31)
        let form = Self.multipart(data: String(repeating: "z", count: 300))
        let seeds: [[UInt8]] = [
            Self.request(target: "/upload?fileIds=3", headers: form.headers, body: form.body),
            Self.request(),
            Self.request(target: "/upload?videoIds=4", headers: "Content-Disposition: attachment; filename=%41.mp4\r\n"
                                                      + "Content-Length: 10\r\n"),
            Array("GET /file/3 HTTP/1.1\r\nHost: x\r\n\r\n".utf8),
            Array(("GET /websocket HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n").utf8),
        ]
        let interesting = Array("\r\n-=;:\" %0123456789GETPOST/boundary".utf8)
        var outcomes = [0, 0, 0, 0, 0]
        for round in 0..<3_000 {
            var bytes = seeds[round % seeds.count]
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let index = Int.random(in: 0..<max(1, bytes.count), using: &generator)
                switch Int.random(in: 0..<4, using: &generator) {
                case 0 where !bytes.isEmpty: bytes[index] = interesting.randomElement(using: &generator)!
                case 1 where !bytes.isEmpty: bytes.remove(at: index)
                case 2: bytes.insert(interesting.randomElement(using: &generator)!, at: min(index, bytes.count))
                default: bytes = Array(bytes.prefix(index))
                }
            }
            var transport = ConnectionTransport.undecided
            var start = 0
            do {
                while start < bytes.count {
                    let end = min(bytes.count, start + Int.random(in: 1...64, using: &generator))
                    let unwrapped = try transport.unwrap(Array(bytes[start..<end]), encoder: FrameEncoder())
                    start = end
                    if let upload = unwrapped.upload {
                        #expect(upload.sizeBytes <= bytes.count)
                        outcomes[0] += 1
                        break
                    }
                    if let download = unwrapped.download {
                        #expect(HTTPDownload(target: Substring("/\(download.kind.rawValue)/\(download.id)")) == download)
                        outcomes[1] += 1
                        break
                    }
                }
                outcomes[transport.isWebSocket ? 2 : 3] += 1
            } catch {
                outcomes[4] += 1
            }
        }
        // Every kind of ending happened.
        #expect(outcomes.allSatisfy { $0 > 0 }, "\(outcomes)")
    }

    @Test("a bad upload is refused with its status and the reason, in the answer too", arguments: [
        (request(method: "PUT"), "405", "method 'PUT' is not POST"),
        (request(target: "/avatar?photoIds=7"), "404", "path '/avatar' is not /upload"),
        (request(target: "/upload?photoIds=seven"), "400", "names no upload id"),
        (request(headers: "Transfer-Encoding: chunked\r\n"), "411", "send the body with a Content-Length"),
        (request(headers: ""), "411", "the request has no Content-Length"),
        (request(headers: "Content-Length: -1\r\n"), "400", "Content-Length '-1' is not a byte count"),
        (request(headers: "Content-Length: 99999999999\r\n"), "413", "exceeds"),
        (request(headers: "Content-Length: 4\r\n"), "400", "longer than its Content-Length, 4"),
        (request(headers: "Content-Length 4\r\n"), "400", "header line 'Content-Length 4' has no colon"),
        (Array("POST /upload\r\n\r\n".utf8), "400", "is not 'POST PATH HTTP/1.1'"),
        (Array(repeating: UInt8(ascii: "P"), count: 20_000), "431", "the request head exceeds 16 KiB"),
        (request(headers: "Content-Type: multipart/form-data; boundary=x\r\nContent-Length: 10\r\n"), "400",
         "the multipart body does not open with its boundary"),
        (request(headers: "Content-Type: multipart/form-data\r\nContent-Length: 10\r\n"), "400", "names no boundary"),
        (request(headers: "Content-Type: multipart/form-data; boundary=x\r\nContent-Length: 17\r\n",
                 body: "--x\r\n\r\n0123456789"), "400", "no closing delimiter ends"),
        (request(headers: "Content-Type: multipart/form-data; boundary=x\r\nContent-Length: 15\r\n",
                 body: "--x\r\n0123456789"), "400", "has no head ending within 16 KiB"),
    ])
    func refused(request: [UInt8], status: String, reason: String) {
        var upload = HTTPUpload()
        #expect {
            _ = try upload.receive(request)
        } throws: { error in
            guard let failure = error as? ConnectionTransport.Failure else { return false }
            let answer = String(decoding: failure.answer, as: UTF8.self)
            return failure.description.contains(reason) && answer.hasPrefix("HTTP/1.1 \(status) ")
                && answer.contains(reason)
        }
    }

    @Test("a connection whose first byte is P is an upload: no frame bytes, the upload once its body came")
    func transport() throws {
        var transport = ConnectionTransport.undecided
        let bytes = Self.request()
        let head = try transport.unwrap(Array(bytes.prefix(30)), encoder: FrameEncoder())
        #expect(head.frameBytes.isEmpty && head.upload == nil)
        let rest = try transport.unwrap(Array(bytes.dropFirst(30)), encoder: FrameEncoder())
        #expect(rest.frameBytes.isEmpty && rest.upload == HTTPUpload.Received(target: .photo(7), bytes: Self.digits))
    }
}
