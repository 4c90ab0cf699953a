#!/usr/bin/env bash
# Strict type check of the package, craits (mypy --strict, configured in pyproject.toml):
# `mypy` from the repository's root checks craits.server, craits.client and craits.protocol
# through the links in typecheck/craits/ (see [tool.mypy]). CI runs this.
# Usage: scripts/typecheck.sh [extra mypy arguments]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
# the tests' environment (.venv-test, as the README and CI make it), else a .venv with mypy
venv="$root/.venv-test"
[ -x "$venv/bin/mypy" ] || venv="$root/.venv"
exec "${MYPY:-$venv/bin/mypy}" "$@"
