"""Stepped operations: long work (creating thousands of partitions) as a generator that
yields between steps, run at once or letting other trio tasks run in between."""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import ParamSpec, TypeVar

import trio

__all__ = ["all_at_once", "run_steps", "run_steps_async"]

T = TypeVar("T")
P = ParamSpec("P")


def _step(steps: Generator[None, None, T]) -> list[T]:
    """Run one step of a stepped operation: [] while it goes on, [its result] once it ended."""
    try:
        next(steps)
    except StopIteration as done:
        return [done.value]
    return []


def run_steps(steps: Generator[None, None, T]) -> T:
    """Run a stepped operation to its end at once."""
    while not (ended := _step(steps)):
        pass
    return ended[0]


async def run_steps_async(steps: Generator[None, None, T]) -> T:
    """Run a stepped operation, letting other tasks run between its steps; cancelled
    between steps, the operation is closed (it undoes what it did)."""
    try:
        while not (ended := _step(steps)):
            await trio.lowlevel.checkpoint()
        return ended[0]
    finally:
        steps.close()


def all_at_once(stepped: Callable[P, Generator[None, None, T]]) -> Callable[P, T]:
    """The function that runs ``stepped``'s operation to its end at once (same arguments)."""

    def run(*args: P.args, **kwargs: P.kwargs) -> T:
        return run_steps(stepped(*args, **kwargs))

    run.__name__ = run.__qualname__ = stepped.__name__.removesuffix("_steps")
    run.__doc__ = f"{stepped.__name__}, run to its end at once (same arguments)."
    return run
