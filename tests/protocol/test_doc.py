"""docs/protocol.md and docs/records.md do not drift from the code.

Every table of the documents that lists codes (message types, action forms,
event kinds and their reasons, phases, rules options, table states, bot
levels, error codes, log entry kinds) is held equal to the vocabulary,
``craits.protocol.vocab``, and every table that lists a message's or an
object's keys is held equal to its TypedDict in ``craits.protocol.types``
(optional keys marked as such) and, for client messages, to the schema the
server checks. The prose stays hand-written; its lists may not drift.
"""

from __future__ import annotations

import re
import typing
from pathlib import Path

import pytest
from craits.protocol import types as t
from craits.protocol.messages import SCHEMAS
from craits.protocol.vocab import (
    ACTION_ERRORS,
    CONNECTION_CLOSING_ERRORS,
    DEFAULT_BOT_LEVEL,
    PLAY_FIELDS,
    RULE_OPTIONS,
    ActionKind,
    BotLevel,
    ClientMessage,
    DrawReason,
    ErrorCode,
    EventKind,
    LogEntryKind,
    NoticeKind,
    Phase,
    ServerMessage,
    SkipReason,
    TableState,
)

DOCS = Path(__file__).resolve().parents[2] / "docs"
PROTOCOL = (DOCS / "protocol.md").read_text(encoding="utf-8")
RECORDS = (DOCS / "records.md").read_text(encoding="utf-8")

Row = dict[str, str]


def section(doc: str, title: str) -> str:
    """The text under the heading that starts with ``title``, up to the next
    heading of the same or a higher level."""
    lines = doc.splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"(#+) (.*)", line)
        if m and m.group(2).startswith(title):
            level = len(m.group(1))
            end = next(
                (
                    j
                    for j in range(i + 1, len(lines))
                    if (h := re.match(r"(#+) ", lines[j])) and len(h.group(1)) <= level
                ),
                len(lines),
            )
            return "\n".join(lines[i + 1 : end])
    raise AssertionError(f"no heading {title!r}")


def tables(text: str) -> list[list[Row]]:
    """Each Markdown table in ``text``: its rows as maps from header to cell."""
    out: list[list[Row]] = []
    block: list[list[str]] = []
    for line in [*text.splitlines(), ""]:
        if line.startswith("|"):
            block.append([cell.strip() for cell in line.strip().strip("|").split("|")])
        elif block:
            header, rows = block[0], [r for r in block[1:] if not set("".join(r)) <= set("-: ")]
            out.append([dict(zip(header, r, strict=True)) for r in rows])
            block = []
    return out


def names(cell: str) -> list[str]:
    """The identifiers in backticks: `` `seat` `` gives ``seat``."""
    return re.findall(r"`(\w+)`", cell)


def quoted(cell: str) -> list[str]:
    """The strings in backticks: `` `"play"` `` gives ``play``."""
    return re.findall(r'`"(\w+)"`', cell)


def keys(typed: type, without: str = "") -> set[str]:
    return set(typed.__annotations__) - {without}


def optional(typed: type) -> set[str]:
    return set(vars(typed)["__optional_keys__"])


# --------------------------------------------------------------- §5 client


def test_client_messages_and_their_fields_are_the_schemas() -> None:
    table = tables(section(PROTOCOL, "5. Client → server"))[0]
    documented: dict[str, dict[str, bool]] = {}
    kind = ""
    for row in table:
        if row["type"]:
            (kind,) = names(row["type"])
            documented[kind] = {}
        for field in names(row["field"]):
            documented[kind][field] = row["req."] == "yes"
    assert list(documented) == list(ClientMessage)
    assert documented == {
        kind: {field: required for field, (_, required) in spec.items()}
        for kind, spec in SCHEMAS.items()
    }


@pytest.mark.parametrize("kind", list(ClientMessage))
def test_client_message_fields_are_the_typed_messages(kind: ClientMessage) -> None:
    typed = t.CLIENT_MESSAGE_TYPES[kind]
    spec = SCHEMAS[kind]
    assert keys(typed, "type") == set(spec)
    assert optional(typed) == {field for field, (_, required) in spec.items() if not required}


