"""The client messages' schemas and their typed check; the typed reading of a
server message (docs/protocol.md §5, §7)."""

from __future__ import annotations

from typing import Any

import pytest
from craits.protocol.actions import NO_SEAT, CallIdiot, Play
from craits.protocol.messages import (
    ERROR_CODES,
    SCHEMAS,
    parse_client_message,
    parse_server_message,
    validate,
)
from craits.protocol.types import (
    CLIENT_MESSAGE_TYPES,
    SERVER_MESSAGE_TYPES,
    ActionMap,
    CheckedAct,
    CheckedAddBot,
    LegalAction,
    ServerMsg,
    action_map,
)
from craits.protocol.vocab import ERROR_MEANINGS, ClientMessage, ErrorCode, ServerMessage
from craits.protocol.wire import ProtocolError

SIGNED = {"key": "ab" * 32, "signature": "cd" * 64, "server": "localhost:7777"}
"""A signed account request's fields (§7.5), well formed."""

GOOD: dict[ClientMessage, dict[str, Any]] = {
    ClientMessage.HELLO: {"type": "hello", "version": 1, "name": " Ana ", "client": "x"},
    ClientMessage.PING: {"type": "ping", "nonce": 3},
    ClientMessage.PONG: {"type": "pong"},
    ClientMessage.LIST_TABLES: {"type": "list_tables", "watch": True, "offset": 100},
    ClientMessage.CREATE_TABLE: {
        "type": "create_table",
        "name": "t1",
        "seats": 4,
        "rules": {"short_game": True, "cancelling_three_scores": 0},
        "turn_timeout_ms": 0,
    },
    ClientMessage.JOIN: {"type": "join", "table": "t1", "name": "Ben", "code": "MZXW6YTBOI3DEMRQ"},
    ClientMessage.SPECTATE: {"type": "spectate", "table": "t1"},
    ClientMessage.RESUME: {"type": "resume", "token": "abc"},
    ClientMessage.LEAVE: {"type": "leave"},
    ClientMessage.BACK: {"type": "back"},
    ClientMessage.START: {"type": "start"},
    ClientMessage.NEW_GAME: {"type": "new_game"},
    ClientMessage.CLOSE_TABLE: {"type": "close_table"},
    ClientMessage.ADD_BOT: {"type": "add_bot", "level": "random"},
    ClientMessage.ACT: {"type": "act", "id": 7, "action": {"play": "8S", "suit": "D"}, "seq": 12},
    ClientMessage.CHAT: {"type": "chat", "text": "gl hf"},
    ClientMessage.LIST_RECORDS: {"type": "list_records"},
    ClientMessage.GET_RECORD: {"type": "get_record", "game": 1},
    ClientMessage.GET_REPLAY: {"type": "get_replay", "game": 1, "hand": 2, "offset": 200},
    ClientMessage.KICK: {"type": "kick", "seat": 2},
    ClientMessage.LOCK: {"type": "lock", "locked": True},
    ClientMessage.MUTE: {"type": "mute", "watchers": True, "muted": False},
    ClientMessage.HAND_OVER: {"type": "hand_over", "seat": 1},
    ClientMessage.UNBAR: {"type": "unbar", "name": "Eve"},
    ClientMessage.MY_GAMES: {"type": "my_games", "tokens": ["abc"]},
    ClientMessage.CHALLENGE: {"type": "challenge"},
    ClientMessage.REGISTER: {"type": "register", "name": "Ana", **SIGNED, "device": "laptop"},
    ClientMessage.LOGIN: {"type": "login", **SIGNED},
    ClientMessage.PAIR_START: {"type": "pair_start"},
    ClientMessage.PAIR_FINISH: {"type": "pair_finish", "name": "Ana", "code": "4F7K", **SIGNED},
    ClientMessage.DEVICES: {"type": "devices"},
    ClientMessage.REVOKE_DEVICE: {"type": "revoke_device", "device": 2},
    ClientMessage.RECOVER: {"type": "recover", "name": "Ana", "code": "K7QM", **SIGNED},
    ClientMessage.SET_PASSWORD: {"type": "set_password", "password": "correct horse"},
    ClientMessage.PASSWORD_LOGIN: {"type": "password_login", "name": "Ana", "password": "pw"},
    ClientMessage.PROFILE: {"type": "profile", "name": "Ana"},
    ClientMessage.HISTORY: {"type": "history", "before": 10, "limit": 5},
    ClientMessage.LEADERBOARD: {"type": "leaderboard", "offset": 100, "limit": 100},
    ClientMessage.HINT: {"type": "hint"},
    ClientMessage.ANALYSIS: {"type": "analysis", "game": 4, "seat": 1, "tokens": ["t" * 32]},
    ClientMessage.REMATCH: {"type": "rematch", "accept": False},
    ClientMessage.QUICK_PLAY: {"type": "quick_play", "seats": 3, "rules": {"short_game": True}},
}


