import SimCore
import Testing

@testable import SyncProtocol

/// The scanner's quick loop must never accept what the detailed scan refuses, and must agree with it on what it
/// accepts; hostile input always ends in the detailed scan's typed error.
@Suite struct MessagePackScannerTests {
    /// The quick loop's verdict (nil: refused) and the detailed scan's (nil: threw) for the same bytes.
    static func verdicts(
        _ bytes: [UInt8], limits: MessagePackLimits = MessagePackLimits()
    ) -> (quick: MessagePackScanner.Result?, detailed: MessagePackScanner.Result?) {
        bytes.withUnsafeBytes { raw in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: limits.maxDepth + 1) { stack in
                let quick = MessagePackScanner.quickScan(raw, maxDepth: limits.maxDepth, openCounts: stack)
                let detailed = try? MessagePackScanner.scanInDetail(
                    raw, limits: limits, validatesUTF8: false, openCounts: stack)
                return (quick, detailed)
            }
        }
    }

    @Test("the quick loop accepts only what the detailed scan accepts, with the same result", arguments: [
        UInt64(7), 8, 9,
    ])
    func quickLoopAgreesWithDetailedScan(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        var accepted = 0
        var refused = 0
        let interestingBytes: [UInt8] = [0xc1, 0xd0, 0xd1, 0xd3, 0xdc, 0xdd, 0xde, 0xdf, 0xc7, 0xd6, 0xff, 0x9f, 0x8f]
        for iteration in 0..<1500 {
            let bytes = TestSupport.mutated(
                TestSupport.randomValue(depth: 4, using: &generator).messagePackBytes(), interesting: interestingBytes,
                using: &generator)
            let (quick, detailed) = Self.verdicts(bytes)
            if let quick {
                accepted += 1
                #expect(quick == detailed, "seed \(seed), iteration \(iteration): \(TestSupport.hex(bytes))")
            } else {
                refused += 1
            }
        }
        #expect(accepted > 100 && refused > 100, "seed \(seed): both paths should be exercised")
    }

    @Test("hostile input is refused by the quick loop and named by the detailed scan",
          arguments: TestSupport.hostileMessagePack)
    func hostileInput(hex: String, kind: WireError.Kind) {
        let bytes = TestSupport.bytes(hex: hex)
        #expect(Self.verdicts(bytes).quick == nil)
        TestSupport.expectRefused(bytes, kind: kind)
    }

    @Test("nesting past the limit is refused by the quick loop and named by the detailed scan")
    func nestingPastTheLimit() {
        let limits = MessagePackLimits(maxDepth: 4)
        let atLimit = [UInt8](repeating: 0x91, count: 4) + [0xc0]
        let pastLimit = [UInt8](repeating: 0x91, count: 5) + [0xc0]
        #expect(Self.verdicts(atLimit, limits: limits).quick != nil)
        #expect(Self.verdicts(pastLimit, limits: limits).quick == nil)
        TestSupport.expectRefused(pastLimit, limits: limits, kind: .nestedTooDeeply)
    }

    @Test("signed encodings of non-negative integers stay signed on the quick path", arguments: [
        ("d0-05", MessagePackValue.int(5)),
        ("d1-00-05", .int(5)),
        ("d3-00-00-00-00-00-00-00-05", .int(5)),
        ("d0-fb", .int(-5)),
        ("cc-05", .uint(5)),
        ("92-d2-00-00-00-07-cd-00-07", .array([.int(7), .uint(7)])),
    ])
    func signedEncodings(hex: String, expected: MessagePackValue) throws {
        let bytes = TestSupport.bytes(hex: hex)
        #expect(Self.verdicts(bytes).quick != nil)
        #expect(try MessagePackValue(messagePack: bytes) == expected)
    }
}
