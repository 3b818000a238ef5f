"""tools/bench_console.py runs (tiny sizes, so it cannot rot); its figures are never asserted."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

TOOL = Path(__file__).resolve().parent.parent / "tools" / "bench_console.py"


@pytest.mark.timeout(180)
def test_the_console_bench_runs_with_tiny_sizes() -> None:
    done = subprocess.run([sys.executable, str(TOOL), "--queues", "30", "--requests", "2"], capture_output=True, text=True, timeout=170)
    assert done.returncode == 0, done.stderr
    assert "queues, by depth" in done.stdout and "REST v1 attributes=*" in done.stdout and "REST DISPLAY" in done.stdout
