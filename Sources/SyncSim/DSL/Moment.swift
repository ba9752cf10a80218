/// A point of a run that expectations and held responses refer to: a virtual time from the run's start, or the
/// instant a labelled step ran (`"login-race"`, written `.named("login-race")` on the step).
///
/// A string literal is a step label: `Always(.loggedIn(client: "alice"), from: "relogin")`. A label on a `When` step
/// resolves when that step fires; a label that never runs leaves the window unopened (or, for `until:`, open to the
/// end of the run).
public enum Moment: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// This much virtual time after the run's start.
    case time(SimDuration)
    /// The instant the step carrying this label ran.
    case step(String)

    /// A step label: `"relogin"`.
    public init(stringLiteral label: String) { self = .step(label) }

    /// `seconds` seconds after the run's start: `from: .seconds(5)`.
    public static func seconds(_ seconds: Int) -> Moment { .time(.seconds(seconds)) }

    /// `milliseconds` milliseconds after the run's start.
    public static func milliseconds(_ milliseconds: Int) -> Moment { .time(.milliseconds(milliseconds)) }

    /// `minutes` minutes after the run's start: `until: .minutes(5)`, as `At(.minutes(5))` reads (`Moment` had only
    /// seconds and milliseconds, so a window in minutes had to be spelt `.time(.minutes(5))`).
    public static func minutes(_ minutes: Int) -> Moment { .time(.seconds(minutes * 60)) }

    /// `5.000s`, `step 'relogin'`.
    public var description: String {
        switch self {
        case .time(let offset): "\(SimInstant.start + offset)"
        case .step(let label): "step '\(label)'"
        }
    }

    /// The step label this moment waits for, or nil for a fixed time.
    public var label: String? { if case .step(let label) = self { label } else { nil } }
}
