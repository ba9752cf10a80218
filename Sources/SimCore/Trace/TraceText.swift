/// The text of one field of a trace record (its component or its detail), written piece by piece.
///
/// `TraceLog.record(at:kind:component:detail:)` hands one to each writer. A log that keeps only the digest (the
/// usual run) feeds the pieces straight into the digest, so a record costs no string building or allocation; a log
/// that keeps records joins the pieces into the field's string. The bytes are the same either way (FNV-1a is a byte
/// stream), so the digest does not depend on which it is. Integers are written as `String(value)` writes them.
public struct TraceText {
    @usableFromInline var hasher: FNV1a64
    /// The text written so far; stays empty while the pieces go into a digest.
    public private(set) var string: String = ""
    @usableFromInline let buildsString: Bool

    /// A text that builds `string` (for a kept record, or to get a field's string outside a log).
    public init() {
        hasher = FNV1a64()
        buildsString = true
    }

    /// A text whose pieces go into `hasher`.
    init(feeding hasher: FNV1a64) {
        self.hasher = hasher
        buildsString = false
    }

    /// Appends `piece`'s UTF-8 bytes.
    @inlinable
    public mutating func write(_ piece: String) {
        if buildsString { append(piece) } else { hasher.combine(piece) }
    }

    /// Appends a literal's bytes (hashed straight from the literal, with no string to look into).
    @inlinable
    public mutating func write(literal piece: StaticString) {
        if buildsString { append(piece.description) } else { hasher.combine(piece) }
    }

    /// Appends `value` in decimal, as `String(value)` spells it.
    @inlinable
    public mutating func write(_ value: Int) {
        if buildsString { append(String(value)) } else { hasher.combine(decimal: Int64(value)) }
    }

    /// Appends `value` in decimal, as `String(value)` spells it.
    @inlinable
    public mutating func write(_ value: Int64) {
        if buildsString { append(String(value)) } else { hasher.combine(decimal: value) }
    }

    @usableFromInline
    mutating func append(_ piece: String) { string += piece }
}
