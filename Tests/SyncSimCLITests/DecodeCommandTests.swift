import Foundation
import SyncSim
import Testing

@testable import SyncSimCLI

/// Runs `syncsim decode` in-process over the golden vectors in Fixtures/wire.
@Suite struct DecodeCommandTests {
    final class Captured: @unchecked Sendable {
        var out = ""
        var err = ""
    }

    static let wire = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/wire")

    static func run(_ arguments: [String]) -> (code: Int32, out: String, err: String) {
        let captured = Captured()
        var console = Console(out: { captured.out += $0 }, err: { captured.err += $0 })
        let code = runSyncSim(arguments: arguments, console: &console)
        return (code, captured.out, captured.err)
    }

    static let vectors: [(name: String, arguments: [String])] = [
        ("login-response", []),
        ("history-page-compressed", []),
        ("push-notif-message", []),
        ("push-edit-then-delete", []),
        ("push-zstd", []),
        ("error-unsupported-opcode", []),
        ("unknown-opcode", []),
        ("session-cmd16", ["--layout", "cmd16-seq8"]),
    ]

    @Test("each golden vector prints exactly its expected JSON lines", arguments: vectors)
    func goldenVectors(name: String, arguments: [String]) throws {
        let expected = try String(contentsOf: Self.wire.appendingPathComponent("\(name).jsonl"), encoding: .utf8)
        let result = Self.run(["decode", Self.wire.appendingPathComponent("\(name).bin").path] + arguments)
        #expect(result.code == 0)
        #expect(result.err == "")
        #expect(result.out == expected)
    }

    @Test("a bad version prints the frames before it, then one stderr line naming the offset; exit 2")
    func errorAfterFrames() throws {
        let path = Self.wire.appendingPathComponent("push-then-bad-version.bin").path
        let result = Self.run(["decode", path])
        #expect(result.code == 2)
        #expect(result.out.split(separator: "\n").count == 1)
        #expect(result.out.hasPrefix("{\"frame\":1,\"offset\":0,"))
        #expect(
            result.err
                == "syncsim decode: \(path): frame 2 at offset 115: unsupported version 9 at offset 115 (expected 10)\n")
    }

    @Test("a stream ending inside a header is reported at end of input; exit 2") func truncatedHeader() {
        let path = Self.wire.appendingPathComponent("push-then-truncated-header.bin").path
        let result = Self.run(["decode", path])
        #expect(result.code == 2)
        #expect(result.out.split(separator: "\n").count == 1)
        #expect(result.err.contains("frame 2 at offset 115: stream ends at offset 119 inside the header: 4 of 10 bytes"))
    }

    @Test("a response read with the cmd16-seq8 layout has cmd 256: an input error, not a crash") func wrongLayout() {
        let path = Self.wire.appendingPathComponent("login-response.bin").path
        let result = Self.run(["decode", path, "--layout", "cmd16-seq8"])
        #expect(result.code == 2)
        #expect(result.out == "")
        #expect(result.err.contains("frame 1 at offset 0: unknown cmd 256 at offset 1"))
    }

    @Test(
        "usage errors exit 2 and point to --help",
        arguments: [
            ["decode"], ["decode", "a", "b"], ["decode", "x.bin", "--layout", "sideways"],
            ["decode", "x.bin", "--fast"],
        ])
    func usageErrors(arguments: [String]) {
        let result = Self.run(arguments)
        #expect(result.code == 2)
        #expect(result.err.contains("--help"))
    }

    @Test("an unknown --layout value says so and lists the layouts, not 'not a frame stream'")
    func unknownLayout() {
        let result = Self.run(["decode", Self.wire.appendingPathComponent("login-response.bin").path,
                               "--layout", "cmd16"])
        #expect(result.code == ExitCode.usage)
        #expect(result.err == "syncsim decode: option --layout: unknown layout 'cmd16'; layouts: cmd8-seq16 "
            + "(the default), cmd16-seq8\nsee 'syncsim decode --help'\n")
    }

    @Test("frames in the other layout are named as such, with the --layout that reads them")
    func otherLayout() {
        let path = Self.wire.appendingPathComponent("login-response.bin").path
        let result = Self.run(["decode", path, "--layout", "cmd16-seq8"])
        #expect(result.code == ExitCode.usage)
        #expect(!result.err.contains("not a capture or frame stream"), "\(result.err)")
        #expect(result.err.hasPrefix("syncsim decode: \(path): frame 1 at offset 0: "), "\(result.err)")
        #expect(result.err.hasSuffix("; the stream reads as frames in layout cmd8-seq16: give --layout cmd8-seq16\n"))
    }

    @Test("a missing file is an input error naming it") func missingFile() {
        let result = Self.run(["decode", "/nonexistent/stream.bin"])
        #expect(result.code == 2)
        #expect(result.err.contains("/nonexistent/stream.bin"))
    }

    @Test("a directory is an input error saying so") func directory() {
        let result = Self.run(["decode", Self.wire.path])
        #expect(result.code == 2)
        #expect(result.err == "syncsim decode: cannot read \(Self.wire.path): is a directory\n")
    }

    @Test("an empty file is no capture and no stream: an input error naming it, exit 2") func emptyFile() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("syncsim-empty-\(UUID()).bin")
        try Data().write(to: empty)
        defer { try? FileManager.default.removeItem(at: empty) }
        let result = Self.run(["decode", empty.path])
        #expect(result.code == 2)
        #expect(result.out.isEmpty)
        #expect(result.err == "syncsim decode: \(empty.path): empty file (0 bytes), not a capture or frame stream\n")
    }

    @Test("an extension-1 value, the field's wrapped id, is written with the value it wraps")
    func wrappedValues() {
        var output = ""
        let wrapped = MessagePackValue.ext(type: 1, data: MessagePackValue.int(-70_000_000_000_123).messagePackBytes())
        JSONWriter.write(.map([MessagePackPair(.string("chatId"), wrapped),
                               MessagePackPair(.string("other"), .ext(type: 2, data: [1]))]), into: &output)
        #expect(output == "{\"chatId\":{\"ext\":1,\"wrapped\":-70000000000123,\"base64\":\"0///wFXa3Z+F\"},"
                    + "\"other\":{\"ext\":2,\"base64\":\"AQ==\"}}")
    }

    @Test("--help documents the binary encoding and the layouts") func help() {
        let result = Self.run(["decode", "--help"])
        #expect(result.code == 0)
        #expect(result.out.contains("base64"))
        #expect(result.out.contains("cmd16-seq8"))
    }
}