def test_rules_options_are_the_vocabulary() -> None:
    table = tables(section(PROTOCOL, "5. Client → server"))[1]
    documented = {}
    for row in table:
        (name,) = names(row["option"])
        values: tuple[bool | int, ...]
        if row["type"] == "bool":
            values = (False, True)
        else:
            assert row["type"].startswith("int, ")
            values = tuple(int(v) for v in re.findall(r"-?\d+", row["type"]))
        flags: dict[str, bool | int] = {"false": False, "true": True}
        default = flags[row["default"]] if row["default"] in flags else int(row["default"])
        section_ = row["rule"].split()[0]
        documented[name] = (default, set(values), section_)
    assert documented == {o.name: (o.default, set(o.values), o.section) for o in RULE_OPTIONS}


def test_every_client_message_has_its_replies_and_errors() -> None:
    table = tables(section(PROTOCOL, "Replies and errors, per message"))[0]
    assert [names(row["message"])[0] for row in table] == list(ClientMessage)
    for row in table:
        replies = set(names(row["on success the sender gets"]))
        known = set(ServerMessage) | set(ClientMessage) | set(TableState) | {"id"}
        assert replies <= known, row["message"]
        errors = set(names(row["errors"]))
        assert errors - {"id"} <= set(ErrorCode), row["message"]


def test_bot_levels_are_the_vocabulary() -> None:
    table = tables(section(PROTOCOL, "5. Client → server"))[0]
    (row,) = [r for r in table if names(r["type"]) == ["add_bot"]]
    assert set(quoted(row["meaning"])) == set(BotLevel)
    assert re.search(rf'`"{DEFAULT_BOT_LEVEL}"` \(default\)', row["meaning"])
    bots = section(PROTOCOL, "11.8 Bots")
    assert set(quoted(re.search(r"with `bot` set to its level \(([^)]*)\)", bots)[1])) == set(
        BotLevel
    )


# --------------------------------------------------------------- §6 actions


def test_action_forms_are_the_action_kinds() -> None:
    table = tables(section(PROTOCOL, "6. Actions"))[0]
    assert [re.match(r'`\{"(\w+)"', row["form"])[1] for row in table] == list(ActionKind)
    play = table[0]
    assert set(names(play["fields"])) == {ActionKind.PLAY, *PLAY_FIELDS}


# --------------------------------------------------------------- §7 server


def test_server_messages_and_their_fields_are_the_typed_messages() -> None:
    table = tables(section(PROTOCOL, "7. Server → client"))[0]
    documented = {names(row["type"])[0]: row["fields"] for row in table}
    assert set(documented) == set(ServerMessage)
    for kind, cell in documented.items():
        typed = t.SERVER_MESSAGE_TYPES[ServerMessage(kind)]
        assert set(names(cell)) == keys(typed, "type"), kind
        assert set(re.findall(r"`(\w+)`\?", cell)) == optional(typed), kind


def test_welcome_and_its_limits_are_the_typed_message() -> None:
    table = tables(section(PROTOCOL, "4.1 Handshake"))[0]
    fields = [re.match(r"`([\w.]+)`", row["field"])[1] for row in table]
    assert {f.split(".")[0] for f in fields} == keys(t.WelcomeMsg, "type")
    assert {f.split(".")[1] for f in fields if "." in f} == keys(t.Limits)


def test_state_and_update_fields_are_the_typed_messages() -> None:
    state, update = tables(section(PROTOCOL, "7.1 Fields in detail"))[:2]
    assert {names(r["field"])[0] for r in state} == keys(t.StateMsg, "type")
    assert {names(r["field"])[0] for r in update} == keys(t.UpdateMsg, "type")
    assert {names(r["field"])[0] for r in update if "optional" in r["type"]} == optional(
        t.UpdateMsg
    )
    (notice,) = [r for r in update if names(r["field"]) == ["notice"]]
    assert set(quoted(notice["meaning"])) == set(NoticeKind)
    assert set(re.findall(r'"(\w+)":', notice["meaning"])) == keys(t.Notice)


def test_record_summaries_are_the_typed_object() -> None:
    text = section(PROTOCOL, "7.3 Game records")
    table = tables(text)[0]
    assert {n for row in table for n in names(row["field"])} == keys(t.RecordSummary)
    brace = re.search(r"array of `\{([\w, ]+)\}`", section(PROTOCOL, "7. Server → client"))
    assert set(brace[1].split(", ")) == keys(t.RecordSummary)


# --------------------------------------------------------------- §8 view


