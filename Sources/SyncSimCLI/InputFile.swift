import Foundation

/// Checks on a file a command reads, made before reading so the error is plain (`FILE is a directory`).
enum InputFile {
    /// Throws when `path` names a directory.
    /// - Throws: `InputFileError`: `FILE is a directory`.
    static func requireNotDirectory(_ path: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw InputFileError.cannotRead(path, reason: "is a directory")
        }
    }
}

extension InputFile {
    /// The bytes of the file at `path`.
    /// - Throws: `InputFileError`, in the one wording every command uses: `cannot read FILE: reason`
    ///   (`no such file`, `is a directory`, `permission denied`).
    static func read(_ path: String) throws -> Data {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw InputFileError.cannotRead(path, reason: "no such file")
        }
        if isDirectory.boolValue { throw InputFileError.cannotRead(path, reason: "is a directory") }
        guard FileManager.default.isReadableFile(atPath: path), let data = FileManager.default.contents(atPath: path)
        else {
            throw InputFileError.cannotRead(path, reason: "permission denied")
        }
        return data
    }

    /// The file at `path` as UTF-8 text.
    /// - Throws: `InputFileError` as `read(_:)` does, or `cannot read FILE: not UTF-8 text`.
    static func readText(_ path: String) throws -> String {
        guard let text = String(data: try read(path), encoding: .utf8) else {
            throw InputFileError.cannotRead(path, reason: "not UTF-8 text")
        }
        return text
    }
}

/// A file a command was asked to read is not a readable file; exit code 2.
struct InputFileError: Error, Hashable, CustomStringConvertible {
    var description: String

    /// `cannot read FILE: reason`, the wording every command uses for a file it cannot read.
    static func cannotRead(_ path: String, reason: String) -> InputFileError {
        InputFileError(description: "cannot read \(path): \(reason)")
    }
}
