import Testing
@testable import SyncProtocol

@Suite struct SyncProtocolSmokeTests {
    @Test("module builds and links") func builds() {
        #expect(Bool(true))
    }
}
