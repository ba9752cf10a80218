/// PROFILE (16) request: the user changes their name, `{firstName, lastName?, description?, photoToken?, avatarType}`
/// (PyMax 2.5.0 `pymax/api/self/payloads.py`, `ChangeProfilePayload`; sent by `service.py`, `change_profile`).
/// The model keeps one display name, `firstName` and `lastName` joined by a space; `description`, `photoToken` and
/// `avatarType` are read by no one here. A null (or absent) `firstName` keeps the name: python-max-client 1.0.2
/// `functions/profile.py` (`change_profile(bio=...)`) sends `firstName` and `lastName` null to change the
/// description alone (it was refused as malformed). Answered `{profile}` (`ProfileResponse`).
public struct ProfileRequest: Codable, Hashable, Sendable {
    /// The first name, nil to keep the name (wire key `firstName`).
    public var firstName: String?
    /// The last name, if any (wire key `lastName`).
    public var lastName: String?

    /// Creates a PROFILE request.
    public init(firstName: String?, lastName: String? = nil) {
        self.firstName = firstName
        self.lastName = lastName
    }

    /// The display name the model keeps: the first name, and the last one after a space when given and not empty;
    /// nil when the request keeps the name (no first name).
    public var displayName: String? {
        guard let firstName else { return nil }
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

/// CONFIG (22) request: the user changes settings, `{settings: {user?: {SEARCH_BY_PHONE?, INCOMING_CALL?, ...},
/// chats?: {"<chatId>": {dontDisturbUntil?, ...}}}}`: privacy settings (PyMax 2.5.0 `pymax/api/self/payloads.py`,
/// `ChangeProfileSettingsPayload`, `PrivacySettingsUpdate`; sent by `service.py`, `change_profile_settings`) or a
/// chat's notifications (python-max-client 1.0.2 `functions/chats.py`, `mute_chat`, `dontDisturbUntil` -1 for ever).
/// The model keeps the settings map as sent; their values change nothing on SyncSim's server. Answered `{hash}`
/// (`ConfigResponse`).
public struct ConfigRequest: Codable, Hashable, Sendable {
    /// The `settings` map as the wire carried it (wire key `settings`).
    public var settings: MessagePackValue

    /// Creates a CONFIG request carrying `settings`, a map.
    public init(settings: MessagePackValue) { self.settings = settings }

    /// Creates a CONFIG request changing the user settings `names` (each to nil).
    public init(userSettings names: [String]) {
        let user = MessagePackValue.map(names.sorted().map { MessagePackPair(.string($0), .nil) })
        settings = .map([MessagePackPair(.string("user"), user)])
    }

    /// The names of the user settings the request changes, sorted (the keys of `settings.user`).
    public var userSettings: [String] { sectionKeys("user") }

    /// The chats whose settings the request changes, as their ids are written (the keys of `settings.chats`), sorted.
    public var chatSettings: [String] { sectionKeys("chats") }

    private func sectionKeys(_ section: String) -> [String] {
        guard case .map(let sections) = settings,
              case .map(let entries)? = sections.first(where: { $0.key == .string(section) })?.value else { return [] }
        return entries.compactMap { if case .string(let name) = $0.key { name } else { nil } }.sorted()
    }

    private enum CodingKeys: String, CodingKey { case settings }

    /// - Throws: `DecodingError` when `settings` is missing, not a map, or names neither `user` nor `chats`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        settings = try container.decode(MessagePackValue.self, forKey: .settings)
        guard case .map(let sections) = settings else {
            throw DecodingError.typeMismatch(
                [String: MessagePackValue].self,
                DecodingError.Context(codingPath: container.codingPath + [CodingKeys.settings],
                                      debugDescription: "CONFIG `settings` is not a map"))
        }
        guard sections.contains(where: { $0.key == .string("user") || $0.key == .string("chats") }) else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: container.codingPath + [CodingKeys.settings],
                                      debugDescription: "CONFIG `settings` names neither `user` nor `chats`"))
        }
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
