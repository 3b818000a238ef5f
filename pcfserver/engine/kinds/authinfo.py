"""An authentication information object's rule of its own (formats/rules-listener-service-authinfo-comminfo.md A5; IBM's DEFINE AUTHINFO page
q085490_).  The table (formats/authinfo-attributes.tsv) gives the value sets, lengths and which AUTHTYPE takes an
attribute; formats/kind-rules.tsv the CONNAME, SHORTUSR and OCSPURL each type needs; the type itself cannot change
(kinds.tsv subtype_reason).

* CONNAME: a host name or address with an optional (port); IDPWLDAP takes a comma-separated list of them
  ("CONNAME('ldap1(389),ldap2(389)')", IBM "Connection authentication: User repositories"); CRLLDAP one.  Anything
  else (a leading blank, unbalanced parentheses, a port that is not a number): MQRCCF_CONN_NAME_ERROR 4062 (K).
"""

from __future__ import annotations

import re

from pcfserver import mq
from pcfserver.engine.context import EngineView
from pcfserver.engine.registry import NamedObject
from pcfserver.engine.responses import Reject
from pcfserver.engine.store import ObjValue

# One server: host name, IPv4 or IPv6 address (no blanks, commas or parentheses), then an optional (port).
_ADDRESS = re.compile(r"[^\s(),]+(\([0-9]{1,5}\))?\Z")


def _text(attrs: dict[int, ObjValue], pid: int) -> str:
    value = attrs.get(pid, "")
    return value if isinstance(value, str) else ""


def conname_ok(text: str, many: bool) -> bool:
    """A CONNAME cell: one address (or, with ``many``, a comma-separated list of them), each with an optional (port)."""
    text = text.rstrip()
    if not text:
        return True
    parts = text.split(",") if many else [text]
    return all(_ADDRESS.match(part) for part in parts)


def check(engine: EngineView, name: str, attrs: dict[int, ObjValue], old: NamedObject | None) -> None:
    authtype = attrs.get(mq.MQIA_AUTH_INFO_TYPE, 0)
    if authtype in (mq.MQAIT_CRL_LDAP, mq.MQAIT_IDPW_LDAP):
        if not conname_ok(_text(attrs, mq.MQCA_AUTH_INFO_CONN_NAME), many=authtype == mq.MQAIT_IDPW_LDAP):
            raise Reject(mq.MQRCCF_CONN_NAME_ERROR, mq.MQCA_AUTH_INFO_CONN_NAME)
