"""The cluster's pure parts: tokens that name their table, the in-memory copy
of the other nodes' lobby, and placement (docs/cluster.md). No Redis here."""

from __future__ import annotations

from typing import Any

from craits.server.cluster.lobby_copy import LobbyCopy
from craits.server.cluster.placement import margin, place
from craits.server.lobby.seat_tokens import new_token, table_tag, token_tag


def info(name: str, **extra: Any) -> Any:
    """A table info as a node publishes it (only the keys the lobby reads matter)."""
    return {"name": name, "seats": 2, "players": [], "state": "waiting", **extra}


def test_a_token_names_its_table_and_nothing_else() -> None:
    token = new_token("evening")
    assert len(token) == 44 and token[32] == "."
    assert token_tag(token) == table_tag("evening") != table_tag("Evening")
    assert new_token("evening") != token  # the random part differs
    assert token_tag("x" * 32) is None  # a token from before tags
    assert token_tag("a.b") is None
    assert table_tag("é" * 40) == table_tag("é" * 40) and len(table_tag("é" * 40)) == 11


def test_the_copy_follows_each_nodes_tables() -> None:
    lobby = LobbyCopy()
    assert lobby.put("b:1", info("t1")).infos == [info("t1")]
    lobby.put("c:1", info("t2"))
    lobby.put("b:1", info("t3"))
    assert [t["name"] for t in lobby.tables()] == ["t1", "t3", "t2"]  # by node, then its order
    assert lobby.node_of("t2") == "c:1" and lobby.node_of("nope") is None
    assert lobby.table_of_tag(table_tag("t3")) == "t3"

    changes = lobby.replace("b:1", [info("t3", state="playing"), info("t4")], load=7)
    assert changes.closed == ["t1"]
    assert [t["name"] for t in changes.infos] == ["t3", "t4"]
    assert lobby.loads() == {"b:1": 7, "c:1": 0}
    assert not lobby.replace("b:1", [info("t3", state="playing"), info("t4")])  # nothing new

    assert lobby.remove("c:1", "t2").closed == ["t2"]
    assert not lobby.remove("c:1", "t2")  # twice: nothing
    assert lobby.table_of_tag(table_tag("t2")) is None

    assert sorted(lobby.drop("b:1").closed) == ["t3", "t4"]
    assert lobby.tables() == [] and lobby.node_of("t3") is None
    lobby.put("b:1", info("t5"))
    assert lobby.clear().closed == ["t5"] and lobby.nodes == {}


def test_a_node_down_keeps_its_tables_listed_as_unavailable_until_it_is_back() -> None:
    lobby = LobbyCopy()
    lobby.replace("b:1", [info("t1"), info("t2")], load=1)
    changes = lobby.mark_down("b:1")
    assert [(t["name"], t.get("unavailable")) for t in changes.infos] == [
        ("t1", True),
        ("t2", True),
    ]
    assert not lobby.mark_down("b:1")  # said once
    assert lobby.node_of("t1") == "b:1" and lobby.is_down("b:1")
    assert lobby.loads() == {}  # no table is placed on a node that is down
    assert all(t["unavailable"] for t in lobby.tables())
    back = lobby.replace("b:1", [info("t1")], load=0)  # back, without t2
    assert back.closed == ["t2"] and back.infos == [info("t1")]
    assert not lobby.is_down("b:1") and lobby.loads() == {"b:1": 0}


def test_a_table_that_moved_is_listed_once_where_it_was_last_seen() -> None:
    lobby = LobbyCopy()
    lobby.put("b:1", info("t"))
    lobby.put("c:1", info("t"))  # b restarted without it, c opened one by that name
    assert lobby.node_of("t") == "c:1" and len(lobby.tables()) == 1
    assert not lobby.remove("b:1", "t")  # b's late word does not remove c's table
    assert lobby.node_of("t") == "c:1"


def test_a_table_goes_elsewhere_only_when_another_node_is_clearly_lighter() -> None:
    assert place(5, {}) is None
    assert place(5, {"b:1": 3}) is None  # within the margin of 2: stays
    assert place(5, {"b:1": 2, "c:1": 2}) == "b:1"  # lightest, then by address
    assert place(100, {"b:1": 91}) is None and place(100, {"b:1": 89}) == "b:1"
    assert margin(0) == 2 and margin(100) == 10
    # two nodes never send a request back and forth: if a sends to b, b keeps it
    for a_load in range(0, 60):
        for b_load in range(0, 60):
            if place(a_load, {"b": b_load}) == "b":
                assert place(b_load + 1, {"a": a_load - 1}) is None
