"""Share-group extensions measured against Kafka 4.4.0 in the same run.

- Redelivery backoff: records arrive at 1,000/s; each is released on its first delivery
  and accepted when it comes back. sharebroker with ``share.redelivery.backoff.ms``
  (constant delay: multiplier 1) reports the error of the observed delay against the
  configured one (p50/p99, measured from the release's answer) and how many came back
  early (from the release being sent: must be 0). Kafka has no backoff: its row is the
  redelivery latency a consumer sees today.
- Per-key ordering: 8 librdkafka share consumers on 1 partition, 100 keys, 0-4 ms of
  work per record; throughput and ordering violations with ``share.key.ordering.enable``
  against unordered sharebroker and Kafka.

    python -m bench.share_extensions [--json out.json] [--records N]

Brokers on CPU 0, clients on CPU 1 (``make bench-share-extensions``).
"""

from __future__ import annotations

import argparse
import json
import platform
import time

from bench.peers import KafkaPeer, Sharebroker
from tests.integration import share_extensions as x


def run(records: int, delays: list[int]) -> dict:
    out: dict = {"records": records, "host": platform.node(), "started": time.strftime("%Y-%m-%dT%H:%M:%SZ")}
    sb = Sharebroker(cpus="0").start()
    kafka: KafkaPeer | None = None
    try:
        why = KafkaPeer.available()
        if why is None:
            kafka = KafkaPeer(cpus="0").start()
        out["kafka"] = "4.4.0" if kafka else f"unavailable: {why}"
        backoff = []
        for delay in delays:
            backoff.append({"broker": "sharebroker", **x.backoff_run(sb.bootstrap, records, delay)})
        backoff.append({"broker": "sharebroker", **x.backoff_run(sb.bootstrap, records, None)})
        if kafka:
            backoff.append({"broker": "kafka", **x.backoff_run(kafka.bootstrap, records, None)})
        out["backoff"] = backoff
        ordering = []
        for ordered in (False, True):
            ordering.append({"broker": "sharebroker", **x.ordering_run(sb.bootstrap, records, ordered=ordered)})
        if kafka:
            ordering.append({"broker": "kafka", **x.ordering_run(kafka.bootstrap, records, ordered=False)})
        out["ordering"] = ordering
    finally:
        sb.stop()
        if kafka:
            kafka.stop()
            kafka._tmp.cleanup()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--records", type=int, default=5000)
    ap.add_argument("--delays", default="100,500", help="backoff delays to measure (ms)")
    ap.add_argument("--json", help="write the results here")
    args = ap.parse_args()
    res = run(args.records, [int(d) for d in args.delays.split(",") if d])
    for row in res["backoff"]:
        print(
            f"backoff {row['broker']:11} delay={row['delay_ms']!s:>4} ms  releases/s={row['releases_per_s']:>7}  "
            f"early={row['early']}  error p50={row['error_p50_ms']} ms p99={row['error_p99_ms']} ms "
            f"max={row['error_max_ms']} ms"
        )
    for row in res["ordering"]:
        print(
            f"ordering {row['broker']:11} ordered={row['ordered']!s:5}  records/s={row['records_per_s']:>7}  "
            f"out_of_order={row['out_of_order']}  overlapping_in_flight={row['overlapping_in_flight']}  "
            f"redeliveries={row['deliveries'] - row['delivered']}"
        )
    if args.json:
        with open(args.json, "w") as f:
            json.dump(res, f, indent=2)


if __name__ == "__main__":
    main()
