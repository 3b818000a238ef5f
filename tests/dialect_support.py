"""Helpers for the command-language tests: an engine that records what it was asked, and registry snapshots."""

from __future__ import annotations

from collections.abc import Callable

from pcfserver import mq
from pcfserver.codec import Integer, IntegerList, Message, String, StringList
from pcfserver.engine import Engine, open_engine
from pcfserver.engine.responses import error_responses

# Attributes that differ between two registries built at different moments.
MOMENTS = frozenset((mq.MQCA_ALTERATION_DATE, mq.MQCA_ALTERATION_TIME, mq.MQCA_CREATION_DATE, mq.MQCA_CREATION_TIME))
CLOCK = "08.41.05"


class Recorder:
    """An in-memory engine as an ``execute`` callable that keeps every command it ran."""

    def __init__(self, engine: Engine | None = None) -> None:
        self.engine = engine or open_engine(None)
        self.sent: list[Message] = []

    def __call__(self, command: Message) -> list[Message]:
        self.sent.append(command)
        return self.engine.execute(command)

    def changes(self) -> list[Message]:
        """The commands sent that are not inquiries."""
        return [m for m in self.sent if m.command not in (mq.MQCMD_INQUIRE_Q, mq.MQCMD_INQUIRE_Q_MGR)]

    def queue(self, name: str) -> dict[int, object]:
        return queue_attributes(self, name)


def refusing(execute: Recorder, code: int, reason: int) -> Callable[[Message], list[Message]]:
    """``execute``, except that commands ``code`` are answered with ``reason`` (a queue with messages, an open queue)."""

    def answer(command: Message) -> list[Message]:
        if command.command == code:
            execute.sent.append(command)
            return error_responses(command, reason)
        return execute(command)

    return answer


def queue_names(execute: Recorder, qtype: int = mq.MQQT_ALL) -> list[str]:
    """Every queue's name (of one type), sorted, as the engine lists them."""
    [answer] = execute(Message(mq.MQCMD_INQUIRE_Q_NAMES, (String(mq.MQCA_Q_NAME, "*"), Integer(mq.MQIA_Q_TYPE, qtype))))
    found = answer.get(mq.MQCACF_Q_NAMES)
    assert isinstance(found, StringList)
    return sorted(n.rstrip() for n in found.values)


def queue_attributes(execute: object, name: str) -> dict[int, object]:
    """A queue's attributes by parameter id (dates left out)."""
    assert callable(execute)
    answer = execute(Message(mq.MQCMD_INQUIRE_Q, (String(mq.MQCA_Q_NAME, name), IntegerList(mq.MQIACF_Q_ATTRS, (mq.MQIACF_ALL,)))))
    assert answer[0].comp_code == mq.MQCC_OK, answer
    return {p.parameter: (p.value.rstrip() if isinstance(p.value, str) else p.value) for p in answer[0].parameters if p.parameter not in MOMENTS and isinstance(p, (Integer, String))}


def registry(execute: object) -> dict[str, dict[int, object]]:
    """Every queue's attributes (dates left out), and the queue manager's under the key ``@qmgr``."""
    assert callable(execute)
    answer = execute(Message(mq.MQCMD_INQUIRE_Q, (String(mq.MQCA_Q_NAME, "*"), IntegerList(mq.MQIACF_Q_ATTRS, (mq.MQIACF_ALL,)))))
    out: dict[str, dict[int, object]] = {}
    for response in answer:
        values = {p.parameter: (p.value.rstrip() if isinstance(p.value, str) else p.value) for p in response.parameters if p.parameter not in MOMENTS and isinstance(p, (Integer, String))}
        out[str(values[mq.MQCA_Q_NAME])] = values
    [qmgr] = execute(Message(mq.MQCMD_INQUIRE_Q_MGR))
    skip = MOMENTS | {mq.MQCA_Q_MGR_IDENTIFIER}
    out["@qmgr"] = {p.parameter: p.value for p in qmgr.parameters if p.parameter not in skip and isinstance(p, (Integer, String))}
    return out


def command(code: int, *params: Integer | String | IntegerList) -> Message:
    return Message(code, tuple(params))
