/// PROFILE (16) request: the user changes their name, `{firstName, lastName?, description?, photoToken?, avatarType}`
/// (PyMax 2.5.0 `pymax/api/self/payloads.py`, `ChangeProfilePayload`; sent by `service.py`, `change_profile`).
/// The model keeps one display name, `firstName` and `lastName` joined by a space; `description`, `photoToken` and
/// `avatarType` are read by no one here. Answered `{profile}` (`ProfileResponse`).
public struct ProfileRequest: Codable, Hashable, Sendable {
    /// The first name (wire key `firstName`).
    public var firstName: String
    /// The last name, if any (wire key `lastName`).
    public var lastName: String?

    /// Creates a PROFILE request.
    public init(firstName: String, lastName: String? = nil) {
        self.firstName = firstName
        self.lastName = lastName
    }

    /// The display name the model keeps: the first name, and the last one after a space when given and not empty.
    public var displayName: String {
        guard let lastName, !lastName.isEmpty else { return firstName }
        return firstName + " " + lastName
    }
}

/// PROFILE response: `{profile}`, the user's profile as LOGIN gives it (PyMax 2.5.0 `change_profile` reads it as
/// `Profile` and takes it for its own).
public struct ProfileResponse: Codable, Hashable, Sendable {
    /// The changed profile (wire key `profile`).
    public var profile: Profile

    /// Creates a PROFILE response.
    public init(profile: Profile) { self.profile = profile }
}

/// CONFIG (22) request: the user changes privacy settings, `{settings: {user: {SEARCH_BY_PHONE?, INCOMING_CALL?,
/// ...}}}` (PyMax 2.5.0 `pymax/api/self/payloads.py`, `ChangeProfileSettingsPayload`, `PrivacySettingsUpdate`; sent by
/// `service.py`, `change_profile_settings`). The model keeps the names of the settings changed, not their values.
/// Answered `{hash}` (`ConfigResponse`).
public struct ConfigRequest: Codable, Hashable, Sendable {
    /// The names of the user settings the request changes, sorted (the keys of `settings.user`).
    public var userSettings: [String]

    /// Creates a CONFIG request naming the settings it changes.
    public init(userSettings: [String]) { self.userSettings = userSettings.sorted() }

    private enum CodingKeys: String, CodingKey { case settings }
    private enum SettingsKeys: String, CodingKey { case user }
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
    /// Any value: only the setting's name is kept.
    private struct Ignored: Codable {
        init() {}
        init(from decoder: any Decoder) throws {}
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        }
    }

    public init(from decoder: any Decoder) throws {
        let settings = try decoder.container(keyedBy: CodingKeys.self)
            .nestedContainer(keyedBy: SettingsKeys.self, forKey: .settings)
        let user = try settings.nestedContainer(keyedBy: AnyKey.self, forKey: .user)
        userSettings = user.allKeys.map(\.stringValue).sorted()
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        var settings = container.nestedContainer(keyedBy: SettingsKeys.self, forKey: .settings)
        var user = settings.nestedContainer(keyedBy: AnyKey.self, forKey: .user)
        for name in userSettings { try user.encode(Ignored(), forKey: AnyKey(stringValue: name)) }
    }
}

/// CONFIG response: `{hash}`, the user's settings version, which PyMax 2.5.0 stores with its session
/// (`session.sync.config_hash`). SyncSim's hash is `"<user id>-<changes so far>"`.
public struct ConfigResponse: Codable, Hashable, Sendable {
    /// The settings version (wire key `hash`).
    public var hash: String

    /// Creates a CONFIG response.
    public init(hash: String) { self.hash = hash }
}
