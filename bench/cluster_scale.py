"""Aggregate produce throughput of a 2-broker cluster against 1 broker (``make bench-cluster``).

Each run starts ``sharebroker local-cluster``'s pieces (etcd and N brokers on
loopback, fresh data directories), creates a topic of 8 partitions (leaders
spread: 4 per broker with 2 brokers), and drives one librdkafka producer with
1 KiB records, acks=all, round-robin over the partitions, for a fixed record
count. The client runs in this process, pinned as bench-compare pins clients
(``taskset -c 1``, done by the make target); etcd is pinned to CPU 1 too (it
is idle while records flow). Brokers are pinned two ways:

- ``same-core``: every broker on CPU 0, the one core bench-compare gives a
  broker; 2 brokers then split one core, so this shows what running as a
  cluster costs, not what it gains;
- ``core-each``: broker 1 on CPU 0, broker 2 on CPU 1 (beside the client);
  the gain a second machine would bring, on a 2-core machine as far as it can.

Every figure is the median of ``--runs`` runs. Results go to
``bench/results/cluster-scale-<date>.json``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import time
from pathlib import Path

from confluent_kafka.admin import AdminClient, NewTopic

from bench.produce import produce
from broker.localcluster import LocalCluster

PARTITIONS = 8


def pin(pid: int, cpu: int) -> None:
    subprocess.run(["taskset", "-a", "-p", "-c", str(cpu), str(pid)], check=True, capture_output=True)


def one_run(brokers: int, layout: str, records: int) -> float:
    with LocalCluster(brokers) as cluster:
        assert cluster.etcd is not None and cluster.etcd.process is not None
        pin(cluster.etcd.process.pid, 1)
        for i, b in enumerate(cluster.brokers):
            assert b.process is not None
            pin(b.process.pid, 0 if layout == "same-core" else i % 2)
        admin = AdminClient({"bootstrap.servers": cluster.bootstrap})
        admin.create_topics([NewTopic("scale", num_partitions=PARTITIONS)])["scale"].result(timeout=30)
        leaders = {p.leader for p in admin.list_topics("scale", timeout=10).topics["scale"].partitions.values()}
        assert len(leaders) == brokers, leaders
        time.sleep(1)  # let the coordinators settle
        elapsed = produce(cluster.bootstrap, "scale", PARTITIONS, records)
        return records * 1024 / 1e6 / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=200_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    results: dict = {"records": args.records, "record_bytes": 1024, "partitions": PARTITIONS, "runs": args.runs}
    for layout in ("same-core", "core-each"):
        for brokers in (1, 2):
            if brokers == 1 and layout == "core-each":
                continue  # one broker is on CPU 0 either way
            rates = [one_run(brokers, layout, args.records) for _ in range(args.runs)]
            key = f"{brokers}-broker" if brokers == 1 else f"2-broker-{layout}"
            results[key] = {"mb_per_s": round(statistics.median(rates), 1), "all": [round(r, 1) for r in rates]}
            print(f"{key}: {results[key]['mb_per_s']} MB/s (runs {results[key]['all']})", flush=True)
    one = results["1-broker"]["mb_per_s"]
    for layout in ("same-core", "core-each"):
        results[f"ratio-{layout}"] = round(results[f"2-broker-{layout}"]["mb_per_s"] / one, 2)
    print(json.dumps(results, indent=1))
    out = args.json or Path("bench/results") / f"cluster-scale-{time.strftime('%Y-%m-%d')}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()
