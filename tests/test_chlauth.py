"""Channel authentication records: PCF Set / Inquire, MATCH(RUNCHECK), SET/DISPLAY CHLAUTH in runmqsc, durability, dump."""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pcfserver import mq
from pcfserver.codec import Integer, IntegerFilter, IntegerList, Message, String, StringList
from pcfserver.dialects import mqsc
from pcfserver.dialects.dump import dump
from pcfserver.dialects.runner import run_script
from pcfserver.engine import Engine, open_engine

P = mq.MQCACH_CHANNEL_NAME
T = mq.MQIACF_CHLAUTH_TYPE


def set_rec(profile: str, rtype: int, *params: Integer | String | StringList, action: int | None = None) -> Message:
    extra = () if action is None else (Integer(mq.MQIACF_ACTION, action),)
    return Message(mq.MQCMD_SET_CHLAUTH_REC, (String(P, profile), Integer(T, rtype), *extra, *params), type=mq.MQCFT_COMMAND)


def inquire(profile: str, *params: Integer | String | IntegerList) -> Message:
    return Message(mq.MQCMD_INQUIRE_CHLAUTH_RECS, (String(P, profile), *params), type=mq.MQCFT_COMMAND)


def reason(answer: list[Message]) -> int:
    return answer[0].reason


def records(answer: list[Message]) -> list[dict[int, object]]:
    out = []
    for message in answer:
        if message.reason:
            continue
        fields: dict[int, object] = {}
        for p in message.parameters:
            if isinstance(p, String):
                fields[p.parameter] = p.value.rstrip()
            elif isinstance(p, StringList):
                fields[p.parameter] = tuple(v.rstrip() for v in p.values)
            elif isinstance(p, Integer):
                fields[p.parameter] = p.value
        out.append(fields)
    return out


def everything(engine: Engine) -> list[dict[int, object]]:
    return records(engine.execute(inquire("*")))


def addressmap(profile: str, address: str, *params: Integer | String, action: int | None = None) -> Message:
    return set_rec(profile, mq.MQCAUT_ADDRESSMAP, String(mq.MQCACH_CONNECTION_NAME, address), *params, action=action)


CHANNEL = Integer(mq.MQIACH_USER_SOURCE, mq.MQUSRC_CHANNEL)
NOACCESS = Integer(mq.MQIACH_USER_SOURCE, mq.MQUSRC_NOACCESS)


@pytest.fixture
def engine() -> Engine:
    return open_engine()


# ---------------------------------------------------------------------------------- defaults


def test_a_new_queue_manager_has_ibms_three_default_rules(engine: Engine) -> None:
    found = everything(engine)
    summary = [(r[P], r[T], r[mq.MQCA_CHLAUTH_DESC]) for r in found]
    assert summary == [
        ("SYSTEM.ADMIN.SVRCONN", mq.MQCAUT_ADDRESSMAP, "Default rule to allow MQ Explorer access"),
        ("SYSTEM.*", mq.MQCAUT_ADDRESSMAP, "Default rule to disable all SYSTEM channels"),
        ("*", mq.MQCAUT_BLOCKUSER, "Default rule to disallow privileged users"),
    ]
    admin, system, block = found
    assert (admin[mq.MQCACH_CONNECTION_NAME], admin[mq.MQIACH_USER_SOURCE], admin[mq.MQIA_CHECK_CLIENT_BINDING]) == (
        "*",
        mq.MQUSRC_CHANNEL,
        mq.MQCHK_AS_Q_MGR,
    )
    assert (system[mq.MQIACH_USER_SOURCE], system[mq.MQIACH_WARNING]) == (mq.MQUSRC_NOACCESS, mq.MQWARN_NO)
    assert block[mq.MQCACH_MCA_USER_ID_LIST] == ("*MQADMIN",)


def test_an_older_registry_gets_the_default_rules_once(tmp_path: Path) -> None:
    first = open_engine(tmp_path)
    assert reason(first.execute(set_rec("*", mq.MQCAUT_BLOCKUSER, action=mq.MQACT_REMOVEALL))) == 0
    first.close()
    # a removed default rule stays removed at the next open
    again = open_engine(tmp_path)
    assert [r[P] for r in everything(again)] == ["SYSTEM.ADMIN.SVRCONN", "SYSTEM.*"]
    again.close()


# ---------------------------------------------------------------------------------- Set


def test_add_replace_remove(engine: Engine) -> None:
    rec = addressmap("APP.SVRCONN", "10.1.*", CHANNEL)
    assert reason(engine.execute(rec)) == 0
    assert reason(engine.execute(rec)) == mq.MQRCCF_CHLAUTH_ALREADY_EXISTS
    replaced = addressmap("APP.SVRCONN", "10.1.*", NOACCESS, String(mq.MQCA_CHLAUTH_DESC, "closed"), action=mq.MQACT_REPLACE)
    assert reason(engine.execute(replaced)) == 0
    [found] = records(engine.execute(inquire("APP.SVRCONN")))
    assert (found[mq.MQIACH_USER_SOURCE], found[mq.MQCA_CHLAUTH_DESC], found[mq.MQIACH_WARNING]) == (
        mq.MQUSRC_NOACCESS,
        "closed",
        mq.MQWARN_NO,
    )
    # a second address is a second record of the profile
    assert reason(engine.execute(addressmap("APP.SVRCONN", "10.2.0.1", CHANNEL))) == 0
    assert len(records(engine.execute(inquire("APP.SVRCONN")))) == 2
    assert reason(engine.execute(addressmap("APP.SVRCONN", "10.1.*", action=mq.MQACT_REMOVE))) == 0
    assert reason(engine.execute(addressmap("APP.SVRCONN", "10.1.*", action=mq.MQACT_REMOVE))) == mq.MQRCCF_CHLAUTH_NOT_FOUND
    assert reason(engine.execute(set_rec("APP.SVRCONN", mq.MQCAUT_ADDRESSMAP, action=mq.MQACT_REMOVEALL))) == 0
    assert reason(engine.execute(inquire("APP.SVRCONN"))) == mq.MQRCCF_CHLAUTH_NOT_FOUND
    # REMOVEALL of nothing succeeds
    assert reason(engine.execute(set_rec("APP.SVRCONN", mq.MQCAUT_ADDRESSMAP, action=mq.MQACT_REMOVEALL))) == 0


