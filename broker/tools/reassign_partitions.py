"""``sharebroker reassign-partitions``: move partition replicas, like ``kafka-reassign-partitions.sh``.

    sharebroker reassign-partitions --bootstrap-server HOST:PORT --execute --reassignment-json-file F
    sharebroker reassign-partitions --bootstrap-server HOST:PORT --verify  --reassignment-json-file F
    sharebroker reassign-partitions --bootstrap-server HOST:PORT --cancel  --reassignment-json-file F
    sharebroker reassign-partitions --bootstrap-server HOST:PORT --list

The file has Kafka's format: ``{"version": 1, "partitions": [{"topic": "t",
"partition": 0, "replicas": [2, 3, 1]}, ...]}``. ``--execute`` prints the
current assignment (to keep for a rollback) and starts the moves
(AlterPartitionReassignments); ``--verify`` says per partition whether its move
is done (ListPartitionReassignments and Metadata); ``--cancel`` cancels the moves
of the file's partitions; ``--list`` shows every move in progress. Errors are
one line each; the exit status is 1 when any partition failed.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from broker.tools._cli import add_tool_parser


def register(subparsers: argparse._SubParsersAction) -> None:
    p = add_tool_parser(
        subparsers,
        "reassign-partitions",
        help="move partition replicas between brokers (like kafka-reassign-partitions.sh)",
        description="Start, verify, cancel and list partition reassignments over the Kafka protocol.",
        command_config=False,
        actions={
            "execute": "start the reassignment in the file",
            "verify": "tell whether the file's reassignment is done",
            "cancel": "cancel the reassignment of the file's partitions",
            "list": "list the reassignments in progress",
        },
    )
    p.add_argument("--reassignment-json-file", metavar="FILE", help="the reassignment (Kafka's JSON format)")
    p.add_argument(
        "--disallow-replication-factor-change",
        action="store_true",
        help="refuse moves that change a partition's replica count",
    )
    p.add_argument("--timeout-ms", type=int, default=30000, help="request timeout (default 30000)")
    p.set_defaults(func=run)


class _BadFile(Exception):
    pass


def parse_plan(text: str) -> list[tuple[str, int, list[int]]]:
    """(topic, partition, replicas) of a reassignment file (raises _BadFile with one line)."""
    try:
        doc = json.loads(text)
    except ValueError as exc:
        raise _BadFile(f"the reassignment file is not JSON: {exc}") from None
    parts = doc.get("partitions") if isinstance(doc, dict) else None
    if not isinstance(parts, list) or not parts:
        raise _BadFile('the reassignment file needs a non-empty "partitions" list')
    out: list[tuple[str, int, list[int]]] = []
    seen: set[tuple[str, int]] = set()
    for entry in parts:
        if not isinstance(entry, dict):
            raise _BadFile(f"not a partition entry: {entry!r}")
        topic, index, replicas = entry.get("topic"), entry.get("partition"), entry.get("replicas")
        if not isinstance(topic, str) or not isinstance(index, int) or isinstance(index, bool):
            raise _BadFile(f'an entry needs "topic" (string) and "partition" (integer): {entry!r}')
        if not isinstance(replicas, list) or not all(isinstance(r, int) and not isinstance(r, bool) for r in replicas):
            raise _BadFile(f'an entry needs "replicas" (a list of broker ids): {entry!r}')
        if (topic, index) in seen:
            raise _BadFile(f"partition {topic}-{index} appears more than once")
        seen.add((topic, index))
        out.append((topic, index, replicas))
    return out


def _current(admin: Any, topics: list[str]) -> dict[tuple[str, int], list[int]]:
    from broker.admin.client import check_error

    resp = admin.metadata(topics)
    out: dict[tuple[str, int], list[int]] = {}
    for t in resp.topics:
        check_error(t.error_code, None, f"topic {t.name!r}")
        for p in t.partitions:
            out[(t.name, p.partition_index)] = list(p.replica_nodes)
    return out


def _ongoing(admin: Any, wanted: list[tuple[str, int]] | None) -> dict[tuple[str, int], Any]:
    from broker.admin.client import check_error
    from broker.protocol.messages.list_partition_reassignments_request import (
        ListPartitionReassignmentsRequest,
        ListPartitionReassignmentsTopics,
    )

    topics = None
    if wanted is not None:
        by_topic: dict[str, list[int]] = {}
        for t, i in wanted:
            by_topic.setdefault(t, []).append(i)
        topics = [ListPartitionReassignmentsTopics(name=t, partition_indexes=ps) for t, ps in by_topic.items()]
    resp = admin.send(ListPartitionReassignmentsRequest(timeout_ms=int(admin.timeout * 1000), topics=topics))
    check_error(resp.error_code, resp.error_message, "ListPartitionReassignments")
    return {(t.name, p.partition_index): p for t in resp.topics for p in t.partitions}


def _alter(admin: Any, moves: list[tuple[str, int, list[int] | None]], allow_rf_change: bool) -> list[str]:
    from broker.admin.client import check_error, error_name
    from broker.protocol.messages.alter_partition_reassignments_request import (
        AlterPartitionReassignmentsRequest,
        ReassignablePartition,
        ReassignableTopic,
    )

    by_topic: dict[str, list[ReassignablePartition]] = {}
    for t, i, replicas in moves:
        by_topic.setdefault(t, []).append(ReassignablePartition(partition_index=i, replicas=replicas))
    resp = admin.send(
        AlterPartitionReassignmentsRequest(
            timeout_ms=int(admin.timeout * 1000),
            allow_replication_factor_change=allow_rf_change,
            topics=[ReassignableTopic(name=t, partitions=ps) for t, ps in by_topic.items()],
        )
    )
    check_error(resp.error_code, resp.error_message, "AlterPartitionReassignments")
    failures = []
    for t in resp.responses:
        for p in t.partitions:
            if p.error_code:
                detail = f": {p.error_message}" if p.error_message else ""
                failures.append(f"{t.name}-{p.partition_index}: {error_name(p.error_code)}{detail}")
    return failures


def _ids(nodes: Any) -> str:
    return ",".join(str(n) for n in nodes)


def run(args: argparse.Namespace) -> int:
    from broker.admin.client import AdminClient, AdminError

    plan: list[tuple[str, int, list[int]]] = []
    if not args.list:
        if not args.reassignment_json_file:
            print("error: --reassignment-json-file is required with --execute, --verify and --cancel", file=sys.stderr)
            return 2
        try:
            with open(args.reassignment_json_file, encoding="utf-8") as f:
                plan = parse_plan(f.read())
        except OSError as exc:
            print(f"error: cannot read {args.reassignment_json_file}: {exc.strerror}", file=sys.stderr)
            return 2
        except _BadFile as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
    try:
        with AdminClient(
            args.bootstrap_server, timeout=args.timeout_ms / 1000 + 5, client_id="sharebroker-reassign-partitions"
        ) as admin:
            if args.list:
                return _list(admin)
            if args.execute:
                return _execute(admin, args, plan)
            if args.cancel:
                return _cancel(admin, plan)
            return _verify(admin, plan)
    except AdminError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1


def _list(admin: Any) -> int:
    """--list: the reassignments in progress."""
    ongoing = _ongoing(admin, None)
    if not ongoing:
        print("No partition reassignments found.")
        return 0
    print("Current partition reassignments:")
    for (t, i), p in sorted(ongoing.items()):
        print(
            f"{t}-{i}: replicas: {_ids(p.replicas)}. adding: {_ids(p.adding_replicas)}. "
            f"removing: {_ids(p.removing_replicas)}."
        )
    return 0


def _execute(admin: Any, args: argparse.Namespace, plan: list[tuple[str, int, list[int]]]) -> int:
    """--execute: print the current assignment (to roll back with), then start the plan."""
    keys = [(t, i) for t, i, _ in plan]
    current = _current(admin, sorted({t for t, _ in keys}))
    rollback = {
        "version": 1,
        "partitions": [{"topic": t, "partition": i, "replicas": current.get((t, i), [])} for t, i in keys],
    }
    print("Current partition replica assignment\n")
    print(json.dumps(rollback))
    print("\nSave this to use as the --reassignment-json-file option during rollback")
    failures = _alter(
        admin,
        [(t, i, r) for t, i, r in plan],
        not args.disallow_replication_factor_change,
    )
    return _report(keys, failures, "Successfully started partition reassignments for ")


def _cancel(admin: Any, plan: list[tuple[str, int, list[int]]]) -> int:
    """--cancel: stop the plan's reassignments in progress."""
    keys = [(t, i) for t, i, _ in plan]
    failures = _alter(admin, [(t, i, None) for t, i in keys], True)
    return _report(keys, failures, "Successfully cancelled partition reassignments for: ")


def _report(keys: list[tuple[str, int]], failures: list[str], success: str) -> int:
    """``success`` and the partitions that did not fail, then one line per failure; the exit status."""
    done = [f"{t}-{i}" for t, i in keys if not any(f.startswith(f"{t}-{i}:") for f in failures)]
    if done:
        print(success + ",".join(done))
    for line in failures:
        print(f"error: {line}", file=sys.stderr)
    return 1 if failures else 0


def _verify(admin: Any, plan: list[tuple[str, int, list[int]]]) -> int:
    """--verify: whether each partition of the plan has its replicas yet."""
    keys = [(t, i) for t, i, _ in plan]
    ongoing = _ongoing(admin, keys)
    current = _current(admin, sorted({t for t, _ in keys}))
    print("Status of partition reassignment:")
    failed = False
    for t, i, replicas in plan:
        if (t, i) in ongoing:
            print(f"Reassignment of partition {t}-{i} is still in progress.")
        elif current.get((t, i)) == replicas:
            print(f"Reassignment of partition {t}-{i} is completed.")
        else:
            failed = True
            print(
                f"There is no active reassignment of partition {t}-{i}, but replica set is "
                f"{current.get((t, i), [])} rather than {replicas}."
            )
    return 1 if failed else 0
