"""A table whose cluster node is down, as the lobby's presenter shows it
(protocol §7.4, §10; docs/cluster.md, "In the client"): the word
``unavailable``, every cell dimmed, join and watch greyed out, and the one
line that says why. (The Pilot test against a real cluster is
``tests/client/cluster/test_client_unavailable.py``.)"""

from __future__ import annotations

from craits.client.present import presenter
from craits.protocol.vocab import TableState

from tests.client.views import seat, table_info


def test_an_unavailable_table_is_listed_dimmed_and_cannot_be_joined_or_watched() -> None:
    up = table_info(state=TableState.WAITING, players=[seat(0, "Ben")])
    down = {**up, "unavailable": True}
    row = presenter.lobby_row(down)  # type: ignore[arg-type]
    assert [c.plain for c in row][:3] == ["t1", "1/2", "unavailable"]
    for cell in row:
        assert any(str(s.style) == "dim" and s.end >= len(cell.plain) for s in cell.spans)
    for action in ("join", "spectate"):
        assert presenter.lobby_key(action, up, online=True, saved=False) is True
        assert presenter.lobby_key(action, down, online=True, saved=False) is None  # type: ignore[arg-type]
    why = presenter.join_refusal(down, online=True)  # type: ignore[arg-type]
    assert why == "Table t1 is unavailable: its server is down (back when that server is)."
    assert presenter.lobby_row(up)[2].plain == "waiting"
    assert not any(str(s.style) == "dim" for s in presenter.lobby_row(up)[1].spans)