def test_block_lists_grow_with_add_and_shrink_with_remove(engine: Engine) -> None:
    def users(*names: str) -> StringList:
        return StringList(mq.MQCACH_MCA_USER_ID_LIST, names)

    assert reason(engine.execute(set_rec("APP.*", mq.MQCAUT_BLOCKUSER, users("a", "b")))) == 0
    assert reason(engine.execute(set_rec("APP.*", mq.MQCAUT_BLOCKUSER, users("b", "c")))) == 0  # ADD: into the list
    [found] = records(engine.execute(inquire("APP.*", Integer(mq.MQIACF_CHLAUTH_TYPE, mq.MQCAUT_BLOCKUSER))))
    assert found[mq.MQCACH_MCA_USER_ID_LIST] == ("a", "b", "c")
    assert reason(engine.execute(set_rec("APP.*", mq.MQCAUT_BLOCKUSER, users("z"), action=mq.MQACT_REMOVE))) == mq.MQRCCF_CHLAUTH_NOT_FOUND
    assert reason(engine.execute(set_rec("APP.*", mq.MQCAUT_BLOCKUSER, users("a", "c"), action=mq.MQACT_REMOVE))) == 0
    [found] = records(engine.execute(inquire("APP.*", Integer(mq.MQIACF_CHLAUTH_TYPE, mq.MQCAUT_BLOCKUSER))))
    assert found[mq.MQCACH_MCA_USER_ID_LIST] == ("b",)
    assert reason(engine.execute(set_rec("APP.*", mq.MQCAUT_BLOCKUSER, users("x"), action=mq.MQACT_REPLACE))) == 0
    [found] = records(engine.execute(inquire("APP.*", Integer(mq.MQIACF_CHLAUTH_TYPE, mq.MQCAUT_BLOCKUSER))))
    assert found[mq.MQCACH_MCA_USER_ID_LIST] == ("x",)
    # the last name removed takes the record with it
    assert reason(engine.execute(set_rec("APP.*", mq.MQCAUT_BLOCKUSER, users("x"), action=mq.MQACT_REMOVE))) == 0
    assert reason(engine.execute(inquire("APP.*", Integer(mq.MQIACF_CHLAUTH_TYPE, mq.MQCAUT_BLOCKUSER)))) == mq.MQRCCF_CHLAUTH_NOT_FOUND


@pytest.mark.parametrize(
    ("message", "expected", "parameter"),
    [
        # a field the TYPE does not take
        (
            addressmap("A", "*", CHANNEL, StringList(mq.MQCACH_MCA_USER_ID_LIST, ("x",))),
            mq.MQRCCF_WRONG_CHLAUTH_TYPE,
            mq.MQCACH_MCA_USER_ID_LIST,
        ),
        (addressmap("A", "*", CHANNEL, String(mq.MQCACH_CLIENT_USER_ID, "x")), mq.MQRCCF_WRONG_CHLAUTH_TYPE, mq.MQCACH_CLIENT_USER_ID),
        (
            set_rec("A", mq.MQCAUT_BLOCKUSER, StringList(mq.MQCACH_MCA_USER_ID_LIST, ("x",)), CHANNEL),
            mq.MQRCCF_WRONG_CHLAUTH_TYPE,
            mq.MQIACH_USER_SOURCE,
        ),
        (
            set_rec(
                "A",
                mq.MQCAUT_QMGRMAP,
                String(mq.MQCA_REMOTE_Q_MGR_NAME, "QM2"),
                CHANNEL,
                Integer(mq.MQIA_CHECK_CLIENT_BINDING, mq.MQCHK_REQUIRED),
            ),
            mq.MQRCCF_WRONG_CHLAUTH_TYPE,
            mq.MQIA_CHECK_CLIENT_BINDING,
        ),
        # BLOCKADDR is for every channel: its profile is '*'
        (set_rec("A", mq.MQCAUT_BLOCKADDR, StringList(mq.MQCACH_CONNECTION_NAME_LIST, ("10.*",))), mq.MQRCCF_CHLAUTH_NAME_ERROR, P),
        # a client user is never generic
        (
            set_rec("A", mq.MQCAUT_USERMAP, String(mq.MQCACH_CLIENT_USER_ID, "ap*"), CHANNEL),
            mq.MQRCCF_CHLAUTH_CLNTUSER_ERROR,
            mq.MQCACH_CLIENT_USER_ID,
        ),
        # addresses
        (addressmap("A", "10.1.2.3.4", CHANNEL), mq.MQRCCF_IPADDR_ERROR, mq.MQCACH_CONNECTION_NAME),
        (addressmap("A", "10.1.2.300", CHANNEL), mq.MQRCCF_IPADDR_ERROR, mq.MQCACH_CONNECTION_NAME),
        (addressmap("A", "10.1.2.9-3", CHANNEL), mq.MQRCCF_IPADDR_RANGE_ERROR, mq.MQCACH_CONNECTION_NAME),
        (
            set_rec("*", mq.MQCAUT_BLOCKADDR, StringList(mq.MQCACH_CONNECTION_NAME_LIST, ("host.example.com",))),
            mq.MQRCCF_IPADDR_ERROR,
            mq.MQCACH_CONNECTION_NAME_LIST,
        ),
        # USERSRC: MCAUSER with MAP only, where it is needed; WARN with NOACCESS only
        (addressmap("A", "*", CHANNEL, String(mq.MQCACH_MCA_USER_ID, "app")), mq.MQRCCF_WRONG_CHLAUTH_USERSRC, mq.MQCACH_MCA_USER_ID),
        (addressmap("A", "*"), mq.MQRCCF_PARM_MISSING, mq.MQCACH_MCA_USER_ID),
        (addressmap("A", "*", CHANNEL, Integer(mq.MQIACH_WARNING, mq.MQWARN_YES)), mq.MQRCCF_WRONG_CHLAUTH_USERSRC, mq.MQIACH_WARNING),
        # the field that names the record is required
        (set_rec("A", mq.MQCAUT_ADDRESSMAP, CHANNEL), mq.MQRCCF_PARM_MISSING, mq.MQCACH_CONNECTION_NAME),
        (set_rec("A", mq.MQCAUT_SSLPEERMAP, CHANNEL), mq.MQRCCF_PARM_MISSING, mq.MQCACH_SSL_PEER_NAME),
        # actions: REMOVE takes no descriptive field, REMOVEALL none at all
        (
            addressmap("A", "*", String(mq.MQCA_CHLAUTH_DESC, "x"), action=mq.MQACT_REMOVE),
            mq.MQRCCF_WRONG_CHLAUTH_ACTION,
            mq.MQCA_CHLAUTH_DESC,
        ),
        (addressmap("A", "*", action=mq.MQACT_REMOVEALL), mq.MQRCCF_WRONG_CHLAUTH_ACTION, mq.MQCACH_CONNECTION_NAME),
        # a profile longer than MQ_CHANNEL_NAME_LENGTH, generic or not
        (addressmap("A.VERY.LONG.PROFILE.*", "*", CHANNEL), mq.MQRCCF_CFST_STRING_LENGTH_ERR, P),
        # values outside the value sets (formats/commands.tsv)
        (set_rec("A", 99), mq.MQRCCF_CHLAUTH_TYPE_ERROR, T),
        (addressmap("A", "*", CHANNEL, action=42), mq.MQRCCF_CHLAUTH_ACTION_ERROR, mq.MQIACF_ACTION),
        (addressmap("A", "*", Integer(mq.MQIACH_USER_SOURCE, 7)), mq.MQRCCF_CHLAUTH_USERSRC_ERROR, mq.MQIACH_USER_SOURCE),
        (addressmap("A", "*", NOACCESS, Integer(mq.MQIACH_WARNING, 5)), mq.MQRCCF_CHLAUTH_WARN_ERROR, mq.MQIACH_WARNING),
    ],
)
def test_bad_set_is_refused_with_ibms_reason_and_changes_nothing(engine: Engine, message: Message, expected: int, parameter: int) -> None:
    before = everything(engine)
    answer = engine.execute(message)
    assert reason(answer) == expected
    assert answer[0].int_value(mq.MQIACF_PARAMETER_ID) == parameter
    assert everything(engine) == before


