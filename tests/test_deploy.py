"""The deployment files: the systemd unit checked by systemd itself
(``systemd-analyze``), the Dockerfile's health check run against a real
server, and the image built where a Docker daemon runs (not on every machine:
those tests skip, saying why)."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from craits.protocol.client import Connection

from tests.server.ops.test_ops import Running, start, stop
from tests.support.processes import free_port

ROOT = Path(__file__).resolve().parent.parent
UNIT = ROOT / "deploy" / "craits-server.service"
DOCKERFILE = ROOT / "Dockerfile"
BIN = Path(sys.executable).parent
"""Where this environment's ``craits-server`` is installed."""


def installed_unit(tmp_path: Path) -> Path:
    """The unit as installed here: its ``ExecStart`` pointed at this
    environment's ``craits-server`` (the unit names ``/opt/craits``, absent
    here; systemd-analyze checks that the program exists)."""
    text = UNIT.read_text().replace("/opt/craits/bin/craits-server", str(BIN / "craits-server"))
    unit = tmp_path / UNIT.name
    unit.write_text(text)
    return unit


def systemd_analyze() -> str:
    found = shutil.which("systemd-analyze")
    if found is None:
        print("systemd-analyze is not installed (Debian: apt-get install systemd)")
        pytest.skip("systemd-analyze is not installed (Debian: apt-get install systemd)")
    return found


def test_the_unit_verifies(tmp_path: Path) -> None:
    done = subprocess.run(
        [systemd_analyze(), "verify", str(installed_unit(tmp_path))],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == "", done.stderr  # an unknown or misspelt key is only a warning


def test_the_unit_is_hardened(tmp_path: Path) -> None:
    """systemd's own exposure score (0 safest … 10): below 2 (it is 1.2 as written)."""
    done = subprocess.run(
        [
            systemd_analyze(),
            "security",
            "--offline=yes",
            "--threshold=20",
            str(installed_unit(tmp_path)),
        ],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr
    text = UNIT.read_text()
    for line in (
        "DynamicUser=yes",
        "ProtectSystem=strict",
        "NoNewPrivileges=yes",
        "PrivateTmp=yes",
        "StateDirectory=craits",
        "KillSignal=SIGTERM",
    ):
        assert f"\n{line}\n" in text, line
    assert re.search(r"^RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX$", text, re.M)


def test_the_image_runs_as_a_user_with_the_data_in_a_volume() -> None:
    text = DOCKERFILE.read_text()
    users = re.findall(r"^USER (\S+)$", text, re.M)
    assert users and users[-1] not in ("root", "0")
    assert 'VOLUME ["/data"]' in text and "CRAITS_DATA_DIR=/data" in text
    assert re.search(r"^EXPOSE 7777 8080$", text, re.M)  # the game; the web page (--web)
    assert re.search(r"^HEALTHCHECK .*\n\s+CMD craits-server status ", text, re.M)


def healthcheck_command() -> str:
    """The Dockerfile's ``HEALTHCHECK`` command (its shell form)."""
    text = DOCKERFILE.read_text().replace("\\\n", " ")
    found = re.search(r"^HEALTHCHECK .*?CMD (.+)$", text, re.M)
    assert found is not None
    return found.group(1).strip()


@pytest.fixture
def server() -> Iterator[Running]:
    port = free_port()
    running = start(["--port", str(port), "--no-journal"], {}, port)
    yield running
    stop(running)


def test_the_health_check_probes_a_real_server(server: Running) -> None:
    env = {
        **os.environ,
        "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
        "CRAITS_PORT": str(server.port),
    }
    command = healthcheck_command()
    healthy = subprocess.run(["sh", "-c", command], env=env, capture_output=True, text=True)
    assert healthy.returncode == 0, healthy.stderr
    stop(server)
    # Docker reads 1 as unhealthy (other codes are reserved): the command maps ours to 1
    down = subprocess.run(["sh", "-c", command], env=env, capture_output=True, text=True)
    assert down.returncode == 1
    assert "connection refused" in down.stderr


def image_env() -> dict[str, str]:
    """The ``ENV`` the Dockerfile's image runs with (its last stage's)."""
    text = DOCKERFILE.read_text().replace("\\\n", " ")
    found = re.findall(r"^ENV (.+)$", text, re.M)
    assert found
    return dict(re.findall(r"(\w+)=(\S+)", found[-1]))


def test_the_image_s_settings_serve_the_web_page_as_documented(tmp_path: Path) -> None:
    """``docker run -e CRAITS_WEB=8080 …`` (as the Dockerfile's comment says), played
    here without Docker: this environment's craits-server with the image's ENV
    (on 0.0.0.0, JSON logs, the journal in a data directory) and ``CRAITS_WEB``
    serves the page, and trusts its own web process to say each visitor's address."""
    text = DOCKERFILE.read_text()
    assert "-e CRAITS_WEB=8080" in text and "-p 8080:8080" in text
    env = image_env()
    assert env["CRAITS_HOST"] == "0.0.0.0" and env["CRAITS_LOG_FORMAT"] == "json"
    port, web_port = free_port(), free_port()
    env.update(
        CRAITS_DATA_DIR=str(tmp_path / "data"),  # the image's /data
        HOME=str(tmp_path),  # the image's user's home, /data
        CRAITS_PORT=str(port),
        CRAITS_WEB=str(web_port),
    )
    running = start([], env, port)
    try:
        running.wait_for(f"in a browser: http://127.0.0.1:{web_port}/")
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{web_port}/", timeout=5) as r:
                    assert 'id="name-form"' in r.read().decode()
                break
            except OSError:
                assert time.monotonic() < deadline, running.lines
                time.sleep(0.1)

        async def forwarded_hello() -> None:
            conn = await Connection.open("127.0.0.1", port, "web", forwarded_for="192.0.2.9")
            await conn.close()

        asyncio.run(forwarded_hello())
    finally:
        stop(running)


def test_the_image_builds() -> None:
    docker = shutil.which("docker")
    reason = "docker is not installed"
    if docker is not None:
        info = subprocess.run([docker, "info"], capture_output=True, text=True, timeout=30)
        reason = "the Docker daemon is not running here" if info.returncode else ""
    if reason:
        print(reason)
        pytest.skip(reason)
    assert docker is not None
    if not os.environ.get("CRAITS_DOCKER_BUILD"):
        pytest.skip("set CRAITS_DOCKER_BUILD=1 to build the image (minutes, and the network)")
    done = subprocess.run(
        [docker, "build", "-q", "-t", "craits-test", str(ROOT)],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr
    version = subprocess.run(
        [docker, "run", "--rm", "craits-test", "--version"], capture_output=True, text=True
    )
    assert version.stdout.startswith("craits-server ")
