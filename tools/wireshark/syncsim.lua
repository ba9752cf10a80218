-- SyncSim protocol dissector for Wireshark and tshark (Lua 5.2, Wireshark 3.x/4.x).
--
-- The messenger's binary sync protocol over TCP (docs/protocol.md): each frame is a 10-byte big-endian header and a
-- payload that is one MessagePack value.
--   offset 0  u8   ver      protocol version (10)
--          1  u8   cmd      0 request, 1 response, 2 push, 3 error (the field also sends pushes as cmd 0)
--          2  u16  seq      ties a response to its request
--          4  u16  opcode
--          6  u8   flag     compression: 0 none, 0xFF zstd (as field clients decode it), any other value an LZ4 block
--          7  u24  length   payload bytes on the wire
-- (Layout "cmd16-seq8", a preference, reads bytes 1-3 as cmd u16 + seq u8, as some field clients do.)
--
-- Fields for display filters: syncsim.ver, syncsim.cmd, syncsim.seq, syncsim.opcode, syncsim.flag,
-- syncsim.compression, syncsim.length, syncsim.payload_length, syncsim.key, e.g. `syncsim.opcode == 64`.
-- Frames are reassembled across TCP segments; several frames in one segment are each dissected. LZ4 payloads are
-- decompressed here (a new "Decompressed payload" tab), zstd payloads are shown as such (Lua has no zstd).
--
-- Use: tshark -X lua_script:tools/wireshark/syncsim.lua -r run.pcapng -Y syncsim
--  or: make wireshark-plugin (copies this file to Wireshark's personal plugin folder).
-- Registration: TCP port preference (default 5443, the server port of `syncsim run --pcap`) and a heuristic on
-- every TCP conversation (a plausible header whose payload starts a MessagePack map); and a heuristic on Wireshark's
-- WebSocket dissector's binary messages (one whole frame per message).

-- Loaded twice (installed by `make wireshark-plugin` and given with -X lua_script:), the first copy stays and this
-- one steps aside: Proto() refuses a second protocol of the same name.
local created, syncsim = pcall(Proto, "syncsim", "SyncSim messenger sync protocol")
if not created then return end

local HEADER_BYTES = 10
local MAX_PAYLOAD_BYTES = 5 * 1024 * 1024 -- FrameDecoder.defaultMaxPayloadBytes (field clients cap payloads at 5 MiB)

-- Opcode names: the field's names as Sources/SyncProtocol/Frames/Opcode+FieldNames.swift lists them (a test keeps the
-- two equal).
local opcode_names = {
    [1] = "PING",
    [2] = "DEBUG",
    [3] = "RECONNECT",
    [5] = "LOG",
    [6] = "SESSION_INIT",
    [8] = "LOGIN2",
    [16] = "PROFILE",
    [17] = "AUTH_REQUEST",
    [18] = "AUTH",
    [19] = "LOGIN",
    [20] = "LOGOUT",
    [21] = "SYNC",
    [22] = "CONFIG",
    [23] = "AUTH_CONFIRM",
    [25] = "PRESET_AVATARS",
    [26] = "ASSETS_GET",
    [27] = "ASSETS_UPDATE",
    [28] = "ASSETS_GET_BY_IDS",
    [29] = "ASSETS_ADD",
    [31] = "SEARCH_FEEDBACK",
    [32] = "CONTACT_INFO",
    [33] = "CONTACT_ADD",
    [34] = "CONTACT_UPDATE",
    [35] = "CONTACT_PRESENCE",
    [36] = "CONTACT_LIST",
    [37] = "CONTACT_SEARCH",
    [38] = "CONTACT_MUTUAL",
    [39] = "CONTACT_PHOTOS",
    [40] = "CONTACT_SORT",
    [42] = "CONTACT_VERIFY",
    [43] = "REMOVE_CONTACT_PHOTO",
    [46] = "CONTACT_INFO_BY_PHONE",
    [48] = "CHAT_INFO",
    [49] = "CHAT_HISTORY",
    [50] = "CHAT_MARK",
    [51] = "CHAT_MEDIA",
    [52] = "CHAT_DELETE",
    [53] = "CHATS_LIST",
    [54] = "CHAT_CLEAR",
    [55] = "CHAT_UPDATE",
    [56] = "CHAT_CHECK_LINK",
    [57] = "CHAT_JOIN",
    [58] = "CHAT_LEAVE",
    [59] = "CHAT_MEMBERS",
    [60] = "PUBLIC_SEARCH",
    [61] = "CHAT_PERSONAL_CONFIG",
    [62] = "CHAT_LIVESTREAM_INFO",
    [63] = "CHAT_CREATE",
    [64] = "MSG_SEND",
    [65] = "MSG_TYPING",
    [66] = "MSG_DELETE",
    [67] = "MSG_EDIT",
    [68] = "CHAT_SEARCH",
    [70] = "MSG_SHARE_PREVIEW",
    [71] = "MSG_GET",
    [72] = "MSG_SEARCH_TOUCH",
    [73] = "MSG_SEARCH",
    [74] = "MSG_GET_STAT",
    [75] = "CHAT_SUBSCRIBE",
    [76] = "VIDEO_CHAT_START",
    [77] = "CHAT_MEMBERS_UPDATE",
    [78] = "VIDEO_CHAT_START_ACTIVE",
    [79] = "VIDEO_CHAT_HISTORY",
    [80] = "PHOTO_UPLOAD",
    [81] = "STICKER_UPLOAD",
    [82] = "VIDEO_UPLOAD",
    [83] = "VIDEO_PLAY",
    [84] = "VIDEO_CHAT_CREATE_JOIN_LINK",
    [86] = "CHAT_PIN_SET_VISIBILITY",
    [87] = "FILE_UPLOAD",
    [88] = "FILE_DOWNLOAD",
    [89] = "LINK_INFO",
    [91] = "MSG_GET_COMMENTS_INFO",
    [92] = "MSG_DELETE_RANGE",
    [94] = "MSG_DELETE_USER_COMMENTS",
    [96] = "SESSIONS_INFO",
    [97] = "SESSIONS_CLOSE",
    [98] = "PHONE_BIND_REQUEST",
    [99] = "PHONE_BIND_CONFIRM",
    [101] = "AUTH_LOGIN_RESTORE_PASSWORD",
    [103] = "GET_INBOUND_CALLS",
    [104] = "AUTH_2FA_DETAILS",
    [105] = "EXTERNAL_CALLBACK",
    [107] = "AUTH_VALIDATE_PASSWORD",
    [108] = "AUTH_VALIDATE_HINT",
    [109] = "AUTH_VERIFY_EMAIL",
    [110] = "AUTH_CHECK_EMAIL",
    [111] = "AUTH_SET_2FA",
    [112] = "AUTH_CREATE_TRACK",
    [113] = "AUTH_CHECK_PASSWORD",
    [115] = "AUTH_LOGIN_CHECK_PASSWORD",
    [116] = "AUTH_LOGIN_PROFILE_DELETE",
    [117] = "CHAT_COMPLAIN",
    [118] = "MSG_SEND_CALLBACK",
    [119] = "SUSPEND_BOT",
    [124] = "LOCATION_STOP",
    [125] = "LOCATION_SEND",
    [126] = "LOCATION_REQUEST",
    [127] = "GET_LAST_MENTIONS",
    [128] = "NOTIF_MESSAGE",
    [129] = "NOTIF_TYPING",
    [130] = "NOTIF_MARK",
    [131] = "NOTIF_CONTACT",
    [132] = "NOTIF_PRESENCE",
    [134] = "NOTIF_CONFIG",
    [135] = "NOTIF_CHAT",
    [136] = "NOTIF_ATTACH",
    [137] = "NOTIF_CALL_START",
    [139] = "NOTIF_CONTACT_SORT",
    [140] = "NOTIF_MSG_DELETE_RANGE",
    [142] = "NOTIF_MSG_DELETE",
    [143] = "NOTIF_CALLBACK_ANSWER",
    [144] = "CHAT_BOT_COMMANDS",
    [145] = "BOT_INFO",
    [147] = "NOTIF_LOCATION",
    [148] = "NOTIF_LOCATION_REQUEST",
    [150] = "NOTIF_ASSETS_UPDATE",
    [152] = "NOTIF_DRAFT",
    [153] = "NOTIF_DRAFT_DISCARD",
    [154] = "NOTIF_MSG_DELAYED",
    [155] = "NOTIF_MSG_REACTIONS_CHANGED",
    [156] = "NOTIF_MSG_YOU_REACTED",
    [158] = "CALLS_TOKEN",
    [159] = "NOTIF_PROFILE",
    [160] = "WEB_APP_INIT_DATA",
    [161] = "COMPLAIN",
    [162] = "COMPLAIN_REASONS_GET",
    [166] = "VIDEO_CHAT_JOIN",
    [176] = "DRAFT_SAVE",
    [177] = "DRAFT_DISCARD",
    [178] = "MSG_REACTION",
    [179] = "MSG_CANCEL_REACTION",
    [180] = "MSG_GET_REACTIONS",
    [181] = "MSG_GET_DETAILED_REACTIONS",
    [193] = "STICKER_CREATE",
    [194] = "STICKER_SUGGEST",
    [195] = "VIDEO_CHAT_MEMBERS",
    [196] = "CHAT_HIDE",
    [198] = "CHAT_SEARCH_COMMON_PARTICIPANTS",
    [199] = "PROFILE_DELETE",
    [200] = "PROFILE_DELETE_TIME",
    [202] = "TRANSCRIBE_MEDIA",
    [208] = "STORIES_LIST",
    [209] = "STORIES_LIST_BY_OWNER_ID",
    [210] = "STORIES_GET_BY_OWNER_ID",
    [211] = "STORIES_GET_STATS",
    [212] = "STORIES_GET_DETAILED_STATS",
    [213] = "STORIES_REACT",
    [214] = "STORIES_MARK",
    [215] = "STORIES_SEND",
    [216] = "NOTIF_STORIES_UPDATE",
    [217] = "STORIES_EDIT",
    [218] = "STORIES_DELETE",
    [220] = "STORIES_GET_BY_STORY_ID",
    [256] = "ORG_INFO",
    [257] = "CHAT_REACTIONS_SETTINGS_SET",
    [258] = "REACTIONS_SETTINGS_GET_BY_CHAT_ID",
    [259] = "ASSETS_REMOVE",
    [260] = "ASSETS_MOVE",
    [261] = "ASSETS_LIST_MODIFY",
    [272] = "FOLDERS_GET",
    [273] = "FOLDERS_GET_BY_ID",
    [274] = "FOLDERS_UPDATE",
    [275] = "FOLDERS_REORDER",
    [276] = "FOLDERS_DELETE",
    [277] = "NOTIF_FOLDERS",
    [288] = "GET_QR",
    [289] = "GET_QR_STATUS",
    [290] = "AUTH_QR_APPROVE",
    [291] = "LOGIN_BY_QR",
    [292] = "NOTIF_BANNERS",
    [293] = "NOTIF_TRANSCRIPTION",
    [300] = "CHAT_SUGGEST",
    [301] = "AUDIO_PLAY",
    [302] = "BANNERS_GET",
    [303] = "MSG_DELIVERY",
    [304] = "SEND_VOTE",
    [305] = "VOTERS_LIST_BY_ANSWER",
    [306] = "GET_POLL_UPDATES",
}

