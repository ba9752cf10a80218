import Foundation

/// Report files a command will write, checked and created (empty) before any run, so a typo in a path costs no
/// runs and cannot hide a failed check behind exit code 2.
enum OutputFile {
    /// Checks that `path` can be written and creates it empty (truncating an existing file).
    /// - Throws: `OutputFileError`: `cannot write FILE: no such directory DIR`, `FILE is a directory`, or the
    ///   system's reason (`permission denied`).
    static func prepare(_ path: String) throws {
        try requirePlace(path)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else {
            throw OutputFileError(path: path, reason: String(cString: strerror(errno)).lowercased())
        }
        close(descriptor)
    }

    /// Checks, without creating anything, that `path` could be written: its directory exists and it is no
    /// directory itself (for a file written only if there is something to write, as `run --shrink-out`).
    /// - Throws: `OutputFileError`: `cannot write FILE: no such directory DIR` or `FILE is a directory`.
    static func requirePlace(_ path: String) throws {
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        if fileManager.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw OutputFileError(path: path, isDirectory: true)
        }
        let parent = (path as NSString).deletingLastPathComponent
        let directory = parent.isEmpty ? "." : parent
        if !fileManager.fileExists(atPath: directory, isDirectory: &isDirectory) || !isDirectory.boolValue {
            throw OutputFileError(path: path, reason: "no such directory \(directory)")
        }
    }

    /// Checks that `path` is a directory, creating it when missing. Only its last component is created: its parent
    /// must exist, as every output file's directory must (`requirePlace`), so a typo in a path is an error, not a
    /// tree of new directories (before session 38 `run --store-dir /nonexist/d` made `/nonexist` and exited 0).
    /// - Throws: `OutputFileError`: `cannot write DIR: no such directory PARENT`, `DIR is not a directory`, or the
    ///   system's reason.
    static func prepareDirectory(_ path: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw OutputFileError(path: path, reason: "is not a directory") }
            return
        }
        try requirePlace(path)
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        } catch {
            // The system's reason in the house wording (`permission denied`), not Foundation's sentence.
            let underlying = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? any Error).map { $0 as NSError }
            let reason = underlying.flatMap { $0.domain == NSPOSIXErrorDomain ? $0.code : nil }
                .map { "cannot create the directory: " + String(cString: strerror(Int32($0))).lowercased() }
            throw OutputFileError(path: path, reason: reason ?? (error as NSError).localizedFailureReason
                ?? error.localizedDescription)
        }
    }

    /// `directory` as given without its trailing slashes (`found/` is `found`; `/` stays `/`), so the paths a
    /// command prints from it read `found/Explore7.swift`, not `found//Explore7.swift`.
    static func trimmingTrailingSlashes(_ directory: String) -> String {
        var trimmed = Substring(directory)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        return String(trimmed)
    }

    /// The path of `file` in `directory`, joined by exactly one slash (`found/` + `a.swift` is `found/a.swift`).
    static func path(in directory: String, file: String) -> String {
        let base = trimmingTrailingSlashes(directory)
        return base.hasSuffix("/") ? base + file : base + "/" + file
    }

    /// Prepares every path given, in order; nils are skipped.
    /// - Throws: `OutputFileError` for the first path that cannot be written.
    static func prepare(_ paths: [String?]) throws {
        for path in paths.compactMap({ $0 }) { try prepare(path) }
    }

    /// Writes `text` to `path`.
    /// - Throws: `OutputFileError` naming the file and a readable reason.
    static func write(_ text: String, to path: String) throws {
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        } catch {
            try prepare(path)
            throw OutputFileError(path: path, reason: (error as NSError).localizedFailureReason
                ?? error.localizedDescription)
        }
    }
}

/// A report file could not be written; exit code 2 (or 1 when a check failed as well).
struct OutputFileError: Error, CustomStringConvertible {
    var path: String
    var reason: String
    var isDirectory = false

    init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    init(path: String, isDirectory: Bool) {
        self.path = path
        self.reason = "is a directory"
        self.isDirectory = isDirectory
    }

    var description: String { "cannot write \(path): \(reason)" }
}
