"""What runs inside Spark's Python workers: Arrow batches of files in, Arrow batches out.

Both functions are given to ``DataFrame.mapInArrow`` over the ``path`` and ``content`` columns
of Spark's binaryFile source.  This module imports no Spark at module level (only
``TaskContext`` inside a task), so workers load it quickly and it can be tested without Spark.

* :func:`decode_batches` yields the decoded rows themselves (``DECODED_SCHEMA``: a message row
  or a problem row, told apart by ``problem``) for ``decode_captures`` and the Spark writer.
* :class:`ParquetSink` writes the rows to Parquet with pyarrow from the worker and yields only
  per-file statistics (``rows.STATS_SCHEMA``).  It spares the JVM from converting every nested
  row and encoding it again for Parquet, which on two cores costs about as much CPU as the
  decode itself (see README.md, "Performance").
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterator
from typing import Any

import pyarrow as pa
import pyarrow.fs as pafs
import pyarrow.parquet as pq

from pcfserver.pipeline import columns, rows

_PROBLEM_ONLY = [f for f in rows.PROBLEM_SCHEMA if f.name not in rows.MESSAGE_SCHEMA.names]
DECODED_SCHEMA = pa.schema([*rows.MESSAGE_SCHEMA, *_PROBLEM_ONLY, pa.field("problem", pa.bool_(), nullable=False)])
"""Message and problem rows in one schema (the columns the other kind lacks are null)."""

_MESSAGE_ONLY = [f for f in rows.MESSAGE_SCHEMA if f.name not in rows.PROBLEM_SCHEMA.names]


def _decoded_messages(batch: Any) -> Any:
    n = batch.num_rows
    extra = [pa.nulls(n, f.type) for f in _PROBLEM_ONLY]
    flag = pa.array([False] * n, pa.bool_())
    return pa.RecordBatch.from_arrays([*batch.columns, *extra, flag], schema=DECODED_SCHEMA)


def _decoded_problems(batch: Any) -> Any:
    n = batch.num_rows
    arrays = []
    for f in DECODED_SCHEMA:
        if f.name == "problem":
            arrays.append(pa.array([True] * n, pa.bool_()))
        elif f.name in rows.PROBLEM_SCHEMA.names:
            arrays.append(batch.column(f.name))
        else:
            arrays.append(pa.nulls(n, f.type))
    return pa.RecordBatch.from_arrays(arrays, schema=DECODED_SCHEMA)


def _files(batches: Iterator[Any]) -> Iterator[tuple[str, Any]]:
    """(path, content) of every file in binaryFile batches; content is a zero-copy buffer."""
    for batch in batches:
        paths = batch.column("path")
        contents = batch.column("content")
        for i in range(batch.num_rows):
            content = contents[i]
            yield paths[i].as_py(), (content.as_buffer() if content.is_valid else b"")


def decode_batches(batches: Iterator[Any], batch_rows: int = rows.DEFAULT_BATCH_ROWS) -> Iterator[Any]:
    """mapInArrow function: binaryFile batches in, DECODED_SCHEMA batches out."""
    for path, content in _files(batches):
        for messages, problems in columns.decode_file(path, content, batch_rows):
            if messages.num_rows:
                yield _decoded_messages(messages)
            if problems.num_rows:
                yield _decoded_problems(problems)


def filesystem(uri: str) -> tuple[Any, str]:
    """The pyarrow filesystem and path of a qualified URI (``file:/...``, ``s3://...``, ``hdfs://...``) or absolute path."""
    if uri.startswith("/"):
        return pafs.LocalFileSystem(), uri
    fs, path = pafs.FileSystem.from_uri(uri)
    return fs, str(path)


ROW_GROUP_ROWS = 65536
"""Rows per Parquet row group the tasks write (the batches of a file's decode are smaller)."""


def part_name(partition: int, run_id: str) -> str:
    return f"part-{partition:05d}-{run_id}.parquet"


def _statistics_columns(schema: Any) -> list[str]:
    """Min/max statistics for the top-level columns (offset, command, q_name... prune reads);
    none for the nested parameters: they cost a fifth of the write and prune nothing."""
    return [f.name for f in schema if not pa.types.is_list(f.type)]


class _Output:
    """One Parquet file of one task, written under a hidden temporary name and renamed when complete."""

    def __init__(self, fs: Any, directory: str, name: str, attempt: int, schema: Any, compression: str) -> None:
        self.fs = fs
        self.final = posixpath.join(directory, name)
        self.temp = posixpath.join(directory, f".{name}.{attempt}.tmp")
        self.schema = schema
        self.compression = compression
        self.stream: Any = None
        self.writer: Any = None
        self.pending: list[Any] = []
        self.pending_rows = 0

    def write(self, batch: Any) -> None:
        """Collects batches into row groups of ROW_GROUP_ROWS rows (a file's last one smaller):
        one write per group is faster than one per batch and reads back better."""
        self.pending.append(batch)
        self.pending_rows += batch.num_rows
        if self.pending_rows >= ROW_GROUP_ROWS:
            self._flush()

    def _flush(self) -> None:
        if not self.pending_rows:
            return
        if self.writer is None:
            self.stream = self.fs.open_output_stream(self.temp)
            self.writer = pq.ParquetWriter(
                self.stream, self.schema, compression=self.compression, write_statistics=_statistics_columns(self.schema)
            )
        self.writer.write_table(pa.Table.from_batches(self.pending, schema=self.schema), row_group_size=self.pending_rows)
        self.pending = []
        self.pending_rows = 0

    def commit(self) -> None:
        self._flush()
        if self.writer is None:
            return
        self.writer.close()
        self.stream.close()
        self.fs.move(self.temp, self.final)  # a retried or speculative attempt writes the same name

    def abort(self) -> None:
        if self.writer is None:
            return
        try:
            self.writer.close()
            self.stream.close()
            self.fs.delete_file(self.temp)
        except Exception:  # best effort: the driver removes leftover temporary files
            pass


class ParquetSink:
    """mapInArrow function: decodes binaryFile batches, writes ``messages/`` and ``problems/``
    Parquet parts under ``output`` (one part of each per task, named by partition so that a
    retried task replaces its own output), and yields one STATS_SCHEMA row per source file."""

    def __init__(self, output: str, run_id: str, *, batch_rows: int = rows.DEFAULT_BATCH_ROWS, compression: str = "snappy") -> None:
        self.output = output
        self.run_id = run_id
        self.batch_rows = batch_rows
        self.compression = compression

    def __call__(self, batches: Iterator[Any]) -> Iterator[Any]:
        from pyspark import TaskContext  # only inside a task: workers have pyspark

        context = TaskContext.get()
        partition = context.partitionId() if context is not None else 0
        attempt = context.attemptNumber() if context is not None else 0
        fs, base = filesystem(self.output)
        name = part_name(partition, self.run_id)
        outputs = [
            _Output(fs, posixpath.join(base, "messages"), name, attempt, rows.MESSAGE_SCHEMA, self.compression),
            _Output(fs, posixpath.join(base, "problems"), name, attempt, rows.PROBLEM_SCHEMA, self.compression),
        ]
        messages_out, problems_out = outputs
        done: list[rows.FileStats] = []
        try:
            for path, content in _files(batches):
                stats = rows.FileStats(path, len(content))
                for messages, problems in columns.decode_counted(path, content, stats, self.batch_rows):
                    if messages.num_rows:
                        messages_out.write(messages)
                    if problems.num_rows:
                        problems_out.write(problems)
                done.append(stats)
            for out in outputs:
                out.commit()
        except BaseException:
            for out in outputs:
                out.abort()
            raise
        yield rows.stats_batch(done)