local cmd_names = { [0] = "request", [1] = "response", [2] = "push", [3] = "error" }

local f = {
    ver = ProtoField.uint8("syncsim.ver", "Version", base.DEC),
    cmd = ProtoField.uint16("syncsim.cmd", "Command", base.DEC, cmd_names),
    seq = ProtoField.uint16("syncsim.seq", "Sequence", base.DEC),
    opcode = ProtoField.uint16("syncsim.opcode", "Opcode", base.DEC, opcode_names),
    flag = ProtoField.uint8("syncsim.flag", "Compression flag", base.HEX),
    compression = ProtoField.string("syncsim.compression", "Compression"),
    length = ProtoField.uint24("syncsim.length", "Payload length on the wire", base.DEC),
    payload_length = ProtoField.uint32("syncsim.payload_length", "Payload length decompressed", base.DEC),
    payload = ProtoField.bytes("syncsim.payload", "Payload"),
    key = ProtoField.string("syncsim.key", "MessagePack map key"),
}
syncsim.fields = { f.ver, f.cmd, f.seq, f.opcode, f.flag, f.compression, f.length, f.payload_length, f.payload, f.key }

local e_malformed = ProtoExpert.new("syncsim.malformed", "Malformed SyncSim frame", expert.group.MALFORMED,
    expert.severity.ERROR)
