"""What a change to a keyed security state does (SCRAM credentials, delegation tokens):
the entries it sets and the keys it removes, prepared by the pure store, persisted by the
shell, then applied."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Generic, TypeVar

__all__ = ["Delta"]

K = TypeVar("K")
V = TypeVar("V")


@dataclass(frozen=True, slots=True)
class Delta(Generic[K, V]):
    """Entries to set (new or changed) and keys to remove."""

    upserts: dict[K, V] = field(default_factory=dict)
    removals: frozenset[K] = frozenset()

    @property
    def empty(self) -> bool:
        return not self.upserts and not self.removals

    def applied_to(self, current: Mapping[K, V]) -> dict[K, V]:
        """``current`` as it will be once this delta applies (what to persist)."""
        after = {k: v for k, v in current.items() if k not in self.removals}
        after.update(self.upserts)
        return after
