#!/usr/bin/env bash
# Strict type check of the installed package, craits (mypy --strict, configured in pyproject.toml).
# The folders server/, client/, protocol/ are the packages craits.server, craits.client and
# craits.protocol; mypy cannot follow setuptools' editable-install mapping, so this lays the
# namespace out as links in a temporary folder and checks it there: `mypy -p craits`.
# Usage: scripts/typecheck.sh [extra mypy arguments]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
mypy="${MYPY:-$root/.venv/bin/mypy}"
tree="$(mktemp -d)"
trap 'rm -rf "$tree"' EXIT
mkdir "$tree/craits"
for part in server client protocol; do
  ln -s "$root/$part" "$tree/craits/$part"
done
cd "$tree"
"$mypy" --config-file "$root/pyproject.toml" --cache-dir "$root/.mypy_cache" -p craits "$@"
