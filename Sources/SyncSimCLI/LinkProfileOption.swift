import SyncSim

/// `--link-profiles FILE` (`sweep`, `explore`, `profiles`): link profiles read from a JSON file
/// (`LinkProfileFile`), which the command's profile options may name beside the catalog's.
enum LinkProfileOption {
    /// Removes `--link-profiles FILE` from `list` and reads the file.
    /// - Returns: the file's path and its profiles, or nil when the option was not given.
    /// - Throws: `UsageError` for a missing value; `InputFileError` for an unreadable file; `LinkProfileFileError`
    ///   naming the file and the JSON path of a malformed profile.
    static func parse(_ list: inout ArgumentList) throws -> (path: String, profiles: [LinkProfile])? {
        guard let path = try list.value(of: "--link-profiles") else { return nil }
        return (path, try LinkProfileFile.parse(InputFile.read(path), file: path))
    }
}
