/// The run's trace: every observable step as a record, and a digest over their canonical form.
///
/// The digest is FNV-1a 64 (`FNV1a64`) over the records' canonical lines, in order, so the same seed and scenario
/// give the same digest in any process on any machine. A long run can keep only the digest
/// (`keepsRecords == false`); a disabled log records nothing and its digest stays at the FNV offset basis.
public struct TraceLog: Sendable {
    /// Whether steps are recorded at all (digest included). Off for benchmarks.
    public var isEnabled: Bool
    /// Whether records are kept in memory (`records`); the digest is updated either way.
    public var keepsRecords: Bool
    /// The records kept, oldest first (empty when `keepsRecords` is false).
    public private(set) var records: [TraceRecord] = []
    /// The number of records appended so far (kept or not).
    public private(set) var recordCount: Int = 0
    private var hasher = FNV1a64()

    /// An empty trace.
    public init(isEnabled: Bool = true, keepsRecords: Bool = true) {
        self.isEnabled = isEnabled
        self.keepsRecords = keepsRecords
    }

    /// Appends a record. `detail` is evaluated only when the log is enabled.
    public mutating func record(
        at time: SimInstant,
        component: @autoclosure () -> String,
        kind: String,
        detail: @autoclosure () -> String = ""
    ) {
        guard isEnabled else { return }
        guard keepsRecords else {
            // Digest only (the usual run): feed the canonical line's pieces, the same bytes as
            // `TraceRecord.canonicalLine`, without building the joined line or the record on every event.
            hasher.combine(decimal: time.nanosecondsSinceStart)
            hasher.combine(UInt8(ascii: " "))
            hasher.combine(component())
            hasher.combine(UInt8(ascii: " "))
            hasher.combine(kind)
            hasher.combine(UInt8(ascii: " "))
            hasher.combine(detail())
            hasher.combine(UInt8(ascii: "\n"))
            recordCount += 1
            return
        }
        append(TraceRecord(time: time, component: component(), kind: kind, detail: detail()))
    }

    /// Appends a record whose component and detail are written piece by piece: for a log that keeps only the
    /// digest, straight into it (no strings built), otherwise into the record's strings. The digest is the same as
    /// `record(at:component:kind:detail:)` with the joined pieces. The writers run only when the log is enabled.
    public mutating func record(
        at time: SimInstant,
        kind: String,
        component: (inout TraceText) -> Void,
        detail: (inout TraceText) -> Void = { _ in }
    ) {
        guard isEnabled else { return }
        guard keepsRecords else {
            var text = TraceText(feeding: hasher)
            text.hasher.combine(decimal: time.nanosecondsSinceStart)
            text.hasher.combine(UInt8(ascii: " "))
            component(&text)
            text.hasher.combine(UInt8(ascii: " "))
            text.hasher.combine(kind)
            text.hasher.combine(UInt8(ascii: " "))
            detail(&text)
            text.hasher.combine(UInt8(ascii: "\n"))
            hasher = text.hasher
            recordCount += 1
            return
        }
        var componentText = TraceText()
        component(&componentText)
        var detailText = TraceText()
        detail(&detailText)
        append(TraceRecord(time: time, component: componentText.string, kind: kind, detail: detailText.string))
    }

    /// Appends `record` (when enabled).
    public mutating func append(_ record: TraceRecord) {
        guard isEnabled else { return }
        // The canonical line's bytes piece by piece (FNV-1a is a byte stream: the same digest as hashing
        // `record.canonicalLine`), without building the joined line for every record.
        hasher.combine(decimal: record.time.nanosecondsSinceStart)
        hasher.combine(UInt8(ascii: " "))
        hasher.combine(record.component)
        hasher.combine(UInt8(ascii: " "))
        hasher.combine(record.kind)
        hasher.combine(UInt8(ascii: " "))
        hasher.combine(record.detail)
        hasher.combine(UInt8(ascii: "\n"))
        recordCount += 1
        if keepsRecords { records.append(record) }
    }

    /// The 64-bit digest of every record appended so far.
    public var digest: UInt64 { hasher.value }

    /// The digest as 16 lowercase hex digits, as printed in reports.
    public var digestHex: String { FNV1a64.hex(digest) }

    /// The records of `kind` (optionally only from `component`), oldest first.
    public func records(ofKind kind: String, component: String? = nil) -> [TraceRecord] {
        records.filter { $0.kind == kind && (component == nil || $0.component == component) }
    }
}
