"""``craits-server``'s settings from four places: the command line, ``CRAITS_*``
environment variables, a TOML file (``--config FILE``) and the defaults.

The layer is generic over an :class:`argparse.ArgumentParser`: every option the
parser has (its long name, its ``dest``, its ``type`` and ``choices``) can be
set in each place, so an option added to the parser later needs no code here.

- The file's key is the option's long name without its dashes: ``--data-dir``
  is ``data-dir = "/var/lib/craits"``; a flag (``--no-journal``) is a TOML
  boolean. A key the parser does not know is an error.
- The environment variable is ``CRAITS_`` and the key in capitals, ``_`` for
  ``-``: ``CRAITS_DATA_DIR``; a flag reads ``1``/``true``/``yes``/``on`` or
  ``0``/``false``/``no``/``off``. ``CRAITS_CONFIG`` names the file.
- Precedence: the command line over the environment over the file over the
  defaults.

A bad value or an unknown key is a :class:`ConfigError`, whose message names
the key and where it came from, on one line.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

from ..errors import ConfigError

ENV_PREFIX = "CRAITS_"
"""Every environment variable the server reads starts with this."""
CONFIG_ENV = "CRAITS_CONFIG"
"""The environment variable naming the config file (as ``--config`` does)."""
TRUE = frozenset({"1", "true", "yes", "on"})
FALSE = frozenset({"0", "false", "no", "off"})
_OWN = frozenset({"help", "version", "config", "print_config"})
"""The parser's options that are not settings."""
_UNSET = object()


@dataclass(frozen=True)
class Setting:
    """One option of the parser seen as a setting."""

    action: argparse.Action

    @property
    def dest(self) -> str:
        """The attribute of the parsed namespace."""
        return self.action.dest

    @property
    def key(self) -> str:
        """The TOML key: the first long option without its dashes (``data-dir``)."""
        longs = [o for o in self.action.option_strings if o.startswith("--")]
        return longs[0][2:] if longs else self.dest.replace("_", "-")

    @property
    def env(self) -> str:
        """The environment variable: ``CRAITS_`` and the key in capitals, ``_``
        for ``-`` (``CRAITS_DATA_DIR``; ``--no-color`` is ``CRAITS_NO_COLOR``)."""
        return ENV_PREFIX + self.key.upper().replace("-", "_")

    def file_value(self, value: object) -> object:
        """``value`` (the namespace's) as the file writes it under :attr:`key`:
        a switch as whether it is on (``no-color = true`` when ``color`` is False)."""
        action = self.action
        if not self.is_switch or isinstance(action, argparse.BooleanOptionalAction):
            return value
        return value == action.const

    @property
    def flag(self) -> str:
        """The option as written on the command line (``--data-dir``)."""
        return "--" + self.key

    @property
    def is_switch(self) -> bool:
        """The option takes no value (``store_true``/``store_false``/``store_const``,
        ``BooleanOptionalAction``), but is not a ``count``."""
        return self.action.nargs == 0 and not isinstance(self.action, argparse._CountAction)

    @property
    def is_list(self) -> bool:
        """The option takes several values (``nargs`` ``*``/``+``/N, or ``append``)."""
        nargs = self.action.nargs
        return isinstance(self.action, argparse._AppendAction) or (
            nargs not in (None, 0, "?", argparse.OPTIONAL)
        )

    def convert(self, raw: object, source: str) -> object:
        """``raw`` (a string from the environment, or a TOML value) as the
        parser would have made it from the command line.

        Raises:
            ConfigError: it is not of the option's type, or not one of its choices.
        """
        if self.is_switch:
            return self._switch(raw, source)
        if isinstance(self.action, argparse._CountAction):
            if isinstance(raw, bool) or not isinstance(raw, int | str) or not str(raw).isdigit():
                raise self._error(source, raw, "a count (0, 1, 2...) is needed")
            return int(raw)
        if self.is_list:
            items = raw.split() if isinstance(raw, str) else raw
            if not isinstance(items, list):
                raise self._error(source, raw, "a list is needed")
            return [self._one(item, source) for item in items]
        return self._one(raw, source)

    def _switch(self, raw: object, source: str) -> object:
        if isinstance(raw, bool):
            on = raw
        elif isinstance(raw, str) and raw.strip().lower() in TRUE | FALSE:
            on = raw.strip().lower() in TRUE
        else:
            raise self._error(source, raw, "true or false is needed")
        action = self.action
        if isinstance(action, argparse.BooleanOptionalAction):
            return on  # --web / --no-web: the key is the positive name
        if isinstance(action.const, bool):
            # a store_false option (const False) stores False when switched on
            return action.const if on else not action.const
        return action.const if on else action.default  # store_const

    def _one(self, raw: object, source: str) -> object:
        kind: Callable[[str], object] | None = self.action.type  # type: ignore[assignment]
        if isinstance(raw, bool) or not isinstance(raw, str | int | float):
            raise self._error(source, raw, "a string or a number is needed")
        if isinstance(raw, float) and kind is int:
            raise self._error(source, raw, "a whole number is needed")
        if not isinstance(raw, str) and kind in (None, str, Path):
            raise self._error(source, raw, "a string is needed")
        if isinstance(raw, int | float) and kind in (int, float):
            value: object = raw if kind is int else float(raw)
        else:
            try:
                value = kind(str(raw)) if kind is not None else str(raw)
            except (TypeError, ValueError, argparse.ArgumentTypeError) as exc:
                name = getattr(kind, "__name__", "value")
                why = f"not a valid {name}"
                if isinstance(exc, argparse.ArgumentTypeError):
                    why = str(exc)
                raise self._error(source, raw, why) from None
        choices = self.action.choices
        if choices is not None and value not in choices:
            shown = ", ".join(str(c) for c in choices)
            raise self._error(source, raw, f"not one of {shown}")
        return value

    def _error(self, source: str, raw: object, why: str) -> ConfigError:
        return ConfigError(f"{source}: {self.key} = {raw!r}: {why}")


