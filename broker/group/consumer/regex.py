"""Broker-side regular-expression subscriptions (KIP-848 ``SubscribedTopicRegex``).

Kafka compiles them with RE2/J and matches whole topic names
(``Pattern.matcher(topic).matches()``). RE2/J is a port of RE2, so the
maintained RE2 binding (``google-re2``) accepts the same syntax and has the
same linear-time guarantee; a pattern Python's ``re`` would take but RE2
refuses (backreferences, lookaround) is refused here as Kafka refuses it.

Known differences from RE2/J, none reachable from a topic name:
RE2 (C++) accepts ``\\C`` (any byte) and RE2/J does not; RE2/J matches over
UTF-16 and RE2 over UTF-8, which differs only for unpaired surrogates, which a
topic name cannot hold (legal names are ``[a-zA-Z0-9._-]``).

Internal topics (``__consumer_offsets``, ``__transaction_state``,
``__share_group_state``) never match, as in Kafka.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

import re2

__all__ = ["INTERNAL_TOPICS", "compile_error", "resolve"]

INTERNAL_TOPICS = frozenset({"__consumer_offsets", "__transaction_state", "__share_group_state"})


@functools.lru_cache(maxsize=1024)
def _compiled(pattern: str) -> re2._Regexp:
    return re2.compile(pattern)


def compile_error(pattern: str) -> str | None:
    """None when ``pattern`` compiles, else why it does not."""
    try:
        _compiled(pattern)
    except re2.error as exc:
        return str(exc) or "invalid pattern"
    return None


def resolve(pattern: str, topic_names: Iterable[str]) -> tuple[str, ...]:
    """The topic names ``pattern`` matches in full, sorted (internal topics excluded)."""
    compiled = _compiled(pattern)
    return tuple(sorted(t for t in topic_names if t not in INTERNAL_TOPICS and compiled.fullmatch(t) is not None))
