"""A communication information object's rule of its own (formats/rules-listener-service-authinfo-comminfo.md M6; IBM's DEFINE COMMINFO page
q085620_: GRPADDR is "the group IP address or DNS name").  The table (formats/comminfo-attributes.tsv) gives TYPE,
CCSID, ENCODING, PORT and the intervals.

* GRPADDR written as an IPv4 address must be a multicast group address, 224.0.0.0 to 239.255.255.255 (RFC 5771),
  and an IPv6 address one in ff00::/8 (RFC 4291); a DNS name is taken as written (this server resolves nothing).
  Otherwise MQRCCF_PARM_VALUE_ERROR 3229 (K: IBM's reason not read).
"""

from __future__ import annotations

import ipaddress
import re

from pcfserver import mq
from pcfserver.engine.context import EngineView
from pcfserver.engine.registry import NamedObject
from pcfserver.engine.responses import Reject
from pcfserver.engine.store import ObjValue

_LOOKS_NUMERIC = re.compile(r"[0-9.]+\Z|.*:")


def group_address_ok(text: str) -> bool:
    text = text.strip()
    if not text or not _LOOKS_NUMERIC.match(text):
        return True  # blank or a DNS name
    try:
        return ipaddress.ip_address(text).is_multicast
    except ValueError:
        return False


def check(engine: EngineView, name: str, attrs: dict[int, ObjValue], old: NamedObject | None) -> None:
    value = attrs.get(mq.MQCACH_GROUP_ADDRESS, "")
    if isinstance(value, str) and not group_address_ok(value):
        raise Reject(mq.MQRCCF_PARM_VALUE_ERROR, mq.MQCACH_GROUP_ADDRESS)
