"""pcfserver put, get and browse against a real server with its HTTP port on."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import trio

from pcfserver.engine import open_engine
from pcfserver.server import ServerConfig
from pcfserver.server.service import Service

QUEUE = "SYSTEM.DEFAULT.LOCAL.QUEUE"


async def cli(port: int, *args: str, stdin: bytes = b"") -> tuple[int, str, str]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    done = await trio.run_process(
        [sys.executable, "-m", "pcfserver.cli", *args, "--port", str(port)], stdin=stdin, capture_stdout=True, capture_stderr=True, check=False, env=env,
    )
    return done.returncode, done.stdout.decode(), done.stderr.decode()


async def test_put_browse_get_round_trip(tmp_path: Path) -> None:
    engine = open_engine(tmp_path)
    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            service = Service(engine, ServerConfig(host="127.0.0.1", port=0, http_port=0))
            _, http = await nursery.start(service.serve)
            port = http[1]
            code, out, _ = await cli(port, "put", QUEUE)
            assert code == 0 and out.startswith(f"put 1 message to {QUEUE}: messageId ID:")
            source = tmp_path / "lines.txt"
            source.write_text("alpha\nbeta\n\ngamma\n")
            assert (await cli(port, "put", QUEUE, str(source)))[0] == 0
            assert (await cli(port, "put", QUEUE, "-", stdin=b"from stdin\n"))[0] == 0
            code, out, _ = await cli(port, "put", QUEUE, "--count", "150", "--size", "64", "--persistent")
            assert code == 0 and out.startswith(f"put 150 messages to {QUEUE}")
            code, out, _ = await cli(port, "browse", QUEUE)
            assert code == 0
            assert out.count("MQGET of message number") == 155
            assert "alpha" in out and "persistence : persistent" in out and "(155 browsed" in out
            code, out, _ = await cli(port, "get", QUEUE)
            assert (code, out) == (0, "pcfserver message 1\n")
            code, out, err = await cli(port, "get", QUEUE, "--all")
            assert code == 0 and out.splitlines()[:4] == ["alpha", "beta", "gamma", "from stdin"]
            assert len(out.splitlines()) == 154 and "got 154 messages" in err
            code, _, err = await cli(port, "get", QUEUE, "--wait", "0.2")
            assert code == 1 and "no message available" in err
            code, _, err = await cli(port, "put", "NO.SUCH.Q")
            assert code == 1 and "MQWB0300E" in err and "2085" in err
            code, _, err = await cli(port, "browse", QUEUE)
            assert code == 1
            service.shutdown()
    engine.close()


async def test_an_unreachable_server_is_a_clear_message() -> None:
    listener = (await trio.open_tcp_listeners(0, host="127.0.0.1"))[0]
    port = listener.socket.getsockname()[1]
    await listener.aclose()
    code, _, err = await cli(port, "get", QUEUE)
    assert code == 1 and "cannot reach a pcfserver HTTP port" in err
