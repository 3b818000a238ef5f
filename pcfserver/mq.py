"""MQ constants by name, from ``formats/constants.tsv``: ``mq.MQCMD_CHANGE_Q`` is 8."""

from __future__ import annotations

from pcfserver.tables import constants


def __getattr__(name: str) -> int:
    try:
        return constants().values[name]
    except KeyError:
        raise AttributeError(f"no MQ constant named {name}") from None
