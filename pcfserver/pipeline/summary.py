"""The job's summary: built from per-file statistics, written as JSON and printed as tables.

Pure Python (no Spark, no pyarrow), so the Spark job, the single-process path and the tests
build it the same way.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from pcfserver import mq, names
from pcfserver.pipeline.rows import COMMAND_TYPES, FileStats

TOP_QUEUES = 20
RESPONSE_TYPES = (mq.MQCFT_RESPONSE, mq.MQCFT_XR_MSG, mq.MQCFT_XR_ITEM, mq.MQCFT_XR_SUMMARY)
_COMMAND_FAILED = mq.MQRCCF_COMMAND_FAILED
_FAILED = mq.MQCC_FAILED


def _rate(part: int, whole: int) -> float:
    return round(part / whole, 6) if whole else 0.0


def build(stats: Iterable[FileStats], *, top_queues: int = TOP_QUEUES) -> dict[str, Any]:
    """The summary of the given files.

    * ``by_command_and_reason``: messages counted by type, command and reason, most first.
    * ``error_rate``: commands and the failed ones (a response with reason MQRCCF_COMMAND_FAILED
      closes each failed command, IBM's form), response messages with CompCode MQCC_FAILED, and
      the undecodable spans with their share of the input bytes.
    * ``failures``: why commands failed: the specific error responses (CompCode MQCC_FAILED,
      reason other than MQRCCF_COMMAND_FAILED) by command and reason.
    * ``queues_changed``: the queues named most often by Create/Copy/Change/Delete/Clear commands
      (requests, whether or not they succeeded; Copy counts for the new queue).
    * ``files``: per source file its bytes, messages, problems, and whether its rows account for
      every byte.
    """
    files = sorted(stats, key=lambda s: s.source_file)
    total = FileStats("*")
    for item in files:
        total.merge(item)
    commands = responses = failed_commands = failed_responses = 0
    failures: dict[tuple[int, int], int] = {}
    for (mtype, command, comp_code, reason), count in total.by_code.items():
        if mtype in COMMAND_TYPES:
            commands += count
        elif mtype in RESPONSE_TYPES:
            responses += count
            if reason == _COMMAND_FAILED:
                failed_commands += count
            if comp_code == _FAILED:
                failed_responses += count
                if reason != _COMMAND_FAILED:
                    failures[(command, reason)] = failures.get((command, reason), 0) + count
    by_code: dict[tuple[int, int, int], int] = {}
    for (mtype, command, _, reason), count in total.by_code.items():
        by_code[(mtype, command, reason)] = by_code.get((mtype, command, reason), 0) + count
    queues: dict[str, dict[int, int]] = {}
    for (q_name, command), count in total.changes.items():
        per = queues.setdefault(q_name, {})
        per[command] = per.get(command, 0) + count
    ranked = sorted(queues.items(), key=lambda item: (-sum(item[1].values()), item[0]))[:top_queues]
    return {
        "files": len(files),
        "bytes": total.file_bytes,
        "messages": total.messages,
        "problems": total.problems,
        "warnings": total.warnings,
        "accounted": all(item.accounted for item in files),
        "error_rate": {
            "commands": commands,
            "failed_commands": failed_commands,
            "command_failure_rate": _rate(failed_commands, commands),
            "responses": responses,
            "failed_responses": failed_responses,
            "response_failure_rate": _rate(failed_responses, responses),
            "problem_spans": total.problems,
            "problem_bytes": total.problem_bytes,
            "undecodable_byte_rate": _rate(total.problem_bytes, total.file_bytes),
        },
        "by_command_and_reason": [
            {
                "type": names.type_name(mtype) or str(mtype),
                "command": names.command_name(command) or str(command),
                "reason": names.reason_name(reason) or str(reason),
                "messages": count,
            }
            for (mtype, command, reason), count in sorted(by_code.items(), key=lambda item: (-item[1], item[0]))
        ],
        "failures": [
            {"command": names.command_name(command) or str(command), "reason": names.reason_name(reason) or str(reason), "responses": count}
            for (command, reason), count in sorted(failures.items(), key=lambda item: (-item[1], item[0]))
        ],
        "queues_changed": [
            {
                "q_name": q_name,
                "changes": sum(per.values()),
                "by_command": {names.command_name(c) or str(c): n for c, n in sorted(per.items(), key=lambda kv: (-kv[1], kv[0]))},
            }
            for q_name, per in ranked
        ],
        "per_file": [
            {
                "source_file": item.source_file,
                "bytes": item.file_bytes,
                "messages": item.messages,
                "problems": item.problems,
                "problem_bytes": item.problem_bytes,
                "warnings": item.warnings,
                "accounted": item.accounted,
            }
            for item in files
        ],
    }


def _table(title: str, header: Sequence[str], rows: Sequence[Sequence[object]], right: Sequence[bool]) -> list[str]:
    cells = [[str(c) for c in row] for row in rows]
    widths = [max([len(h)] + [len(r[i]) for r in cells]) for i, h in enumerate(header)]

    def line(values: Sequence[str]) -> str:
        return "  ".join(v.rjust(w) if r else v.ljust(w) for v, w, r in zip(values, widths, right, strict=True)).rstrip()

    out = [title, line(header), line(["-" * w for w in widths])]
    out.extend(line(r) for r in cells)
    return [*out, ""]


def render(summary: dict[str, Any], *, max_rows: int = 20) -> str:
    """The summary as plain-text tables (long tables are cut at ``max_rows``)."""
    rate = summary["error_rate"]
    out = [
        f"{summary['files']} files, {summary['bytes']:,} bytes: {summary['messages']:,} messages, "
        f"{summary['problems']:,} undecodable spans ({rate['problem_bytes']:,} bytes), {summary['warnings']:,} warnings; "
        + ("every byte accounted for" if summary["accounted"] else "BYTES NOT ACCOUNTED FOR"),
        "",
    ]
    out += _table(
        "Error rate",
        ("measure", "count", "of", "rate"),
        [
            ("failed commands", rate["failed_commands"], rate["commands"], f"{rate['command_failure_rate']:.2%}"),
            ("failed responses", rate["failed_responses"], rate["responses"], f"{rate['response_failure_rate']:.2%}"),
            ("undecodable bytes", rate["problem_bytes"], summary["bytes"], f"{rate['undecodable_byte_rate']:.3%}"),
        ],
        (False, True, True, True),
    )
    rows = summary["by_command_and_reason"]
    out += _table(
        "Messages by command and reason" + (f" (top {max_rows} of {len(rows)})" if len(rows) > max_rows else ""),
        ("type", "command", "reason", "messages"),
        [(r["type"], r["command"], r["reason"], f"{r['messages']:,}") for r in rows[:max_rows]],
        (False, False, False, True),
    )
    if summary["failures"]:
        failures = summary["failures"]
        out += _table(
            "Why commands failed" + (f" (top {max_rows} of {len(failures)})" if len(failures) > max_rows else ""),
            ("command", "reason", "responses"),
            [(r["command"], r["reason"], f"{r['responses']:,}") for r in failures[:max_rows]],
            (False, False, True),
        )
    out += _table(
        f"Queues changed most often (top {len(summary['queues_changed'])})",
        ("queue", "changes", "by command"),
        [
            (r["q_name"], f"{r['changes']:,}", ", ".join(f"{k.removeprefix('MQCMD_')} {v}" for k, v in r["by_command"].items()))
            for r in summary["queues_changed"]
        ],
        (False, True, False),
    )
    files = summary["per_file"]
    shown = sorted(files, key=lambda f: (f["accounted"], -f["problems"], f["source_file"]))[:max_rows] if len(files) > max_rows else files
    out += _table(
        "Files" + (f" ({max_rows} of {len(files)}, most problems first)" if len(files) > max_rows else ""),
        ("file", "bytes", "messages", "problems", "problem bytes", "accounted"),
        [
            (f["source_file"], f"{f['bytes']:,}", f"{f['messages']:,}", f"{f['problems']:,}", f"{f['problem_bytes']:,}", "yes" if f["accounted"] else "NO")
            for f in shown
        ],
        (False, True, True, True, True, False),
    )
    return "\n".join(out)
