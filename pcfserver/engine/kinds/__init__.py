"""Rules of one kind's own, beyond what its attribute table says (formats/<kind>-attributes.tsv).

Each module here holds one kind's rules as a function ``check(engine, name, attrs, old)`` that raises
:class:`pcfserver.engine.responses.Reject` with IBM's reason; ``RULES`` maps the kind (formats/kinds.tsv) to it.
Create, Copy and Change call it with the attributes the object would have (``old`` is the object being replaced
or changed, None for a new one), before anything changes.  A kind with no rules of its own has no module.
"""

from __future__ import annotations

from collections.abc import Callable

from pcfserver.engine.context import EngineView
from pcfserver.engine.registry import NamedObject
from pcfserver.engine.store import ObjValue

Rule = Callable[[EngineView, str, dict[int, ObjValue], NamedObject | None], None]

RULES: dict[str, Rule] = {}


def _register() -> None:
    """Each kind's module (imported here, after Rule, so the modules may import this package)."""
    from pcfserver.engine.kinds import authinfo, channel, comminfo

    RULES.update({"channel": channel.check, "authinfo": authinfo.check, "comminfo": comminfo.check})


_register()
