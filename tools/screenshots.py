#!/usr/bin/env python3
"""Screenshots of the web console's main pages for the README, from a real browser on a demo queue manager.

    python tools/screenshots.py [--out docs/screenshots] [--dark]

Starts ``pcfserver serve`` on a fresh data directory (free ports on 127.0.0.1), loads a small demo configuration
through the REST API while no user exists (queues with messages, a channel, a listener, a topic, a subscription, authority records),
signs in as an MQWebAdmin user and saves one PNG per page with Debian's chromium (headless, offline, through
chromium-driver).  Pages the server does not have yet are skipped.  ``--dark`` also saves the dark theme.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.console_support import PREFIX, add_user, browser, console_server, mqsc, sign_in  # noqa: E402

DEMO = [
    "DEFINE QLOCAL(APP.ORDERS) MAXDEPTH(500) DESCR('Orders from the web shop')",
    "DEFINE QLOCAL(APP.INVOICES) MAXDEPTH(100) DESCR('Invoices to print')",
    "DEFINE QLOCAL(APP.ORDERS.BACKOUT) DESCR('Orders that failed three times')",
    "DEFINE QLOCAL(APP.AUDIT) PUT(DISABLED)",
    "DEFINE QALIAS(APP.ORDERS.ALIAS) TARGET(APP.ORDERS)",
    "DEFINE QREMOTE(APP.PARTNER) RNAME(PARTNER.IN) RQMNAME(QM2) XMITQ(QM2)",
    "DEFINE QLOCAL(QM2) USAGE(XMITQ)",
    "DEFINE CHANNEL(APP.SVRCONN) CHLTYPE(SVRCONN) DESCR('Applications')",
    "DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) CONNAME('127.0.0.1(1415)') XMITQ(QM2)",
    "DEFINE LISTENER(APP.LISTENER) TRPTYPE(TCP) PORT(0) CONTROL(MANUAL)",
    "DEFINE TOPIC(PRICES) TOPICSTR('shop/prices')",
    "DEFINE SUB(PRICE.WATCH) TOPICSTR('shop/prices/#') DEST(APP.INVOICES)",
    "SET AUTHREC PROFILE('APP.**') OBJTYPE(QUEUE) PRINCIPAL('app') AUTHADD(PUT,GET,INQ,BROWSE)",
    "SET CHLAUTH('APP.SVRCONN') TYPE(ADDRESSMAP) ADDRESS('127.0.0.1') USERSRC(CHANNEL)",
    "SET POLICY(APP.INVOICES) SIGNALG(SHA256) ENCALG(AES256) RECIP('CN=billing,O=Shop') RECIP('CN=audit,O=Shop')",
]
PAGES = [
    ("overview", "/overview"),
    ("queues", "/queues"),
    ("queue", "/queues/APP.ORDERS"),
    ("messages", "/queues/APP.ORDERS/messages"),
    ("channels", "/objects/channel"),
    ("security", "/security"),
    ("connections", "/connections"),
    ("mqsc", "/mqsc"),
    ("history", "/history"),
]


def demo(served: object) -> None:
    for command in DEMO:
        try:
            mqsc(served, command)  # type: ignore[arg-type]
        except AssertionError as exc:
            print(f"demo: {command}: {exc}", file=sys.stderr)
    rest = served.http + "/ibmmq/rest/v2/messaging/qmgr/QM1/queue/{}/message"  # type: ignore[attr-defined]
    headers = {"ibm-mq-rest-csrf-token": "x", "Content-Type": "application/json"}
    for i in range(37):
        body = f'{{"order": {1000 + i}, "item": "book", "quantity": {i % 4 + 1}}}'
        httpx.post(rest.format("APP.ORDERS"), content=body, headers=headers, timeout=30)
    for i in range(82):
        httpx.post(rest.format("APP.INVOICES"), content=f"invoice {i}", headers={**headers, "Content-Type": "text/plain"},
                   timeout=30)


def traffic(served: object, seconds: float) -> None:
    """Puts and gets for a while, so that the overview's charts (one sample every 10 s) have a line to draw."""
    import time

    base = served.http + "/ibmmq/rest/v2/messaging/qmgr/QM1/queue/APP.ORDERS/message"  # type: ignore[attr-defined]
    headers = {"ibm-mq-rest-csrf-token": "x", "Content-Type": "text/plain"}
    end = time.monotonic() + seconds
    with httpx.Client(timeout=30) as client:
        step = 0
        while time.monotonic() < end:
            step += 1
            for _ in range(5 + step % 7):
                client.post(base, content=b"tick", headers=headers)
            for _ in range(3 + step % 5):
                client.delete(base, headers=headers)
            time.sleep(0.5)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    parser.add_argument("--dark", action="store_true", help="also the dark theme (file names end -dark)")
    parser.add_argument("--chart-seconds", type=float, default=35, help="traffic before the pictures, for the overview's charts (default 35)")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, console_server(Path(tmp)) as served:
        demo(served)  # before any user exists: the REST API is open (loopback only)
        traffic(served, args.chart_seconds)
        add_user(served.data, "admin", ["MQWebAdmin"], "admin")  # the server reads its users again at the next request
        with browser() as driver:
            sign_in(driver, served, "admin", "admin")
            themes = [("", "light")] + ([("-dark", "dark")] if args.dark else [])
            for suffix, scheme in themes:
                driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
                for name, path in PAGES:
                    answer = httpx.get(served.url(path), auth=("admin", "admin"), timeout=30, follow_redirects=False)
                    if answer.status_code != 200:
                        print(f"skipped {path}: {answer.status_code}")
                        continue
                    driver.get(served.url(path))
                    target = out / f"{name}{suffix}.png"
                    driver.save_screenshot(str(target))
                    if shutil.which("pngquant"):  # Debian's pngquant: a palette PNG a quarter of the size, for the repository
                        subprocess.run(["pngquant", "--quality", "70-95", "--force", "--output", str(target), str(target)], check=False)
                    print(f"{PREFIX}{path} -> {target.relative_to(ROOT) if target.is_relative_to(ROOT) else target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
