"""Advanced Message Security policies: PCF Set / Inquire / Delete Policy, SET / DISPLAY / DELETE POLICY in runmqsc
(the transcript of a real runmqsc session), runCommandJSON (IBM's own example), durability and dump."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pcfserver import mq
from pcfserver.codec import Integer, Message, String, StringList
from pcfserver.dialects import mqsc
from pcfserver.dialects.dump import dump
from pcfserver.dialects.runner import run_script
from pcfserver.engine import Engine, open_engine
from tests.test_chlauth import records as fields  # each answer's fields, strings without their padding

N = mq.MQCA_POLICY_NAME


@pytest.fixture
def engine() -> Engine:
    return open_engine()


def set_policy(name: str, *params: Integer | String | StringList) -> Message:
    return Message(mq.MQCMD_CHANGE_PROT_POLICY, (String(N, name), *params), type=mq.MQCFT_COMMAND)


def inquire(name: str) -> Message:
    return Message(mq.MQCMD_INQUIRE_PROT_POLICY, (String(N, name),), type=mq.MQCFT_COMMAND)


def reason(answer: list[Message]) -> int:
    return answer[0].reason


SIGN = Integer(mq.MQIA_SIGNATURE_ALGORITHM, mq.MQMLP_SIGN_ALG_SHA256)
ENCRYPT = Integer(mq.MQIA_ENCRYPTION_ALGORITHM, mq.MQMLP_ENCRYPTION_ALG_AES256)


def test_a_queue_without_a_policy_shows_plain_text_and_star_shows_only_policies_that_exist(engine: Engine) -> None:
    """IBM: a specific name always answers, the default (plain-text) policy when none exists; * lists those that exist."""
    [plain] = fields(engine.execute(inquire("APP.Q")))
    assert plain == {N: "APP.Q", mq.MQIA_SIGNATURE_ALGORITHM: 0, mq.MQIA_ENCRYPTION_ALGORITHM: 0, mq.MQCA_SIGNER_DN: (),
                     mq.MQCA_RECIPIENT_DN: (), mq.MQIA_KEY_REUSE_COUNT: mq.MQKEY_REUSE_DISABLED, mq.MQIA_TOLERATE_UNPROTECTED: 0}
    assert reason(engine.execute(inquire("*"))) == mq.MQRCCF_POLICY_NOT_FOUND
    assert reason(engine.execute(set_policy("APP.Q", SIGN, StringList(mq.MQCA_SIGNER_DN, ("CN=alice,O=Example",))))) == 0
    assert [f[N] for f in fields(engine.execute(inquire("*")))] == ["APP.Q"]
    assert reason(engine.execute(inquire("OTHER*"))) == mq.MQRCCF_POLICY_NOT_FOUND


def test_set_policy_checks_what_a_policy_must_hold_and_a_refused_command_changes_nothing(engine: Engine) -> None:
    recipient = StringList(mq.MQCA_RECIPIENT_DN, ("CN=bob",))
    assert reason(engine.execute(set_policy("Q1", ENCRYPT))) == mq.MQRCCF_RECIPIENT_DN_MISSING
    assert reason(engine.execute(set_policy("Q1", recipient))) == mq.MQRCCF_ENCRYPTION_ALG_ERROR
    assert reason(engine.execute(set_policy("Q1", StringList(mq.MQCA_SIGNER_DN, ("CN=a",))))) == mq.MQRCCF_SIGNATURE_ALG_ERROR
    assert reason(engine.execute(set_policy("Q1", Integer(mq.MQIA_SIGNATURE_ALGORITHM, 99)))) == mq.MQRCCF_SIGNATURE_ALG_ERROR
    assert reason(engine.execute(set_policy("Q1", Integer(mq.MQIA_KEY_REUSE_COUNT, 10_000_000)))) == mq.MQRCCF_PARM_VALUE_ERROR
    assert reason(engine.execute(set_policy("Q1", Integer(mq.MQIACF_ACTION, mq.MQACT_REMOVE), recipient))) == mq.MQRCCF_POLICY_NOT_FOUND
    assert reason(engine.execute(inquire("*"))) == mq.MQRCCF_POLICY_NOT_FOUND
    assert reason(engine.execute(set_policy("Q1", ENCRYPT, recipient, Integer(mq.MQIA_KEY_REUSE_COUNT, mq.MQKEY_REUSE_UNLIMITED)))) == 0
    # removing the last recipient of an encrypting policy is refused; the policy stays as it was
    remove = Integer(mq.MQIACF_ACTION, mq.MQACT_REMOVE)
    assert reason(engine.execute(set_policy("Q1", remove, recipient))) == mq.MQRCCF_RECIPIENT_DN_MISSING
    [kept] = fields(engine.execute(inquire("Q1")))
    assert (kept[mq.MQCA_RECIPIENT_DN], kept[mq.MQIA_KEY_REUSE_COUNT]) == (("CN=bob",), mq.MQKEY_REUSE_UNLIMITED)
    delete = Message(mq.MQCMD_DELETE_PROT_POLICY, (String(N, "Q1"),), type=mq.MQCFT_COMMAND)
    assert [reason(engine.execute(delete)) for _ in range(2)] == [0, mq.MQRCCF_POLICY_NOT_FOUND]


# runmqsc on MQ 9.2, as quoted on colinpaice.blog (2021-04-19): a policy set, a recipient added and one removed.
SESSION = """\
set policy(ABC) signalg(SHA512) recip('CN=AAA,C=GB')  ENCALG(AES256)
set policy(ABC) signalg(SHA512) recip('CN=BBB,C=GB') ENCALG(AES256) action(ADD)
DIS policy (ABC)
set policy(ABC) SIGNALG(SHA256) ENCALG(AES128) RECIP('CN=AAA,C=GB') action(remove)
DIS policy(Abc)
"""


def test_runmqsc_session_of_a_published_transcript(engine: Engine) -> None:
    """The display lines of the transcript: the added recipient first, ADD and REMOVE leaving the algorithms as set."""
    outcome = run_script(SESSION, engine.execute, qmgr_name="QM1")
    assert outcome.exit_code == 0, outcome.text
    blocks = [b.lines for b in mqsc.run("DIS policy(ABC)", engine.execute).blocks]
    assert blocks == [(
        "AMQ9086I: Display IBM MQ Advanced Message Security policy details.",
        "   POLICY(ABC)                             SIGNALG(SHA512)",
        "   ENCALG(AES256)                          RECIP(CN=BBB,C=GB)",
        "   KEYREUSE(DISABLED)                      ENFORCE",
    )]
    added = run_script("SET POLICY(ABC) RECIP('CN=CCC,C=GB') ACTION(ADD)\nDIS POLICY(ABC)", engine.execute, qmgr_name="QM1").text
    assert -1 < added.index("RECIP(CN=CCC,C=GB)") < added.index("RECIP(CN=BBB,C=GB)")


def test_ibms_runcommandjson_example_sets_the_policy_and_a_display_answers_its_lists(engine: Engine) -> None:
    """IBM's runCommandJSON page: signer and recip as JSON arrays (MQSC SIGNER('a','b'), or SIGNER('a') SIGNER('b'))."""
    from pcfserver.rest.admin import mqsc_text

    text, display = mqsc_text({"type": "runCommandJSON", "command": "set", "qualifier": "policy", "name": "POL.Q1",
                               "parameters": {"signer": ["CN=Alice", "CN=Bob"], "recip": ["CN=User1"], "encalg": "RC2", "signalg": "SHA256"}})
    assert not display
    ran = mqsc.run(text, engine.execute)
    assert (ran.status, ran.lines) == ("ok", [])
    repeated = mqsc.parse("SET POLICY(POL.Q1) SIGNER('CN=Alice') SIGNALG(SHA256) SIGNER('CN=Bob') RECIP('CN=User1') ENCALG(RC2)").message
    assert repeated is not None and mqsc.parse(text).message is not None
    assert {p.parameter: p for p in repeated.parameters} == {p.parameter: p for p in mqsc.parse(text).message.parameters}
    [shown] = fields(engine.execute(inquire("POL.Q1")))
    assert (shown[mq.MQCA_SIGNER_DN], shown[mq.MQCA_RECIPIENT_DN], shown[mq.MQIA_ENCRYPTION_ALGORITHM]) == (
        ("CN=Alice", "CN=Bob"), ("CN=User1",), mq.MQMLP_ENCRYPTION_ALG_RC2)


