"""Raw PCF capture files: each connection's inbound and outbound byte streams.

Files are named ``<timestamp>-<connection>-in.pcf`` / ``-out.pcf`` and rotated by size.  A file
is only ever cut on a message boundary, so every file decodes on its own with
``pcfserver decode`` (the inbound stream after a framing error is kept as received).
"""

from __future__ import annotations

import datetime as _dt
import os
from pathlib import Path
from typing import BinaryIO

DEFAULT_ROTATE_BYTES = 64 * 1024 * 1024


def _timestamp() -> str:
    return _dt.datetime.now(_dt.UTC).strftime("%Y%m%dT%H%M%S.%fZ")


class _Stream:
    """One direction of one connection: the current file and its size."""

    def __init__(self, directory: Path, connection: int, direction: str, rotate_bytes: int) -> None:
        self.directory = directory
        self.connection = connection
        self.direction = direction
        self.rotate_bytes = rotate_bytes
        self.file: BinaryIO | None = None
        self.size = 0
        self.paths: list[Path] = []

    def _open(self) -> BinaryIO:
        while True:
            path = self.directory / f"{_timestamp()}-{self.connection:06d}-{self.direction}.pcf"
            try:
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            except FileExistsError:
                continue  # same microsecond: the next timestamp differs
            self.paths.append(path)
            self.size = 0
            return os.fdopen(fd, "wb", buffering=0)

    def _rotate(self) -> None:
        if self.file is not None:
            self.file.close()
            self.file = None

    def write(self, data: bytes, boundary: int | None = None) -> None:
        """Appends ``data``; ``boundary`` (an index into data) is a message boundary where the file may be cut."""
        if not data:
            return
        if self.file is not None and self.size >= self.rotate_bytes and boundary is not None and 0 <= boundary <= len(data):
            if boundary:
                self.file.write(data[:boundary])
                self.size += boundary
            self._rotate()
            data = data[boundary:]
            if not data:
                return
        if self.file is None:
            self.file = self._open()
        self.file.write(data)
        self.size += len(data)

    def close(self) -> None:
        self._rotate()


class ConnectionCapture:
    """The two capture files of one connection (opened on their first bytes)."""

    def __init__(self, directory: Path, connection: int, rotate_bytes: int = DEFAULT_ROTATE_BYTES) -> None:
        self.inbound = _Stream(directory, connection, "in", rotate_bytes)
        self.outbound = _Stream(directory, connection, "out", rotate_bytes)

    def received(self, data: bytes, start: int, boundary: int | None) -> None:
        """Bytes received at stream offset ``start``; ``boundary`` is the latest known message boundary (stream offset)."""
        cut = None if boundary is None else boundary - start
        self.inbound.write(data, cut)

    def sent(self, data: bytes) -> None:
        """A whole send: it always ends on a message boundary."""
        self.outbound.write(data, 0)

    def close(self) -> None:
        self.inbound.close()
        self.outbound.close()


class Capture:
    """Where the capture files of all connections go."""

    def __init__(self, directory: Path, rotate_bytes: int = DEFAULT_ROTATE_BYTES) -> None:
        self.directory = directory
        self.rotate_bytes = rotate_bytes
        directory.mkdir(parents=True, exist_ok=True)

    def connection(self, number: int) -> ConnectionCapture:
        return ConnectionCapture(self.directory, number, self.rotate_bytes)
