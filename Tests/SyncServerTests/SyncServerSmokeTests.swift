import Testing
@testable import SyncServer

@Suite struct SyncServerSmokeTests {
    @Test("module builds and links") func builds() {
        #expect(Bool(true))
    }
}
