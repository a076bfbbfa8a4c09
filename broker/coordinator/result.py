"""What every coordinator core's operation hands the runtime: one result type.

A core (classic, consumer, streams and share groups, share-group state,
transactions) is pure: it takes ``now_ms`` and the request, and returns a
:class:`CoordinatorResult` holding

* ``records``: what to append to the shard's partition, in order. Each core
  knows how its records reach its state: the consumer and streams cores change
  state only when the shell replays the records (load and live share one code
  path); the others apply them as they build them.
* ``response``: the answer to send once those records are durable (None for
  work a timer started).

Timers are not part of the result: a core schedules them through the keyed
timer the runtime gives it (:mod:`broker.coordinator.timer`), as Kafka's
``CoordinatorTimer`` beside its ``CoordinatorResult``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar, overload

__all__ = ["CoordinatorResult"]

R = TypeVar("R")


@dataclass(slots=True)
class CoordinatorResult(Sequence[Any], Generic[R]):
    """Records to append, in order, then the response to send once they are durable.

    The result is the sequence of its records (``len(result)``, ``result[0]``), so an
    operation that answers nothing but what it writes reads like its records.
    """

    records: list[Any] = field(default_factory=list)
    response: R | None = None

    def __len__(self) -> int:
        return len(self.records)

    @overload
    def __getitem__(self, index: int) -> Any: ...

    @overload
    def __getitem__(self, index: slice) -> list[Any]: ...

    def __getitem__(self, index: int | slice) -> Any:
        return self.records[index]

    def __iter__(self) -> Iterator[Any]:
        return iter(self.records)

    def answer(self) -> R:
        """The response, which every operation answering a request has."""
        assert self.response is not None, "this result answers no request"
        return self.response

    def extend(self, other: CoordinatorResult[Any]) -> None:
        """Append ``other``'s records after these (its response is dropped)."""
        self.records.extend(other.records)
