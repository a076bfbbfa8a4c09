"""Reading settings: keys (listener-prefixed ones too), typed values, ``.properties`` text."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from broker.config.model import ENV_PREFIX, ConfigType, Origin, Setting
from broker.config.table import SETTINGS, SETTINGS_BY_KEY


def known_setting(key: str) -> str:
    """``key`` when the settings table has it; a KeyError naming it otherwise.

    Code that reads a setting with a fallback (for a service built without a config,
    as in unit tests) checks the key here first, so a misspelt key fails where it is
    read instead of quietly giving the fallback.
    """
    if key not in SETTINGS_BY_KEY and prefixed_setting(key) is None:
        raise KeyError(f"{key!r} is not a setting of the settings table (broker.config.SETTINGS)")
    return key


LISTENER_KEYS = frozenset(
    s.key
    for s in SETTINGS
    if s.section == "Security"
    and s.key
    not in {
        "authorizer.class.name",
        "super.users",
        "allow.everyone.if.no.acl.found",
        "sasl.mechanism.inter.broker.protocol",
        "ssl.endpoint.identification.algorithm",
    }
    and not s.key.startswith("delegation.token.")
)
SASL_MECHANISMS = ("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER")
JAAS_KEY = "sasl.jaas.config"
MECHANISM_KEYS = frozenset({JAAS_KEY, "connections.max.reauth.ms"})
LISTENER_PREFIX = "listener.name."


def listener_key(listener: str, key: str, mechanism: str | None = None) -> str:
    """``listener.name.<listener>[.<mechanism>].<key>``, lower-cased as Kafka writes it."""
    middle = f"{mechanism.lower()}." if mechanism else ""
    return f"{LISTENER_PREFIX}{listener.lower()}.{middle}{key}"


def split_listener_key(key: str) -> tuple[str, str | None, str] | None:
    """(listener, mechanism or None, base key) of a listener-prefixed key, else None."""
    if not key.startswith(LISTENER_PREFIX):
        return None
    rest = key[len(LISTENER_PREFIX) :]
    for base in sorted(LISTENER_KEYS | MECHANISM_KEYS, key=len, reverse=True):
        if not rest.endswith("." + base):
            continue
        head = rest[: -len(base) - 1]
        for mechanism in SASL_MECHANISMS:
            suffix = "." + mechanism.lower()
            if base in MECHANISM_KEYS and head.lower().endswith(suffix) and len(head) > len(suffix):
                return head[: -len(suffix)], mechanism, base
        if base in LISTENER_KEYS and head and re.fullmatch(r"[A-Za-z0-9_-]+", head):
            return head, None, base
    return None


def prefixed_setting(key: str) -> Setting | None:
    parts = split_listener_key(key)
    if parts is None:
        return None
    listener, mechanism, base = parts
    if base == JAAS_KEY:
        return Setting(
            key,
            ConfigType.PASSWORD,
            None,
            doc=f"JAAS login module entry of {mechanism} on listener {listener.upper()}.",
            section="Security",
            sensitive=True,
        )
    template = SETTINGS_BY_KEY[base]
    return Setting(
        key,
        template.type,
        None,
        doc=template.doc,
        section=template.section,
        min=template.min,
        max=template.max,
        choices=template.choices,
        sensitive=template.sensitive,
    )


def listener_env(name: str) -> Setting | None:
    """The listener-prefixed setting an environment variable names (dots, dashes and
    underscores all read as ``_``), e.g. SHAREBROKER_LISTENER_NAME_SASL_SSL_SCRAM_SHA_512_SASL_JAAS_CONFIG."""
    head = ENV_PREFIX + "LISTENER_NAME_"
    if not name.startswith(head):
        return None
    rest = name[len(head) :]

    def env(text: str) -> str:
        return text.upper().replace(".", "_").replace("-", "_")

    for base in sorted(LISTENER_KEYS | MECHANISM_KEYS, key=len, reverse=True):
        tail = "_" + env(base)
        if not rest.endswith(tail):
            continue
        listener = rest[: -len(tail)]
        if base in MECHANISM_KEYS:
            for mechanism in SASL_MECHANISMS:
                mtail = "_" + env(mechanism)
                if listener.endswith(mtail) and len(listener) > len(mtail):
                    return prefixed_setting(listener_key(listener[: -len(mtail)], base, mechanism))
        if base in LISTENER_KEYS and listener:
            return prefixed_setting(listener_key(listener, base))
    return None


def lookup(key: str, origin: Origin) -> Setting:
    setting = SETTINGS_BY_KEY.get(key) or prefixed_setting(key)
    if setting is None:
        import difflib

        near = difflib.get_close_matches(key, SETTINGS_BY_KEY, n=1)
        hint = f"; did you mean {near[0]}?" if near else ""
        raise origin.error(key, f"unknown setting{hint}")
    return setting


def parse_value(setting: Setting, raw: str, origin: Origin) -> Any:
    try:
        return setting.parse(raw)
    except ValueError as e:
        raise origin.error(setting.key, str(e)) from None


# --------------------------------------------------------------------------- properties files


def parse_properties(text: str) -> Iterator[tuple[str, str, int]]:
    """Yield (key, value, line number) from Java ``.properties`` text.

    Supports what ``java.util.Properties.load`` does: ``key=value``, ``key: value`` and
    ``key value``; ``#`` and ``!`` comment lines; a line ending in an odd number of
    backslashes continues on the next line (whose leading blanks are dropped); and the
    escapes ``\\t \\n \\r \\f \\uXXXX`` (any other escaped character stands for itself).
    The line number is where the entry starts.
    """
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        start = i
        line = lines[i].lstrip(" \t\f")
        i += 1
        if not line or line[0] in "#!":
            continue
        logical = ""
        while True:
            trailing = len(line) - len(line.rstrip("\\"))
            if trailing % 2 == 1:
                logical += line[:-1]
                if i >= len(lines):
                    break
                line = lines[i].lstrip(" \t\f")
                i += 1
            else:
                logical += line
                break
        key, value = _split_entry(logical)
        yield _unescape(key), _unescape(value), start + 1


def _split_entry(logical: str) -> tuple[str, str]:
    j, n = 0, len(logical)
    while j < n:
        c = logical[j]
        if c == "\\":
            j += 2
            continue
        if c in "=: \t\f":
            break
        j += 1
    key = logical[:j]
    k = j
    while k < n and logical[k] in " \t\f":
        k += 1
    if k < n and logical[k] in "=:":
        k += 1
        while k < n and logical[k] in " \t\f":
            k += 1
    return key, logical[k:]


_ESCAPES = {"t": "\t", "n": "\n", "r": "\r", "f": "\f"}


def _unescape(s: str) -> str:
    if "\\" not in s:
        return s
    out: list[str] = []
    j, n = 0, len(s)
    while j < n:
        c = s[j]
        if c != "\\" or j + 1 >= n:
            out.append(c)
            j += 1
            continue
        nxt = s[j + 1]
        if nxt == "u" and re.fullmatch(r"[0-9A-Fa-f]{4}", s[j + 2 : j + 6]):
            out.append(chr(int(s[j + 2 : j + 6], 16)))
            j += 6
        else:
            out.append(_ESCAPES.get(nxt, nxt))
            j += 2
    return "".join(out)
