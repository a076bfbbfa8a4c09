"""bench-ui: the web console's pages for a cluster with 1,000 partitions and 100 share groups.

One sharebroker (metrics on) holds 10 topics of 100 partitions, one record in each
partition, and 100 share groups with start offsets on one topic each (10,000
share-partitions). ``sharebroker ui`` runs against it with its sampler's interval set
to an hour, so it samples once at start and stays idle; each page load waits past the
console's 1 s cache, so every page asks the cluster afresh except the whole-cluster
lists, which pages take from the sampler (as they do at the default 5 s interval).
It reports

* the sampler's round (the topic and share group lists of the whole cluster, read in
  the background once per interval): its time and its Kafka requests by API;
* per page, the time to answer it (HTTP GET to last byte, from this process on the
  same machine): median, 95th percentile and largest of SAMPLES loads, and the Kafka
  requests one load sent, by API.

Requests are read from the broker's own counters (``sharebroker_requests_total``)
before and after: nothing else talks to the broker meanwhile, so the difference is the
console's.

The goal is every page under 300 ms and no request per partition or per group where a
batched request exists. Output: a table on stdout and ``--json PATH``.

    python -m bench.ui [--samples N] [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
import urllib.request
from datetime import UTC, datetime
from pathlib import Path

from broker.admin.client import AdminClient
from broker.localcluster import BrokerProcess, free_port
from tests.ui.harness import UiProcess

TOPICS = 10
PARTITIONS_PER_TOPIC = 100
GROUPS = 100
SAMPLES = 10
TARGET_MS = 300.0
# Longer than the console's cache (gateway.CACHE_TTL_S, 1 s): each load asks the cluster.
PAST_CACHE_S = 1.2
# Bounds: a page slower than this is a failure, not a sample.
PAGE_TIMEOUT_S = 30.0


def _requests_by_api(metrics_url: str) -> dict[str, float]:
    from prometheus_client.parser import text_string_to_metric_families

    with urllib.request.urlopen(metrics_url, timeout=10) as resp:
        text = resp.read().decode()
    out: dict[str, float] = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            if s.name == "sharebroker_requests_total":
                out[s.labels["api"]] = s.value
    return out


def _diff(before: dict[str, float], after: dict[str, float]) -> dict[str, int]:
    # The scrape itself is no Kafka request; every difference is the console's.
    return {api: int(after[api] - before.get(api, 0)) for api in sorted(after) if after[api] > before.get(api, 0)}


def _wait_round(ui: UiProcess) -> float:
    """The first sampler round's time, from the console's ``ui_sampled`` log line."""
    import re

    deadline = time.monotonic() + PAGE_TIMEOUT_S
    while time.monotonic() < deadline:
        found = re.search(r"ui_sampled\s.*?round_ms=([0-9.]+)", ui.log())
        if found:
            return float(found.group(1))
        time.sleep(0.1)
    raise RuntimeError(f"no sampler round in {PAGE_TIMEOUT_S} s:\n{ui.log()}")


def _get(url: str) -> float:
    t0 = time.perf_counter()
    with urllib.request.urlopen(url, timeout=PAGE_TIMEOUT_S) as resp:
        body = resp.read()
        if resp.status != 200 or b'id="page-error"' in body:
            raise RuntimeError(f"{url}: status {resp.status}, an error on the page")
    return (time.perf_counter() - t0) * 1000


def _populate(bootstrap: str) -> None:
    from confluent_kafka import Producer

    topics = {f"bench-{i}": PARTITIONS_PER_TOPIC for i in range(TOPICS)}
    with AdminClient(bootstrap, timeout=120) as admin:
        admin.create_topics(topics)
        p = Producer({"bootstrap.servers": bootstrap, "linger.ms": 50})
        for t in topics:
            for part in range(PARTITIONS_PER_TOPIC):
                p.produce(t, value=b"x" * 100, partition=part)
        assert p.flush(60) == 0
        for g in range(GROUPS):
            topic = f"bench-{g % TOPICS}"
            admin.alter_share_group_offsets(f"group-{g:03d}", {(topic, p): 0 for p in range(PARTITIONS_PER_TOPIC)})


def run(samples: int) -> dict:
    metrics_port = free_port()
    metrics_url = f"http://127.0.0.1:{metrics_port}/metrics"
    with tempfile.TemporaryDirectory(prefix="bench-ui-") as tmp:
        broker = BrokerProcess(Path(tmp) / "data", {"metrics.listen": f"127.0.0.1:{metrics_port}"})
        broker.start()
        try:
            t0 = time.monotonic()
            _populate(broker.bootstrap)
            print(f"populated in {time.monotonic() - t0:.1f} s", file=sys.stderr)
            before_round = _requests_by_api(metrics_url)
            with UiProcess(broker.bootstrap, "--metrics-url", metrics_url, refresh=3600) as ui:
                found = _wait_round(ui)
                after_round = _requests_by_api(metrics_url)
                sampler = {
                    "round_ms": found,
                    "by_api": _diff(before_round, after_round),
                }
                pages = ["/", "/topics", "/topics/bench-0", "/share-groups", "/share-groups/group-000", "/groups"]
                for page in pages:  # warm up: every pooled client connected, templates compiled
                    for _ in range(4):
                        _get(ui.url + page)
                rows = {}
                for page in pages:
                    time.sleep(PAST_CACHE_S)
                    before = _requests_by_api(metrics_url)
                    _get(ui.url + page)
                    after = _requests_by_api(metrics_url)
                    sent = _diff(before, after)
                    times = []
                    for _ in range(samples):
                        time.sleep(PAST_CACHE_S)
                        times.append(_get(ui.url + page))
                    times.sort()
                    rows[page] = {
                        "median_ms": round(statistics.median(times), 1),
                        "p95_ms": round(times[max(0, round(0.95 * len(times)) - 1)], 1),
                        "max_ms": round(times[-1], 1),
                        "kafka_requests": sum(sent.values()),
                        "by_api": dict(sorted(sent.items())),
                    }
        finally:
            try:
                broker.stop()
            except RuntimeError:
                broker.kill()
    return {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "cluster": {"partitions": TOPICS * PARTITIONS_PER_TOPIC, "share_groups": GROUPS},
        "samples": samples,
        "target_ms": TARGET_MS,
        "sampler": sampler,
        "pages": rows,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=SAMPLES)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    result = run(args.samples)
    s = result["sampler"]
    apis = ", ".join(f"{k} {v}" for k, v in s["by_api"].items())
    print(
        f"sampler round (background, once per refresh interval): {s['round_ms']} ms; {sum(s['by_api'].values())} requests: {apis}"
    )
    print(f"{'page':<26}{'median ms':>10}{'p95 ms':>9}{'max ms':>9}{'requests':>10}  by API")
    slow = []
    for page, r in result["pages"].items():
        apis = ", ".join(f"{k} {v}" for k, v in r["by_api"].items())
        print(f"{page:<26}{r['median_ms']:>10}{r['p95_ms']:>9}{r['max_ms']:>9}{r['kafka_requests']:>10}  {apis}")
        if r["max_ms"] >= TARGET_MS:
            slow.append(page)
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    if slow:
        print(f"over {TARGET_MS:.0f} ms: {', '.join(slow)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
