#!/usr/bin/env python3
"""Benchmark: the Spark pipeline beside the project's own single-process decode of the same files.

Generates (once, then reuses) ``--messages`` messages in ``--files`` captures with
tools/gen_captures.py, then alternates, ``--repeat`` times:

* single process: the codec decoding every file and building the same rows
  (``pcfserver.pipeline.rows.decode_file``, the function the Spark tasks run), in this process;
* single process, whole job: the same plus per-file statistics and the Parquet output, i.e. the
  Spark tasks' code (``tasks.ParquetSink``) run over all files in this process;
* the Spark job end to end (list the input, decode, write Parquet, summary.json) on a local
  SparkSession started beforehand; its start-up time is reported on its own.

Rates are messages (decoded rows) per second of wall time; the ratio is Spark over the
single-process decode, medians over the repeats.  CPU seconds of the Spark driver JVM and of its
Python workers are read from /proc (Linux) to show where the time goes.

    python tools/bench_pipeline.py                    # 2,000,000 messages in 20 files
    python tools/bench_pipeline.py --messages 200000 --repeat 1
"""

from __future__ import annotations

import argparse
import json
import os
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


def ensure_captures(folder: Path, files: int, messages: int, corrupt_rate: float, seed: int) -> dict[str, Any]:
    manifest = folder / "_manifest.json"
    if manifest.exists():
        known = json.loads(manifest.read_text())
        if (known.get("messages"), len(known.get("files", [])), known.get("corrupt_rate"), known.get("seed")) == (messages, files, corrupt_rate, seed):
            return dict(known)
    shutil.rmtree(folder, ignore_errors=True)
    command = [
        sys.executable, str(ROOT / "tools" / "gen_captures.py"), "--files", str(files), "--messages", str(messages),
        "--corrupt-rate", str(corrupt_rate), "--seed", str(seed), "--out", str(folder),
    ]  # fmt: skip
    subprocess.run(command, check=True)
    return dict(json.loads(manifest.read_text()))


def capture_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.suffix == ".pcf")


