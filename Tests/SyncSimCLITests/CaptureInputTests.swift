import Foundation
import Scenarios
import SyncSim
import Testing

@testable import SyncSimCLI

/// Files the capture commands (`decode`, `trace-summary`, `replay`) cannot use: the real reason, in one wording;
/// empty files and captures without the connections asked for are errors; `--keep-truncated` everywhere.
@Suite struct CaptureInputTests {
    /// A temporary file holding `bytes`, removed by the caller.
    static func temporaryFile(_ bytes: Data, suffix: String) throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("syncsim-fault-\(UUID())\(suffix)").path
        try bytes.write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The first 1000 bytes of a capture of our protocol: packet 9 breaks off.
    static func truncatedCapture() throws -> String {
        let whole = TraceDecodeCommandTests.fixture("replay/offline-sends-in-order-seed341.pcapng")
        let bytes = try #require(FileManager.default.contents(atPath: whole))
        return try temporaryFile(bytes.prefix(1_000), suffix: ".pcapng")
    }

    // MARK: input files

    @Test("a file that cannot be read gets the same real reason from every command", arguments: [
        ["decode"], ["trace-summary"], ["replay", "--against", "server"], ["replay", "--emit-scenario", "x"],
    ])
    func fileReasons(command: [String]) {
        let directory = FileManager.default.temporaryDirectory.path
        let isDirectory = syncsim([command[0], directory] + command.dropFirst())
        #expect(isDirectory.code == ExitCode.usage)
        #expect(isDirectory.err.contains("cannot read \(directory): is a directory"), "\(isDirectory.err)")
        let missing = syncsim([command[0], "/nonexistent/x.pcapng"] + command.dropFirst())
        #expect(missing.code == ExitCode.usage)
        #expect(missing.err.contains("cannot read /nonexistent/x.pcapng: no such file\n"), "\(missing.err)")
    }

    @Test("a key log that cannot be read is named with its reason, as the capture would be", arguments: [
        ["decode"], ["trace-summary"], ["replay", "--against", "server"],
    ])
    func keyLogReason(command: [String]) {
        let capture = TraceDecodeCommandTests.fixture("tls/pymax-tls.pcap")
        let output = syncsim([command[0], capture, "--tls-keylog", "/nonexistent.keys"] + command.dropFirst())
        #expect(output.code == ExitCode.usage)
        #expect(output.err.contains("cannot read /nonexistent.keys: no such file"), "\(output.err)")
    }

    @Test("/dev/null is empty, not unreadable")
    func devNull() {
        let output = syncsim(["decode", "/dev/null"])
        #expect(output.code == ExitCode.usage)
        #expect(output.err == "syncsim decode: /dev/null: empty file (0 bytes), not a capture or frame stream\n")
    }

