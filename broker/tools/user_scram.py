"""``sharebroker user-scram``: SCRAM credentials of users, like ``kafka-configs.sh --entity-type users``.

::

    sharebroker user-scram --bootstrap-server B --alter --entity-type users --entity-name alice \\
        --add-config 'SCRAM-SHA-256=[iterations=8192,password=alice-secret],SCRAM-SHA-512=[password=alice-secret]'
    sharebroker user-scram --bootstrap-server B --alter --user alice --delete-config SCRAM-SHA-512
    sharebroker user-scram --bootstrap-server B --describe [--user alice]

The password is salted and hashed here (PBKDF2 with a fresh random salt, 4096
iterations unless given); only the salted password crosses the wire, in
AlterUserScramCredentials, as Kafka's Admin client sends it, and the broker keeps
only the keys derived from it. Output is kafka-configs.sh's.
"""

from __future__ import annotations

import argparse
import re
from typing import TYPE_CHECKING

from broker.tools._cli import add_tool_parser, run_with_admin

if TYPE_CHECKING:  # imported where used, to keep the command's start-up short
    from broker.admin.client import AdminClient

MECHANISMS = {"SCRAM-SHA-256": (1, "sha256"), "SCRAM-SHA-512": (2, "sha512")}
DEFAULT_ITERATIONS = 4096
_NAMES = {1: "SCRAM-SHA-256", 2: "SCRAM-SHA-512"}


def register(subparsers: argparse._SubParsersAction) -> None:
    p = add_tool_parser(
        subparsers,
        "user-scram",
        help="add, delete and describe users' SCRAM credentials (like kafka-configs.sh --entity-type users)",
        description="Manage SCRAM-SHA-256/512 credentials over the Kafka protocol "
        "(AlterUserScramCredentials, DescribeUserScramCredentials), like kafka-configs.sh.",
        actions={"alter": "add or delete credentials", "describe": "show credentials (mechanisms and iterations)"},
    )
    p.add_argument("--entity-type", choices=["users"], help="always users")
    p.add_argument("--entity-name", metavar="USER", help="the user")
    p.add_argument("--user", metavar="USER", help="the user (same as --entity-type users --entity-name USER)")
    p.add_argument(
        "--add-config",
        metavar="CONFIG",
        help="SCRAM-SHA-256=[iterations=N,password=P],SCRAM-SHA-512=[password=P]",
    )
    p.add_argument("--delete-config", metavar="MECHANISMS", help="SCRAM-SHA-256,SCRAM-SHA-512")
    p.add_argument("--timeout-ms", type=int, default=30000, help="request timeout (default 30000)")
    p.set_defaults(func=run)


_ENTRY = re.compile(r"(SCRAM-SHA-(?:256|512))=\[([^\]]*)\]")


def parse_add_config(text: str) -> list[tuple[str, int, str]]:
    """``SCRAM-SHA-256=[iterations=8192,password=x],...`` -> [(mechanism, iterations, password)]."""
    out: list[tuple[str, int, str]] = []
    pos = 0
    text = text.strip()
    while pos < len(text):
        m = _ENTRY.match(text, pos)
        if m is None:
            raise ValueError(f"--add-config: expected SCRAM-SHA-256=[...] or SCRAM-SHA-512=[...] at {text[pos:]!r}")
        options: dict[str, str] = {}
        for part in m.group(2).split(","):
            key, sep, value = part.partition("=")
            if not sep:
                raise ValueError(f"--add-config: {part!r} is not key=value")
            options[key.strip()] = value
        if "password" not in options:
            raise ValueError(f"--add-config: {m.group(1)} needs password=...")
        try:
            iterations = int(options.get("iterations", DEFAULT_ITERATIONS))
        except ValueError:
            raise ValueError(f"--add-config: iterations of {m.group(1)} is not a number") from None
        out.append((m.group(1), iterations, options["password"]))
        pos = m.end()
        if pos < len(text):
            if text[pos] != ",":
                raise ValueError(f"--add-config: expected ',' at {text[pos:]!r}")
            pos += 1
    return out


def salted_password(mechanism: str, password: str, salt: bytes, iterations: int) -> bytes:
    """RFC 5802's Hi(): PBKDF2-HMAC of the UTF-8 password (what Kafka's clients send)."""
    import hashlib

    return hashlib.pbkdf2_hmac(MECHANISMS[mechanism][1], password.encode("utf-8"), salt, iterations)


def run(args: argparse.Namespace) -> int:
    user = args.user or args.entity_name

    def check() -> None:
        if args.alter and not user:
            raise ValueError("--alter needs --user (or --entity-type users --entity-name USER)")
        if args.alter and not (args.add_config or args.delete_config):
            raise ValueError("--alter needs --add-config or --delete-config")

    return run_with_admin(
        args,
        lambda admin: _describe(admin, user) if args.describe else _alter(admin, user, args),
        client_id="sharebroker-user-scram",
        timeout_s=args.timeout_ms / 1000 + 5,
        check=check,
    )


def _alter(admin: AdminClient, user: str, args: argparse.Namespace) -> int:
    import secrets

    from broker.admin.client import KafkaApiError
    from broker.protocol.messages.alter_user_scram_credentials_request import (
        AlterUserScramCredentialsRequest,
        ScramCredentialDeletion,
        ScramCredentialUpsertion,
    )

    upsertions = []
    for mechanism, iterations, password in parse_add_config(args.add_config or ""):
        salt = secrets.token_bytes(32)
        upsertions.append(
            ScramCredentialUpsertion(
                name=user,
                mechanism=MECHANISMS[mechanism][0],
                iterations=iterations,
                salt=salt,
                salted_password=salted_password(mechanism, password, salt, iterations),
            )
        )
    deletions = []
    for name in (args.delete_config or "").split(","):
        name = name.strip()
        if not name:
            continue
        if name not in MECHANISMS:
            raise ValueError(f"--delete-config: {name!r} is not SCRAM-SHA-256 or SCRAM-SHA-512")
        deletions.append(ScramCredentialDeletion(name=user, mechanism=MECHANISMS[name][0]))
    # One request per change: the broker (like Kafka's controller) refuses a user named twice in one request.
    changes = [AlterUserScramCredentialsRequest(deletions=[d], upsertions=[]) for d in deletions]
    changes += [AlterUserScramCredentialsRequest(deletions=[], upsertions=[u]) for u in upsertions]
    for request in changes:
        resp = admin.send(request)
        for r in resp.results:
            if r.error_code:
                raise KafkaApiError(r.error_code, r.error_message, f"user {r.user}")
    print(f"Completed updating config for user {user}.")
    return 0


def _describe(admin: AdminClient, user: str | None) -> int:
    from broker.admin.client import KafkaApiError, check_error
    from broker.protocol.messages.describe_user_scram_credentials_request import (
        DescribeUserScramCredentialsRequest,
        UserName,
    )

    resp = admin.send(DescribeUserScramCredentialsRequest(users=[UserName(name=user)] if user else None))
    check_error(resp.error_code, resp.error_message, "DescribeUserScramCredentials")
    for r in resp.results:
        if r.error_code:
            if user:
                raise KafkaApiError(r.error_code, r.error_message, f"user {r.user}")
            continue
        infos = ", ".join(
            f"{_NAMES.get(c.mechanism, c.mechanism)}=iterations={c.iterations}" for c in r.credential_infos
        )
        print(f"SCRAM credential configs for user-principal '{r.user}' are {infos}")
    return 0
