import Testing
@testable import SyncClient

@Suite struct SyncClientSmokeTests {
    @Test("module builds and links") func builds() {
        #expect(Bool(true))
    }
}
