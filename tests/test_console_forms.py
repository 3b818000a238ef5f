"""The console's attribute forms (pcfserver/console/forms.py): fields from the tables, MQSC from a submitted form."""

from __future__ import annotations

import pytest

from pcfserver import kinds, mq
from pcfserver.console import forms
from pcfserver.dialects import mqsc
from pcfserver.tables import read_table


def test_a_local_queue_form_has_the_settable_attributes_with_words_and_defaults() -> None:
    form = forms.queue_form("QLOCAL")
    maxdepth = form.field("MAXDEPTH")
    assert maxdepth is not None and maxdepth.kind == "number" and maxdepth.default == "5000" and maxdepth.range == "0..999999999"
    assert "MQIA_MAX_Q_DEPTH" in maxdepth.hints and maxdepth.label == "Max queue depth"
    assert maxdepth.description.startswith("Largest number of messages")  # queue-attributes.tsv's description column
    put = form.field("PUT")
    assert put is not None and put.kind == "select" and set(put.choices) == {"ENABLED", "DISABLED"} and put.default == "ENABLED"
    assert form.field("TARGET") is None and form.field("RNAME") is None  # alias and remote only
    assert form.fields[0].keyword == "DESCR"
    alias = forms.queue_form("QALIAS")
    assert alias.field("TARGET") is not None and alias.field("MAXDEPTH") is None


def test_define_carries_only_what_differs_from_the_default_and_parses_back() -> None:
    form = forms.queue_form("QLOCAL")
    built = forms.define_command(form, "APP.Q1", {
        "attr.MAXDEPTH": ["100"], "attr.DESCR": ["it's mine"], "attr.TRIGGER": ["TRIGGER"], "attr.PUT": ["ENABLED"],
        "attr.CAPEXPRY": ["NOLIMIT"],
    })
    assert built.ok and built.command == "DEFINE QLOCAL(APP.Q1) DESCR('it''s mine') MAXDEPTH(100) TRIGGER"
    parsed = mqsc.parse(built.command).message
    assert parsed is not None and parsed.int_value(mq.MQIA_MAX_Q_DEPTH) == 100 and parsed.str_value(mq.MQCA_Q_DESC) == "it's mine"


@pytest.mark.parametrize("value", ["1) PUT(DISABLED", "ten", "5 TRIGGER"])
def test_a_value_cannot_add_a_keyword_of_its_own(value: str) -> None:
    built = forms.define_command(forms.queue_form("QLOCAL"), "Q", {"attr.MAXDEPTH": [value]})
    assert not built.ok and "MAXDEPTH" in built.errors


def test_a_string_is_quoted_whatever_it_holds() -> None:
    built = forms.define_command(forms.queue_form("QLOCAL"), "Q", {"attr.DESCR": ["x') PUT(DISABLED"]})
    parsed = mqsc.parse(built.command).message
    assert parsed is not None and parsed.str_value(mq.MQCA_Q_DESC) == "x') PUT(DISABLED" and parsed.int_value(mq.MQIA_INHIBIT_PUT) is None


def test_alter_carries_only_the_changed_fields() -> None:
    form = forms.queue_form("QLOCAL", current={mq.MQCA_Q_DESC: "old   ", mq.MQIA_MAX_Q_DEPTH: 5000, mq.MQIA_INHIBIT_PUT: 0})
    assert form.field("DESCR").current == "old"  # type: ignore[union-attr]
    built = forms.alter_command(form, "Q1", {"attr.DESCR": [""], "attr.MAXDEPTH": ["5000"], "attr.PUT": ["DISABLED"]})
    assert built.command == "ALTER QLOCAL(Q1) DESCR(' ') PUT(DISABLED)"
    assert forms.alter_command(form, "Q1", {"attr.MAXDEPTH": ["5000"]}).errors == {"": "Nothing was changed."}


def test_a_bad_name_is_refused() -> None:
    assert "name" in forms.define_command(forms.queue_form("QLOCAL"), "A B", {}).errors
    assert "name" in forms.define_command(forms.queue_form("QLOCAL"), "", {}).errors