def test_policies_survive_a_restart_and_dump_recreates_them(tmp_path: Path) -> None:
    first = open_engine(tmp_path / "a")
    script = ("SET POLICY(PAY.Q) SIGNALG(SHA384) ENCALG(AES128) SIGNER('CN=pay, O=Bank') RECIP('CN=ledger') RECIP('CN=audit') "
              "TOLERATE KEYREUSE(250)\nSET POLICY(PLAIN.Q)\n")
    assert run_script(script, first.execute, qmgr_name="QM1").exit_code == 0
    # a batch whose second command fails leaves the first one, alone
    answers = first.execute_batch([set_policy("ALSO.Q", SIGN), set_policy("BAD.Q", ENCRYPT)])
    assert [reason(a) for a in answers] == [0, mq.MQRCCF_RECIPIENT_DN_MISSING]
    before = fields(first.execute(inquire("*")))
    first.close()
    second = open_engine(tmp_path / "a")
    assert fields(second.execute(inquire("*"))) == before
    assert [f[N] for f in before] == ["ALSO.Q", "PAY.Q", "PLAIN.Q"]
    text = dump(second.execute, qmgr_name="QM1")
    assert "SET POLICY('PAY.Q')" in text
    copy = open_engine(None)
    assert run_script(text, copy.execute, qmgr_name="QM1").exit_code == 0
    assert fields(copy.execute(inquire("*"))) == before
    second.close()


