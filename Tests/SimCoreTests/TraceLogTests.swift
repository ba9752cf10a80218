import Testing
@testable import SimCore

@Suite struct TraceLogTests {
    @Test("FNV-1a 64 matches the published test vectors", arguments: [
        ("", UInt64(0xCBF2_9CE4_8422_2325)), ("a", 0xAF63_DC4C_8601_EC8C), ("foobar", 0x8594_4171_F739_67E8),
    ])
    func vectors(text: String, expected: UInt64) {
        #expect(FNV1a64.hash(text) == expected)
    }

    @Test("the digest of several runs is FNV-1a 64 over their digests, one per line, in order, and pinned")
    func digestOfDigests() {
        #expect(FNV1a64.digestHex(ofDigests: []) == "cbf29ce484222325")
        #expect(FNV1a64.digestHex(ofDigests: ["0123456789abcdef", "fedcba9876543210"]) == "b2c70eb56b36c3e9")
        #expect(FNV1a64.digestHex(ofDigests: ["fedcba9876543210", "0123456789abcdef"]) != "b2c70eb56b36c3e9")
    }

    @Test("the digest is over canonical lines, in order, and pinned")
    func digest() {
        var trace = TraceLog()
        trace.record(at: .start + .milliseconds(1), component: "link.a.up", kind: "loss", detail: "seq=1")
        trace.record(at: .start + .milliseconds(2), component: "tcp.0.i", kind: "rto", detail: "retry=1")
        #expect(trace.digest == FNV1a64.hash("1000000 link.a.up loss seq=1\n2000000 tcp.0.i rto retry=1\n"))
        #expect(trace.digestHex == String(trace.digest, radix: 16).leftPadded(to: 16))
        var digestOnly = TraceLog(keepsRecords: false)
        for record in trace.records { digestOnly.append(record) }
        #expect(digestOnly.digest == trace.digest)
        #expect(digestOnly.records.isEmpty && digestOnly.recordCount == 2)
        var recordedDigestOnly = TraceLog(keepsRecords: false)
        for record in trace.records {
            recordedDigestOnly.record(at: record.time, component: record.component, kind: record.kind,
                                      detail: record.detail)
        }
        recordedDigestOnly.record(at: .start + .milliseconds(3_000), component: "é", kind: "k")
        trace.record(at: .start + .milliseconds(3_000), component: "é", kind: "k")
        #expect(recordedDigestOnly.digest == trace.digest, "record(...) without keeping records hashes the same bytes")
        #expect(recordedDigestOnly.recordCount == 3)
        var swapped = TraceLog()
        for record in trace.records.reversed() { swapped.append(record) }
        #expect(swapped.digest != trace.digest)
    }

    @Test("decimal integers hash as their String spelling", arguments: [
        Int64(0), 7, 10, 99, 100, 999, 1_000, -1, -10, -45, -100, 1_000_000_007, 123_456_789_012, 9_999_999_999,
        Int64.max, Int64.min, Int64.min + 1,
    ])
    func decimal(value: Int64) {
        var hasher = FNV1a64()
        hasher.combine("x")
        hasher.combine(decimal: value)
        #expect(hasher.value == FNV1a64.hash("x" + String(value)))
    }

    @Test("decimal integers hash as their String spelling at every length and around every power of ten")
    func decimalLengths() {
        var values: [Int64] = []
        var power: Int64 = 1
        for _ in 0...18 {
            values += [power - 1, power, power + 1, power * 5 + 3]
            power = power.multipliedReportingOverflow(by: 10).overflow ? power : power * 10
        }
        var generator = SeededGenerator(seed: 16)
        for _ in 0..<2_000 { values.append(Int64(bitPattern: generator.next()) >> Int64(generator.next() % 64)) }
        for value in values + values.map({ $0 == .min ? $0 : -$0 }) {
            var hasher = FNV1a64()
            hasher.combine(decimal: value)
            #expect(hasher.value == FNV1a64.hash(String(value)), "\(value)")
        }
    }

    @Test("literals hash as their String spelling, one-scalar literals too")
    func literals() {
        for literal: StaticString in [",", "tcp.", " seq=", "é", ""] {
            var hasher = FNV1a64()
            hasher.combine(literal)
            #expect(hasher.value == FNV1a64.hash(literal.description), "\(literal)")
            var text = TraceText()
            text.write(literal: literal)
            #expect(text.string == literal.description)
        }
    }

    @Test("records written piece by piece hash as the joined strings, kept or not")
    func writtenPieces() {
        func write(_ trace: inout TraceLog) {
            trace.record(at: .start + .milliseconds(5), kind: "tx", component: { text in
                text.write("tcp.")
                text.write(12)
                text.write(".i")
            }, detail: { text in
                text.write("ACK seq=")
                text.write(Int64(-3))
                text.write(" len=")
                text.write(0)
            })
            trace.record(at: .start, kind: "host", component: { $0.write("é") })
        }
        var kept = TraceLog()
        write(&kept)
        #expect(kept.records.map(\.canonicalLine) == ["5000000 tcp.12.i tx ACK seq=-3 len=0\n", "0 é host \n"])
        var joined = TraceLog()
        joined.record(at: .start + .milliseconds(5), component: "tcp.12.i", kind: "tx", detail: "ACK seq=-3 len=0")
        joined.record(at: .start, component: "é", kind: "host")
        var digestOnly = TraceLog(keepsRecords: false)
        write(&digestOnly)
        #expect(kept.digest == joined.digest && digestOnly.digest == joined.digest)
        #expect(digestOnly.records.isEmpty && digestOnly.recordCount == 2)
        var disabled = TraceLog(isEnabled: false)
        write(&disabled)
        #expect(disabled.recordCount == 0 && disabled.digest == FNV1a64.offsetBasis)
    }

    @Test("a disabled log records nothing")
    func disabled() {
        var trace = TraceLog(isEnabled: false)
        trace.record(at: .start, component: "x", kind: "y")
        #expect(trace.recordCount == 0 && trace.digest == FNV1a64.offsetBasis)
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
