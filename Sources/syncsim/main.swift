import Foundation
import SyncSimCLI

/// Buffers standard output (commands may print millions of lines) and flushes it before anything goes to stderr,
/// so the two streams interleave in the order they were written.
final class BufferedStandardOutput {
    private var buffer: [UInt8] = []

    func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    func flush() {
        guard !buffer.isEmpty else { return }
        FileHandle.standardOutput.write(Data(buffer))
        buffer.removeAll(keepingCapacity: true)
    }
}

let standardOutput = BufferedStandardOutput()
var console = Console(
    isInteractive: isatty(STDERR_FILENO) != 0,
    out: { standardOutput.write($0) },
    err: { text in
        standardOutput.flush()
        FileHandle.standardError.write(Data(text.utf8))
    }
)
console.program = Console.currentProgramName()
let code = runSyncSim(arguments: Array(CommandLine.arguments.dropFirst()), console: &console)
standardOutput.flush()
exit(code)
