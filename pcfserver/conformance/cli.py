"""``pcfserver conformance --connect HOST:PORT``: run the conformance suite against a server."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pcfserver.client.rest_session import OptionError, add_options, parse_url, read_password, ssl_context, user_name
from pcfserver.conformance.cases import CaseError, load_groups
from pcfserver.conformance.junit import write_junit
from pcfserver.conformance.runner import CaseResult, Runner, format_failure


def _address(text: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit():
        raise argparse.ArgumentTypeError(f"expected HOST:PORT, not {text!r}")
    return host.strip("[]"), int(port)


def configure(name: str, parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--connect", type=_address, metavar="HOST:PORT", help="the PCF server to test")
    parser.add_argument("--rest", metavar="URL", help="run the REST group against this base URL instead (https://host:9443)")
    parser.add_argument("--qmgr", default="QM1", help="the queue manager name in REST URLs (default QM1)")
    parser.add_argument("--only", action="append", default=[], metavar="GROUP", help="run only this group (repeatable)")
    parser.add_argument("--junit", metavar="FILE", help="also write the results as JUnit XML")
    parser.add_argument("--cases", metavar="DIR", help="case files to run (default: the project's formats/conformance)")
    parser.add_argument("--timeout", type=float, default=10.0, metavar="S", help="seconds to wait for each answer (default 10)")
    parser.add_argument("--list", action="store_true", help="list the groups and cases, run nothing")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every case, not only failures")
    add_options(parser.add_argument_group("signing in to the REST API (with --rest)"), address=False)


def _run_rest(args: argparse.Namespace) -> int:
    from pcfserver.conformance.rest import run_rest

    try:
        where = parse_url(args.rest, https=args.https)
        if (args.cafile or args.insecure or args.cert) and not where.tls:
            raise OptionError("--cafile, --insecure and --cert are for HTTPS: give an https:// URL")
        password = read_password(args)
        context = ssl_context(args) if where.tls else None
    except OptionError as exc:
        print(f"pcfserver conformance: {exc}", file=sys.stderr)
        return 2
    results = run_rest(where.where, args.qmgr, user=user_name(args), password=password, context=context, timeout=args.timeout)
    for result in results:
        if not result.passed:
            print(f"FAIL rest: {result.name}  [{result.doc}]\n  " + "\n  ".join(result.problems), flush=True)
        elif args.verbose:
            print(f"ok   rest: {result.name}", flush=True)
    failed = sum(not r.passed for r in results)
    print(f"{len(results)} REST cases: {len(results) - failed} passed, {failed} failed")
    return 0 if not failed else 1


def run(name: str, args: argparse.Namespace) -> int:
    if args.rest:
        return _run_rest(args)
    if args.connect is None and not args.list:
        print("pcfserver conformance: --connect HOST:PORT (or --rest URL) is required", file=sys.stderr)
        return 2
    try:
        groups = load_groups(Path(args.cases) if args.cases else None)
    except CaseError as exc:
        print(f"pcfserver conformance: {exc}", file=sys.stderr)
        return 2
    unknown = [g for g in args.only if g not in {group.name for group in groups}]
    if unknown:
        print(f"pcfserver conformance: no group {', '.join(unknown)} (groups: {', '.join(g.name for g in groups)})", file=sys.stderr)
        return 2
    if args.list:
        for group in groups:
            if args.only and group.name not in args.only:
                continue
            print(f"{group.name}: {group.description}")
            for case in group.cases:
                print(f"  {case.name}  [{case.doc}]")
        return 0
    assert args.connect is not None
    host, port = args.connect

    def progress(result: CaseResult) -> None:
        if not result.passed:
            print(format_failure(result), flush=True)
        elif args.verbose:
            print(f"ok   {result.case.id}", flush=True)

    suite = Runner(host, port, timeout=args.timeout).run(groups, args.only, progress)
    if args.junit:
        write_junit(suite, Path(args.junit))
    print(suite.summary())
    return 0 if suite.ok else 1