def test_ranges_of_one_profile_nest_or_stay_apart(engine: Engine) -> None:
    assert reason(engine.execute(addressmap("A", "10.0.0.1-20", CHANNEL))) == 0
    assert reason(engine.execute(addressmap("A", "10.0.0.5-9", CHANNEL))) == 0  # inside
    assert reason(engine.execute(addressmap("A", "10.0.0.30-40", CHANNEL))) == 0  # apart
    assert reason(engine.execute(addressmap("A", "10.0.0.15-35", CHANNEL))) == mq.MQRCCF_IPADDR_RANGE_CONFLICT
    assert reason(engine.execute(addressmap("B", "10.0.0.15-35", CHANNEL))) == 0  # another profile


# ---------------------------------------------------------------------------------- Inquire


def test_match_generic_exact_and_all(engine: Engine) -> None:
    for profile in ("APP.ONE", "APP.*", "OTHER"):
        assert reason(engine.execute(addressmap(profile, "*", CHANNEL))) == 0

    def profiles(name: str, match: int) -> list[object]:
        return [r[P] for r in records(engine.execute(inquire(name, Integer(mq.MQIACH_MATCH, match))))]

    assert profiles("APP.*", mq.MQMATCH_GENERIC) == ["APP.ONE", "APP.*"]
    assert profiles("APP.*", mq.MQMATCH_EXACT) == ["APP.*"]
    assert profiles("APP.ONE", mq.MQMATCH_GENERIC) == ["APP.ONE"]
    # ALL: also the generic records that would apply to the name
    assert profiles("APP.ONE", mq.MQMATCH_ALL) == ["APP.ONE", "APP.*", "*"]
    assert reason(engine.execute(inquire("APP.*", String(mq.MQCACH_CONNECTION_NAME, "1.2.3.4")))) == mq.MQRCCF_WRONG_CHLAUTH_MATCH
    assert reason(engine.execute(inquire("APP.*", Integer(T, mq.MQCAUT_BLOCKADDR)))) == mq.MQRCCF_CHLAUTH_NAME_ERROR


def test_an_attribute_list_still_returns_what_tells_records_apart(engine: Engine) -> None:
    [found] = records(engine.execute(inquire("SYSTEM.ADMIN.SVRCONN", IntegerList(mq.MQIACF_CHLAUTH_ATTRS, (mq.MQCA_ALTERATION_DATE,)))))
    assert set(found) == {P, T, mq.MQCACH_CONNECTION_NAME, mq.MQIACH_USER_SOURCE, mq.MQCA_ALTERATION_DATE}


def runcheck(engine: Engine, channel: str, address: str, **more: str) -> list[Message]:
    params: list[String | Integer] = [Integer(mq.MQIACH_MATCH, mq.MQMATCH_RUNCHECK), String(mq.MQCACH_CONNECTION_NAME, address)]
    pids = {"clntuser": mq.MQCACH_CLIENT_USER_ID, "qmname": mq.MQCA_REMOTE_Q_MGR_NAME, "sslpeer": mq.MQCACH_SSL_PEER_NAME}
    params += [String(pids[k], v) for k, v in more.items()]
    return engine.execute(inquire(channel, *params))


def test_runcheck_refuses_generic_values(engine: Engine) -> None:
    assert reason(runcheck(engine, "APP.*", "1.2.3.4", clntuser="u")) == mq.MQRCCF_CHLAUTH_RUNCHECK_ERROR
    assert reason(runcheck(engine, "APP", "1.2.*", clntuser="u")) == mq.MQRCCF_CHLAUTH_RUNCHECK_ERROR
    assert reason(runcheck(engine, "APP", "1.2.3.4", qmname="QM*")) == mq.MQRCCF_CHLAUTH_RUNCHECK_ERROR
    assert reason(runcheck(engine, "APP", "host.example.com", clntuser="u")) == mq.MQRCCF_IPADDR_ERROR


