// `Int` overloads of SimDuration's unit constructors, for scenario code.
//
// SimCore offers `seconds(_: Int64)` and `seconds(_: Double)`; an integer literal fits both equally, so
// `.seconds(5)` is ambiguous. `Int` is the literal's default type and wins, and loop counters (`Int`) need no
// conversion: `.seconds(index)`.
extension SimDuration {
    /// `value` seconds.
    public static func seconds(_ value: Int) -> SimDuration { .seconds(Int64(value)) }
    /// `value` milliseconds.
    public static func milliseconds(_ value: Int) -> SimDuration { .milliseconds(Int64(value)) }
    /// `value` microseconds.
    public static func microseconds(_ value: Int) -> SimDuration { .microseconds(Int64(value)) }
    /// `value` nanoseconds.
    public static func nanoseconds(_ value: Int) -> SimDuration { .nanoseconds(Int64(value)) }
    /// `value` minutes.
    public static func minutes(_ value: Int) -> SimDuration { .minutes(Int64(value)) }
    /// `value` hours.
    public static func hours(_ value: Int) -> SimDuration { .hours(Int64(value)) }
}
