"""How the console shows a message: its identifiers, its descriptor, and its body as text, pretty JSON or a hex dump.

Bodies are whatever an application put: the templates escape every character of them (autoescape), and nothing
here ever hands one to the browser as markup or script.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from pcfserver import mq
from pcfserver.engine.messages import MessageDescriptor, MQIError
from pcfserver.rest.messaging import is_text, summary, text_of

PREVIEW_CHARS = 80
SHOWN_BYTES = 256 * 1024  # a detail view shows at most this much of a body (text or hex)
PERSISTENCE = {mq.MQPER_PERSISTENT: "persistent", mq.MQPER_NOT_PERSISTENT: "not persistent", mq.MQPER_PERSISTENCE_AS_Q_DEF: "as queue"}
# A Put or Publish form's persistence choice (its select's values) as the MQPUT takes it: "" leaves it to the definition.
PERSISTENCE_CHOICES = {"": None, "persistent": mq.MQPER_PERSISTENT, "nonpersistent": mq.MQPER_NOT_PERSISTENT}


def hex_id(value: bytes) -> str:
    """A MsgId or CorrelId as 48 hex digits (lower case, as the REST API's v2 shows them)."""
    return value.hex()


def parse_hex_id(text: str) -> bytes | None:
    """48 hex digits (an ``ID:`` prefix allowed) as 24 bytes; shorter hex is padded with zero bytes; None if not hex."""
    text = text.strip()
    if text[:3].upper() == "ID:":
        text = text[3:]
    if not text or len(text) > 48 or len(text) % 2 or any(c not in "0123456789abcdefABCDEF" for c in text):
        return None
    return bytes.fromhex(text).ljust(24, b"\0")


def _printable(text: str) -> bool:
    return all(c.isprintable() or c in "\t\r\n" for c in text)


def as_text(md: MessageDescriptor, body: bytes) -> str | None:
    """The body as text when it is text: MQSTR in a character set this server converts, or UTF-8 with no control
    characters whatever its format; None for binary."""
    if is_text(md):
        try:
            return text_of(md, body).decode("utf-8")
        except (MQIError, UnicodeDecodeError):
            return None
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return text if _printable(text) else None


def hex_dump(data: bytes, width: int = 16) -> str:
    """``offset  hex bytes  |ascii|`` lines, as hexdump -C prints them."""
    lines = []
    for offset in range(0, len(data), width):
        chunk = data[offset:offset + width]
        hexes = " ".join(f"{b:02x}" for b in chunk)
        shown = "".join(chr(b) if 32 <= b < 127 else "." for b in chunk)
        lines.append(f"{offset:08x}  {hexes:<{width * 3 - 1}}  |{shown}|")
    return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class Body:
    """A body as the detail view shows it."""

    kind: str  # json, text or binary
    text: str  # the pretty JSON or the text ("" for binary)
    hex: str  # a hex dump (of at most SHOWN_BYTES)
    length: int
    truncated: bool


def body_of(md: MessageDescriptor, body: bytes) -> Body:
    shown = body[:SHOWN_BYTES]
    truncated = len(body) > SHOWN_BYTES
    text = as_text(md, body)
    if text is None:
        return Body("binary", "", hex_dump(shown), len(body), truncated)
    stripped = text.strip()
    if stripped[:1] in ("{", "["):
        try:
            pretty = json.dumps(json.loads(stripped), indent=2, ensure_ascii=False)
        except ValueError:
            pass
        else:
            return Body("json", pretty[:SHOWN_BYTES], hex_dump(shown), len(body), truncated or len(pretty) > SHOWN_BYTES)
    return Body("text", text[:SHOWN_BYTES], hex_dump(shown), len(body), truncated)


def preview(md: MessageDescriptor, body: bytes) -> str:
    """A line of the body for a list: its text, or its first bytes in hex."""
    sample = body[:1024]
    text = as_text(md, sample)
    for cut in (1, 2, 3):  # a sample may end inside a character
        if text is not None or len(body) <= len(sample):
            break
        text = as_text(md, sample[:-cut])
    if text is not None:
        line = " ".join(text.split())
        return line[:PREVIEW_CHARS] + ("…" if len(line) > PREVIEW_CHARS else "")
    return body[:24].hex(" ") + (" …" if len(body) > 24 else "")


def put_time(md: MessageDescriptor) -> str:
    """PutDate and PutTime as ``YYYY-MM-DD HH:MM:SS.hh`` (GMT)."""
    iso = str(summary(md, 2)["putDate"])
    return iso[:10] + " " + iso[11:22] if iso else ""


def descriptor_rows(md: MessageDescriptor) -> list[tuple[str, str, str]]:
    """The MQMD fields this server keeps, as (field, MQMD name, value)."""
    return [
        ("Message identifier", "MsgId", hex_id(md.msg_id)),
        ("Correlation identifier", "CorrelId", hex_id(md.correl_id)),
        ("Format", "Format", md.format.rstrip() or "(none)"),
        ("Persistence", "Persistence", PERSISTENCE.get(md.persistence, str(md.persistence))),
        ("Priority", "Priority", str(md.priority)),
        ("Expiry", "Expiry", "unlimited" if md.expiry == mq.MQEI_UNLIMITED else f"{md.expiry} tenths of a second"),
        ("Put date and time (GMT)", "PutDate, PutTime", put_time(md)),
        ("Put application", "PutApplName", md.put_appl_name.rstrip()),
        ("User identifier", "UserIdentifier", md.user_identifier.rstrip()),
        ("Reply-to queue", "ReplyToQ", md.reply_to_q.rstrip()),
        ("Reply-to queue manager", "ReplyToQMgr", md.reply_to_qmgr.rstrip()),
        ("Backout count", "BackoutCount", str(md.backout_count)),
        ("Encoding", "Encoding", str(md.encoding)),
        ("Coded character set", "CodedCharSetId", str(md.coded_char_set_id)),
    ]
