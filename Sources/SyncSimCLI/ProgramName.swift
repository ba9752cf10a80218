import Foundation

extension Console {
    /// How `reproduce:` lines should spell the command so that pasting them works: `syncsim` when the shell finds
    /// this executable as `syncsim` on the PATH (after `make install`), else the executable's path as typed, or,
    /// for an absolute path inside the working directory, relative to it; SwiftPM's `.build/<triple>/<config>/`
    /// (the relative path `swift run`, and so `make run`, starts it by) is shortened to the `.build/<config>/` link
    /// SwiftPM keeps beside it.
    /// - Parameters:
    ///   - argument0: `CommandLine.arguments[0]`.
    ///   - currentDirectory: the working directory.
    ///   - path: the `PATH` environment variable.
    ///   - resolve: resolves a path to the file it names after symbolic links, or nil when there is no file.
    public static func programName(
        argument0: String,
        currentDirectory: String,
        path: String,
        resolve: (String) -> String?
    ) -> String {
        let own = argument0.contains("/") ? resolve(absolute(argument0, in: currentDirectory)) : nil
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = String(directory) + "/syncsim"
            if let found = resolve(candidate), own == nil || found == own { return "syncsim" }
        }
        guard argument0.contains("/") else { return argument0 }
        let base = currentDirectory.hasSuffix("/") ? currentDirectory : currentDirectory + "/"
        // An absolute path inside the working directory is shortened to the relative one; another absolute path
        // stays as it is. `swift run` starts the executable by a relative path already.
        var relative: String
        if argument0.hasPrefix("/") {
            guard argument0.hasPrefix(base) else { return argument0 }
            relative = String(argument0.dropFirst(base.count))
        } else {
            relative = argument0
        }
        // .build/x86_64-unknown-linux-gnu/release/syncsim -> .build/release/syncsim (SwiftPM's link to it).
        let parts = relative.split(separator: "/").map(String.init)
        if parts.count == 4, parts[0] == ".build", parts[2] == "release" || parts[2] == "debug" {
            let short = ".build/\(parts[2])/\(parts[3])"
            if let target = resolve(base + short), target == resolve(absolute(argument0, in: currentDirectory)) {
                relative = short
            }
        }
        return relative
    }

    /// `programName` for this process: its arguments, working directory and environment, and the file system.
    public static func currentProgramName() -> String {
        programName(
            argument0: CommandLine.arguments.first ?? "syncsim",
            currentDirectory: FileManager.default.currentDirectoryPath,
            path: ProcessInfo.processInfo.environment["PATH"] ?? "",
            resolve: { path in
                FileManager.default.isExecutableFile(atPath: path)
                    ? URL(fileURLWithPath: path).resolvingSymlinksInPath().path : nil
            }
        )
    }

    private static func absolute(_ path: String, in directory: String) -> String {
        path.hasPrefix("/") ? path : (directory.hasSuffix("/") ? directory : directory + "/") + path
    }
}