local e_zstd = ProtoExpert.new("syncsim.zstd", "zstd payload (not decompressed by the Lua dissector)",
    expert.group.COMMENTS_GROUP, expert.severity.NOTE)
syncsim.experts = { e_malformed, e_zstd }

syncsim.prefs.port = Pref.uint("TCP port", 5443, "Server port to dissect as SyncSim (0: heuristic only)")
syncsim.prefs.layout = Pref.enum("Header layout", 1, "How bytes 1-3 of the header are read: cmd u8 + seq u16, or cmd u16 + seq u8", {
    { 1, "cmd8-seq16", 1 },
    { 2, "cmd16-seq8", 2 },
}, false)
syncsim.prefs.heuristic = Pref.bool("Heuristic", true, "Try every TCP conversation for SyncSim frames")

local band, rshift, lshift = bit32.band, bit32.rshift, bit32.lshift

-- LZ4 block decompression (the LZ4 block format: sequences of literals and back-references, no frame header, no
-- stored size). Returns a ByteArray, or nil and the reason.
local function lz4_block_decompress(input, limit)
    local n_in = input:len()
    local out = {}
    local n = 0
    local i = 0
    while i < n_in do
        local token = input:get_index(i)
        i = i + 1
        local literals = rshift(token, 4)
        if literals == 15 then
            repeat
                if i >= n_in then return nil, "literal length runs past the end" end
                local b = input:get_index(i)
                i = i + 1
                literals = literals + b
            until b ~= 255
        end
        if i + literals > n_in then return nil, "literals run past the end of the block" end
        if n + literals > limit then return nil, "decompressed size exceeds the limit" end
        for k = 0, literals - 1 do
            out[n + k + 1] = input:get_index(i + k)
        end
        n = n + literals
        i = i + literals
        if i >= n_in then break end -- the last sequence carries literals only
        if i + 2 > n_in then return nil, "match offset runs past the end" end
        local offset = input:get_index(i) + lshift(input:get_index(i + 1), 8)
        i = i + 2
        if offset == 0 or offset > n then return nil, "match offset " .. offset .. " points before the output" end
        local match = band(token, 15)
        if match == 15 then
            repeat
                if i >= n_in then return nil, "match length runs past the end" end
                local b = input:get_index(i)
                i = i + 1
                match = match + b
            until b ~= 255
        end
        match = match + 4
        if n + match > limit then return nil, "decompressed size exceeds the limit" end
        local from = n - offset
        for k = 1, match do
            out[n + k] = out[from + k] -- byte by byte: an overlapping match repeats the bytes just written
        end
        n = n + match
    end
    local bytes = ByteArray.new()
    bytes:set_size(n)
    for k = 1, n do bytes:set_index(k - 1, out[k]) end
    return bytes