def test_view_keys_are_the_typed_view() -> None:
    table = tables(section(PROTOCOL, "8. The view object"))[0]
    documented = [names(row["key"])[0] for row in table]
    assert len(documented) == len(set(documented))
    assert set(documented) == keys(t.View)
    (phase,) = [row for row in table if names(row["key"]) == ["phase"]]
    assert quoted(phase["meaning"]) == list(Phase)


def test_the_view_is_its_public_and_personal_parts() -> None:
    assert keys(t.View) == keys(t.PublicView) | keys(t.PersonalView)
    assert not keys(t.PublicView) & keys(t.PersonalView)


# --------------------------------------------------------------- §9 events


EVENT_TYPES = {
    typing.get_args(e.__annotations__["event"])[0]: e for e in typing.get_args(t.WireEvent)
}


def test_event_kinds_and_their_fields_are_the_typed_events() -> None:
    table = tables(section(PROTOCOL, "9. Events"))[0]
    assert [names(row["event"])[0] for row in table] == list(EventKind)
    assert set(EVENT_TYPES) == set(EventKind)
    for row in table:
        kind = EventKind(names(row["event"])[0])
        assert set(names(row["fields (type)"])) == keys(EVENT_TYPES[kind], "event"), kind


def test_draw_and_skip_reasons_are_the_vocabulary() -> None:
    rows = {names(r["event"])[0]: r for r in tables(section(PROTOCOL, "9. Events"))[0]}
    drew = rows[EventKind.DREW]["meaning"]
    assert set(names(drew.split("`reason`:")[1])) == set(DrawReason)
    skipped = rows[EventKind.SKIPPED]["meaning"]
    assert set(names(skipped)) - {"seat"} == set(SkipReason)


def test_hand_results_are_the_typed_object() -> None:
    line = re.search(r"A `results` entry: `(\{.*\})`", section(PROTOCOL, "9. Events"))
    assert set(re.findall(r'"(\w+)":', line[1])) == keys(t.HandResult)


# --------------------------------------------------------------- §10, §11 tables


def test_table_info_keys_are_the_typed_object() -> None:
    table = tables(section(PROTOCOL, "10. The table info object"))[0]
    rows = {names(row["key"])[0]: row for row in table}
    assert set(rows) == keys(t.TableInfo)
    assert set(re.findall(r'"(\w+)":', rows["players"]["meaning"])) == keys(t.SeatInfo)
    assert quoted(rows["state"]["meaning"]) == list(TableState)


def test_table_states_are_the_vocabulary() -> None:
    text = section(PROTOCOL, "11.1 Table states")
    assert re.findall(r"^- \*\*(\w+)\*\*:", text, re.M) == list(TableState)


# --------------------------------------------------------------- §12 errors


def test_error_codes_are_the_vocabulary() -> None:
    text = section(PROTOCOL, "12. Error codes")
    connection, lobby, accounts, game = tables(text)
    codes = [names(row["code"])[0] for row in [*connection, *lobby, *accounts, *game]]
    assert len(codes) == len(set(codes))
    assert set(codes) == set(ErrorCode)
    assert {names(r["code"])[0] for r in game} == ACTION_ERRORS | {ErrorCode.STALE}
    closing = {names(r["code"])[0] for r in connection if r["closes"].startswith("**yes")}
    assert closing == CONNECTION_CLOSING_ERRORS


# --------------------------------------------------------------- records.md


def test_record_fields_are_the_typed_record() -> None:
    document = tables(section(RECORDS, "The document"))[0]
    fields = {n for row in document for n in names(row["field"])}
    assert fields == keys(t.GameRecord)
    (standings,) = [r for r in document if names(r["field"]) == ["standings"]]
    assert set(re.search(r"`\{([\w, ]+)\}`", standings["meaning"])[1].split(", ")) == keys(
        t.Standing
    )


def test_record_log_kinds_are_the_vocabulary() -> None:
    log = tables(section(RECORDS, "The log"))[0]
    assert [names(row["kind"])[0] for row in log] == list(LogEntryKind)
    data = {names(row["kind"])[0]: row["data"] for row in log}
    assert set(re.search(r"`\{([\w, ]+)\}`", data["shuffle"])[1].split(", ")) == keys(
        t.ShuffleEntry
    )
    assert set(re.search(r"`\{([\w, ]+)\}`", data["action"])[1].split(", ")) == keys(t.ActionEntry)
