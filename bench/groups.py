"""bench-groups: how fast classic and consumer (KIP-848) groups settle, sharebroker vs Kafka.

Two figures per broker and group protocol, measured with librdkafka consumers in
the same run against sharebroker and Apache Kafka 4.4.0 (both with their default
group settings, and no initial rebalance delay for classic groups, as the peer
runs with ``group.initial.rebalance.delay.ms=0``):

* **join to stable**: ten members subscribe to a 20-partition topic one after the
  other; the time from the last subscribe to the moment every member holds its
  share (each has partitions and together they hold all 20, none twice);
* **rebalance pause**: with the group stable and a producer writing 2,000
  records/s, one member leaves; for each remaining member, the longest time it
  received no record at all in the 15 s after the leave (normally a few ms);
  the figures are the largest and the median over the members. An eager
  classic group stops every member until the rebalance completes; a consumer
  group moves only the leaver's partitions.

Every load loop is bounded in time. Output: ``bench/results/groups-<date>.json``
and a table on stdout, with ratios sharebroker / Kafka (lower is better).

    python -m bench.groups [--rounds N] [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import threading
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

from confluent_kafka import Consumer, Producer
from confluent_kafka.admin import AdminClient, NewTopic

from bench.peers import KafkaPeer, Sharebroker

MEMBERS = 10
PARTITIONS = 20
RATE = 2000  # records/s while measuring the pause
PAUSE_WINDOW_S = 15.0
STABLE_TIMEOUT_S = 90.0


def _topic(bootstrap: str) -> str:
    name = f"bg-{uuid.uuid4().hex[:8]}"
    admin = AdminClient({"bootstrap.servers": bootstrap})
    admin.create_topics([NewTopic(name, PARTITIONS, 1)])[name].result(30)
    time.sleep(1)
    return name


def _consumer(bootstrap: str, group: str, protocol: str) -> Consumer:
    conf = {
        "bootstrap.servers": bootstrap,
        "group.id": group,
        "group.protocol": protocol,
        "auto.offset.reset": "latest",
        "enable.auto.commit": False,
        "enable.partition.eof": False,
    }
    if protocol == "classic":
        conf["partition.assignment.strategy"] = "range"
    return Consumer(conf)


def _stable(members: list[Consumer]) -> bool:
    owned = [tp.partition for c in members for tp in c.assignment()]
    return all(c.assignment() for c in members) and sorted(owned) == list(range(PARTITIONS))


def join_to_stable(bootstrap: str, protocol: str) -> float:
    topic, group = _topic(bootstrap), f"bg-{uuid.uuid4().hex[:8]}"
    members = [_consumer(bootstrap, group, protocol) for _ in range(MEMBERS)]
    try:
        for c in members:
            c.subscribe([topic])
            c.poll(0)
        start = time.monotonic()
        deadline = start + STABLE_TIMEOUT_S
        while time.monotonic() < deadline:
            for c in members:
                c.poll(0.01)
            if _stable(members):
                return time.monotonic() - start
        raise RuntimeError(f"{protocol} group did not settle within {STABLE_TIMEOUT_S} s")
    finally:
        for c in members:
            c.close()


def rebalance_pause(bootstrap: str, protocol: str) -> tuple[float, float]:
    topic, group = _topic(bootstrap), f"bg-{uuid.uuid4().hex[:8]}"
    members = [_consumer(bootstrap, group, protocol) for _ in range(MEMBERS)]
    stop = threading.Event()

    def produce() -> None:
        p = Producer({"bootstrap.servers": bootstrap, "linger.ms": 1})
        i = 0
        end = time.monotonic() + STABLE_TIMEOUT_S + PAUSE_WINDOW_S + 30
        while not stop.is_set() and time.monotonic() < end:
            for _ in range(RATE // 100):
                p.produce(topic, value=b"x", partition=i % PARTITIONS)
                i += 1
            p.poll(0)
            time.sleep(0.01)
        p.flush(10)

    producer = threading.Thread(target=produce)
    try:
        for c in members:
            c.subscribe([topic])
        deadline = time.monotonic() + STABLE_TIMEOUT_S
        while not _stable(members):
            if time.monotonic() > deadline:
                raise RuntimeError(f"{protocol} group did not settle within {STABLE_TIMEOUT_S} s")
            for c in members:
                c.poll(0.01)
        producer.start()
        warm = time.monotonic() + 3
        while time.monotonic() < warm:
            for c in members:
                c.poll(0.001)
        leaving, rest = members[0], members[1:]
        leaving.close()
        left_at = time.monotonic()
        last = dict.fromkeys(map(id, rest), left_at)
        gaps = dict.fromkeys(map(id, rest), 0.0)
        while time.monotonic() - left_at < PAUSE_WINDOW_S:
            for c in rest:
                msg = c.poll(0.001)
                if msg is None or msg.error():
                    continue
                now = time.monotonic()
                gaps[id(c)] = max(gaps[id(c)], now - last[id(c)])
                last[id(c)] = now
        end = time.monotonic()
        values = [max(gaps[id(c)], end - last[id(c)]) for c in rest]
        return max(values), statistics.median(values)
    finally:
        stop.set()
        if producer.is_alive():
            producer.join(30)
        for c in members[1:]:
            c.close()


def measure(bootstrap: str, rounds: int) -> dict:
    out: dict = {}
    for protocol in ("classic", "consumer"):
        joins = [join_to_stable(bootstrap, protocol) for _ in range(rounds)]
        pauses = [rebalance_pause(bootstrap, protocol) for _ in range(rounds)]
        out[protocol] = {
            "join_to_stable_s": round(statistics.median(joins), 3),
            "join_to_stable_runs_s": [round(x, 3) for x in joins],
            "rebalance_pause_max_s": round(statistics.median(p[0] for p in pauses), 3),
            "rebalance_pause_median_s": round(statistics.median(p[1] for p in pauses), 3),
        }
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3, help="runs per figure (median reported)")
    parser.add_argument("--json", type=Path, default=None, help="where to write the results")
    args = parser.parse_args(argv)
    results: dict = {"members": MEMBERS, "partitions": PARTITIONS, "rate": RATE, "brokers": {}}
    why = KafkaPeer.available()
    brokers: list = [Sharebroker(settings={"group.initial.rebalance.delay.ms": "0"})]
    if why is None:
        brokers.append(KafkaPeer())
    else:
        print(f"Kafka peer unavailable ({why}): sharebroker only", file=sys.stderr)
    for broker in brokers:
        broker.start()
        try:
            results["brokers"][broker.name] = measure(broker.bootstrap, args.rounds)
        finally:
            broker.stop()
    k, s = results["brokers"].get("kafka"), results["brokers"]["sharebroker"]
    print(f"{'protocol':<10} {'figure':<26} {'sharebroker':>12} {'kafka':>10} {'ratio':>7}")
    for protocol in ("classic", "consumer"):
        for figure in ("join_to_stable_s", "rebalance_pause_max_s", "rebalance_pause_median_s"):
            sv = s[protocol][figure]
            kv = k[protocol][figure] if k else None
            ratio = f"{sv / kv:.2f}" if kv else "-"
            print(f"{protocol:<10} {figure:<26} {sv:>12.3f} {kv if kv is not None else '-':>10} {ratio:>7}")
    if k:
        results["ratios"] = {
            p: {
                f: round(s[p][f] / k[p][f], 3) if k[p][f] else None
                for f in ("join_to_stable_s", "rebalance_pause_max_s")
            }
            for p in ("classic", "consumer")
        }
    path = args.json or Path("bench/results") / f"groups-{datetime.now(UTC).strftime('%Y-%m-%d')}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(results, indent=2) + "\n")
    print(f"results: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
