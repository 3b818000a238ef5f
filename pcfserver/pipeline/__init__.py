"""Decode captured PCF streams at scale on Apache Spark.

``pcfserver pipeline INPUT... --output DIR`` runs the job (see ``cli.py`` and README.md in this
folder); :func:`decode_captures` gives notebooks the same rows as DataFrames.  Importing this
package loads neither Spark nor pyarrow: ``job`` (Spark) and ``rows`` (pyarrow) load when used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pcfserver.pipeline.job import Captures

__all__ = ["decode_captures"]


def decode_captures(spark: Any, paths: str | list[str], **options: Any) -> Captures:
    """Captured PCF streams (files, folders, globs; any URI Spark reads) as lazily decoded DataFrames.

    Returns a :class:`~pcfserver.pipeline.job.Captures` with ``messages`` and ``problems`` (the
    job's Parquet columns), ``decoded`` (both, to cache) and ``files`` (path, length).  Options:
    ``glob_filter``, ``batch_rows``, ``partition_bytes`` (see ``job.decode_captures``).
    """
    from pcfserver.pipeline.job import decode_captures as _decode_captures

    return _decode_captures(spark, paths, **options)
