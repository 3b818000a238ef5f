"""Rules of one kind's own, beyond what its attribute table says (formats/<kind>-attributes.tsv).

Rules of a shape every kind may have (a parameter required for some subtypes, two that exclude each other, a
reserved one that stays blank) are rows of ``formats/kind-rules.tsv``, checked by :func:`check_table_rules`.  The
rest live in a module per kind holding a function ``check(engine, name, attrs, old)`` that raises
:class:`pcfserver.engine.responses.Reject` with IBM's reason; ``RULES`` maps the kind (formats/kinds.tsv) to it.
Create, Copy and Change call both with the attributes the object would have (``old`` is the object being replaced
or changed, None for a new one), before anything changes.  A kind with no rules of its own has no module.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from pcfserver.engine.context import EngineView
from pcfserver.engine.kinds.hooks import Hooks
from pcfserver.engine.registry import NamedObject
from pcfserver.engine.responses import Reject
from pcfserver.engine.store import ObjValue
from pcfserver.tables import read_table, value_of

Rule = Callable[[EngineView, str, dict[int, ObjValue], NamedObject | None], None]

RULES: dict[str, Rule] = {}


@dataclass(frozen=True, slots=True)
class TableRule:
    """A row of formats/kind-rules.tsv."""

    rule: str  # required, exclusive or blank
    subtypes: frozenset[int]  # empty = every subtype
    parameters: tuple[int, ...]
    reason: int
    spared: str  # a name prefix the rule does not apply to ("" = none)


@cache
def table_rules() -> dict[str, tuple[TableRule, ...]]:
    out: dict[str, list[TableRule]] = {}
    for row in read_table("kind-rules.tsv"):
        if row["rule"] not in ("required", "exclusive", "blank"):
            raise ValueError(f"kind-rules.tsv: unknown rule {row['rule']!r}")
        out.setdefault(row["kind"], []).append(
            TableRule(
                row["rule"],
                frozenset(value_of(w) for w in row["subtypes"].split()),
                tuple(value_of(w) for w in row["parameters"].split()),
                value_of(row["reason"]),
                row["except"],
            )
        )
    return {kind: tuple(rules) for kind, rules in out.items()}


def _filled(attrs: dict[int, ObjValue], pid: int) -> bool:
    value = attrs.get(pid, "")
    return bool(value.strip()) if isinstance(value, str) else value is not None


def check_table_rules(kind: str, subtype_parameter: int, name: str, attrs: dict[int, ObjValue]) -> None:
    """The kind's rows of formats/kind-rules.tsv, in order, on the object Create/Copy/Change would leave."""
    subtype = attrs.get(subtype_parameter, 0) if subtype_parameter else 0
    for rule in table_rules().get(kind, ()):
        if rule.spared and name.startswith(rule.spared):
            continue
        if rule.subtypes and subtype not in rule.subtypes:
            continue
        filled = [pid for pid in rule.parameters if _filled(attrs, pid)]
        if rule.rule == "required":
            missing = [pid for pid in rule.parameters if pid not in filled]
            if missing:
                raise Reject(rule.reason, missing[0])
        elif rule.rule == "exclusive" and len(filled) > 1:
            raise Reject(rule.reason, filled[-1])
        elif rule.rule == "blank" and filled:
            raise Reject(rule.reason, filled[0])



# A kind whose commands do more than the generic ones (a subscription named by its SubId, a topic inquiry filtered by
# TopicType) also registers hooks (pcfserver/engine/kinds/hooks.py) that pcfserver.engine.objects calls.
HOOKS: dict[str, Hooks] = {}


def _register() -> None:
    """Each kind's module (imported here, after Rule and the table rules, so the modules may import this package)."""
    from pcfserver.engine.kinds import authinfo, channel, comminfo, sub, topic

    RULES.update(
        {"channel": channel.check, "authinfo": authinfo.check, "comminfo": comminfo.check, "topic": topic.check, "sub": sub.check}
    )
    HOOKS.update({"topic": topic.HOOKS, "sub": sub.HOOKS})


_register()
