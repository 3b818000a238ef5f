"""Security: the authority records (filtered by profile, entity and object type, paged by the server), the channel
authentication rules as Allow / Block / Warn, the Advanced Message Security policies, "why was this refused?"
(``console.explain``), and REFRESH SECURITY.

The records are read from the engine inside the page's operation, as DISPLAY AUTHREC and DISPLAY CHLAUTH would
show them, and only to a viewer whose identity may run those displays (display authority on the queue manager).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from pcfserver import mq
from pcfserver.codec import StringList
from pcfserver.console import explain
from pcfserver.console.commands import Ran, run_mqsc
from pcfserver.console.pages.kinds import shown
from pcfserver.console.web import ConsoleContext, PageRequest, name_matches, page, route
from pcfserver.dialects.keywords import word_for
from pcfserver.dialects.tables import object_attributes
from pcfserver.engine import chlauth
from pcfserver.engine.authority import Identity, command_allowed, object_authorities
from pcfserver.rest.http import Response

PAGE_SIZE = 50
ENTITY_TYPES = {"PRINCIPAL": mq.MQZAET_PRINCIPAL, "GROUP": mq.MQZAET_GROUP}


@dataclass(frozen=True, slots=True)
class AuthRow:
    profile: str
    object_type: str
    entity_type: str
    entity: str
    auths: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RecordQuery:
    profile: str = ""
    entity: str = ""
    objtype: str = ""
    page: int = 1

    @classmethod
    def of(cls, request: PageRequest) -> RecordQuery:
        wanted = request.arg("objtype").upper()
        number = request.arg("page")
        return cls(
            profile=request.arg("profile").strip()[:48],
            entity=request.arg("entity").strip()[:1024],
            objtype=wanted if wanted in explain.object_types() else "",
            page=max(1, int(number)) if number.isdigit() else 1,
        )

    def matches(self, profile: str, object_type: int, entity: str) -> bool:
        if self.objtype and explain.object_types()[self.objtype] != object_type:
            return False
        if self.entity and self.entity.lower() not in entity.lower():
            return False
        return name_matches(self.profile, profile)


def _may_display(ctx: ConsoleContext, command: int) -> bool:
    return command_allowed(ctx.engine.authority, ctx.identity, command, {}, ctx.engine.qmgr_name)


def authority_rows(ctx: ConsoleContext, query: RecordQuery) -> tuple[list[AuthRow], int]:
    records = ctx.engine.authority.records
    chosen = sorted(key for key in records if query.matches(key[0], key[1], key[3]))
    start = (query.page - 1) * PAGE_SIZE
    rows = [
        AuthRow(profile, explain.object_word(otype), "GROUP" if etype == mq.MQZAET_GROUP else "PRINCIPAL", who,
                explain.auth_words(records[(profile, otype, etype, who)]))
        for profile, otype, etype, who in chosen[start:start + PAGE_SIZE]
    ]
    return rows, len(chosen)


@dataclass(frozen=True, slots=True)
class Rule:
    profile: str
    type: str
    verdict: str  # Allow, Block or Warn
    details: tuple[tuple[str, str], ...]


_RULE_SKIP = frozenset(("CHLAUTH", "TYPE", "ACTION", "MATCH", "ALTDATE", "ALTTIME", "CUSTOM", "WARN"))


def _verdict(record: chlauth.Record) -> str:
    if record.number(mq.MQIACH_WARNING) == mq.MQWARN_YES:
        return "Warn"
    if record.type in (chlauth.BLOCKUSER, chlauth.BLOCKADDR) or record.number(mq.MQIACH_USER_SOURCE) == mq.MQUSRC_NOACCESS:
        return "Block"
    return "Allow"


def chlauth_rules(ctx: ConsoleContext) -> list[Rule]:
    attrs = [a for a in object_attributes("chlauth") if a.keyword("mqsc") and a.keyword("mqsc") not in _RULE_SKIP]
    out = []
    for record in ctx.engine.chlauth.ordered():
        details = tuple(
            (a.keyword("mqsc"), shown(a.parameter, record.attrs[a.parameter])) for a in attrs if a.parameter in record.attrs
        )
        out.append(Rule(record.profile, str(word_for(mq.MQIACF_CHLAUTH_TYPE, record.type) or record.type), _verdict(record), details))
    return out


@dataclass(frozen=True, slots=True)
class PolicyTable:
    """The security policies as DISPLAY POLICY(*) shows them: a column per keyword of policy-attributes.tsv."""

    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


def policy_table(ctx: ConsoleContext) -> PolicyTable:
    attrs = [a for a in object_attributes("policy") if a.access != "command" or a.parameter == mq.MQCA_POLICY_NAME]
    rows = []
    for name in sorted(ctx.engine.policies):
        values = {p.parameter: p.values if isinstance(p, StringList) else getattr(p, "value", None)
                  for p in ctx.engine.policies[name].parameters(ctx.engine.ccsid)}
        rows.append(tuple(shown(a.parameter, values.get(a.parameter)) for a in attrs))
    return PolicyTable(tuple(a.keyword("mqsc") for a in attrs), tuple(rows))


@dataclass(frozen=True, slots=True)
class Question:
    user: str = ""
    groups: str = ""
    objtype: str = "QUEUE"
    name: str = ""
    operation: str = ""

    @classmethod
    def of(cls, request: PageRequest) -> Question:
        objtype = request.arg("why_objtype", "QUEUE").upper()
        return cls(
            user=request.arg("why_user").strip()[:1024],
            groups=request.arg("why_groups").strip()[:4096],
            objtype=objtype if objtype in explain.object_types() else "QUEUE",
            name=request.arg("why_name").strip()[:48],
            operation=request.arg("why_op").strip().upper(),
        )

    @property
    def asked(self) -> bool:
        return bool(self.user and self.operation)

    @property
    def shown_operation(self) -> str:
        """The operation the form shows: the one asked, else the usual one for the object type (PUT on a queue)."""
        return self.operation or explain.usual_operations().get(self.objtype, "")


@dataclass(frozen=True, slots=True)
class Answer:
    explanation: explain.Explanation | None
    groups: tuple[str, ...]
    looked_up: bool  # the groups came from the users store
    problem: str
    role_note: str = ""  # when the user's REST role, not these records, decides in the REST API and the console


def role_note(ctx: ConsoleContext, user: str) -> str:
    """What decides for ``user`` in the REST API and the console, where that is not (only) the authority records."""
    roles = ctx.user_roles(user)
    if roles is None:
        if ctx.user_groups(user) is None and ctx.viewer.authenticated:
            return (f"No user {user} is known to this server's REST API and console (pcfserver user list): these records decide "
                    "for a connection that names this user (a PCF client, a channel's MCAUSER), not for a sign-in.")
        return ""
    if "MQWebAdmin" in roles:
        return (f"{user} has the MQWebAdmin role: in the REST API and the console it works under the server's own authority, so "
                "these records do not decide there (they do for its other connections).")
    if "MQWebAdminRO" in roles and "MQWebUser" not in roles:
        return (f"{user} has the MQWebAdminRO role: in the REST API and the console it may display anything and change nothing, "
                "whatever these records say.")
    return ""


def answer(ctx: ConsoleContext, question: Question) -> Answer:
    if not question.asked:
        return Answer(None, (), False, "")
    object_type = explain.object_types()[question.objtype]
    auth = explain.parse_auth(question.operation)
    if auth is None or question.operation not in explain.operations(object_type):
        return Answer(None, (), False, f"{question.operation} is not an authority of OBJTYPE({question.objtype}).")
    name = ctx.engine.qmgr_name if object_type == mq.MQOT_Q_MGR else question.name
    if not name:
        return Answer(None, (), False, "Name the object.")
    groups = tuple(g for g in (part.strip() for part in question.groups.replace(",", " ").split()) if g)
    looked_up = False
    if not groups:
        known = ctx.user_groups(question.user)
        if known:
            groups, looked_up = known, True
    identity = Identity(question.user, groups)
    return Answer(explain.explain(ctx.engine.authority, identity, object_type, name, auth), groups, looked_up, "", role_note(ctx, question.user))


@cache
def _operation_types() -> dict[str, str]:
    """Each operation word with the object types it applies to (the "Why was this refused?" form offers a type's own)."""
    out: dict[str, list[str]] = {}
    for word, object_type in explain.object_types().items():
        for operation in explain.operations(object_type):
            out.setdefault(operation, []).append(word)
    return {operation: " ".join(words) for operation, words in out.items()}


def _page(ctx: ConsoleContext, request: PageRequest, status: int = 200, ran: Ran | None = None) -> Response:
    query = RecordQuery.of(request)
    may_records = _may_display(ctx, mq.MQCMD_INQUIRE_AUTH_RECS)
    rows, total = authority_rows(ctx, query) if may_records else ([], 0)
    may_rules = _may_display(ctx, mq.MQCMD_INQUIRE_CHLAUTH_RECS)
    may_policies = _may_display(ctx, mq.MQCMD_INQUIRE_PROT_POLICY)
    question = Question.of(request)
    told = answer(ctx, question) if may_records else Answer(None, (), False, "")
    qmgr = ctx.engine.qmgr_attrs()
    return page(
        ctx, "security.html", status, title="Security", query=query, rows=rows, total=total, pages=max(1, -(-total // PAGE_SIZE)),
        may_records=may_records, may_rules=may_rules, rules=chlauth_rules(ctx) if may_rules else [],
        may_policies=may_policies, policies=policy_table(ctx) if may_policies else None,
        chlauth_enabled=qmgr.get(mq.MQIA_CHLAUTH_RECORDS) != mq.MQCHLA_DISABLED, question=question, told=told,
        object_types=sorted(explain.object_types()), all_operations=explain.auth_words(frozenset().union(*object_authorities().values())),
        usual_operations=explain.usual_operations(), auth_word=explain.auth_word, ran=ran, request_path="/security",
        operation_types=_operation_types(),
    )


@route("GET", r"/security")
def security(ctx: ConsoleContext, request: PageRequest) -> Response:
    return _page(ctx, request)


@route("POST", r"/security/refresh")
def refresh(ctx: ConsoleContext, request: PageRequest) -> Response:
    ran = run_mqsc(ctx, "REFRESH SECURITY")
    return _page(ctx, request, 200 if ran.ok else 422, ran)