def settings(parser: argparse.ArgumentParser) -> list[Setting]:
    """The parser's options that are settings, in the order of its ``--help``
    (every option with a long name, less ``--help``, ``--version``,
    ``--config``, ``--print-config`` and options hidden from ``--help``, which
    are the program's own plumbing, e.g. a ``--workers`` node's shared port)."""
    found = []
    for action in parser._actions:
        if not action.option_strings or action.dest in _OWN:
            continue
        if action.dest == argparse.SUPPRESS or isinstance(action, argparse._VersionAction):
            continue
        if action.help == argparse.SUPPRESS:
            continue
        found.append(Setting(action))
    return found


def add_config_options(parser: argparse.ArgumentParser) -> None:
    """Give ``parser`` ``--config FILE`` and ``--print-config``."""
    group = parser.add_argument_group("configuration")
    group.add_argument(
        "--config",
        type=Path,
        default=None,
        metavar="FILE",
        help="read settings from this TOML file: a key per option, named as the option "
        f'without its dashes (data-dir = "..."); {CONFIG_ENV} names it too. Precedence: '
        f"the command line, then {ENV_PREFIX}* environment variables (CRAITS_DATA_DIR...), "
        "then the file, then the defaults",
    )
    group.add_argument(
        "--print-config",
        action="store_true",
        help="print the settings in force as TOML (usable as a --config file), each "
        "with where it came from, and exit",
    )


@dataclass
class Resolved:
    """The settings in force: ``values`` as a parsed namespace, and the source
    of each (``default``, ``file PATH``, ``env NAME``, ``flag --NAME``) by ``dest``."""

    values: argparse.Namespace
    sources: dict[str, str] = field(default_factory=dict)
    config_file: Path | None = None
    ignored: list[str] = field(default_factory=list)
    """``CRAITS_*`` environment variables that name no setting (a misspelling?)."""


