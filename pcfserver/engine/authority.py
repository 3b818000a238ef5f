"""Who may do what: identities, authority records as MQ's object authority manager keeps them, and the
authority each PCF command and MQI call needs (sans-IO).

An identity of ``None`` is the server's own authority: everything is allowed (today's behaviour for
an unauthenticated loopback server and for MQWebAdmin over REST).  A read-only identity
(MQWebAdminRO) may display, inquire and browse, under the server's authority.  Any other identity
(MQWebUser, a PCF client certificate mapped to a user) is checked against the authority records of
its user and groups: what they do not grant is MQRC_NOT_AUTHORIZED (2035).

Profiles follow the OAM's generic rules: ``?`` one character, ``*`` any characters within one
qualifier (between periods), ``**`` (once in a profile) zero or more qualifiers, so ``APP.**``
covers ``APP`` and ``APP.X.Y``; a name without wildcards is a specific profile.  Of the profiles that match an object, each entity's most specific one counts
(a specific profile, then the profile with the most literal characters); the user's authority is
the union over the user and its groups.  The authorities each command needs are the rows of
``formats/command-authorities.tsv``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from pcfserver import kinds, mq
from pcfserver.tables import read_table, value_of

ADMIN_AUTHS = frozenset((mq.MQAUTH_CHANGE, mq.MQAUTH_CLEAR, mq.MQAUTH_CREATE, mq.MQAUTH_DELETE, mq.MQAUTH_DISPLAY, mq.MQAUTH_CONTROL, mq.MQAUTH_CONTROL_EXTENDED))
MQI_AUTHS = frozenset(
    (
        mq.MQAUTH_ALT_USER_AUTHORITY,
        mq.MQAUTH_BROWSE,
        mq.MQAUTH_CONNECT,
        mq.MQAUTH_INPUT,
        mq.MQAUTH_INQUIRE,
        mq.MQAUTH_OUTPUT,
        mq.MQAUTH_PASS_ALL_CONTEXT,
        mq.MQAUTH_PASS_IDENTITY_CONTEXT,
        mq.MQAUTH_SET,
        mq.MQAUTH_SET_ALL_CONTEXT,
        mq.MQAUTH_SET_IDENTITY_CONTEXT,
    )
)
ALL_AUTHS = ADMIN_AUTHS | MQI_AUTHS | frozenset((mq.MQAUTH_PUBLISH, mq.MQAUTH_SUBSCRIBE, mq.MQAUTH_RESUME, mq.MQAUTH_SYSTEM))
# What a read-only administrator (MQWebAdminRO) may do.
READ_ONLY_AUTHS = frozenset((mq.MQAUTH_DISPLAY, mq.MQAUTH_INQUIRE, mq.MQAUTH_BROWSE))
_GROUPS = (mq.MQAUTH_NONE, mq.MQAUTH_ALL, mq.MQAUTH_ALL_ADMIN, mq.MQAUTH_ALL_MQI)


@cache
def object_authorities() -> dict[int, frozenset[int]]:
    """The object types authority records are kept for and the authorities each takes (formats/authrec-object-types.tsv)."""
    return {value_of(row["object_type"]): frozenset(map(value_of, row["authorities"].split())) for row in read_table("authrec-object-types.tsv")}


OBJECT_TYPES = frozenset(object_authorities())


def expand(auths: Iterable[int], object_type: int | None = None) -> frozenset[int]:
    """MQAUTH_ALL, MQAUTH_ALL_ADMIN and MQAUTH_ALL_MQI stand for their members (those the object type takes, when given)."""
    out: set[int] = set()
    for a in auths:
        if a == mq.MQAUTH_ALL:
            out |= ALL_AUTHS
        elif a == mq.MQAUTH_ALL_ADMIN:
            out |= ADMIN_AUTHS
        elif a == mq.MQAUTH_ALL_MQI:
            out |= MQI_AUTHS
        elif a != mq.MQAUTH_NONE:
            out.add(a)
    if object_type is not None:
        out &= object_authorities().get(object_type, ALL_AUTHS)
    return frozenset(out)


def valid_auth(value: int, object_type: int | None = None) -> bool:
    """Whether an authority may be given (to an object type: one it takes, or a group word)."""
    if value in _GROUPS:
        return True
    if object_type is not None:
        return value in object_authorities().get(object_type, frozenset())
    return value in ALL_AUTHS


@dataclass(frozen=True, slots=True)
class Identity:
    """Who asks: a user, its groups, and whether it is a read-only administrator."""

    user: str
    groups: tuple[str, ...] = ()
    read_only: bool = False


_PROFILE_CHARS = re.compile(r"[A-Za-z0-9./_%*?]{1,48}\Z")


# The OAM's class profile of an object type: who may create objects of that type (IBM's setmqaut changes "a profile,
# object, or class of objects"; dmpmqcfg writes its CRT grants as SET AUTHREC PROFILE('@CLASS'), DISPLAY AUTHREC
# shows PROFILE(@class)).
CLASS_PROFILE = "@class"


def profile_name(profile: str) -> str:
    """A profile as the records keep it: the class profile in any case as ``@class``, any other as given."""
    return CLASS_PROFILE if profile.lower() == CLASS_PROFILE else profile


def valid_profile(profile: str) -> bool:
    if profile == CLASS_PROFILE:
        return True
    return bool(_PROFILE_CHARS.match(profile)) and "***" not in profile and profile.count("**") <= 1


@cache
def _pattern(profile: str) -> re.Pattern[str]:
    out = []
    i = 0
    while i < len(profile):
        # ``**`` as a whole qualifier stands for zero or more qualifiers, so A.** covers A itself
        if profile.startswith("**.", i) and (i == 0 or profile[i - 1] == "."):
            out.append(r"(?:.*\.)?")
            i += 3
        elif profile.startswith(".**", i) and i + 3 == len(profile):
            out.append(r"(?:\..*)?")
            i += 3
        elif profile.startswith("**", i):
            out.append(".*")
            i += 2
        elif profile[i] == "*":
            out.append(r"[^.]*")
            i += 1
        elif profile[i] == "?":
            out.append(r"[^.]")
            i += 1
        else:
            out.append(re.escape(profile[i]))
            i += 1
    return re.compile("".join(out) + r"\Z")


def is_generic(profile: str) -> bool:
    return "*" in profile or "?" in profile


def profile_matches(profile: str, name: str) -> bool:
    """Whether an OAM profile (specific or generic) covers an object name."""
    if not is_generic(profile):
        return profile == name
    return _pattern(profile).match(name) is not None


def _specificity(profile: str) -> tuple[int, int]:
    return (0 if is_generic(profile) else 1, len(profile.replace("*", "").replace("?", "")))


def entities_of(identity: Identity) -> list[tuple[int, str]]:
    """The entities whose records count for an identity: its user, then each of its groups."""
    return [(mq.MQZAET_PRINCIPAL, identity.user), *((mq.MQZAET_GROUP, g) for g in identity.groups)]


def no_groups(user: str) -> tuple[str, ...]:
    return ()


RecordKey = tuple[str, int, int, str]  # profile, object type, entity type, entity


class Records(dict[RecordKey, frozenset[int]]):
    """The records by key, indexed by entity (what a check reads) and by profile (what a DELETE removes), so neither
    reads every record: a check looks up the entity's specific profile for the name and reads only its generic ones,
    whatever else the queue manager holds.  Every way of changing a dict keeps the indexes (the engine, its undo
    records and tests change the records as a dict)."""

    def __init__(self, items: dict[RecordKey, frozenset[int]] | None = None) -> None:
        super().__init__()
        # (object type, entity type, entity) -> profile -> authorities: specific profiles, and generic ones apart
        self.by_entity: dict[tuple[int, int, str], dict[str, frozenset[int]]] = {}
        self.generic_by_entity: dict[tuple[int, int, str], dict[str, frozenset[int]]] = {}
        self.by_profile: dict[tuple[str, int], set[tuple[int, str]]] = {}  # (profile, object type) -> entities
        if items:
            self.update(items)

    def __setitem__(self, key: RecordKey, auths: frozenset[int]) -> None:
        super().__setitem__(key, auths)
        profile, otype, etype, who = key
        index = self.generic_by_entity if is_generic(profile) else self.by_entity
        index.setdefault((otype, etype, who), {})[profile] = auths
        self.by_profile.setdefault((profile, otype), set()).add((etype, who))

    def __delitem__(self, key: RecordKey) -> None:
        super().__delitem__(key)
        profile, otype, etype, who = key
        index = self.generic_by_entity if is_generic(profile) else self.by_entity
        own = index[(otype, etype, who)]
        del own[profile]
        if not own:
            del index[(otype, etype, who)]
        entities = self.by_profile[(profile, otype)]
        entities.discard((etype, who))
        if not entities:
            del self.by_profile[(profile, otype)]

    _MISSING = object()

    def pop(self, key: RecordKey, default: Any = _MISSING) -> Any:
        if key in self:
            auths = self[key]
            del self[key]
            return auths
        if default is Records._MISSING:
            raise KeyError(key)
        return default

    def update(self, *args: Any, **kwargs: Any) -> None:
        for key, auths in dict(*args, **kwargs).items():
            self[key] = auths

    def setdefault(self, key: RecordKey, default: frozenset[int] = frozenset()) -> frozenset[int]:
        if key not in self:
            self[key] = default
        return self[key]

    def clear(self) -> None:
        super().clear()
        self.by_entity.clear()
        self.generic_by_entity.clear()
        self.by_profile.clear()

    def popitem(self) -> tuple[RecordKey, frozenset[int]]:
        key = next(reversed(self.keys()))
        return key, self.pop(key)

    def __ior__(self, other: Any) -> Records:  # type: ignore[override,misc]
        self.update(other)
        return self


@dataclass(slots=True)
class AuthorityRecords:
    """Authority records: (profile, object type, entity type, entity) -> authorities.

    ``groups_of``: the groups a principal belongs to, for the commands that name a principal and count its groups
    (Inquire Entity Authority, Inquire Authority Records with MQAUTHOPT_ENTITY_SET); the server sets it from its
    users store.  Checks of a request's identity use the groups the identity carries."""

    records: Records = field(default_factory=Records)
    groups_of: Callable[[str], tuple[str, ...]] = no_groups

    def of_object(self, profile: str, object_type: int) -> list[RecordKey]:
        """The keys of the records whose profile is exactly ``profile`` on ``object_type``."""
        return [(profile, object_type, etype, who) for etype, who in self.records.by_profile.get((profile, object_type), ())]

    def deciding(self, entity_type: int, entity: str, object_type: int, name: str) -> tuple[str, frozenset[int]] | None:
        """The entity's most specific profile that matches the object, with its authorities (None: no profile does)."""
        entity_key = (object_type, entity_type, entity)
        specific = self.records.by_entity.get(entity_key)
        if specific is not None and name in specific:  # a specific profile is more specific than any generic one
            return name, specific[name]
        best: tuple[tuple[int, int], str, frozenset[int]] | None = None
        for profile, auths in self.records.generic_by_entity.get(entity_key, {}).items():
            if not profile_matches(profile, name):
                continue
            rank = _specificity(profile)
            if best is None or rank > best[0]:
                best = (rank, profile, auths)
        return None if best is None else (best[1], best[2])

    def authorities(self, identity: Identity, object_type: int, name: str) -> frozenset[int]:
        """What the identity may do to an object: per entity, its most specific matching profile."""
        return self.granted(entities_of(identity), object_type, name)

    def granted(self, entities: Iterable[tuple[int, str]], object_type: int, name: str) -> frozenset[int]:
        """The union over the entities of what each may do to an object (its most specific matching profile); for a
        generic ``name``, what each one's record of that very profile grants."""
        out: set[int] = set()
        generic = is_generic(name)
        for entity_type, entity in entities:
            if generic:
                out |= self.records.get((name, object_type, entity_type, entity), frozenset())
                continue
            found = self.deciding(entity_type, entity, object_type, name)
            if found is not None:
                out |= found[1]
        return frozenset(out)

    def principal_entities(self, user: str) -> list[tuple[int, str]]:
        """A principal and the groups it belongs to, as entities."""
        return entities_of(Identity(user, self.groups_of(user)))

    def allows(self, identity: Identity, object_type: int, name: str, auth: int) -> bool:
        return auth in self.authorities(identity, object_type, name)

    def class_allows(self, identity: Identity, object_type: int, auth: int) -> bool:
        """Whether the identity's records of the object type's class profile (``@class``, that very record: no generic
        profile stands for it) grant ``auth``."""
        records = self.records
        return any(auth in records.get((CLASS_PROFILE, object_type, etype, who), ()) for etype, who in entities_of(identity))

    def matching(
        self, profile: str, object_type: int | None, options: int, entity: str | None, entity_type: int | None
    ) -> list[tuple[tuple[str, int, int, str], frozenset[int]]]:
        """Records Inquire Authority Records reports, sorted by profile, type and entity.  With MQAUTHOPT_ENTITY_SET a
        principal's groups count as the principal (the records that make up its authority)."""
        members: set[tuple[int, str]] = set()
        if entity is not None and options & mq.MQAUTHOPT_ENTITY_SET and entity_type in (None, mq.MQZAET_NONE, mq.MQZAET_PRINCIPAL):
            members = {(mq.MQZAET_GROUP, g) for g in self.groups_of(entity)}
        out = []
        for key, auths in self.records.items():
            rprofile, otype, etype, who = key
            if object_type not in (None, mq.MQOT_ALL) and otype != object_type:
                continue
            if options & mq.MQAUTHOPT_NAME_ALL_MATCHING:
                if not profile_matches(rprofile, profile) and rprofile != profile:
                    continue
            elif options & mq.MQAUTHOPT_NAME_AS_WILDCARD:
                if not profile_matches(profile, rprofile):
                    continue
            elif rprofile != profile:
                continue
            if (
                entity is not None
                and (who != entity or (entity_type not in (None, mq.MQZAET_NONE) and etype != entity_type))
                and (etype, who) not in members
            ):
                continue
            out.append((key, auths))
        return sorted(out, key=lambda item: item[0])


