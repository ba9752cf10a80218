import Testing
@testable import SyncSim

@Suite struct SyncSimSmokeTests {
    @Test("module builds and links") func builds() {
        #expect(Bool(true))
    }
}
