"""The subscription matcher (pcfserver/engine/matching.py) against a plain reference: regular expressions written
straight from IBM's wildcard rules (pubsub.md section 2), one subscription at a time, no index."""

from __future__ import annotations

import re
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pcfserver import mq
from pcfserver.engine.matching import SCHEME_CHAR, SCHEME_TOPIC, Matcher
from pcfserver.engine.messages import MQIError

END = "\x01"  # ends each level in the reference's encoding of a topic string (never in generated strings)


def ref_topic(pattern: str, topic: str) -> bool:
    """Topic scheme: '#' zero or more whole levels, '+' exactly one, only as whole levels; else literal."""
    parts = []
    for level in pattern.split("/"):
        if level == "#":
            parts.append(f"(?:[^{END}]*{END})*")
        elif level == "+":
            parts.append(f"[^{END}]*{END}")
        else:
            parts.append(re.escape(level) + END)
    encoded = "".join(level + END for level in topic.split("/"))
    return re.fullmatch("".join(parts), encoded) is not None


def ref_char(pattern: str, topic: str) -> bool:
    """Character scheme: '*' any characters ('/' too), '?' one character, '%' escapes the next."""
    out = []
    escaped = False
    for c in pattern:
        if escaped:
            out.append(re.escape(c))
            escaped = False
        elif c == "%":
            escaped = True
        elif c == "*":
            out.append(".*")
        elif c == "?":
            out.append(".")
        else:
            out.append(re.escape(c))
    return re.fullmatch("".join(out), topic, re.DOTALL) is not None


def ref_blocked(pattern: str, scheme: int, node: str, topic: str) -> bool:
    """WILDCARD(BLOCK) at ``node``: a publication at or under it is hidden from a wildcard subscription whose part
    covering the node's levels (topic scheme) or characters (char scheme) holds a wildcard."""
    if not (topic == node or topic.startswith(node + "/")):
        return False
    if scheme == SCHEME_TOPIC:
        return any(level in ("#", "+") for level in pattern.split("/")[: len(node.split("/"))])
    literal = []
    escaped = False
    for c in pattern:
        if escaped:
            literal.append(c)
            escaped = False
        elif c == "%":
            escaped = True
        elif c in "*?":
            return len(literal) < len(node)
        else:
            literal.append(c)
    return False


def ref_match(pattern: str, scheme: int, topic: str, blocked: list[str]) -> bool:
    matched = ref_char(pattern, topic) if scheme == SCHEME_CHAR else ref_topic(pattern, topic)
    return matched and not any(ref_blocked(pattern, scheme, node, topic) for node in blocked)


topic_levels = st.sampled_from(["a", "b", "ab", "", "a#", "sport"])
topics = st.lists(topic_levels, min_size=1, max_size=5).map("/".join)
topic_patterns = st.lists(st.sampled_from(["a", "b", "ab", "", "#", "+", "a#"]), min_size=1, max_size=5).map("/".join)
char_pieces = st.sampled_from(["a", "b", "/", "*", "?", "%*", "%%", "ab", "#"])
char_patterns = st.lists(char_pieces, min_size=1, max_size=6).map("".join)
subscriptions = st.one_of(
    st.tuples(topic_patterns, st.just(SCHEME_TOPIC)),
    st.tuples(char_patterns, st.just(SCHEME_CHAR)),
)


@given(st.lists(subscriptions, max_size=12), st.lists(topics, min_size=1, max_size=6), st.lists(topics, max_size=2))
@settings(max_examples=400, deadline=None)
def test_matcher_agrees_with_the_reference(subs: list[tuple[str, int]], published: list[str], blocked: list[str]) -> None:
    matcher = Matcher()
    block_nodes = [tuple(node.split("/")) for node in blocked]
    for i, (pattern, scheme) in enumerate(subs):
        matcher.add(i, pattern, scheme, block_nodes)
    for topic in published:
        expected = {i for i, (pattern, scheme) in enumerate(subs) if ref_match(pattern, scheme, topic, blocked)}
        got = matcher.match(topic)
        assert len(got) == len(set(got))  # each subscription once, however many ways it matches
        assert set(got) == expected, topic


