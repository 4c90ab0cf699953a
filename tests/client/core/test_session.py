"""The client's session without Textual, against a real server: what the user asked
for (its Intent) moves on with the server's replies and ends with the errors that
answer it; what changed is told as news."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from craits.client.core.requests import IDLE, Intent, Want
from craits.client.core.saved.resume_tokens import TokenStore
from craits.client.core.session import Session
from craits.client.present.card_style import CardStyle
from craits.client.present.describe import Narrator
from craits.protocol.types import CreateTableMsg
from craits.protocol.vocab import ClientMessage

from tests.support.client import Told


async def until(cond: Callable[[], object], what: str, timeout: float = 5.0) -> None:
    """Wait until ``cond()`` holds."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not cond():
        if loop.time() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)


@asynccontextmanager
async def running(
    server: Any, tmp_path: Path, name: str, **kwargs: Any
) -> AsyncIterator[tuple[Session, Told]]:
    """A session of ``name`` at the test server, running until the block ends."""
    told = Told()
    store = kwargs.pop("store", None) or TokenStore(tmp_path / f"resume-{name}.json")
    session = Session(
        "127.0.0.1", server.port, name, told, narrator=Narrator(CardStyle()), store=store, **kwargs
    )
    task = asyncio.create_task(session.run())
    try:
        await until(lambda: session.online, "the connection")
        yield session, told
    finally:
        session.close()
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


async def bens_table(connect: Any, seats: int = 2) -> Any:
    ben = await connect("Ben")
    await ben.send({"type": "create_table", "name": "t1", "seats": seats})
    await ben.expect("table_created")
    await ben.send({"type": "join", "table": "t1", "name": "Ben"})
    await ben.expect("joined")
    return ben


async def test_joining_from_the_command_line(server: Any, connect: Any, tmp_path: Path) -> None:
    await bens_table(connect, seats=3)
    async with running(server, tmp_path, "Ana", table="t1") as (session, told):
        await until(lambda: session.model is not None and session.model.info, "the table")
        model = session.model
        assert model is not None and model.seat == 1 and model.me == "Ana"
        assert session.requests.intent == IDLE
        assert told.of("table_shown")
        saved = session.saved_seat()
        assert saved is not None and saved["table"] == "t1" and saved["seat"] == 1
        assert model.may_start is False  # Ben, the creator, is there


async def test_a_taken_name_is_asked_again(server: Any, connect: Any, tmp_path: Path) -> None:
    await bens_table(connect)
    async with running(server, tmp_path, "Ben") as (session, told):
        session.requests.join("t1")
        assert session.requests.intent == Intent(Want.JOIN, "t1", "Ben")
        await until(lambda: told.of("name_taken"), "the refusal")
        assert session.requests.intent == IDLE and session.model is None
        ((table, _why),) = told.of("name_taken")
        assert table == "t1"
        session.requests.join("t1", "Benji")
        await until(lambda: session.model is not None, "the seat")
        assert session.model is not None and session.model.me == "Benji"


async def test_an_error_ends_only_the_request_it_answers(
    server: Any, connect: Any, tmp_path: Path
) -> None:
    await bens_table(connect, seats=3)
    async with running(server, tmp_path, "Ana") as (session, told):
        session.requests.spectate("nowhere")
        await until(lambda: session.requests.intent == IDLE, "the refusal")
        assert any("no table" in t.lower() for t in told.notices()), told.notices()
        # close_table while at no table: the CLOSE intent needs a table, so nothing is asked
        session.requests.close_table()
        assert session.requests.intent == IDLE
        # a create that the server refuses (the name exists) ends the create
        session.requests.create_table(
            CreateTableMsg(type=ClientMessage.CREATE_TABLE, name="t1", seats=2)
        )
        assert session.requests.intent == Intent(Want.CREATE, "t1")
        await until(lambda: session.requests.intent == IDLE, "the refusal")
        assert session.model is None


async def test_create_join_and_close(server: Any, tmp_path: Path) -> None:
    async with running(server, tmp_path, "Ana") as (session, told):
        session.requests.create_table(
            CreateTableMsg(type=ClientMessage.CREATE_TABLE, name="mine", seats=3)
        )
        await until(lambda: session.model is not None and session.model.info, "the seat")
        assert session.model is not None and session.model.may_start
        assert session.requests.intent == IDLE
        session.requests.close_table()
        assert session.requests.intent == Intent(Want.CLOSE, "mine")
        await until(lambda: session.model is None, "the close")
        assert "You closed table mine." in told.notices()
        assert told.of("table_left")
        assert session.saved_seat() is None and "mine" not in session.lobby.tables


async def test_a_dead_saved_seat_is_forgotten_and_the_command_line_done(
    server: Any, connect: Any, tmp_path: Path
) -> None:
    await bens_table(connect, seats=3)
    store = TokenStore(tmp_path / "resume.json")
    store.put(f"127.0.0.1:{server.port} ana", "no-such-token", "t1", "Ana", 1)
    async with running(server, tmp_path, "Ana", table="t1", store=store) as (session, told):
        await until(lambda: session.model is not None, "the join")
        assert "The seat saved for this server is gone." in told.notices()
        saved = session.saved_seat()
        assert saved is not None and saved["token"] != "no-such-token"
