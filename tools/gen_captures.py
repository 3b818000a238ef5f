#!/usr/bin/env python3
"""Generate realistic captured PCF streams for the pipeline's tests and benchmark.

Each file is a raw PCF byte stream, as the server's capture files or a stream cut from another
tool: queue commands (Create, Copy, Change, Delete, Clear, Inquire Queue, Inquire Queue Names,
Inquire Queue Status, Reset Queue Statistics) each followed by the responses a queue manager
gives (OK, error + MQRCCF_COMMAND_FAILED summary, one data response per queue).  Exchanges use
either byte order; some carry EBCDIC (CCSID 500/37) or UTF-8 strings; Inquire commands sometimes
carry filters (MQCFH version 3).  A ``--corrupt-rate`` fraction of the messages is damaged after
encoding: a wrong parameter length, a broken header, a truncated message, garbage between
messages, an impossible parameter count, or an unknown CCSID (which still decodes, with a warning).

A ``--rich-rate`` fraction of the messages (default 0.1; 0 gives the plain admin mix of earlier
versions) is what real captures carry besides: event messages (MQCFT_EVENT: queue depth high,
configuration changes with an accounting token), queue statistics (MQCFT_STATISTICS: one MQCFGR
per queue with MQCFIL and MQCFIL64 counters), channel status answers (MQCFIN64 byte counts,
MQCFBS channel ids), Inquire Queue Status by connection id (an MQCFBF filter) and z/OS extended
responses (MQCFT_COMMAND_XR commands with filters answered by MQCFT_XR_ITEM / MQCFT_XR_MSG /
MQCFT_XR_SUMMARY messages carrying MQBACF_RESPONSE_ID and, for Display Queue, an MQCFGR of
attributes), interleaved at random among the admin exchanges, damaged at the same rate.

``--messages`` is the total over all files.  Output is deterministic for a given ``--seed``.
``_manifest.json`` (ignored by Spark's file listing because of the leading underscore) records
what was written.

    python tools/gen_captures.py --files 20 --messages 2000000 --corrupt-rate 0.001 --out captures
"""

from __future__ import annotations

import argparse
import bisect
import itertools
import json
import os
import random
import struct
import sys
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from pcfserver import mq
from pcfserver.codec import (
    ByteString,
    ByteStringFilter,
    Group,
    Integer,
    Integer64,
    Integer64List,
    IntegerFilter,
    IntegerList,
    Message,
    Parameter,
    String,
    StringFilter,
    StringList,
    encode,
)
from pcfserver.engine.responses import error_responses, numbered, ok_response

APPS = ("PAYROLL", "ORDERS", "BILLING", "INVENTORY", "SHIPPING", "CRM", "AUDIT", "FRAUD", "LEDGER", "HR", "RISK", "CLAIMS")
ROLES = ("REQUEST", "REPLY", "EVENTS", "IN", "OUT", "BACKOUT", "ERROR")
ENVS = ("PROD.", "UAT.", "")
DESCRIPTIONS = (
    "Inbound {app} requests",
    "Replies to {app} clients",
    "{app} backout queue - check daily",
    "Réponses {app} (équipe intégration)",
    "Eingang {app} für Buchhaltung",
    "{app} events for the data lake",
    "Retry queue for {app}",
)
UTF8_DESCRIPTIONS = ("{app} – queue of record ✓", "{app} 注文キュー", "{app} — Überweisungen €")
USERS = ("mqadmin", "ops01", "ops02", "deploy", "jenkins", "ansible", "dba")

