"""``pcfserver serve``: run the PCF admin server until SIGINT or SIGTERM."""

from __future__ import annotations

import argparse
import gc
import logging
import signal
import sys
from pathlib import Path
from typing import TextIO

import trio

from pcfserver.engine.engine import Engine as FullEngine
from pcfserver.server.committer import Engine, commit_in_thread
from pcfserver.server.core import ServerConfig
from pcfserver.server.logs import LOGGER_NAME, configure_logging
from pcfserver.server.service import Addresses, InsecureListen, Service

log = logging.getLogger(LOGGER_NAME)
SWITCH_INTERVAL = 0.0002
# The cyclic garbage collector's generation thresholds while serving (the default is 700, 10,
# 10).  A command leaves almost nothing behind that outlives it, yet the default young-generation
# pass ran some 400 times in a 6 s benchmark and each pass touched the survivors of the last.
GC_THRESHOLDS = (10_000, 20, 20)


def _positive_int(text: str) -> int:
    value = int(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be positive, not {text}")
    return value


def _seconds(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, not {text}")
    return value


def configure(name: str, parser: argparse.ArgumentParser) -> None:
    defaults = ServerConfig()
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=1414, help="TCP port; 0 picks a free one (default 1414)")
    parser.add_argument("--http-port", type=int, default=None, metavar="N", help="also serve IBM MQ's REST API (messaging and administration) over HTTP on this port; 0 picks a free one (default: off)")
    parser.add_argument("--https-port", type=int, default=None, metavar="N", help="serve the REST API over HTTPS on this port; 0 picks a free one (default: off; mqweb uses 9443)")
    parser.add_argument("--pcf-tls", action="store_true", help="the PCF port speaks TLS (with --tls-ca, clients must present a certificate whose CN is a user)")
    parser.add_argument("--tls-cert", default=None, metavar="PEM", help="TLS certificate chain (default: a self-signed one for localhost, made once in the data directory)")
    parser.add_argument("--tls-key", default=None, metavar="PEM", help="the TLS certificate's private key")
    parser.add_argument("--tls-ca", default=None, metavar="PEM", help="CA certificates of accepted client certificates (required on the PCF TLS port, optional on HTTPS)")
    parser.add_argument("--token-lifetime", type=_seconds, default=7200.0, metavar="S", help="seconds a REST login token lasts (default 7200, mqweb's 120 minutes)")
    parser.add_argument(
        "--rest-gateway", action="store_true",
        help="this queue manager is the REST API's default gateway (mqweb's mqRestGatewayQmgr): a request for another queue manager without the ibm-mq-rest-gateway-qmgr header is routed too",
    )
    parser.add_argument("--insecure", action="store_true", help="listen on a non-loopback --host even where a port has no authentication")
    parser.add_argument("--data", default="./pcfdata", help="data directory of the store (default ./pcfdata)")
    parser.add_argument("--qmgr", default=None, help="queue manager name of a new data directory (default QM1; an existing one keeps its own)")
    parser.add_argument("--ccsid", type=_positive_int, default=None, help="queue manager CCSID of a new data directory (default 819)")
    parser.add_argument(
        "--seed", action="append", default=[], metavar="FILE",
        help="run this MQSC script (as runmqsc would, its output printed) before listening, at every start; may be repeated",
    )
    parser.add_argument("--capture", metavar="DIR", help="write each connection's raw inbound/outbound PCF to files in DIR")
    parser.add_argument("--capture-rotate-bytes", type=_positive_int, default=defaults.capture_rotate_bytes, metavar="N", help=f"start a new capture file, on a message boundary, past this size (default {defaults.capture_rotate_bytes})")
    parser.add_argument("--max-message-bytes", type=_positive_int, default=defaults.max_message_bytes, metavar="N", help=f"largest command accepted (default {defaults.max_message_bytes})")
    parser.add_argument("--max-connections", type=_positive_int, default=defaults.max_connections, metavar="N", help=f"connections beyond this are closed (default {defaults.max_connections})")
    parser.add_argument("--idle-timeout", type=_seconds, default=defaults.idle_timeout, metavar="S", help=f"close connections idle this long (default {defaults.idle_timeout:g})")
    parser.add_argument("--read-timeout", type=_seconds, default=defaults.read_timeout, metavar="S", help=f"close connections that leave a message incomplete this long (default {defaults.read_timeout:g})")
    parser.add_argument("--no-start-listeners", action="store_true", help="do not start the CONTROL(QMGR) and STARTONLY listener objects with the server")
    parser.add_argument("--run-services", action="store_true", help="let START SERVICE run the services' STARTCMD/STOPCMD programs (off by default: see the README)")
    parser.add_argument("--log-format", choices=("text", "json"), default="text", help="log lines as text or one JSON object per line")
    parser.add_argument(
        "--commit-in", choices=("auto", "loop", "thread"), default="auto",
        help=(
            "run commits on the event loop or in a worker thread (default auto: the thread, except for a lone request with 2 CPUs"
            " or fewer, and groups of small messages on the loop with their sync awaited on an io_uring where there is one)"
        ),
    )


def config_from_args(args: argparse.Namespace) -> ServerConfig:
    return ServerConfig(
        host=args.host,
        port=args.port,
        http_port=args.http_port,
        https_port=args.https_port,
        pcf_tls=args.pcf_tls,
        tls_cert=Path(args.tls_cert) if args.tls_cert else None,
        tls_key=Path(args.tls_key) if args.tls_key else None,
        tls_ca=Path(args.tls_ca) if args.tls_ca else None,
        token_lifetime=args.token_lifetime,
        rest_gateway_default=args.rest_gateway,
        insecure=args.insecure,
        ccsid=args.ccsid or 819,
        max_message_bytes=args.max_message_bytes,
        max_connections=args.max_connections,
        idle_timeout=args.idle_timeout,
        read_timeout=args.read_timeout,
        capture_dir=Path(args.capture) if args.capture else None,
        capture_rotate_bytes=args.capture_rotate_bytes,
        engine_in_thread={"auto": None, "loop": False, "thread": True}[args.commit_in],
        start_listeners=not args.no_start_listeners,
        run_services=args.run_services,
    )


def startup_line(
    address: tuple[str, int], data: Path, qmgr: str, http: tuple[str, int] | None = None, https: tuple[str, int] | None = None, pcf_tls: bool = False
) -> str:
    def shown(pair: tuple[str, int]) -> str:
        host, port = pair
        return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"

    web = f" http {shown(http)}" if http is not None else ""
    web += f" https {shown(https)}" if https is not None else ""
    tls = " (TLS)" if pcf_tls else ""
    return f"pcfserver listening on {shown(address)}{tls}{web} data {data} qmgr {qmgr}"


async def serve_until_signal(engine: Engine, config: ServerConfig, data: Path, qmgr: str) -> None:
    """Serves until SIGINT/SIGTERM: the first stops gracefully, a second one stops at once."""
    service = Service(engine, config, data)
    if service.certificate is not None and config.tls_cert is None:
        print(f"pcfserver: TLS with the self-signed certificate {service.certificate[0]}", flush=True)
    with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
        async with trio.open_nursery() as nursery:

            async def serve_then_stop(task_status: trio.TaskStatus[Addresses] = trio.TASK_STATUS_IGNORED) -> None:
                await service.serve(task_status=task_status)
                nursery.cancel_scope.cancel()

            addresses = await nursery.start(serve_then_stop)
            line = startup_line(addresses.pcf, data, qmgr, addresses.http, addresses.https, config.pcf_tls)
            print(line, flush=True)
            log.info("%s", line, extra={"event": "listening"})
            async for signum in signals:
                log.info("signal %s", signal.Signals(signum).name, extra={"event": "signal"})
                if service.stopping:
                    log.warning("second signal: stopping without waiting", extra={"event": "signal"})
                    nursery.cancel_scope.cancel()
                    return
                service.shutdown()


def seed(engine: FullEngine, path: Path, out: TextIO) -> int:
    """Runs an MQSC script against the store before the server listens; runmqsc's exit status.

    IBM's container runs the MQSC files it is given at every start the same way: a failed command
    is reported and the rest go on, so the server starts either way."""
    from pcfserver.dialects.runner import ScriptRunner

    runner = ScriptRunner(lambda command: engine.execute(command, None, ("MQSC", "--seed")), qmgr_name=engine.qmgr_name)
    lines = runner.start()
    for line in path.read_text(encoding="utf-8").splitlines():
        lines += runner.feed(line)
    lines += runner.finish()
    print("\n".join(lines), file=out, flush=True)
    return runner.exit_code


def _first_leaf(error: BaseException) -> BaseException:
    while isinstance(error, BaseExceptionGroup):
        error = error.exceptions[0]
    return error


def run(name: str, args: argparse.Namespace) -> int:
    configure_logging(args.log_format)
    config = config_from_args(args)
    data = Path(args.data).resolve()
    from pcfserver.engine import open_engine

    try:
        engine = open_engine(data, qmgr=args.qmgr, ccsid=args.ccsid)
    except Exception as exc:
        print(f"pcfserver serve: cannot open the store in {data}: {exc}", file=sys.stderr)
        return 1
    config.ccsid = engine.ccsid
    qmgr = engine.qmgr_name
    if engine.sync_events():  # (a store on disk that has not been refused a ring: say which way its log is synced)
        from pcfserver.engine import uring

        how = "through an io_uring" if uring.allowed() else "by fdatasync (this process may have no io_uring)"
        log.info("the store's log is synced %s", how, extra={"event": "sync"})
    for script in args.seed:
        try:
            status = seed(engine, Path(script), sys.stdout)
        except (OSError, UnicodeDecodeError) as exc:
            print(f"pcfserver serve: cannot read --seed {script}: {exc}", file=sys.stderr)
            engine.close()
            return 1
        print(f"pcfserver: --seed {script} exit status {status}", flush=True)
    # What is loaded by now (tables, the registry as stored) lives as long as the process: the
    # collector need not look at it again.
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    if commit_in_thread(config.engine_in_thread):
        # The engine thread gives up the GIL at every SQLite call; with the default 5 ms switch
        # interval, taking it back from a busy event loop stalls each commit by up to 5 ms.
        sys.setswitchinterval(SWITCH_INTERVAL)
    if (config.tls_cert is None) != (config.tls_key is None):
        print("pcfserver serve: --tls-cert and --tls-key go together", file=sys.stderr)
        engine.close()
        return 2
    try:
        trio.run(serve_until_signal, engine, config, data, qmgr)
    except InsecureListen as exc:
        print(f"pcfserver serve: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"pcfserver serve: {exc}", file=sys.stderr)
        return 1
    except BaseExceptionGroup as group:  # from inside the nursery (cannot listen, ...)
        matched, rest = group.split(OSError)
        if matched is None or rest is not None:
            raise
        print(f"pcfserver serve: {_first_leaf(matched)}", file=sys.stderr)
        return 1
    finally:
        engine.close()
        log.info("store closed", extra={"event": "stopped"})
    return 0
