"""Why was this refused?  The object authority manager's decision for one user, object and operation, explained
(sans-IO): which of the user's and groups' authority records decided, and the SET AUTHREC that would allow it.

The decision is the engine's own (``AuthorityRecords.deciding``, the same most-specific-profile-per-entity rule
``operation_allowed`` applies, the union over the user and its groups); this module only lays it out and words
the command.  A read-only administrator (MQWebAdminRO) may display, inquire and browse whatever the records say;
no identity at all (MQWebAdmin, or no users) is the server's own authority and may do everything.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from pcfserver import mq
from pcfserver.dialects.keywords import word_for, words_of
from pcfserver.engine.authority import READ_ONLY_AUTHS, AuthorityRecords, Identity, entities_of, object_authorities
from pcfserver.tables import read_table, value_of

SERVER = "server"  # no identity: the server's own authority
READ_ONLY = "read-only"  # MQWebAdminRO
RECORDS = "records"  # the authority records decide


@dataclass(frozen=True, slots=True)
class EntityVerdict:
    """What one entity (the user, or one of its groups) holds on the object, and the profile that gave it."""

    entity_type: int  # MQZAET_PRINCIPAL or MQZAET_GROUP
    entity: str
    profile: str | None  # the most specific matching profile of this entity; None: no record of it matches
    auths: frozenset[int]

    @property
    def kind(self) -> str:
        return "user" if self.entity_type == mq.MQZAET_PRINCIPAL else "group"

    @property
    def grants(self) -> tuple[str, ...]:
        return auth_words(self.auths)


@dataclass(frozen=True, slots=True)
class Explanation:
    allowed: bool
    basis: str  # SERVER, READ_ONLY or RECORDS
    object_type: int
    name: str
    auth: int
    entities: tuple[EntityVerdict, ...]  # the user first, then each group
    fixes: tuple[str, ...]  # SET AUTHREC commands, any one of which would allow it (empty when allowed)

    @property
    def granted(self) -> frozenset[int]:
        out: set[int] = set()
        for entity in self.entities:
            out |= entity.auths
        return frozenset(out)

    @property
    def deciding(self) -> tuple[EntityVerdict, ...]:
        """The entities whose records grant the authority (allowed), or every entity with a matching record (refused)."""
        if self.allowed:
            return tuple(e for e in self.entities if self.auth in e.auths)
        return tuple(e for e in self.entities if e.profile is not None)


@cache
def _auth_words() -> dict[int, str]:
    return {value: word for word, value in words_of(mq.MQIACF_AUTHORIZATION_LIST).items() if isinstance(value, int)}


@cache
def _object_words() -> dict[str, int]:
    return {word: value for word, value in words_of(mq.MQIACF_OBJECT_TYPE).items() if isinstance(value, int)}


def auth_word(auth: int) -> str:
    return _auth_words().get(auth, str(auth))


def auth_words(auths: frozenset[int]) -> tuple[str, ...]:
    """MQSC authority words in the MQAUTH_* order DISPLAY AUTHREC shows them."""
    return tuple(auth_word(a) for a in sorted(auths))


def object_word(object_type: int) -> str:
    return str(word_for(mq.MQIACF_OBJECT_TYPE, object_type) or object_type)


def object_types() -> dict[str, int]:
    """OBJTYPE words of the object types authority records are kept for -> MQOT_*."""
    kept = object_authorities()
    return {word: value for word, value in _object_words().items() if value in kept}


def operations(object_type: int) -> tuple[str, ...]:
    """The authority words an object type takes (PUT, GET, BROWSE ... for a queue), in MQAUTH_* order."""
    return auth_words(object_authorities().get(object_type, frozenset()))


@cache
def usual_operations() -> dict[str, str]:
    """OBJTYPE word -> the authority word a question about that type starts from (formats/authrec-object-types.tsv's
    ``usual``: PUT on a queue, CONNECT on the queue manager, PUB on a topic)."""
    usual = {value_of(row["object_type"]): value_of(row["usual"]) for row in read_table("authrec-object-types.tsv") if row.get("usual")}
    return {word: auth_word(usual[value]) for word, value in object_types().items() if value in usual}


def parse_auth(word: str) -> int | None:
    value = words_of(mq.MQIACF_AUTHORIZATION_LIST).get(word.strip().upper())
    return value if isinstance(value, int) and value not in (mq.MQAUTH_NONE, mq.MQAUTH_ALL, mq.MQAUTH_ALL_ADMIN, mq.MQAUTH_ALL_MQI) else None


def quoted(text: str) -> str:
    """An MQSC quoted string (a quote inside doubled)."""
    return "'" + text.replace("'", "''") + "'"


def set_authrec(profile: str, object_type: int, entity_type: int, entity: str, auths: tuple[int, ...]) -> str:
    """SET AUTHREC ... AUTHADD(...) as runmqsc takes it (no PROFILE for the queue manager)."""
    who = "PRINCIPAL" if entity_type == mq.MQZAET_PRINCIPAL else "GROUP"
    where = "" if object_type == mq.MQOT_Q_MGR else f"PROFILE({quoted(profile)}) "
    return f"SET AUTHREC {where}OBJTYPE({object_word(object_type)}) {who}({quoted(entity)}) AUTHADD({', '.join(auth_word(a) for a in auths)})"


def explain(records: AuthorityRecords, identity: Identity | None, object_type: int, name: str, auth: int) -> Explanation:
    """The decision ``operation_allowed`` makes, with the records behind it and, when refused, how to allow it.

    A fix adds the authority to the most specific profile of the entity that matches the object (adding it to a
    less specific one would not count while that profile exists), or to the object's own name when the entity
    has none."""
    if identity is None:
        return Explanation(True, SERVER, object_type, name, auth, (), ())
    entities = []
    for entity_type, entity in entities_of(identity):
        found = records.deciding(entity_type, entity, object_type, name)
        entities.append(EntityVerdict(entity_type, entity, found[0] if found else None, found[1] if found else frozenset()))
    if identity.read_only:
        return Explanation(auth in READ_ONLY_AUTHS, READ_ONLY, object_type, name, auth, tuple(entities), ())
    allowed = any(auth in e.auths for e in entities)
    fixes: tuple[str, ...] = ()
    if not allowed:
        fixes = tuple(set_authrec(e.profile or name, object_type, e.entity_type, e.entity, (auth,)) for e in entities)
    return Explanation(allowed, RECORDS, object_type, name, auth, tuple(entities), fixes)
