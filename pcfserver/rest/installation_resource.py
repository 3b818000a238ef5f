"""IBM's administrative REST API installation resource (sans-IO).

    GET /ibmmq/rest/v1|v2|v3/admin/installation[/{installationName}]?attributes={extended|*|extended.attributeName,...}

The one installation this server answers as: its name, version and platform, and with ``attributes`` the
``extended`` object (level, operatingSystem, description, installationPath, dataPath).  The version is the queue
manager's VERSION (qmgr-attributes.tsv), so this resource and DISPLAY QMGR agree.  Values and choices are rows of
``formats/rest-admin.tsv`` (installation_*); a name other than the installation's is 404 (rest-errors.tsv).
"""

from __future__ import annotations

import platform
from functools import cache
from urllib.parse import parse_qsl

from pcfserver import mq
from pcfserver.dialects.tables import qmgr_attributes
from pcfserver.rest.fields import Refused, selection
from pcfserver.rest.http import Response, error, json_response
from pcfserver.tables import read_table

EXTENDED = ("level", "operatingSystem", "description", "installationPath", "dataPath")
_DOTTED = tuple(f"extended.{name}" for name in EXTENDED)


@cache
def _choices() -> dict[str, str]:
    return {row["key"]: row["value"] for row in read_table("rest-admin.tsv")}


@cache
def version() -> str:
    """The queue manager's VERSION (VVRRMMFF) as the installation's dotted version: 09040500 is 9.4.5.0."""
    [attr] = [a for a in qmgr_attributes() if a.parameter == mq.MQCA_VERSION]
    digits = str(attr.defaults[0])
    return ".".join(str(int(digits[i : i + 2])) for i in range(0, 8, 2))


def _extended() -> dict[str, str]:
    choices = _choices()
    return {
        "level": f"p{version().replace('.', '')[:3]}-pcfserver",
        "operatingSystem": platform.platform(),
        "description": "",
        "installationPath": choices["installation_path"],
        "dataPath": choices["installation_data_path"],
    }


def answer(name: str | None, query: str) -> Response:
    """The installation (named or not) with what ``query`` asks for, or IBM's error answer."""
    installation = _choices()["installation_name"]
    wanted: list[str] = []
    for key, value in parse_qsl(query, keep_blank_values=True):
        if key != "attributes":
            return error("bad_query", key, "used on the installation resource: it takes attributes")
        try:  # extended, * or extended.name, as the queue and queue manager resources read attributes= and status=
            wanted += (n.partition(".")[2] for n in selection(value, _DOTTED, ("*", "extended"), "attributes", "known installation"))
        except Refused as refused:
            return refused.response
    if name is not None and name != installation:
        return error("installation_not_found", name, explanation=(installation,))
    item: dict[str, object] = {"name": installation, "version": version(), "platform": "unix" if platform.system() != "Windows" else "windows"}
    if wanted:
        extended = _extended()
        item["extended"] = {key: extended[key] for key in EXTENDED if key in wanted}
    return json_response(200, {"installation": [item]})