end

-- MessagePack: adds one value at `offset` of `tvb` under `tree`, labelled with `prefix`; returns the next offset, or
-- nil and the reason for a malformed value.
local dissect_value

local function need(tvb, offset, count)
    return offset + count <= tvb:len()
end

local function scalar(tree, tvb, offset, size, prefix, text)
    tree:add(tvb(offset, size), prefix .. text)
    return offset + size
end

local function string_at(tvb, offset, header, count, tree, prefix)
    if not need(tvb, offset + header, count) then return nil, "string runs past the payload" end
    local text = count > 0 and tvb(offset + header, count):string(ENC_UTF_8) or ""
    tree:add(tvb(offset, header + count), prefix .. '"' .. text .. '"')
    return offset + header + count, text
end

local function container(tree, tvb, offset, header, count, is_map, prefix, depth)
    local label = is_map and ("map (" .. count .. (count == 1 and " entry)" or " entries)"))
        or ("array (" .. count .. (count == 1 and " element)" or " elements)"))
    local item = tree:add(tvb(offset, header), prefix .. label)
    local next_offset = offset + header
    for index = 1, count do
        local key_text
        if is_map then
            local key_offset = next_offset
            local first = need(tvb, key_offset, 1) and tvb(key_offset, 1):uint() or nil
            if first == nil then return nil, "map runs past the payload" end
            -- String keys label their value; other keys are shown as values of their own.
            if first >= 0xa0 and first <= 0xbf then
                local count_ = first - 0xa0
                if not need(tvb, key_offset + 1, count_) then return nil, "key runs past the payload" end
                key_text = count_ > 0 and tvb(key_offset + 1, count_):string(ENC_UTF_8) or ""
                item:add(f.key, tvb(key_offset, 1 + count_), key_text):set_hidden()
                next_offset = key_offset + 1 + count_
            else
                local after, reason = dissect_value(item, tvb, key_offset, "key: ", depth + 1)
                if after == nil then return nil, reason end
                next_offset = after
                key_text = "value"
            end
        end
        local after, reason = dissect_value(item, tvb, next_offset,
            is_map and (key_text .. ": ") or ("[" .. (index - 1) .. "]: "), depth + 1)
        if after == nil then return nil, reason end
        next_offset = after
    end
    item:set_len(next_offset - offset)
    return next_offset
