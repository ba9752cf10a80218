import Foundation

/// Checks on a file a command reads, made before reading so the error is plain (`FILE is a directory`).
enum InputFile {
    /// Throws when `path` names a directory.
    /// - Throws: `InputFileError`: `FILE is a directory`.
    static func requireNotDirectory(_ path: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw InputFileError(description: "\(path) is a directory")
        }
    }
}

/// A file a command was asked to read is not a readable file; exit code 2.
struct InputFileError: Error, Hashable, CustomStringConvertible {
    var description: String
}
