#!/usr/bin/env python3
"""Benchmark: the Spark pipeline against one process running the bare codec over the same files.

Generates (once, then reuses) ``--messages`` messages in ``--files`` captures with
tools/gen_captures.py (by default ``--rich-rate 0.12``: event, statistics, channel status and
z/OS messages with groups, filters, 64-bit integers and byte strings interleaved at random among
the queue administration, and ``--corrupt-rate 0.001`` damaged; ``--rich-rate 0`` gives the
uniform admin mix of earlier rounds), starts a local SparkSession (its start-up timed on its own), then
alternates, ``--repeat`` times:

* **baseline**: one process calling ``pcfserver.decode(data, strict=False)`` on each file, nothing
  else (no rows, no output), in this process;
* single process, rows: ``columns.decode_file`` (the function the Spark tasks run: rows and Arrow
  batches from the bytes) over every file, with its time split into scanning and column building;
* single process, whole job: the Spark tasks' own code (``tasks.ParquetSink``: rows, per-file
  statistics, Parquet) over every file, in this process;
* the Spark job (list the input, decode, write Parquet, summary.json) on the session started
  beforehand, timed by the job itself as the CLI reports it;
* end to end: ``pcfserver pipeline DIR --output OUT --master M`` as a user runs it, a new process
  with its own JVM and SparkSession, timed from start to exit.

Ratios are the baseline's seconds over each run's (above 1 is faster than the baseline), medians
over the repeats; the targets are 1.3x for the job's own time and 1.15x end to end.  CPU seconds
of the Spark driver JVM and of its Python workers are read from /proc (Linux).

    python tools/bench_pipeline.py                    # 3,000,000 messages in 30 files
    python tools/bench_pipeline.py --messages 300000 --files 3 --repeat 1
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _cpu_seconds(pid: int) -> float:
    """CPU seconds of a process and its live descendants (utime + stime)."""
    tick = os.sysconf("SC_CLK_TCK")
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    parent = int(handle.read().rsplit(")", 1)[1].split()[1])
                children.setdefault(parent, []).append(int(entry))
            except (OSError, ValueError, IndexError):
                continue
    total = 0.0
    stack = [pid]
    while stack:
        current = stack.pop()
        try:
            with open(f"/proc/{current}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
        except (OSError, ValueError, IndexError):
            pass
        stack.extend(children.get(current, []))
    return total


def _jvm_cpu_seconds(pid: int) -> float:
    tick = os.sysconf("SC_CLK_TCK")
    with open(f"/proc/{pid}/stat") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / tick


def ensure_captures(folder: Path, files: int, messages: int, corrupt_rate: float, seed: int, rich_rate: float) -> dict[str, Any]:
    manifest = folder / "_manifest.json"
    if manifest.exists():
        known = json.loads(manifest.read_text())
        wanted = (messages, files, corrupt_rate, seed, rich_rate)
        if (known.get("messages"), len(known.get("files", [])), known.get("corrupt_rate"), known.get("seed"), known.get("rich_rate", 0.0)) == wanted:
            return dict(known)
    shutil.rmtree(folder, ignore_errors=True)
    command = [
        sys.executable, str(ROOT / "tools" / "gen_captures.py"), "--files", str(files), "--messages", str(messages),
        "--corrupt-rate", str(corrupt_rate), "--seed", str(seed), "--out", str(folder), "--rich-rate", str(rich_rate),
    ]  # fmt: skip
    subprocess.run(command, check=True)
    return dict(json.loads(manifest.read_text()))


def capture_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.suffix == ".pcf")


def baseline(paths: list[Path]) -> tuple[int, float, float]:
    """The baseline: the bare tolerant decode of every file, in this process."""
    from pcfserver import decode

    started, cpu = time.perf_counter(), time.process_time()
    decoded = [decode(path.read_bytes(), strict=False) for path in paths]
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    return sum(1 for messages in decoded for m in messages if m.error is None), seconds, cpu


def single_rows(paths: list[Path], timings: dict[str, float]) -> tuple[int, float, float]:
    """Rows and Arrow batches of every file, as the Spark tasks build them, in this process."""
    from pcfserver.pipeline import columns

    started, cpu = time.perf_counter(), time.process_time()
    count = 0
    for path in paths:
        for messages, _ in columns.decode_file(str(path), path.read_bytes(), timings=timings):
            count += messages.num_rows
            timings["batches"] = timings.get("batches", 0) + 1
    return count, time.perf_counter() - started, time.process_time() - cpu


def single_job(paths: list[Path], output: Path) -> tuple[int, float, float]:
    """The Spark tasks' own code (rows, statistics, Parquet) over every file, in this process."""
    import pyarrow as pa

    from pcfserver.pipeline import tasks

    shutil.rmtree(output, ignore_errors=True)
    for folder in ("messages", "problems"):
        (output / folder).mkdir(parents=True)
    started, cpu = time.perf_counter(), time.process_time()

    def batches() -> Any:
        for path in paths:
            yield pa.record_batch({"path": [str(path)], "content": pa.array([path.read_bytes()], pa.binary())})

    count = 0
    for stats in tasks.ParquetSink(str(output), "single")(batches()):
        count += sum(stats.column("messages").to_pylist())
    return count, time.perf_counter() - started, time.process_time() - cpu


