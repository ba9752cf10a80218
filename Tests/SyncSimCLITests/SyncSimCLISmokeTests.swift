import Testing
@testable import SyncSimCLI

@Suite struct SyncSimCLISmokeTests {
    @Test("module builds and links") func builds() {
        #expect(Bool(true))
    }
}
