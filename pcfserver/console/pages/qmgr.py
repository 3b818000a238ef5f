"""The queue manager's own properties: every attribute ALTER QMGR sets, as a form built from
formats/qmgr-attributes.tsv, previewed as MQSC and run as runmqsc runs it (IBM's console has the same view)."""

from __future__ import annotations

from pcfserver.console import forms
from pcfserver.console.commands import Ran, field_errors, run_mqsc
from pcfserver.console.web import ConsoleContext, PageRequest, page, route
from pcfserver.rest.http import Response


def _page(ctx: ConsoleContext, request: PageRequest | None, status: int = 200, *, command: str = "", ran: Ran | None = None,
          errors: dict[str, str] | None = None) -> Response:
    form = forms.qmgr_form(ctx.engine.qmgr_attrs(), ctx.engine.qmgr_name)
    if request is not None:
        form = form.with_values(request.form)
    return page(ctx, "qmgr.html", status, title=f"Queue manager {ctx.engine.qmgr_name}", request_path="/qmgr", form=form,
                command=command, ran=ran, errors=errors or {})


@route("GET", r"/qmgr")
def qmgr_properties(ctx: ConsoleContext, request: PageRequest) -> Response:
    return _page(ctx, None)


@route("POST", r"/qmgr")
def alter_qmgr(ctx: ConsoleContext, request: PageRequest) -> Response:
    """ALTER QMGR with the fields that differ from the current values: previewed, or run."""
    built = forms.alter_command(forms.qmgr_form(ctx.engine.qmgr_attrs(), ctx.engine.qmgr_name), "", request.form, ccsid=ctx.engine.ccsid)
    if not built.ok:
        return _page(ctx, request, 422, errors=built.errors)
    if request.field("action") != "run" or forms.stale(request.form, built):
        return _page(ctx, request, command=built.command, errors={"": forms.STALE} if request.field("action") == "run" else None)
    ran = run_mqsc(ctx, built.command)
    if not ran.ok:
        return _page(ctx, request, 422, command=built.command, ran=ran, errors=field_errors(ran))
    return _page(ctx, None, command=built.command, ran=ran)
