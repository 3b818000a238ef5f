"""The Spark side of the pipeline: session, input listing, ``decode_captures`` and the job.

Imports pyspark at module level; ``pcfserver.pipeline.cli`` imports this module only when the
job runs, so ``pcfserver`` itself never loads Spark.
"""

from __future__ import annotations

import functools
import json
import os
import sys
import time
import uuid
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from pyspark import StorageLevel
from pyspark.errors import AnalysisException
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F
from pyspark.sql.pandas.types import from_arrow_schema

from pcfserver.pipeline import rows, summary, tasks

# pandas 3 works for what the job does (Arrow in, Arrow out); PySpark warns on every import.
warnings.filterwarnings("ignore", message="PySpark does not yet fully support pandas", category=FutureWarning)

BINARY_FILE_MAX_LENGTH_CONF = "spark.sql.sources.binaryFile.maxLength"
JAVA_ARRAY_LIMIT = 2**31 - 1
"""binaryFile holds a file in one Java byte array: Int.MaxValue bytes at most, whatever the conf says."""
DEFAULT_PARTITION_BYTES = 32 * 1024 * 1024
"""spark.sql.files.maxPartitionBytes: a capture of this size or more is a task of its own; smaller ones are packed."""
DEFAULT_DRIVER_MEMORY = "4g"
WRITERS = ("auto", "arrow", "spark")


class PipelineError(Exception):
    """The job cannot run as asked (exit status 2): no input, an input too large, an output in the way."""


class CaptureTooLarge(PipelineError):
    pass


@dataclass(frozen=True)
class Captures:
    """What :func:`decode_captures` returns: lazily decoded DataFrames.

    ``messages`` and ``problems`` are views of ``decoded``; each action decodes the captures
    again unless ``decoded`` is cached (``captures.decoded.cache()``).
    """

    messages: DataFrame
    problems: DataFrame
    decoded: DataFrame
    files: DataFrame
    """path and length of every input file, as Spark listed them."""

    def __iter__(self) -> Iterator[DataFrame]:
        """``messages, problems = decode_captures(spark, paths)``."""
        return iter((self.messages, self.problems))


@dataclass
class JobResult:
    summary: dict[str, Any]
    stats: list[rows.FileStats]
    seconds: float
    writer: str
    output: str
    timings: dict[str, float] = field(default_factory=dict)


def _in_spark_submit() -> bool:
    """Whether spark-submit started this Python (then master and driver settings are its own)."""
    return "PYSPARK_GATEWAY_PORT" in os.environ


def session(
    master: str | None = None,
    *,
    driver_memory: str = DEFAULT_DRIVER_MEMORY,
    conf: Sequence[tuple[str, str]] = (),
    app_name: str = "pcfserver-pipeline",
    light_jvm: bool = True,
) -> SparkSession:
    """A SparkSession for the job: local mode on this machine, or whatever spark-submit set up.

    Local mode binds to 127.0.0.1, runs the workers with this Python and disables the UI.
    ``light_jvm`` (for the arrow writer, where the JVM only lists and moves bytes) limits the JIT
    to C1 and uses the parallel collector: C2 compilation and G1's concurrent marking of the
    capture-sized byte arrays cost seconds of CPU that the Python tasks needed (measured: JVM
    CPU of a cold 800,000-message job 10.1 s with C2 and G1, 6.9 s with C1, 5.4 s with both
    changes).  Spark's own Parquet writer needs C2.
    """
    builder = SparkSession.builder.appName(app_name)
    if not _in_spark_submit():
        master = master or "local[*]"
        builder = builder.master(master).config("spark.driver.memory", driver_memory)
        if master.startswith("local"):
            os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
            os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
            builder = (
                builder.config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1")
                .config("spark.ui.enabled", "false")
            )
            if light_jvm:
                builder = builder.config("spark.driver.extraJavaOptions", "-XX:TieredStopAtLevel=1 -XX:+UseParallelGC")
    elif master:
        builder = builder.master(master)
    if not sys.stderr.isatty():
        builder = builder.config("spark.ui.showConsoleProgress", "false")
    builder = builder.config("spark.sql.shuffle.partitions", "8").config("spark.sql.files.maxPartitionBytes", str(DEFAULT_PARTITION_BYTES))
    for key, value in conf:
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("WARN")
    _quiet_glob_warning(spark)
    return spark


def _quiet_glob_warning(spark: SparkSession) -> None:
    """A glob INPUT makes Spark log a FileNotFoundException while it looks for a streaming
    sink's metadata folder named like the glob; it is harmless and only alarms."""
    try:
        jvm: Any = spark.sparkContext._jvm
        jvm.org.apache.logging.log4j.core.config.Configurator.setLevel(
            "org.apache.spark.sql.execution.streaming.sinks.FileStreamSink", jvm.org.apache.logging.log4j.Level.ERROR
        )
    except Exception:  # another logging backend: the warning stays
        pass


