"""The table itself (:class:`Table`) without a socket: it alone publishes what
its parts' outcomes say, in one order (protocol §6.3, §7.1, §10), and records
its row; its host hears of every change."""

from __future__ import annotations

from typing import Any

from craits.server.engine import Rules
from craits.server.table.actor import Table, TableConfig
from craits.server.table.outcome import Step

from tests.support.table_parts import Book, Conn


class Host:
    """A :class:`~craits.server.table.ports.TableHost` that notes what it hears."""

    def __init__(self) -> None:
        self.changed: list[str] = []
        self.closed: list[str] = []

    def table_changed(self, table: Table) -> None:
        self.changed.append(table.name)

    def close_table(self, table: Table) -> None:
        self.closed.append(table.name)

    def game_over(self, table: Table) -> None:
        """Nothing is rated here."""


class Journal:
    """A journal that keeps the table's rows in a list (it defers nothing)."""

    def __init__(self) -> None:
        self.rows: list[Any] = []

    def save_table(self, row: Any) -> int:
        self.rows.append(row)
        return len(self.rows)

    def start_game(self, *args: Any, **kwargs: Any) -> int:
        return 1

    def append(self, *args: Any, **kwargs: Any) -> int:
        return len(self.rows)

    def recorded(self, game_id: int) -> list[Any]:
        return []

    def written(self, ticket: int) -> bool:
        return True


def kinds(conn: Conn) -> list[str]:
    return [m["type"] for m in conn.sent]


async def test_a_join_is_published_joined_then_the_info_then_the_snapshot() -> None:
    host, journal = Host(), Journal()
    ana = Conn("Ana")
    table = Table("t", 3, Rules(), TableConfig(), ana, host, Book(), journal)  # type: ignore[arg-type]
    table.request(table.membership.join, ana, "Ana")
    assert kinds(ana) == ["joined", "table_info", "state"]
    assert ana.sent[2]["seat"] == 0 and ana.sent[2]["table"]["players"][0]["name"] == "Ana"
    assert host.changed == ["t"]
    (row,) = journal.rows
    assert row.name == "t" and row.state == "waiting" and row.seats[0]["name"] == "Ana"
    assert row.seats[0]["token"] != ana.sent[0]["token"], "the row holds the token's digest"


async def test_the_last_seat_starts_the_game_and_everyone_gets_its_own_update() -> None:
    ana, ben = Conn("Ana"), Conn("Ben")
    table = Table("t", 2, Rules(), TableConfig(turn_timeout=0), ana, Host(), Book())  # type: ignore[arg-type]
    table.request(table.membership.join, ana, "Ana")
    ana.sent.clear()
    table.request(table.membership.join, ben, "Ben")
    assert kinds(ben) == ["joined", "table_info", "table_info", "update"]
    assert kinds(ana) == ["table_info", "table_info", "update"]
    assert table.status.playing and table.seq == 1
    ana_view, ben_view = ana.sent[-1]["view"], ben.sent[-1]["view"]
    assert ana_view["seat"] == 0 and ben_view["seat"] == 1
    assert ana_view["hand"] != ben_view["hand"], "each seat sees its own hand only"
    table.close_timers()


async def test_a_step_published_by_hand_numbers_the_update() -> None:
    ana, ben = Conn("Ana"), Conn("Ben")
    table = Table("t", 2, Rules(), TableConfig(turn_timeout=0), ana, Host(), Book())  # type: ignore[arg-type]
    for c in (ana, ben):
        table.request(table.membership.join, c, c.name)
    table.publish(Step([]))
    assert ana.sent[-1]["type"] == "update" and ana.sent[-1]["seq"] == table.seq == 2
    table.close_timers()


async def test_a_part_that_fails_stops_its_table_only() -> None:
    ana = Conn("Ana")
    host = Host()
    table = Table("t", 2, Rules(), TableConfig(), ana, host, Book())  # type: ignore[arg-type]
    table.request(table.membership.join, ana, "Ana")
    ana.sent.clear()

    def broken() -> None:
        raise KeyError("a bug")

    table.request(broken)
    assert table.status.halted
    assert kinds(ana) == ["error", "table_info"] and ana.sent[0]["code"] == "table_stopped"
    assert host.changed == ["t", "t"], "the stop is told to the lobby"
