import Foundation
import SyncSim

/// The steps of `syncsim client --script`: `login; open alice+bob; send alice+bob hello; scroll alice+bob 50;
/// wait 2s`, separated by semicolons.
enum ClientScriptStep: Hashable {
    /// Wait until the client is logged in (at most 10 s).
    case login
    case open(chat: String)
    case send(chat: String, text: String)
    case scroll(chat: String, messages: Int)
    case wait(SimDuration)

    /// Parses a script.
    /// - Throws: `UsageError` naming the step that is not understood.
    static func parse(_ script: String) throws -> [ClientScriptStep] {
        let steps = try parseSteps(script)
        if steps.isEmpty {
            throw UsageError("--script '\(script)' has no steps; give login, open CHAT, send CHAT TEXT, scroll CHAT N "
                + "or wait DURATION, separated by semicolons")
        }
        return steps
    }

    private static func parseSteps(_ script: String) throws -> [ClientScriptStep] {
        try script.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            .enumerated().map { index, text in
                let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
                func bad(_ expected: String) -> UsageError {
                    UsageError("--script step \(index + 1) '\(text)': expected \(expected)")
                }
                switch words.first {
                case "login" where words.count == 1:
                    return .login
                case "open" where words.count == 2:
                    return .open(chat: words[1])
                case "send" where words.count >= 3:
                    return .send(chat: words[1], text: words.dropFirst(2).joined(separator: " "))
                case "scroll" where words.count == 3:
                    guard let count = Int(words[2]), count > 0 else { throw bad("scroll CHAT MESSAGES (a count > 0)") }
                    return .scroll(chat: words[1], messages: count)
                case "wait" where words.count == 2:
                    guard let duration = duration(words[1]) else {
                        throw bad("wait DURATION, at most 10 minutes (2s, 1.5s, 500ms, 1m)")
                    }
                    return .wait(duration)
                default:
                    // A misspelt step word gets the word meant (`sned` -> `send`); a known word with the wrong
                    // number of arguments is named by the list alone.
                    let stepWords = ["login", "open", "send", "scroll", "wait"]
                    let typed = text.split(separator: " ").first.map(String.init) ?? ""
                    throw UsageError("--script step \(index + 1) '\(text)'"
                        + (stepWords.contains(typed) ? "" : Suggestion.clause(for: typed, among: stepWords))
                        + ": expected login, open CHAT, send CHAT TEXT, scroll CHAT N or wait DURATION")
                }
            }
    }

    /// `2s`, `1.5s`, `500ms`, `1m` (`SweepParameter.duration`, as every option taking a duration), at most 10 minutes.
    static func duration(_ text: String) -> SimDuration? {
        guard let value = SweepParameter.duration(text), value <= .seconds(600) else { return nil }
        return value
    }
}
