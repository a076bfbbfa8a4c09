"""The tables and the docs/PERFORMANCE.md section of ``make bench-scale-cluster`` from a results file.

Nothing here starts a broker: everything is rendered from
``bench/results/scale-cluster-<date>.json`` (:mod:`bench.scale_cluster` writes it).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bench import spread_report

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
    for name in _parts(results):
        part = results[name]
        sizes = [str(s) for s in part["sizes"]]
        rf = part["replication_factor"]
        title = part.get("title") or ("1 broker, RF 1" if rf == 1 else "3 brokers, RF 3")
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
            extra[1:1] = [
                ("kill -9 of the active controller to a CreateTopics written (s)", "controller_writable_s"),
                ("the killed controller started again to every ISR full (s)", "controller_rejoin_isr_s"),
                ("kill -9 of broker 2 and restart to every ISR full (s)", "restart_to_full_isr_s"),
            ]
        out += ["", f"| at {int(sizes[-1]):,} partitions | sharebroker | Kafka |", "|---|---|---|"]
        for label, key in extra:
            out.append(f"| {label} | {_cell(sb, key)} | {_cell(k, key)} |")
        killed = [
            f"{n} node {p['controller_killed']['node']} ({p['controller_killed']['found_by']})"
            for n, p in (("sharebroker", sb), ("Kafka", k))
            if "controller_killed" in p
        ]
        if killed:
            out += ["", f"Active controller killed: {'; '.join(killed)}."]
        out += _groups_table(sb.get("groups"), k.get("groups"))
        out.append("")
    out += _connections_table(results.get("connections"))
    return "\n".join(out)


def _parts(results: dict[str, Any]) -> list[str]:
    """The layouts of a results file in order: ``single``, ``cluster``, then any further
    cluster run kept beside them (``cluster_<name>``, e.g. a size this machine holds
    for sharebroker alone, from a run of its own)."""
    extra = sorted(k for k in results if k.startswith("cluster_") and isinstance(results[k], dict))
    return [k for k in ("single", "cluster", *extra) if k in results]


def _dig(part: dict[str, Any] | None, path: str) -> Any:
    """``a.b`` of nested dictionaries; None where a level is missing."""
    value: Any = part
    for key in path.split("."):
        if not isinstance(value, dict):
            return None
        value = value.get(key)
    return value


def _value(part: dict[str, Any] | None, path: str) -> str:
    if part is None:
        return "-"
    value = _dig(part, path)
    if value is None:
        top = path.split(".")[0]
        return "failed" if top in part.get("errors", {}) else "-"
    if isinstance(value, dict):
        return ", ".join(f"{v:g}" for v in value.values())
    return f"{value:g}" if isinstance(value, int | float) else str(value)


GROUP_ROWS = [
    ("OffsetCommit of 10 offsets to every consumer group, pipelined (s)", "commit.OffsetCommit"),
    (
        "AlterShareGroupOffsets of 10 partitions to every share group, pipelined (s)",
        "alter_share.AlterShareGroupOffsets",
    ),
    ("RSS per broker before the groups (MiB)", "rss_before_mib"),
    ("RSS per broker with the groups loaded (MiB)", "rss_loaded_mib"),
    ("clean stop of every broker (s)", "stop_s"),
    ("start of every broker, to serving (s)", "start_s"),
    ("start to every consumer group's offsets answered, OffsetFetch (s)", "after_restart.OffsetFetch"),
    (
        "start to every share group's offsets answered, DescribeShareGroupOffsets (s)",
        "after_restart.DescribeShareGroupOffsets",
    ),
    ("answers other than the group's own offsets before that (count)", "after_restart.wrong_answers"),
    ("RSS per broker after the load (MiB)", "rss_after_load_mib"),
]


def _groups_table(sb: dict[str, Any] | None, k: dict[str, Any] | None) -> list[str]:
    if sb is None and k is None:
        return []
    some = sb or k or {}
    head = f"{some.get('consumer_groups', 0):,} consumer groups and {some.get('share_groups', 0):,} share groups, {some.get('partitions', 10)} partitions each"
    out = ["", f"| {head} | sharebroker | Kafka |", "|---|---|---|"]
    for label, path in GROUP_ROWS:
        out.append(f"| {label} | {_value(sb, path)} | {_value(k, path)} |")
    return out


def _connections_table(c: dict[str, Any] | None) -> list[str]:
    if not c:
        return []
    out = [
        f"{c['connections']:,} idle connections to one broker (each sent ApiVersions, then nothing)",
        "",
        "| | sharebroker | Kafka |",
        "|---|---|---|",
    ]
    for label, key in (
        ("RSS before (MB)", "rss_before_mb"),
        ("RSS with the connections open (MB)", "rss_after_mb"),
        ("RSS per connection (KB)", "kb_per_connection"),
    ):
        cells = []
        for name in ("sharebroker", "kafka"):
            r = c.get(name)
            cells.append("failed" if r is None and name in c.get("errors", {}) else _value(r, key))
        out.append(f"| {label} | " + " | ".join(cells) + " |")
    out.append("")
    return out


# --------------------------------------------------------------------- curves and slopes

# (panel title, key in a size's row): per-broker values are averaged over the brokers.
CURVES = [
    ("CreateTopics answered (s)", "create_s"),
    ("full Metadata (ms)", "metadata_ms"),
    ("idle CPU per broker (% of a core)", "idle_cpu_pct"),
    ("RSS per broker (MiB)", "rss_mib"),
]
SYSTEMS = (("sharebroker", "sharebroker"), ("kafka", "Kafka 4.4.0"))
LAYOUTS = (("single", "1 broker, RF 1"), ("cluster", "3 brokers, RF 3"))


def mean(value: Any) -> float | None:
    """A figure as one number: a per-broker dictionary as the mean over its brokers."""
    if value is None:
        return None
    if isinstance(value, dict):
        values = [v for v in value.values() if v is not None]
        return sum(values) / len(values) if values else None
    return float(value)


def series(results: dict[str, Any], layout: str, system: str, key: str) -> list[tuple[int, float]]:
    """(partitions, value) of every size that has the figure, ascending."""
    sizes = _dig(results, f"{layout}.{system}.sizes") or {}
    points = [(int(size), mean(row.get(key))) for size, row in sizes.items()]
    return sorted((x, y) for x, y in points if y is not None)


def slope_per_1000(points: list[tuple[int, float]]) -> float | None:
    """Growth per 1,000 partitions between the largest two sizes (None with fewer than two)."""
    if len(points) < 2:
        return None
    (x1, y1), (x2, y2) = points[-2], points[-1]
    return (y2 - y1) / (x2 - x1) * 1000


def slopes(results: dict[str, Any]) -> list[dict[str, Any]]:
    """RSS and idle CPU per broker per 1,000 partitions, from the largest two sizes of each
    system and layout that have both."""
    out = []
    for layout, _ in LAYOUTS:
        for system, _ in SYSTEMS:
            rss, cpu = series(results, layout, system, "rss_mib"), series(results, layout, system, "idle_cpu_pct")
            if len(rss) < 2:
                continue
            out.append(
                {
                    "layout": layout,
                    "system": system,
                    "from": rss[-2][0],
                    "to": rss[-1][0],
                    "rss_mib_per_1000": round(slope_per_1000(rss) or 0.0, 2),
                    "idle_cpu_pct_per_1000": None if len(cpu) < 2 else round(slope_per_1000(cpu) or 0.0, 3),
                }
            )
    return out


def slopes_text(results: dict[str, Any]) -> str:
    rows = slopes(results)
    if not rows:
        return ""
    names, layouts = dict(SYSTEMS), dict(LAYOUTS)
    out = [
        "Cost per partition, per broker process, from the largest two sizes of each (the slope"
        " between them; with RF 3 on 3 brokers every broker holds a replica of every partition;"
        " a negative figure fell between the two sizes):",
        "",
        "| | from -> to (partitions) | RSS per 1,000 partitions (MiB) | idle CPU per 1,000 partitions (% of a core) |",
        "|---|---|---|---|",
    ]
    for r in rows:
        cpu = "-" if r["idle_cpu_pct_per_1000"] is None else f"{r['idle_cpu_pct_per_1000']:g}"
        out.append(
            f"| {names[r['system']]}, {layouts[r['layout']]} | {r['from']:,} -> {r['to']:,} |"
            f" {r['rss_mib_per_1000']:g} | {cpu} |"
        )
    return "\n".join(out) + "\n"


def plot(results: dict[str, Any], path: Path) -> bool:
    """The curves (x: partitions, log scale) as a PNG at ``path``; False without
    matplotlib (the bench extra) or without a size to draw."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    lines = [
        (layout, system, f"{name}, {where}")
        for layout, where in LAYOUTS
        for system, name in SYSTEMS
        if series(results, layout, system, "rss_mib")
    ]
    if not lines:
        return False
    fig, axes = plt.subplots(2, 2, figsize=(10, 7))
    styles = {"sharebroker": "-", "kafka": "--"}
    markers = {"single": "o", "cluster": "s"}
    for ax, (title, key) in zip(axes.flat, CURVES):
        for layout, system, label in lines:
            points = series(results, layout, system, key)
            if points:
                xs, ys = zip(*points)
                ax.plot(xs, ys, styles[system], marker=markers[layout], label=label)
        ax.set_xscale("log")
        ax.set_ylim(bottom=0)  # growth read against zero, not against the smallest figure
        ax.set_title(title, fontsize=10)
        ax.set_xlabel("partitions")
        ax.grid(True, which="both", alpha=0.3)
    axes.flat[0].legend(fontsize=8)
    fig.suptitle("Cost as partitions grow (make bench-scale-cluster)", fontsize=11)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=90, metadata={"Software": None})
    plt.close(fig)
    return True