@pytest.mark.parametrize("kind", [k.key for k in kinds.kinds()])
def test_every_kind_has_a_form_whose_define_parses(kind: str) -> None:
    subtypes = forms.subtypes(kind)
    for subtype in subtypes or ("",):
        form = forms.kind_form(kind, subtype)
        assert form.fields, (kind, subtype)
        assert form.noun == kinds.by_key()[kind].noun
        required = {f.form_name: ["X(1)"] for f in form.fields if f.required is not None}
        if required:  # without them the form says which it needs, and makes no command
            refused = forms.define_command(form, "CONSOLE.TEST", {})
            assert not refused.command and {forms.FIELD_PREFIX + k for k in refused.errors} == set(required), refused
        built = forms.define_command(form, "CONSOLE.TEST", required)
        assert built.ok, built
        assert mqsc.parse(built.command).message is not None, built.command
        if subtype:
            assert f"{form.subtype_keyword}({subtype})" in built.command


def test_list_attributes_become_mqsc_lists() -> None:
    built = forms.define_command(forms.kind_form("namelist"), "NL1", {"attr.NAMES": ["A, b.c"]})
    assert built.command == "DEFINE NAMELIST(NL1) NAMES(A,'b.c')"
    channel = forms.kind_form("channel", "SDR")
    built = forms.define_command(channel, "C1", {"attr.CONNAME": ["host(1414)"], "attr.XMITQ": ["XQ"], "attr.COMPHDR": ["NONE,SYSTEM"]})
    parsed = mqsc.parse(built.command).message
    assert parsed is not None and parsed.str_value(mq.MQCACH_CONNECTION_NAME) == "host(1414)"


@pytest.mark.parametrize("table", ["queue", "qmgr", *kinds.keys()])
def test_every_settable_attribute_has_a_description(table: str) -> None:
    """The forms' help lines start with the table's description column: a row an administrator may set has one (one line,
    plain, short), so that a row added without one fails here."""
    missing = []
    for row in read_table(f"{table}-attributes.tsv"):
        text = row.get("description") or ""
        if row["access"] == "set" and not text.strip():
            missing.append(row["name"])
        assert len(text) <= 200 and "\t" not in text and "<" not in text, (row["name"], text)
    assert not missing, f"{table}-attributes.tsv: no description for {', '.join(missing)}"


@pytest.mark.parametrize("table", ["queue", *kinds.keys()])
def test_every_field_of_every_form_shows_its_description(table: str) -> None:
    nouns = forms.QUEUE_NOUNS if table == "queue" else (forms.subtypes(table) or ("",))
    for noun in nouns:
        for f in forms.form_for(table, noun).fields:
            assert f.description and f.hints.startswith(f"MQSC {f.keyword}"), (table, noun, f.keyword)


@pytest.mark.parametrize(("value", "ok"), [("-1", False), ("1000000000", False), ("0", True), ("999999999", True)])
def test_a_number_outside_the_tables_range_is_refused_at_the_preview(value: str, ok: bool) -> None:
    """A helper typed MAXDEPTH(-1) and MAXDEPTH(1000000000): the preview passed them and the queue manager refused them on
    Run with 3229.  The range of queue-attributes.tsv (0..999999999) is checked where the form is read."""
    built = forms.define_command(forms.queue_form("QLOCAL"), "Q", {"attr.MAXDEPTH": [value]})
    assert built.ok is ok
    if not ok:
        assert built.errors["MAXDEPTH"] == "MAXDEPTH is 0 to 999,999,999"