def test_runcheck_on_ibms_developer_rules(engine: Engine) -> None:
    """IBM's developer configuration: the APP channel lets applications in, privileged users are blocked
    everywhere but on the ADMIN channel, anything else meets the back-stop rule."""
    outcome = run_script(DEV_RULES, engine.execute, qmgr_name="QM1")
    assert outcome.exit_code == 0, outcome.text

    def decided(channel: str, user: str, address: str = "192.0.2.7") -> tuple[object, ...]:
        """The record that blocks or maps the connection, or ("runs as", user) when it runs without one."""
        [found] = records(runcheck(engine, channel, address, clntuser=user))
        return (found[P], found[T]) if P in found else ("runs as", found[mq.MQCACH_MCA_USER_ID])

    assert decided("DEV.APP.SVRCONN", "app") == ("runs as", "app")  # its ADDRESSMAP is USERSRC(CHANNEL)
    assert decided("DEV.APP.SVRCONN", "mqm") == ("*", mq.MQCAUT_BLOCKUSER)
    assert decided("DEV.ADMIN.SVRCONN", "admin") == ("runs as", "admin")  # USERMAP with USERSRC(CHANNEL)
    assert decided("DEV.ADMIN.SVRCONN", "mqm") == ("*", mq.MQCAUT_ADDRESSMAP)  # not admin: no USERMAP, the back-stop
    assert decided("DEV.ADMIN.SVRCONN", "nobody") == ("*", mq.MQCAUT_ADDRESSMAP)
    assert decided("SYSTEM.DEF.SVRCONN", "app") == ("SYSTEM.*", mq.MQCAUT_ADDRESSMAP)
    assert decided("SYSTEM.ADMIN.SVRCONN", "app") == ("runs as", "app")
    assert decided("SYSTEM.ADMIN.SVRCONN", "root") == ("*", mq.MQCAUT_BLOCKUSER)
    # a blocked address is refused before any mapping
    assert reason(engine.execute(set_rec("*", mq.MQCAUT_BLOCKADDR, StringList(mq.MQCACH_CONNECTION_NAME_LIST, ("192.0.2.1-9",))))) == 0
    assert decided("DEV.APP.SVRCONN", "app") == ("*", mq.MQCAUT_BLOCKADDR)
    assert decided("DEV.APP.SVRCONN", "app", "192.0.2.10") == ("runs as", "app")
    # runmqsc says it as public scripts expect it
    text = run_script("DIS CHLAUTH(DEV.APP.SVRCONN) MATCH(RUNCHECK) CLNTUSER('y.adam') ADDRESS('192.168.56.1')", engine.execute, qmgr_name="QM1").text
    assert "AMQ9783I: Channel will run using MCAUSER('y.adam').\n" in text


def test_runcheck_maps_before_blocking_the_user(engine: Engine) -> None:
    """The user a BLOCKUSER list is checked against is the one the channel runs as: a USERMAP to a plain user lets mqm in."""
    mapped = set_rec("APP", mq.MQCAUT_USERMAP, String(mq.MQCACH_CLIENT_USER_ID, "mqm"), String(mq.MQCACH_MCA_USER_ID, "app"))
    assert reason(engine.execute(mapped)) == 0
    [found] = records(runcheck(engine, "APP", "10.0.0.1", clntuser="mqm"))
    assert (found[P], found[T], found[mq.MQCACH_MCA_USER_ID]) == ("APP", mq.MQCAUT_USERMAP, "app")


# ---------------------------------------------------------------------------------- RUNCHECK against a reference model

# A small world whose specificity order is clear: profiles, addresses and users.
PROFILES = ["*", "A*", "A.*", "A.B"]
CHANNELS = ["A.B", "A.C", "AB"]
ADDRESSES = ["*", "10.*", "10.0.*.5", "10.0.0.1-9", "10.0.0.5"]
IPS = ["10.0.0.5", "10.0.0.1", "10.0.1.5", "10.9.9.9", "192.0.2.1"]
USERS = ["app", "mqm"]
# Hand-ranked, most specific first (a literal before a range before '*', left to right).
PROFILE_RANK = {"A.B": 0, "A.*": 1, "A*": 2, "*": 9}
ADDRESS_RANK = {"10.0.0.5": 0, "10.0.0.1-9": 1, "10.0.*.5": 2, "10.*": 3, "*": 4, "": 5}
TYPE_RANK = {mq.MQCAUT_USERMAP: 0, mq.MQCAUT_ADDRESSMAP: 1}


@dataclass(frozen=True)
class Rule:
    profile: str
    rtype: int
    address: str = ""
    user: str = ""
    source: int = mq.MQUSRC_CHANNEL
    mcauser: str = ""
    names: tuple[str, ...] = ()

    def message(self) -> Message:
        params: list[Integer | String | StringList] = []
        if self.rtype in (mq.MQCAUT_BLOCKUSER, mq.MQCAUT_BLOCKADDR):
            pid = mq.MQCACH_MCA_USER_ID_LIST if self.rtype == mq.MQCAUT_BLOCKUSER else mq.MQCACH_CONNECTION_NAME_LIST
            return set_rec(self.profile, self.rtype, StringList(pid, self.names), action=mq.MQACT_REPLACE)
        if self.address:
            params.append(String(mq.MQCACH_CONNECTION_NAME, self.address))
        if self.user:
            params.append(String(mq.MQCACH_CLIENT_USER_ID, self.user))
        params.append(Integer(mq.MQIACH_USER_SOURCE, self.source))
        if self.source == mq.MQUSRC_MAP:
            params.append(String(mq.MQCACH_MCA_USER_ID, self.mcauser))
        return set_rec(self.profile, self.rtype, *params, action=mq.MQACT_REPLACE)

    def ident(self) -> tuple[str, int, str, str]:
        return (self.profile, self.rtype, self.address, self.user)


def _ip_matches(pattern: str, ip: str) -> bool:
    """The model's own reading of an IPv4 pattern: ``*`` one or more parts, ``a-b`` a range."""
    if not pattern or pattern == "*":
        return True
    parts = [int(x) for x in ip.split(".")]
    regex = r"\.".join(
        r"\d+(?:\.\d+)*"
        if piece == "*"
        else f"(?:{piece})"
        if "-" not in piece
        else "(?:" + "|".join(str(n) for n in range(int(piece.split("-")[0]), int(piece.split("-")[1]) + 1)) + ")"
        for piece in pattern.split(".")
    )
    return re.fullmatch(regex, ".".join(map(str, parts))) is not None