@pytest.mark.parametrize(
    ("key", "why"),
    [
        ("AB" * 32, "lowercase hex"),
        ("ab" * 31, "64 lowercase hex digits"),
        ("zz" * 32, "lowercase hex"),
        (b"\x00" * 32, "must be a string"),
    ],
)
def test_a_key_is_lowercase_hex_of_its_length(key: object, why: str) -> None:
    with pytest.raises(ProtocolError, match=why):
        validate({**GOOD[ClientMessage.LOGIN], "key": key})


def test_every_client_message_type_has_a_schema_and_a_type() -> None:
    assert set(SCHEMAS) == set(ClientMessage) == set(CLIENT_MESSAGE_TYPES) == set(GOOD)


@pytest.mark.parametrize("kind", list(ClientMessage))
def test_each_schema_has_the_fields_of_its_typed_message(kind: ClientMessage) -> None:
    """The TypedDict a client sends and the schema the server checks agree:
    the same fields, the same ones required."""
    typed = CLIENT_MESSAGE_TYPES[kind]
    spec = SCHEMAS[kind]
    assert set(typed.__annotations__) - {"type"} == set(spec)
    required = {key for key, (_, needed) in spec.items() if needed}
    assert set(typed.__required_keys__) - {"type"} == required


@pytest.mark.parametrize("kind", list(ClientMessage))
def test_a_good_message_passes_both_ways_alike(kind: ClientMessage) -> None:
    message = GOOD[kind]
    got_kind, fields = validate(message)
    assert got_kind == kind and type(got_kind) is ClientMessage
    assert "type" not in fields
    typed = parse_client_message(message)
    assert typed["type"] is kind
    assert {k: v for k, v in typed.items() if k != "type"} == fields
    assert set(fields) == set(message) - {"type"}


def test_names_come_back_stripped_and_the_action_parsed() -> None:
    hello = parse_client_message(GOOD[ClientMessage.HELLO])
    assert hello["type"] == ClientMessage.HELLO
    assert hello.get("name") == "Ana"
    act = parse_client_message(GOOD[ClientMessage.ACT])
    assert act["type"] == ClientMessage.ACT
    checked: CheckedAct = act
    assert checked["action"] == Play(NO_SEAT, "8S", "D", False)
    assert checked.get("seq") == 12
    kind, fields = validate({"type": "act", "id": 1, "action": {"idiot": 2}})
    assert kind == "act" and fields["action"] == CallIdiot(NO_SEAT, 2)


def test_add_bot_level_is_left_for_the_server_to_judge() -> None:
    """An unknown level passes the schema: the server refuses it without
    counting it as a bad message (§12.1)."""
    bot = parse_client_message({"type": "add_bot", "level": "grandmaster"})
    assert bot["type"] == ClientMessage.ADD_BOT
    checked: CheckedAddBot = bot
    assert checked.get("level") == "grandmaster"


@pytest.mark.parametrize(
    ("message", "code", "text"),
    [
        ({"version": 1}, "bad_message", "a message needs a string field 'type'"),
        ({"type": 5}, "bad_message", "a message needs a string field 'type'"),
        ({"type": "dance"}, "unknown_type", "unknown message type 'dance'"),
        ({"type": "hello"}, "bad_message", "hello: missing field 'version'"),
        ({"type": "leave", "x": 1}, "bad_message", "leave: unexpected field 'x'"),
        (
            {"type": "act", "id": True, "action": {"draw": True}},
            "bad_message",
            "act.id: must be an integer, not a boolean",
        ),
        ({"type": "act", "id": 1, "action": {"draw": True}, "seq": None}, "bad_message", "nil"),
        ({"type": "act", "id": 1, "action": {"play": "ZZ"}}, "bad_message", "act.action.play"),
        (
            {"type": "act", "id": 1, "action": {"seat": 0, "draw": True}},
            "bad_message",
            "act.action",
        ),
        ({"type": "join", "table": "t", "name": "a[b]"}, "bad_message", "square brackets"),
        ({"type": "join", "table": "t", "name": "   "}, "bad_message", "join.name: must be 1..24"),
        ({"type": "create_table", "name": "t", "seats": 9}, "bad_message", "must be 2..8"),
        (
            {"type": "create_table", "name": "t", "seats": 2, "rules": {"x": 1.5}},
            "bad_message",
            "create_table.rules.x",
        ),
        ({"type": "chat", "text": "x" * 301}, "bad_message", "must be 1..300 characters"),
    ],
)
def test_a_bad_message_is_refused_the_same_way_both_ways(
    message: dict[str, Any], code: str, text: str
) -> None:
    for check in (validate, parse_client_message):
        with pytest.raises(ProtocolError, match=text.replace("[", r"\[")) as err:
            check(message)
        assert err.value.code == code
        assert type(err.value.code) is ErrorCode