# Command mix, roughly what an admin tool and a monitoring agent produce together.
COMMANDS = (
    (mq.MQCMD_INQUIRE_Q, 30),
    (mq.MQCMD_CHANGE_Q, 22),
    (mq.MQCMD_CREATE_Q, 10),
    (mq.MQCMD_INQUIRE_Q_NAMES, 10),
    (mq.MQCMD_DELETE_Q, 6),
    (mq.MQCMD_COPY_Q, 5),
    (mq.MQCMD_CLEAR_Q, 5),
    (mq.MQCMD_INQUIRE_Q_STATUS, 8),
    (mq.MQCMD_RESET_Q_STATS, 4),
)
FAILURE_RATE = 0.15
FAILURES = {
    mq.MQCMD_CREATE_Q: ((mq.MQRCCF_OBJECT_ALREADY_EXISTS, None), (mq.MQRCCF_PARM_VALUE_ERROR, mq.MQIA_MAX_Q_DEPTH), (mq.MQRC_NOT_AUTHORIZED, None)),
    mq.MQCMD_COPY_Q: ((mq.MQRC_UNKNOWN_OBJECT_NAME, None), (mq.MQRCCF_OBJECT_ALREADY_EXISTS, None)),
    mq.MQCMD_CHANGE_Q: (
        (mq.MQRC_UNKNOWN_OBJECT_NAME, None),
        (mq.MQRCCF_Q_WRONG_TYPE, None),
        (mq.MQRC_OBJECT_IN_USE, None),
        (mq.MQRCCF_PARM_VALUE_ERROR, mq.MQIA_DEF_PRIORITY),
    ),
    mq.MQCMD_DELETE_Q: ((mq.MQRC_UNKNOWN_OBJECT_NAME, None), (mq.MQRC_Q_NOT_EMPTY, None), (mq.MQRC_OBJECT_IN_USE, None)),
    mq.MQCMD_CLEAR_Q: ((mq.MQRC_OBJECT_IN_USE, None), (mq.MQRC_UNKNOWN_OBJECT_NAME, None)),
    mq.MQCMD_INQUIRE_Q: ((mq.MQRC_UNKNOWN_OBJECT_NAME, None),),
    mq.MQCMD_INQUIRE_Q_STATUS: ((mq.MQRC_UNKNOWN_OBJECT_NAME, None),),
    mq.MQCMD_RESET_Q_STATS: ((mq.MQRC_UNKNOWN_OBJECT_NAME, None), (mq.MQRC_NOT_AUTHORIZED, None)),
}
CORRUPTIONS = ("length", "header", "truncate", "garbage", "count", "ccsid")

# Parameter ids of statistics and channel status that formats/constants.tsv does not list; the
# values are IBM's (cmqcfc.h), needed here only to make realistic bytes.
MQIAMO_GETS = 722
MQIAMO_PUTS = 735
MQIAMO_Q_MAX_DEPTH = 739
MQIAMO_Q_MIN_DEPTH = 740
MQIAMO64_Q_TIME_AVG = 741
MQIAMO64_BROWSE_BYTES = 745
MQCAMO_START_DATE = 3175
MQCAMO_START_TIME = 3176
MQIACH_CHANNEL_TYPE = 1511
MQIACH_CHANNEL_STATUS = 1527
MQIACH_MSGS = 1534
MQIACH_BYTES_SENT = 1535
MQIACH_BYTES_RECEIVED = 1536
MQCACH_CHANNEL_NAME = 3501
MQCACH_XMIT_Q_NAME = 3505
MQCACH_CONNECTION_NAME = 3506
MQBACH_CHANNEL_ID = 7022  # assumed; no table names it, so rows carry it unnamed
MQCHT_SENDER, MQCHT_SVRCONN = 1, 7
MQCHS_RUNNING = 3
CHANNELS = ("TO.LONDON", "TO.FRANKFURT", "TO.NEWYORK", "TO.TOKYO", "APP.SVRCONN", "ADMIN.SVRCONN")
RICH_KINDS = (("event", 30), ("statistics", 15), ("channel_status", 20), ("status_by_connection", 10), ("zos", 25))


class Queue:
    __slots__ = ("app", "name", "qtype")

    def __init__(self, name: str, qtype: int, app: str) -> None:
        self.name = name
        self.qtype = qtype
        self.app = app


def queue_pool(rng: random.Random) -> list[Queue]:
    """Every queue of the estate, most popular first (the popularity is Zipf-like)."""
    queues = []
    for env, app, role in itertools.product(ENVS, APPS, ROLES):
        qtype = rng.choices((mq.MQQT_LOCAL, mq.MQQT_ALIAS, mq.MQQT_REMOTE, mq.MQQT_MODEL), (75, 12, 10, 3))[0]
        queues.append(Queue(f"{env}{app}.{role}", qtype, app))
    rng.shuffle(queues)
    return queues


