import Testing
@testable import SimNet

@Suite struct SimNetSmokeTests {
    @Test("module builds and links") func builds() {
        #expect(Bool(true))
    }
}