@pytest.mark.parametrize(
    ("given", "refused"),
    [
        ("👨\u200d👩\u200d👧", "U+200D ZERO WIDTH JOINER, a format character"),
        ("❤️ Ana", "U+FE0F VARIATION SELECTOR-16, a variation selector"),
        ("Ana 🇫🇷", "U+1F1EB REGIONAL INDICATOR SYMBOL LETTER F, a flag letter"),
        ("👍🏽", "U+1F3FD EMOJI MODIFIER FITZPATRICK TYPE-4, a skin-tone modifier"),
        ("राम", "U+093E DEVANAGARI VOWEL SIGN AA, a combining mark"),
        ("q\u0335x", "U+0335 COMBINING SHORT STROKE OVERLAY, a combining mark"),
        ("Ana\u200b", "U+200B ZERO WIDTH SPACE, a format character"),
        ("\u202eanA", "U+202E RIGHT-TO-LEFT OVERRIDE, a format character"),
        ("x\ue000", "U+E000, a private-use character"),
        ("a\u2028b", "U+2028 LINE SEPARATOR, a line separator"),
    ],
)
def test_a_name_a_terminal_cannot_measure_is_refused(given: str, refused: str) -> None:
    """Names are drawn in terminals, which disagree on how wide joined emoji,
    combining marks and format characters are (issue 23: one shifted the drawn
    table and broke a frame): refused, naming the character, for a player's
    name and a table's alike."""
    for message in (
        {"type": "join", "table": "t", "name": given},
        {"type": "create_table", "name": given, "seats": 2},
        {"type": "hello", "version": 1, "name": given},
    ):
        with pytest.raises(ProtocolError) as err:
            validate(message)
        assert err.value.code == ErrorCode.BAD_MESSAGE
        assert f"name: must not hold {refused}: terminals do not agree" in err.value.message


def test_a_name_is_composed_and_any_script_or_emoji_drawn_as_counted_passes() -> None:
    """An accent typed apart joins its letter (NFC) before the checks; letters
    of any script, CJK (two cells each) and single emoji pass."""
    _, fields = validate({"type": "join", "table": "t", "name": " Jose\u0301 "})
    assert fields["name"] == "José" and len(fields["name"]) == 4
    for name in ("Zoë", "Ωmega", "Алёна", "漢字のテーブル", "한국어", "😀 Bo", "Ana ♠", "ﾊﾝｶｸ"):
        assert validate({"type": "join", "table": "t", "name": name})[1]["name"] == name


def test_error_codes_are_the_vocabulary() -> None:
    assert list(ERROR_CODES) == [str(code) for code in ErrorCode]
    assert {str(code): meaning for code, meaning in ERROR_MEANINGS.items()} == ERROR_CODES


def test_a_protocol_error_code_must_be_an_error_code() -> None:
    assert ProtocolError("bad_frame", "x").code is ErrorCode.BAD_FRAME
    with pytest.raises(ValueError):
        ProtocolError("no_such_code", "x")


# ----------------------------------------------------------- server → client


def test_every_server_message_type_has_a_type() -> None:
    assert set(SERVER_MESSAGE_TYPES) == set(ServerMessage)


def test_a_server_message_is_typed_as_is() -> None:
    message = {"type": "ok", "id": 4, "later": "ignored"}
    got = parse_server_message(message)
    assert got is message
    assert got["type"] == ServerMessage.OK
    if got["type"] == ServerMessage.OK:  # narrows the union for a type checker
        assert got["id"] == 4