def model(rules: list[Rule], channel: str, ip: str, user: str) -> tuple[str, int, str, str] | tuple[str, str]:
    """Which rule a client connection meets, or ("runs as", user) when it runs without a blocking or mapping one:
    IBM's precedence written plainly."""
    for rule in rules:
        if rule.rtype == mq.MQCAUT_BLOCKADDR and any(_ip_matches(a, ip) for a in rule.names):
            return rule.ident()
    candidates = [
        r
        for r in rules
        if r.rtype in TYPE_RANK
        and fnmatch.fnmatchcase(channel, r.profile)
        and _ip_matches(r.address, ip)
        and (r.rtype != mq.MQCAUT_USERMAP or r.user == user)
    ]
    best = min(candidates, key=lambda r: (PROFILE_RANK[r.profile], TYPE_RANK[r.rtype], ADDRESS_RANK[r.address]), default=None)
    if best is not None and best.source == mq.MQUSRC_NOACCESS:
        return best.ident()
    runs_as = best.mcauser if best is not None and best.source == mq.MQUSRC_MAP else user
    blocks = [r for r in rules if r.rtype == mq.MQCAUT_BLOCKUSER and fnmatch.fnmatchcase(channel, r.profile)]
    block = min(blocks, key=lambda r: PROFILE_RANK[r.profile], default=None)
    if block is not None and (runs_as in block.names or ("*MQADMIN" in block.names and runs_as in ("mqm", "root"))):
        return block.ident()
    if best is None or best.source == mq.MQUSRC_CHANNEL:
        return ("runs as", user)
    return best.ident()


mapping_rules = st.builds(
    Rule,
    profile=st.sampled_from(PROFILES),
    rtype=st.sampled_from([mq.MQCAUT_ADDRESSMAP, mq.MQCAUT_USERMAP]),
    address=st.sampled_from(ADDRESSES),
    user=st.sampled_from(USERS),
    source=st.sampled_from([mq.MQUSRC_CHANNEL, mq.MQUSRC_NOACCESS, mq.MQUSRC_MAP]),
    mcauser=st.sampled_from(USERS),
).map(
    lambda r: Rule(
        r.profile,
        r.rtype,
        r.address,
        r.user if r.rtype == mq.MQCAUT_USERMAP else "",
        r.source,
        r.mcauser if r.source == mq.MQUSRC_MAP else "",
    )
)
block_rules = st.one_of(
    st.builds(
        lambda p, names: Rule(p, mq.MQCAUT_BLOCKUSER, names=tuple(names)),
        st.sampled_from(PROFILES),
        st.lists(st.sampled_from([*USERS, "*MQADMIN"]), min_size=1, max_size=2, unique=True),
    ),
    st.builds(lambda a: Rule("*", mq.MQCAUT_BLOCKADDR, names=(a,)), st.sampled_from(["10.0.0.1-3", "192.0.2.*"])),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=st.lists(
        st.one_of(mapping_rules, block_rules),
        max_size=8,
        unique_by=lambda r: (r.profile, r.rtype, r.address if r.rtype == mq.MQCAUT_ADDRESSMAP else (r.user, r.address)),
    ),
    channel=st.sampled_from(CHANNELS),
    ip=st.sampled_from(IPS),
    user=st.sampled_from(USERS),
)
def test_runcheck_agrees_with_a_reference_model_of_ibms_precedence(rules: list[Rule], channel: str, ip: str, user: str) -> None:
    engine = open_engine()
    for rtype in (mq.MQCAUT_ADDRESSMAP, mq.MQCAUT_BLOCKUSER):  # a world of the generated rules only
        for profile in ("SYSTEM.ADMIN.SVRCONN", "SYSTEM.*", "*"):
            engine.execute(set_rec(profile, rtype, action=mq.MQACT_REMOVEALL))
    kept: dict[tuple[str, int, str, str], Rule] = {}
    for rule in rules:
        if rule.rtype == mq.MQCAUT_BLOCKADDR:
            kept = {k: r for k, r in kept.items() if r.rtype != mq.MQCAUT_BLOCKADDR}  # one BLOCKADDR record: REPLACE
        if rule.rtype == mq.MQCAUT_BLOCKUSER:
            kept = {k: r for k, r in kept.items() if not (r.rtype == mq.MQCAUT_BLOCKUSER and r.profile == rule.profile)}
        assert reason(engine.execute(rule.message())) == 0, rule
        kept[rule.ident()] = rule
    expected = model(list(kept.values()), channel, ip, user)
    [found] = records(runcheck(engine, channel, ip, clntuser=user))
    if P not in found:
        assert ("runs as", found[mq.MQCACH_MCA_USER_ID]) == expected
        return
    got = (
        found[P],
        found[T],
        found.get(mq.MQCACH_CONNECTION_NAME, "") if found[T] in TYPE_RANK else "",
        found.get(mq.MQCACH_CLIENT_USER_ID, ""),
    )
    assert got == expected


# ---------------------------------------------------------------------------------- MQSC

DEV_RULES = """\
SET CHLAUTH('DEV.APP.SVRCONN') TYPE(ADDRESSMAP) ADDRESS('*') USERSRC(CHANNEL) CHCKCLNT(REQUIRED) DESCR('Allows connection via APP channel') ACTION(REPLACE)
SET CHLAUTH('DEV.ADMIN.SVRCONN') TYPE(BLOCKUSER) USERLIST('nobody') DESCR('Allows admins on ADMIN channel') ACTION(REPLACE)
SET CHLAUTH('DEV.ADMIN.SVRCONN') TYPE(USERMAP) CLNTUSER('admin') USERSRC(CHANNEL) DESCR('Allows admin user to connect via ADMIN channel') ACTION(REPLACE)
SET CHLAUTH('*') TYPE(ADDRESSMAP) ADDRESS('*') USERSRC(NOACCESS) DESCR('Back-stop rule - Blocks everyone') ACTION(REPLACE)
"""