_DN = st.from_regex(r"CN=[a-z]{1,8}(, ?O=[A-Z][a-z]{0,6})?", fullmatch=True)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    signalg=st.sampled_from([mq.MQMLP_SIGN_ALG_NONE, mq.MQMLP_SIGN_ALG_SHA1, mq.MQMLP_SIGN_ALG_SHA256, mq.MQMLP_SIGN_ALG_SHA512]),
    encalg=st.sampled_from([mq.MQMLP_ENCRYPTION_ALG_NONE, mq.MQMLP_ENCRYPTION_ALG_DES, mq.MQMLP_ENCRYPTION_ALG_AES256]),
    signers=st.lists(_DN, max_size=3, unique=True),
    recipients=st.lists(_DN, max_size=3, unique=True),
    keyreuse=st.sampled_from([mq.MQKEY_REUSE_DISABLED, mq.MQKEY_REUSE_UNLIMITED, 1, 9_999_999]),
    tolerate=st.booleans(),
)
def test_a_policy_set_over_pcf_reads_back_the_same_through_mqsc_text(
    engine: Engine, signalg: int, encalg: int, signers: list[str], recipients: list[str], keyreuse: int, tolerate: bool
) -> None:
    """PCF -> MQSC text (SIGNER(...) per name) -> PCF -> the engine: whatever the engine accepts from one it accepts from
    the other, with the same result."""
    params: list[Integer | String | StringList] = [Integer(mq.MQIA_SIGNATURE_ALGORITHM, signalg), Integer(mq.MQIA_ENCRYPTION_ALGORITHM, encalg),
                                                   Integer(mq.MQIA_KEY_REUSE_COUNT, keyreuse), Integer(mq.MQIA_TOLERATE_UNPROTECTED, int(tolerate))]
    if signers:
        params.append(StringList(mq.MQCA_SIGNER_DN, tuple(signers)))
    if recipients:
        params.append(StringList(mq.MQCA_RECIPIENT_DN, tuple(recipients)))
    direct = engine.execute(set_policy("PROP.Q", *params))
    direct_shown = fields(engine.execute(inquire("PROP.Q")))
    engine.execute(Message(mq.MQCMD_DELETE_PROT_POLICY, (String(N, "PROP.Q"),)))
    text = mqsc.render_command(set_policy("PROP.Q", *params), quote_all=True)
    assert text.count("SIGNER(") == len(signers) and text.count("RECIP(") == len(recipients)
    parsed = mqsc.parse(text).message
    assert parsed is not None
    through = engine.execute(parsed)
    assert reason(through) == reason(direct)
    assert fields(engine.execute(inquire("PROP.Q"))) == direct_shown
    engine.execute(Message(mq.MQCMD_DELETE_PROT_POLICY, (String(N, "PROP.Q"),)))


def test_add_makes_a_policy_that_is_not_there_as_ibms_application_ams_tutorial_does(engine: Engine) -> None:
    """ibm-cloud-docs/mqcloud mqoc_app_ams.md sets a new queue's policy with ACTION(ADD); its algorithms are kept."""
    text = ("SET POLICY(DEV.QUEUE.1) SIGNALG(SHA256) ENCALG(AES256) SIGNER('CN=app,O=Example') RECIP('CN=app,O=Example') "
            "ACTION(ADD)\nDISPLAY POLICY(DEV.QUEUE.1)\n")
    outcome = run_script(text, engine.execute, qmgr_name="QM1")
    assert outcome.exit_code == 0, outcome.text
    [made] = fields(engine.execute(inquire("DEV.QUEUE.1")))
    assert (made[mq.MQIA_SIGNATURE_ALGORITHM], made[mq.MQIA_ENCRYPTION_ALGORITHM], made[mq.MQCA_SIGNER_DN]) == (
        mq.MQMLP_SIGN_ALG_SHA256, mq.MQMLP_ENCRYPTION_ALG_AES256, ("CN=app,O=Example",))
