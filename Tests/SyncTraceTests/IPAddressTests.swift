import Testing

@testable import SyncTrace

@Suite struct IPAddressTests {
    static func v6(_ groups: [UInt16]) -> IPAddress {
        .v6(groups.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xff)] })
    }

    @Test(
        "addresses print in dotted-quad and RFC 5952 form",
        arguments: [
            (IPAddress.v4(0xc612_0001), "198.18.0.1"),
            (v6([0x2001, 0xdb8, 0, 0, 0, 0, 0, 1]), "2001:db8::1"),
            (v6([0, 0, 0, 0, 0, 0, 0, 0]), "::"),
            (v6([0, 0, 0, 0, 0, 0, 0, 1]), "::1"),
            (v6([0x2001, 0xdb8, 0, 1, 0, 0, 0, 1]), "2001:db8:0:1::1"),  // the longer zero run wins
            (v6([0x2001, 0, 0, 1, 0, 0, 1, 1]), "2001::1:0:0:1:1"),  // the first of equal runs wins
            (v6([0x2001, 0xdb8, 0, 1, 1, 1, 1, 1]), "2001:db8:0:1:1:1:1:1"),  // a single zero group stays
        ])
    func text(address: IPAddress, expected: String) {
        #expect(address.description == expected)
    }

    @Test("IPv4 sorts before IPv6, each by value")
    func order() {
        #expect(IPAddress.v4(0xffff_ffff) < Self.v6([0, 0, 0, 0, 0, 0, 0, 0]))
        #expect(IPAddress.v4(1) < IPAddress.v4(2))
        #expect(Self.v6([0, 0, 0, 0, 0, 0, 0, 1]) < Self.v6([0, 0, 0, 0, 0, 0, 0, 2]))
    }
}