# runmqsc 9.4.2's DISPLAY CHLAUTH(*) ALL of a queue manager with IBM's developer configuration (object-model.md §2.4,
# [INSTANA]): the same lines, record for record, but for the alteration stamps.
RUNMQSC_942 = """\
AMQ8878I: Display channel authentication record details.
   CHLAUTH(DEV.ADMIN.SVRCONN)              TYPE(USERMAP)
   DESCR(Allows admin user to connect via ADMIN channel)
   CUSTOM( )                               ADDRESS( )
   CLNTUSER(admin)                         USERSRC(CHANNEL)
   CHCKCLNT(ASQMGR)                        ALTDATE(2025-04-22)
   ALTTIME(03.01.08)
AMQ8878I: Display channel authentication record details.
   CHLAUTH(DEV.ADMIN.SVRCONN)              TYPE(BLOCKUSER)
   DESCR(Allows admins on ADMIN channel)   CUSTOM( )
   USERLIST(nobody)                        WARN(NO)
   ALTDATE(2025-04-22)                     ALTTIME(03.01.08)
AMQ8878I: Display channel authentication record details.
   CHLAUTH(DEV.APP.SVRCONN)                TYPE(ADDRESSMAP)
   DESCR(Allows connection via APP channel)
   CUSTOM( )                               ADDRESS(*)
   USERSRC(CHANNEL)                        CHCKCLNT(REQUIRED)
   ALTDATE(2025-04-22)                     ALTTIME(03.01.08)
AMQ8878I: Display channel authentication record details.
   CHLAUTH(SYSTEM.ADMIN.SVRCONN)           TYPE(ADDRESSMAP)
   DESCR(Default rule to allow MQ Explorer access)
   CUSTOM( )                               ADDRESS(*)
   USERSRC(CHANNEL)                        CHCKCLNT(ASQMGR)
   ALTDATE(2025-04-22)                     ALTTIME(03.01.07)
AMQ8878I: Display channel authentication record details.
   CHLAUTH(SYSTEM.*)                       TYPE(ADDRESSMAP)
   DESCR(Default rule to disable all SYSTEM channels)
   CUSTOM( )                               ADDRESS(*)
   USERSRC(NOACCESS)                       WARN(NO)
   ALTDATE(2025-04-22)                     ALTTIME(03.01.07)
AMQ8878I: Display channel authentication record details.
   CHLAUTH(*)                              TYPE(ADDRESSMAP)
   DESCR(Back-stop rule - Blocks everyone)
   CUSTOM( )                               ADDRESS(*)
   USERSRC(NOACCESS)                       WARN(NO)
   ALTDATE(2025-04-22)                     ALTTIME(03.01.08)
AMQ8878I: Display channel authentication record details.
   CHLAUTH(*)                              TYPE(BLOCKUSER)
   DESCR(Default rule to disallow privileged users)
   CUSTOM( )
   USERLIST(*MQADMIN)                      WARN(NO)
   ALTDATE(2025-04-22)                     ALTTIME(03.01.07)
"""


def _stamps_out(text: str) -> str:
    """Alteration dates and times as placeholders of the same width (the layout is kept)."""
    text = re.sub(r"ALTDATE\(\d{4}-\d\d-\d\d\)", "ALTDATE(yyyy-mm-dd)", text)
    return re.sub(r"ALTTIME\(\d\d\.\d\d\.\d\d\)", "ALTTIME(hh.mm.ss)", text)


def test_ibms_developer_rules_through_the_console_show_as_runmqsc_shows_them(engine: Engine) -> None:
    outcome = run_script(DEV_RULES + "DISPLAY CHLAUTH(*) ALL\n", engine.execute, qmgr_name="QM1")
    assert outcome.exit_code == 0
    assert outcome.text.count("AMQ8877I: IBM MQ channel authentication record set.") == 4
    shown = outcome.text.split("DISPLAY CHLAUTH(*) ALL\n", 1)[1].split("5 MQSC commands read.")[0]
    assert _stamps_out(shown) == _stamps_out(RUNMQSC_942)


def test_display_answers_and_failures_in_runmqsc_words(engine: Engine) -> None:
    script = """\
DISPLAY CHLAUTH(NOPE)
SET CHLAUTH(X) TYPE(ADDRESSMAP) ADDRESS('1.2.3.4') USERSRC(CHANNEL) ACTION(REMOVE)
SET CHLAUTH(X) TYPE(ADDRESSMAP)
SET CHLAUTH(X) ADDRESS('1.2.3.4')
DIS CHLAUTH(SYSTEM.*)
"""
    text = run_script(script, engine.execute, qmgr_name="QM1").text
    assert text.count("AMQ8884E: Channel authentication record not found.") == 1
    assert "Reason 3339 MQRCCF_WRONG_CHLAUTH_ACTION for USERSRC" in text
    assert "Reason 3228 MQRCCF_PARM_MISSING for ADDRESS" in text
    assert "AMQ8405I" in text  # TYPE is required: a syntax error
    # a generic name without attributes shows only what tells records apart
    assert (
        "   CHLAUTH(SYSTEM.*)                       TYPE(ADDRESSMAP)\n   ADDRESS(*)                              USERSRC(NOACCESS)\n"
        in text
    )


mqsc_records = st.one_of(
    st.builds(
        lambda p, addr, src, user, descr: (
            f"SET CHLAUTH('{p}') TYPE(ADDRESSMAP) ADDRESS('{addr}') USERSRC({src})"
            + (f" MCAUSER('{user}')" if src == "MAP" else "")
            + (f" DESCR('{descr}')" if descr else "")
        ),
        st.sampled_from(["APP.SVRCONN", "A*", "*.X"]),
        st.sampled_from(["*", "10.0.*", "192.0.2.1-9", "2001:DB8:0:0:0:0:0:*"]),
        st.sampled_from(["MAP", "NOACCESS", "CHANNEL"]),
        st.sampled_from(["app", "Mixed.Case"]),
        st.text(alphabet="ab c'", max_size=20).map(lambda t: t.replace("'", "''")),
    ),
    st.builds(
        lambda p, users: f"SET CHLAUTH('{p}') TYPE(BLOCKUSER) USERLIST({','.join(repr(u) for u in users)})",
        st.sampled_from(["APP.SVRCONN", "*"]),
        st.lists(st.sampled_from(["nobody", "*MQADMIN", "Bob"]), min_size=1, max_size=3, unique=True),
    ),
    st.builds(
        lambda p, peer, user: f"SET CHLAUTH('{p}') TYPE(SSLPEERMAP) SSLPEER('{peer}') USERSRC(MAP) MCAUSER('{user}')",
        st.sampled_from(["TLS.CHL", "TLS.*"]),
        st.sampled_from(["CN=app,O=IBM", "CN=*,OU=Test"]),
        st.sampled_from(["app", "tls"]),
    ),
    st.builds(
        lambda p, qm, warn: f"SET CHLAUTH('{p}') TYPE(QMGRMAP) QMNAME('{qm}') USERSRC(NOACCESS) WARN({warn})",
        st.sampled_from(["TO.QM1", "*"]),
        st.sampled_from(["QM2", "QM*"]),
        st.sampled_from(["YES", "NO"]),
    ),
    st.builds(
        lambda p, user, chk: f"SET CHLAUTH('{p}') TYPE(USERMAP) CLNTUSER('{user}') USERSRC(CHANNEL) CHCKCLNT({chk})",
        st.sampled_from(["ADMIN", "AD*"]),
        st.sampled_from(["admin", "Other"]),
        st.sampled_from(["ASQMGR", "REQUIRED", "REQDADM"]),
    ),
)


