/// A coding key named at run time: a map key the model reads by name it only knows then (an attachment's untyped
/// keys, a quality key such as `MP4_720`, a map keyed by ids written as decimal strings). An integer key reads as
/// its decimal string.
struct NamedKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { stringValue = String(intValue) }
}