CLOSING_LINE = re.compile(r"(?P<messages>[\d,]+) messages, .* in (?P<seconds>[\d.]+) s \((?P<rate>[\d,]+) messages/s\)")


def end_to_end(folder: Path, output: str, master: str) -> tuple[int, float, float]:
    """``pcfserver pipeline`` in a new process: (messages, wall seconds, the job's own seconds)."""
    command = [sys.executable, "-m", "pcfserver", "pipeline", str(folder), "--output", output, "--overwrite", "--master", master, "--glob", "*.pcf", "--quiet"]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False, cwd=ROOT)
    seconds = time.perf_counter() - started
    found = CLOSING_LINE.search(done.stderr)
    if done.returncode not in (0, 1) or found is None:
        raise SystemExit(f"pcfserver pipeline failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return int(found["messages"].replace(",", "")), seconds, float(found["seconds"])


JOB_TARGET = 1.3
END_TO_END_TARGET = 1.15


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=30)
    parser.add_argument("--messages", type=int, default=3_000_000)
    parser.add_argument("--corrupt-rate", type=float, default=0.001)
    parser.add_argument("--rich-rate", type=float, default=0.12, help="gen_captures --rich-rate (0: the uniform admin mix)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--captures", help="capture folder (generated if needed; default: one per mix in the temporary folder)")
    parser.add_argument("--output", default=os.path.join(tempfile.gettempdir(), "pcfserver-pipeline-bench-output"))
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--writers", default="arrow", help="comma-separated Spark job writers to time: arrow, spark")
    parser.add_argument("--repeat", type=int, default=3, help="alternating rounds (medians are reported)")
    parser.add_argument("--no-end-to-end", action="store_true", help="skip the pcfserver pipeline command in a new process")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args(argv)

    sys.path.insert(0, str(ROOT))
    mix = "uniform" if args.rich_rate == 0 else f"rich{args.rich_rate:g}"
    folder = Path(args.captures or os.path.join(tempfile.gettempdir(), f"pcfserver-pipeline-bench-captures-{mix}"))
    manifest = ensure_captures(folder, args.files, args.messages, args.corrupt_rate, args.seed, args.rich_rate)
    paths = capture_files(folder)
    total_bytes = sum(p.stat().st_size for p in paths)
    rich = manifest.get("rich", 0)
    print(
        f"captures: {manifest['messages']:,} messages in {len(paths)} files, {total_bytes / 2**20:,.0f} MiB ({folder}); "
        f"{rich:,} ({rich / max(1, manifest['messages']):.1%}) event/statistics/channel/z/OS messages, corrupt rate {args.corrupt_rate}",
        flush=True,
    )
    print(f"load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f} on {os.cpu_count()} CPUs", flush=True)

    from pcfserver.pipeline import job

    load_before = os.getloadavg()
    started = time.perf_counter()
    writers = [w.strip() for w in args.writers.split(",") if w.strip()]
    spark = job.session(args.master, conf=[("spark.ui.showConsoleProgress", "false")], light_jvm="spark" not in writers)
    session_seconds = time.perf_counter() - started
    jvm_pid = int(spark.sparkContext._jvm.java.lang.ProcessHandle.current().pid())
    names = ["baseline", "single_rows", "single_job", *(f"spark_{w}" for w in writers)] + ([] if args.no_end_to_end else ["end_to_end"])
    rounds: dict[str, list[dict[str, float]]] = {name: [] for name in names}
    decoded = 0
    try:
        job.run_job(spark, [str(folder)], args.output, overwrite=True, glob_filter="*.pcf")  # warm the workers once
        for round_number in range(1, args.repeat + 1):
            count, seconds, cpu = baseline(paths)
            rounds["baseline"].append({"messages": count, "seconds": seconds, "cpu": cpu})
            decoded = count
            timings: dict[str, float] = {}
            count, seconds, cpu = single_rows(paths, timings)
            rounds["single_rows"].append({"messages": count, "seconds": seconds, "cpu": cpu, **timings})
            count, seconds, cpu = single_job(paths, Path(args.output + "-single"))
            rounds["single_job"].append({"messages": count, "seconds": seconds, "cpu": cpu})
            for writer in writers:
                jvm_before = _jvm_cpu_seconds(jvm_pid)
                all_before = _cpu_seconds(jvm_pid)
                result = job.run_job(spark, [str(folder)], args.output, overwrite=True, writer=writer, glob_filter="*.pcf")
                jvm_cpu = _jvm_cpu_seconds(jvm_pid) - jvm_before
                python_cpu = _cpu_seconds(jvm_pid) - all_before - jvm_cpu
                rounds[f"spark_{writer}"].append(
                    {"messages": result.summary["messages"], "seconds": result.seconds, "jvm_cpu": jvm_cpu, "python_cpu": python_cpu, "cpu": jvm_cpu + python_cpu}
                )
            if not args.no_end_to_end:
                count, seconds, own = end_to_end(folder, args.output + "-cli", args.master)
                rounds["end_to_end"].append({"messages": count, "seconds": seconds, "job_seconds": own, "cpu": 0.0})
            line = "  ".join(f"{k} {v[-1]['seconds']:.1f}s" for k, v in rounds.items())
            print(f"round {round_number}: {line}  (load {os.getloadavg()[0]:.1f})", flush=True)
    finally:
        spark.stop()

    for name, items in rounds.items():
        counts = {int(r["messages"]) for r in items}
        if counts != {decoded}:
            raise SystemExit(f"{name} counted {sorted(counts)} messages, the baseline {decoded}")

    def median(name: str, key: str = "seconds") -> float:
        return statistics.median(r[key] for r in rounds[name])

    base = median("baseline")
    labels = {
        "baseline": "baseline: bare decode(strict=False)",
        "single_rows": "single process: rows + Arrow",
        "single_job": "single process: the tasks' whole job",
        "end_to_end": f"pcfserver pipeline --master {args.master}",
    }
    print()
    print(f"{'run':40s} {'seconds':>8s} {'messages/s':>11s} {'speed-up':>9s} {'CPU s':>7s}")
    figures: dict[str, Any] = {
        "messages": decoded, "files": len(paths), "bytes": total_bytes, "rich_rate": args.rich_rate, "rich_messages": rich,
        "corrupt_rate": args.corrupt_rate, "session_start_seconds": round(session_seconds, 2),
    }  # fmt: skip
    for name in rounds:
        seconds = median(name)
        label = labels.get(name, f"spark {args.master} job ({name.removeprefix('spark_')} writer)")
        cpu = median(name, "cpu")
        print(f"{label:40s} {seconds:8.1f} {decoded / seconds:11,.0f} {base / seconds:8.2f}x {cpu:7.1f}")
        figures[name] = {"seconds": round(seconds, 2), "messages_per_second": round(decoded / seconds), "speed_up": round(base / seconds, 3), "cpu_seconds": round(cpu, 2)}
        paired = sorted(b["seconds"] / r["seconds"] for b, r in zip(rounds["baseline"], rounds[name], strict=True))
        figures[name]["paired_speed_ups"] = [round(x, 3) for x in paired]
        if name == "single_rows":
            scan, columns = median(name, "scan"), median(name, "columns")
            figures[name] |= {"scan_seconds": round(scan, 2), "columns_seconds": round(columns, 2)}
            batches = median(name, "batches")
            figures[name] |= {"batches": batches}
            print(f"{'  of which scanning / column building':40s} {scan:8.1f} / {columns:.1f}  ({batches:,.0f} Arrow batches)")
        if name == "single_job":
            rows_seconds = median("single_rows")
            figures[name]["statistics_and_parquet_seconds"] = round(seconds - rows_seconds, 2)
            print(f"{'  of which statistics + Parquet':40s} {seconds - rows_seconds:8.1f}")
        if name.startswith("spark_"):
            jvm, python = median(name, "jvm_cpu"), median(name, "python_cpu")
            figures[name] |= {"jvm_cpu_seconds": round(jvm, 2), "python_cpu_seconds": round(python, 2)}
            with_start = seconds + session_seconds
            figures[name]["with_session_start"] = {"seconds": round(with_start, 2), "speed_up": round(base / with_start, 3)}
            print(f"{'  CPU: JVM / Python workers':40s} {jvm:8.1f} / {python:.1f}")
            print(f"{'  plus the session start':40s} {with_start:8.1f} {decoded / with_start:11,.0f} {base / with_start:8.2f}x")
        if name == "end_to_end":
            own = median(name, "job_seconds")
            figures[name]["job_seconds"] = round(own, 2)
            print(f"{'  of which the job by its own count':40s} {own:8.1f} {decoded / own:11,.0f} {base / own:8.2f}x")
    job_name = f"spark_{writers[0]}" if writers else None
    print()
    if job_name:
        job_ratio = base / median(job_name)
        print(f"target: the Spark job's own time {job_ratio:.2f}x the baseline (at least {JOB_TARGET}x): {'met' if job_ratio >= JOB_TARGET else 'NOT met'}")
        figures["job_target_met"] = job_ratio >= JOB_TARGET
    if not args.no_end_to_end:
        e2e_ratio = base / median("end_to_end")
        print(f"target: end to end {e2e_ratio:.2f}x the baseline (at least {END_TO_END_TARGET}x): {'met' if e2e_ratio >= END_TO_END_TARGET else 'NOT met'}")
        figures["end_to_end_target_met"] = e2e_ratio >= END_TO_END_TARGET
    figures["load_average"] = {"before": round(load_before[0], 2), "after": round(os.getloadavg()[0], 2)}
    figures["rounds"] = rounds
    print(f"\nSpark session start {session_seconds:.1f}s; load average {load_before[0]:.1f} before, {os.getloadavg()[0]:.1f} after; {os.cpu_count()} CPUs")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
