"""``pcfserver pipeline INPUT... --output DIR``: decode captured PCF streams on Spark.

Imports nothing of Spark or pyarrow until the job runs, so the ``pcfserver`` command stays light.
Exit status: 0 when every span decoded, 1 when the job found undecodable spans (they are in
``problems/``) or rows that do not account for every byte, 2 when the job could not run as asked.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence

DESCRIPTION = """\
Decodes raw PCF streams (the server's capture files, or streams cut from other tools) with the
tolerant codec in Spark tasks and writes DIR/messages/ (one Parquet row per message),
DIR/problems/ (one row per undecodable span) and DIR/summary.json (also printed).
INPUT is a file, a folder (read recursively) or a glob, as a local path or any URI Spark reads.
On a cluster, run the same job with spark-submit (see pcfserver/pipeline/README.md)."""

_SIZE = re.compile(r"^\s*(\d+)\s*([kmg]?)i?b?\s*$", re.IGNORECASE)


def _bytes(text: str) -> int:
    match = _SIZE.match(text)
    if not match:
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (e.g. 32m, 1g, 65536)")
    number, unit = match.groups()
    return int(number) * {"": 1, "k": 1024, "m": 1024**2, "g": 1024**3}[unit.lower()]


def _conf(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"--conf takes KEY=VALUE, not {text!r}")
    return key.strip(), value


def configure(name: str, parser: argparse.ArgumentParser) -> None:
    parser.description = DESCRIPTION
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("inputs", nargs="+", metavar="INPUT", help="capture files, folders or globs (local paths or URIs)")
    parser.add_argument("--output", "-o", required=True, metavar="DIR", help="output folder (local path or URI)")
    parser.add_argument("--master", default=None, help="Spark master (default local[*]; under spark-submit, its own)")
    parser.add_argument("--glob", dest="glob_filter", metavar="PATTERN", help="only files whose name matches PATTERN (Spark's pathGlobFilter), e.g. '*.pcf'")
    parser.add_argument("--overwrite", action="store_true", help="replace the results of an earlier run in DIR")
    parser.add_argument(
        "--writer",
        choices=("auto", "arrow", "spark"),
        default="auto",
        help="arrow: tasks write Parquet with pyarrow (fastest); spark: Spark's Parquet writer (any URI Hadoop writes); "
        "auto (default): arrow when pyarrow can open DIR, else spark",
    )
    parser.add_argument("--driver-memory", default=None, help="JVM heap of local mode (default 4g; a file near 2 GiB needs about 3x its size)")
    parser.add_argument("--partition-bytes", type=_bytes, default=None, help="files of this size or more are a task each, smaller ones are packed (default 32m)")
    parser.add_argument("--batch-rows", type=int, default=None, help="messages per Arrow batch (default 8192)")
    parser.add_argument("--compression", default="snappy", help="Parquet compression (default snappy)")
    parser.add_argument("--conf", type=_conf, action="append", default=[], metavar="KEY=VALUE", help="extra Spark configuration (repeatable)")
    parser.add_argument("--quiet", "-q", action="store_true", help="do not print the summary tables")


def run(name: str, args: argparse.Namespace) -> int:
    try:
        from pcfserver.pipeline import job, rows, summary
    except ImportError as exc:
        print(f"pcfserver {name}: needs the spark extra (pip install 'pcfserver[spark]'): {exc}", file=sys.stderr)
        return 2
    if args.batch_rows is not None and args.batch_rows < 1:
        print(f"pcfserver {name}: --batch-rows must be at least 1", file=sys.stderr)
        return 2
    from pyspark.sql import SparkSession

    existing = SparkSession.getActiveSession()  # a notebook's or a test's: leave it running
    spark = job.session(
        args.master,
        driver_memory=args.driver_memory or job.DEFAULT_DRIVER_MEMORY,
        conf=args.conf,
        light_jvm=args.writer != "spark",
    )
    try:
        result = job.run_job(
            spark,
            args.inputs,
            args.output,
            writer=args.writer,
            glob_filter=args.glob_filter,
            overwrite=args.overwrite,
            batch_rows=args.batch_rows or rows.DEFAULT_BATCH_ROWS,
            compression=args.compression,
            partition_bytes=args.partition_bytes or job.DEFAULT_PARTITION_BYTES,
        )
    except job.PipelineError as exc:
        print(f"pcfserver {name}: {exc}", file=sys.stderr)
        return 2
    finally:
        if existing is None:
            spark.stop()
    report = result.summary
    if not args.quiet:
        print(summary.render(report))
    print(
        f"pcfserver {name}: {report['messages']:,} messages, {report['problems']:,} problems from {report['files']} files "
        f"in {result.seconds:.1f} s ({report['job']['messages_per_second']:,.0f} messages/s); {result.writer} writer wrote {result.output}",
        file=sys.stderr,
    )
    return 0 if report["accounted"] and not report["problems"] else 1


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point for ``spark-submit pcfserver/pipeline/cli.py INPUT... --output DIR``."""
    parser = argparse.ArgumentParser(prog="pcfserver pipeline")
    configure("pipeline", parser)
    return run("pipeline", parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
