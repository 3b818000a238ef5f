"""A channel's rules of its own (formats/rules-channel.md; IBM's Change, Copy, Create Channel page and the
MQRCCF reason pages named below).  The attribute table (formats/channel-attributes.tsv) gives the value sets, ranges,
lengths and which channel types take an attribute (with IBM's attribute-specific reasons, R5); formats/kind-rules.tsv
the XMITQ and CONNAME a type needs (4045, 4061), CLUSTER/CLUSNL and the reserved MCANAME.  Here, on the channel as
Create, Copy or Change would leave it:

* A connection name starting with a blank: MQRCCF_CONN_NAME_ERROR 4062 (q048760_ "contained a leading blank").
* SSLCAUTH(NEVER) (MQSCA_NEVER_REQUIRED) exists only for MQTT channels (DEFINE CHANNEL (MQTT) q085610_):
  MQRCCF_SSL_CLIENT_AUTH_ERROR 4094 elsewhere (K: the reason); an MQTT channel's TRPTYPE is TCP only (same page):
  MQRCCF_XMIT_PROTOCOL_TYPE_ERR 3036 (K: the reason).
"""

from __future__ import annotations

from pcfserver import mq
from pcfserver.engine.context import EngineView
from pcfserver.engine.registry import NamedObject
from pcfserver.engine.responses import Reject
from pcfserver.engine.store import ObjValue


def check(engine: EngineView, name: str, attrs: dict[int, ObjValue], old: NamedObject | None) -> None:
    chltype = attrs.get(mq.MQIACH_CHANNEL_TYPE, 0)
    conname = attrs.get(mq.MQCACH_CONNECTION_NAME, "")
    if isinstance(conname, str) and conname[:1] == " ":
        raise Reject(mq.MQRCCF_CONN_NAME_ERROR, mq.MQCACH_CONNECTION_NAME)
    if chltype != mq.MQCHT_MQTT and attrs.get(mq.MQIACH_SSL_CLIENT_AUTH) == mq.MQSCA_NEVER_REQUIRED:
        raise Reject(mq.MQRCCF_SSL_CLIENT_AUTH_ERROR, mq.MQIACH_SSL_CLIENT_AUTH)
    if chltype == mq.MQCHT_MQTT and attrs.get(mq.MQIACH_XMIT_PROTOCOL_TYPE, mq.MQXPT_TCP) != mq.MQXPT_TCP:
        raise Reject(mq.MQRCCF_XMIT_PROTOCOL_TYPE_ERR, mq.MQIACH_XMIT_PROTOCOL_TYPE)
