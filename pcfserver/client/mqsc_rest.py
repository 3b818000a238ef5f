"""MQSC over IBM's administrative REST API: each command goes to runCommand, its answer's lines back.

``pcfserver console --rest URL`` runs scripts with this in place of the PCF port, for an
administrator who is given only an HTTPS address.  The server runs the text through the same MQSC
front end the console runs over PCF, so the lines it answers are the ones the console would
print; the script's frame (banner, numbered echo, summary, exit status) is the console's own
:class:`~pcfserver.dialects.ScriptRunner`.  How each runCommand answer counts:

* ``END`` is the script's end, as runmqsc reads it: it is never sent;
* every item's completionCode 0 or 1: the command ran (``ok``);
* an item with completionCode 2: ``syntax`` when its first line is AMQ8405I (the server could not
  read the command), else ``failed``;
* an answer that is not 200 (or no answer): the queue manager cannot be reached (ExecuteError:
  AMQ8146E and exit status 20, with the reason on standard error).

The REST paths are v2's (mqweb 9.1.5 and later; this server answers v1 to v3).
"""

from __future__ import annotations

import json
from urllib.parse import quote

from pcfserver import mq
from pcfserver.client.rest_session import RestFailure, Session, failure
from pcfserver.dialects import CommandSyntaxError, mqsc
from pcfserver.dialects.outcome import END, FAILED, OK, SYNTAX, Block, Context, Execute, ExecuteError, Outcome
from pcfserver.dialects.tables import line

BASE = "/ibmmq/rest/v2/admin"


def _is_end(text: str) -> bool:
    try:
        return mqsc.parse(text).message is None
    except CommandSyntaxError:
        return False


class RestMqsc:
    """One queue manager's runCommand, as a ScriptRunner ``runner``."""

    def __init__(self, session: Session, qmgr: str | None = None) -> None:
        self.session = session
        self.qmgr = qmgr
        self.error = ""

    def _get_json(self, path: str) -> object:
        try:
            reply = self.session.request("GET", path, headers={"Accept": "application/json"})
        except RestFailure as exc:
            raise ExecuteError(str(exc)) from None
        if reply.status != 200:
            raise ExecuteError(str(failure(reply)))
        try:
            return reply.json()
        except ValueError:
            raise ExecuteError(f"{self.session.where} answered {path} with something that is not JSON") from None

    def queue_manager(self) -> str:
        """The queue manager's name (--qmgr, or the only one the server has); ExecuteError when it
        cannot be reached, the credentials are refused, or it is not running."""
        try:
            return self._queue_manager()
        except ExecuteError as exc:
            self.error = str(exc)
            raise

    def _queue_manager(self) -> str:
        path = f"{BASE}/qmgr" + (f"/{quote(self.qmgr, safe='')}" if self.qmgr else "")
        body = self._get_json(path)
        found = body.get("qmgr") if isinstance(body, dict) else None
        if not isinstance(found, list) or not found or not all(isinstance(q, dict) for q in found):
            raise ExecuteError(f"{self.session.where} names no queue manager at {path}")
        if len(found) > 1:
            listed = ", ".join(str(q.get("name")) for q in found)
            raise ExecuteError(f"{self.session.where} has several queue managers ({listed}): name one with --qmgr")
        name, state = str(found[0].get("name", "")), str(found[0].get("state", "running"))
        if state.lower() != "running":
            raise ExecuteError(f"queue manager {name} at {self.session.where} is {state}, not running")
        self.qmgr = name
        return name

    def __call__(self, text: str, execute: Execute, context: Context) -> Outcome:
        """Runs one MQSC command on the server (``execute`` is not used: the server executes)."""
        try:
            return self._run(text)
        except ExecuteError as exc:
            self.error = str(exc)
            raise

    def _run(self, text: str) -> Outcome:
        if _is_end(text):
            return Outcome(END)
        if self.qmgr is None:
            self._queue_manager()
        assert self.qmgr is not None
        path = f"{BASE}/action/qmgr/{quote(self.qmgr, safe='')}/mqsc"
        body = json.dumps({"type": "runCommand", "parameters": {"command": text}}).encode()
        try:
            reply = self.session.request("POST", path, headers={"Content-Type": "application/json", "Accept": "application/json"}, body=body)
        except RestFailure as exc:
            raise ExecuteError(str(exc)) from None
        if reply.status != 200:
            raise ExecuteError(str(failure(reply)))
        try:
            answer = reply.json()
            items = answer["commandResponse"] if isinstance(answer, dict) else None
            if not isinstance(items, list):
                raise TypeError
            blocks = tuple(
                Block(
                    tuple(line for t in item.get("text", []) for line in mqsc.display_lines(str(t))),
                    0, int(item.get("completionCode", 0)), int(item.get("reasonCode", 0)),
                )
                for item in items
            )
        except (ValueError, KeyError, TypeError, AttributeError):
            raise ExecuteError(f"{self.session.where} answered runCommand with something that is not IBM's commandResponse") from None
        failed = [b for b in blocks if b.comp_code == mq.MQCC_FAILED]
        if not failed:
            return Outcome(OK, blocks)
        syntax = failed[0].lines[:1] == (line("mqsc", "syntax"),)
        return Outcome(SYNTAX if syntax else FAILED, blocks)
