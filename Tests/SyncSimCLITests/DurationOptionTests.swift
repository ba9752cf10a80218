import SimCore
import Testing

@testable import SyncSimCLI

/// `serve --duration` took whole seconds only and `explore --budget` a unit only: `serve --duration 2s` and
/// `explore --budget 90` were refused. Both read either now.
@Suite struct DurationOptionTests {
    @Test("a wall-clock duration is whole seconds or a number with its unit, positive, within the limit")
    func spellings() throws {
        #expect(try ExploreCommand.wallClockDuration("90", option: "--duration") == .seconds(90))
        #expect(try ExploreCommand.wallClockDuration("2s", option: "--duration") == .seconds(2))
        #expect(try ExploreCommand.wallClockDuration("2m", option: "--duration") == .seconds(120))
        #expect(try ExploreCommand.wallClockDuration("10min", option: "--budget") == .seconds(600))
        #expect(try ExploreCommand.wallClockDuration("1h", option: "--budget") == .seconds(3_600))
        #expect(try ExploreCommand.budget("90") == .seconds(90))
        for bad in ["0", "0s", "-5", "abc", "2 m", ""] {
            #expect(throws: UsageError.self, "\(bad)") { try ExploreCommand.wallClockDuration(bad, option: "--budget") }
        }
        let tooLong = #expect(throws: UsageError.self) {
            try ExploreCommand.wallClockDuration("2h", option: "--duration", limit: .seconds(3_600))
        }
        #expect(tooLong?.description == "option --duration: at most 3600 s, got '2h'")
    }
}
