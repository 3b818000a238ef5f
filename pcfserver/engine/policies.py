"""Set, Inquire and Delete Policy: Advanced Message Security's security policies (MQCMD_CHANGE_PROT_POLICY,
MQCMD_INQUIRE_PROT_POLICY, MQCMD_DELETE_PROT_POLICY), kept as an administrator sets them.

A policy is named for the queue it protects and says how messages on it are signed (SIGNALG, the signers a getter
accepts) and encrypted (ENCALG, the recipients), whether unprotected messages are tolerated, and how often a
symmetric key may be reused.  This server keeps and shows policies; it does not sign or encrypt messages (no
interceptor runs here), which the README says.

The policies live in :class:`Policies` in memory and in the store's ``objects`` table under MQOT_PROT_POLICY (written
in the same transaction as the command's other changes).  The rules IBM leaves open are chosen in
formats/commands.tsv (the K notes of the three commands).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from pcfserver import mq
from pcfserver.codec.model import Integer, Message, Parameter, String, StringList
from pcfserver.engine import responses
from pcfserver.engine.filters import generic_match
from pcfserver.engine.messages import MQIError
from pcfserver.engine.store import AnyOp, DeleteObject, ObjValue, PutObject, Snapshot
from pcfserver.engine.transaction import replace_entry

if TYPE_CHECKING:
    from collections.abc import Callable

    from pcfserver.engine.context import EngineView

OBJECT_TYPE = mq.MQOT_PROT_POLICY
NAME = mq.MQCA_POLICY_NAME
SIGNALG = mq.MQIA_SIGNATURE_ALGORITHM
ENCALG = mq.MQIA_ENCRYPTION_ALGORITHM
SIGNERS = mq.MQCA_SIGNER_DN
RECIPIENTS = mq.MQCA_RECIPIENT_DN
TOLERATE = mq.MQIA_TOLERATE_UNPROTECTED
KEYREUSE = mq.MQIA_KEY_REUSE_COUNT


class Parsed(Protocol):
    values: dict[int, object]


@dataclass(frozen=True, slots=True)
class Policy:
    """One security policy; the defaults are the plain-text policy a queue without one has (IBM)."""

    name: str
    signalg: int = mq.MQMLP_SIGN_ALG_NONE
    encalg: int = mq.MQMLP_ENCRYPTION_ALG_NONE
    signers: tuple[str, ...] = ()
    recipients: tuple[str, ...] = ()
    tolerate: int = mq.MQMLP_TOLERATE_UNPROTECTED_NO
    keyreuse: int = mq.MQKEY_REUSE_DISABLED

    def stored(self) -> tuple[tuple[int, ObjValue], ...]:
        return ((SIGNALG, self.signalg), (ENCALG, self.encalg), (SIGNERS, self.signers), (RECIPIENTS, self.recipients),
                (TOLERATE, self.tolerate), (KEYREUSE, self.keyreuse))

    @staticmethod
    def from_stored(name: str, attrs: dict[int, ObjValue]) -> Policy:
        def number(pid: int, default: int) -> int:
            value = attrs.get(pid, default)
            return value if isinstance(value, int) else default

        def names(pid: int) -> tuple[str, ...]:
            value = attrs.get(pid, ())
            return tuple(str(v) for v in value) if isinstance(value, (list, tuple)) else ()

        return Policy(name, number(SIGNALG, mq.MQMLP_SIGN_ALG_NONE), number(ENCALG, mq.MQMLP_ENCRYPTION_ALG_NONE), names(SIGNERS),
                      names(RECIPIENTS), number(TOLERATE, mq.MQMLP_TOLERATE_UNPROTECTED_NO), number(KEYREUSE, mq.MQKEY_REUSE_DISABLED))

    def parameters(self, ccsid: int) -> tuple[Parameter, ...]:
        """Inquire Policy's answer: the name, then every attribute (in formats/policy-attributes.tsv's order)."""
        return (
            String(NAME, self.name.ljust(48), ccsid),
            Integer(SIGNALG, self.signalg),
            Integer(ENCALG, self.encalg),
            StringList(SIGNERS, self.signers, ccsid),
            StringList(RECIPIENTS, self.recipients, ccsid),
            Integer(KEYREUSE, self.keyreuse),
            Integer(TOLERATE, self.tolerate),
        )


class PolicyView(Protocol):
    """What the policy commands need of the engine (``pcfserver.engine.Engine``)."""

    policies: dict[str, Policy]

    @property
    def ccsid(self) -> int: ...

    def record_undo(self, fn: Callable[[], None]) -> None: ...

    def record_op(self, op: AnyOp) -> None: ...


def load(policies: dict[str, Policy], snapshot: Snapshot) -> None:
    """The stored policies into memory."""
    for (object_type, name), attrs in snapshot.objects.items():
        if object_type == OBJECT_TYPE:
            policies[name] = Policy.from_stored(name, attrs)


def handlers(engine: EngineView) -> dict[int, Callable[[Message, Parsed], list[Message]]]:
    """The three commands, for Engine's handler table."""
    view: PolicyView = engine  # type: ignore[assignment]
    return {
        mq.MQCMD_CHANGE_PROT_POLICY: lambda command, p: set_policy(view, command, p),
        mq.MQCMD_INQUIRE_PROT_POLICY: lambda command, p: inquire_policy(view, command, p),
        mq.MQCMD_DELETE_PROT_POLICY: lambda command, p: delete_policy(view, command, p),
    }


