"""CCSID to Python codec, from ``formats/ccsids.tsv``."""

from __future__ import annotations

from pcfserver.tables import ccsid_codecs

DEFAULT_CCSID = 819


def codec_for(ccsid: int) -> str | None:
    """The Python codec for a CCSID, or None when the codec does not convert it."""
    return ccsid_codecs().get(ccsid)
