"""``sharebroker transactions``: inspect transactions and end hanging ones.

Mirrors Kafka's ``kafka-transactions.sh`` (its subcommands, options, table
columns and messages), speaking only the wire protocol through
``broker.admin.client``, so it works against any Kafka cluster as well:

- ``list [--duration-filter MS] [--transactional-id-pattern RE]``: every
  transactional id on every broker (ListTransactions);
- ``describe --transactional-id ID``: its state (DescribeTransactions on its coordinator);
- ``describe-producers --topic T --partition P``: the producer states a
  partition's leader keeps (DescribeProducers);
- ``abort --topic T --partition P (--start-offset O | --producer-id ID
  --producer-epoch E --coordinator-epoch C)``: write an ABORT marker for a
  hanging transaction on that partition (WriteTxnMarkers to the leader);
- ``find-hanging (--topic T [--partition P] | --broker-id B)
  [--max-transaction-timeout MIN]``: open transactions older than the longest
  transaction timeout that their coordinator no longer knows about.

Tables are printed as Kafka prints them: each column padded to its widest
value and followed by a tab. Exit status: 0 success, 1 the operation failed
(the message on stderr), 2 bad usage.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from typing import Any

from broker.tools._cli import EXIT_FAILURE, EXIT_OK, ToolError

DESCRIPTION = """\
This tool is used to analyze the transactional state of producers in the cluster.
It can be used to detect and recover from hanging transactions (like Kafka's
kafka-transactions.sh)."""


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "transactions",
        help="list and describe transactions, describe producers, abort hanging transactions",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--bootstrap-server", required=True, metavar="HOST:PORT", help="REQUIRED: the server(s) to connect to"
    )
    commands = p.add_subparsers(dest="transactions_command", metavar="COMMAND")
    commands.required = True

    lst = commands.add_parser("list", help="list transactions")
    lst.add_argument(
        "--duration-filter",
        type=int,
        metavar="MS",
        help="Duration (in millis) to filter by: if < 0, all transactions will be returned; otherwise, "
        "only transactions running longer than this duration will be returned",
    )
    lst.add_argument(
        "--transactional-id-pattern", metavar="REGEX", help="Transactional id regular expression pattern to filter by"
    )

    desc = commands.add_parser("describe", help="describe the state of an active transactional-id")
    desc.add_argument("--transactional-id", required=True, help="transactional id")

    prod = commands.add_parser(
        "describe-producers", help="describe the states of active producers for a topic partition"
    )
    prod.add_argument(
        "--broker-id", type=int, help="optional broker id to describe the producer state on a specific replica"
    )
    prod.add_argument("--topic", required=True, help="topic name")
    prod.add_argument("--partition", type=int, required=True, help="partition number")

    abort = commands.add_parser("abort", help="abort a hanging transaction (requires administrative privileges)")
    abort.add_argument("--topic", required=True, help="topic name")
    abort.add_argument("--partition", type=int, required=True, help="partition number")
    abort.add_argument("--start-offset", type=int, help="start offset of the transaction to abort")
    abort.add_argument("--producer-id", type=int, help="producer id")
    abort.add_argument("--producer-epoch", type=int, help="producer epoch")
    abort.add_argument("--coordinator-epoch", type=int, help="coordinator epoch")

    hang = commands.add_parser("find-hanging", help="find hanging transactions")
    hang.add_argument("--broker-id", type=int, help="broker id to search for hanging transactions")
    hang.add_argument(
        "--max-transaction-timeout",
        type=int,
        default=15,
        metavar="MINUTES",
        help="maximum transaction timeout in minutes to limit the scope of the search",
    )
    hang.add_argument("--topic", help="topic name to limit search to")
    hang.add_argument("--partition", type=int, help="partition number")
    p.set_defaults(func=main, _transactions_parser=p)


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """Kafka's prettyPrintTable: every cell padded to its column's width, then a tab."""
    cells = [[str(c) for c in headers]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    return "".join("".join(c.ljust(widths[i]) + "\t" for i, c in enumerate(row)) + "\n" for row in cells)


def _list(admin: Any, args: argparse.Namespace) -> str:
    try:
        rows = admin.list_transactions(
            duration_ms=-1 if args.duration_filter is None else args.duration_filter,
            pattern=args.transactional_id_pattern,
        )
    except Exception as exc:
        raise ToolError(f"Failed to list transactions: {exc}") from exc
    return table(
        ["TransactionalId", "Coordinator", "ProducerId", "TransactionState"],
        [[s.transactional_id, node, s.producer_id, s.transaction_state] for node, s in rows],
    )


def _describe(admin: Any, args: argparse.Namespace) -> str:
    txn = args.transactional_id
    try:
        coordinator, state = admin.describe_transaction(txn)
    except Exception as exc:
        raise ToolError(f"Failed to describe transaction state of transactional-id `{txn}`: {exc}") from exc
    if state.transaction_start_time_ms >= 0:
        start = str(state.transaction_start_time_ms)
        duration = str(int(time.time() * 1000) - state.transaction_start_time_ms)
    else:
        start = duration = "None"
    partitions = ",".join(f"{t.topic}-{p}" for t in state.topics for p in t.partitions)
    return table(
        [
            "CoordinatorId",
            "TransactionalId",
            "ProducerId",
            "ProducerEpoch",
            "TransactionState",
            "TransactionTimeoutMs",
            "CurrentTransactionStartTimeMs",
            "TransactionDurationMs",
            "TopicPartitions",
        ],
        [
            [
                coordinator,
                txn,
                state.producer_id,
                state.producer_epoch,
                state.transaction_state,
                state.transaction_timeout_ms,
                start,
                duration,
                partitions,
            ]
        ],
    )


def _describe_producers(admin: Any, args: argparse.Namespace) -> str:
    tp = f"{args.topic}-{args.partition}"
    try:
        producers = admin.describe_producers(args.topic, args.partition)
    except Exception as exc:
        where = f"broker {args.broker_id}" if args.broker_id is not None else "leader"
        raise ToolError(f"Failed to describe producers for partition {tp} on {where}: {exc}") from exc
    return table(
        [
            "ProducerId",
            "ProducerEpoch",
            "LatestCoordinatorEpoch",
            "LastSequence",
            "LastTimestamp",
            "CurrentTransactionStartOffset",
        ],
        [
            [
                p.producer_id,
                p.producer_epoch,
                p.coordinator_epoch,
                p.last_sequence,
                p.last_timestamp,
                "None" if p.current_txn_start_offset < 0 else p.current_txn_start_offset,
            ]
            for p in producers
        ],
    )


def _abort(admin: Any, args: argparse.Namespace) -> str:
    tp = f"{args.topic}-{args.partition}"
    if args.start_offset is None and args.producer_id is None:
        raise ToolError(
            "The transaction to abort must be identified either with --start-offset (for brokers on 3.0 or "
            "above) or with --producer-id, --producer-epoch, and --coordinator-epoch (for older brokers)"
        )
    if args.start_offset is None:
        if args.producer_epoch is None:
            raise ToolError("Missing required argument --producer-epoch")
        if args.coordinator_epoch is None:
            raise ToolError("Missing required argument --coordinator-epoch")
        # A transaction that hung before its producer's first marker has coordinator epoch
        # -1 in DescribeProducers; 0 is at most any coordinator's epoch (Kafka's rule).
        spec = (args.producer_id, args.producer_epoch, max(args.coordinator_epoch, 0))
    else:
        try:
            producers = admin.describe_producers(args.topic, args.partition)
        except Exception as exc:
            raise ToolError(f"Failed to validate producer state for partition {tp}: {exc}") from exc
        found = [p for p in producers if p.current_txn_start_offset == args.start_offset]
        if not found:
            raise ToolError(
                f"Could not find any open transactions starting at offset {args.start_offset} on partition {tp}"
            )
        p = found[0]
        spec = (p.producer_id, p.producer_epoch, max(p.coordinator_epoch, 0))
    try:
        admin.abort_transaction(args.topic, args.partition, *spec)
    except Exception as exc:
        raise ToolError(
            f"Failed to abort transaction AbortTransactionSpec(topicPartition={tp}, producerId={spec[0]}, "
            f"producerEpoch={spec[1]}, coordinatorEpoch={spec[2]}): {exc}"
        ) from exc
    return ""


def _find_hanging(admin: Any, args: argparse.Namespace) -> str:
    if args.topic is None and args.broker_id is None:
        raise ToolError(
            "The `find-hanging` command requires either --topic or --broker-id to limit the scope of the search"
        )
    if args.partition is not None and args.topic is None:
        raise ToolError("The --partition argument requires --topic to be provided")
    max_timeout_ms = args.max_transaction_timeout * 60_000
    if args.topic is not None and args.partition is not None:
        partitions = [(args.topic, args.partition)]
    else:
        meta = admin.metadata(None if args.topic is None else [args.topic])
        partitions = [
            (t.name, p.partition_index)
            for t in meta.topics
            if not t.error_code
            for p in t.partitions
            if args.broker_id is None or args.broker_id in p.replica_nodes
        ]
    now = int(time.time() * 1000)
    hanging = _hanging(admin, _open_transactions(admin, args, partitions, now, max_timeout_ms))
    return table(
        [
            "Topic",
            "Partition",
            "ProducerId",
            "ProducerEpoch",
            "CoordinatorEpoch",
            "StartOffset",
            "LastTimestamp",
            "Duration(min)",
        ],
        [
            [
                topic,
                partition,
                p.producer_id,
                p.producer_epoch,
                p.coordinator_epoch,
                p.current_txn_start_offset,
                p.last_timestamp,
                (now - p.last_timestamp) // 60_000,
            ]
            for topic, partition, p in hanging
        ],
    )


def _open_transactions(
    admin: Any, args: argparse.Namespace, partitions: list[tuple[str, int]], now: int, max_timeout_ms: int
) -> list[tuple[str, int, Any]]:
    """The producers with a transaction open on these partitions for longer than the longest timeout."""
    candidates: list[tuple[str, int, Any]] = []
    for topic, partition in sorted(partitions):
        try:
            producers = admin.describe_producers(topic, partition)
        except Exception as exc:
            raise ToolError(
                f"Failed to describe producers for {len(partitions)} partitions on broker {args.broker_id}: {exc}"
            ) from exc
        candidates += [
            (topic, partition, p)
            for p in producers
            if p.current_txn_start_offset >= 0 and now - p.last_timestamp > max_timeout_ms
        ]
    return candidates


def _hanging(admin: Any, candidates: list[tuple[str, int, Any]]) -> list[tuple[str, int, Any]]:
    """Of those, the ones no transaction coordinator knows the partition to be in (hanging)."""
    hanging: list[tuple[str, int, Any]] = []
    if candidates:
        by_pid = {p.producer_id for _, _, p in candidates}
        try:
            listed = {s.producer_id: s.transactional_id for _, s in admin.list_transactions(producer_ids=by_pid)}
        except Exception as exc:
            raise ToolError(f"Failed to list transactions for {len(by_pid)} producers: {exc}") from exc
        described: dict[str, set[tuple[str, int]] | None] = {}
        for txn in set(listed.values()):
            try:
                _, state = admin.describe_transaction(txn)
                described[txn] = {(t.topic, p) for t in state.topics for p in t.partitions}
            except Exception as exc:
                code = getattr(exc, "code", None)
                if code is not None and code.name == "TRANSACTIONAL_ID_NOT_FOUND":
                    described[txn] = None
                else:
                    raise ToolError(f"Failed to describe {len(listed)} transactions: {exc}") from exc
        for topic, partition, p in candidates:
            txn = listed.get(p.producer_id)
            open_parts = None if txn is None else described.get(txn)
            if open_parts is None or (topic, partition) not in open_parts:
                hanging.append((topic, partition, p))
    return hanging


COMMANDS = {
    "list": _list,
    "describe": _describe,
    "describe-producers": _describe_producers,
    "abort": _abort,
    "find-hanging": _find_hanging,
}


def main(args: argparse.Namespace) -> int:
    from broker.admin.client import AdminClient, AdminError

    try:
        with AdminClient(args.bootstrap_server) as admin:
            out = COMMANDS[args.transactions_command](admin, args)
    except ToolError as exc:
        print(str(exc), file=sys.stderr)
        return EXIT_FAILURE
    except (AdminError, ValueError) as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return EXIT_FAILURE
    sys.stdout.write(out)
    return EXIT_OK
