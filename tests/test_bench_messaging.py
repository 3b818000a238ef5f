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


@pytest.mark.timeout(180)
def test_the_messaging_bench_puts_mixed_sizes_and_every_answer_is_right() -> None:
    argv = [sys.executable, str(TOOL), "--mix", "--messages", "200", "--batches", "1,100", "--clients", "1,4", "--rounds", "2", "--seconds", "2", "--floor"]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=170)
    assert done.returncode == 0, done.stderr
    assert "persistent messages of mixed sizes (1,000 bodies taken in turn: 50% 256 B-1 KB" in done.stdout
    assert "commit every    1" in done.stdout and "commit every  100" in done.stdout
    assert re.search(r"^ +4 clients +[\d,]+ \(", done.stdout, re.M), done.stdout
    rows = re.findall(r"floor, 1 client: the bare server with (.+?) +[\d,]+ \(", done.stdout)
    assert rows == ["one commit of the store's row per answer"], done.stdout  # (one frame says nothing of a large body)
    assert "unexpected answers" not in done.stdout  # (a 400 or 413 for a large body would show here)


def test_the_mix_is_fixed_by_its_seed_and_spans_its_bands() -> None:
    sys.path.insert(0, str(TOOL.parent))
    try:
        import bench_messaging as bench
    finally:
        sys.path.remove(str(TOOL.parent))
    first, again = bench.mixed_bodies(), bench.mixed_bodies()
    assert first == again and len(first) == 1000
    sizes = sorted(len(b) for b in first)
    assert sizes[0] >= 256 and sizes[-1] <= 524288
    assert 0.4 < sum(s < 1024 for s in sizes) / 1000 < 0.6  # half small, as MIX_BANDS says
    assert 0.02 < sum(s >= 65536 for s in sizes) / 1000 < 0.09  # and a tail of large ones
