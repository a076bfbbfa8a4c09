"""``sharebroker topics``: create, list, describe, alter and delete topics.

Output follows ``kafka-topics.sh`` (and ``kafka-configs.sh`` for ``--alter``)::

    sharebroker topics --bootstrap-server HOST:PORT --create --topic T [--partitions N] [--config k=v ...]
    sharebroker topics --bootstrap-server HOST:PORT --list
    sharebroker topics --bootstrap-server HOST:PORT --describe [--topic T]
    sharebroker topics --bootstrap-server HOST:PORT --alter --topic T [--add-config k=v,...] [--delete-config k,...]
    sharebroker topics --bootstrap-server HOST:PORT --delete --topic T
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from broker.tools._cli import add_tool_parser, run_with_admin

if TYPE_CHECKING:  # imported where used, to keep the command's start-up short
    from broker.admin.client import AdminClient


def register(subparsers: argparse._SubParsersAction) -> None:
    p = add_tool_parser(
        subparsers,
        "topics",
        help="create, list, describe, alter and delete topics (like kafka-topics.sh)",
        description="Manage topics over the Kafka protocol, like kafka-topics.sh and kafka-configs.sh.",
        actions={
            "create": "create a topic",
            "list": "list topic names",
            "describe": "describe one topic or all",
            "delete": "delete a topic",
            "alter": "change topic configs",
        },
    )
    p.add_argument("--topic", metavar="T", help="topic name")
    p.add_argument(
        "--partitions", type=int, default=None, metavar="N", help="partition count for --create (default: broker's)"
    )
    p.add_argument("--replication-factor", type=int, default=None, metavar="R", help="replication factor for --create")
    p.add_argument(
        "--config", action="append", default=[], metavar="K=V", help="topic config for --create (repeatable)"
    )
    p.add_argument("--add-config", action="append", default=[], metavar="K=V[,K=V]", help="configs to set with --alter")
    p.add_argument(
        "--delete-config", action="append", default=[], metavar="K[,K]", help="configs to remove with --alter"
    )
    p.add_argument("--exclude-internal", action="store_true", help="leave internal topics out of --list/--describe")
    p.add_argument("--if-not-exists", action="store_true", help="--create: no error if the topic exists")
    p.add_argument("--if-exists", action="store_true", help="--delete/--alter: no error if the topic is missing")
    p.add_argument("--timeout-ms", type=int, default=30000, help="request timeout (default 30000)")
    p.set_defaults(func=run)


def _pairs(items: list[str], what: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items:
        for part in item.split(","):
            part = part.strip()
            if not part:
                continue
            key, sep, value = part.partition("=")
            if not sep:
                raise SystemExit(f"error: {what} expects key=value, got {part!r}")
            out[key.strip()] = value
    return out


def _topic_id_text(topic_id: object) -> str:
    import base64

    raw = getattr(topic_id, "bytes", b"")
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def run(args: argparse.Namespace) -> int:
    if (args.create or args.delete or args.alter) and not args.topic:
        print("error: --topic is required with --create, --delete and --alter", file=sys.stderr)
        return 2
    return run_with_admin(
        args, lambda admin: _act(admin, args), client_id="sharebroker-topics", timeout_s=args.timeout_ms / 1000 + 5
    )


def _act(admin: AdminClient, args: argparse.Namespace) -> int:
    if args.create:
        return _create(admin, args)
    if args.list:
        return _list(admin, args)
    if args.describe:
        return _describe(admin, args)
    if args.delete:
        return _delete(admin, args)
    return _alter(admin, args)


def _create(admin: AdminClient, args: argparse.Namespace) -> int:
    from broker.admin.client import check_error
    from broker.protocol.errors import ErrorCode
    from broker.protocol.messages.create_topics_request import CreatableTopic, CreatableTopicConfig, CreateTopicsRequest

    configs = _pairs(args.config, "--config")
    topic = CreatableTopic(
        name=args.topic,
        num_partitions=-1 if args.partitions is None else args.partitions,
        replication_factor=-1 if args.replication_factor is None else args.replication_factor,
        assignments=[],
        configs=[CreatableTopicConfig(name=k, value=v) for k, v in configs.items()],
    )
    resp = admin.send(CreateTopicsRequest(topics=[topic], timeout_ms=args.timeout_ms))
    result = resp.topics[0]
    if result.error_code == ErrorCode.TOPIC_ALREADY_EXISTS and args.if_not_exists:
        return 0
    check_error(result.error_code, result.error_message, f"create topic {args.topic}")
    print(f"Created topic {args.topic}.")
    return 0


def _list(admin: AdminClient, args: argparse.Namespace) -> int:
    meta = admin.metadata(None)
    for t in sorted(meta.topics, key=lambda t: t.name or ""):
        if args.exclude_internal and t.is_internal:
            continue
        print(t.name)
    return 0


def _describe(admin: AdminClient, args: argparse.Namespace) -> int:
    from broker.admin.client import RESOURCE_TOPIC, AdminError, check_error
    from broker.protocol.errors import ErrorCode

    meta = admin.metadata([args.topic] if args.topic else None)
    topics = sorted(meta.topics, key=lambda t: t.name or "")
    status = 0
    for t in topics:
        if args.exclude_internal and t.is_internal:
            continue
        if t.error_code:
            if args.topic and t.error_code == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION and args.if_exists:
                continue
            check_error(t.error_code, None, f"describe topic {t.name}")
        partitions = sorted(t.partitions, key=lambda p: p.partition_index)
        rf = len(partitions[0].replica_nodes) if partitions else 0
        try:
            configs = admin.describe_config_entries(RESOURCE_TOPIC, t.name)
        except AdminError:  # configs are a best-effort extra
            configs = []
        dynamic = ",".join(f"{c.name}={c.value}" for c in configs if c.config_source == 1)
        print(
            f"Topic: {t.name}\tTopicId: {_topic_id_text(t.topic_id)}\tPartitionCount: {len(partitions)}"
            f"\tReplicationFactor: {rf}\tConfigs: {dynamic}"
        )
        for p in partitions:
            replicas = ",".join(map(str, p.replica_nodes))
            isr = ",".join(map(str, p.isr_nodes))
            print(
                f"\tTopic: {t.name}\tPartition: {p.partition_index}\tLeader: {p.leader_id}"
                f"\tReplicas: {replicas}\tIsr: {isr}"
            )
    return status


def _delete(admin: AdminClient, args: argparse.Namespace) -> int:
    from broker.admin.client import KafkaApiError
    from broker.protocol.errors import ErrorCode

    try:
        admin.delete_topics([args.topic])
    except KafkaApiError as exc:
        if exc.code == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION and args.if_exists:
            return 0
        raise
    print(f"Deleted topic {args.topic}.")
    return 0


def _alter(admin: AdminClient, args: argparse.Namespace) -> int:
    from broker.admin.client import RESOURCE_TOPIC

    add = _pairs(args.add_config, "--add-config")
    delete = [k.strip() for item in args.delete_config for k in item.split(",") if k.strip()]
    if not add and not delete:
        print("error: --alter needs --add-config and/or --delete-config", file=sys.stderr)
        return 2
    changes: dict[str, str | None] = dict(add)
    changes.update(dict.fromkeys(delete))
    admin.incremental_alter_configs(RESOURCE_TOPIC, args.topic, changes)
    print(f"Completed updating config for topic {args.topic}.")
    return 0
