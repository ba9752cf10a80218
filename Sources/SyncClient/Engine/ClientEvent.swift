import SimCore
import SyncProtocol

/// An input to a client engine, fed by its driver together with the virtual time it happened at.
public enum ClientEvent: Hashable, Sendable {
    /// The app starts (first launch or after a restart): the engine rebuilds itself from its database.
    case start
    /// The chat connection asked for with `ClientAction.connect` is established.
    case connected(ClientConnectionID)
    /// The connection could not be established (no network, refused).
    case connectFailed(ClientConnectionID)
    /// An established connection closed or broke.
    case disconnected(ClientConnectionID)
    /// A whole packet arrived on the chat connection.
    case packetReceived(Packet, on: ClientConnectionID)
    /// A timer started with `ClientAction.startTimer` fired.
    case timerFired(ClientTimerID)
    /// An upload asked for with `ClientAction.upload` finished; `succeeded` is false when it failed or was refused.
    case uploadFinished(UploadID, succeeded: Bool)
    /// The driver reports bytes the client's sockets carried (for metrics), in bytes.
    case bytesTransferred(upBytes: Int, downBytes: Int)
    /// The user did something.
    case user(UserAction)
    /// The OS reports that the device's network became unusable (`isAvailable` false) or usable again (true), as
    /// iOS `NWPathMonitor` and Android `ConnectivityManager` callbacks do. An engine may stop retrying while the
    /// network is gone and reconnect at once when it is back, instead of waiting for TCP's SYN retries or its
    /// backoff timer.
    case connectivityChanged(isAvailable: Bool)
}