def narrowed(msg: ServerMsg) -> str:
    """How client code reads a server message: match on the vocabulary."""
    match msg["type"]:
        case ServerMessage.WELCOME:
            return f"welcome {msg['limits']['max_frame']}"
        case ServerMessage.ERROR:
            return f"error {msg['code']} {msg.get('id')}"
        case ServerMessage.UPDATE:
            return f"update {msg['seq']} {msg['view']['phase']}"
        case _:
            return str(msg["type"])


def test_a_decoded_message_narrows_on_its_plain_string_type() -> None:
    """A decoded message holds plain strings; they equal the enum members, so
    ``match`` and ``==`` on the vocabulary work at run time as they type-check."""
    welcome = {
        "type": "welcome",
        "version": 1,
        "server": "craits",
        "heartbeat_ms": 10000,
        "limits": {"max_frame": 65536},
    }
    assert narrowed(parse_server_message(welcome)) == "welcome 65536"
    error = {"type": "error", "code": "stale", "message": "moved on", "id": 9}
    assert narrowed(parse_server_message(error)) == "error stale 9"
    assert narrowed(parse_server_message({"type": "ping"})) == "ping"


@pytest.mark.parametrize(
    ("message", "code", "text"),
    [
        ({}, "bad_message", "a message needs a string field 'type'"),
        ({"type": b"ok"}, "bad_message", "a message needs a string field 'type'"),
        ({"type": "surprise", "x": 1}, "unknown_type", "unknown message type 'surprise'"),
        ({"type": "ok"}, "bad_message", "ok: missing field 'id'"),
        ({"type": "update", "table": "t", "seq": 1, "events": []}, "bad_message", "missing"),
        ({"type": "error", "code": "x"}, "bad_message", "error: missing field 'message'"),
    ],
)
def test_a_server_message_without_a_known_type_or_its_keys_is_refused(
    message: dict[str, Any], code: str, text: str
) -> None:
    with pytest.raises(ProtocolError, match=text) as err:
        parse_server_message(message)
    assert err.value.code == code


def test_optional_keys_may_be_absent() -> None:
    assert parse_server_message({"type": "pong"})["type"] == ServerMessage.PONG
    update = {
        "type": "update",
        "table": "t",
        "seq": 1,
        "events": [],
        "view": {},
        "deadline_ms": None,
    }
    assert parse_server_message(update) is update


@pytest.mark.parametrize(
    ("entry", "sent"),
    [
        ({"seat": 1, "play": "8S", "suit": "D"}, {"play": "8S", "suit": "D"}),
        ({"seat": 0, "play": "KD", "announce": True}, {"play": "KD", "announce": True}),
        ({"seat": 0, "draw": True}, {"draw": True}),
        ({"seat": 0, "pass": True}, {"pass": True}),
        ({"seat": 2, "announce": True}, {"announce": True}),
        ({"seat": 2, "idiot": 1}, {"idiot": 1}),
        ({"seat": 1, "name_suit": "S"}, {"name_suit": "S"}),
    ],
)
def test_a_legal_entry_is_sent_without_its_seat(entry: LegalAction, sent: ActionMap) -> None:
    assert action_map(entry) == sent
    assert "seat" in entry  # the view's entry is left as it was
    _, fields = validate({"type": "act", "id": 1, "action": action_map(entry)})
    assert fields["action"].seat == NO_SEAT


@pytest.mark.parametrize(
    ("message", "id"),
    [
        ({"type": "act", "id": 7, "action": {"play": "ZZ"}}, 7),
        ({"type": "act", "id": 8, "action": {"play": "8S", "suit": "s"}, "seq": 3}, 8),
        ({"type": "act", "id": 9, "action": {"draw": True}, "x": 1}, 9),
        ({"type": "act", "id": -1, "action": {"play": "ZZ"}}, None),
        ({"type": "act", "id": 2**53 + 1, "action": {"draw": True}}, None),
        ({"type": "act", "action": {"draw": True}}, None),
        ({"type": "chat", "text": ""}, None),
    ],
)
def test_an_act_refused_by_its_schema_names_its_id_when_the_id_is_good(
    message: dict[str, Any], id: int | None
) -> None:
    with pytest.raises(ProtocolError) as err:
        parse_client_message(message)
    assert err.value.code == "bad_message"
    assert err.value.id == id