def _name(p: Parsed) -> str:
    name = p.values[NAME]
    assert isinstance(name, str)
    name = name.rstrip()
    if not name:
        raise MQIError(mq.MQRCCF_POLICY_NAME_MISSING)
    return name


def _names(p: Parsed, pid: int) -> tuple[str, ...]:
    """The distinguished names given (each once, in the order given; blanks ignored)."""
    given = p.values.get(pid, ())
    assert isinstance(given, tuple)
    return tuple(dict.fromkeys(n for n in (str(v).strip() for v in given) if n))


def _put(engine: PolicyView, name: str, policy: Policy | None) -> None:
    """Makes ``policy`` the one called ``name`` (None deletes it): in memory now, undoable, and as a store op."""
    replace_entry(engine.record_undo, engine.policies, name, policy)
    engine.record_op(DeleteObject(OBJECT_TYPE, name) if policy is None else PutObject(OBJECT_TYPE, name, policy.stored()))


def _check(policy: Policy) -> None:
    """What a policy must hold together (setmqspl's notes; the reasons are chosen, formats/commands.tsv)."""
    if policy.encalg != mq.MQMLP_ENCRYPTION_ALG_NONE and not policy.recipients:
        raise MQIError(mq.MQRCCF_RECIPIENT_DN_MISSING)
    if policy.encalg == mq.MQMLP_ENCRYPTION_ALG_NONE and policy.recipients:
        raise MQIError(mq.MQRCCF_ENCRYPTION_ALG_ERROR)
    if policy.signalg == mq.MQMLP_SIGN_ALG_NONE and policy.signers:
        raise MQIError(mq.MQRCCF_SIGNATURE_ALG_ERROR)


def set_policy(engine: PolicyView, command: Message, p: Parsed) -> list[Message]:
    name = _name(p)
    action = p.values.get(mq.MQIACF_ACTION, mq.MQACT_REPLACE)
    signers, recipients = _names(p, SIGNERS), _names(p, RECIPIENTS)
    old = engine.policies.get(name)
    if action == mq.MQACT_REPLACE or (action == mq.MQACT_ADD and old is None):
        # ADD makes a policy that is not there from the command, as REPLACE does: IBM's application AMS tutorial
        # (ibm-cloud-docs/mqcloud mqoc_app_ams.md) sets a new queue's policy with ACTION(ADD).

        def number(pid: int, default: int) -> int:
            value = p.values.get(pid, default)
            assert isinstance(value, int)
            return value

        policy = Policy(name, number(SIGNALG, mq.MQMLP_SIGN_ALG_NONE), number(ENCALG, mq.MQMLP_ENCRYPTION_ALG_NONE), signers, recipients,
                        number(TOLERATE, mq.MQMLP_TOLERATE_UNPROTECTED_NO), number(KEYREUSE, mq.MQKEY_REUSE_DISABLED))
    else:
        if old is None:
            raise MQIError(mq.MQRCCF_POLICY_NOT_FOUND)
        if action == mq.MQACT_ADD:
            # Names added come first: runmqsc showed RECIP(CN=BBB,C=GB) before the CN=AAA it was added to (T, policy-attributes.tsv).
            policy = Policy(name, old.signalg, old.encalg, tuple(dict.fromkeys((*signers, *old.signers))),
                            tuple(dict.fromkeys((*recipients, *old.recipients))), old.tolerate, old.keyreuse)
        else:
            policy = Policy(name, old.signalg, old.encalg, tuple(s for s in old.signers if s not in signers),
                            tuple(r for r in old.recipients if r not in recipients), old.tolerate, old.keyreuse)
    _check(policy)
    _put(engine, name, policy)
    return responses.success(command)


def inquire_policy(engine: PolicyView, command: Message, p: Parsed) -> list[Message]:
    """A specific name always answers (a queue without a policy has the plain-text one, IBM); a generic name answers
    the policies that exist, in name order (none: MQRCCF_POLICY_NOT_FOUND, K)."""
    name = _name(p)
    if "*" not in name:
        found = [engine.policies.get(name) or Policy(name)]
    else:
        found = [engine.policies[n] for n in sorted(engine.policies) if generic_match(name, n)]
        if not found:
            raise MQIError(mq.MQRCCF_POLICY_NOT_FOUND)
    return responses.numbered([responses.ok_response(command, policy.parameters(engine.ccsid)) for policy in found])


def delete_policy(engine: PolicyView, command: Message, p: Parsed) -> list[Message]:
    name = _name(p)
    if name not in engine.policies:
        raise MQIError(mq.MQRCCF_POLICY_NOT_FOUND)
    _put(engine, name, None)
    return responses.success(command)
