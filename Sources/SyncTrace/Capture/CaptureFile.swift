import CPcap
import Foundation

/// An open capture file read record by record through libpcap; the only place SyncTrace calls into CPcap.
///
/// libpcap reads classic pcap (microsecond and nanosecond, either byte order) and pcapng. The file is opened
/// with nanosecond precision (`pcap_open_offline_with_tstamp_precision`), so timestamps of every format come
/// back in nanoseconds. A pcapng file whose interfaces use different link types is rejected by libpcap.
package final class CaptureFile {
    /// The path as given.
    package let path: String
    /// The container format, from the file's magic number.
    package let format: CaptureFormat
    /// The link-layer type of every record.
    package let linkType: LinkType
    /// The snap length the capture was taken with (bytes kept per packet).
    package let snapLength: Int
    private let handle: OpaquePointer
    private var recordsRead = 0

    /// Opens `path` for reading.
    /// - Throws: `TraceError` `.cannotOpen` (no such file), `.notACaptureFile` (unknown magic), `.truncatedFile`
    ///   (a file header cut short), `.unsupportedLinkType` (a link type not in `LinkType.supported`).
    package init(path: String) throws {
        guard let format = try CaptureFormat.sniff(path: path) else {
            throw TraceError(
                .notACaptureFile, file: path,
                detail: "expected a pcap (a1b2c3d4, a1b23c4d) or pcapng (0a0d0d0a) magic number in the first 4 bytes"
            )
        }
        var errorBuffer = [CChar](repeating: 0, count: Int(PCAP_ERRBUF_SIZE) + 1)
        let opened = pcap_open_offline_with_tstamp_precision(
            path, UInt32(PCAP_TSTAMP_PRECISION_NANO), &errorBuffer
        )
        guard let opened else {
            let message = String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
            // A pcapng file cut inside its section header block reads to libpcap as "unknown file format".
            if message.contains("truncated") || size.map({ $0 < format.fileHeaderBytes }) == true {
                throw TraceError(.truncatedFile, file: path,
                                 detail: Self.headerBreak(format: format, size: size, libpcap: message))
            }
            throw TraceError(.malformedRecord, file: path, detail: "file header: \(message)")
        }
        let dataLinkType = pcap_datalink(opened)
        let linkType: LinkType =
            switch dataLinkType {
            case DLT_RAW: .raw
            case DLT_LOOP: .loop
            default: LinkType(rawValue: UInt32(clamping: dataLinkType))
            }
        guard linkType.isSupported else {
            pcap_close(opened)
            throw TraceError(
                .unsupportedLinkType, file: path,
                detail: "\(linkType); supported: \(LinkType.supported.map(\.description).joined(separator: ", "))"
            )
        }
        self.path = path
        self.format = format
        self.linkType = linkType
        self.snapLength = Int(pcap_snapshot(opened))
        self.handle = opened
    }

    deinit { pcap_close(handle) }

    /// The next packet record, or nil at the end of the file.
    /// - Throws: `TraceError` `.truncatedFile` when the file ends inside a record, `.malformedRecord` when
    ///   libpcap rejects one (e.g. a captured length above the snap length); both name the packet number.
    package func nextRecord() throws -> CaptureRecord? {
        var header: UnsafeMutablePointer<pcap_pkthdr>?
        var data: UnsafePointer<UInt8>?
        let status = pcap_next_ex(handle, &header, &data)
        let number = recordsRead + 1
        switch status {
        case 1:
            guard let header, let data else { return nil }
            recordsRead = number
            let pkthdr = header.pointee
            let capturedLength = Int(pkthdr.caplen)
            let bytes = [UInt8](UnsafeBufferPointer(start: data, count: capturedLength))
            // With nanosecond precision requested, tv_usec carries nanoseconds
            // (pcap_open_offline_with_tstamp_precision(3PCAP)). A classic pcap record's fraction is stored as is
            // (libpcap scales a microsecond one by 1000 and checks no range): one of a second or more is a corrupt
            // record. Read as it is, it moved the packet seconds ahead, and every later packet was then read at that
            // time ("time went back"), so one bad field flattened the rest of the capture's timing.
            guard pkthdr.ts.tv_usec >= 0, pkthdr.ts.tv_usec < 1_000_000_000 else {
                let stored = format == .pcapMicroseconds
                    ? "\(pkthdr.ts.tv_usec / 1000) µs (at most 999999)"
                    : "\(pkthdr.ts.tv_usec) ns (at most 999999999)"
                throw TraceError(
                    .malformedRecord, file: path, packetNumber: number,
                    detail: "the record header's timestamp fraction is \(stored): not a time")
            }
            let timestamp = CaptureTimestamp(seconds: Int64(pkthdr.ts.tv_sec), nanoseconds: Int64(pkthdr.ts.tv_usec))
            return CaptureRecord(
                number: number, timestamp: timestamp, originalLength: Int(pkthdr.len), bytes: bytes
            )
        case PCAP_ERROR_BREAK:
            return nil
        default:
            let message = String(cString: pcap_geterr(handle))
            if message.contains("different from the type of the first interface") {
                throw TraceError(
                    .unsupportedLinkType, file: path, packetNumber: number,
                    detail: "the capture's interfaces have different link types (libpcap: \(message)); libpcap, "
                        + "which reads captures for SyncSim, takes one link type per file: capture on one interface "
                        + "(dumpcap -i IFACE), or on all as one Linux cooked link (dumpcap -i any)")
            }
            guard message.contains("truncated") else {
                throw TraceError(
                    .malformedRecord, file: path, packetNumber: number, detail: message + Self.byteOrderHint(message))
            }
            throw TraceError(.truncatedFile, file: path, packetNumber: number, detail: Self.recordBreak(libpcap: message))
        }
    }

    /// For libpcap's `pcapng block size N > maximum M` where N's bytes read the other way round fit: a later
    /// section of the file written in the other byte order (valid pcapng, which libpcap does not read past the
    /// first section's byte order); "" for any other message.
    private static func byteOrderHint(_ message: String) -> String {
        guard message.contains("block size"), message.contains("> maximum"),
            let size = message.split(whereSeparator: { !$0.isNumber }).first.flatMap({ UInt32($0) }),
            size.byteSwapped < 16 * 1024 * 1024
        else { return "" }
        return " (read the other way round the length is \(size.byteSwapped) bytes: a later pcapng section written in "
            + "the other byte order, which libpcap, reading captures for SyncSim, does not follow)"
    }

    /// Where a file ends inside its file header, in the reader's words, with libpcap's own after them:
    /// `the file ends after 4 bytes (its magic number only), inside its 24-byte pcap file header, before any packet
    /// (libpcap: truncated dump file; tried to read 24 file header bytes, only got 0)`.
    private static func headerBreak(format: CaptureFormat, size: Int?, libpcap message: String) -> String {
        let header = format != .pcapng ? "\(format.fileHeaderBytes)-byte pcap file header"
            : size.map { $0 < format.fileHeaderBytes } == true
                ? "pcapng section header block (at least \(format.fileHeaderBytes) bytes)"
                : "pcapng section header block"
        let ends = size.map { $0 <= 4 ? "after \($0) bytes (its magic number only)" : "after \($0) bytes" }
        return "the file ends \(ends.map { $0 + ", " } ?? "")inside its \(header), before any packet "
            + "(libpcap: \(message))"
    }

    /// Where a file ends inside a packet record, from libpcap's `tried to read N KIND bytes, only got M`:
    /// `the file ends inside the record, after 0 of its 76 captured bytes (libpcap: ...)`.
    private static func recordBreak(libpcap message: String) -> String {
        let numbers = message.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        let part = if message.contains("captured bytes") {
            "the record, after"
        } else if message.contains("header bytes") {
            "the record header, after"
        } else {
            "a block, after"
        }
        guard numbers.count >= 2, message.contains("only got") else {
            return "the file ends inside a record (libpcap: \(message))"
        }
        let noun = message.contains("captured bytes") ? "captured bytes" : "bytes"
        return "the file ends inside \(part) \(numbers[numbers.count - 1]) of its \(numbers[numbers.count - 2]) "
            + "\(noun) (libpcap: \(message))"
    }
}
