/// The CDN host photos are uploaded to: it accepts an upload of N bytes under a token the server handed out.
///
/// The bytes cross the client's access link in the world; this state machine only decides whether a finished
/// upload is accepted and remembers what it stores.
public struct CDNHost: Hashable, Sendable {
    private var issued: [String: Int] = [:]
    private var stored: [String: Int] = [:]

    /// An empty CDN host.
    public init() {}

    /// Registers a token the server handed out for a photo of `sizeBytes` bytes.
    mutating func issue(token: String, sizeBytes: Int) {
        issued[token] = sizeBytes
    }

    /// Accepts a finished upload if the token was issued and the size matches.
    /// - Returns: true when the upload is stored.
    public mutating func receiveUpload(token: String, sizeBytes: Int) -> Bool {
        guard let expected = issued[token], expected == sizeBytes else { return false }
        stored[token] = sizeBytes
        return true
    }

    /// Whether an upload under `token` finished and was stored.
    public func hasUpload(token: String) -> Bool { stored[token] != nil }

    /// Every stored upload as (token, size in bytes), sorted by token.
    public var uploads: [(token: String, sizeBytes: Int)] {
        stored.keys.sorted().map { ($0, stored[$0]!) }
    }
}