end

dissect_value = function(tree, tvb, offset, prefix, depth)
    if depth > 64 then return nil, "nested more than 64 levels" end
    if not need(tvb, offset, 1) then return nil, "value runs past the payload" end
    local b = tvb(offset, 1):uint()
    local function sized(size)
        if not need(tvb, offset + 1, size) then return nil end
        return tvb(offset + 1, size)
    end
    if b <= 0x7f then return scalar(tree, tvb, offset, 1, prefix, tostring(b)) end
    if b >= 0xe0 then return scalar(tree, tvb, offset, 1, prefix, tostring(b - 256)) end
    if b >= 0x80 and b <= 0x8f then return container(tree, tvb, offset, 1, b - 0x80, true, prefix, depth) end
    if b >= 0x90 and b <= 0x9f then return container(tree, tvb, offset, 1, b - 0x90, false, prefix, depth) end
    if b >= 0xa0 and b <= 0xbf then return string_at(tvb, offset, 1, b - 0xa0, tree, prefix) end
    if b == 0xc0 then return scalar(tree, tvb, offset, 1, prefix, "nil") end
    if b == 0xc2 then return scalar(tree, tvb, offset, 1, prefix, "false") end
    if b == 0xc3 then return scalar(tree, tvb, offset, 1, prefix, "true") end
    local widths = { [0xcc] = 1, [0xcd] = 2, [0xce] = 4, [0xcf] = 8, [0xd0] = 1, [0xd1] = 2, [0xd2] = 4, [0xd3] = 8 }
    if widths[b] then
        local range = sized(widths[b])
        if range == nil then return nil, "integer runs past the payload" end
        local value
        if b <= 0xcf then
            value = widths[b] == 8 and tostring(range:uint64()) or tostring(range:uint())
        else
            value = widths[b] == 8 and tostring(range:int64()) or tostring(range:int())
        end
        return scalar(tree, tvb, offset, 1 + widths[b], prefix, value)
    end
    if b == 0xca or b == 0xcb then
        local size = b == 0xca and 4 or 8
        local range = sized(size)
        if range == nil then return nil, "float runs past the payload" end
        return scalar(tree, tvb, offset, 1 + size, prefix, tostring(range:float()))
    end
    if b == 0xd9 or b == 0xda or b == 0xdb or b == 0xc4 or b == 0xc5 or b == 0xc6 then
        local size = ({ [0xd9] = 1, [0xda] = 2, [0xdb] = 4, [0xc4] = 1, [0xc5] = 2, [0xc6] = 4 })[b]
        local range = sized(size)
        if range == nil then return nil, "length runs past the payload" end
        local count = range:uint()
        if b >= 0xd9 then return string_at(tvb, offset, 1 + size, count, tree, prefix) end
        if not need(tvb, offset + 1 + size, count) then return nil, "binary runs past the payload" end
        return scalar(tree, tvb, offset, 1 + size + count, prefix, "binary (" .. count .. " bytes)")
    end
    if b == 0xdc or b == 0xdd or b == 0xde or b == 0xdf then
        local size = (b == 0xdc or b == 0xde) and 2 or 4
        local range = sized(size)
        if range == nil then return nil, "count runs past the payload" end
        return container(tree, tvb, offset, 1 + size, range:uint(), b >= 0xde, prefix, depth)
    end
    local fixext = { [0xd4] = 1, [0xd5] = 2, [0xd6] = 4, [0xd7] = 8, [0xd8] = 16 }
    if fixext[b] then
        if not need(tvb, offset + 1, 1 + fixext[b]) then return nil, "ext runs past the payload" end
        local ext_type = tvb(offset + 1, 1):int()
        local label = ext_type == -1 and "timestamp" or ("ext " .. ext_type)
        return scalar(tree, tvb, offset, 2 + fixext[b], prefix, label .. " (" .. fixext[b] .. " bytes)")
    end
    if b == 0xc7 or b == 0xc8 or b == 0xc9 then
        local size = ({ [0xc7] = 1, [0xc8] = 2, [0xc9] = 4 })[b]
        local range = sized(size)
        if range == nil or not need(tvb, offset + 1 + size, 1) then return nil, "ext runs past the payload" end
        local count = range:uint()
        if not need(tvb, offset + 2 + size, count) then return nil, "ext runs past the payload" end
        local ext_type = tvb(offset + 1 + size, 1):int()
        return scalar(tree, tvb, offset, 2 + size + count, prefix, "ext " .. ext_type .. " (" .. count .. " bytes)")
    end
    return nil, string.format("byte 0x%02x is not a MessagePack type", b)