def read_file(path: Path, known: Iterable[Setting]) -> dict[str, tuple[Setting, object]]:
    """The settings in a TOML file, by ``dest``, each with its raw value.

    Raises:
        ConfigError: the file cannot be read or is not TOML, or holds a key no
            option has (or a table).
    """
    by_key = {s.key: s for s in known}
    try:
        with path.open("rb") as f:
            data = tomllib.load(f)
    except OSError as exc:
        raise ConfigError(f"config file {path}: cannot read it: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"config file {path}: not TOML: {exc}") from None
    found: dict[str, tuple[Setting, object]] = {}
    for key, raw in data.items():
        setting = by_key.get(key) or by_key.get(key.replace("_", "-"))
        if setting is None:
            raise ConfigError(f"config file {path}: unknown key {key!r}")
        found[setting.dest] = (setting, raw)
    return found


def resolve(
    parser: argparse.ArgumentParser,
    argv: Sequence[str],
    environ: Mapping[str, str] | None = None,
) -> Resolved:
    """Parse ``argv`` with ``parser`` (given :func:`add_config_options`), the
    environment and the config file filling what the command line leaves unset.

    Raises:
        ConfigError: an unknown key in the file, a bad value in the file or
            the environment (a bad command line exits through argparse, status 2).
    """
    environ = os.environ if environ is None else environ
    known = settings(parser)
    given = argparse.Namespace()
    for s in known:
        setattr(given, s.dest, None if _takes_none(s.action) else _UNSET)
    args = parser.parse_args(list(argv), namespace=given)
    config_path: Path | None = getattr(args, "config", None)
    if config_path is None and environ.get(CONFIG_ENV):
        config_path = Path(environ[CONFIG_ENV])
    in_file = read_file(config_path, known) if config_path is not None else {}
    sources: dict[str, str] = {}
    for s in known:
        if s.dest in sources:
            continue  # a dest two options share (--color, --no-color): done with the first
        value = getattr(args, s.dest)
        if value is not _UNSET and not (_takes_none(s.action) and value is None):
            sources[s.dest] = f"flag {s.flag}"
            continue
        same = [t for t in known if t.dest == s.dest]
        value, sources[s.dest] = _unflagged(parser, s, same, environ, in_file, config_path)
        setattr(args, s.dest, value)
    names = {t.env for t in known} | {CONFIG_ENV}
    ignored = sorted(k for k in environ if k.startswith(ENV_PREFIX) and k not in names)
    return Resolved(args, sources, config_path, ignored)


def _unflagged(
    parser: argparse.ArgumentParser,
    s: Setting,
    same: list[Setting],
    environ: Mapping[str, str],
    in_file: dict[str, tuple[Setting, object]],
    config_path: Path | None,
) -> tuple[object, str]:
    """The value of setting ``s`` (``same``: the settings of its dest) that the
    command line left unset, and where it comes from: the environment over the
    config file over the default.

    Raises:
        ConfigError: the environment's or the file's value does not convert.
    """
    from_env = next((t for t in same if t.env in environ), None)
    if from_env is not None:
        where = f"env {from_env.env}"
        return from_env.convert(environ[from_env.env], where), where
    if s.dest in in_file:
        where = f"config file {config_path}"
        setting, raw = in_file[s.dest]
        return setting.convert(raw, where), where
    return _default(parser, s), "default"


def _takes_none(action: argparse.Action) -> bool:
    """Actions that read the namespace's value as their start (append, count)."""
    return isinstance(action, argparse._AppendAction | argparse._CountAction)


def _default(parser: argparse.ArgumentParser, s: Setting) -> object:
    """The option's default as argparse gives it (a string default goes through ``type``)."""
    default = parser.get_default(s.dest)
    kind = s.action.type
    if isinstance(default, str) and callable(kind):
        return kind(default)
    return default


def toml_value(value: object) -> str | None:
    """``value`` written as a TOML value, or None when TOML cannot hold it (None)."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        return ("inf" if value > 0 else "-inf") if math.isinf(value) else repr(value)
    if isinstance(value, list | tuple):
        items = [toml_value(v) for v in value]
        return "[" + ", ".join(i for i in items if i is not None) + "]"
    text = value.value if isinstance(value, Enum) else value
    return json.dumps(str(text), ensure_ascii=False)  # a TOML basic string


def render(parser: argparse.ArgumentParser, resolved: Resolved) -> str:
    """The settings in force as a TOML document, each line commented with its
    source; a setting with no value (None) is written commented out."""
    lines = [f"# {parser.prog}: the settings in force, and where each came from"]
    if resolved.config_file is not None:
        lines.append(f"# config file: {resolved.config_file}")
    if resolved.ignored:
        lines.append(f"# ignored, not settings: {', '.join(resolved.ignored)}")
    written: set[str] = set()
    for s in settings(parser):
        if s.dest in written:
            continue  # a dest two options share: written once, under the first
        written.add(s.dest)
        text = toml_value(s.file_value(getattr(resolved.values, s.dest)))
        source = resolved.sources.get(s.dest, "default")
        if text is None:
            lines.append(f"# {s.key} =   # not set ({source})")
        else:
            lines.append(f"{s.key} = {text}  # {source}")
    return "\n".join(lines) + "\n"


def blame(parser: argparse.ArgumentParser, resolved: Resolved, dest: str, why: str) -> str:
    """A one-line message that setting ``dest`` is bad (``why``), naming it as
    its source has it: ``--port must be 1..65535 (got 70000)`` for a flag,
    ``env CRAITS_PORT: port = '70000': must be ...`` otherwise."""
    value = getattr(resolved.values, dest, None)
    source = resolved.sources.get(dest, "default")
    for s in settings(parser):
        if s.dest == dest:
            if source.startswith("flag"):
                return f"{s.flag} {why} (got {toml_value(value)})"
            return f"{source}: {s.key} = {toml_value(value)}: {why}"
    return f"{dest} = {value!r}: {why}"
