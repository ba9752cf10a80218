import Testing

@testable import SyncTrace

@Suite struct CaptureTimestampTests {
    @Test(
        "timestamps print seconds and nine fraction digits",
        arguments: [
            (Int64(1_700_000_000_000_000_001), "1700000000.000000001"),
            (0, "0.000000000"),
            (-1, "-0.000000001"), (Int64.min, "-9223372036.854775808"),
        ])
    func text(nanoseconds: Int64, expected: String) {
        #expect(CaptureTimestamp(nanosecondsSinceEpoch: nanoseconds).description == expected)
    }
}
