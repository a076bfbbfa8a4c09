"""Kafka's ``sasl.jaas.config`` values: one login module entry.

Syntax (as Kafka's JaasConfig reads it)::

    <login module class> <flag> [<option>=<value> ...];

``flag`` is required, requisite, sufficient or optional; a value is a bare word
or a double-quoted string (``\\"`` and ``\\\\`` escape inside quotes). Kafka
accepts exactly one entry in the property.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = ["JaasConfigError", "JaasEntry", "parse_jaas_config"]

_FLAGS = frozenset({"required", "requisite", "sufficient", "optional"})
_TOKEN = re.compile(
    r"""\s*(?:
        (?P<quoted>"(?:[^"\\]|\\.)*")
      | (?P<semi>;)
      | (?P<eq>=)
      | (?P<word>[^\s=;"]+)
    )""",
    re.VERBOSE | re.DOTALL,
)


class JaasConfigError(ValueError):
    """The value is not one well-formed JAAS login module entry."""


@dataclass(frozen=True, slots=True)
class JaasEntry:
    login_module: str
    flag: str
    options: dict[str, str] = field(default_factory=dict)


def _tokens(text: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    pos = 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        m = _TOKEN.match(text, pos)
        if m is None:
            raise JaasConfigError(f"unexpected character at offset {pos}: {text[pos : pos + 10]!r}")
        kind = m.lastgroup
        assert kind is not None
        value = m.group(kind)
        if kind == "quoted":
            value = re.sub(r"\\(.)", r"\1", value[1:-1], flags=re.DOTALL)
        out.append((kind, value))
        pos = m.end()
    return out


def parse_jaas_config(text: str) -> JaasEntry:
    tokens = _tokens(text)
    entries: list[JaasEntry] = []
    i = 0
    while i < len(tokens):
        if tokens[i][0] != "word":
            raise JaasConfigError("expected a login module class name")
        module = tokens[i][1]
        if i + 1 >= len(tokens) or tokens[i + 1][0] != "word" or tokens[i + 1][1].lower() not in _FLAGS:
            raise JaasConfigError(
                f"login module {module} needs a control flag (required, requisite, sufficient, optional)"
            )
        flag = tokens[i + 1][1].lower()
        i += 2
        options: dict[str, str] = {}
        while i < len(tokens) and tokens[i][0] != "semi":
            if (
                i + 2 >= len(tokens)
                or tokens[i][0] != "word"
                or tokens[i + 1][0] != "eq"
                or tokens[i + 2][0] not in ("word", "quoted")
            ):
                raise JaasConfigError(f"malformed option in the entry for {module}: expected name=value")
            options[tokens[i][1]] = tokens[i + 2][1]
            i += 3
        if i >= len(tokens):
            raise JaasConfigError(f"the entry for {module} does not end with ';'")
        i += 1
        entries.append(JaasEntry(module, flag, options))
    if len(entries) != 1:
        raise JaasConfigError(f"JAAS config property contains {len(entries)} login modules, should be 1 module")
    return entries[0]