def binary_file_limit(spark: SparkSession) -> int:
    configured = spark.conf.get(BINARY_FILE_MAX_LENGTH_CONF, str(JAVA_ARRAY_LIMIT)) or str(JAVA_ARRAY_LIMIT)
    try:
        return min(int(configured), JAVA_ARRAY_LIMIT)
    except ValueError:
        return JAVA_ARRAY_LIMIT


def read_files(spark: SparkSession, paths: Sequence[str], *, glob_filter: str | None = None) -> DataFrame:
    """Spark's binaryFile source over files, folders (recursively) and globs."""
    if not paths:
        raise PipelineError("no input paths given")
    reader = spark.read.format("binaryFile").option("recursiveFileLookup", "true")
    if glob_filter:
        reader = reader.option("pathGlobFilter", glob_filter)
    try:
        return reader.load(list(paths))
    except AnalysisException as exc:
        raise PipelineError(f"cannot read the input: {exc}") from None


def check_sizes(spark: SparkSession, listing: Sequence[tuple[str, int]]) -> None:
    """Fails before the job starts when a file is larger than binaryFile can hold."""
    limit = binary_file_limit(spark)
    too_big = [(path, length) for path, length in listing if length > limit]
    if too_big:
        shown = "; ".join(f"{path} is {length:,} bytes" for path, length in too_big[:5])
        more = f" (and {len(too_big) - 5} more)" if len(too_big) > 5 else ""
        raise CaptureTooLarge(
            f"{shown}{more}: Spark's binaryFile source reads each file into one byte array and cannot read files larger than "
            f"{limit:,} bytes ({BINARY_FILE_MAX_LENGTH_CONF}; 2,147,483,647 bytes = 2 GiB - 1 is the most it can be). "
            "Split such captures at message boundaries first (the server's capture files rotate at 64 MiB)."
        )


def _listing(files: DataFrame) -> list[tuple[str, int]]:
    return [(row["path"], row["length"]) for row in files.select("path", "length").collect()]


def decode_captures(
    spark: SparkSession,
    paths: str | Sequence[str],
    *,
    glob_filter: str | None = None,
    batch_rows: int = rows.DEFAULT_BATCH_ROWS,
    partition_bytes: int | None = DEFAULT_PARTITION_BYTES,
) -> Captures:
    """Captured PCF streams as DataFrames: ``messages``, ``problems`` (see ``rows`` for the columns).

    Lists the input at once (and raises :class:`CaptureTooLarge` for a file binaryFile cannot
    hold); decoding happens when an action runs.  ``partition_bytes`` sets the session's
    ``spark.sql.files.maxPartitionBytes`` (read when a job runs, so it stays set; None leaves it).
    """
    if isinstance(paths, str):
        paths = [paths]
    if partition_bytes is not None:
        spark.conf.set("spark.sql.files.maxPartitionBytes", str(partition_bytes))
    raw = read_files(spark, paths, glob_filter=glob_filter)
    check_sizes(spark, _listing(raw))
    return _decode(raw, batch_rows)


def _decode(raw: DataFrame, batch_rows: int) -> Captures:
    decode = functools.partial(tasks.decode_batches, batch_rows=batch_rows)
    decoded = raw.select("path", "content").mapInArrow(decode, from_arrow_schema(tasks.DECODED_SCHEMA))
    messages = decoded.where(~F.col("problem")).select(*rows.MESSAGE_SCHEMA.names)
    problems = decoded.where(F.col("problem")).select(*rows.PROBLEM_SCHEMA.names)
    return Captures(messages, problems, decoded, raw.select("path", "length"))


