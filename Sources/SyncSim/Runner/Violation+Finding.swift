/// Turning a checker's finding into a run's violation.
extension Violation {
    /// The violation a SyncChecks finding reports.
    /// - Parameters:
    ///   - finding: what the checker found.
    ///   - chatName: the scenario's name for a server chat id (default: the id in decimal); nil keeps the id.
    ///   - lastStep: the timeline step that ran last, if any.
    ///   - traceTail: the last trace records, oldest first.
    public init(
        _ finding: Finding,
        chatName: (Int64) -> String? = { String($0) },
        lastStep: StepReference? = nil,
        traceTail: [String] = []
    ) {
        self.init(
            check: .invariant(finding.invariant),
            client: finding.client,
            chat: finding.chatId.map { chatName($0) ?? String($0) },
            time: finding.time,
            expected: finding.expected,
            found: finding.found,
            lastStep: lastStep,
            traceTail: traceTail
        )
    }
}
