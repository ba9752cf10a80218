import Testing
@testable import SimCore

@Suite struct SimCoreSmokeTests {
    @Test("module builds and links") func builds() {
        #expect(Bool(true))
    }
}
