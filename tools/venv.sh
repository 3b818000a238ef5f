#!/usr/bin/env bash
# Makes ./.venv with the project installed (editable) and the extras named in $1, once per
# change of pyproject.toml. Sourced by tools/run.sh and tools/test.sh.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
extras=${1:-}
venv="$root/.venv"
hash=$(sha1sum "$root/pyproject.toml" | cut -c1-12)
stamp="$venv/.installed-$hash-${extras//,/_}"
if [ ! -f "$stamp" ]; then
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip >&2
  spec="$root"
  [ -n "$extras" ] && spec="$root[$extras]"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -e "$spec" >&2
  # stamps of an older pyproject.toml go; those of other extras with this one stay valid
  find "$venv" -maxdepth 1 -name '.installed-*' ! -name ".installed-$hash-*" -delete
  touch "$stamp"
fi
export PATH="$venv/bin:$PATH"