class Generator:
    """Exchanges (a command and its responses) of one capture."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.queues = queue_pool(random.Random(0))  # the same estate in every file
        weights = [1.0 / (rank + 1) for rank in range(len(self.queues))]
        self.queue_cum = list(itertools.accumulate(weights))
        self.command_codes = [code for code, _ in COMMANDS]
        self.command_cum = list(itertools.accumulate(weight for _, weight in COMMANDS))
        self.clock = 1_700_000_000 + self.rng.randrange(86400 * 365)

    def queue(self) -> Queue:
        rng = self.rng
        return self.queues[bisect.bisect(self.queue_cum, rng.random() * self.queue_cum[-1])]

    def ccsid(self) -> int:
        r = self.rng.random()
        if r < 0.80:
            return 0
        if r < 0.88:
            return 500
        if r < 0.94:
            return 37
        if r < 0.97:
            return 819
        return 1208

    def description(self, queue: Queue, ccsid: int) -> str:
        rng = self.rng
        pool = UTF8_DESCRIPTIONS if ccsid == 1208 and rng.random() < 0.5 else DESCRIPTIONS
        return rng.choice(pool).format(app=queue.app.title())

    def attributes(self, queue: Queue, ccsid: int, many: bool) -> list[Parameter]:
        """Attributes a Create/Change/Copy sets, by queue type."""
        rng = self.rng
        qtype = queue.qtype
        out: list[Parameter] = []
        if qtype in (mq.MQQT_LOCAL, mq.MQQT_MODEL):
            candidates: list[Parameter] = [
                Integer(mq.MQIA_MAX_Q_DEPTH, rng.choice((5000, 10000, 50000, 100000, 999999999))),
                Integer(mq.MQIA_MAX_MSG_LENGTH, rng.choice((4194304, 104857600, 1048576))),
                Integer(mq.MQIA_DEF_PERSISTENCE, rng.randrange(2)),
                Integer(mq.MQIA_DEF_PRIORITY, rng.randrange(10)),
                Integer(mq.MQIA_INHIBIT_PUT, rng.choices((0, 1), (9, 1))[0]),
                Integer(mq.MQIA_INHIBIT_GET, rng.choices((0, 1), (9, 1))[0]),
                Integer(mq.MQIA_BACKOUT_THRESHOLD, rng.choice((0, 3, 5, 10))),
                String(mq.MQCA_BACKOUT_REQ_Q_NAME, f"{queue.app}.BACKOUT", ccsid),
                Integer(mq.MQIA_Q_DEPTH_HIGH_LIMIT, rng.choice((80, 90))),
                Integer(mq.MQIA_USAGE, rng.choices((mq.MQUS_NORMAL, mq.MQUS_TRANSMISSION), (19, 1))[0]),
            ]
        elif qtype == mq.MQQT_ALIAS:
            candidates = [
                String(mq.MQCA_BASE_OBJECT_NAME, f"{queue.app}.IN", ccsid),
                Integer(mq.MQIA_DEF_PERSISTENCE, rng.randrange(2)),
                Integer(mq.MQIA_INHIBIT_PUT, rng.choices((0, 1), (9, 1))[0]),
                Integer(mq.MQIA_DEF_PRIORITY, rng.randrange(10)),
            ]
        else:  # remote
            candidates = [
                String(mq.MQCA_REMOTE_Q_NAME, f"{queue.app}.IN", ccsid),
                String(mq.MQCA_REMOTE_Q_MGR_NAME, rng.choice(("QM.LONDON", "QM.FRANKFURT", "QM.NEWYORK", "QM.TOKYO")), ccsid),
                String(mq.MQCA_XMIT_Q_NAME, rng.choice(("XMITQ.LONDON", "XMITQ.FRANKFURT", "")), ccsid),
                Integer(mq.MQIA_DEF_PERSISTENCE, rng.randrange(2)),
            ]
        k = rng.randint(3, len(candidates)) if many else rng.randint(1, min(3, len(candidates)))
        out.extend(rng.sample(candidates, k))
        if rng.random() < 0.5:
            out.append(String(mq.MQCA_Q_DESC, self.description(queue, ccsid), ccsid))
        return out

    def inquire_data(self, command: Message, queue: Queue, ccsid: int) -> Message:
        """One Inquire Queue data response."""
        rng = self.rng
        self.clock += rng.randrange(1, 600)
        created = time.gmtime(self.clock - rng.randrange(86400 * 900))
        altered = time.gmtime(self.clock - rng.randrange(86400 * 30))
        params: list[Parameter] = [
            String(mq.MQCA_Q_NAME, queue.name.ljust(48), ccsid),
            Integer(mq.MQIA_Q_TYPE, queue.qtype),
            String(mq.MQCA_Q_DESC, self.description(queue, ccsid).ljust(64), ccsid),
            Integer(mq.MQIA_DEF_PRIORITY, rng.randrange(10)),
            Integer(mq.MQIA_DEF_PERSISTENCE, rng.randrange(2)),
            Integer(mq.MQIA_INHIBIT_PUT, 0),
            String(mq.MQCA_CREATION_DATE, time.strftime("%Y-%m-%d", created), ccsid),
            String(mq.MQCA_CREATION_TIME, time.strftime("%H.%M.%S", created), ccsid),
            String(mq.MQCA_ALTERATION_DATE, time.strftime("%Y-%m-%d", altered), ccsid),
            String(mq.MQCA_ALTERATION_TIME, time.strftime("%H.%M.%S", altered), ccsid),
        ]
        if queue.qtype == mq.MQQT_LOCAL:
            params += [
                Integer(mq.MQIA_CURRENT_Q_DEPTH, int(rng.paretovariate(1.2)) - 1),
                Integer(mq.MQIA_MAX_Q_DEPTH, 5000),
                Integer(mq.MQIA_OPEN_INPUT_COUNT, rng.randrange(4)),
                Integer(mq.MQIA_OPEN_OUTPUT_COUNT, rng.randrange(8)),
                Integer(mq.MQIA_INHIBIT_GET, 0),
                Integer(mq.MQIA_MAX_MSG_LENGTH, 4194304),
            ]
        return ok_response(command, tuple(params))

    def exchange(self) -> tuple[list[Message], str, int]:
        """A command and its responses, with the byte order and CCSID the exchange uses."""
        rng = self.rng
        order = "big" if rng.random() < 0.6 else "little"
        ccsid = self.ccsid()
        code = self.command_codes[bisect.bisect(self.command_cum, rng.random() * self.command_cum[-1])]
        queue = self.queue()
        version = 1
        params: list[Parameter] = []
        if code == mq.MQCMD_CREATE_Q:
            params = [String(mq.MQCA_Q_NAME, queue.name, ccsid), Integer(mq.MQIA_Q_TYPE, queue.qtype), *self.attributes(queue, ccsid, True)]
            if rng.random() < 0.3:
                params.append(Integer(mq.MQIACF_REPLACE, 1))
        elif code == mq.MQCMD_CHANGE_Q:
            params = [String(mq.MQCA_Q_NAME, queue.name, ccsid), Integer(mq.MQIA_Q_TYPE, queue.qtype), *self.attributes(queue, ccsid, False)]
            if rng.random() < 0.1:
                params.append(Integer(mq.MQIACF_FORCE, 1))
        elif code == mq.MQCMD_COPY_Q:
            target = self.queue()
            params = [
                String(mq.MQCACF_FROM_Q_NAME, queue.name, ccsid),
                String(mq.MQCACF_TO_Q_NAME, target.name + rng.choice((".COPY", ".V2", "")), ccsid),
                Integer(mq.MQIA_Q_TYPE, queue.qtype),
                *self.attributes(queue, ccsid, False)[:2],
            ]
        elif code == mq.MQCMD_DELETE_Q:
            params = [String(mq.MQCA_Q_NAME, queue.name, ccsid)]
            if queue.qtype == mq.MQQT_LOCAL and rng.random() < 0.4:
                params.append(Integer(mq.MQIACF_PURGE, 1))
        elif code == mq.MQCMD_CLEAR_Q or code == mq.MQCMD_RESET_Q_STATS:
            params = [String(mq.MQCA_Q_NAME, queue.name, ccsid)]
        elif code == mq.MQCMD_INQUIRE_Q:
            generic = rng.random() < 0.35
            name = (queue.app + ".*") if generic else queue.name
            params = [String(mq.MQCA_Q_NAME, name, ccsid), IntegerList(mq.MQIACF_Q_ATTRS, (mq.MQIACF_ALL,))]
            if rng.random() < 0.3:
                params.insert(1, Integer(mq.MQIA_Q_TYPE, rng.choice((mq.MQQT_LOCAL, mq.MQQT_ALL))))
            if generic and rng.random() < 0.3:
                version = 3
                if rng.random() < 0.5:
                    params.append(IntegerFilter(mq.MQIA_CURRENT_Q_DEPTH, mq.MQCFOP_GREATER, rng.choice((0, 100, 1000))))
                else:
                    params.append(StringFilter(mq.MQCA_Q_DESC, mq.MQCFOP_LIKE, "Inbound*", ccsid))
        elif code == mq.MQCMD_INQUIRE_Q_NAMES:
            params = [String(mq.MQCA_Q_NAME, rng.choice(("*", queue.app + ".*", "PROD.*")), ccsid)]
            if rng.random() < 0.5:
                params.append(Integer(mq.MQIA_Q_TYPE, rng.choice((mq.MQQT_LOCAL, mq.MQQT_ALL))))
        elif code == mq.MQCMD_INQUIRE_Q_STATUS:
            version = 2  # handle status carries MQCFBS
            params = [String(mq.MQCA_Q_NAME, queue.name, ccsid)]
            if rng.random() < 0.5:
                params.append(Integer(mq.MQIACF_Q_STATUS_TYPE, mq.MQIACF_Q_HANDLE))
        command = Message(code, tuple(params), type=mq.MQCFT_COMMAND, version=version)
        return [command, *self.responses(command, queue, ccsid)], order, ccsid

    def rich_exchange(self) -> tuple[list[Message], str, int]:
        """Messages of what captures carry besides queue administration (see the module docstring)."""
        rng = self.rng
        order = "big" if rng.random() < 0.5 else "little"
        ccsid = self.ccsid()
        kind = rng.choices([k for k, _ in RICH_KINDS], [w for _, w in RICH_KINDS])[0]
        queue = self.queue()
        qmgr = rng.choice(("QM.LONDON", "QM.FRANKFURT", "QM.NEWYORK", "QM.TOKYO"))
        self.clock += rng.randrange(1, 600)
        if kind == "event":
            if rng.random() < 0.5:
                params: list[Parameter] = [
                    String(mq.MQCA_Q_MGR_NAME, qmgr.ljust(48), ccsid),
                    String(mq.MQCA_Q_NAME, queue.name.ljust(48), ccsid),
                    Integer(mq.MQIA_TIME_SINCE_RESET, rng.randrange(86400)),
                    Integer(mq.MQIA_HIGH_Q_DEPTH, rng.randrange(4000, 5000)),
                    Integer(mq.MQIA_MSG_ENQ_COUNT, rng.randrange(10**6)),
                    Integer(mq.MQIA_MSG_DEQ_COUNT, rng.randrange(10**6)),
                ]
                event = Message(mq.MQCMD_PERFM_EVENT, tuple(params), type=mq.MQCFT_EVENT, reason=mq.MQRC_Q_DEPTH_HIGH, comp_code=mq.MQCC_WARNING)
            else:
                params = [
                    String(mq.MQCACF_EVENT_USER_ID, rng.choice(USERS).ljust(12), ccsid),
                    Integer(mq.MQIACF_EVENT_ORIGIN, rng.choice((1, 2, 3))),
                    String(mq.MQCACF_OBJECT_Q_MGR_NAME, qmgr.ljust(48), ccsid),
                    ByteString(mq.MQBACF_EVENT_ACCOUNTING_TOKEN, rng.randbytes(32)),
                    String(mq.MQCACF_EVENT_APPL_IDENTITY, "".ljust(32), ccsid),
                    Integer(mq.MQIACF_EVENT_APPL_TYPE, rng.choice((6, 11, 28))),
                    String(mq.MQCACF_EVENT_APPL_NAME, rng.choice(("runmqsc", "MQ Explorer", "ansible")).ljust(28), ccsid),
                    Integer(mq.MQIACF_OBJECT_TYPE, mq.MQOT_Q),
                    String(mq.MQCA_Q_NAME, queue.name.ljust(48), ccsid),
                    Integer(mq.MQIA_Q_TYPE, queue.qtype),
                    *self.attributes(queue, ccsid, True),
                ]
                event = Message(mq.MQCMD_CONFIG_EVENT, tuple(params), type=mq.MQCFT_EVENT, version=2, reason=mq.MQRC_CONFIG_CHANGE_OBJECT, comp_code=mq.MQCC_WARNING)
            return [event], order, ccsid
        if kind == "statistics":
            start = time.gmtime(self.clock - 1800)
            groups = []
            for q in rng.sample(self.queues, rng.randint(1, 5)):
                groups.append(
                    Group(
                        mq.MQGACF_Q_STATISTICS_DATA,
                        (
                            String(mq.MQCA_Q_NAME, q.name.ljust(48), ccsid),
                            Integer(mq.MQIA_Q_TYPE, q.qtype),
                            Integer(MQIAMO_Q_MIN_DEPTH, rng.randrange(10)),
                            Integer(MQIAMO_Q_MAX_DEPTH, rng.randrange(10, 5000)),
                            Integer64List(MQIAMO64_Q_TIME_AVG, (rng.randrange(10**9), rng.randrange(10**12))),
                            IntegerList(MQIAMO_PUTS, (rng.randrange(10**5), rng.randrange(10**5))),
                            IntegerList(MQIAMO_GETS, (rng.randrange(10**5), rng.randrange(10**5))),
                            Integer64List(MQIAMO64_BROWSE_BYTES, (rng.randrange(2**40), rng.randrange(2**40))),
                        ),
                    )
                )
            stats = Message(
                mq.MQCMD_STATISTICS_Q,
                (
                    String(mq.MQCA_Q_MGR_NAME, qmgr.ljust(48), ccsid),
                    String(MQCAMO_START_DATE, time.strftime("%Y-%m-%d", start), ccsid),
                    String(MQCAMO_START_TIME, time.strftime("%H.%M.%S", start), ccsid),
                    *groups,
                ),
                type=mq.MQCFT_STATISTICS,
                version=3,
            )
            return [stats], order, ccsid
        if kind == "channel_status":
            channel = rng.choice(CHANNELS)
            command = Message(mq.MQCMD_INQUIRE_CHANNEL_STATUS, (String(MQCACH_CHANNEL_NAME, channel, ccsid),), version=2)  # answers carry MQCFBS
            answers = []
            for _ in range(rng.randint(1, 3)):
                sender = channel.startswith("TO.")
                answers.append(
                    ok_response(
                        command,
                        (
                            String(MQCACH_CHANNEL_NAME, channel.ljust(20), ccsid),
                            Integer(MQIACH_CHANNEL_TYPE, MQCHT_SENDER if sender else MQCHT_SVRCONN),
                            Integer(MQIACH_CHANNEL_STATUS, MQCHS_RUNNING),
                            String(MQCACH_CONNECTION_NAME, f"10.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(256)}(1414)".ljust(264), ccsid),
                            String(MQCACH_XMIT_Q_NAME, ("XMITQ." + channel[3:] if sender else "").ljust(48), ccsid),
                            Integer(MQIACH_MSGS, rng.randrange(10**6)),
                            Integer64(MQIACH_BYTES_SENT, rng.randrange(2**45)),
                            Integer64(MQIACH_BYTES_RECEIVED, rng.randrange(2**40)),
                            ByteString(MQBACH_CHANNEL_ID, rng.randbytes(16)),
                        ),
                    )
                )
            return [command, *numbered(answers)], order, ccsid
        if kind == "status_by_connection":
            connection = rng.randbytes(24)
            command = Message(
                mq.MQCMD_INQUIRE_Q_STATUS,
                (
                    String(mq.MQCA_Q_NAME, queue.app + ".*", ccsid),
                    Integer(mq.MQIACF_Q_STATUS_TYPE, mq.MQIACF_Q_HANDLE),
                    ByteStringFilter(mq.MQBACF_CONNECTION_ID, mq.MQCFOP_EQUAL, connection),
                ),
                version=3,
            )
            answer = ok_response(
                command,
                (
                    String(mq.MQCA_Q_NAME, queue.name.ljust(48), ccsid),
                    Integer(mq.MQIACF_Q_STATUS_TYPE, mq.MQIACF_Q_HANDLE),
                    String(mq.MQCACF_USER_IDENTIFIER, rng.choice(USERS).ljust(12), ccsid),
                    ByteString(mq.MQBACF_CONNECTION_ID, connection),
                ),
            )
            return [command, *numbered([answer])], order, ccsid
        # z/OS: an extended command (a filter) answered by XR_ITEM messages, a message, a summary
        response_id = rng.randbytes(24)
        command_params: list[Parameter] = [String(mq.MQCA_Q_NAME, queue.app + ".*", ccsid)]
        if rng.random() < 0.5:
            command_params.append(IntegerFilter(mq.MQIA_CURRENT_Q_DEPTH, mq.MQCFOP_GREATER, rng.choice((0, 100))))
        else:
            command_params.append(StringFilter(mq.MQCA_Q_DESC, mq.MQCFOP_LIKE, "Inbound*", ccsid))
        command = Message(mq.MQCMD_INQUIRE_Q, tuple(command_params), type=mq.MQCFT_COMMAND_XR, version=3)
        tag = (ByteString(mq.MQBACF_RESPONSE_ID, response_id), String(mq.MQCACF_RESPONSE_Q_MGR_NAME, qmgr.ljust(48), ccsid))
        replies: list[Message] = []
        matches = [q for q in self.queues if q.app == queue.app]
        for q in rng.sample(matches, rng.randint(1, min(4, len(matches)))):
            attributes = Group(
                mq.MQGACF_Q_STATISTICS_DATA,
                (Integer(mq.MQIA_CURRENT_Q_DEPTH, rng.randrange(500)), Integer64(mq.MQIA_MAX_Q_DEPTH, 5000), Integer(mq.MQIA_DEF_PRIORITY, rng.randrange(10))),
            )
            replies.append(Message(mq.MQCMD_INQUIRE_Q, (*tag, String(mq.MQCA_Q_NAME, q.name.ljust(48), ccsid), Integer(mq.MQIA_Q_TYPE, q.qtype), attributes), type=mq.MQCFT_XR_ITEM, version=3))
        if rng.random() < 0.3:
            replies.append(Message(mq.MQCMD_INQUIRE_Q, (*tag, Integer(mq.MQIACF_COMMAND_INFO, mq.MQCMDI_COMMAND_ACCEPTED)), type=mq.MQCFT_XR_MSG, version=3))
        replies.append(Message(mq.MQCMD_INQUIRE_Q, tag, type=mq.MQCFT_XR_SUMMARY, version=3))
        return [command, *numbered(replies)], order, ccsid

    def responses(self, command: Message, queue: Queue, ccsid: int) -> list[Message]:
        rng = self.rng
        code = command.command
        if rng.random() < FAILURE_RATE and code in FAILURES:
            reason, parameter = rng.choice(FAILURES[code])
            return error_responses(command, reason, parameter)
        if code == mq.MQCMD_INQUIRE_Q:
            first = command.parameters[0]
            assert isinstance(first, String)
            if first.value.endswith("*"):
                matches = [q for q in self.queues if q.app == queue.app]
                chosen = rng.sample(matches, rng.randint(1, min(6, len(matches))))
            else:
                chosen = [queue]
            return numbered([self.inquire_data(command, q, ccsid) for q in chosen])
        if code == mq.MQCMD_INQUIRE_Q_NAMES:
            names = sorted(rng.sample(self.queues, rng.randint(1, 12)), key=lambda q: q.name)
            data = (
                StringList(mq.MQCACF_Q_NAMES, tuple(q.name.ljust(48) for q in names), ccsid),
                IntegerList(mq.MQIACF_Q_TYPES, tuple(q.qtype for q in names)),
            )
            return numbered([ok_response(command, data)])
        if code == mq.MQCMD_INQUIRE_Q_STATUS:
            if command.get(mq.MQIACF_Q_STATUS_TYPE) is None:
                data: tuple[Parameter, ...] = (
                    String(mq.MQCA_Q_NAME, queue.name.ljust(48), ccsid),
                    Integer(mq.MQIACF_Q_STATUS_TYPE, mq.MQIACF_Q_STATUS),
                    Integer(mq.MQIA_CURRENT_Q_DEPTH, rng.randrange(500)),
                    Integer(mq.MQIA_OPEN_INPUT_COUNT, rng.randrange(4)),
                    Integer(mq.MQIA_OPEN_OUTPUT_COUNT, rng.randrange(8)),
                    Integer(mq.MQIACF_UNCOMMITTED_MSGS, rng.randrange(3)),
                    IntegerList(mq.MQIACF_Q_TIME_INDICATOR, (rng.randrange(10**6), rng.randrange(10**6))),
                    String(mq.MQCACF_LAST_PUT_DATE, "2026-11-21", ccsid),
                    String(mq.MQCACF_LAST_PUT_TIME, "12.34.56", ccsid),
                )
                return numbered([ok_response(command, data)])
            handles = []
            for _ in range(rng.randint(1, 3)):
                handles.append(
                    ok_response(
                        command,
                        (
                            String(mq.MQCA_Q_NAME, queue.name.ljust(48), ccsid),
                            Integer(mq.MQIACF_Q_STATUS_TYPE, mq.MQIACF_Q_HANDLE),
                            String(mq.MQCACF_APPL_TAG, rng.choice(("amqsget", "OrderService", "java")).ljust(28), ccsid),
                            String(mq.MQCACF_USER_IDENTIFIER, rng.choice(USERS).ljust(12), ccsid),
                            Integer(mq.MQIACF_PROCESS_ID, rng.randrange(1, 65535)),
                            Integer(mq.MQIACF_OPEN_OPTIONS, rng.choice((8196, 8208, 8194))),
                            ByteString(mq.MQBACF_CONNECTION_ID, rng.randbytes(24)),
                        ),
                    )
                )
            return numbered(handles)
        if code == mq.MQCMD_RESET_Q_STATS:
            data = (
                String(mq.MQCA_Q_NAME, queue.name.ljust(48), ccsid),
                Integer(mq.MQIA_HIGH_Q_DEPTH, rng.randrange(5000)),
                Integer(mq.MQIA_MSG_ENQ_COUNT, rng.randrange(10**6)),
                Integer(mq.MQIA_MSG_DEQ_COUNT, rng.randrange(10**6)),
                Integer(mq.MQIA_TIME_SINCE_RESET, rng.randrange(86400)),
            )
            return numbered([ok_response(command, data)])
        return numbered([ok_response(command)])


def _put(order: str, data: bytearray, at: int, value: int) -> None:
    struct.pack_into(">l" if order == "big" else "<l", data, at, value)


def corrupt(rng: random.Random, raw: bytes, order: str, kind: str) -> bytes:
    """The message damaged in the way ``kind`` names."""
    data = bytearray(raw)
    if kind == "length" and len(data) > 44:
        _put(order, data, 40, rng.choice((3, 7, 10, 2**20 + 2)))  # first parameter's StrucLength
    elif kind == "header":
        _put(order, data, 4, rng.choice((0, 35, 37, 360)))  # MQCFH StrucLength
    elif kind == "truncate":
        return bytes(data[: rng.randrange(1, len(data))])
    elif kind == "garbage":
        return rng.randbytes(rng.randrange(1, 64)) + bytes(data)
    elif kind == "count":
        _put(order, data, 32, rng.choice((-1, 1_000_000_000)))  # MQCFH ParameterCount
    elif kind == "ccsid" and len(data) > 48:
        t = struct.unpack_from(">l" if order == "big" else "<l", data, 36)[0]
        if t == mq.MQCFT_STRING:
            _put(order, data, 48, 4242)  # a CCSID no codec converts: decodes, with a warning
        else:
            _put(order, data, 40, 17)
    else:
        _put(order, data, 4, 0)
    return bytes(data)


def generate_file(path: str, messages: int, corrupt_rate: float, seed: int, rich_rate: float = 0.0) -> dict[str, object]:
    """Writes one capture of exactly ``messages`` messages, about ``rich_rate`` of them rich
    (see the module docstring); returns what was written."""
    gen = Generator(seed)
    rng = random.Random(seed ^ 0x5EED)
    kinds: Counter[str] = Counter()
    written = rich = 0
    chunks: list[bytes] = []
    size = 0
    with open(path, "wb") as out:
        while written < messages:
            # rich exchanges at random, more often while behind the asked fraction (their sizes vary)
            behind = rich < rich_rate * written
            chosen = rich_rate > 0 and rng.random() < (min(1.0, 2 * rich_rate) if behind else rich_rate / 2)
            exchange, order, _ = gen.rich_exchange() if chosen else gen.exchange()
            for message in exchange[: messages - written]:
                raw = encode(message, byte_order=order)
                if corrupt_rate and rng.random() < corrupt_rate:
                    kind = rng.choice(CORRUPTIONS)
                    kinds[kind] += 1
                    raw = corrupt(rng, raw, order, kind)
                chunks.append(raw)
                size += len(raw)
                written += 1
                rich += chosen
            if len(chunks) > 4096:
                out.write(b"".join(chunks))
                chunks.clear()
        out.write(b"".join(chunks))
    return {"file": os.path.basename(path), "messages": written, "rich": rich, "bytes": size, "corrupted": dict(sorted(kinds.items()))}


def split(total: int, parts: int) -> list[int]:
    base, extra = divmod(total, parts)
    return [base + (1 if i < extra else 0) for i in range(parts)]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=int, default=4, help="number of capture files (default 4)")
    parser.add_argument("--messages", type=int, default=10_000, help="messages over all files (default 10000)")
    parser.add_argument("--corrupt-rate", type=float, default=0.0, help="fraction of messages damaged (default 0)")
    parser.add_argument("--rich-rate", type=float, default=0.1, help="fraction of event, statistics, channel status and z/OS messages (default 0.1)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--out", default="captures", help="output folder (default ./captures)")
    parser.add_argument("--prefix", default="capture", help="file name prefix (default capture)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes (default: one per core)")
    args = parser.parse_args(argv)
    if args.files < 1 or args.messages < 0 or not 0 <= args.corrupt_rate <= 1 or not 0 <= args.rich_rate <= 1:
        parser.error("--files must be at least 1, --messages at least 0, --corrupt-rate and --rich-rate within 0..1")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    counts = split(args.messages, args.files)
    jobs = [
        (str(out / f"{args.prefix}-{i:04d}.pcf"), n, args.corrupt_rate, args.seed * 1_000_003 + i, args.rich_rate)
        for i, n in enumerate(counts)
    ]
    started = time.perf_counter()
    if args.jobs > 1 and len(jobs) > 1:
        with ProcessPoolExecutor(min(args.jobs, len(jobs))) as pool:
            results = list(pool.map(generate_file, *zip(*jobs, strict=True)))
    else:
        results = [generate_file(*job) for job in jobs]
    manifest = {
        "seed": args.seed,
        "corrupt_rate": args.corrupt_rate,
        "rich_rate": args.rich_rate,
        "messages": sum(int(str(r["messages"])) for r in results),
        "rich": sum(int(str(r["rich"])) for r in results),
        "bytes": sum(int(str(r["bytes"])) for r in results),
        "files": results,
    }
    (out / "_manifest.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    elapsed = time.perf_counter() - started
    print(f"wrote {manifest['messages']} messages, {manifest['bytes']} bytes in {len(results)} files to {out} ({elapsed:.1f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
