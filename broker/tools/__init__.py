"""Operator tools: ``sharebroker <tool> ...`` subcommands that speak only the wire protocol.

Each module in ``TOOLS`` defines ``register(subparsers)``, which adds its
subcommand with ``set_defaults(func=...)``; the function returns the exit code.
Tool modules import nothing heavy at module level, so ``sharebroker serve``
does not pay for them at start-up.
"""

from __future__ import annotations

import argparse
import importlib

# Module names under broker.tools, in the order their commands are listed.
TOOLS: tuple[str, ...] = (
    "topics",
    "console_share_consumer",
    "producer_perf",
    "share_groups",
    "consumer_groups",
    "streams_groups",
    "acls",
    "user_scram",
    "transactions",
    "reassign_partitions",
    "ui",
)


def register_all(subparsers: argparse._SubParsersAction) -> None:
    for name in TOOLS:
        importlib.import_module(f"{__name__}.{name}").register(subparsers)