def _plain(p: object) -> object:
    if isinstance(p, String):
        return (p.parameter, p.value.rstrip())
    if isinstance(p, StringList):
        return (p.parameter, tuple(v.rstrip() for v in p.values))
    return p


@settings(max_examples=80, deadline=None)
@given(texts=st.lists(mqsc_records, min_size=1, max_size=6))
def test_mqsc_set_forms_read_back_and_recreate_the_same_records(texts: list[str]) -> None:
    """Each SET CHLAUTH reads back as the same command (render then parse), and the records it makes come
    back from DISPLAY and from a dump replayed on a new queue manager exactly."""
    engine = open_engine()
    for text in texts:
        parsed = mqsc.parse(text)
        assert parsed.message is not None
        rendered = mqsc.render_command(parsed.message)
        # the same command again (trailing blanks of a string are not kept: DESCR(' ') is DESCR(''))
        again = mqsc.parse(rendered).message
        assert again is not None and mqsc.render_command(again) == rendered
        assert [_plain(p) for p in again.parameters] == [_plain(p) for p in parsed.message.parameters]
        engine.execute(parsed.message)
    script = dump(engine.execute, qmgr_name="QM1")
    replayed = open_engine()
    outcome = run_script(script, replayed.execute, qmgr_name="QM1")
    assert outcome.exit_code == 0, outcome.text

    def shown(e: Engine) -> str:
        return _stamps_out(run_script("DISPLAY CHLAUTH(*) ALL\n", e.execute, qmgr_name="QM1").text)

    assert shown(replayed) == shown(engine)


def test_rest_run_command_json_sets_and_displays(engine: Engine) -> None:
    from pcfserver.rest.admin import mqsc_text

    text, display = mqsc_text(
        {
            "type": "runCommandJSON",
            "command": "set",
            "qualifier": "chlauth",
            "name": "DEV.APP.SVRCONN",
            "parameters": {"type": "addressmap", "address": "*", "usersrc": "channel", "descr": "Allows connection via APP channel"},
        }
    )
    assert not display
    assert reason(engine.execute(mqsc.parse(text).message or Message(0))) == 0
    [found] = records(engine.execute(inquire("DEV.APP.SVRCONN")))
    assert found[mq.MQCA_CHLAUTH_DESC] == "Allows connection via APP channel"


# ---------------------------------------------------------------------------------- durability


def test_records_survive_a_restart_and_a_failed_batch_leaves_none(tmp_path: Path) -> None:
    first = open_engine(tmp_path)
    assert reason(first.execute(addressmap("KEEP", "10.*", CHANNEL, String(mq.MQCA_CHLAUTH_DESC, "kept")))) == 0
    # a batch whose second command fails: the first one stands alone (each command applies whole or not at all)
    answers = first.execute_batch([addressmap("ALSO", "*", CHANNEL), addressmap("BAD", "1.2.3.999", CHANNEL)])
    assert [reason(a) for a in answers] == [0, mq.MQRCCF_IPADDR_ERROR]
    first.close()
    second = open_engine(tmp_path)
    assert sorted(str(r[P]) for r in everything(second)) == ["*", "ALSO", "KEEP", "SYSTEM.*", "SYSTEM.ADMIN.SVRCONN"]
    [kept] = records(second.execute(inquire("KEEP")))
    assert kept[mq.MQCA_CHLAUTH_DESC] == "kept"
    second.close()


# SET CHLAUTH lines of published configurations (found with the code search: container bootstrap scripts, a Kubernetes
# ConfigMap for mutual TLS, a queue manager reset script, a client set-up guide).
PUBLISHED = """\
SET CHLAUTH('DEV.APP.SVRCONN') TYPE(BLOCKUSER) USERLIST('nobody') ACTION(REPLACE)
SET CHLAUTH('CHLAUTH.*') TYPE(BLOCKUSER) USERLIST('*NOBODY') ACTION(REPLACE)
SET CHLAUTH('EXAMPLE.ENTRYPOINT') TYPE(BLOCKUSER) USERLIST('nobody')
SET CHLAUTH('YOUR_CHANNEL_NAME') TYPE(ADDRESSMAP) ADDRESS('*') USERSRC(CHANNEL) ACTION(REPLACE)
SET CHLAUTH('QM7CHL') TYPE(SSLPEERMAP) SSLPEER('CN=mqx1') USERSRC(MAP) MCAUSER('mqx1') ACTION(ADD)
SET CHLAUTH('MTLS.SVRCONN') TYPE(SSLPEERMAP) SSLPEER('CN=*') USERSRC(NOACCESS) ACTION(REPLACE)
SET CHLAUTH('MTLS.SVRCONN') TYPE(SSLPEERMAP) SSLPEER('CN=qm-client') USERSRC(MAP) MCAUSER('app1') ACTION(REPLACE)
SET CHLAUTH(SYSTEM.ADMIN.SVRCONN) TYPE(ADDRESSMAP) ADDRESS(*) ACTION(REMOVE)
SET CHLAUTH(SYSTEM.*) TYPE(ADDRESSMAP) ADDRESS(*) ACTION(REMOVE)
SET CHLAUTH(*) TYPE(BLOCKUSER) USERLIST(*MQADMIN) ACTION(REMOVE)
"""


def test_published_set_chlauth_lines_run_and_decide(engine: Engine) -> None:
    outcome = run_script(PUBLISHED, engine.execute, qmgr_name="QM1")
    assert outcome.exit_code == 0, outcome.text
    assert outcome.text.count("AMQ8877I") == 10
    # the three default rules are gone, the TLS rules decide by certificate, the most specific DN first
    assert not [r for r in everything(engine) if str(r[P]).startswith("SYSTEM.") or r[P] == "*"]
    [client] = records(runcheck(engine, "MTLS.SVRCONN", "10.0.0.1", clntuser="app", sslpeer="CN=qm-client,O=Example"))
    assert (client[mq.MQCACH_SSL_PEER_NAME], client[mq.MQCACH_MCA_USER_ID]) == ("CN=qm-client", "app1")
    [other] = records(runcheck(engine, "MTLS.SVRCONN", "10.0.0.1", clntuser="app", sslpeer="CN=someone"))
    assert (other[mq.MQCACH_SSL_PEER_NAME], other[mq.MQIACH_USER_SOURCE]) == ("CN=*", mq.MQUSRC_NOACCESS)
    # no certificate: no SSLPEERMAP applies, and nothing else does: the channel runs as the client's user
    assert records(runcheck(engine, "MTLS.SVRCONN", "10.0.0.1", clntuser="app")) == [{mq.MQCACH_MCA_USER_ID: "app"}]


