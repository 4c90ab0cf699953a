"""The README's quick start: two commands on a fresh machine that do not get in
each other's way, and CI running the README's own test command."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def shell_blocks() -> list[str]:
    """The README's ``sh`` code blocks, in order, each as one string."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return [block.strip() for block in re.findall(r"```sh\n(.*?)```", text, flags=re.S)]


def venv_of(command: str) -> str:
    """The virtual environment a ``python3 -m venv X && X/bin/pip install ...`` command makes."""
    made = re.match(r"python3 -m venv (\S+) && ", command)
    assert made, command
    return made.group(1)


def test_the_two_commands_use_their_own_environments() -> None:
    blocks = shell_blocks()
    host, tests = blocks[0], next(b for b in blocks if "pytest" in b)
    # one installs a copy and runs the server; the other an editable install with the tests:
    # in one environment the second would swap the package under a running client
    assert "craits-server" in host and "pip install ." in host
    assert "-e '.[test]'" in tests
    assert venv_of(host) != venv_of(tests)


def test_ci_runs_the_readmes_test_command() -> None:
    tests = next(b for b in shell_blocks() if "pytest" in b)
    venv = venv_of(tests)
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert f"python3 -m venv {venv}\n" in ci
    # the same install as the README's, pins included
    install = re.search(rf"{re.escape(venv)}/bin/pip install (.+?) && ", tests)
    assert install, tests
    assert "-c tests/constraints.txt" in install.group(1)
    assert f"{venv}/bin/python -m pip install -q {install.group(1)}\n" in ci
    assert re.search(rf"^{re.escape(venv)}/bin/pytest$", ci, flags=re.M)


def test_the_pins_cover_every_dependency_of_the_tests() -> None:
    """tests/constraints.txt pins (==) each package the test environment asks for,
    and every pin lies within pyproject.toml's range for it."""
    import tomllib

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    pins: dict[str, str] = {}
    for line in (ROOT / "tests" / "constraints.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            requirement = Requirement(line.split(";", 1)[0])
            (spec,) = requirement.specifier
            assert spec.operator == "==", line
            pins[canonicalize_name(requirement.name)] = spec.version
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    asked = [*project["dependencies"], *project["optional-dependencies"]["test"]]
    assert asked
    for text in asked:
        requirement = Requirement(text)
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{name} is not pinned: run scripts/refresh_pins.sh"
        assert requirement.specifier.contains(pins[name]), f"{name}=={pins[name]} not in {text}"


def test_every_package_folder_is_installed() -> None:
    """``pip install .`` (not editable) installs only the packages pyproject.toml lists: a
    folder of modules left out of the list works in the tests' editable install and is
    missing from the players' (the expert bot's package was, at first)."""
    import tomllib

    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
        "setuptools"
    ]
    roots: dict[str, str] = setuptools["package-dir"]
    found = set()
    for package, folder in roots.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            parts = init.parent.relative_to(ROOT / folder).parts
            found.add(".".join((package, *parts)))
    assert set(setuptools["packages"]) == found
