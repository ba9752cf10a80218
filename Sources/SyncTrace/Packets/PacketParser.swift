/// Takes a captured packet apart: link-layer header, IPv4 or IPv6 (extension headers skipped), TCP.
///
/// Every read is bounds-checked against the captured bytes; anything the reader cannot use comes back as a
/// `SkipReason`, never as a crash. Checksums are not verified: captures taken on the sending host carry
/// checksums the NIC fills in later (checksum offload), so they are wrong in the file.
public enum PacketParser {
    /// What one packet yields.
    public enum Outcome: Hashable, Sendable {
        /// A TCP segment, ready for reassembly.
        case tcp(TCPSegment)
        /// Nothing usable, and why.
        case skipped(SkipReason)
    }

    /// Parses one record of a capture with link type `linkType`.
    /// - Returns: the TCP segment it carries, or why it was skipped.
    public static func parse(_ record: CaptureRecord, linkType: LinkType) -> Outcome {
        let bytes = record.bytes
        let network: Network
        do {
            network = try linkHeader(bytes, linkType: linkType)
        } catch {
            return .skipped(error.reason)
        }
        return parseIP(bytes, at: network.offset, version: network.version, record: record)
    }

    private struct Network {
        var offset: Int
        /// 4, 6, or nil when the link layer does not say (raw IP: read the version nibble).
        var version: Int?
    }

    private struct Skip: Error {
        var reason: SkipReason
        init(_ reason: SkipReason) { self.reason = reason }
    }

    private static func linkHeader(_ bytes: [UInt8], linkType: LinkType) throws(Skip) -> Network {
        switch linkType {
        case .ethernet:
            // Destination and source MAC, then the EtherType; 802.1Q (8100), 802.1ad (88a8) and the old
            // QinQ value 9100 insert 4-byte tags before the real EtherType (IEEE 802.1Q-2018 §9).
            var offset = 12
            for _ in 0..<8 {
                guard let etherType = u16(bytes, offset) else { throw Skip(.truncatedLinkHeader) }
                switch etherType {
                case 0x8100, 0x88a8, 0x9100: offset += 4
                default: return try network(forEtherType: etherType, at: offset + 2)
                }
            }
            throw Skip(.notIP)
        case .linuxCooked:
            // SLL v1: packet type, ARPHRD type, address length, 8 address bytes, protocol
            // (tcpdump.org LINKTYPE_LINUX_SLL).
            guard let proto = u16(bytes, 14) else { throw Skip(.truncatedLinkHeader) }
            return try network(forEtherType: proto, at: 16)
        case .linuxCookedV2:
            // SLL v2: protocol, reserved, interface index, ARPHRD type, packet type, address length, 8 address bytes.
            guard bytes.count >= 20, let proto = u16(bytes, 0) else { throw Skip(.truncatedLinkHeader) }
            return try network(forEtherType: proto, at: 20)
        case .raw:
            return Network(offset: 0, version: nil)
        case .ipv4:
            return Network(offset: 0, version: 4)
        case .ipv6:
            return Network(offset: 0, version: 6)
        case .null, .loop:
            guard bytes.count >= 4 else { throw Skip(.truncatedLinkHeader) }
            var family = UInt32(bytes[0]) << 24 | UInt32(bytes[1]) << 16 | UInt32(bytes[2]) << 8 | UInt32(bytes[3])
            // LINKTYPE_NULL stores the family in the capturing host's byte order; families are small numbers,
            // so a value with high bits set was written little-endian.
            if linkType == .null && family > 0xffff { family = family.byteSwapped }
            switch family {
            case 2: return Network(offset: 4, version: 4)
            // AF_INET6 is 24 (NetBSD, OpenBSD), 28 (FreeBSD), 30 (macOS), 10 (Linux).
            case 10, 24, 28, 30: return Network(offset: 4, version: 6)
            default: throw Skip(.notIP)
            }
        default:
            throw Skip(.notIP)
        }
    }

    private static func network(forEtherType etherType: UInt16, at offset: Int) throws(Skip) -> Network {
        switch etherType {
        case 0x0800: return Network(offset: offset, version: 4)
        case 0x86dd: return Network(offset: offset, version: 6)
        default: throw Skip(.notIP)
        }
    }

    private static func parseIP(_ bytes: [UInt8], at offset: Int, version: Int?, record: CaptureRecord) -> Outcome {
        guard offset < bytes.count else { return .skipped(.truncatedIPHeader) }
        let nibble = Int(bytes[offset] >> 4)
        if let version, version != nibble { return .skipped(.malformedIPHeader) }
        do {
            let transport: Transport
            switch nibble {
            case 4: transport = try ipv4(bytes, at: offset, record: record)
            case 6: transport = try ipv6(bytes, at: offset, record: record)
            default: return .skipped(version == nil ? .notIP : .malformedIPHeader)
            }
            return try tcp(bytes, transport: transport, record: record)
        } catch let skip as Skip {
            return .skipped(skip.reason)
        } catch {
            return .skipped(.malformedIPHeader)
        }
    }

    /// Where the transport header starts and how long the IP payload is on the wire.
    private struct Transport {
        var source: IPAddress
        var destination: IPAddress
        var offset: Int
        var lengthOnWire: Int
    }