def test_runcheck_of_a_queue_manager_channel_uses_qmgrmap_and_no_block_user(engine: Engine) -> None:
    qmgrmap = set_rec("TO.QM1", mq.MQCAUT_QMGRMAP, String(mq.MQCA_REMOTE_Q_MGR_NAME, "QM*"), String(mq.MQCACH_MCA_USER_ID, "mqm"))
    assert reason(engine.execute(qmgrmap)) == 0
    [found] = records(runcheck(engine, "TO.QM1", "10.0.0.1", qmname="QM2"))
    # a queue manager's channel is not checked against BLOCKUSER (USERLIST applies to SVRCONN channels only)
    assert (found[P], found[T], found[mq.MQCACH_MCA_USER_ID]) == ("TO.QM1", mq.MQCAUT_QMGRMAP, "mqm")
    # another queue manager's name: no record applies to the channel, which runs with no user of its own
    assert records(runcheck(engine, "TO.QM1", "10.0.0.1", qmname="XQM")) == [{mq.MQCACH_MCA_USER_ID: ""}]


def test_runcheck_follows_alter_qmgr_chlauth_and_the_channels_mcauser(engine: Engine) -> None:
    """ALTER QMGR CHLAUTH(DISABLED): no record is checked (MQRCCF_CHLAUTH_DISABLED) though records are still set
    and shown; a channel that runs without a mapping record runs as its own MCAUSER when it has one."""
    script = """\
ALTER QMGR CHLAUTH(DISABLED)
DIS CHLAUTH(SYSTEM.DEF.SVRCONN) MATCH(RUNCHECK) CLNTUSER('app') ADDRESS('10.0.0.1')
SET CHLAUTH('APP') TYPE(ADDRESSMAP) ADDRESS('*') USERSRC(CHANNEL)
ALTER QMGR CHLAUTH(ENABLED)
DEFINE CHANNEL(DEV.APP.SVRCONN) CHLTYPE(SVRCONN) MCAUSER('app')
DIS CHLAUTH(DEV.APP.SVRCONN) MATCH(RUNCHECK) CLNTUSER('bob') ADDRESS('10.0.0.1')
"""
    text = run_script(script, engine.execute, qmgr_name="QM1").text
    assert "Reason 3357 MQRCCF_CHLAUTH_DISABLED." in text
    assert "AMQ8877I: IBM MQ channel authentication record set." in text
    assert "AMQ9783I: Channel will run using MCAUSER('app').\n" in text


def test_display_where_filters_records(engine: Engine) -> None:
    assert run_script(DEV_RULES, engine.execute, qmgr_name="QM1").exit_code == 0

    def shown(where: str) -> list[str]:
        text = run_script(f"DISPLAY CHLAUTH(*) WHERE({where})", engine.execute, qmgr_name="QM1").text
        return re.findall(r"CHLAUTH\(([^)]*)\) +TYPE\((\w+)\)", text)

    assert shown("USERSRC EQ NOACCESS") == [("SYSTEM.*", "ADDRESSMAP"), ("*", "ADDRESSMAP")]
    assert shown("TYPE EQ BLOCKUSER") == [("DEV.ADMIN.SVRCONN", "BLOCKUSER"), ("*", "BLOCKUSER")]
    assert shown("CHCKCLNT NE ASQMGR") == [("DEV.APP.SVRCONN", "ADDRESSMAP")]  # only records that show CHCKCLNT
    assert shown("DESCR LK 'Default*'") == [("SYSTEM.ADMIN.SVRCONN", "ADDRESSMAP"), ("SYSTEM.*", "ADDRESSMAP"), ("*", "BLOCKUSER")]
    assert shown("CHLAUTH EQ 'DEV.ADMIN.SVRCONN'") == [("DEV.ADMIN.SVRCONN", "USERMAP"), ("DEV.ADMIN.SVRCONN", "BLOCKUSER")]
    # the PCF form says the same thing back
    for where in ("USERSRC EQ NOACCESS", "DESCR LK 'Default*'", "CHLAUTH EQ 'DEV.ADMIN.SVRCONN'"):
        message = mqsc.parse(f"DISPLAY CHLAUTH(*) WHERE({where})").message
        assert message is not None and mqsc.parse(mqsc.render_command(message)).message == message
    # a PCF filter on something records do not have is refused as for any inquiry
    bad = Message(mq.MQCMD_INQUIRE_CHLAUTH_RECS, (String(P, "*"), IntegerFilter(mq.MQIA_MAX_Q_DEPTH, mq.MQCFOP_EQUAL, 1)), type=mq.MQCFT_COMMAND, version=3)
    assert reason(engine.execute(bad)) == mq.MQRCCF_CFIF_PARM_ID_ERROR


ipv4_part = st.one_of(
    st.integers(0, 255).map(str),
    st.tuples(st.integers(0, 254), st.integers(1, 40)).map(lambda t: f"{t[0]}-{min(255, t[0] + t[1])}"),
)


@st.composite
def ipv4_patterns(draw: st.DrawFn) -> str:
    parts = draw(st.lists(ipv4_part, min_size=0, max_size=4))
    if len(parts) < 4:  # an asterisk stands for the parts left out
        parts.insert(draw(st.integers(0, len(parts))), "*")
    return ".".join(parts)


@settings(max_examples=300, deadline=None)
@given(pattern=ipv4_patterns(), ip=st.tuples(*[st.sampled_from([0, 1, 5, 9, 10, 30, 200, 255])] * 4))
def test_generic_ipv4_addresses_match_as_the_reference_reads_them(pattern: str, ip: tuple[int, int, int, int]) -> None:
    from pcfserver.engine.chlauth import parse_address

    address = ".".join(map(str, ip))
    assert parse_address(pattern).matches(ip, 4) == _ip_matches(pattern, address)