    @Test("a device that never ends is read up to a limit, then refused (it hung, reading /dev/zero for good)")
    func endlessDevice() {
        let output = syncsim(["decode", "/dev/zero"])
        #expect(output.code == ExitCode.usage)
        #expect(output.err == "syncsim decode: cannot read /dev/zero: more than 256 MiB from a device or a pipe "
            + "(read stopped)\n")
    }

    @Test("an empty file is no capture", arguments: [
        ["trace-summary"], ["replay", "--against", "server"],
    ])
    func emptyCapture(command: [String]) throws {
        let path = try Self.temporaryFile(Data(), suffix: ".pcapng")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let output = syncsim([command[0], path] + command.dropFirst())
        #expect(output.code == ExitCode.usage)
        #expect(output.err.contains("\(path): empty file (0 bytes), not a capture"), "\(output.err)")
    }

    // MARK: captures without the connections asked for

    @Test("decode, like replay, refuses a capture with no TCP connection on the port asked for", arguments: [
        ["decode", "--port", "1"], ["decode", "--port", "1", "--summary"],
        ["replay", "--port", "1", "--against", "server"],
    ])
    func noConnection(command: [String]) {
        let path = TraceDecodeCommandTests.fixture("replay/offline-sends-in-order-seed341.pcapng")
        let output = syncsim([command[0], path] + command.dropFirst())
        #expect(output.code == ExitCode.usage)
        #expect(output.out.isEmpty)
        let verb = command[0] == "decode" ? "decode" : "replay"
        #expect(output.err.contains("\(path): no TCP connection to \(verb) on port 1"), "\(output.err)")
    }

    // MARK: --keep-truncated

    @Test("a truncated capture's error names --keep-truncated, in every capture command", arguments: [
        ["decode"], ["trace-summary"], ["replay", "--against", "server"], ["replay", "--emit-scenario", "cut"],
    ])
    func truncatedNamesOption(command: [String]) throws {
        let path = try Self.truncatedCapture()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let output = syncsim([command[0], path] + command.dropFirst())
        #expect(output.code == ExitCode.usage)
        #expect(output.err.contains("\(path): packet 9: truncated file"), "\(output.err)")
        #expect(output.err.contains("--keep-truncated uses the packets before it"))
    }

    @Test("a capture cut inside its file header says so and does not offer --keep-truncated", arguments: [
        ["decode"], ["trace-summary"], ["replay", "--against", "server"],
        ["decode", "--keep-truncated"], ["trace-summary", "--keep-truncated"],
    ])
    func truncatedFileHeader(command: [String]) throws {
        let path = try Self.temporaryFile(Data([0xd4, 0xc3, 0xb2, 0xa1]), suffix: ".pcap")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let output = syncsim([command[0], path] + command.dropFirst())
        #expect(output.code == ExitCode.usage)
        #expect(output.out.isEmpty)
        #expect(output.err.contains("\(path): truncated file: the file ends after 4 bytes (its magic number only), "
            + "inside its 24-byte pcap file header, before any packet (libpcap: "), "\(output.err)")
        #expect(output.err.hasSuffix("); --keep-truncated cannot help\n"), "\(output.err)")
        #expect(!output.err.contains("uses the packets before it"))
    }

    @Test("a pcapng file cut inside its section header block is truncated, not an unknown format", arguments: [
        4, 8, 20,
    ])
    func truncatedSectionHeader(length: Int) throws {
        let block: [UInt8] = [0x0a, 0x0d, 0x0d, 0x0a, 0x1c, 0, 0, 0, 0x4d, 0x3c, 0x2b, 0x1a] + Array(repeating: 0, count: 16)
        let path = try Self.temporaryFile(Data(block.prefix(length)), suffix: ".pcapng")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let output = syncsim(["decode", path])
        #expect(output.code == ExitCode.usage)
        #expect(output.err.hasPrefix("syncsim decode: \(path): truncated file: the file ends after \(length) bytes"),
                "\(output.err)")
        #expect(output.err.contains("inside its pcapng section header block (at least 28 bytes), before any packet"))
    }

    @Test("a capture cut inside a record says how much of it is there, in words before libpcap's")
    func truncatedRecordWording() throws {
        let path = try Self.truncatedCapture()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let output = syncsim(["trace-summary", path])
        #expect(output.code == ExitCode.usage)
        #expect(output.err.contains("\(path): packet 9: truncated file: the file ends inside a block, after "),
                "\(output.err)")
        #expect(output.err.contains(" (libpcap: truncated pcapng dump file; "), "\(output.err)")
    }

    @Test("decode and replay --keep-truncated use the packets before the break and say where it was")
    func keepTruncated() throws {
        let path = try Self.truncatedCapture()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let decode = syncsim(["decode", path, "--keep-truncated"])
        #expect(decode.code == ExitCode.success, "\(decode.err)")
        #expect(decode.out.contains("\"opcodeName\":\"LOGIN\""))
        #expect(decode.err.contains("note: --keep-truncated: stopped early"))
        #expect(decode.err.contains("packet 9: truncated file"))
        let emit = syncsim(["replay", path, "--emit-scenario", "cut", "--keep-truncated"])
        #expect(emit.code == ExitCode.success, "\(emit.err)")
        #expect(emit.out.contains("Scenario(\"cut\""))
        #expect(emit.err.contains("note: --keep-truncated: stopped early"))
        let summary = syncsim(["decode", path, "--keep-truncated", "--summary"])
        #expect(summary.code == ExitCode.success)
        #expect(summary.out.contains("stopped early"))
    }

    @Test("--keep-truncated means the same in every capture command's help")
    func keepTruncatedHelp() {
        let text = TraceDecodeCommand.CaptureOptions.keepTruncatedHelp
        for command in ["decode", "replay", "trace-summary"] {
            #expect(syncsim([command, "--help"]).out.contains("--keep-truncated"), "\(command)")
            #expect(syncsim([command, "--help"]).out.contains(text), "\(command)")
        }
    }

    @Test("--keep-truncated is for captures only")
    func keepTruncatedRawStream() {
        let path = DecodeCommandTests.wire.appendingPathComponent("login-response.bin").path
        let output = syncsim(["decode", path, "--keep-truncated"])
        #expect(output.code == ExitCode.usage)
        #expect(output.err.contains("captures only"))
    }
}
