import Testing
@testable import SyncTrace

@Suite struct SyncTraceSmokeTests {
    @Test("module builds and links") func builds() {
        #expect(Bool(true))
    }
}
