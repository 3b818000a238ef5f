"""Runs conformance cases against any server speaking the wire protocol (blocking sockets, no pytest)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pcfserver import mq, names
from pcfserver.client.protocol import PcfClientError, PcfConnectionClosed, failure_of
from pcfserver.client.sync import SyncClient
from pcfserver.codec import Integer, Integer64, IntegerList, Message, Parameter, String, StringList
from pcfserver.conformance.cases import Case, Command, Expect, Group
from pcfserver.jsonform import named


@dataclass
class CaseResult:
    case: Case
    failures: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def passed(self) -> bool:
        return not self.failures


@dataclass
class SuiteResult:
    results: list[CaseResult] = field(default_factory=list)

    @property
    def passed(self) -> int:
        return sum(1 for r in self.results if r.passed)

    @property
    def failed(self) -> int:
        return len(self.results) - self.passed

    @property
    def ok(self) -> bool:
        return self.failed == 0 and bool(self.results)

    def summary(self) -> str:
        return f"{self.passed} passed, {self.failed} failed"


def _reason(value: int | None) -> str:
    if value is None:
        return "none"
    return f"{names.reason_name(value) or '?'} ({value})"


def _parameter(value: int | None) -> str:
    if value is None:
        return "none"
    return f"{names.parameter_name(value) or '?'} ({value})"


def _shown(item: Parameter | None) -> str:
    if item is None:
        return "absent"
    if isinstance(item, (Integer, Integer64)):
        return f"{item.STRUCT} {item.value}"
    if isinstance(item, IntegerList):
        return f"{item.STRUCT} {list(item.values)}"
    if isinstance(item, String):
        return f"{item.STRUCT} {item.value.rstrip()!r}"
    if isinstance(item, StringList):
        return f"{item.STRUCT} {[v.rstrip() for v in item.values]}"
    return repr(item)


def shape_problems(command: Message, answer: Sequence[Message], expected_command: int | None = None) -> list[str]:
    """The response rules every answer must follow (IBM "PCF responses in IBM MQ", "Standard responses")."""
    problems: list[str] = []
    code = command.command if expected_command is None else expected_command
    if not answer:
        return ["no response message"]
    for i, m in enumerate(answer, 1):
        if m.type != mq.MQCFT_RESPONSE:
            problems.append(f"message {i}: Type expected MQCFT_RESPONSE (2), actual {named(names.type_name(m.type), m.type)}")
        if m.command != code:
            problems.append(f"message {i}: Command expected {named(names.command_name(code), code)}, actual {named(names.command_name(m.command), m.command)}")
        if m.msg_seq_number != i:
            problems.append(f"message {i}: MsgSeqNumber expected {i}, actual {m.msg_seq_number}")
        want = mq.MQCFC_LAST if i == len(answer) else mq.MQCFC_NOT_LAST
        if m.control != want:
            problems.append(f"message {i}: Control expected {want}, actual {m.control}")
        if m.byte_order != command.byte_order:
            problems.append(f"message {i}: byte order expected {command.byte_order} (the command's), actual {m.byte_order}")
    failed = [m for m in answer if m.comp_code == mq.MQCC_FAILED]
    if failed:
        last = answer[-1]
        if (last.comp_code, last.reason, len(last.parameters)) != (mq.MQCC_FAILED, mq.MQRCCF_COMMAND_FAILED, 0):
            problems.append(
                "last message of a failed command: expected the summary CompCode 2, Reason MQRCCF_COMMAND_FAILED (3008), no parameters; "
                f"actual CompCode {last.comp_code}, Reason {_reason(last.reason)}, {len(last.parameters)} parameters"
            )
        if len(answer) < 2:
            problems.append("failed command: expected the error message(s) then the summary, actual one message")
        for i, m in enumerate(answer[:-1], 1):
            if m.comp_code == mq.MQCC_FAILED and (len(m.parameters) > 1 or any(not isinstance(p, Integer) for p in m.parameters)):
                problems.append(f"error message {i}: expected at most one MQCFIN error parameter, actual {[p.STRUCT for p in m.parameters]}")
    return problems


def _value_matches(item: Parameter | None, check: dict[str, Any]) -> bool:
    if check.get("absent"):
        return item is None
    if item is None:
        return False
    if "value" in check:
        want = check["value"]
        if isinstance(item, (Integer, Integer64)):
            if isinstance(want, str):
                try:
                    want = names.value_from_name(item.parameter, want)
                except ValueError:
                    return False
            return bool(item.value == want)
        if isinstance(item, String):
            return item.value.rstrip() == str(want).rstrip()
        return False
    if "values" in check:
        want_list = check["values"]
        if isinstance(item, IntegerList):
            return bool(list(item.values) == want_list)
        if isinstance(item, StringList):
            return [v.rstrip() for v in item.values] == [str(w).rstrip() for w in want_list]
        return False
    return True


def expectation_problems(step_command: Command, answer: Sequence[Message], expect: Expect) -> list[str]:
    problems = shape_problems(step_command.message, answer, expect.command)
    error = failure_of(answer)
    specific = None
    if error is not None:
        specific = next((m for m in answer if m.comp_code == mq.MQCC_FAILED and m.reason != mq.MQRCCF_COMMAND_FAILED), answer[0])
    comp_code = mq.MQCC_FAILED if error is not None else max((m.comp_code for m in answer), default=0)
    reason = error.reason if error is not None else next((m.reason for m in answer if m.reason), mq.MQRC_NONE)
    if expect.comp_code is not None and comp_code != expect.comp_code:
        problems.append(f"CompCode: expected {expect.comp_code}, actual {comp_code}")
    if expect.reason is not None and reason != expect.reason:
        problems.append(f"Reason: expected {_reason(expect.reason)}, actual {_reason(reason)}")
    if expect.parameter_id != "unchecked":
        actual = specific.int_value(mq.MQIACF_PARAMETER_ID) if specific is not None else None
        if actual != expect.parameter_id:
            want = expect.parameter_id if isinstance(expect.parameter_id, int) else None
            problems.append(f"error parameter MQIACF_PARAMETER_ID: expected {_parameter(want)}, actual {_parameter(actual)}")
    if expect.error_parameter is not None:
        pid, value = expect.error_parameter
        actual_value = specific.int_value(pid) if specific is not None else None
        if actual_value != value:
            problems.append(f"error parameter {_parameter(pid)}: expected {value}, actual {actual_value}")
    if expect.messages is not None and len(answer) != expect.messages:
        problems.append(f"number of response messages: expected {expect.messages}, actual {len(answer)}")
    for index, checks in expect.responses:
        if not 1 <= index <= len(answer):
            problems.append(f"response message {index}: expected, actual only {len(answer)} messages")
            continue
        message = answer[index - 1]
        for check in checks:
            item = message.get(check["parameter"])
            if not _value_matches(item, check):
                wanted = "absent" if check.get("absent") else check.get("value", check.get("values", "present"))
                problems.append(f"message {index} {_parameter(check['parameter'])}: expected {wanted!r}, actual {_shown(item)}")
    return problems


class Runner:
    """Runs cases against host:port; a new connection per case (framing errors close connections)."""

    def __init__(self, host: str, port: int, *, timeout: float = 10.0, closed_wait: float = 5.0) -> None:
        self.host = host
        self.port = port
        self.timeout = timeout
        self.closed_wait = closed_wait

    def _connect(self) -> SyncClient:
        return SyncClient(self.host, self.port, timeout=self.timeout)

    def _setup(self, client: SyncClient, commands: Iterable[Command], failures: list[str] | None) -> SyncClient:
        for command in commands:
            try:
                client.send_raw(command.data)
                answer = client.receive_answer()
            except (PcfClientError, OSError):
                client.close()
                client = self._connect()
                if failures is not None and not command.may_fail:
                    failures.append(f"setup {names.command_name(command.message.command)}: no answer")
                continue
            error = failure_of(answer)
            if error is not None and failures is not None and not command.may_fail:
                failures.append(f"setup {names.command_name(command.message.command)} failed: {error}")
        return client

    def run_case(self, case: Case) -> CaseResult:
        result = CaseResult(case)
        started = time.monotonic()
        try:
            client = self._connect()
        except OSError as exc:
            result.failures.append(f"cannot connect to {self.host}:{self.port}: {exc}")
            return result
        try:
            client = self._setup(client, case.setup, result.failures)
            if not result.failures:
                for number, step in enumerate(case.steps, 1):
                    label = f"step {number}: " if len(case.steps) > 1 else ""
                    try:
                        client.send_raw(step.command.data)
                        answer = client.receive_answer()
                    except PcfConnectionClosed as exc:
                        result.failures.append(f"{label}connection closed before the answer was complete ({len(exc.partial)} messages received)")
                        break
                    except (PcfClientError, OSError) as exc:
                        result.failures.append(f"{label}no answer: {exc}")
                        break
                    result.failures.extend(label + p for p in expectation_problems(step.command, answer, step.expect))
                    if step.expect.closes is not None:
                        client.sock.settimeout(self.closed_wait if step.expect.closes else 0.3)
                        closed = client.wait_closed()
                        client.sock.settimeout(self.timeout)
                        if closed != step.expect.closes:
                            want = "closed" if step.expect.closes else "kept open"
                            result.failures.append(f"{label}connection: expected {want} after the answer, actual {'closed' if closed else 'open'}")
                    if client.eof:
                        client.close()
                        client = self._connect()
        except (TimeoutError, OSError) as exc:
            result.failures.append(f"connection failed: {exc}")
        finally:
            try:
                client.close()
                if case.cleanup:
                    cleanup = self._connect()
                    cleanup = self._setup(cleanup, case.cleanup, None)
                    cleanup.close()
            except OSError:
                pass
        result.seconds = time.monotonic() - started
        return result

    def run(self, groups: Iterable[Group], only: Sequence[str] = (), progress: Callable[[CaseResult], None] | None = None) -> SuiteResult:
        suite = SuiteResult()
        for group in groups:
            if only and group.name not in only:
                continue
            for case in group.cases:
                result = self.run_case(case)
                suite.results.append(result)
                if progress is not None:
                    progress(result)
        return suite


def format_failure(result: CaseResult) -> str:
    lines = [f"FAIL {result.case.id}", f"  doc: {result.case.doc}"]
    lines.extend(f"  {f}" for f in result.failures)
    return "\n".join(lines)
