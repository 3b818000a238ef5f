#!/usr/bin/env bash
# Quick start, second command: sets up ./.venv with the dev and spark extras, then runs
# ruff, mypy --strict and the whole pytest suite.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$root/tools/venv.sh" "dev,spark"
cd "$root"
echo "== ruff"; ruff check pcfserver tests tools
echo "== mypy --strict pcfserver"; mypy --strict pcfserver
echo "== pytest"; exec python -m pytest "$@"