@dataclass(frozen=True, slots=True)
class Requirement:
    """One authority a command needs: on which object (the queue manager, or a queue named by a parameter)."""

    object_type: int
    name_parameter: int | None  # None: the queue manager itself
    auth: int


@cache
def requirements() -> dict[int, tuple[Requirement, ...]]:
    """Per command code, the authorities it needs (formats/command-authorities.tsv)."""
    out: dict[int, list[Requirement]] = {}
    for row in kinds.expand_rows(read_table("command-authorities.tsv")):
        name = row["name_parameter"]
        out.setdefault(value_of(row["command"]), []).append(
            Requirement(value_of(row["object_type"]), value_of(name) if name else None, value_of(row["authority"]))
        )
    return {k: tuple(v) for k, v in out.items()}


def command_allowed(
    records: AuthorityRecords, identity: Identity | None, command: int, values: dict[int, object], qmgr: str
) -> bool:
    """Whether the identity may run the command (its parameters already checked); None may do anything."""
    if identity is None:
        return True
    needed = requirements().get(command)
    if needed is None:
        return False  # a command without a row is refused to every identity but the server's own
    for req in needed:
        if identity.read_only:
            if req.auth not in READ_ONLY_AUTHS:
                return False
            continue
        name = qmgr if req.name_parameter is None else values.get(req.name_parameter)
        if req.auth == mq.MQAUTH_DISPLAY and isinstance(name, str) and name.endswith("*"):
            continue  # a generic inquiry runs; it reports only the objects the identity may display
        if not isinstance(name, str):
            return False
        if not records.allows(identity, req.object_type, name, req.auth) and not (
            req.auth == mq.MQAUTH_CREATE and records.class_allows(identity, req.object_type, req.auth)
        ):
            return False
    return True


def operation_allowed(records: AuthorityRecords, identity: Identity | None, object_type: int, name: str, auth: int) -> bool:
    """Whether the identity may make an MQI call needing ``auth`` on an object."""
    if identity is None:
        return True
    if identity.read_only:
        return auth in READ_ONLY_AUTHS
    return records.allows(identity, object_type, name, auth)
