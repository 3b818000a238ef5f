"""formats/kind-rules.tsv: every row names its kind's parameters and sorts, and the engine answers each as written."""

from __future__ import annotations

import pytest

from pcfserver import kinds, mq
from pcfserver.codec import Integer, Message, String
from pcfserver.engine import open_engine
from pcfserver.engine.kinds import TableRule, table_rules
from pcfserver.engine.spec import spec


def _rows() -> list[tuple[str, TableRule]]:
    return [(kind, rule) for kind, rules in table_rules().items() for rule in rules]


def test_every_rule_names_parameters_and_sorts_of_its_kind() -> None:
    assert {kind for kind, _ in _rows()} == {"channel", "authinfo", "topic"}
    for kind, rule in _rows():
        found = kinds.by_key()[kind]
        attributes = spec().objects[kind].attributes
        assert all(attributes[pid].access == "set" and attributes[pid].is_string for pid in rule.parameters), (kind, rule)
        sorts = attributes[found.subtype].values if found.subtype else frozenset()
        assert rule.subtypes <= (sorts or frozenset()), (kind, rule)
        for subtype in rule.subtypes:  # a required parameter is one the sort takes
            assert all(not attributes[pid].applies or subtype in attributes[pid].applies for pid in rule.parameters), (kind, rule)


@pytest.mark.parametrize(("kind", "rule"), [row for row in _rows() if row[1].rule == "required"])
def test_each_required_rule_refuses_a_new_object_without_it_and_spares_system_objects(kind: str, rule: TableRule) -> None:
    found = kinds.by_key()[kind]
    engine = open_engine(None)
    for subtype in rule.subtypes or (0,):
        # every other required parameter of the sort given, this rule's left blank (given blank: a kind without sorts)
        others = [r for r in table_rules()[kind] if r.rule == "required" and subtype in r.subtypes and r is not rule]
        given = [String(pid, "x(1)") for r in others for pid in r.parameters if pid not in rule.parameters]
        sort = (Integer(found.subtype, subtype),) if subtype else tuple(String(pid, "") for pid in rule.parameters)
        create = Message(found.command("CREATE"), (String(found.name, "RULE.TEST"), *sort, *given))
        answer = engine.execute(create)
        assert (answer[0].reason, answer[0].int_value(mq.MQIACF_PARAMETER_ID)) == (rule.reason, rule.parameters[0]), (kind, subtype)
        if rule.spared:
            default = found.default_object(subtype)
            sort = (Integer(found.subtype, subtype),) if subtype else ()
            change = Message(found.command("CHANGE"), (String(found.name, default), *sort))
            assert engine.execute(change)[0].reason == 0, default
