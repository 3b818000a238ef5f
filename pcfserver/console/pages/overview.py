"""The overview: the queue manager's status, its objects counted, message rates and total depth over the last hour
(charts drawn by static/overview.js from ``/overview/series``, with a table of the latest values beside them), the
queues fullest against their MAXDEPTH and the latest refused commands."""

from __future__ import annotations

import json
from dataclasses import dataclass

from pcfserver import kinds, mq
from pcfserver.codec.model import Message
from pcfserver.console.secrets import mask_text
from pcfserver.console.web import NAV, SECURITY_HEADERS, ConsoleContext, PageRequest, page, route, stamp
from pcfserver.dialects import mqsc
from pcfserver.engine.audit import Refusal
from pcfserver.names import reason_name
from pcfserver.rest.http import Response

TYPE_WORDS = {mq.MQQT_LOCAL: "Local", mq.MQQT_MODEL: "Model", mq.MQQT_ALIAS: "Alias", mq.MQQT_REMOTE: "Remote", mq.MQQT_CLUSTER: "Cluster"}
DEEPEST = 10


@dataclass(frozen=True, slots=True)
class Deep:
    name: str
    depth: int
    max_depth: int

    @property
    def full(self) -> float:
        return 0.0 if self.max_depth <= 0 else min(100.0, 100.0 * self.depth / self.max_depth)


@dataclass(frozen=True, slots=True)
class Refused:
    at: str
    user: str
    via: str
    command: str
    reason: str


def _command_text(command: Message | str) -> str:
    if isinstance(command, str):
        return command
    try:
        return mqsc.render_command(command)
    except Exception:  # a PCF command with no MQSC form, or one too broken to have one
        return f"PCF command {command.command}"


def refused_rows(refusals: list[Refusal]) -> list[Refused]:
    return [
        Refused(stamp(r.at), r.user, r.via, mask_text(_command_text(r.command)), f"{r.reason} {reason_name(r.reason) or ''}".strip())
        for r in reversed(refusals)
    ]


def deepest(ctx: ConsoleContext, count: int = DEEPEST) -> list[Deep]:
    """The ``count`` local queues with the most messages against their MAXDEPTH (empty ones never)."""
    engine = ctx.engine
    found = []
    for name, state in engine.messaging.queues.items():
        if state.depth <= 0:
            continue
        queue = engine.queue(name)
        if queue is None:
            continue
        max_depth = queue.attrs.get(mq.MQIA_MAX_Q_DEPTH)
        found.append(Deep(name, state.depth, max_depth if isinstance(max_depth, int) else 0))
    found.sort(key=lambda d: (-d.full, -d.depth, d.name))
    return found[:count]


def counts(ctx: ConsoleContext) -> list[tuple[str, int]]:
    engine = ctx.engine
    by_type: dict[int, int] = {}
    for queue in engine.queues.by_name.values():
        by_type[queue.qtype] = by_type.get(queue.qtype, 0) + 1
    out = [(f"{word} queues", by_type.get(qtype, 0)) for qtype, word in TYPE_WORDS.items() if qtype in by_type or qtype != mq.MQQT_CLUSTER]
    labels = dict(NAV)
    for kind in kinds.kinds():
        out.append((labels.get(f"/objects/{kind.key}", kind.noun), len(engine.objects.by_type.get(kind.object_type, {}))))
    out.append(("Authority records", len(engine.authority.records)))
    out.append(("Channel authentication records", len(engine.chlauth.by_ident)))
    out.append(("Security policies", len(engine.policies)))
    return out


def status(ctx: ConsoleContext) -> list[tuple[str, str]]:
    engine = ctx.engine
    attrs = engine.qmgr_attrs()
    level = attrs.get(mq.MQIA_COMMAND_LEVEL, "")
    return [
        ("Name", engine.qmgr_name),
        ("Status", "Running"),
        ("Started", stamp(engine.monitor.started)),
        ("Version", str(attrs.get(mq.MQCA_VERSION, ""))),
        ("Command level", str(level)),
        ("CCSID", str(engine.ccsid)),
        ("Dead-letter queue (DEADQ)", str(attrs.get(mq.MQCA_DEAD_LETTER_Q_NAME, "") or "none")),
        ("Description", str(attrs.get(mq.MQCA_Q_MGR_DESC, "") or "")),
    ]


@route("GET", r"/overview")
def overview(ctx: ConsoleContext, request: PageRequest) -> Response:
    sampler = ctx.engine.monitor
    latest = sampler.samples[-1] if sampler.samples else None
    return page(
        ctx, "overview.html", title="Overview", request_path="/overview", qmgr_status=status(ctx), counts=counts(ctx), deepest=deepest(ctx),
        refused=refused_rows(list(ctx.engine.audit.refused)), latest=latest, samples=len(sampler.samples), interval=sampler.interval,
        total_depth=ctx.engine.messaging.total_depth(), puts=ctx.engine.messaging.put_count, gets=ctx.engine.messaging.get_count,
        latest_at=stamp(latest.at) if latest else "",
    )


@route("GET", r"/overview/series")
def series(ctx: ConsoleContext, request: PageRequest) -> Response:
    body = ctx.engine.monitor.series()
    body["depth_now"] = ctx.engine.messaging.total_depth()
    return Response(200, (("Content-Type", "application/json"), ("Cache-Control", "no-store"), *SECURITY_HEADERS), json.dumps(body).encode())
