"""The queue list: paged, filtered and sorted by the server, so that 10,000 queues cost one page of rows."""

from __future__ import annotations

from dataclasses import dataclass

from pcfserver import mq
from pcfserver.console.web import PAGE_SIZES, ConsoleContext, ListQuery, PageRequest, page, route
from pcfserver.engine.authority import operation_allowed
from pcfserver.rest.http import Response

TYPE_WORDS = {mq.MQQT_LOCAL: "QLOCAL", mq.MQQT_MODEL: "QMODEL", mq.MQQT_ALIAS: "QALIAS", mq.MQQT_REMOTE: "QREMOTE"}
SORTS = ("name", "type", "depth", "full", "age")


@dataclass(frozen=True, slots=True)
class QueueRow:
    name: str
    type: str
    depth: int
    max_depth: int
    open_input: int
    open_output: int
    put_inhibited: bool
    get_inhibited: bool
    oldest_age: int
    description: str

    @property
    def full(self) -> float:
        """Depth against MAXDEPTH, 0..100."""
        return 0.0 if self.max_depth <= 0 else min(100.0, 100.0 * self.depth / self.max_depth)


def queue_rows(ctx: ConsoleContext, query: ListQuery) -> tuple[list[QueueRow], int, int]:
    """One page of rows, the number of queues that match and of SYSTEM queues left out; only the page's rows are
    fully built."""
    engine = ctx.engine
    layer = engine.messaging
    identity = ctx.identity
    records = engine.authority
    wanted = query.type
    chosen = []
    hidden = 0
    for name in engine.queue_names():
        left_out = query.hides(name)
        if not left_out and not query.matches(name):
            continue
        queue = engine.queue(name)
        if queue is None:
            continue
        if wanted and TYPE_WORDS.get(queue.qtype) != wanted:
            continue
        if identity is not None and not operation_allowed(records, identity, mq.MQOT_Q, name, mq.MQAUTH_DISPLAY):
            continue
        if left_out:
            hidden += 1
            continue
        chosen.append(queue)
    key = query.sort

    def depth(queue: object) -> int:
        return layer.status(queue.name)[0]  # type: ignore[attr-defined]

    if key == "depth":
        chosen.sort(key=lambda q: (depth(q), q.name), reverse=query.descending)
    elif key == "full":
        chosen.sort(key=lambda q: (depth(q) / max(1, _int(q.attrs.get(mq.MQIA_MAX_Q_DEPTH))), q.name), reverse=query.descending)
    elif key == "type":
        chosen.sort(key=lambda q: (TYPE_WORDS.get(q.qtype, ""), q.name), reverse=query.descending)
    elif key == "age":
        chosen.sort(key=lambda q: (layer.oldest_age(q.name), q.name), reverse=query.descending)
    elif query.descending:
        chosen.reverse()  # queue_names() is already in name order
    start = (query.page - 1) * query.size
    rows = []
    for queue in chosen[start:start + query.size]:
        current, opened_in, opened_out = layer.status(queue.name)
        attrs = queue.attrs
        rows.append(QueueRow(
            queue.name,
            TYPE_WORDS.get(queue.qtype, str(queue.qtype)),
            current,
            _int(attrs.get(mq.MQIA_MAX_Q_DEPTH)),
            opened_in,
            opened_out,
            attrs.get(mq.MQIA_INHIBIT_PUT) == mq.MQQA_PUT_INHIBITED,
            attrs.get(mq.MQIA_INHIBIT_GET) == mq.MQQA_GET_INHIBITED,
            layer.oldest_age(queue.name) if queue.qtype == mq.MQQT_LOCAL and current else 0,
            str(attrs.get(mq.MQCA_Q_DESC, "") or "").strip(),
        ))
    return rows, len(chosen), hidden


def _int(value: object) -> int:
    return value if isinstance(value, int) else 0


@route("GET", r"/queues")
def queues(ctx: ConsoleContext, request: PageRequest) -> Response:
    query = ListQuery.of(request, types=TYPE_WORDS.values(), sorts=SORTS)
    rows, total, hidden = queue_rows(ctx, query)
    asked = query
    query, pages = query.within(total)
    if query is not asked:
        rows, total, hidden = queue_rows(ctx, query)
    template = "queue_rows.html" if request.hx else "queues.html"
    return page(ctx, template, title="Queues", request_path="/queues", query=query, rows=rows, total=total, hidden=hidden, pages=pages, types=sorted(TYPE_WORDS.values()),
                sizes=PAGE_SIZES, sorts=SORTS)