def stats_from_frames(messages: DataFrame, problems: DataFrame, listing: Sequence[tuple[str, int]]) -> list[rows.FileStats]:
    """Per-file statistics computed by Spark from message and problem rows (for the Spark writer and notebooks)."""
    stats = {path: rows.FileStats(path, length) for path, length in listing}

    def of(path: str) -> rows.FileStats:
        if path not in stats:
            stats[path] = rows.FileStats(path)
        return stats[path]

    per_file = messages.groupBy("source_file").agg(
        F.count(F.lit(1)).alias("n"), F.sum("length").alias("bytes"), F.sum(F.when(F.col("warnings").isNull(), 0).otherwise(F.size("warnings"))).alias("warnings")
    )
    for row in per_file.collect():
        item = of(row["source_file"])
        item.messages, item.message_bytes, item.warnings = row["n"], row["bytes"], row["warnings"]
    for row in problems.groupBy("source_file").agg(F.count(F.lit(1)).alias("n"), F.sum("length").alias("bytes")).collect():
        item = of(row["source_file"])
        item.problems, item.problem_bytes = row["n"], row["bytes"]
    for row in messages.groupBy("source_file", "type", "command", "comp_code", "reason").count().collect():
        of(row["source_file"]).by_code[(row["type"], row["command"], row["comp_code"], row["reason"])] = row["count"]
    changing = messages.where(
        F.col("type").isin(*rows.COMMAND_TYPES) & F.col("command").isin(*rows.CHANGING_COMMANDS) & F.col("q_name").isNotNull()
    )
    for row in changing.groupBy("source_file", "q_name", "command").count().collect():
        of(row["source_file"]).changes[(row["q_name"], row["command"])] = row["count"]
    return [stats[path] for path in sorted(stats)]


class _Store:
    """The driver's view of the output folder: the few operations the job needs."""

    root: str

    def exists(self, name: str) -> bool:
        raise NotImplementedError

    def delete(self, name: str) -> None:
        raise NotImplementedError

    def write(self, name: str, data: bytes) -> None:
        raise NotImplementedError


class _HadoopStore(_Store):
    """Through Hadoop's FileSystem: any URI Spark writes to."""

    def __init__(self, spark: SparkSession, uri: str) -> None:
        jvm: Any = spark.sparkContext._jvm
        self._jvm = jvm
        path = jvm.org.apache.hadoop.fs.Path(uri)
        self._fs = path.getFileSystem(spark.sparkContext._jsc.hadoopConfiguration())
        self._fs.setWriteChecksum(False)  # no .crc files beside summary.json on the local filesystem
        self.root = str(self._fs.makeQualified(path).toString())

    def _path(self, name: str) -> Any:
        return self._jvm.org.apache.hadoop.fs.Path(f"{self.root}/{name}")

    def exists(self, name: str) -> bool:
        return bool(self._fs.exists(self._path(name)))

    def delete(self, name: str) -> None:
        self._fs.delete(self._path(name), True)

    def write(self, name: str, data: bytes) -> None:
        stream = self._fs.create(self._path(name), True)
        try:
            stream.write(bytearray(data))
        finally:
            stream.close()


class _ArrowStore(_Store):
    """Through pyarrow's filesystems: what the tasks of the arrow writer write to."""

    def __init__(self, uri: str) -> None:
        import pyarrow.fs as pafs

        self._types = pafs.FileType
        self.fs, self.base = tasks.filesystem(uri)
        self.root = uri

    def exists(self, name: str) -> bool:
        return bool(self.fs.get_file_info(f"{self.base}/{name}").type != self._types.NotFound)

    def delete(self, name: str) -> None:
        path = f"{self.base}/{name}"
        if self.fs.get_file_info(path).type == self._types.Directory:
            self.fs.delete_dir(path)
        else:
            self.fs.delete_file(path)

    def write(self, name: str, data: bytes) -> None:
        with self.fs.open_output_stream(f"{self.base}/{name}") as stream:
            stream.write(data)


def _qualified(spark: SparkSession, output: str) -> str:
    """The output as Hadoop resolves it (a bare path is on the default filesystem: file:, hdfs:...)."""
    try:
        return _HadoopStore(spark, output).root
    except Exception:  # a scheme Hadoop has no FileSystem for; pyarrow may still know it (s3://, gs://)
        return output


def _open_output(spark: SparkSession, output: str, writer: str) -> tuple[_Store, str]:
    """The output store and the writer to use (``auto`` resolved)."""
    root = _qualified(spark, output)
    if writer in ("auto", "arrow"):
        try:
            return _ArrowStore(root), "arrow"
        except Exception as exc:
            if writer == "arrow":
                raise PipelineError(f"pyarrow cannot write to {root} ({exc}); use --writer spark") from None
    try:
        return _HadoopStore(spark, root), "spark"
    except Exception as exc:
        raise PipelineError(f"cannot write to {root}: {exc}") from None


OUTPUT_NAMES = ("messages", "problems", "summary.json", "_SUCCESS")


def _prepare_output(out: _Store, overwrite: bool) -> None:
    present = [name for name in OUTPUT_NAMES if out.exists(name)]
    if present and not overwrite:
        raise PipelineError(f"{out.root} already holds {', '.join(present)} (give --overwrite to replace them)")
    for name in present:
        out.delete(name)