    private static func ipv4(_ bytes: [UInt8], at start: Int, record: CaptureRecord) throws -> Transport {
        guard start + 20 <= bytes.count else { throw Skip(.truncatedIPHeader) }
        let headerLength = Int(bytes[start] & 0x0f) * 4
        guard headerLength >= 20 else { throw Skip(.malformedIPHeader) }
        guard start + headerLength <= bytes.count else { throw Skip(.truncatedIPHeader) }
        var totalLength = Int(u16(bytes, start + 2)!)
        if totalLength == 0 {
            // TCP segmentation offload: the sender's stack leaves the length 0 for the NIC to fill in; the packet
            // runs to the end of the original frame.
            totalLength = max(0, record.originalLength - start)
        }
        // A total length past the frame's end on the wire names bytes that were never sent (a snap length cuts
        // what was captured, not the wire length): the packet ends with its frame.
        totalLength = min(totalLength, max(0, max(record.originalLength, bytes.count) - start))
        guard totalLength >= headerLength else { throw Skip(.malformedIPHeader) }
        let fragment = u16(bytes, start + 6)!
        if fragment & 0x3fff != 0 { throw Skip(.ipFragment) }
        guard bytes[start + 9] == 6 else { throw Skip(.notTCP) }
        return Transport(
            source: .v4(u32(bytes, start + 12)!), destination: .v4(u32(bytes, start + 16)!),
            offset: start + headerLength, lengthOnWire: totalLength - headerLength
        )
    }

    private static func ipv6(_ bytes: [UInt8], at start: Int, record: CaptureRecord) throws -> Transport {
        guard start + 40 <= bytes.count else { throw Skip(.truncatedIPHeader) }
        var payloadLength = Int(u16(bytes, start + 4)!)
        if payloadLength == 0 {
            // A jumbogram (RFC 2675) or a BIG TCP packet: the length is not in the fixed header; take the frame's.
            payloadLength = max(0, record.originalLength - (start + 40))
        }
        // As for IPv4: no payload runs past the frame's end on the wire.
        payloadLength = min(payloadLength, max(0, max(record.originalLength, bytes.count) - (start + 40)))
        var next = bytes[start + 6]
        var offset = start + 40
        // RFC 8200 §4: walk extension headers until the upper-layer header; each states its own length.
        for _ in 0..<16 {
            switch next {
            case 6:
                let source = IPAddress.v6(Array(bytes[(start + 8)..<(start + 24)]))
                let destination = IPAddress.v6(Array(bytes[(start + 24)..<(start + 40)]))
                let consumed = offset - (start + 40)
                guard consumed <= payloadLength else { throw Skip(.malformedIPHeader) }
                return Transport(
                    source: source, destination: destination, offset: offset, lengthOnWire: payloadLength - consumed
                )
            case 0, 43, 60, 135, 139, 140:
                // Hop-by-Hop, Routing, Destination Options, Mobility, HIP, Shim6: (length + 1) * 8 bytes.
                guard offset + 2 <= bytes.count else { throw Skip(.truncatedIPHeader) }
                next = bytes[offset]
                offset += (Int(bytes[offset + 1]) + 1) * 8
            case 44:
                // Fragment header, 8 bytes; only an atomic fragment (offset 0, no more fragments) is usable.
                guard offset + 8 <= bytes.count else { throw Skip(.truncatedIPHeader) }
                let fragment = u16(bytes, offset + 2)!
                guard fragment & 0xfff9 == 0 else { throw Skip(.ipFragment) }
                next = bytes[offset]
                offset += 8
            case 51:
                // Authentication Header: (length + 2) * 4 bytes (RFC 4302 §2.2).
                guard offset + 2 <= bytes.count else { throw Skip(.truncatedIPHeader) }
                next = bytes[offset]
                offset += (Int(bytes[offset + 1]) + 2) * 4
            case 50:
                throw Skip(.encrypted)
            default:
                throw Skip(.notTCP)
            }
            guard offset <= bytes.count else { throw Skip(.truncatedIPHeader) }
        }
        throw Skip(.malformedIPHeader)
    }

    private static func tcp(_ bytes: [UInt8], transport: Transport, record: CaptureRecord) throws -> Outcome {
        let start = transport.offset
        guard start + 20 <= bytes.count else {
            throw Skip(transport.lengthOnWire < 20 ? .malformedTCPHeader : .truncatedTCPHeader)
        }
        let headerLength = Int(bytes[start + 12] >> 4) * 4
        guard headerLength >= 20, headerLength <= transport.lengthOnWire else { throw Skip(.malformedTCPHeader) }
        guard start + headerLength <= bytes.count else { throw Skip(.truncatedTCPHeader) }
        let payloadLength = transport.lengthOnWire - headerLength
        let payloadStart = start + headerLength
        // Trailing bytes past the IP length are link padding (Ethernet minimum frame size), not payload.
        let payloadEnd = min(bytes.count, payloadStart + payloadLength)
        let segment = TCPSegment(
            source: TCPEndpoint(address: transport.source, port: u16(bytes, start)!),
            destination: TCPEndpoint(address: transport.destination, port: u16(bytes, start + 2)!),
            seq: u32(bytes, start + 4)!,
            ack: u32(bytes, start + 8)!,
            flags: TCPSegment.Flags(rawValue: bytes[start + 13] & 0x1f),
            payload: Array(bytes[payloadStart..<payloadEnd]),
            payloadLengthOnWire: payloadLength,
            packetNumber: record.number,
            timestamp: record.timestamp
        )
        return .tcp(segment)
    }

    private static func u16(_ bytes: [UInt8], _ offset: Int) -> UInt16? {
        guard offset >= 0, offset + 2 <= bytes.count else { return nil }
        return UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }

    private static func u32(_ bytes: [UInt8], _ offset: Int) -> UInt32? {
        guard offset >= 0, offset + 4 <= bytes.count else { return nil }
        return UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
            | UInt32(bytes[offset + 3])
    }
}
