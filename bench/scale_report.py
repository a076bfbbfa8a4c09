"""The tables and the docs/PERFORMANCE.md section of ``make bench-scale-cluster`` from a results file.

Nothing here starts a broker: everything is rendered from
``bench/results/scale-cluster-<date>.json`` (:mod:`bench.scale_cluster` writes it).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ROWS = [
    ("CreateTopics answered (s)", "create_s"),
    ("every new partition led, RF 3: full ISR (s)", "ready_s"),
    ("full Metadata (ms, median of 5)", "metadata_ms"),
    ("ListOffsets of every partition (s)", "list_offsets_s"),
    ("first acks=all record to each new partition (s)", "produce_s"),
    ("idle CPU per broker (% of a core)", "idle_cpu_pct"),
    ("RSS per broker (MiB)", "rss_mib"),
    ("etcd keys / database bytes", "etcd"),
]


def _cell(row: dict[str, Any] | None, key: str) -> str:
    if row is None:
        return "-"
    if key == "etcd":
        return f"{row['etcd_keys']} / {row['etcd_db_bytes']:,}" if "etcd_keys" in row else "-"
    value = row.get(key)
    if value is None:
        return "failed" if key in row.get("errors", {}) or key in row else "-"
    if isinstance(value, dict):
        return ", ".join(f"{v:g}" for v in value.values())
    return f"{value:g}"


def markdown(results: dict[str, Any]) -> str:
    """The tables of docs/PERFORMANCE.md from a results file."""
    out = []
    for name in ("single", "cluster"):
        part = results.get(name)
        if part is None:
            continue
        sizes = [str(s) for s in part["sizes"]]
        rf = part["replication_factor"]
        title = "1 broker, RF 1" if rf == 1 else "3 brokers, RF 3"
        head = " | ".join(f"{int(s):,}: sharebroker | {int(s):,}: Kafka" for s in sizes)
        out += [f"{title} ({part['when']})", "", f"| partitions | {head} |", "|---" * (1 + 2 * len(sizes)) + "|"]
        sb, k = part.get("sharebroker", {}), part.get("kafka", {})
        for label, key in ROWS:
            if key == "etcd" and rf == 1:
                continue
            cells = []
            for s in sizes:
                cells += [_cell(sb.get("sizes", {}).get(s), key), _cell(k.get("sizes", {}).get(s), key)]
            out.append(f"| {label} | " + " | ".join(cells) + " |")
        extra = [
            ("start of the empty broker(s) to serving (s)", "start_s"),
            ("clean stop of every broker at once (s)", "stop_all_s"),
        ]
        if rf == 3:
            extra.insert(1, ("kill -9 of broker 2 and restart to every ISR full (s)", "restart_to_full_isr_s"))
        out += ["", f"| at {int(sizes[-1]):,} partitions | sharebroker | Kafka |", "|---|---|---|"]
        for label, key in extra:
            pair = [sb.get(key), k.get(key)]
            out.append(f"| {label} | " + " | ".join("-" if v is None else f"{v:g}" for v in pair) + " |")
        out.append("")
    return "\n".join(out)


def section(results_dir: Path) -> str:
    """The PERFORMANCE.md section, from the newest bench/results/scale-cluster-<date>.json."""
    found = sorted(results_dir.glob("scale-cluster-*.json"))
    if not found:
        return ""
    r = json.loads(found[-1].read_text())
    command = r.get("single", r.get("cluster", {})).get("command", "make bench-scale-cluster")
    observations = "".join(f"- {o}\n" for o in r.get("observations", []))
    notes = "".join(f"\n{r[k]['note']}\n" for k in ("single", "cluster") if "note" in r.get(k, {}))
    missing = f"\nNot measured in this run: {r['not_measured']}\n" if r.get("not_measured") else ""
    return f"""
## Scale: cost as partitions grow, 1 broker and 3 brokers, against Kafka (`make bench-scale-cluster`)

{found[-1].name}, command `{command}` under `flock -x` with a 600 s bound
(`make bench-scale-cluster` runs it with its defaults), on {r.get("machine", f"{r['cpus']} CPUs")}. Each layout
grows in one cluster: a step creates the partitions missing to reach its size (topics of
100 in one CreateTopics request) and produces one acks=all record to each of them
(librdkafka, linger.ms 20); Metadata and ListOffsets then cover every partition. Idle CPU
and RSS are per broker process (the JVM for Kafka), read from /proc with no client
connected. Kafka 4.4.0 runs with its default settings as KRaft nodes (broker and
controller each; heap 512 MiB alone, 1 GiB per node in the cluster).

{markdown(r).rstrip()}
{notes}
What these show:

{observations}{missing}"""
