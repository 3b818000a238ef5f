#!/usr/bin/env bash
# Quick start, first command: sets up ./.venv and runs pcfserver. With no arguments it runs the
# main job on the embedded defaults; any arguments are passed to the pcfserver command.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$root/tools/venv.sh" ""
cd "$root"
if [ $# -eq 0 ]; then
  # PCF on 127.0.0.1:1414, the messaging REST API on 127.0.0.1:9080, data in ./pcfdata, queue
  # manager QM1; Ctrl-C stops it cleanly
  set -- serve --http-port 9080
fi
exec pcfserver "$@"