end

local function compression_name(flag)
    if flag == 0 then return "none" end
    if flag == 0xff then return "zstd" end
    return "LZ4 block"
end

-- Reads the header at `offset` of `tvb`: ver, cmd, seq, opcode, flag, length.
local function read_header(tvb, offset)
    local h = { ver = tvb(offset, 1):uint() }
    if syncsim.prefs.layout == 2 then
        h.cmd, h.seq = tvb(offset + 1, 2):uint(), tvb(offset + 3, 1):uint()
    else
        h.cmd, h.seq = tvb(offset + 1, 1):uint(), tvb(offset + 2, 2):uint()
    end
    h.opcode = tvb(offset + 4, 2):uint()
    h.flag = tvb(offset + 6, 1):uint()
    h.length = tvb(offset + 7, 3):uint()
    return h
end

-- Dissects one whole frame (header + payload) at `offset`; returns the short text for the Info column.
local function dissect_frame(tvb, pinfo, tree, offset, h)
    local total = HEADER_BYTES + h.length
    local name = opcode_names[h.opcode] or ("OPCODE_" .. h.opcode)
    local cmd_name = cmd_names[h.cmd] or ("cmd " .. h.cmd)
    local item = tree:add(syncsim, tvb(offset, total))
    item:append_text(string.format(", %s %s, seq %d", name, cmd_name, h.seq))
    local ver_range = tvb(offset, 1)
    local cmd_range = syncsim.prefs.layout == 2 and tvb(offset + 1, 2) or tvb(offset + 1, 1)
    local seq_range = syncsim.prefs.layout == 2 and tvb(offset + 3, 1) or tvb(offset + 2, 2)
    item:add(f.ver, ver_range)
    item:add(f.cmd, cmd_range, h.cmd)
    item:add(f.seq, seq_range, h.seq)
    item:add(f.opcode, tvb(offset + 4, 2))
    item:add(f.flag, tvb(offset + 6, 1))
    item:add(f.compression, tvb(offset + 6, 1), compression_name(h.flag))
    item:add(f.length, tvb(offset + 7, 3))
    if h.length == 0 then return name .. " " .. cmd_name .. " seq=" .. h.seq end
    local payload = tvb(offset + HEADER_BYTES, h.length)
    item:add(f.payload, payload)
    local value_tvb
    if h.flag == 0 then
        value_tvb = payload:tvb()
    elseif h.flag == 0xff then
        item:add_proto_expert_info(e_zstd)
    else
        local bytes, reason = lz4_block_decompress(payload:bytes(), MAX_PAYLOAD_BYTES)
        if bytes == nil then
            item:add_tvb_expert_info(e_malformed, payload, "LZ4 block: " .. reason)
        else
            value_tvb = bytes:tvb("Decompressed payload")
            item:add(f.payload_length, payload, bytes:len())
        end
    end
    if value_tvb ~= nil and value_tvb:len() > 0 then
        local after, reason = dissect_value(item, value_tvb, 0, "payload: ", 0)
        if after == nil then
            item:add_expert_info(expert.group.MALFORMED, expert.severity.ERROR, "MessagePack: " .. reason)
        elseif after ~= value_tvb:len() then
            item:add_expert_info(expert.group.MALFORMED, expert.severity.WARN,
                (value_tvb:len() - after) .. " bytes after the MessagePack value")
        end
    end
    return name .. " " .. cmd_name .. " seq=" .. h.seq
