"""MQ constants by name, from ``formats/constants.tsv``: ``mq.MQCMD_CHANGE_Q`` is 8.

The constants become module globals when this module is first imported, so reading one is a
plain attribute lookup (hot paths read them per command); ``__getattr__`` only answers names
the table does not have, and gives type checkers the type of every constant.
"""

from __future__ import annotations

from pcfserver.tables import constants

globals().update(constants().values)


def __getattr__(name: str) -> int:
    raise AttributeError(f"no MQ constant named {name}")
