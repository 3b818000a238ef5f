"""Runs one benchmark script on an earlier revision and on the working tree, alternately, and prints the ratios.

    python tools/bench_versions.py --before REV [--rounds 3] -- tools/bench_engine.py --count 50000

The earlier revision is checked out into a temporary git worktree; each round runs the script once under each
tree (the order alternating, so that a machine whose speed drifts favours neither), with PYTHONPATH naming that
tree.  Every number the script prints in a ``<number> commands/s`` or ``<number> cmd/s`` form is collected by its
position in the output; the report gives each one's median per tree and the ratio now / before (above 1: faster
now).  Both runs are in the same invocation, so the ratio, not the absolute figure, is what to compare.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_RATE = re.compile(r"([0-9][0-9,]*(?:\.[0-9]+)?)\s*(?:durable\s+)?(?:commands|cmd)/s")


def _rates(output: str) -> list[tuple[str, float]]:
    """(the line's text up to the number, the number) for each rate the output prints."""
    found = []
    for line in output.splitlines():
        for match in _RATE.finditer(line):
            label = line[: match.start()].strip() or line.strip()
            found.append((label, float(match.group(1).replace(",", ""))))
    return found


def _run(tree: Path, script: list[str]) -> list[tuple[str, float]]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    done = subprocess.run([sys.executable, *script], cwd=tree, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(script)} failed under {tree}:\n{done.stderr[-2000:]}")
    return _rates(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, help="the earlier revision (a commit, tag or branch)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("script", nargs=argparse.REMAINDER, help="-- then the benchmark script and its arguments")
    args = parser.parse_args()
    script = args.script[1:] if args.script[:1] == ["--"] else args.script
    if not script:
        parser.error("name the benchmark script after --")
    with tempfile.TemporaryDirectory() as tmp:
        before = Path(tmp) / "before"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(before), args.before], check=True)
        try:
            runs: dict[str, list[list[tuple[str, float]]]] = {"before": [], "now": []}
            for index in range(args.rounds):
                order = [("before", before), ("now", ROOT)]
                for name, tree in order if index % 2 == 0 else reversed(order):
                    runs[name].append(_run(tree, script))
                    print(f"round {index + 1} {name}: " + ", ".join(f"{v:,.0f}" for _, v in runs[name][-1]), flush=True)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(before)], check=False)
    labels = [label for label, _ in runs["now"][0]]
    print(f"\nmedians of {args.rounds} rounds, {args.before} against the working tree:")
    for position, label in enumerate(labels):
        old = statistics.median(r[position][1] for r in runs["before"] if len(r) > position)
        new = statistics.median(r[position][1] for r in runs["now"] if len(r) > position)
        print(f"  {label[:70]:<70} before {old:>12,.0f}  now {new:>12,.0f}  ratio {new / old:5.2f}")


if __name__ == "__main__":
    main()
