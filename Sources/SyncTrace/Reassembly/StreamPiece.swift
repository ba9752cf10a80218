/// One step along a reassembled stream: bytes, or a gap where bytes are missing. Pieces follow stream order.
public enum StreamPiece: Hashable, Sendable {
    /// Bytes the capture holds.
    case data(ByteRun)
    /// Bytes the capture is missing.
    case gap(StreamGap)

    /// Stream offset where the piece starts.
    public var offset: Int64 {
        switch self {
        case .data(let run): run.offset
        case .gap(let gap): gap.offset
        }
    }

    /// Stream offset one past where the piece ends.
    public var endOffset: Int64 {
        switch self {
        case .data(let run): run.endOffset
        case .gap(let gap): gap.endOffset
        }
    }
}
