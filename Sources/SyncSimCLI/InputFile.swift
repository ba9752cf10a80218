import Foundation

/// The files commands read, checked and read in one place so every command names the same real reason for a file
/// it cannot use: `cannot read FILE: no such file`, `is a directory`, `permission denied`, or the system's words.
enum InputFile {
    /// Checks that `path` names something that can be opened for reading: it exists, is not a directory, and the
    /// process may read it. Regular files, devices (`/dev/stdin`) and pipes (`<(...)`) pass.
    /// - Returns: the file's size in bytes when it is a regular file; nil for a device or a pipe, whose size is
    ///   known only by reading it.
    /// - Throws: `InputFileError` naming the file and the reason.
    @discardableResult
    static func requireReadable(_ path: String) throws -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { throw InputFileError.cannotRead(path, reason: reason(errno: errno)) }
        let type = info.st_mode & S_IFMT
        if type == S_IFDIR { throw InputFileError.cannotRead(path, reason: "is a directory") }
        guard access(path, R_OK) == 0 else { throw InputFileError.cannotRead(path, reason: reason(errno: errno)) }
        return type == S_IFREG ? Int(info.st_size) : nil
    }

    /// Checks a file a command reads as a pcap or pcapng capture before the capture reader opens it: readable as
    /// `requireReadable(_:)` says, and not empty.
    /// - Throws: `InputFileError`: the reasons of `requireReadable(_:)`, or `FILE: empty file (0 bytes), not a
    ///   capture`.
    static func requireCapture(_ path: String) throws {
        if try requireReadable(path) == 0 { throw InputFileError.empty(path, expected: "a capture") }
    }

    /// The most a device or a pipe is read (256 MiB): a regular file is read whole, but a device such as
    /// `/dev/zero` never ends, so the read stops there with an error instead of filling memory for good.
    static let maximumStreamBytes = 256 << 20

    /// The bytes of the file at `path`, read to its end (a device or a pipe too, up to `maximumStreamBytes`).
    /// - Throws: `InputFileError`, in the one wording every command uses: `cannot read FILE: reason`
    ///   (`no such file`, `is a directory`, `permission denied`, the system's reason, or, for a device or a pipe,
    ///   `more than 256 MiB`).
    static func read(_ path: String) throws -> Data {
        let size = try requireReadable(path)
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw InputFileError.cannotRead(path, reason: reason(errno: errno)) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            if size != nil { return try handle.readToEnd() ?? Data() }
            var data = Data()
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                data.append(chunk)
                if data.count > maximumStreamBytes {
                    let reason = "more than \(maximumStreamBytes >> 20) MiB from a device or a pipe (read stopped)"
                    throw InputFileError.cannotRead(path, reason: reason)
                }
            }
            return data
        } catch let error as InputFileError {
            throw error
        } catch {
            throw InputFileError.cannotRead(path, reason: (error as NSError).localizedFailureReason
                ?? error.localizedDescription)
        }
    }

    /// The file at `path` as UTF-8 text.
    /// - Throws: `InputFileError` as `read(_:)` does, or `cannot read FILE: not UTF-8 text`.
    static func readText(_ path: String) throws -> String {
        guard let text = String(data: try read(path), encoding: .utf8) else {
            throw InputFileError.cannotRead(path, reason: "not UTF-8 text")
        }
        return text
    }

    /// The reason for `errno` in the CLI's words: `no such file`, `permission denied`, else the system's message
    /// in lower case.
    static func reason(errno code: Int32) -> String {
        switch code {
        case ENOENT: "no such file"
        case EACCES, EPERM: "permission denied"
        case ENOTDIR: "a directory in the path is a file"
        default: String(cString: strerror(code)).lowercased()
        }
    }
}

/// A file a command was asked to read is not a readable file; exit code 2.
struct InputFileError: Error, Hashable, CustomStringConvertible {
    var description: String

    /// `cannot read FILE: reason`, the wording every command uses for a file it cannot read.
    static func cannotRead(_ path: String, reason: String) -> InputFileError {
        InputFileError(description: "cannot read \(path): \(reason)")
    }

    /// `FILE: empty file (0 bytes), not EXPECTED`: a file that holds nothing is no input, whatever the command.
    static func empty(_ path: String, expected: String) -> InputFileError {
        InputFileError(description: "\(path): empty file (0 bytes), not \(expected)")
    }
}
