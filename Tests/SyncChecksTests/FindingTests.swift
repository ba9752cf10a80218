import SimCore
import Testing
import SyncChecks

@Suite struct FindingTests {
    @Test("describes itself in one line with place and difference")
    func describes() {
        let finding = Finding(invariant: .T2, client: "alice", chatId: 3, time: .start + .milliseconds(1_500),
                              expected: "one message", found: "two")
        #expect(finding.description.hasPrefix("T2 at "))
        #expect(finding.description.contains("client alice chat 3: expected one message, found two"))
    }
}
