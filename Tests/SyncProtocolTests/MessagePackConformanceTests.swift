import Foundation
import Testing

@testable import SyncProtocol

/// One case of the public MessagePack test suite (Fixtures/msgpack): a value and every valid encoding of it.
struct ConformanceCase: CustomTestStringConvertible, Sendable {
    var group: String
    var index: Int
    var value: MessagePackValue
    var encodings: [String]

    var testDescription: String { "\(group) #\(index): \(encodings[0])" }

    static func load() throws -> [ConformanceCase] {
        let data = try Data(contentsOf: TestSupport.fixtures.appendingPathComponent("msgpack/msgpack-test-suite.json"))
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: [[String: Any]]])
        var cases: [ConformanceCase] = []
        for group in root.keys.sorted() {
            for (index, entry) in root[group]!.enumerated() {
                let encodings = try #require(entry["msgpack"] as? [String])
                cases.append(
                    ConformanceCase(group: group, index: index, value: try value(of: entry), encodings: encodings))
            }
        }
        return cases
    }

    /// The suite's value in canonical form: non-negative integers `.uint`, negative `.int`, a fraction exactly
    /// representable in 32 bits `.float` (the suite lists float 32 first), any other fraction `.double`.
    static func value(of entry: [String: Any]) throws -> MessagePackValue {
        if let bignum = entry["bignum"] as? String {
            if let number = UInt64(bignum) { return .uint(number) }
            return .int(try #require(Int64(bignum)))
        }
        if entry.keys.contains("nil") { return .nil }
        if let flag = entry["bool"] as? Bool { return .bool(flag) }
        if let hex = entry["binary"] as? String { return .binary(TestSupport.bytes(hex: hex)) }
        if let number = entry["number"] { return try json(number) }
        if let text = entry["string"] as? String { return .string(text) }
        if let array = entry["array"] { return try json(array) }
        if let map = entry["map"] { return try json(map) }
        if let stamp = entry["timestamp"] as? [NSNumber] {
            return .timestamp(seconds: stamp[0].int64Value, nanoseconds: stamp[1].uint32Value)
        }
        if let ext = entry["ext"] as? [Any] {
            let type = try #require(ext[0] as? NSNumber)
            return .ext(type: type.int8Value, data: TestSupport.bytes(hex: try #require(ext[1] as? String)))
        }
        throw ConformanceError(description: "unknown case shape \(entry.keys.sorted())")
    }

    static func json(_ object: Any) throws -> MessagePackValue {
        switch object {
        case let text as String: return .string(text)
        case let array as [Any]: return .array(try array.map(json))
        case let map as [String: Any]:
            return .map(try map.keys.sorted().map { MessagePackPair(.string($0), try json(map[$0]!)) })
        case let number as NSNumber:
            if let integer = number as? Int64 { return integer < 0 ? .int(integer) : .uint(UInt64(integer)) }
            let fraction = number.doubleValue
            return Double(Float(fraction)) == fraction ? .float(Float(fraction)) : .double(fraction)
        default:
            throw ConformanceError(description: "unexpected JSON \(object)")
        }
    }
}

struct ConformanceError: Error, CustomStringConvertible {
    var description: String
}

/// Whether `decoded` is the suite's `expected` value; numbers compare by value across integer and float encodings.
func sameValue(_ decoded: MessagePackValue, _ expected: MessagePackValue) -> Bool {
    func number(_ value: MessagePackValue) -> (integer: Int128?, real: Double)? {
        switch value {
        case .int(let number): (Int128(number), Double(number))
        case .uint(let number): (Int128(number), Double(number))
        case .float(let number): (nil, Double(number))
        case .double(let number): (nil, number)
        default: nil
        }
    }
    if let left = number(decoded), let right = number(expected) {
        if let leftInteger = left.integer, let rightInteger = right.integer { return leftInteger == rightInteger }
        return left.real == right.real
    }
    switch (decoded, expected) {
    case (.array(let left), .array(let right)):
        return left.count == right.count && zip(left, right).allSatisfy(sameValue)
    case (.map(let left), .map(let right)):
        return left.count == right.count
            && zip(left, right).allSatisfy { sameValue($0.key, $1.key) && sameValue($0.value, $1.value) }
    default:
        return decoded == expected
    }
}

@Suite struct MessagePackConformanceTests {
    static let cases: [ConformanceCase] = (try? ConformanceCase.load()) ?? []

    @Test("the suite's fixture loads with every group") func suiteLoads() {
        #expect(Self.cases.count > 80)
        #expect(Set(Self.cases.map(\.group)).count == 15)
    }

    @Test("every listed encoding decodes to the value", arguments: cases)
    func decodesEveryEncoding(_ testCase: ConformanceCase) throws {
        for hex in testCase.encodings {
            let decoded = try MessagePackValue(messagePack: TestSupport.bytes(hex: hex))
            #expect(sameValue(decoded, testCase.value), "\(hex) decoded to \(decoded), expected \(testCase.value)")
        }
    }

    /// Where the suite lists a shortest encoding first, ours must be that short; otherwise (a float32 shorter than
    /// the integer forms of a bignum) any listed encoding will do.
    @Test("encoding the value yields a listed encoding, the shortest where the suite lists it first", arguments: cases)
    func encodesShortest(_ testCase: ConformanceCase) throws {
        let encoded = TestSupport.hex(testCase.value.messagePackBytes())
        #expect(testCase.encodings.contains(encoded), "encoded \(encoded), listed \(testCase.encodings)")
        let lengths = testCase.encodings.map { TestSupport.bytes(hex: $0).count }
        if lengths[0] == lengths.min() {
            #expect(
                TestSupport.bytes(hex: encoded).count == lengths[0],
                "encoded \(encoded), first \(testCase.encodings[0])")
        }
    }
}
