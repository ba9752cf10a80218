/// CHAT_JOIN (57) and LINK_INFO (89) request: `{link}`, a group's invite link from `join/` on (PyMax 2.5.0
/// `pymax/api/chats/payloads.py`, `JoinChatPayload` and `LinkInfoPayload`; `service.py`, `join_group` and
/// `resolve_group_by_link` cut a link to the text from `join/`, `enums.py`, `ChatLinkPrefix.JOIN`). CHAT_JOIN makes
/// the user a member; LINK_INFO only shows the group. Both are answered `{chat}` (`ChatUpdateResponse`'s shape:
/// PyMax requires `chat` of CHAT_JOIN and reads it of LINK_INFO).
public struct ChatLinkRequest: Codable, Hashable, Sendable {
    /// The link as sent (wire key `link`): `join/<token>`, or a whole address holding it.
    public var link: String

    /// Creates a CHAT_JOIN or LINK_INFO request.
    public init(link: String) { self.link = link }

    /// The link's token: the text after its last `join/`, nil when it has none or the token is empty.
    public var token: String? {
        let bytes = Array(link.utf8), marker = Array("join/".utf8)
        guard bytes.count > marker.count else { return nil }
        for start in stride(from: bytes.count - marker.count, through: 0, by: -1)
        where bytes[start..<start + marker.count].elementsEqual(marker) {
            let token = bytes[(start + marker.count)...]
            return token.isEmpty ? nil : String(decoding: token, as: UTF8.self)
        }
        return nil
    }
}

/// A chat folder of the user's (PyMax 2.5.0 `pymax/types/domain/folder.py`, `Folder`, whose every key has a
/// default): `{id, title, include[], filters[], options[], sourceId, updateTime}`.
public struct ChatFolder: Codable, Hashable, Sendable {
    /// The folder's id, chosen by the client (wire key `id`; PyMax's `create_folder` sends a UUID string).
    public var id: String
    /// The folder's name (wire key `title`).
    public var title: String
    /// The chats it holds, in the order given (wire key `include`).
    public var include: [Int64]
    /// The client's filters, kept as sent (wire key `filters`; their meaning is not modelled).
    public var filters: [MessagePackValue]
    /// The client's options, kept as sent (wire key `options`; their meaning is not modelled).
    public var options: [MessagePackValue]
    /// Where the folder came from (wire key `sourceId`; SyncSim's server sends 0).
    public var sourceId: Int64
    /// When it last changed, server milliseconds since the Unix epoch (wire key `updateTime`).
    public var updateTime: Int64

    /// Creates a folder; `updateTime` is server milliseconds since the Unix epoch.
    public init(id: String, title: String, include: [Int64], filters: [MessagePackValue] = [],
                options: [MessagePackValue] = [], sourceId: Int64 = 0, updateTime: Int64) {
        self.id = id
        self.title = title
        self.include = include
        self.filters = filters
        self.options = options
        self.sourceId = sourceId
        self.updateTime = updateTime
    }
}

/// FOLDERS_GET (272) request: `{folderSync}`, the folders' sync mark the client holds, 0 for none (PyMax 2.5.0
/// `pymax/api/self/payloads.py`, `GetFolderPayload`, sent by `service.py`, `get_folders`). SyncSim's server answers
/// the whole list whatever the mark.
public struct FoldersGetRequest: Codable, Hashable, Sendable {
    /// The client's sync mark, server milliseconds (wire key `folderSync`; absent means 0).
    public var folderSync: Int64

    /// Creates a FOLDERS_GET request.
    public init(folderSync: Int64 = 0) { self.folderSync = folderSync }

    private enum CodingKeys: String, CodingKey { case folderSync }

    /// - Throws: `DecodingError` when `folderSync` is not an integer.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        folderSync = try container.decodeIfPresent(Int64.self, forKey: .folderSync) ?? 0
    }
}

