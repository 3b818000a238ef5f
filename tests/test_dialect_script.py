"""The shared tokenizers and the script reader: quoting, case, continuation, comments (round2-semantics §5.1-5.2)."""

from __future__ import annotations

import pytest

from pcfserver.dialects import run_script
from pcfserver.dialects.lexer import CommandSyntaxError, items, tpf_tokens
from pcfserver.dialects.script import ScriptCommand, ScriptNote, read_script
from pcfserver.engine import open_engine


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # unquoted words are folded to upper case; quoted text is kept as typed
        ("define qlocal(app.q) descr('Mixed Case')", [("DEFINE", None), ("QLOCAL", ["APP.Q"]), ("DESCR", ["Mixed Case"])]),
        # '' inside quotes is one quote; the quotes do not count
        ("DESCR('it''s')", [("DESCR", ["it's"])]),
        ("DESCR('''')", [("DESCR", ["'"])]),
        ("DESCR('')", [("DESCR", [""])]),
        # blanks inside parentheses and between keyword and parenthesis (IBM's own example)
        ("ALTER QLOCAL ('Account' ) TRIGDPTH ( 1)", [("ALTER", None), ("QLOCAL", ["Account"]), ("TRIGDPTH", ["1"])]),
        # commas separate like blanks, in any number
        ("DIS Q(X),,MAXDEPTH , CURDEPTH", [("DIS", None), ("Q", ["X"]), ("MAXDEPTH", None), ("CURDEPTH", None)]),
        # several values in one pair of parentheses (WHERE)
        ("WHERE(CURDEPTH GT 10)", [("WHERE", ["CURDEPTH", "GT", "10"])]),
        # generic names keep their asterisk
        ("DIS Q('app*')", [("DIS", None), ("Q", ["app*"])]),
    ],
)
def test_items(text: str, expected: list[tuple[str, list[str] | None]]) -> None:
    got = [(i.keyword, None if i.values is None else [v.text for v in i.values]) for i in items(text)]
    assert got == expected


@pytest.mark.parametrize(
    ("text", "segment"),
    [
        ("DEFINE QLOCAL(X) DESCR('abc", "DEFINE QLOCAL(X) DESCR('abc"),  # quote not closed: the whole text
        ("DEFINE QLOCAL(X) MAXDEPTH(5", "DEFINE QLOCAL(X) MAXDEPTH(5"),
        ("(X) DEFINE", "("),
        ("DEFINE QLOCAL(X) )", "DEFINE QLOCAL(X) )"),
        ("WHERE(A (B))", "WHERE(A ("),
    ],
)
def test_item_errors_carry_the_segment(text: str, segment: str) -> None:
    with pytest.raises(CommandSyntaxError) as caught:
        items(text)
    assert caught.value.segment == segment


def test_tpf_tokens_keep_quoted_case_and_fold_the_rest() -> None:
    tokens = tpf_tokens("ZMQSC alt QL-'local.queue.' get-disabled TRIGDATA-'a b-c' notrigger")
    assert [(t.keyword, t.value, t.quoted) for t in tokens] == [
        ("ZMQSC", None, False),
        ("ALT", None, False),
        ("QL", "local.queue.", True),
        ("GET", "DISABLED", False),
        ("TRIGDATA", "a b-c", True),
        ("NOTRIGGER", None, False),
    ]


@pytest.mark.parametrize("text", ["ZMQSC ALT QL- GET-ENABLED", "ZMQSC ALT -X", "ZMQSC ALT QL-'x'y", "ZMQSC ALT QL-a'b", "ZMQSC ALT QL-'open"])
def test_tpf_token_errors(text: str) -> None:
    with pytest.raises(CommandSyntaxError):
        tpf_tokens(text)


def commands(lines: list[str], *, continuation: bool = True) -> list[str]:
    return [e.text for e in read_script(lines, continuation=continuation) if isinstance(e, ScriptCommand)]


def test_plus_continues_from_the_first_non_blank_and_minus_from_column_one() -> None:
    # round2-semantics §5.2: both may fall inside a word or a quoted string
    assert commands(["DEFINE QLOCAL(A) DESCR('Fr+", "   ed')"]) == ["DEFINE QLOCAL(A) DESCR('Fred')"]
    assert commands(["DEFINE QLOCAL(A) DESCR('Fr-", "ed')"]) == ["DEFINE QLOCAL(A) DESCR('Fred')"]
    assert commands(["DEFINE QLOCAL(A) DESCR('Fr-", "   ed')"]) == ["DEFINE QLOCAL(A) DESCR('Fr   ed')"]
    assert commands(["DEFINE QLOCAL(A) +", "  MAXDEPTH(5)"]) == ["DEFINE QLOCAL(A) MAXDEPTH(5)"]


def test_comments_and_blank_lines_do_not_break_a_continuation() -> None:
    events = read_script(["* first", "DEFINE QLOCAL(A) +", "* inside", "", "  MAXDEPTH(5)", "", "DIS Q(A)"])
    assert events == [
        ScriptNote("* first"),
        ScriptCommand("DEFINE QLOCAL(A) MAXDEPTH(5)", ("DEFINE QLOCAL(A) +", "* inside", "", "  MAXDEPTH(5)")),
        ScriptNote(""),
        ScriptCommand("DIS Q(A)", ("DIS Q(A)",)),
    ]


def test_semicolon_ends_a_command_even_after_a_plus() -> None:
    assert commands(["PING QMGR;", "DIS QMGR +;", "END"]) == ["PING QMGR", "DIS QMGR +", "END"]


def test_an_open_continuation_at_the_end_is_a_command() -> None:
    assert commands(["DEFINE QLOCAL(A) +"]) == ["DEFINE QLOCAL(A)"]
    assert read_script(["+"]) == [ScriptNote("+")]


def test_without_continuation_every_line_is_a_command() -> None:
    assert commands(["ZMQSC ALT QL-A TRIGDATA-", "ZMQSC DISP QL-A"], continuation=False) == ["ZMQSC ALT QL-A TRIGDATA-", "ZMQSC DISP QL-A"]


def test_cl_comments() -> None:
    events = read_script(["/* a CL comment */", "CHGMQMQ QNAME(A) +", "  MAXDEPTH(5)"], comments=("/*",))
    assert events == [ScriptNote("/* a CL comment */"), ScriptCommand("CHGMQMQ QNAME(A) MAXDEPTH(5)", ("CHGMQMQ QNAME(A) +", "  MAXDEPTH(5)"))]


def test_run_script_ends_lines_at_cr_and_lf_only() -> None:
    script = "DEFINE QLOCAL(NEL.Q) DESCR('a\x85b')\r\nDIS QL(NEL.Q) DESCR\rDIS QL(NEL.Q) MAXDEPTH\n"
    transcript = run_script(script, open_engine(None).execute)
    assert (transcript.read, transcript.exit_code) == (3, 0)
    assert "   DESCR(a\x85b)" in transcript.text.split("\n")
