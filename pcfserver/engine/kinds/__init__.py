"""Rules of one kind's own, beyond what its attribute table says (formats/<kind>-attributes.tsv).

Each module here holds one kind's rules as a function ``check(engine, name, attrs, old)`` that raises
:class:`pcfserver.engine.responses.Reject` with IBM's reason; ``RULES`` maps the kind (formats/kinds.tsv) to it.
Create, Copy and Change call it with the attributes the object would have (``old`` is the object being replaced
or changed, None for a new one), before anything changes.  A kind with no rules of its own has no module.

A kind whose commands do more than the generic ones (a subscription named by its SubId, a topic inquiry filtered
by TopicType) also registers :class:`Hooks` in ``HOOKS``; ``pcfserver.engine.objects`` calls each one it finds.
The modules never import ``objects`` (no import circle): they get the engine's view and plain values.
"""

from __future__ import annotations

from pcfserver.engine.kinds import sub, topic
from pcfserver.engine.kinds.hooks import Hooks, Rule

RULES: dict[str, Rule] = {"topic": topic.check, "sub": sub.check}
HOOKS: dict[str, Hooks] = {"topic": topic.HOOKS, "sub": sub.HOOKS}
