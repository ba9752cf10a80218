/// The CDN host photos are uploaded to: it accepts an upload of N bytes under a token the server handed out.
///
/// The bytes cross the client's access link in the world; this state machine only decides whether a finished
/// upload is accepted and remembers what it stores.
public struct CDNHost: Hashable, Sendable {
    /// What the server handed out a token for.
    private struct Issued: Hashable, Sendable {
        var photoId: Int64
        /// The size the client announced, or nil when it did not (the field's clients).
        var sizeBytes: Int?
    }

    private var issued: [String: Issued] = [:]
    private var stored: [String: Int] = [:]

    /// An empty CDN host.
    public init() {}

    /// Registers a token the server handed out for photo `photoId` of `sizeBytes` bytes (nil: any size).
    mutating func issue(token: String, photoId: Int64, sizeBytes: Int?) {
        issued[token] = Issued(photoId: photoId, sizeBytes: sizeBytes)
    }

    /// Accepts a finished upload if the token was issued and the size matches the announced one, if any.
    /// - Returns: true when the upload is stored.
    public mutating func receiveUpload(token: String, sizeBytes: Int) -> Bool {
        guard let expected = issued[token], expected.sizeBytes.map({ $0 == sizeBytes }) ?? true else { return false }
        stored[token] = sizeBytes
        return true
    }

    /// Whether an upload under `token` finished and was stored.
    public func hasUpload(token: String) -> Bool { stored[token] != nil }

    /// The size in bytes the client announced when `token` was handed out; nil when it announced none (the field's
    /// clients) or the token was never handed out.
    public func announcedSizeBytes(token: String) -> Int? { issued[token]?.sizeBytes }

    /// The photo id issued with `token`, or nil for a token the server never handed out.
    public func photoId(token: String) -> Int64? { issued[token]?.photoId }

    /// The token issued for photo `photoId`, or nil for none.
    /// - Complexity: O(n) in the tokens issued; called once per upload that reaches `syncsim serve`'s HTTP end.
    public func token(photoId: Int64) -> String? {
        issued.filter { $0.value.photoId == photoId }.keys.sorted().first
    }

    /// Every stored upload as (token, size in bytes), sorted by token.
    public var uploads: [(token: String, sizeBytes: Int)] {
        stored.keys.sorted().map { ($0, stored[$0]!) }
    }
}
