"""The conformance client: its case files, and runs against our server and a deliberately wrong one."""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import trio

from pcfserver.conformance import CASES_DIR, Runner, load_groups
from pcfserver.conformance.cases import CaseError, load_file
from pcfserver.engine import open_engine
from pcfserver.server import PcfServer, ServerConfig
from pcfserver.server.testing import WrongEngine

GROUPS = {
    "header", "structure", "create", "copy", "change", "delete", "clear", "inquire", "response",
    "chlauth", "topic", "operations", "channel", "listener", "service", "authinfo", "comminfo", "authority",
}


async def _serve(nursery: trio.Nursery, engine: object) -> tuple[str, int]:
    server = PcfServer(engine, ServerConfig(host="127.0.0.1", port=0))  # type: ignore[arg-type]
    address: tuple[str, int] = await nursery.start(server.serve)
    return address


@pytest.fixture
async def good(nursery: trio.Nursery) -> AsyncIterator[tuple[str, int]]:
    yield await _serve(nursery, open_engine(None))


@pytest.fixture
async def wrong(nursery: trio.Nursery) -> AsyncIterator[tuple[str, int]]:
    yield await _serve(nursery, WrongEngine(open_engine(None)))


def test_case_files_load_and_name_their_sources() -> None:
    groups = load_groups()
    assert {g.name for g in groups} == GROUPS
    cases = [c for g in groups for c in g.cases]
    assert len(cases) >= 50
    assert len({c.id for c in cases}) == len(cases)
    assert all("IBM" in c.doc for c in cases)


def test_a_malformed_case_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"group": "g", "cases": [{"name": "n", "command": {"command": "MQCMD_PING_Q_MGR"}, "expect": {}}]}')
    with pytest.raises(CaseError, match="doc"):
        load_file(path)
    path.write_text('{"group": "g", "cases": [{"name": "n", "doc": "d", "command": {"command": "NOT_A_COMMAND"}, "expect": {}}]}')
    with pytest.raises(CaseError):
        load_file(path)
    path.write_text('{"group": "g", "cases": [{"name": "n", "doc": "d", "command": {"command": 40}, "expect": {"reasn": 1}}]}')
    with pytest.raises(CaseError, match="unknown keys"):
        load_file(path)


async def test_every_case_passes_against_our_server(good: tuple[str, int]) -> None:
    suite = await trio.to_thread.run_sync(lambda: Runner(*good).run(load_groups()))
    failures = [f"{r.case.id}: {r.failures}" for r in suite.results if not r.passed]
    assert failures == []
    assert suite.ok and suite.summary() == f"{len(suite.results)} passed, 0 failed"


async def test_a_wrong_server_fails_with_expected_and_actual(wrong: tuple[str, int]) -> None:
    suite = await trio.to_thread.run_sync(lambda: Runner(*wrong).run(load_groups(), only=["header", "response"]))
    assert not suite.ok and suite.failed >= 3
    text = "\n".join(f for r in suite.results for f in r.failures)
    assert "expected the summary CompCode 2, Reason MQRCCF_COMMAND_FAILED (3008)" in text
    assert "Reason: expected MQRCCF_CFH_COMMAND_ERROR (3007), actual MQRC_NONE (0)" in text


async def test_nothing_listening_is_a_failure_not_a_crash() -> None:
    with trio.socket.socket() as sock:  # a port with no listener
        await sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    suite = await trio.to_thread.run_sync(lambda: Runner("127.0.0.1", port, timeout=2).run(load_groups(), only=["response"]))
    assert suite.failed == len(suite.results) > 0
    assert "cannot connect" in suite.results[0].failures[0]


async def _cli(*args: str) -> trio.CompletedProcess[bytes]:
    return await trio.run_process([sys.executable, "-m", "pcfserver", "conformance", *args], capture_stdout=True, capture_stderr=True, check=False)


async def test_cli_passes_and_writes_junit(good: tuple[str, int], tmp_path: Path) -> None:
    junit = tmp_path / "results.xml"
    done = await _cli("--connect", f"{good[0]}:{good[1]}", "--only", "create", "--only", "inquire", "--junit", str(junit))
    out = done.stdout.decode()
    assert done.returncode == 0, out + done.stderr.decode()
    total = len([c for g in load_groups() if g.name in ("create", "inquire") for c in g.cases])
    assert out.strip().splitlines()[-1] == f"{total} passed, 0 failed"
    root = ET.parse(junit).getroot()
    assert root.get("tests") == str(total) and root.get("failures") == "0"
    assert {s.get("name") for s in root.iter("testsuite")} == {"create", "inquire"}


async def test_cli_fails_against_the_wrong_server(wrong: tuple[str, int]) -> None:
    done = await _cli("--connect", f"{wrong[0]}:{wrong[1]}", "--only", "response")
    out = done.stdout.decode()
    assert done.returncode == 1
    assert "FAIL response/failure ends with the summary" in out
    assert "expected" in out and "actual" in out
    assert out.strip().splitlines()[-1].endswith("failed") and " 0 failed" not in out


async def test_cli_usage_errors() -> None:
    assert (await _cli("--connect", "nonsense")).returncode == 2
    assert (await _cli("--connect", "127.0.0.1:1", "--only", "no-such-group")).returncode == 2
    listing = await _cli("--connect", "127.0.0.1:1", "--list")
    assert listing.returncode == 0 and b"header:" in listing.stdout
    assert (await _cli("--list")).stdout == listing.stdout  # listing needs no server
    assert (await _cli()).returncode == 2


def test_cases_dir_is_in_the_repository() -> None:
    assert CASES_DIR.is_dir() and CASES_DIR.parts[-2:] == ("formats", "conformance")
