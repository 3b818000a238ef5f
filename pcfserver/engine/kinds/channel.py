"""A channel's rules of its own (/work/notes/channel-rules.md; IBM's Change, Copy, Create Channel page and the
MQRCCF reason pages named below).  The attribute table (formats/channel-attributes.tsv) already gives the value
sets, ranges, lengths and which channel types take an attribute (with IBM's attribute-specific reasons, R5).

Checked on the channel as Create, Copy or Change would leave it:

* SDR and SVR channels name a transmission queue: MQRCCF_XMIT_Q_NAME_ERROR 4045 ("also occurs if the parameter is
  not present when a sender or server channel is being created, and no default value is available", q048610_).
* SDR, RQSTR, CLNTCONN and CLUSSDR channels name a partner: MQRCCF_MISSING_CONN_NAME 4061 (q048750_ for SDR and RQSTR;
  the CLNTCONN and CLUSSDR syntax diagrams show CONNAME required, K for their reason).  A connection name starting
  with a blank: MQRCCF_CONN_NAME_ERROR 4062 (q048760_).
* IBM's own SYSTEM.* channels (SYSTEM.DEF.SENDER ...) carry blank XMITQ and CONNAME and may still be altered and
  replaced (IBM's "Naming restrictions for other objects"), so the two rules above spare them (chosen).
* CLUSTER and CLUSNL: at most one non-blank (DEFINE CHANNEL CLUSTER/CLUSNL descriptions): MQRCCF_PARM_CONFLICT 3203 (K).
* MCANAME is reserved: only blanks (DEFINE CHANNEL MCANAME "reserved, and if specified must only be set to
  blanks"): MQRCCF_MCA_NAME_ERROR 4047 (K for the reason).
* SSLCAUTH(NEVER) (MQSCA_NEVER_REQUIRED) exists only for MQTT channels (DEFINE CHANNEL (MQTT) q085610_):
  MQRCCF_SSL_CLIENT_AUTH_ERROR 4094 elsewhere; an MQTT channel's TRPTYPE is TCP only: MQRCCF_XMIT_PROTOCOL_TYPE_ERR 3036.
"""

from __future__ import annotations

from pcfserver import mq
from pcfserver.engine.context import EngineView
from pcfserver.engine.registry import NamedObject
from pcfserver.engine.responses import Reject
from pcfserver.engine.store import ObjValue

NEEDS_XMITQ = frozenset({mq.MQCHT_SENDER, mq.MQCHT_SERVER})
NEEDS_CONNAME = frozenset({mq.MQCHT_SENDER, mq.MQCHT_REQUESTER, mq.MQCHT_CLNTCONN, mq.MQCHT_CLUSSDR})
# The queue manager's own objects: blank where a user's channel may not be (SYSTEM.DEF.SENDER's XMITQ( )).
SYSTEM_PREFIX = "SYSTEM."


def _text(attrs: dict[int, ObjValue], pid: int) -> str:
    value = attrs.get(pid, "")
    return value if isinstance(value, str) else ""


def check(engine: EngineView, name: str, attrs: dict[int, ObjValue], old: NamedObject | None) -> None:
    chltype = attrs.get(mq.MQIACH_CHANNEL_TYPE, 0)
    own = name.startswith(SYSTEM_PREFIX)
    if chltype in NEEDS_XMITQ and not own and not _text(attrs, mq.MQCACH_XMIT_Q_NAME).strip():
        raise Reject(mq.MQRCCF_XMIT_Q_NAME_ERROR, mq.MQCACH_XMIT_Q_NAME)
    conname = _text(attrs, mq.MQCACH_CONNECTION_NAME)
    if conname[:1] == " ":
        raise Reject(mq.MQRCCF_CONN_NAME_ERROR, mq.MQCACH_CONNECTION_NAME)
    if chltype in NEEDS_CONNAME and not own and not conname.strip():
        raise Reject(mq.MQRCCF_MISSING_CONN_NAME, mq.MQCACH_CONNECTION_NAME)
    if _text(attrs, mq.MQCA_CLUSTER_NAME).strip() and _text(attrs, mq.MQCA_CLUSTER_NAMELIST).strip():
        raise Reject(mq.MQRCCF_PARM_CONFLICT, mq.MQCA_CLUSTER_NAMELIST)
    if _text(attrs, mq.MQCACH_MCA_NAME).strip():
        raise Reject(mq.MQRCCF_MCA_NAME_ERROR, mq.MQCACH_MCA_NAME)
    if chltype != mq.MQCHT_MQTT and attrs.get(mq.MQIACH_SSL_CLIENT_AUTH) == mq.MQSCA_NEVER_REQUIRED:
        raise Reject(mq.MQRCCF_SSL_CLIENT_AUTH_ERROR, mq.MQIACH_SSL_CLIENT_AUTH)
    if chltype == mq.MQCHT_MQTT and attrs.get(mq.MQIACH_XMIT_PROTOCOL_TYPE, mq.MQXPT_TCP) != mq.MQXPT_TCP:
        raise Reject(mq.MQRCCF_XMIT_PROTOCOL_TYPE_ERR, mq.MQIACH_XMIT_PROTOCOL_TYPE)
