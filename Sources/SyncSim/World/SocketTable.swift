/// A value per socket (the world's socket roles and frame decoders), in an array indexed by the socket's raw value.
///
/// The network numbers sockets densely, twice the connection number plus one for the acceptor, in `connect` order,
/// so a lookup is an index instead of a hash of the id and a probe of a table: two or three lookups per segment
/// received (the socket's role, its decoder, the role again for the byte counts) and one per frame sent. The array
/// keeps a slot for every socket up to the highest one set (`nil` once forgotten), as the network's own endpoint
/// table does; nothing iterates it, so no order reaches behaviour.
struct SocketTable<Value> {
    private var values: [Value?] = []

    /// The value of `socket`, or nil; setting nil forgets it.
    subscript(socket: SocketID) -> Value? {
        get {
            let index = socket.rawValue
            return index < values.count ? values[index] : nil
        }
        set {
            let index = socket.rawValue
            precondition(index >= 0, "socket numbers are not negative")
            if index >= values.count {
                guard newValue != nil else { return }
                values.append(contentsOf: repeatElement(nil, count: index + 1 - values.count))
            }
            values[index] = newValue
        }
    }

    /// Whether `socket` has a value, read in place.
    func contains(_ socket: SocketID) -> Bool {
        let index = socket.rawValue
        return index < values.count && values[index] != nil
    }

    /// Runs `body` on `socket`'s value in place (no copy out and back, which would copy-on-write what it holds);
    /// nil when the socket has none. `body` must not touch the table.
    mutating func modify<Result>(_ socket: SocketID, _ body: (inout Value) throws -> Result) rethrows -> Result? {
        let index = socket.rawValue
        guard index < values.count, values[index] != nil else { return nil }
        return try body(&values[index]!)
    }
}
