/// What decrypting a connection's TLS with a key log gave: the version, the key log, and the encrypted streams.
///
/// A decrypted connection's `clientToServer` and `serverToClient` hold the TLS application data (the plaintext
/// bytes, each run timestamped with the packet that completed its TLS record), keeping the ciphertext streams'
/// counts and flags (segments, retransmissions, SYN/FIN/RST, anomalies); the ciphertext streams are kept here.
public struct TLSSession: Hashable, Sendable {
    /// `TLS 1.3`, `TLS 1.2`, ... as negotiated in the ServerHello; `TLS` when the capture does not show it.
    public var version: String
    /// The key log's path as given.
    public var keyLog: String
    /// The client's bytes as captured (TLS records).
    public var ciphertextClientToServer: TCPStreamTrace
    /// The server's bytes as captured (TLS records).
    public var ciphertextServerToClient: TCPStreamTrace

    /// A session from its fields.
    public init(
        version: String, keyLog: String, ciphertextClientToServer: TCPStreamTrace,
        ciphertextServerToClient: TCPStreamTrace
    ) {
        self.version = version
        self.keyLog = keyLog
        self.ciphertextClientToServer = ciphertextClientToServer
        self.ciphertextServerToClient = ciphertextServerToClient
    }
}
