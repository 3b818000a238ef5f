"""Channel authentication records: Set Channel Authentication Record and Inquire Channel Authentication Records.

A record is a channel profile (a channel name, ``*`` anywhere making it generic), a TYPE and the
fields of that type (IBM SET CHLAUTH, q086630_; PCF q088390_ and q087440_):

==========  ==========================================  ======================================
TYPE        tells records apart                         also takes
==========  ==========================================  ======================================
BLOCKUSER   (one per profile)                           USERLIST (required), WARN
BLOCKADDR   (one; the profile must be ``*``)            ADDRLIST (required), WARN
SSLPEERMAP  SSLPEER (required), SSLCERTI, ADDRESS       USERSRC, MCAUSER, WARN
ADDRESSMAP  ADDRESS (required)                          USERSRC, MCAUSER, WARN, CHCKCLNT
USERMAP     CLNTUSER (required), ADDRESS                USERSRC, MCAUSER, WARN, CHCKCLNT
QMGRMAP     QMNAME (required), ADDRESS                  USERSRC, MCAUSER, WARN
==========  ==========================================  ======================================

and every type takes DESCR and CUSTOM.  A field the type does not take is
MQRCCF_WRONG_CHLAUTH_TYPE; MCAUSER only with USERSRC(MAP) (where it is required), WARN only
with USERSRC(NOACCESS) or a BLOCK type, CHCKCLNT not with USERSRC(NOACCESS): otherwise
MQRCCF_WRONG_CHLAUTH_USERSRC.

Actions (IBM's ACTION descriptions): ADD adds a record (MQRCCF_CHLAUTH_ALREADY_EXISTS when it
is there) or, for BLOCKUSER and BLOCKADDR, adds the names to the record's list; REPLACE sets the
record (a BLOCK list is replaced); REMOVE removes the record or, for BLOCK types, the names from
its list (the record goes with its last name; MQRCCF_CHLAUTH_NOT_FOUND when the record or a
name is not there); REMOVEALL removes every record of the TYPE for the profile, takes no other
field (MQRCCF_WRONG_CHLAUTH_ACTION) and succeeds when there is none.  REMOVE takes only the
fields that tell records apart (and the list), anything else is MQRCCF_WRONG_CHLAUTH_ACTION.

Inquire's MATCH (IBM DISPLAY CHLAUTH): GENERIC, the default, treats asterisks in the name as
wildcards over the records' profiles; EXACT returns the records of exactly that profile; ALL
returns those GENERIC returns and every generic record whose profile would apply to the name;
RUNCHECK answers what a connection with the given channel name, ADDRESS, CLNTUSER or QMNAME,
SSLPEER and SSLCERTI would meet (:func:`runcheck`), none of them generic
(MQRCCF_CHLAUTH_RUNCHECK_ERROR): the record that blocks or maps it, or, when it runs without one
(no record applies, or USERSRC(CHANNEL)), one response holding only the MCAUSER it runs as.  Records are listed most specific profile first, then by type
precedence, then most specific field first (runmqsc's order in object-model.md §2.4).

Choices where IBM's text was not found (also in formats/chlauth-attributes.tsv and commands.tsv):
a required field missing is MQRCCF_PARM_MISSING naming it; ``*MQADMIN`` stands for the users
``mqm`` and ``root`` (the privileged users of a Linux queue manager); the PCF form of RUNCHECK's
"runs as" answer (runmqsc's AMQ9783I) is a response with MQCACH_MCA_USER_ID alone; host-name
addresses are kept and shown but never match a RUNCHECK (no reverse look-up here).

Records live in :class:`ChlauthRecords` in memory and in the store's ``chlauth`` table; each
change records its undo and its store operation, so a command applies whole or not at all.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Protocol

from pcfserver import mq
from pcfserver.codec.model import Integer, IntegerFilter, Message, Parameter, String, StringFilter, StringList
from pcfserver.engine import responses
from pcfserver.engine.context import EngineView
from pcfserver.engine.filters import holds
from pcfserver.engine.responses import Reject
from pcfserver.engine.store import AnyOp, DeleteChlauth, ObjValue, PutChlauth, SetMeta, Snapshot
from pcfserver.engine.transaction import replace_entry

# The store's metadata key saying IBM's default rules were made (a registry from before records existed
# gets them at its next open; removing one later is respected).
SEEDED_KEY = "default_chlauth"

PROFILE = mq.MQCACH_CHANNEL_NAME
TYPE = mq.MQIACF_CHLAUTH_TYPE
ACTION = mq.MQIACF_ACTION
MATCH = mq.MQIACH_MATCH
ATTRS = mq.MQIACF_CHLAUTH_ATTRS
DESCR = mq.MQCA_CHLAUTH_DESC
CUSTOM = mq.MQCA_CUSTOM
SSLPEER = mq.MQCACH_SSL_PEER_NAME
SSLCERTI = mq.MQCACH_SSL_CERT_ISSUER_NAME
ADDRESS = mq.MQCACH_CONNECTION_NAME
CLNTUSER = mq.MQCACH_CLIENT_USER_ID
QMNAME = mq.MQCA_REMOTE_Q_MGR_NAME
MCAUSER = mq.MQCACH_MCA_USER_ID
USERSRC = mq.MQIACH_USER_SOURCE
CHCKCLNT = mq.MQIA_CHECK_CLIENT_BINDING
USERLIST = mq.MQCACH_MCA_USER_ID_LIST
ADDRLIST = mq.MQCACH_CONNECTION_NAME_LIST
WARN = mq.MQIACH_WARNING
ALTDATE = mq.MQCA_ALTERATION_DATE
ALTTIME = mq.MQCA_ALTERATION_TIME

BLOCKUSER = mq.MQCAUT_BLOCKUSER
BLOCKADDR = mq.MQCAUT_BLOCKADDR
SSLPEERMAP = mq.MQCAUT_SSLPEERMAP
ADDRESSMAP = mq.MQCAUT_ADDRESSMAP
USERMAP = mq.MQCAUT_USERMAP
QMGRMAP = mq.MQCAUT_QMGRMAP
BLOCK_TYPES = frozenset((BLOCKUSER, BLOCKADDR))

# The fields that tell two records of a type apart (the first is required on every action but REMOVEALL).
KEY_FIELDS: dict[int, tuple[int, ...]] = {
    BLOCKUSER: (),
    BLOCKADDR: (),
    SSLPEERMAP: (SSLPEER, SSLCERTI, ADDRESS),
    ADDRESSMAP: (ADDRESS,),
    USERMAP: (CLNTUSER, ADDRESS),
    QMGRMAP: (QMNAME, ADDRESS),
}
REQUIRED: dict[int, int] = {
    BLOCKUSER: USERLIST,
    BLOCKADDR: ADDRLIST,
    SSLPEERMAP: SSLPEER,
    ADDRESSMAP: ADDRESS,
    USERMAP: CLNTUSER,
    QMGRMAP: QMNAME,
}
_MAPPING = (USERSRC, MCAUSER, WARN)
TAKES: dict[int, tuple[int, ...]] = {
    BLOCKUSER: (DESCR, CUSTOM, USERLIST, WARN),
    BLOCKADDR: (DESCR, CUSTOM, ADDRLIST, WARN),
    SSLPEERMAP: (DESCR, CUSTOM, SSLPEER, SSLCERTI, ADDRESS, *_MAPPING),
    ADDRESSMAP: (DESCR, CUSTOM, ADDRESS, *_MAPPING, CHCKCLNT),
    USERMAP: (DESCR, CUSTOM, CLNTUSER, ADDRESS, *_MAPPING, CHCKCLNT),
    QMGRMAP: (DESCR, CUSTOM, QMNAME, ADDRESS, *_MAPPING),
}
# What a record holds for a field its command did not give.
DEFAULTS: dict[int, ObjValue] = {
    DESCR: "",
    CUSTOM: "",
    SSLPEER: "",
    SSLCERTI: "",
    ADDRESS: "",
    CLNTUSER: "",
    QMNAME: "",
    MCAUSER: "",
    USERSRC: mq.MQUSRC_MAP,
    CHCKCLNT: mq.MQCHK_AS_Q_MGR,
    USERLIST: (),
    ADDRLIST: (),
    WARN: mq.MQWARN_NO,
}
# Fields a command gives, in the order they are checked (and the order DISPLAY shows them: chlauth-attributes.tsv).
FIELDS = (DESCR, CUSTOM, SSLPEER, SSLCERTI, ADDRESS, CLNTUSER, QMNAME, MCAUSER, USERSRC, CHCKCLNT, USERLIST, ADDRLIST, WARN)
_DESCRIPTIVE = frozenset((DESCR, CUSTOM, USERSRC, MCAUSER, WARN, CHCKCLNT))
_LENGTHS = {
    PROFILE: mq.MQ_CHANNEL_NAME_LENGTH,
    DESCR: 64,
    CUSTOM: 128,
    SSLPEER: 1024,
    SSLCERTI: 1024,
    ADDRESS: 264,
    CLNTUSER: 1024,
    QMNAME: 48,
    MCAUSER: 64,
    USERLIST: 64,
    ADDRLIST: 48,
    ALTDATE: 12,
    ALTTIME: 8,
}
MAX_LIST = 100  # names in a USERLIST or ADDRLIST (IBM: "a maximum of 100")
# Type precedence when several records of one profile apply (IBM "Channel authentication records": SSLPEERMAP, then
# USERMAP or QMGRMAP, then ADDRESSMAP); the BLOCK types are listed after them.
TYPE_ORDER = {SSLPEERMAP: 0, USERMAP: 1, QMGRMAP: 1, ADDRESSMAP: 2, BLOCKUSER: 3, BLOCKADDR: 4}
# *MQADMIN in a USERLIST: the privileged users (chosen: the mqm user and root, as on a Linux queue manager).
PRIVILEGED_USERS = frozenset(("mqm", "root"))
MQADMIN = "*MQADMIN"

_PROFILE_CHARS = re.compile(r"[A-Za-z0-9._/%*]+\Z")


@dataclass(frozen=True, slots=True)
class Record:
    """One channel authentication record.  Never mutated once registered: a change makes a new one."""

    profile: str
    type: int
    attrs: dict[int, ObjValue] = field(default_factory=dict)

    @property
    def key(self) -> str:
        return record_key(self.type, self.attrs)

    @property
    def ident(self) -> tuple[str, int, str]:
        return (self.profile, self.type, self.key)

    def text(self, pid: int) -> str:
        value = self.attrs.get(pid, DEFAULTS.get(pid, ""))
        return value if isinstance(value, str) else ""

    def number(self, pid: int) -> int:
        value = self.attrs.get(pid, DEFAULTS.get(pid, 0))
        return value if isinstance(value, int) else 0

    def names(self, pid: int) -> tuple[str, ...]:
        value = self.attrs.get(pid, ())
        return tuple(str(v) for v in value) if isinstance(value, tuple) else ()


def record_key(record_type: int, attrs: dict[int, ObjValue]) -> str:
    """The text that tells records of one profile and type apart (the store's key column)."""
    return "\x1f".join(str(attrs.get(pid, "")) for pid in KEY_FIELDS[record_type])


class ChlauthRecords:
    """Every channel authentication record in memory, by (profile, type, key)."""

    __slots__ = ("by_ident",)

    def __init__(self) -> None:
        self.by_ident: dict[tuple[str, int, str], Record] = {}

    def get(self, profile: str, record_type: int, key: str) -> Record | None:
        return self.by_ident.get((profile, record_type, key))

    def of(self, profile: str, record_type: int) -> list[Record]:
        return [r for r in self.by_ident.values() if r.profile == profile and r.type == record_type]

    def ordered(self) -> list[Record]:
        """Every record, most specific profile first, then by type precedence and field specificity."""
        return sorted(self.by_ident.values(), key=order_key)


class ChlauthView(EngineView, Protocol):
    """The queue manager as the records see it (``pcfserver.engine.engine.Engine`` satisfies it): the records
    themselves, and the queue manager's attributes for its CHLAUTH switch."""

    chlauth: ChlauthRecords

    def qmgr_attrs(self) -> dict[int, int | str]: ...


class Parsed(Protocol):
    values: dict[int, object]
    filter: IntegerFilter | StringFilter | None


def handlers(engine: ChlauthView) -> dict[int, Callable[[Message, Parsed], list[Message]]]:
    """The two commands, for Engine's handler table."""
    return {
        mq.MQCMD_SET_CHLAUTH_REC: lambda command, p: set_chlauth(engine, command, p),
        mq.MQCMD_INQUIRE_CHLAUTH_RECS: lambda command, p: inquire_chlauth(engine, command, p),
    }


# ---------------------------------------------------------------------------------- generic names


@cache
def _wildcard(pattern: str) -> re.Pattern[str]:
    """``*`` as any run of characters (none included), everything else literal."""
    return re.compile(".*".join(re.escape(part) for part in pattern.split("*")) + r"\Z", re.DOTALL)


def wildcard_match(pattern: str, name: str, *, ignore_case: bool = False) -> bool:
    if "*" not in pattern:
        return pattern.casefold() == name.casefold() if ignore_case else pattern == name
    if ignore_case:
        return _wildcard(pattern.upper()).match(name.upper()) is not None
    return _wildcard(pattern).match(name) is not None


def name_specificity(pattern: str) -> str:
    """A sort key: more specific first.  Left to right, a literal character is more specific than ``*`` (the OAM's rule)."""
    return pattern.replace("*", "\U0010ffff")


# ---------------------------------------------------------------------------------- IP addresses

_STAR = (-1, -1)
_IPV4_PART = re.compile(r"(\d{1,3})(?:-(\d{1,3}))?\Z")
_IPV6_PART = re.compile(r"([0-9A-Fa-f]{1,4})(?:-([0-9A-Fa-f]{1,4}))?\Z")
_HOST = re.compile(r"[A-Za-z0-9*][A-Za-z0-9.*-]*\Z")


@dataclass(frozen=True, slots=True)
class AddressPattern:
    """A generic IP address (IBM "Generic IP addresses for channel authentication records", q086080_).

    ``parts``: per part (low, high), or ``_STAR`` for an asterisk standing for one or more parts;
    ``family``: 4, 6, 0 for a lone ``*`` (any address) or -1 for a host name (kept, never matched).
    """

    text: str
    family: int
    parts: tuple[tuple[int, int], ...]

    def matches(self, address: tuple[int, ...], family: int) -> bool:
        if self.family == 0:
            return True
        return self.family == family and _parts_match(self.parts, address)

    def specificity(self) -> tuple[tuple[int, int], ...]:
        """A sort key, more specific first: per part, an exact value before a range (narrower first) before ``*``."""
        if self.family == -1:
            return ((4, 0),)
        width = 4 if self.family in (0, 4) else 8
        fixed = sum(1 for p in self.parts if p != _STAR)
        stars = sum(1 for p in self.parts if p == _STAR)
        out: list[tuple[int, int]] = []
        for low, high in self.parts:
            if (low, high) == _STAR:
                out += [(2, 0)] * max(1, (width - fixed) // max(1, stars))
            else:
                out.append((0 if low == high else 1, high - low))
        return tuple(out)


def _parts_match(parts: Sequence[tuple[int, int]], values: Sequence[int]) -> bool:
    if not parts:
        return not values
    head = parts[0]
    if head == _STAR:
        return any(_parts_match(parts[1:], values[k:]) for k in range(1, len(values) + 1))
    return bool(values) and head[0] <= values[0] <= head[1] and _parts_match(parts[1:], values[1:])


class AddressError(ValueError):
    def __init__(self, reason: int) -> None:
        super().__init__(reason)
        self.reason = reason


def parse_address(text: str, *, hosts: bool = True) -> AddressPattern:
    """A generic IP address, or AddressError with MQRCCF_IPADDR_ERROR / MQRCCF_IPADDR_RANGE_ERROR."""
    if text == "*":
        return AddressPattern(text, 0, (_STAR,))
    if ":" in text:
        return _parse_parts(text, 6)
    if re.fullmatch(r"[0-9.*-]+", text):
        return _parse_parts(text, 4)
    if hosts and _HOST.match(text) and ".." not in text:
        return AddressPattern(text, -1, ())
    raise AddressError(mq.MQRCCF_IPADDR_ERROR)


def _parse_parts(text: str, family: int) -> AddressPattern:
    width, separator, part_re, base = (4, ".", _IPV4_PART, 10) if family == 4 else (8, ":", _IPV6_PART, 16)
    top = 255 if family == 4 else 0xFFFF
    pieces = text.split(separator)
    if family == 6 and "::" in text:
        if "*" in text or text.count("::") > 1:
            raise AddressError(mq.MQRCCF_IPADDR_ERROR)
        left, right = text.split("::")
        head = left.split(":") if left else []
        tail = right.split(":") if right else []
        if len(head) + len(tail) > 7:
            raise AddressError(mq.MQRCCF_IPADDR_ERROR)
        pieces = head + ["0"] * (8 - len(head) - len(tail)) + tail
    parts: list[tuple[int, int]] = []
    for piece in pieces:
        if piece == "*":
            if parts and parts[-1] == _STAR:
                raise AddressError(mq.MQRCCF_IPADDR_ERROR)
            parts.append(_STAR)
            continue
        found = part_re.match(piece)
        if found is None:
            raise AddressError(mq.MQRCCF_IPADDR_ERROR)
        low = int(found.group(1), base)
        high = int(found.group(2), base) if found.group(2) is not None else low
        if low > top or high > top:
            raise AddressError(mq.MQRCCF_IPADDR_ERROR)
        if found.group(2) is not None and low >= high:
            raise AddressError(mq.MQRCCF_IPADDR_RANGE_ERROR)
        parts.append((low, high))
    fixed = sum(1 for p in parts if p != _STAR)
    if fixed > width or (fixed < width and _STAR not in parts) or (fixed == width and _STAR in parts):
        raise AddressError(mq.MQRCCF_IPADDR_ERROR)
    return AddressPattern(text, family, tuple(parts))


def parse_ip(text: str) -> tuple[tuple[int, ...], int] | None:
    """A specific IPv4 or IPv6 address as numbers and its family; None when it is not one."""
    try:
        pattern = parse_address(text, hosts=False)
    except AddressError:
        return None
    if pattern.family not in (4, 6) or any(p == _STAR or p[0] != p[1] for p in pattern.parts):
        return None
    return tuple(p[0] for p in pattern.parts), pattern.family


def _ranges_conflict(a: AddressPattern, b: AddressPattern) -> bool:
    """Two addresses of one profile whose ranges overlap without one holding the other (MQRCCF_IPADDR_RANGE_CONFLICT)."""
    if a.family != b.family or a.family not in (4, 6) or len(a.parts) != len(b.parts):
        return False
    differing = [(x, y) for x, y in zip(a.parts, b.parts, strict=True) if x != y]
    if len(differing) != 1:
        return False
    (x, y) = differing[0]
    if _STAR in (x, y) or x[0] == x[1] or y[0] == y[1]:
        return False
    overlap = x[0] <= y[1] and y[0] <= x[1]
    nested = (x[0] <= y[0] and y[1] <= x[1]) or (y[0] <= x[0] and x[1] <= y[1])
    return overlap and not nested


# ---------------------------------------------------------------------------------- TLS distinguished names


def parse_dn(text: str) -> tuple[tuple[str, str], ...] | None:
    """``KEY=value,KEY=value`` (values may be quoted) as (KEY, value) pairs; None when it is not one."""
    pairs: list[tuple[str, str]] = []
    for piece in re.findall(r'(?:[^,"]|"[^"]*")+', text):
        if "=" not in piece:
            return None
        key, value = piece.split("=", 1)
        key = key.strip().upper()
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] == '"':
            value = value[1:-1]
        if not key or not re.fullmatch(r"[A-Z0-9.]+", key):
            return None
        pairs.append((key, value))
    return tuple(pairs) if pairs else None


def dn_matches(pattern: str, dn: str) -> bool:
    """Whether every attribute of an SSLPEER pattern is in the DN with a matching value (``*`` generic, case ignored)."""
    wanted = parse_dn(pattern)
    given = parse_dn(dn)
    if wanted is None or given is None:
        return False
    return all(any(k == key and wildcard_match(v, value, ignore_case=True) for key, value in given) for k, v in wanted)


def dn_specificity(pattern: str) -> tuple[int, int]:
    pairs = parse_dn(pattern) or ()
    return (-len(pairs), pattern.count("*"))


# ---------------------------------------------------------------------------------- order


def _address_key(text: str) -> tuple[tuple[int, int], ...]:
    if not text:
        return ((3, 0),)
    try:
        return parse_address(text).specificity()
    except AddressError:
        return ((4, 0),)


def order_key(record: Record) -> tuple[object, ...]:
    """Most specific profile first, then type precedence, then the type's fields most specific first."""
    within: tuple[object, ...]
    if record.type == SSLPEERMAP:
        within = (dn_specificity(record.text(SSLPEER)), record.text(SSLCERTI) == "", _address_key(record.text(ADDRESS)))
    elif record.type == USERMAP:
        within = (record.text(CLNTUSER), _address_key(record.text(ADDRESS)))
    elif record.type == QMGRMAP:
        within = (name_specificity(record.text(QMNAME)), _address_key(record.text(ADDRESS)))
    elif record.type == ADDRESSMAP:
        within = (_address_key(record.text(ADDRESS)),)
    else:
        within = ()
    return (name_specificity(record.profile), TYPE_ORDER[record.type], within, record.key)


# ---------------------------------------------------------------------------------- setup


def _stamp(engine: ChlauthView, attrs: dict[int, ObjValue]) -> dict[int, ObjValue]:
    date, clock = engine.now()
    attrs[ALTDATE] = date
    attrs[ALTTIME] = clock
    return attrs


def _new(record_type: int, given: dict[int, ObjValue]) -> dict[int, ObjValue]:
    return {pid: given.get(pid, DEFAULTS[pid]) for pid in TAKES[record_type]}


# IBM's default rules of a new queue manager (object-model.md §7: Techdoc 7041997, runmqsc output).
DEFAULT_RULES: tuple[tuple[str, int, dict[int, ObjValue]], ...] = (
    (
        "SYSTEM.ADMIN.SVRCONN",
        ADDRESSMAP,
        {ADDRESS: "*", USERSRC: mq.MQUSRC_CHANNEL, CHCKCLNT: mq.MQCHK_AS_Q_MGR, DESCR: "Default rule to allow MQ Explorer access"},
    ),
    (
        "SYSTEM.*",
        ADDRESSMAP,
        {ADDRESS: "*", USERSRC: mq.MQUSRC_NOACCESS, WARN: mq.MQWARN_NO, DESCR: "Default rule to disable all SYSTEM channels"},
    ),
    ("*", BLOCKUSER, {USERLIST: (MQADMIN,), WARN: mq.MQWARN_NO, DESCR: "Default rule to disallow privileged users"}),
)


def seed(engine: ChlauthView) -> list[AnyOp]:
    """IBM's three default rules, as a new queue manager has them."""
    ops: list[AnyOp] = []
    for profile, record_type, given in DEFAULT_RULES:
        record = Record(profile, record_type, _stamp(engine, _new(record_type, given)))
        engine.chlauth.by_ident[record.ident] = record
        ops.append(PutChlauth(profile, record_type, record.key, tuple(record.attrs.items())))
    ops.append(SetMeta(((SEEDED_KEY, "1"),)))
    return ops


def load(engine: ChlauthView, snapshot: Snapshot) -> bool:
    """The stored records into memory; whether the default rules are still to be made (an older registry)."""
    for (profile, record_type, _key), attrs in snapshot.chlauth.items():
        if record_type not in TAKES:
            continue
        record = Record(profile, record_type, {**_new(record_type, {}), **attrs})
        engine.chlauth.by_ident[record.ident] = record
    return SEEDED_KEY not in snapshot.meta


# ---------------------------------------------------------------------------------- Set


def _put(engine: ChlauthView, ident: tuple[str, int, str], record: Record | None) -> None:
    """Makes ``record`` the one at ``ident`` (None removes it): in memory now, undoable, and as a store op."""
    replace_entry(engine.record_undo, engine.chlauth.by_ident, ident, record)
    engine.record_op(DeleteChlauth(*ident) if record is None else PutChlauth(*ident, tuple(record.attrs.items())))


def _given(values: dict[int, object]) -> dict[int, ObjValue]:
    """The record fields a command gives (strings with trailing blanks gone, lists as tuples)."""
    out: dict[int, ObjValue] = {}
    for pid in FIELDS:
        if pid not in values:
            continue
        value = values[pid]
        if isinstance(value, tuple):
            out[pid] = tuple(str(v).rstrip(" ") for v in value)
        elif isinstance(value, (int, str)):
            out[pid] = value
    return out


def _check_profile(profile: str, pid: int = PROFILE) -> None:
    if not _PROFILE_CHARS.match(profile):
        raise Reject(mq.MQRCCF_PARM_VALUE_ERROR, pid)


def _check_fields(record_type: int, profile: str, given: dict[int, ObjValue]) -> None:
    """The checks every action shares: the profile, fields the type takes, and well-formed values."""
    if record_type == BLOCKADDR and profile != "*":
        raise Reject(mq.MQRCCF_CHLAUTH_NAME_ERROR, PROFILE)
    for pid in given:
        if pid not in TAKES[record_type]:
            raise Reject(mq.MQRCCF_WRONG_CHLAUTH_TYPE, pid)
    clntuser = given.get(CLNTUSER)
    if isinstance(clntuser, str) and "*" in clntuser:
        raise Reject(mq.MQRCCF_CHLAUTH_CLNTUSER_ERROR, CLNTUSER)
    for pid, hosts in ((ADDRESS, True), (ADDRLIST, False)):
        value = given.get(pid)
        texts = value if isinstance(value, tuple) else (value,) if isinstance(value, str) and value else ()
        for text in texts:
            try:
                parse_address(str(text), hosts=hosts)
            except AddressError as error:
                raise Reject(error.reason, pid) from None
    for pid in (USERLIST, ADDRLIST):
        value = given.get(pid)
        if isinstance(value, tuple):
            if len(value) > MAX_LIST:
                raise Reject(mq.MQRCCF_CHLAUTH_MAX_EXCEEDED, pid)
            if not value or any(not v for v in value):
                raise Reject(mq.MQRCCF_PARM_VALUE_ERROR, pid)
    for pid in (SSLPEER, SSLCERTI):
        value = given.get(pid)
        if isinstance(value, str) and value and parse_dn(value) is None:
            raise Reject(mq.MQRCCF_SSL_PEER_NAME_ERROR, pid)
    qmname = given.get(QMNAME)
    if isinstance(qmname, str) and qmname:
        _check_profile(qmname, QMNAME)


def _check_user_source(record_type: int, given: dict[int, ObjValue]) -> None:
    """MCAUSER only with USERSRC(MAP), where it is required; WARN only with NOACCESS (or a BLOCK type); CHCKCLNT not with NOACCESS."""
    if record_type in BLOCK_TYPES:
        return
    source = given.get(USERSRC, mq.MQUSRC_MAP)
    if source == mq.MQUSRC_MAP and not given.get(MCAUSER):
        raise Reject(mq.MQRCCF_PARM_MISSING, MCAUSER)
    if MCAUSER in given and source != mq.MQUSRC_MAP:
        raise Reject(mq.MQRCCF_WRONG_CHLAUTH_USERSRC, MCAUSER)
    if WARN in given and source != mq.MQUSRC_NOACCESS:
        raise Reject(mq.MQRCCF_WRONG_CHLAUTH_USERSRC, WARN)
    if CHCKCLNT in given and source == mq.MQUSRC_NOACCESS:
        raise Reject(mq.MQRCCF_WRONG_CHLAUTH_USERSRC, CHCKCLNT)


def _check_ranges(engine: ChlauthView, profile: str, record_type: int, given: dict[int, ObjValue], replacing: Record | None) -> None:
    address = given.get(ADDRESS)
    if not isinstance(address, str) or not address:
        return
    mine = parse_address(address)
    for other in engine.chlauth.of(profile, record_type):
        if other is replacing or not other.text(ADDRESS):
            continue
        try:
            theirs = parse_address(other.text(ADDRESS))
        except AddressError:
            continue
        if _ranges_conflict(mine, theirs):
            raise Reject(mq.MQRCCF_IPADDR_RANGE_CONFLICT, ADDRESS)


def set_chlauth(engine: ChlauthView, command: Message, p: Parsed) -> list[Message]:
    profile = p.values[PROFILE]
    record_type = p.values[TYPE]
    action = p.values.get(ACTION, mq.MQACT_ADD)
    assert isinstance(profile, str) and isinstance(record_type, int) and isinstance(action, int)
    _check_profile(profile)
    given = _given(p.values)
    _check_fields(record_type, profile, given)
    if action == mq.MQACT_REMOVEALL:
        if given:
            raise Reject(mq.MQRCCF_WRONG_CHLAUTH_ACTION, next(iter(given)))
        for record in engine.chlauth.of(profile, record_type):
            _put(engine, record.ident, None)
        return responses.success(command)
    required = REQUIRED[record_type]
    if required not in given or given[required] in ("", ()):
        raise Reject(mq.MQRCCF_PARM_MISSING, required)
    if action == mq.MQACT_REMOVE:
        return _remove(engine, command, profile, record_type, given)
    _check_user_source(record_type, given)
    key = record_key(record_type, {**DEFAULTS, **given})
    existing = engine.chlauth.get(profile, record_type, key)
    if record_type in BLOCK_TYPES:
        given_names = given[required]
        assert isinstance(given_names, tuple)
        names = tuple(str(n) for n in given_names)
        attrs: dict[int, ObjValue]
        if action == mq.MQACT_ADD and existing is not None:
            merged = existing.names(required) + tuple(n for n in names if n not in existing.names(required))
            if len(merged) > MAX_LIST:
                raise Reject(mq.MQRCCF_CHLAUTH_MAX_EXCEEDED, required)
            attrs = {**existing.attrs, **given, required: merged}
        else:
            attrs = _new(record_type, {**given, required: tuple(dict.fromkeys(names))})
    else:
        if action == mq.MQACT_ADD and existing is not None:
            raise Reject(mq.MQRCCF_CHLAUTH_ALREADY_EXISTS)
        _check_ranges(engine, profile, record_type, given, existing)
        attrs = _new(record_type, given)
    record = Record(profile, record_type, _stamp(engine, attrs))
    _put(engine, record.ident, record)
    return responses.success(command)


def _remove(engine: ChlauthView, command: Message, profile: str, record_type: int, given: dict[int, ObjValue]) -> list[Message]:
    for pid in given:
        if pid in _DESCRIPTIVE:
            raise Reject(mq.MQRCCF_WRONG_CHLAUTH_ACTION, pid)
    key = record_key(record_type, {**DEFAULTS, **given})
    existing = engine.chlauth.get(profile, record_type, key)
    if existing is None:
        raise Reject(mq.MQRCCF_CHLAUTH_NOT_FOUND)
    if record_type in BLOCK_TYPES:
        listed = REQUIRED[record_type]
        names = given[listed]
        assert isinstance(names, tuple)
        if any(n not in existing.names(listed) for n in names):
            raise Reject(mq.MQRCCF_CHLAUTH_NOT_FOUND)
        left = tuple(n for n in existing.names(listed) if n not in names)
        if left:
            _put(engine, existing.ident, Record(profile, record_type, _stamp(engine, {**existing.attrs, listed: left})))
            return responses.success(command)
    _put(engine, existing.ident, None)
    return responses.success(command)


# ---------------------------------------------------------------------------------- Inquire


# What Inquire returns even when an attribute list asks for less (q087450_): the fields that tell the record apart.
ALWAYS: dict[int, tuple[int, ...]] = {
    BLOCKUSER: (USERLIST,),
    BLOCKADDR: (ADDRLIST,),
    SSLPEERMAP: (SSLPEER, ADDRESS, MCAUSER, USERSRC),
    ADDRESSMAP: (ADDRESS, MCAUSER, USERSRC),
    USERMAP: (ADDRESS, CLNTUSER, MCAUSER, USERSRC),
    QMGRMAP: (ADDRESS, QMNAME, MCAUSER, USERSRC),
}


def shown(record: Record) -> tuple[int, ...]:
    """The fields a record reports, in display order (runmqsc 9.4 output, object-model.md §2.4)."""
    record_type = record.type
    out: list[int] = [DESCR, CUSTOM]
    if record_type == BLOCKUSER:
        return (*out, USERLIST, WARN, ALTDATE, ALTTIME)
    if record_type == BLOCKADDR:
        return (*out, ADDRLIST, WARN, ALTDATE, ALTTIME)
    if record_type == SSLPEERMAP:
        out += [SSLPEER, SSLCERTI] + ([ADDRESS] if record.text(ADDRESS) else [])
    elif record_type == ADDRESSMAP:
        out.append(ADDRESS)
    elif record_type == USERMAP:
        out += [ADDRESS, CLNTUSER]
    else:
        out += [ADDRESS, QMNAME]
    source = record.number(USERSRC)
    if source == mq.MQUSRC_MAP:
        out.append(MCAUSER)
    out.append(USERSRC)
    if source == mq.MQUSRC_NOACCESS:
        out.append(WARN)
    elif record_type in (ADDRESSMAP, USERMAP):
        out.append(CHCKCLNT)
    return (*out, ALTDATE, ALTTIME)


def _parameter(engine: ChlauthView, pid: int, value: ObjValue) -> Parameter:
    if isinstance(value, tuple):
        return StringList(pid, tuple(str(v).ljust(_LENGTHS[pid]) for v in value), engine.ccsid)
    if isinstance(value, str):
        return String(pid, value.ljust(_LENGTHS.get(pid, 0)), engine.ccsid)
    return Integer(pid, value)


def _response(engine: ChlauthView, command: Message, record: Record, chosen: frozenset[int] | None) -> Message:
    params: list[Parameter] = [String(PROFILE, record.profile.ljust(_LENGTHS[PROFILE]), engine.ccsid), Integer(TYPE, record.type)]
    always = ALWAYS[record.type]
    for pid in shown(record):
        if chosen is None or pid in chosen or pid in always:
            params.append(_parameter(engine, pid, record.attrs.get(pid, DEFAULTS.get(pid, ""))))
    return responses.ok_response(command, tuple(params))


_RUNCHECK_ONLY = (ADDRESS, CLNTUSER, QMNAME, SSLPEER, SSLCERTI)


def _passes(record: Record, f: IntegerFilter | StringFilter | None) -> bool:
    """A filter (DISPLAY CHLAUTH WHERE) on a field the record shows; one it does not show does not match."""
    if f is None:
        return True
    if f.parameter == PROFILE:
        actual: ObjValue = record.profile
    elif f.parameter == TYPE:
        actual = record.type
    elif f.parameter in shown(record):
        actual = record.attrs.get(f.parameter, DEFAULTS.get(f.parameter, ""))
    else:
        return False
    return holds(f, actual)


def inquire_chlauth(engine: ChlauthView, command: Message, p: Parsed) -> list[Message]:
    name = p.values[PROFILE]
    assert isinstance(name, str)
    match = p.values.get(MATCH, mq.MQMATCH_GENERIC)
    wanted = p.values.get(TYPE, mq.MQCAUT_ALL)
    selectors = p.values.get(ATTRS, (mq.MQIACF_ALL,))
    assert isinstance(match, int) and isinstance(wanted, int) and isinstance(selectors, tuple)
    chosen = None if mq.MQIACF_ALL in selectors else frozenset(int(s) for s in selectors)
    if match == mq.MQMATCH_RUNCHECK:
        if wanted != mq.MQCAUT_ALL:
            raise Reject(mq.MQRCCF_WRONG_CHLAUTH_MATCH, TYPE)
        found = runcheck(engine, name, p.values)
        if isinstance(found, str):  # the channel runs, as this user
            runs_as = (String(MCAUSER, found.ljust(_LENGTHS[MCAUSER]), engine.ccsid),)
            return responses.numbered([responses.ok_response(command, runs_as)])
        return responses.numbered([_response(engine, command, found, chosen)])
    for pid in _RUNCHECK_ONLY:
        if pid in p.values:
            raise Reject(mq.MQRCCF_WRONG_CHLAUTH_MATCH, pid)
    _check_profile(name)
    if wanted == BLOCKADDR and name != "*":  # IBM: "you must set the generic channel name to a single asterisk"
        raise Reject(mq.MQRCCF_CHLAUTH_NAME_ERROR, PROFILE)
    out = []
    for record in engine.chlauth.ordered():
        if wanted != mq.MQCAUT_ALL and record.type != wanted:
            continue
        if match == mq.MQMATCH_EXACT:
            selected = record.profile == name
        elif match == mq.MQMATCH_ALL:
            selected = wildcard_match(name, record.profile) or wildcard_match(record.profile, name)
        else:
            selected = wildcard_match(name, record.profile)
        if selected and _passes(record, p.filter):
            out.append(_response(engine, command, record, chosen))
    if not out:
        raise Reject(mq.MQRCCF_CHLAUTH_NOT_FOUND)
    return responses.numbered(out)


# ---------------------------------------------------------------------------------- RUNCHECK


@dataclass(frozen=True, slots=True)
class Connection:
    """What a channel start presents: the channel name, the partner's IP address, the client user or remote queue
    manager, and the TLS peer and issuer names (empty when not given)."""

    channel: str
    address: tuple[int, ...]
    family: int
    clntuser: str = ""
    qmname: str = ""
    sslpeer: str = ""
    sslcerti: str = ""


def _is_generic(text: str) -> bool:
    return "*" in text


def connection_of(name: str, values: dict[int, object]) -> Connection:
    """The connection a RUNCHECK inquiry describes; Reject when a value is missing, generic or not an IP address."""
    texts = {pid: str(values[pid]) for pid in _RUNCHECK_ONLY if pid in values}
    if _is_generic(name):
        raise Reject(mq.MQRCCF_CHLAUTH_RUNCHECK_ERROR, PROFILE)
    _check_profile(name)
    address = texts.get(ADDRESS, "")
    if not address:
        raise Reject(mq.MQRCCF_PARM_MISSING, ADDRESS)
    if not texts.get(CLNTUSER) and not texts.get(QMNAME):
        raise Reject(mq.MQRCCF_PARM_MISSING, CLNTUSER)
    for pid, text in texts.items():
        if _is_generic(text) or (pid == ADDRESS and "-" in text):
            raise Reject(mq.MQRCCF_CHLAUTH_RUNCHECK_ERROR, pid)
    parsed = parse_ip(address)
    if parsed is None:
        raise Reject(mq.MQRCCF_IPADDR_ERROR, ADDRESS)
    return Connection(
        name, parsed[0], parsed[1], texts.get(CLNTUSER, ""), texts.get(QMNAME, ""), texts.get(SSLPEER, ""), texts.get(SSLCERTI, "")
    )


def _address_ok(record: Record, connection: Connection) -> bool:
    text = record.text(ADDRESS)
    if not text:
        return True
    try:
        pattern = parse_address(text)
    except AddressError:
        return False
    return pattern.matches(connection.address, connection.family)


def mapping_applies(record: Record, connection: Connection) -> bool:
    """Whether a mapping record (SSLPEERMAP, USERMAP, QMGRMAP, ADDRESSMAP) matches the connection."""
    if not wildcard_match(record.profile, connection.channel) or not _address_ok(record, connection):
        return False
    if record.type == SSLPEERMAP:
        issuer = record.text(SSLCERTI)
        return (
            bool(connection.sslpeer)
            and dn_matches(record.text(SSLPEER), connection.sslpeer)
            and (not issuer or (bool(connection.sslcerti) and dn_matches(issuer, connection.sslcerti)))
        )
    if record.type == USERMAP:
        return bool(connection.clntuser) and record.text(CLNTUSER) == connection.clntuser
    if record.type == QMGRMAP:
        return bool(connection.qmname) and wildcard_match(record.text(QMNAME), connection.qmname)
    return record.type == ADDRESSMAP


def user_blocked(names: Iterable[str], user: str) -> bool:
    return any(n == user or (n == MQADMIN and user in PRIVILEGED_USERS) for n in names)


def decide(records: Iterable[Record], connection: Connection) -> Record | None:
    """The record a connection meets (IBM "Channel authentication records": how records are matched).

    1. A BLOCKADDR record listing the address blocks it before anything else.
    2. Of the mapping records that match, the one whose profile matches the channel most specifically;
       among those of that profile, SSLPEERMAP before USERMAP or QMGRMAP before ADDRESSMAP; within a type,
       the most specific (:func:`order_key`).  USERSRC(NOACCESS) there decides.
    3. A client connection (CLNTUSER) then meets the BLOCKUSER record of the most specific profile matching
       the channel: the user it will run as (MCAUSER when mapped, else the client user) in its list blocks it.
    4. Otherwise the mapping record decides; None when nothing applies.
    """
    ordered = sorted(records, key=order_key)
    for record in ordered:
        if record.type == BLOCKADDR:
            for text in record.names(ADDRLIST):
                try:
                    if parse_address(text, hosts=False).matches(connection.address, connection.family):
                        return record
                except AddressError:
                    continue
    mapping = next((r for r in ordered if r.type not in BLOCK_TYPES and mapping_applies(r, connection)), None)
    if mapping is not None and mapping.number(USERSRC) == mq.MQUSRC_NOACCESS:
        return mapping
    if connection.clntuser:
        user = mapping.text(MCAUSER) if mapping is not None and mapping.number(USERSRC) == mq.MQUSRC_MAP else connection.clntuser
        block = next((r for r in ordered if r.type == BLOCKUSER and wildcard_match(r.profile, connection.channel)), None)
        if block is not None and user_blocked(block.names(USERLIST), user):
            return block
    return mapping


def _channel_mcauser(engine: ChlauthView, name: str) -> str:
    """The MCAUSER of the channel definition of that name, when the registry keeps channels (blank otherwise)."""
    channel = engine.objects.get(mq.MQOT_CHANNEL, name)
    value = channel.attrs.get(MCAUSER) if channel is not None else None
    return value.strip() if isinstance(value, str) else ""


def outcome(engine: ChlauthView, connection: Connection, found: Record | None) -> Record | str:
    """What RUNCHECK answers: the record that blocks or maps the connection, or the user the channel runs as when
    it runs without one (no record applies, or USERSRC(CHANNEL)): the channel's MCAUSER, else the client's user.
    runmqsc prints the latter as ``AMQ9783I: Channel will run using MCAUSER('...')`` (public scripts check for it
    after ``DISPLAY CHLAUTH(DEV.APP.SVRCONN) MATCH(RUNCHECK)`` on IBM's developer rules, whose record is CHANNEL)."""
    if found is not None and (found.type in BLOCK_TYPES or found.number(USERSRC) != mq.MQUSRC_CHANNEL):
        return found
    return _channel_mcauser(engine, connection.channel) or connection.clntuser


def runcheck(engine: ChlauthView, name: str, values: dict[int, object]) -> Record | str:
    """What a connection would meet (:func:`outcome`); MQRCCF_CHLAUTH_DISABLED when the queue manager's CHLAUTH attribute
    (MQIA_CHLAUTH_RECORDS, when its table has it) is DISABLED: no record is checked then (K: IBM's text for 3357
    says a command "not permitted when channel authentication records are disabled")."""
    if engine.qmgr_attrs().get(mq.MQIA_CHLAUTH_RECORDS) == mq.MQCHLA_DISABLED:
        raise Reject(mq.MQRCCF_CHLAUTH_DISABLED)
    connection = connection_of(name, values)
    return outcome(engine, connection, decide(engine.chlauth.by_ident.values(), connection))
