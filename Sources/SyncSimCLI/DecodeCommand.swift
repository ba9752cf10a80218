import Foundation
import SyncSim
import SyncTrace

/// `syncsim decode FILE`: prints each frame of a raw byte stream, or of a pcap/pcapng capture, as one JSON line.
///
/// The raw-stream path is `printFrames(ofRawStream:...)`; captures (told by their magic number) go through
/// `TraceDecodeCommand.decodeCapture`, which reassembles TCP first and reuses `jsonLine(for:)`.
enum DecodeCommand {
    static let spec = CommandSpec(
        name: "decode",
        summary: "print the frames of a raw byte stream or a pcap/pcapng capture as JSON lines",
        help: """
            usage: syncsim decode FILE [--layout cmd8-seq16|cmd16-seq8] [--max-payload-bytes N]
                                  [--port N]... [--summary] [--keep-truncated] [--tls-keylog FILE]
                                  (--port, --summary, --keep-truncated, --tls-keylog: captures only)

            Reads FILE, one direction of a connection with frames back to back (10-byte header + payload), and
            prints one JSON line per frame:
              {"frame":1,"offset":0,"ver":10,"cmd":1,"cmdName":"response","seq":7,"opcode":19,"opcodeName":"LOGIN",
               "compressed":false,"wirePayloadBytes":96,"payloadBytes":96,"payload":{...}}
            offset is the frame's first byte in FILE; wirePayloadBytes the payload as sent (LZ4 block when
            compressed), payloadBytes after decompression. The payload is written as JSON keeping map order;
            binary values are base64 strings (RFC 4648), timestamps {"timestamp":{"seconds":S,"nanoseconds":N}},
            other ext values {"ext":TYPE,"base64":"..."}; the field's wrapped ids and times (ext 1 holding one
            MessagePack value) add what they wrap: {"ext":1,"wrapped":VALUE,"base64":"..."}.

            On malformed input the frames before the fault are printed, then one line on stderr naming the frame,
            its offset and what was expected, and the exit code is 2.

            A pcap or pcapng capture (recognised by its magic number) is reassembled per TCP connection first
            (see `syncsim trace-summary --help` for formats, link types and gaps). Per connection it prints a
            line {"connection":1,"client":"198.18.0.1:50001","server":"198.18.0.2:443",...}, then the frames
            in capture-time order, each with "time" (capture seconds.nanoseconds of the packet that completed
            it), "connection", "direction" and "packet" before the fields above, then its issues (gaps,
            resyncs) as {"issue":...} lines. After a gap, decoding resumes at the next plausible frame header.
            A WebSocket connection's line has "transport":"websocket"; its frames are its messages' frames, each
            placed to end where its message ends. A frame sent as a JSON text message shows that message's "ver",
            "encoding":"json" after "compressed", its text's bytes as wirePayloadBytes, and its payload's
            MessagePack bytes as payloadBytes.
            A capture without a TCP connection (on the --port asked for) is an error, as is an empty FILE.

            options:
              --port N                captures: keep only connections with port N on either end (repeatable)
              --keep-truncated        captures: \(TraceDecodeCommand.CaptureOptions.keepTruncatedHelp)
              --tls-keylog FILE       captures: decrypt TLS connections with this NSS key log (as SSLKEYLOGFILE
                                      writes) through tshark; their application data is decoded as a plain
                                      connection's bytes. Without it a capture with a TLS connection is refused
                                      (exit 2) instead of decoding to garbage. See docs/traces.md, "TLS captures"
              --summary               captures: print connections, frame counts per opcode and request/response
                                      latencies matched by seq instead of the frames
              --layout L              header layout: cmd8-seq16 (cmd u8 + seq u16, the default) or
                                      cmd16-seq8 (cmd u16 + seq u8)
              --max-payload-bytes N   largest payload accepted, on the wire and decompressed (default 5242880, 5 MiB)

            example:
              syncsim decode Fixtures/wire/login-response.bin
              syncsim decode Fixtures/pcap/sync-session.pcapng --port 443
            """,
        run: { arguments, console in try run(&arguments, &console) }
    )

