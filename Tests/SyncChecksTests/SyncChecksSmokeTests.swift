import Testing
@testable import SyncChecks

@Suite struct SyncChecksSmokeTests {
    @Test("module builds and links") func builds() {
        #expect(Bool(true))
    }
}