def single_decode(paths: list[Path]) -> tuple[int, float, float]:
    """The baseline: decode every file and build the rows, in this process."""
    from pcfserver.pipeline import rows

    started, cpu = time.perf_counter(), time.process_time()
    count = 0
    for path in paths:
        data = path.read_bytes()
        for messages, _ in rows.decode_file(str(path), data):
            count += messages.num_rows
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=20)
    parser.add_argument("--messages", type=int, default=2_000_000)
    parser.add_argument("--corrupt-rate", type=float, default=0.001)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--captures", default=os.path.join(tempfile.gettempdir(), "pcfserver-pipeline-bench-captures"), help="capture folder (generated if needed)")
    parser.add_argument("--output", default=os.path.join(tempfile.gettempdir(), "pcfserver-pipeline-bench-output"))
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--writers", default="arrow", help="comma-separated Spark job writers to time: arrow, spark")
    parser.add_argument("--repeat", type=int, default=3, help="alternating rounds (medians are reported)")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args(argv)

    sys.path.insert(0, str(ROOT))
    folder = Path(args.captures)
    manifest = ensure_captures(folder, args.files, args.messages, args.corrupt_rate, args.seed)
    paths = capture_files(folder)
    total_bytes = sum(p.stat().st_size for p in paths)
    print(f"captures: {manifest['messages']:,} messages in {len(paths)} files, {total_bytes / 2**20:,.0f} MiB ({folder})", flush=True)

    from pcfserver.pipeline import job

    load_before = os.getloadavg()
    started = time.perf_counter()
    writers = [w.strip() for w in args.writers.split(",") if w.strip()]
    spark = job.session(args.master, conf=[("spark.ui.showConsoleProgress", "false")], light_jvm="spark" not in writers)
    session_seconds = time.perf_counter() - started
    jvm_pid = int(spark.sparkContext._jvm.java.lang.ProcessHandle.current().pid())
    rounds: dict[str, list[dict[str, float]]] = {"single_decode": [], "single_job": [], **{f"spark_{w}": [] for w in writers}}
    decoded = 0
    try:
        job.run_job(spark, [str(folder)], args.output, overwrite=True, glob_filter="*.pcf")  # warm the workers once
        for round_number in range(1, args.repeat + 1):
            count, seconds, cpu = single_decode(paths)
            rounds["single_decode"].append({"messages": count, "seconds": seconds, "cpu": cpu})
            decoded = count
            for writer in writers:
                jvm_before = _jvm_cpu_seconds(jvm_pid)
                all_before = _cpu_seconds(jvm_pid)
                result = job.run_job(spark, [str(folder)], args.output, overwrite=True, writer=writer, glob_filter="*.pcf")
                jvm_cpu = _jvm_cpu_seconds(jvm_pid) - jvm_before
                python_cpu = _cpu_seconds(jvm_pid) - all_before - jvm_cpu
                rounds[f"spark_{writer}"].append(
                    {
                        "messages": result.summary["messages"],
                        "seconds": result.seconds,
                        "jvm_cpu": jvm_cpu,
                        "python_cpu": python_cpu,
                        "cpu": jvm_cpu + python_cpu,
                    }
                )
            count, seconds, cpu = single_job(paths, Path(args.output + "-single"))
            rounds["single_job"].append({"messages": count, "seconds": seconds, "cpu": cpu})
            line = "  ".join(f"{k} {v[-1]['seconds']:.1f}s" for k, v in rounds.items())
            paired = "  ".join(
                f"{w} {rounds['single_decode'][-1]['seconds'] / rounds[f'spark_{w}'][-1]['seconds']:.2f}x" for w in writers
            )
            print(f"round {round_number}: {line}  ratio {paired}  (load {os.getloadavg()[0]:.1f})", flush=True)
    finally:
        spark.stop()

    def median(name: str, key: str = "seconds") -> float:
        return statistics.median(r[key] for r in rounds[name])

    base = median("single_decode")
    base_cpu = median("single_decode", "cpu")
    print()
    print(f"{'run':38s} {'seconds':>8s} {'messages/s':>11s} {'vs single':>9s} {'CPU s':>7s}")
    figures: dict[str, Any] = {"messages": decoded, "files": len(paths), "bytes": total_bytes, "session_start_seconds": round(session_seconds, 2)}
    labels = {"single_decode": "single process: decode + rows", "single_job": "single process: the tasks' whole job"}
    for name in rounds:
        seconds = median(name)
        rate = decoded / seconds
        cpu = median(name, "cpu")
        label = labels.get(name, f"spark {args.master} job ({name.removeprefix('spark_')} writer)")
        print(f"{label:38s} {seconds:8.1f} {rate:11,.0f} {base / seconds:8.2f}x {cpu:7.1f}")
        figures[name] = {
            "seconds": round(seconds, 2),
            "messages_per_second": round(rate),
            "ratio_to_single_decode": round(base / seconds, 3),
            "cpu_seconds": round(cpu, 2),
        }
        if name.startswith("spark_"):
            figures[name]["jvm_cpu_seconds"] = round(median(name, "jvm_cpu"), 2)
            figures[name]["python_cpu_seconds"] = round(median(name, "python_cpu"), 2)
            with_start = seconds + session_seconds
            figures[name]["with_session_start"] = {"seconds": round(with_start, 2), "ratio_to_single_decode": round(base / with_start, 3)}
            paired = sorted(d["seconds"] / r["seconds"] for d, r in zip(rounds["single_decode"], rounds[name], strict=True))
            figures[name]["paired_ratios"] = [round(x, 3) for x in paired]
            print(f"{'  ratio of each round':38s} median {statistics.median(paired):.2f}x, range {paired[0]:.2f}x-{paired[-1]:.2f}x")
            # What two otherwise idle cores would give if the job's CPU work split evenly over them:
            figures[name]["cpu_bound_ratio_on_2_idle_cores"] = round(base_cpu / (cpu / 2), 3)
            print(
                f"{'  incl. session start':38s} {with_start:8.1f} {decoded / with_start:11,.0f} {base / with_start:8.2f}x"
                f"   (CPU: JVM {figures[name]['jvm_cpu_seconds']:.1f}s, Python workers {figures[name]['python_cpu_seconds']:.1f}s;"
                f" single-process decode CPU / half the job's CPU = {figures[name]['cpu_bound_ratio_on_2_idle_cores']:.2f})"
            )
    figures["load_average"] = {"before": round(load_before[0], 2), "after": round(os.getloadavg()[0], 2)}
    figures["rounds"] = rounds
    print(f"\nSpark session start {session_seconds:.1f}s; load average {load_before[0]:.1f} before, {os.getloadavg()[0]:.1f} after; {os.cpu_count()} CPUs")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