    static func run(_ arguments: inout ArgumentList, _ console: inout Console) throws -> Int32 {
        let layoutName = try arguments.value(of: "--layout") ?? HeaderLayout.standard.rawValue
        guard let layout = HeaderLayout(rawValue: layoutName) else {
            let layouts = HeaderLayout.allCases.map { $0 == .standard ? "\($0) (the default)" : "\($0)" }
            throw UsageError("option --layout: unknown layout '\(layoutName)'; layouts: "
                + layouts.joined(separator: ", "))
        }
        let maxPayloadBytes = try arguments.int("--max-payload-bytes", in: 0...FrameHeader.maxPayloadLengthField)
            ?? FrameDecoder.defaultMaxPayloadBytes
        let captureOptions = try TraceDecodeCommand.CaptureOptions(&arguments)
        let files = arguments.positionals()
        try arguments.finish()
        guard files.count == 1, let path = files.first else {
            throw UsageError("expected one FILE, got \(files.count)")
        }
        if try InputFile.requireReadable(path) == 0 {
            throw InputFileError.empty(path, expected: "a capture or frame stream")
        }
        if TraceDecodeCommand.isCapture(path: path) {
            try captureOptions.requireFiles(capture: path)
            let decoder = FrameDecoder(layout: layout, maxPayloadBytes: maxPayloadBytes)
            return try TraceDecodeCommand.decodeCapture(
                path: path, decoder: decoder, options: captureOptions, console: &console)
        }
        try captureOptions.requireRawStreamDefaults(path: path)
        let data = try InputFile.read(path)
        let decoder = FrameDecoder(layout: layout, maxPayloadBytes: maxPayloadBytes)
        // A device or a pipe shows its size only once read.
        if data.isEmpty { throw InputFileError.empty(path, expected: "a capture or frame stream") }
        do {
            _ = try printFrames(ofRawStream: [UInt8](data), decoder: decoder, console: &console)
        } catch let error as WireError {
            if error.frameNumber == 1, Self.headerFaults.contains(error.kind) {
                // Frames in the other header layout are a frame stream all the same: name the layout to use.
                if let fitting = Self.layoutReadingFirstFrame(data, besides: layout, maxPayloadBytes: maxPayloadBytes) {
                    throw DecodeInputError(path: path, detail: "\(error); the stream reads as frames in layout "
                        + "\(fitting): give --layout \(fitting)")
                }
                throw DecodeInputError(path: path, detail: Self.notAStream(data, error: error))
            }
            throw DecodeInputError(path: path, detail: error.description)
        }
        return ExitCode.success
    }

    /// Faults in a header: in the first frame they mean the file is not frames at all.
    private static let headerFaults: [WireError.Kind] = [.unsupportedVersion, .unknownCommand, .truncatedHeader]

    /// The header layout other than `layout` in which the stream's first frame decodes, or nil when none does.
    static func layoutReadingFirstFrame(_ data: Data, besides layout: HeaderLayout, maxPayloadBytes: Int)
        -> HeaderLayout?
    {
        HeaderLayout.allCases.first { other in
            guard other != layout else { return false }
            var decoder = FrameDecoder(layout: other, maxPayloadBytes: maxPayloadBytes)
            var buffer = ByteReader([UInt8](data))
            return (try? decoder.decodeFrame(&buffer)).flatMap { $0 } != nil
        }
    }

    /// `not a capture or frame stream (first bytes: 68 65 6c 6c ... "hell..."); frame 1: ...`.
    static func notAStream(_ data: Data, error: WireError) -> String {
        let first = Array(data.prefix(16))
        let hex = first.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
            .joined(separator: " ")
        let text = String(first.map { (0x20..<0x7f).contains($0) ? Character(UnicodeScalar($0)) : "." })
        return "not a capture or frame stream (first bytes: \(hex)\(data.count > 16 ? " ..." : "") \"\(text)\"; "
            + "a capture starts with a pcap or pcapng magic number, a frame stream with a frame header); \(error)"
    }

    /// Decodes a raw stream (one direction, frames back to back) and prints one JSON line per frame.
    /// - Parameters:
    ///   - bytes: the whole stream.
    ///   - decoder: a decoder set up with the layout and limits to use.
    ///   - console: where the lines go.
    /// - Returns: how many frames were printed.
    /// - Throws: `WireError` at the first fault, after printing every frame before it.
    static func printFrames(ofRawStream bytes: [UInt8], decoder: FrameDecoder, console: inout Console) throws -> Int {
        var decoder = decoder
        var buffer = ByteReader(bytes)
        var count = 0
        while let decoded = try decoder.decodeFrame(&buffer) {
            console.out(jsonLine(for: decoded))
            count += 1
        }
        try decoder.finish(buffer)
        return count
    }

    /// One frame as a JSON line, keys in a fixed order (see the help text).
    static func jsonLine(for decoded: DecodedFrame, jsonMessage: TraceFrame.JSONMessage? = nil) -> String {
        let header = decoded.header
        let version = jsonMessage.map { $0.version.map(String.init) ?? "null" } ?? "\(header.version)"
        var line = "{\"frame\":\(decoded.number),\"offset\":\(decoded.offset),\"ver\":\(version)"
        line += ",\"cmd\":\(header.cmd.rawValue),\"cmdName\":\"\(header.cmd)\",\"seq\":\(header.seq)"
        line += ",\"opcode\":\(header.opcode.rawValue),\"opcodeName\":\"\(header.opcode)\""
        if let jsonMessage {
            line += ",\"compressed\":false,\"encoding\":\"json\",\"wirePayloadBytes\":\(jsonMessage.textByteCount)"
        } else {
            line += ",\"compressed\":\(header.isCompressed),\"wirePayloadBytes\":\(header.payloadLength)"
        }
        line += ",\"payloadBytes\":\(decoded.payloadByteCount),\"payload\":"
        JSONWriter.write(decoded.frame.payload, into: &line)
        line += "}"
        return line
    }
}

/// A file `syncsim decode` could not read or decode: `PATH: frame 3 at offset 120: ...`.
struct DecodeInputError: Error, Hashable, CustomStringConvertible {
    var path: String
    var detail: String

    var description: String { "\(path): \(detail)" }
}
