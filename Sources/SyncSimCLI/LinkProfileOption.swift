import SyncSim

/// `--link-profiles FILE` (`sweep`, `explore`, `profiles`), repeatable: link profiles read from JSON files
/// (`LinkProfileFile`), which the command's profile options may name beside the catalog's.
enum LinkProfileOption {
    /// The files given, in order, and their profiles, in file order.
    struct Files {
        var paths: [String]
        var profiles: [LinkProfile]
        /// The paths as one label, for messages and records: `a.json, b.json`.
        var path: String { paths.joined(separator: ", ") }
    }

    /// Removes every `--link-profiles FILE` from `list` and reads the files.
    /// - Returns: the files and their profiles, or nil when the option was not given.
    /// - Throws: `UsageError` for a missing value or a profile name two files both define (case-insensitive, as
    ///   profile names are matched); `InputFileError` for an unreadable file; `LinkProfileFileError` naming the file
    ///   and the JSON path of a malformed profile.
    static func parse(_ list: inout ArgumentList) throws -> Files? {
        let paths = try list.values(of: "--link-profiles")
        guard !paths.isEmpty else { return nil }
        var profiles: [LinkProfile] = []
        var definedIn: [String: String] = [:]
        for path in paths {
            for profile in try LinkProfileFile.parse(InputFile.read(path), file: path) {
                if let earlier = definedIn[profile.name.lowercased()] {
                    throw UsageError("--link-profiles: '\(profile.name)' is defined in \(earlier) and in \(path); "
                                     + "rename one of them")
                }
                definedIn[profile.name.lowercased()] = path
                profiles.append(profile)
            }
        }
        return Files(paths: paths, profiles: profiles)
    }
}
