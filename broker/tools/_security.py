"""``--command-config``: Kafka client properties (security.protocol, sasl.*, ssl.*) for every tool."""

from __future__ import annotations

import argparse
from typing import Any


def add_command_config(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--command-config",
        metavar="FILE",
        help="client properties for secured listeners (security.protocol, sasl.mechanism, sasl.jaas.config, "
        "ssl.truststore.location, ...), as Kafka's tools take them",
    )


def client_security(args: argparse.Namespace) -> Any:
    """The ClientSecurity for ``--command-config`` (None without it). Raises ValueError with one line."""
    path = getattr(args, "command_config", None)
    if not path:
        return None
    from broker.security.client import ClientSecurity, read_client_properties

    return ClientSecurity.from_properties(read_client_properties(path))
