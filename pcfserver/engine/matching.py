"""Which subscriptions a publication's topic string matches (sans-IO, no engine): the subscription index of issue 19.

Two wildcard schemes, chosen per subscription (IBM "Wildcard schemes", pubsub.md section 2):

* Topic scheme (WSCHEMA(TOPIC), MQSO_WILDCARD_TOPIC, the default): a level that is exactly '#' matches any number
  of whole levels, zero included ('USA/#' matches 'USA', 'USA/Alaska' and 'USA/Alaska/Juneau'); a level that is
  exactly '+' matches exactly one level.  Anywhere else the characters are literal ('USA#').  A published level that
  is '#' or '+' is literal text, so only a wildcard subscription reaches it.
* Character scheme (WSCHEMA(CHAR), MQSO_WILDCARD_CHAR): '*' matches any characters, zero included, '/' included;
  '?' exactly one character; '%' escapes the next character, which must be '*', '?' or '%' (else
  MQRC_TOPIC_STRING_ERROR 2425, RC2425).

WILDCARD(BLOCK) on a topic object hides its node and everything below from wildcard subscriptions "less specific"
than the node (IBM q005160_).  Chosen reading: a subscription is less specific than node N when its first wildcard
stands at or above N - for the topic scheme, when fewer than N's level count of its levels come before its first
wildcard level; for the character scheme, when fewer than len(N's string) characters come before its first wildcard
('Sport/Football/#' and 'Sport/Football*' are not blocked by Sport/Football, 'Sport/#' and 'Sport/Foot*' are).  A
subscription without wildcards is never blocked.  IBM applies WILDCARD when a subscription is made and altering it
later does not change existing subscriptions: each subscription keeps the blocked nodes it was added under
(:meth:`Matcher.add` ``blocked``).

Indexing (issue 19 asks for 10,000 subscriptions): subscriptions without wildcards of either scheme are one dictionary
lookup by topic string; topic-scheme wildcard subscriptions sit in a trie of levels ('+' and '#' as their own edges),
walked once per publication; character-scheme wildcard subscriptions are a list tested by their literal prefix, then a
compiled regular expression (IBM: character matching is the slower one).
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterable
from dataclasses import dataclass

from pcfserver import mq
from pcfserver.engine.messages import MQIError

SCHEME_TOPIC = mq.MQWS_TOPIC
SCHEME_CHAR = mq.MQWS_CHAR
_HASH = "#"
_PLUS = "+"

Node = tuple[str, ...]  # a blocked topic node: its levels


def levels(topic_string: str) -> Node:
    """A topic string's levels ('/A' has an empty first level)."""
    return tuple(topic_string.split("/"))


def has_wildcard(pattern: str, scheme: int) -> bool:
    if scheme == SCHEME_CHAR:
        return any(c in pattern for c in "*?")  # '%*' still holds '*'; compile() tells the rest apart
    return any(level in (_HASH, _PLUS) for level in pattern.split("/"))


def char_pattern(pattern: str) -> tuple[str, re.Pattern[str] | None]:
    """A character-scheme subscription's literal text before its first wildcard, and its regular expression (None
    when it has no wildcard: the literal text is then the whole topic string).  A bad '%' raises 2425."""
    out: list[str] = []
    prefix: str | None = None
    literal: list[str] = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "%":
            if i + 1 >= len(pattern) or pattern[i + 1] not in "*?%":
                raise MQIError(mq.MQRC_TOPIC_STRING_ERROR)
            out.append(re.escape(pattern[i + 1]))
            if prefix is None:
                literal.append(pattern[i + 1])
            i += 2
            continue
        if c in "*?":
            if prefix is None:
                prefix = "".join(literal)
            out.append(".*" if c == "*" else ".")
        else:
            out.append(re.escape(c))
            if prefix is None:
                literal.append(c)
        i += 1
    if prefix is None:
        return "".join(literal), None
    return prefix, re.compile("".join(out), re.DOTALL)


@dataclass(slots=True)
class _Sub:
    key: Hashable
    pattern: str
    scheme: int
    fixed: int  # levels (topic scheme) or characters (char scheme) before the first wildcard; -1: no wildcard
    blocked: frozenset[Node]
    prefix: str = ""
    regex: re.Pattern[str] | None = None


class _Trie:
    __slots__ = ("children", "hash", "plus", "subs")

    def __init__(self) -> None:
        self.children: dict[str, _Trie] = {}
        self.plus: _Trie | None = None
        self.hash: _Trie | None = None
        self.subs: dict[Hashable, _Sub] = {}

    def empty(self) -> bool:
        return not (self.children or self.plus or self.hash or self.subs)