def test_a_number_field_offers_only_the_words_its_own_range_takes() -> None:
    """A word another object kind gives the same parameter is not offered: the third console pass found the queue
    manager page's CCSID offering ASPUB (a COMMINFO's CCSID) and a queue's DEFPRTY offering ASPARENT (a topic's);
    the queue manager refused both on Run.  A process's APPLTYPE keeps CICS, IMS and the rest (numbers in its range)."""
    ccsid = forms.qmgr_form({}).field("CCSID")
    assert ccsid is not None and "ASPUB" not in ccsid.choices and "ASPUB" not in ccsid.hints
    defprty = forms.queue_form("QLOCAL").field("DEFPRTY")
    assert defprty is not None and defprty.choices == () and "ASPARENT" not in defprty.hints
    appltype = forms.kind_form("process").field("APPLTYPE")
    assert appltype is not None and {"CICS", "IMS", "UNIX"} <= set(appltype.choices)
    assert "ASPUB" in (forms.kind_form("comminfo").field("CCSID") or ccsid).choices  # (its own word stays)


def test_the_queue_manager_page_says_what_each_field_does_in_words() -> None:
    """A chromium pass found the queue manager page's 78 fields without a description line and with labels such as
    "Queue mgr description", "Coded char set id", "Conn auth" and "Rev dns"."""
    form = forms.qmgr_form({})
    labels = {f.keyword: f.label for f in form.fields}
    assert labels["DESCR"] == "Queue manager description" and labels["CCSID"] == "Coded character set ID"
    assert labels["CONNAUTH"] == "Connection authentication" and labels["REVDNS"] == "Reverse DNS"
    ccsid = form.field("CCSID")
    assert ccsid is not None and ccsid.description.startswith("Character set the queue manager holds its text in")


def test_a_ccsid_the_queue_manager_cannot_convert_is_caught_at_preview() -> None:
    """A helper typed CCSID 12345 on the queue manager page: the preview passed it and Run got 3049."""
    form = forms.qmgr_form({})
    refused = forms.alter_command(form, "", {"attr.CCSID": ["12345"]})
    assert refused.errors["CCSID"].startswith("CCSID 12345 is not one the queue manager converts")
    assert forms.alter_command(form, "", {"attr.CCSID": ["1251"]}).command == "ALTER QMGR CCSID(1251)"


def test_a_name_is_checked_against_its_own_kinds_length_at_preview() -> None:
    """A 25-character channel name passed the preview (every name was held to 48) and runmqsc's refusal came on Run;
    a subscription's 60-character name, which MQ takes (up to 10,240), was refused at preview."""
    channel = forms.kind_form("channel", "SVRCONN")
    refused = forms.define_command(channel, "C" * 25, {})
    assert refused.errors["name"] == "A channel name is at most 20 characters; this one has 25."
    assert forms.define_command(channel, "C" * 20, {}).ok
    assert forms.define_command(forms.kind_form("authinfo", "IDPWOS"), "A" * 49, {}).errors["name"].startswith("An authinfo name is at most 48")
    assert forms.define_command(forms.queue_form("QLOCAL"), "Q" * 49, {}).errors["name"].startswith("A queue name is at most 48")
    sub = forms.kind_form("sub")
    long_name = "JMS:QM1:client.id:" + "s" * 42
    built = forms.define_command(sub, long_name, {"attr.TOPICSTR": ["a/b"]})
    assert built.ok and f"DEFINE SUB('{long_name}')" in built.command
    assert "line break" in forms.define_command(sub, "a\nb", {"attr.TOPICSTR": ["a/b"]}).errors["name"]


def test_text_the_queue_managers_ccsid_cannot_hold_is_caught_at_preview_naming_the_character() -> None:
    form = forms.kind_form("namelist")
    dashed = forms.define_command(form, "NL1", {"attr.DESCR": ["dash \u2014 here"]}, ccsid=819)
    assert not dashed.ok and "'\u2014' (U+2014) is not in the queue manager's character set (CCSID 819)" in dashed.errors["DESCR"]
    latin = forms.define_command(form, "NL1", {"attr.DESCR": ["caf\u00e9 <b>"]}, ccsid=819)
    assert latin.ok and "caf\u00e9" in latin.command
    assert forms.define_command(form, "NL1", {"attr.DESCR": ["dash \u2014 here"]}, ccsid=1208).ok  # UTF-8 holds it