end

function syncsim.dissector(tvb, pinfo, tree)
    local length = tvb:len()
    local offset = 0
    local infos = {}
    while offset < length do
        local remaining = length - offset
        if remaining < HEADER_BYTES then
            pinfo.desegment_offset = offset
            pinfo.desegment_len = DESEGMENT_ONE_MORE_SEGMENT
            break
        end
        local h = read_header(tvb, offset)
        if h.ver ~= 10 or h.cmd > 3 then
            -- Not a frame header: bytes of another protocol on the port (a CDN upload), or a stream joined mid-way.
            if offset == 0 then return 0 end
            local item = tree:add(syncsim, tvb(offset, remaining))
            item:add_tvb_expert_info(e_malformed, tvb(offset, HEADER_BYTES),
                "not a frame header (expected ver 10 and cmd 0-3)")
            break
        end
        if h.length > MAX_PAYLOAD_BYTES then
            local item = tree:add(syncsim, tvb(offset, remaining))
            item:add_tvb_expert_info(e_malformed, tvb(offset + 7, 3),
                "payload length " .. h.length .. " exceeds the 5 MiB limit")
            offset = length
            break
        end
        local total = HEADER_BYTES + h.length
        if remaining < total then
            pinfo.desegment_offset = offset
            pinfo.desegment_len = total - remaining
            break
        end
        infos[#infos + 1] = dissect_frame(tvb, pinfo, tree, offset, h)
        offset = offset + total
    end
    if #infos > 0 then
        pinfo.cols.protocol = "SyncSim"
        pinfo.cols.info = table.concat(infos, ", ")
    end
    return length
end

-- Heuristic: a plausible header whose payload (if uncompressed) starts a MessagePack map.
local function heuristic(tvb, pinfo, tree)
    if not syncsim.prefs.heuristic or tvb:len() < HEADER_BYTES then return false end
    local h = read_header(tvb, 0)
    if h.ver ~= 10 or h.cmd > 3 or h.length > MAX_PAYLOAD_BYTES then return false end
    if h.flag == 0 and h.length > 0 then
        if tvb:len() < HEADER_BYTES + 1 then return false end
        local first = tvb(HEADER_BYTES, 1):uint()
        if not ((first >= 0x80 and first <= 0x8f) or first == 0xde or first == 0xdf) then return false end
    end
    pinfo.conversation = syncsim
    syncsim.dissector(tvb, pinfo, tree)
    return true
end

syncsim:register_heuristic("tcp", heuristic)

-- Over WebSocket (PyMax's WebClient; `syncsim serve`): Wireshark's WebSocket dissector hands each binary message
-- to the heuristics of its "ws" list, and one message holds one frame. Unlike the TCP heuristic, this one does not
-- claim the conversation: its bytes are WebSocket's, only the messages are SyncSim's.
local function websocket_heuristic(tvb, pinfo, tree)
    if not syncsim.prefs.heuristic or tvb:len() < HEADER_BYTES then return false end
    local h = read_header(tvb, 0)
    if h.ver ~= 10 or h.cmd > 3 or h.length + HEADER_BYTES ~= tvb:len() then return false end
    syncsim.dissector(tvb, pinfo, tree)
    return true
end
pcall(function() syncsim:register_heuristic("ws", websocket_heuristic) end)

local registered_port = 0
local function register_port()
    local tcp = DissectorTable.get("tcp.port")
    if registered_port ~= 0 then tcp:remove(registered_port, syncsim) end
    registered_port = syncsim.prefs.port
    if registered_port ~= 0 then tcp:add(registered_port, syncsim) end
end
syncsim.prefs_changed = register_port
register_port()