IMAGE = "performance-scale-cluster.png"


def newest(results_dir: Path) -> Path | None:
    found = sorted(results_dir.glob("scale-cluster-*.json"))
    return found[-1] if found else None


def render_plot(results_dir: Path, out_dir: Path) -> bool:
    """docs/performance-scale-cluster.png from the newest results file; False if none."""
    found = newest(results_dir)
    return found is not None and plot(json.loads(found.read_text()), out_dir / IMAGE)


def spread_section(results_dir: Path) -> str:
    """The table of the newest ``replication-spread-<date>.json`` (``make
    bench-replication-spread``), or nothing."""
    found = spread_report.newest(results_dir)
    if found is None:
        return ""
    return f"""
**Replication spread thin** (`make bench-replication-spread`, {found.name}): one acks=all
record to each of many new partitions, fresh brokers each round, one broker RF 1 and
then three brokers RF 3 (etcd); the file-system probe before each round is the time to
make a directory holding two new files, most of what a broker's first record to a new
partition costs it here, in kernel CPU.

{spread_report.markdown(json.loads(found.read_text())).rstrip()}
"""


def section(results_dir: Path, plotted: bool = False) -> str:
    """The PERFORMANCE.md section, from the newest bench/results/scale-cluster-<date>.json
    (``plotted``: its curves are in docs/performance-scale-cluster.png, see :func:`render_plot`)."""
    found = newest(results_dir)
    if found is None:
        return ""
    r = json.loads(found.read_text())
    command = r.get("single", r.get("cluster", {})).get("command", "make bench-scale-cluster")
    bound = f" under `flock -x` with a {r['bound_s']} s bound" if "bound_s" in r else ""
    observations = "".join(f"- {o}\n" for o in r.get("observations", []))
    notes = "".join(f"\n{r[k]['note']}\n" for k in _parts(r) if "note" in r[k])
    missing = f"\nNot measured in this run: {r['not_measured']}\n" if r.get("not_measured") else ""
    image = f"\n![cost as partitions grow]({IMAGE})\n" if plotted else ""
    cost = slopes_text(r)
    spread = spread_section(results_dir)
    return f"""
## Scale: cost as partitions grow, 1 broker and 3 brokers, against Kafka (`make bench-scale-cluster`)

{found.name}, command `{command}`{bound}
(`make bench-scale-cluster` runs it with its defaults), on {r.get("machine", f"{r['cpus']} CPUs")}. Each layout
grows in one cluster: a step creates the partitions missing to reach its size (topics of
100, in CreateTopics requests sent together: at most {r.get("partitions_per_create", 10_000):,}
partitions each) and produces one acks=all record to each of them
(librdkafka, linger.ms 20); Metadata and ListOffsets then cover every partition. Idle CPU
and RSS are per broker process (the JVM for Kafka), read from /proc with no client
connected. Kafka 4.4.0 runs with its default settings as KRaft nodes (broker and
controller each; heap 512 MiB alone, 1 GiB per node in the cluster).

After the last size, on the 3 brokers: **kill -9 of the active controller** (sharebroker:
the broker DescribeCluster names, checked against the etcd key its election writes;
Kafka: the KRaft quorum leader from the nodes' `quorum-state` files, not the broker
DescribeCluster names to clients), then CreateTopics of a new topic (1 partition, RF 1)
sent to another broker, retried on retriable errors and timeouts, until it succeeds;
then the killed node is started again until it serves Metadata itself with every
partition's ISR full (and another broker shows them full). Then kill -9 of broker 2
and its restart to the same state. **Many groups** (both layouts, on the same
brokers, which still hold the last size's partitions): consumer groups committing an
offset for each of 10 partitions (OffsetCommit as an admin sends it) and share groups
with the start offsets of 10 share-partitions set (AlterShareGroupOffsets), every group
its own offsets, pipelined to each group's coordinator; RSS with them loaded; a clean
stop of every broker and a start (to "ready" for sharebroker, to "Kafka Server
started" for Kafka); then every group is asked again (OffsetFetch v8+ and
DescribeShareGroupOffsets, 100 groups per request, to each group's coordinator), round
after round, until every one answers its own offsets: all groups, none sampled. An
error or no offsets (a coordinator that has not loaded the group yet) means asking
again in the next round; the time from the start to the last right answer is the
coordinators' load time. **Idle connections**: a fresh single broker of each holds N
connections that each sent ApiVersions, RSS growth per connection
(`bench/idle_connections.py`). Every step has the run's bound; a step that fails or
times out shows as "failed" and the run goes on.
{image}
{markdown(r).rstrip()}

{cost}{notes}{spread}
What these show:

{observations}{missing}"""
