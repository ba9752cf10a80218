import SyncSim

extension UsageError {
    /// Runs `body`, which parses or checks command-line options with the sweep types (`SweepAxis`, `SweepSpec`,
    /// `SweepShard`), and rethrows a `SweepError` from it as a usage error with the same message, so a bad option
    /// value gets the pointer to `--help` every other option error gets.
    /// - Throws: `UsageError` for a `SweepError`; any other error as `body` threw it.
    static func fromSweepOptions<Result>(_ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch let error as SweepError {
            throw UsageError(error.description)
        }
    }
}
