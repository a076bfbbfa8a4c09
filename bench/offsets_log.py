"""``__consumer_offsets`` stays bounded: size on disk and restart replay after N commits.

``python -m bench.offsets_log --commits 20000 200000`` runs, for each N, a fresh
``sharebroker serve``; commits N offsets to one group (8 client threads, each on
its own partition of one topic, OffsetCommit v8 as a simple group: what an
application committing after every poll does); stops the broker; measures the
``__consumer_offsets`` partition directories; restarts it and reads how many
records the group coordinator replayed and how long that took from its
``coordinator_loaded`` log line. With the coordinator rewriting its live records
and deleting the rest, every figure but the commit time should not grow with N.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import threading
import time
from pathlib import Path

from broker.admin.client import AdminClient, BrokerConnection, check_error
from broker.protocol.messages.create_topics_request import CreatableTopic, CreateTopicsRequest
from broker.protocol.messages.offset_commit_request import (
    OffsetCommitRequest,
    OffsetCommitRequestPartition,
    OffsetCommitRequestTopic,
)
from broker.testing import BrokerProcess

TOPIC = "bench-offsets"
GROUP = "bench-offsets-group"
THREADS = 8


def commit_loop(bootstrap: str, node, partition: int, count: int, errors: list[str]) -> None:
    host, port = node
    with BrokerConnection(host, port, client_id=f"offsets-{partition}") as conn:
        for i in range(count):
            req = OffsetCommitRequest(
                group_id=GROUP,
                generation_id_or_member_epoch=-1,
                member_id="",
                topics=[
                    OffsetCommitRequestTopic(
                        name=TOPIC,
                        partitions=[OffsetCommitRequestPartition(partition_index=partition, committed_offset=i)],
                    )
                ],
            )
            resp = conn.call(req, 8, timeout=30)
            code = resp.topics[0].partitions[0].error_code
            if code:
                errors.append(f"partition {partition} commit {i}: error {code}")
                return


def directory_bytes(data_dir: Path, prefix: str) -> int:
    return sum(f.stat().st_size for d in data_dir.glob(prefix + "-*") for f in d.iterdir() if f.is_file())


def loaded_lines(log_path: Path) -> list[dict]:
    out = []
    for line in log_path.read_text(errors="replace").splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if (
            isinstance(event, dict)
            and event.get("event") == "coordinator_loaded"
            and event.get("coordinator") == "group"
        ):
            out.append(event)
    return out


def run_one(commits: int, workdir: Path) -> dict:
    data = workdir / f"broker-{commits}"
    broker = BrokerProcess(data).start()
    try:
        with AdminClient(broker.bootstrap) as admin:
            resp = admin.send(
                CreateTopicsRequest(
                    topics=[CreatableTopic(name=TOPIC, num_partitions=THREADS, replication_factor=-1)],
                    timeout_ms=10_000,
                )
            )
            check_error(resp.topics[0].error_code, resp.topics[0].error_message, "CreateTopics")
            coordinator = admin.find_coordinator(GROUP)
        errors: list[str] = []
        started = time.perf_counter()
        threads = [
            threading.Thread(
                target=commit_loop,
                args=(broker.bootstrap, (coordinator.host, coordinator.port), p, commits // THREADS, errors),
            )
            for p in range(THREADS)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        commit_s = time.perf_counter() - started
        if errors:
            raise RuntimeError(errors[0])
    finally:
        broker.stop()
    size = directory_bytes(data, "__consumer_offsets")
    restarted = time.perf_counter()
    broker.start()
    restart_s = time.perf_counter() - restarted
    broker.stop()
    loads = loaded_lines(broker.log_path)
    replayed = sum(e["records"] for e in loads[-50:] if "records" in e)
    replay_s = max((e.get("seconds", 0.0) for e in loads), default=0.0)
    return {
        "commits": commits,
        "commit_seconds": round(commit_s, 1),
        "commits_per_s": round(commits / commit_s),
        "offsets_topic_bytes": size,
        "restart_to_ready_s": round(restart_s, 3),
        "records_replayed_at_restart": replayed,
        "slowest_partition_replay_s": replay_s,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commits", type=int, nargs="+", default=[20_000, 200_000])
    parser.add_argument("--json", help="write the results here as JSON")
    args = parser.parse_args()
    results = []
    with tempfile.TemporaryDirectory(prefix="bench-offsets-") as tmp:
        for n in args.commits:
            result = run_one(n, Path(tmp))
            print(json.dumps(result))
            results.append(result)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