def _finish_arrow_output(uri: str, run_id: str) -> None:
    """Removes temporary files of failed attempts; writes an empty part where no task wrote one,
    so that both folders always read back with their schema."""
    import pyarrow.fs as pafs
    import pyarrow.parquet as pq

    fs, base = tasks.filesystem(uri)
    for folder, schema in (("messages", rows.MESSAGE_SCHEMA), ("problems", rows.PROBLEM_SCHEMA)):
        directory = f"{base}/{folder}"
        fs.create_dir(directory, recursive=True)
        infos = fs.get_file_info(pafs.FileSelector(directory))
        for info in infos:
            if info.base_name.startswith(".") and info.base_name.endswith(".tmp"):
                fs.delete_file(info.path)
        if not any(info.base_name.endswith(".parquet") for info in infos):
            with fs.open_output_stream(f"{directory}/{tasks.part_name(0, run_id)}") as stream:
                pq.write_table(schema.empty_table(), stream)


def run_job(
    spark: SparkSession,
    inputs: Sequence[str],
    output: str,
    *,
    writer: str = "auto",
    glob_filter: str | None = None,
    overwrite: bool = False,
    batch_rows: int = rows.DEFAULT_BATCH_ROWS,
    compression: str = "snappy",
    partition_bytes: int | None = DEFAULT_PARTITION_BYTES,
) -> JobResult:
    """Decodes the inputs into ``output``/messages, ``output``/problems and ``output``/summary.json.

    ``writer="arrow"``: the Python tasks write the Parquet parts with pyarrow (output on a
    filesystem pyarrow reaches: local/NFS, HDFS with libhdfs, S3, GCS, ABFS).  ``"spark"``: Spark's
    own Parquet writer (any URI Hadoop writes), slower: it decodes once into a persisted frame.
    ``"auto"``: arrow when pyarrow can open the output from the driver, else spark.
    """
    if writer not in WRITERS:
        raise PipelineError(f"writer must be one of {', '.join(WRITERS)}")
    started = time.perf_counter()
    timings: dict[str, float] = {}
    out, writer = _open_output(spark, output, writer)
    _prepare_output(out, overwrite)
    if partition_bytes is not None:
        spark.conf.set("spark.sql.files.maxPartitionBytes", str(partition_bytes))
    raw = read_files(spark, inputs, glob_filter=glob_filter)
    listing = _listing(raw)
    if not listing:
        raise PipelineError(f"no input files under {', '.join(inputs)}" + (f" matching {glob_filter}" if glob_filter else ""))
    check_sizes(spark, listing)
    timings["list"] = time.perf_counter() - started
    if writer == "arrow":
        assert isinstance(out, _ArrowStore)
        for folder in ("messages", "problems"):
            out.fs.create_dir(f"{out.base}/{folder}", recursive=True)
        run_id = uuid.uuid4().hex[:12]
        sink = tasks.ParquetSink(out.root, run_id, batch_rows=batch_rows, compression=compression)
        stats_rows = raw.select("path", "content").mapInArrow(sink, from_arrow_schema(rows.STATS_SCHEMA)).collect()
        timings["decode_and_write"] = time.perf_counter() - started - timings["list"]
        _finish_arrow_output(out.root, run_id)
        found = {path: length for path, length in listing}
        stats = [rows.FileStats.from_row(row) for row in stats_rows]
        seen = {item.source_file for item in stats}
        stats += [rows.FileStats(path, length) for path, length in found.items() if path not in seen]  # not expected
    else:
        captures = _decode(raw, batch_rows)
        decoded = captures.decoded.persist(StorageLevel.MEMORY_AND_DISK)
        try:
            messages = decoded.where(~F.col("problem")).select(*rows.MESSAGE_SCHEMA.names)
            problems = decoded.where(F.col("problem")).select(*rows.PROBLEM_SCHEMA.names)
            messages.write.option("compression", compression).parquet(f"{out.root}/messages")
            problems.write.option("compression", compression).parquet(f"{out.root}/problems")
            timings["decode_and_write"] = time.perf_counter() - started - timings["list"]
            stats = stats_from_frames(messages, problems, listing)
        finally:
            decoded.unpersist()
    report = summary.build(stats)
    seconds = time.perf_counter() - started
    report["job"] = {
        "inputs": list(inputs),
        "output": out.root,
        "writer": writer,
        "master": spark.sparkContext.master,
        "seconds": round(seconds, 3),
        "messages_per_second": round(report["messages"] / seconds, 1) if seconds else 0.0,
    }
    out.write("summary.json", (json.dumps(report, indent=1, ensure_ascii=False) + "\n").encode())
    out.write("_SUCCESS", b"")
    timings["total"] = time.perf_counter() - started
    return JobResult(report, stats, seconds, writer, out.root, timings)
