import Foundation

/// A command-line tool the tests may use when it is installed (tshark, tcpdump), found on the `PATH`.
struct ExternalTool {
    let path: String

    /// The tool called `name` on the `PATH`, or nil when it is not installed.
    static func named(_ name: String) -> ExternalTool? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for directory in directories + ["/usr/sbin", "/usr/bin"] {
            let path = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return ExternalTool(path: path) }
        }
        return nil
    }

    /// Runs the tool to its end. - Returns: exit status, standard output and standard error as text.
    func run(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // Standard output first (it can be large); the tools used here write only a line or two to stderr.
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorBytes = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outputData, as: UTF8.self),
                String(decoding: errorBytes, as: UTF8.self))
    }
}
