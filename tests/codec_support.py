"""Helpers shared by the codec tests."""

from __future__ import annotations

from typing import Any


def merged_spans(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Adjacent error spans as one: a stream decoder emits a long undecodable span in pieces."""
    out: list[dict[str, Any]] = []
    for item in items:
        if out and "error" in item and "error" in out[-1] and out[-1]["offset"] + out[-1]["length"] == item["offset"]:
            out[-1] = {**out[-1], "length": out[-1]["length"] + item["length"]}
        else:
            out.append(item)
    return out
