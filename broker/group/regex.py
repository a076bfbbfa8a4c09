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

Every topic of the metadata image is a candidate, internal topics included:
Kafka 4.4 matches the patterns against all topic names, so ``__consumer_offsets``
matches ``__consumer_offsets`` (a client that does not want internal topics
writes a pattern that leaves them out).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

import re2

__all__ = ["compile_error", "resolve"]


# RE2's error texts -> RE2/J's descriptions (what Kafka puts in its error message,
# e.g. "SubscribedTopicRegex `(` is not a valid regular expression: missing closing ).").
_RE2J_DESCRIPTIONS = {
    "invalid escape sequence": "invalid escape sequence",
    "invalid character class": "invalid character class",
    "invalid character class range": "invalid character class range",
    "missing ]": "missing closing ]",
    "missing )": "missing closing )",
    "unexpected )": "unexpected )",
    "trailing \\": "trailing backslash at end of expression",
    "no argument for repetition operator": "missing argument to repetition operator",
    "invalid repetition size": "invalid repeat count",
    "bad repetition operator": "invalid nested repetition operator",
    "invalid perl operator": "invalid or unsupported Perl syntax",
    "invalid UTF-8": "invalid UTF-8",
    "invalid named capture group": "invalid named capture",
}


def _options() -> re2.Options:
    options = re2.Options()
    options.log_errors = False  # a client's bad pattern is its error, not the broker's log noise
    return options


_OPTIONS = _options()


@functools.lru_cache(maxsize=1024)
def _compiled(pattern: str) -> re2._Regexp:
    return re2.compile(pattern, _OPTIONS)


def _description(exc: re2.error) -> str:
    raw = exc.args[0] if exc.args else b""
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw)
    kind = text.split(": ", 1)[0] if ": " in text else text
    return _RE2J_DESCRIPTIONS.get(kind, kind or "invalid pattern")


def compile_error(pattern: str) -> str | None:
    """None when ``pattern`` compiles, else why it does not (RE2/J's wording)."""
    try:
        _compiled(pattern)
    except re2.error as exc:
        return _description(exc)
    return None


def resolve(pattern: str, topic_names: Iterable[str]) -> tuple[str, ...]:
    """The topic names ``pattern`` matches in full, sorted."""
    compiled = _compiled(pattern)
    return tuple(sorted(t for t in topic_names if compiled.fullmatch(t) is not None))
