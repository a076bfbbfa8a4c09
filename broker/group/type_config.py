"""What the group types' settings share: built from the broker's settings, and read
per group through the group's configs (config resource GROUP).

* :func:`config_from_settings` builds a group type's settings from the broker's
  (:mod:`broker.config.services`): every field both have, by name, and the ones the
  type derives (a list parsed, a unit converted) given by the caller;
* :class:`PerGroupConfig` is what the consumer and streams settings read alike from a
  group's ``<type>.*`` configs: the session timeout, the heartbeat interval and the
  assignment interval of KIP-1263 (within its bounds).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

__all__ = ["PerGroupConfig", "config_from_settings"]

C = TypeVar("C")


def config_from_settings(config_cls: Callable[..., C], settings: Any, **derived: Any) -> C:
    """``config_cls`` from the broker's ``settings``: the fields of the same name, and
    ``derived`` for the ones the group type computes itself."""
    shared = {f.name for f in dataclasses.fields(config_cls)} & {f.name for f in dataclasses.fields(settings)}  # type: ignore[arg-type]
    return config_cls(**{name: getattr(settings, name) for name in shared - derived.keys()}, **derived)


@dataclass(slots=True)
class PerGroupConfig:
    """What a modern group type's settings (``group.<type>.*``) share, each overridden per
    group by the group's ``PREFIX``-named config where it has one."""

    # The group configs' prefix: "consumer.", "streams.".
    PREFIX: ClassVar[str]

    session_timeout_ms: int = 45_000
    heartbeat_interval_ms: int = 5_000
    assignment_interval_ms: int = 1_000
    min_assignment_interval_ms: int = 0
    max_assignment_interval_ms: int = 15_000
    # A group's configs (<type>.session.timeout.ms, ...), by group id.
    group_configs: Callable[[str], Mapping[str, Any]] | None = None
    # A group's effective <type>.assignment.interval.ms (the group config store resolves
    # it: override or live broker default, within the bounds); None: from the fields above.
    assignment_interval_of: Callable[[str], int] | None = None

    def _value(self, group_id: str, name: str) -> str | None:
        """The group's config ``PREFIX + name``, None when it has none."""
        if self.group_configs is None:
            return None
        value = self.group_configs(group_id).get(self.PREFIX + name)
        return None if value is None else str(value)

    def _int(self, group_id: str, name: str, default: int) -> int:
        value = self._value(group_id, name)
        return default if value is None else int(value)

    def session_timeout_for(self, group_id: str) -> int:
        return self._int(group_id, "session.timeout.ms", self.session_timeout_ms)

    def heartbeat_interval_for(self, group_id: str) -> int:
        return self._int(group_id, "heartbeat.interval.ms", self.heartbeat_interval_ms)

    def assignment_interval_for(self, group_id: str) -> int:
        """Least time between two target assignments of the group (KIP-1263; 0: none)."""
        if self.assignment_interval_of is not None:
            return self.assignment_interval_of(group_id)
        value = self._int(group_id, "assignment.interval.ms", self.assignment_interval_ms)
        return min(max(value, self.min_assignment_interval_ms), self.max_assignment_interval_ms)
