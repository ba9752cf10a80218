import SimCore
import Testing

@testable import SyncProtocol

/// `MessagePackBuilder` checks bytes as it builds instead of after a scan: it must refuse exactly what the scanner's
/// detailed scan refuses (so every fault still reaches the scanner and gets its typed error), and flag a bad string
/// exactly when the scan with UTF-8 checks refuses the value.
@Suite struct MessagePackBuilderTests {
    /// What the builder made of `bytes`: nil when it refused them, else whether it saw a string that is not UTF-8.
    static func builderVerdict(
        _ bytes: [UInt8], limits: MessagePackLimits = MessagePackLimits()
    ) -> (value: MessagePackValue, sawInvalidUTF8: Bool)? {
        let keyCache = MessagePackKeyCache()
        defer { keyCache.deallocate() }
        return bytes.withUnsafeBytes { raw -> (MessagePackValue, Bool)? in
            guard let base = raw.baseAddress, !raw.isEmpty else { return nil }
            var builder = MessagePackBuilder(
                base: base.assumingMemoryBound(to: UInt8.self), count: raw.count, maxDepth: limits.maxDepth,
                keyCache: keyCache)
            guard let value = try? builder.value(), builder.consumedByteCount == raw.count else { return nil }
            return (value, builder.sawInvalidUTF8)
        }
    }

    /// Whether the detailed scan accepts `bytes`, with or without its UTF-8 checks.
    static func scanAccepts(_ bytes: [UInt8], limits: MessagePackLimits = MessagePackLimits(), utf8: Bool) -> Bool {
        bytes.withUnsafeBytes { raw in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: limits.maxDepth + 1) { stack in
                (try? MessagePackScanner.scanInDetail(raw, limits: limits, validatesUTF8: utf8, openCounts: stack))
                    != nil
            }
        }
    }

    @Test("the builder refuses exactly what the detailed scan refuses", arguments: [UInt64(11), 12, 13])
    func builderAgreesWithDetailedScan(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        var accepted = 0
        var refused = 0
        var badStrings = 0
        let interestingBytes: [UInt8] = [
            0xc1, 0xd0, 0xd1, 0xd3, 0xdc, 0xdd, 0xde, 0xdf, 0xc7, 0xc8, 0xd6, 0xd7, 0xff, 0x9f, 0x8f, 0xbf, 0xdb, 0xc6,
            0x80, 0xee, 0xf0,
        ]
        for iteration in 0..<2000 {
            let bytes = TestSupport.mutated(
                TestSupport.randomValue(depth: 4, using: &generator).messagePackBytes(), interesting: interestingBytes,
                appends: true, using: &generator)
            let limits = MessagePackLimits(maxDepth: Int.random(in: 1...4, using: &generator))
            let built = Self.builderVerdict(bytes, limits: limits)
            let context = "seed \(seed), iteration \(iteration), depth \(limits.maxDepth): \(TestSupport.hex(bytes))"
            #expect((built != nil) == Self.scanAccepts(bytes, limits: limits, utf8: false), "\(context)")
            if let built {
                accepted += 1
                #expect(built.sawInvalidUTF8 == !Self.scanAccepts(bytes, limits: limits, utf8: true), "\(context)")
                if built.sawInvalidUTF8 { badStrings += 1 }
            } else {
                refused += 1
            }
        }
        #expect(accepted > 100 && refused > 100 && badStrings > 5, "seed \(seed): every path should be exercised")
    }

    @Test("hostile input is refused by the builder and named by the scanner",
          arguments: TestSupport.hostileMessagePack)
    func hostileInput(hex: String, kind: WireError.Kind) {
        let bytes = TestSupport.bytes(hex: hex)
        #expect(Self.builderVerdict(bytes) == nil)
        TestSupport.expectRefused(bytes, kind: kind)
    }

    @Test("nesting past the limit is refused by the builder and named by the scanner")
    func nestingPastTheLimit() {
        let limits = MessagePackLimits(maxDepth: 4)
        let atLimit = [UInt8](repeating: 0x91, count: 4) + [0xc0]
        let pastLimit = [UInt8](repeating: 0x91, count: 5) + [0xc0]
        // Empty containers open nothing: four levels around an empty map are within the limit.
        let emptyInnermost = [UInt8](repeating: 0x91, count: 4) + [0x80]
        #expect(Self.builderVerdict(atLimit, limits: limits) != nil)
        #expect(Self.builderVerdict(emptyInnermost, limits: limits) != nil)
        #expect(Self.builderVerdict(pastLimit, limits: limits) == nil)
        TestSupport.expectRefused(pastLimit, limits: limits, kind: .nestedTooDeeply)
    }

    @Test("valid timestamps of each size are built; nanoseconds of 1e9 or more are refused", arguments: [
        ("d6-ff-00-00-00-01", MessagePackValue.timestamp(seconds: 1, nanoseconds: 0)),
        ("d7-ff-00-00-00-04-00-00-00-02", .timestamp(seconds: 2, nanoseconds: 1)),
        ("c7-0c-ff-00-00-00-03-ff-ff-ff-ff-ff-ff-ff-fe", .timestamp(seconds: -2, nanoseconds: 3)),
        ("c7-0c-ff-3b-9a-c9-ff-00-00-00-00-00-00-00-00", .timestamp(seconds: 0, nanoseconds: 999_999_999)),
    ])
    func timestamps(hex: String, expected: MessagePackValue) throws {
        let bytes = TestSupport.bytes(hex: hex)
        #expect(Self.builderVerdict(bytes)?.value == expected)
        #expect(try MessagePackValue(messagePack: bytes) == expected)
        var tooMany = bytes
        if bytes.count == 15 {
            tooMany.replaceSubrange(3..<7, with: [0x3b, 0x9a, 0xca, 0x00])  // 1e9 nanoseconds
            #expect(Self.builderVerdict(tooMany) == nil)
            #expect(throws: WireError.self) { _ = try MessagePackValue(messagePack: tooMany) }
        }
    }
}