/// FOLDERS_UPDATE (274) request: `{id, title, include[], filters[], options?[]}`, a folder created or replaced by id
/// (PyMax 2.5.0 `pymax/api/self/payloads.py`, `CreateFolderPayload` and `UpdateFolderPayload`, sent by
/// `create_folder` and `update_folder`). Answered `{foldersOrder, folder, folderSync}` (`FoldersResponse`).
public struct FolderUpdateRequest: Codable, Hashable, Sendable {
    /// The folder (wire key `id`).
    public var id: String
    /// Its name (wire key `title`).
    public var title: String
    /// The chats it holds (wire key `include`; each an integer or its decimal string).
    public var include: [Int64]
    /// The client's filters (wire key `filters`; absent means none).
    public var filters: [MessagePackValue]
    /// The client's options (wire key `options`; `create_folder` sends none).
    public var options: [MessagePackValue]

    /// Creates a FOLDERS_UPDATE request.
    public init(id: String, title: String, include: [Int64], filters: [MessagePackValue] = [],
                options: [MessagePackValue] = []) {
        self.id = id
        self.title = title
        self.include = include
        self.filters = filters
        self.options = options
    }

    private enum CodingKeys: String, CodingKey { case id, title, include, filters, options }

    /// - Throws: `DecodingError` when `id` or `title` is missing or not a string, or `include` is missing or holds
    ///   something other than chat ids.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        title = try container.decode(String.self, forKey: .title)
        include = try container.decode([FieldId].self, forKey: .include).map(\.value)
        filters = try container.decodeIfPresent([MessagePackValue].self, forKey: .filters) ?? []
        options = try container.decodeIfPresent([MessagePackValue].self, forKey: .options) ?? []
    }
}

/// FOLDERS_DELETE (276) request: `{folderIds[]}` (PyMax 2.5.0 `pymax/api/self/payloads.py`, `DeleteFolderPayload`,
/// sent by `delete_folder`). Answered `{foldersOrder, folderSync}` (`FoldersResponse`).
public struct FoldersDeleteRequest: Codable, Hashable, Sendable {
    /// The folders to delete (wire key `folderIds`).
    public var folderIds: [String]

    /// Creates a FOLDERS_DELETE request.
    public init(folderIds: [String]) { self.folderIds = folderIds }
}

/// The answer to FOLDERS_GET, FOLDERS_UPDATE and FOLDERS_DELETE: `{foldersOrder, folders?, folder?,
/// allFilterExcludeFolders?, folderSync}` (PyMax 2.5.0 `pymax/types/domain/folder.py`: `FolderList` for FOLDERS_GET,
/// with `folders` and `allFilterExcludeFolders`; `FolderUpdate` for the others, with the `folder` changed).
public struct FoldersResponse: Codable, Hashable, Sendable {
    /// The user's folder ids in their order (wire key `foldersOrder`).
    public var foldersOrder: [String]
    /// Every folder, in that order (wire key `folders`; FOLDERS_GET only).
    public var folders: [ChatFolder]?
    /// The folder created or changed (wire key `folder`; FOLDERS_UPDATE only).
    public var folder: ChatFolder?
    /// Folders the all-chats filter leaves out (wire key `allFilterExcludeFolders`; FOLDERS_GET only, SyncSim's
    /// server sends none).
    public var allFilterExcludeFolders: [MessagePackValue]?
    /// The folders' sync mark: server milliseconds of their last change, 0 before any (wire key `folderSync`).
    public var folderSync: Int64

    /// Creates a folders answer.
    public init(foldersOrder: [String], folders: [ChatFolder]? = nil, folder: ChatFolder? = nil,
                allFilterExcludeFolders: [MessagePackValue]? = nil, folderSync: Int64) {
        self.foldersOrder = foldersOrder
        self.folders = folders
        self.folder = folder
        self.allFilterExcludeFolders = allFilterExcludeFolders
        self.folderSync = folderSync
    }
}
