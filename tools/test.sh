#!/usr/bin/env bash
# Quick start, second command: sets up ./.venv with the dev and spark extras, then runs
# ruff, mypy --strict and the whole pytest suite.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$root/tools/venv.sh" "dev,spark"
cd "$root"
# The web console's browser tests drive Debian's chromium through Debian's chromium-driver (one source package, so
# browser and driver always match); selenium never downloads a driver.  Installed here where missing.
if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
  echo "== installing chromium and chromium-driver (the web console's browser tests)"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo -n"
  $sudo apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium chromium-driver >&2
fi
echo "== ruff"; ruff check pcfserver tests tools
echo "== mypy --strict pcfserver"; mypy --strict pcfserver
echo "== pytest"; exec python -m pytest "$@"