@given(st.lists(subscriptions, min_size=1, max_size=12), st.data())
@settings(max_examples=200, deadline=None)
def test_removed_subscriptions_stop_matching(subs: list[tuple[str, int]], data: st.DataObject) -> None:
    matcher = Matcher()
    for i, (pattern, scheme) in enumerate(subs):
        matcher.add(i, pattern, scheme)
    gone = data.draw(st.sets(st.integers(0, len(subs) - 1)))
    for i in gone:
        matcher.remove(i)
    assert len(matcher) == len(subs) - len(gone)
    for topic in data.draw(st.lists(topics, min_size=1, max_size=4)):
        expected = {i for i, (p, s) in enumerate(subs) if i not in gone and ref_match(p, s, topic, [])}
        assert set(matcher.match(topic)) == expected


def test_ibm_examples() -> None:
    m = Matcher()
    m.add("usa#", "USA/#")
    m.add("usa+", "USA/+")
    m.add("results", "IBM/*/Results", SCHEME_CHAR)
    m.add("ware", "IBM/*ware/Results", SCHEME_CHAR)
    m.add("literal", "USA#")
    assert set(m.match("USA")) == {"usa#"}
    assert set(m.match("USA/Alaska")) == {"usa#", "usa+"}
    assert set(m.match("USA/Alaska/Juneau")) == {"usa#"}
    assert set(m.match("USA#")) == {"literal"}
    assert set(m.match("IBM/Patents/Software/Results")) == {"results", "ware"}
    assert set(m.match("IBM/Patents/Results")) == {"results"}


def test_system_admin_topic_blocks_catch_all_subscriptions() -> None:
    """SYSTEM.ADMIN.TOPIC ($SYS/MQ) is WILDCARD(BLOCK): '#' does not receive $SYS/MQ publications, '$SYS/MQ/#' does."""
    m = Matcher()
    blocked = [("$SYS", "MQ")]
    m.add("all", "#", SCHEME_TOPIC, blocked)
    m.add("sys", "$SYS/MQ/#", SCHEME_TOPIC, blocked)
    m.add("star", "*", SCHEME_CHAR, blocked)
    assert set(m.match("$SYS/MQ/info")) == {"sys"}
    assert set(m.match("other")) == {"all", "star"}
    # WILDCARD is applied when a subscription is made: one added before the block is not hidden by it
    m.add("early", "+/+/info")
    m.add("late", "+/+/info", SCHEME_TOPIC, blocked)
    assert "early" in m.match("$SYS/MQ/info") and "late" not in m.match("$SYS/MQ/info")


@pytest.mark.parametrize("pattern", ["a%b", "a%", "%/"])
def test_bad_escape_in_char_scheme_is_2425(pattern: str) -> None:
    with pytest.raises(MQIError) as caught:
        Matcher().add(1, pattern, SCHEME_CHAR)
    assert caught.value.reason == mq.MQRC_TOPIC_STRING_ERROR


def test_matching_10000_subscriptions_is_indexed() -> None:
    """10,000 subscriptions (mostly exact and topic-scheme wildcards, 100 character-scheme): a publication is matched
    in well under a millisecond on average, not by trying every subscription's pattern."""
    m = Matcher()
    for i in range(9900):
        m.add(i, f"region{i % 100}/store{i}/#" if i % 2 else f"region{i % 100}/store{i}/price")
    for i in range(100):
        m.add(("c", i), f"other{i}/*", SCHEME_CHAR)
    assert set(m.match("region7/store7/price/x")) == {7}
    start = time.perf_counter()
    for n in range(2000):
        m.match(f"region{n % 100}/store{n}/price")
    per_match = (time.perf_counter() - start) / 2000
    assert per_match < 0.001
