"""tools/bench_messaging.py runs with its floors (tiny sizes, so it cannot rot); its figures are never asserted."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

TOOL = Path(__file__).resolve().parent.parent / "tools" / "bench_messaging.py"


@pytest.mark.timeout(180)
def test_the_messaging_bench_runs_with_both_floors() -> None:
    argv = [sys.executable, str(TOOL), "--messages", "200", "--batches", "100", "--clients", "1", "--rounds", "2", "--seconds", "2", "--floor"]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=170)
    assert done.returncode == 0, done.stderr
    assert "commit every  100" in done.stdout
    rows = re.findall(r"floor, 1 client: the bare server with (.+?) +[\d,]+ \(.*ratio to bare +[\d.]+ +pcfserver to it +[\d.]+", done.stdout)
    assert rows == ["one in-place frame fdatasync'd per answer", "one commit of the store's row per answer"], done.stdout
    assert "unexpected answers" not in done.stdout