class Matcher:
    """Subscriptions by key; :meth:`match` answers the keys whose pattern matches a published topic string."""

    __slots__ = ("_char", "_exact", "_subs", "_trie")

    def __init__(self) -> None:
        self._subs: dict[Hashable, _Sub] = {}
        self._exact: dict[str, dict[Hashable, _Sub]] = {}
        self._trie = _Trie()
        self._char: dict[Hashable, _Sub] = {}

    def __len__(self) -> int:
        return len(self._subs)

    def __contains__(self, key: object) -> bool:
        return key in self._subs

    def add(self, key: Hashable, pattern: str, scheme: int = SCHEME_TOPIC, blocked: Iterable[Node] = ()) -> None:
        """Adds (or replaces) a subscription.  ``blocked``: the nodes whose topic object says WILDCARD(BLOCK) now."""
        if key in self._subs:
            self.remove(key)
        if scheme == SCHEME_CHAR:
            prefix, regex = char_pattern(pattern)
            sub = _Sub(key, pattern, scheme, -1 if regex is None else len(prefix), frozenset(), prefix, regex)
            if regex is None:
                self._exact.setdefault(prefix, {})[key] = sub
            else:
                self._char[key] = sub
        else:
            parts = levels(pattern)
            wild = [i for i, level in enumerate(parts) if level in (_HASH, _PLUS)]
            sub = _Sub(key, pattern, scheme, wild[0] if wild else -1, frozenset())
            if not wild:
                self._exact.setdefault(pattern, {})[key] = sub
            else:
                node = self._trie
                for level in parts:
                    if level == _HASH:
                        node.hash = node.hash or _Trie()
                        node = node.hash
                    elif level == _PLUS:
                        node.plus = node.plus or _Trie()
                        node = node.plus
                    else:
                        node = node.children.setdefault(level, _Trie())
                node.subs[key] = sub
        if sub.fixed >= 0:
            sub.blocked = frozenset(n for n in blocked if self._below(sub, n))
        self._subs[key] = sub

    @staticmethod
    def _below(sub: _Sub, node: Node) -> bool:
        """Whether the subscription's first wildcard stands at or above ``node`` (so the node can block it)."""
        if sub.scheme == SCHEME_CHAR:
            return sub.fixed < len("/".join(node))
        return sub.fixed < len(node)

    def remove(self, key: Hashable) -> None:
        sub = self._subs.pop(key, None)
        if sub is None:
            return
        if sub.fixed < 0:
            text = sub.prefix if sub.scheme == SCHEME_CHAR else sub.pattern
            bucket = self._exact[text]
            del bucket[key]
            if not bucket:
                del self._exact[text]
        elif sub.scheme == SCHEME_CHAR:
            del self._char[key]
        else:
            path: list[tuple[_Trie, str]] = []
            node = self._trie
            for level in levels(sub.pattern):
                path.append((node, level))
                if level == _HASH:
                    assert node.hash is not None
                    node = node.hash
                elif level == _PLUS:
                    assert node.plus is not None
                    node = node.plus
                else:
                    node = node.children[level]
            del node.subs[key]
            for parent, level in reversed(path):  # prune branches left empty
                if not node.empty():
                    break
                if level == _HASH:
                    parent.hash = None
                elif level == _PLUS:
                    parent.plus = None
                else:
                    del parent.children[level]
                node = parent

    def match(self, topic_string: str) -> list[Hashable]:
        """The keys of the subscriptions that receive a publication on ``topic_string`` (each once)."""
        found: dict[Hashable, _Sub] = {}
        exact = self._exact.get(topic_string)
        if exact:
            found.update(exact)
        parts = levels(topic_string)
        if self._trie.children or self._trie.plus or self._trie.hash:
            self._walk(self._trie, parts, 0, found)
        for sub in self._char.values():
            if topic_string.startswith(sub.prefix) and sub.regex is not None and sub.regex.fullmatch(topic_string):
                found[sub.key] = sub
        return [key for key, sub in found.items() if not sub.blocked or not self._blocked(sub, parts)]

    def _walk(self, node: _Trie, parts: Node, i: int, found: dict[Hashable, _Sub]) -> None:
        hash_node = node.hash
        if hash_node is not None:  # '#' takes zero or more of the remaining levels
            for j in range(i, len(parts) + 1):
                self._walk(hash_node, parts, j, found)
        if i == len(parts):
            if node.subs:
                found.update(node.subs)
            return
        child = node.children.get(parts[i])
        if child is not None:
            self._walk(child, parts, i + 1, found)
        if node.plus is not None:
            self._walk(node.plus, parts, i + 1, found)

    @staticmethod
    def _blocked(sub: _Sub, parts: Node) -> bool:
        return any(parts[: len(node)] == node for node in sub.blocked)
