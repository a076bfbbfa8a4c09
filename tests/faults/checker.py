"""The history checker: what the run's clients saw, checked once the run is over.

Pure: :func:`check` takes the events (:mod:`tests.faults.history`) and returns a
:class:`Report` of violations and figures. Only outcomes the clients observed count;
an operation whose outcome is unknown (a timeout, a broken connection) may have
happened or not, and the checks allow both.

Checks (each violation names its check):

- ``lost-write`` / ``duplicate`` / ``offset-mismatch`` / ``order``: every write an
  idempotent (acks=all) writer saw acknowledged is in the final log exactly once, at
  the offset it was acknowledged with (or, acknowledged without an offset, once on its
  partition); no value of such a writer is stored twice; each
  writer's records are in the log in the order it sent them, per partition.
- ``aborted-read`` / ``partial-transaction`` / ``lost-transaction``: read_committed
  shows no record of an aborted transaction, every transaction whole or not at all,
  and every committed one; the live read_committed reader never saw a record that is
  not visible in the end, and saw every transaction it saw part of whole.
- ``commit-backwards`` / ``committed-backwards`` / ``commit-lost``: a group's
  committed offsets never go backwards: a successful commit that began after another
  completed does not commit less; offsets read back never decrease and never fall
  below a commit acknowledged before the read began.
- ``group-skipped``: each consumer group read every record of its topic.
- ``share-overlap``: no record held by two members at once: two members' acknowledged
  (successful) acks of one record whose windows (delivery to ack) overlap.
- ``share-redelivered``: nothing delivered again after an ACCEPT or REJECT the broker
  confirmed (to the same member: more than ``SAME_MEMBER_GRACE_S`` later, since its
  own fetch response may overtake the acknowledgement callback).
- ``delivery-count-down``: a record's delivery count never decreases.
- ``share-unfinished`` / ``share-never-delivered``: once faults stop, every record of
  the topic ended accepted or archived: a confirmed ACCEPT or REJECT, the delivery
  count limit reached, or below the share-partition start offset the broker reports
  (Kafka 4.4 reports the start offset one record behind the end once everything is
  acknowledged, so the clients' view comes first); and every record was delivered
  at least once on the way.
- ``no-recovery`` / ``slow-recovery``: after each fault is healed, produce and consume
  work again (a probe record written after the heal to every partition, acknowledged
  and read back) within ``RECOVERY_BOUND_S``.
- ``crash``: a process exited on its own; ``stuck``: a drain step timed out;
  ``client-failed``: a client thread died; ``final-incomplete``: the final read could
  not reach the end of a partition.
"""

from __future__ import annotations

import bisect
import statistics
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["RECOVERY_BOUND_S", "Report", "check", "share_terminal"]

# After a fault is healed, produce and consume work again within this (seconds): the
# session timeout (6 s), a controller's reaction, clients' metadata refresh and
# reconnect backoff, with room for a loaded 2-core machine.
RECOVERY_BOUND_S = 60.0
SAME_MEMBER_GRACE_S = 1.0
# group.share.delivery.count.limit, Kafka's default, on both systems.
DELIVERY_COUNT_LIMIT = 5
IDEMPOTENT_WRITERS = ("i0", "i1", "q0")
ACKS1_WRITERS = ("a1",)


@dataclass
class Report:
    violations: list[dict[str, Any]] = field(default_factory=list)
    figures: dict[str, Any] = field(default_factory=dict)

    def add(self, check: str, **detail: Any) -> None:
        self.violations.append({"check": check, **detail})

    @property
    def ok(self) -> bool:
        return not self.violations

    def counts(self) -> dict[str, int]:
        return dict(Counter(v["check"] for v in self.violations))


def _writer(wid: str) -> str:
    return wid.split(".", 1)[0]


def _by_kind(events: Iterable[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for e in events:
        out[e["k"]].append(e)
    return out


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q * (len(s) - 1))))]


def check(events: list[dict[str, Any]]) -> Report:
    report = Report()
    ev = _by_kind(events)
    finals = _finals(ev, report)
    _check_writers(ev, finals, report)
    _check_transactions(ev, finals, report)
    _check_groups(ev, finals, report)
    _check_share(ev, finals, report)
    _check_recovery(ev, report)
    _check_process(ev, report)
    return report


# ---------------------------------------------------------------------- final log


def _finals(ev: dict[str, list[dict[str, Any]]], report: Report) -> dict[tuple[str, str], list[tuple[int, int, str]]]:
    """{(topic, isolation): [(partition, offset, value)]} of the final reads."""
    out: dict[tuple[str, str], list[tuple[int, int, str]]] = defaultdict(list)
    for e in ev["final"]:
        if not e["complete"]:
            report.add("final-incomplete", topic=e["topic"], p=e["p"], iso=e["iso"], end=e["end"])
        out[(e["topic"], e["iso"])].extend((e["p"], off, v) for off, v in e["records"])
    return out


# ---------------------------------------------------------------------- writers


def _check_writers(ev: dict[str, list[dict[str, Any]]], finals: dict[Any, Any], report: Report) -> None:
    figures: dict[str, Any] = {}
    for topic in ("idem", "queue"):
        log = finals.get((topic, "read_uncommitted"), [])
        where: dict[str, list[tuple[int, int]]] = defaultdict(list)
        by_writer: dict[tuple[str, int], list[tuple[int, int]]] = defaultdict(list)  # (wid, p) -> [(offset, seq)]
        for p, off, value in log:
            where[value].append((p, off))
            wid, _, seq = value.rpartition(":")
            if seq.isdigit():
                by_writer[(wid, p)].append((off, int(seq)))
        for value, places in where.items():
            if len(places) > 1 and _writer(value.rpartition(":")[0]) in IDEMPOTENT_WRITERS:
                report.add("duplicate", topic=topic, value=value, at=places)
        for (wid, p), seqs in by_writer.items():
            if _writer(wid) not in IDEMPOTENT_WRITERS:
                continue
            seqs.sort()
            for (o1, s1), (o2, s2) in zip(seqs, seqs[1:], strict=False):
                if s2 <= s1:
                    report.add("order", topic=topic, writer=wid, p=p, offsets=[o1, o2], seqs=[s1, s2])
                    break
        acks1_lost = []
        for e in ev["produce"]:
            if e["topic"] != topic:
                continue
            w = _writer(e["w"])
            f = figures.setdefault(w, Counter())
            f["ok" if e["ok"] else "unknown"] += 1
            if not e["ok"]:
                continue
            value = f"{e['w']}:{e['seq']}"
            places = where.get(value, [])
            if not places:
                if w in IDEMPOTENT_WRITERS:
                    report.add("lost-write", topic=topic, value=value, acked_at=[e["p"], e["off"]], t=e["t"])
                else:
                    f["lost"] += 1
                    acks1_lost.append(e["t"])
            elif e["off"] is None and [q for q, _ in places] == [e["p"]]:
                # Acknowledged without an offset: librdkafka acknowledges a batch whose
                # request failed once a later batch of the producer succeeds (the broker
                # took the later sequence, so it holds the earlier one) and has no offset
                # to report. Stored exactly once on its partition is all it promises.
                f["ok_without_offset"] += 1
            elif (e["p"], e["off"]) not in places:
                if w in IDEMPOTENT_WRITERS:
                    report.add("offset-mismatch", topic=topic, value=value, acked_at=[e["p"], e["off"]], at=places)
                else:
                    f["moved"] += 1
        if acks1_lost:
            figures.setdefault("acks1_lost_times", []).extend(acks1_lost)
    report.figures["writers"] = {k: dict(v) if isinstance(v, Counter) else v for k, v in figures.items()}


# ---------------------------------------------------------------------- transactions


def _check_transactions(ev: dict[str, list[dict[str, Any]]], finals: dict[Any, Any], report: Report) -> None:
    visible: Counter[str] = Counter()
    for topic in ("txn-a", "txn-b"):
        for _p, _off, value in finals.get((topic, "read_committed"), []):
            visible[value] += 1
    for value, n in visible.items():
        if n > 1:
            report.add("duplicate", topic="txn", value=value, count=n)
    fig: Counter[str] = Counter()
    txn_of: dict[str, tuple[str, int]] = {}
    whole: set[tuple[str, int]] = set()
    for e in ev["txn"]:
        values = [v for _t, _p, v in e["values"]]
        key = (e["w"], e["n"])
        for v in values:
            txn_of[v] = key
        k = sum(1 for v in values if visible[v])
        fig[e["outcome"]] += 1
        if 0 < k < len(values):
            report.add("partial-transaction", writer=e["w"], n=e["n"], visible=k, of=len(values), outcome=e["outcome"])
        elif e["outcome"] == "commit" and k == 0:
            report.add("lost-transaction", writer=e["w"], n=e["n"], t=e["t"])
        elif e["outcome"] == "abort" and k > 0:
            report.add("aborted-read", writer=e["w"], n=e["n"], by="final read_committed")
        if k == len(values) and e["outcome"] != "abort":
            whole.add(key)
        if k == len(values) and e["outcome"] == "unknown":
            fig["unknown_visible"] += 1
    # Committed order per writer and partition: transactions in the order they were run.
    by_wp: dict[tuple[str, str, int], list[tuple[int, int, int]]] = defaultdict(list)
    for topic in ("txn-a", "txn-b"):
        for p, off, value in finals.get((topic, "read_committed"), []):
            wid, n, i = value.split(":")
            by_wp[(wid, topic, p)].append((off, int(n), int(i)))
    for (wid, topic, p), rows in by_wp.items():
        rows.sort()
        for a, b in zip(rows, rows[1:], strict=False):
            if (b[1], b[2]) <= (a[1], a[2]):
                report.add("order", topic=topic, writer=wid, p=p, offsets=[a[0], b[0]])
                break
    # The live read_committed reader.
    seen_by_txn: dict[tuple[str, int], set[str]] = defaultdict(set)
    reads = 0
    for e in ev["read"]:
        reads += 1
        v = e["v"]
        txn_key = txn_of.get(v)
        if txn_key is None or txn_key not in whole:
            report.add("aborted-read", value=v, by=e["c"], t=e["t"], known=txn_key is not None)
        else:
            seen_by_txn[txn_key].add(v)
    caught_up = any(d["what"] == "read_committed reader at the end" for d in ev["drained"])
    if caught_up:
        sizes = {(e["w"], e["n"]): len(e["values"]) for e in ev["txn"]}
        for key, seen in seen_by_txn.items():
            if len(seen) < sizes.get(key, 0):
                report.add("partial-transaction", writer=key[0], n=key[1], visible=len(seen), of=sizes[key], by="rc")
    fig["rc_reads"] = reads
    report.figures["transactions"] = dict(fig)


# ---------------------------------------------------------------------- consumer groups


def _check_groups(ev: dict[str, list[dict[str, Any]]], finals: dict[Any, Any], report: Report) -> None:
    fig: dict[str, Counter[str]] = defaultdict(Counter)
    commits: dict[tuple[str, int], list[tuple[float, float, int]]] = defaultdict(list)  # (t0, t, offset)
    for e in ev["commit"]:
        fig[e["g"]]["commit_ok" if e["ok"] else "commit_failed"] += 1
        if e["ok"]:
            for p, off in e["offs"].items():
                commits[(e["g"], int(p))].append((e["t0"], e["t"], off))
    for (g, p), rows in commits.items():
        done = sorted(rows, key=lambda r: r[1])
        ends = [r[1] for r in done]
        best = []
        m = -1
        for r in done:
            m = max(m, r[2])
            best.append(m)
        for t0, t, off in rows:
            i = bisect.bisect_left(ends, t0)
            if i and best[i - 1] > off:
                report.add("commit-backwards", group=g, p=p, offset=off, earlier=best[i - 1], t=t)
    reads: dict[tuple[str, int], list[tuple[float, float, int]]] = defaultdict(list)
    for e in ev["committed"]:
        fig[e["g"]]["reads"] += 1
        for p in range(3):
            reads[(e["g"], p)].append((e["t0"], e["t"], int(e["offs"].get(str(p), e["offs"].get(p, -1)))))
    for (g, p), rows in reads.items():
        done = sorted(rows, key=lambda r: r[1])
        ends = [r[1] for r in done]
        best = []
        m = -1
        for r in done:
            m = max(m, r[2])
            best.append(m)
        c = sorted(commits.get((g, p), []), key=lambda r: r[1])
        cends = [r[1] for r in c]
        cbest = []
        m = -1
        for r in c:
            m = max(m, r[2])
            cbest.append(m)
        for t0, t, off in rows:
            i = bisect.bisect_left(ends, t0)
            if i and best[i - 1] > off:
                report.add("committed-backwards", group=g, p=p, offset=off, earlier=best[i - 1], t=t)
            j = bisect.bisect_left(cends, t0)
            if j and cbest[j - 1] > off:
                report.add("commit-lost", group=g, p=p, read=off, committed=cbest[j - 1], t=t)
    # Every record of idem read by each group (at least once).
    log = finals.get(("idem", "read_uncommitted"), [])
    offsets: dict[int, set[int]] = defaultdict(set)
    for p, off, _v in log:
        offsets[p].add(off)
    got: dict[tuple[str, int], set[int]] = defaultdict(set)
    for e in ev["gread"]:
        got[(e["g"], e["p"])].add(e["off"])
        fig[e["g"]]["reads_records"] += 1
    drained = any(d["what"] == "groups committed to the end" for d in ev["drained"])
    if drained:
        for g in {e["g"] for e in ev["commit"]} | {e["g"] for e in ev["gread"]}:
            for p, offs in offsets.items():
                missing = sorted(offs - got[(g, p)])
                if missing:
                    report.add("group-skipped", group=g, p=p, missing=len(missing), first=missing[:5])
    report.figures["groups"] = {g: dict(c) for g, c in fig.items()}


# ---------------------------------------------------------------------- share group


def _check_share(ev: dict[str, list[dict[str, Any]]], finals: dict[Any, Any], report: Report) -> None:
    deliveries: dict[tuple[int, int], list[dict[str, Any]]] = defaultdict(list)
    for e in ev["deliver"]:
        deliveries[(e["p"], e["off"])].append(e)
    # Ack results per member and partition, in time order: (t, offsets, ok).
    results: dict[tuple[str, int], list[tuple[float, set[int], bool]]] = defaultdict(list)
    for e in ev["ackres"]:
        results[(e["c"], e["p"])].append((e["t"], set(e["offs"]), e["ok"]))
    fig: Counter[str] = Counter()
    acks: dict[tuple[int, int], list[dict[str, Any]]] = defaultdict(list)
    for e in ev["ack"]:
        fig[f"ack_{e['type']}"] += 1
        outcome = None
        for t, offs, ok in results.get((e["c"], e["p"]), ()):
            if t >= e["t"] and e["off"] in offs:
                outcome = (ok, t)
                break
        if outcome is None:
            fig["ack_unknown"] += 1
            continue
        fig["ack_ok" if outcome[0] else "ack_failed"] += 1
        if outcome[0]:
            acks[(e["p"], e["off"])].append({**e, "done": outcome[1]})
    fig["deliveries"] = len(ev["deliver"])
    fig["redeliveries"] = sum(len(d) - 1 for d in deliveries.values())
    for key, ds in deliveries.items():
        ds.sort(key=lambda d: d["t"])
        for a, b in zip(ds, ds[1:], strict=False):
            if b["dc"] < a["dc"]:
                report.add("delivery-count-down", p=key[0], off=key[1], counts=[a["dc"], b["dc"]], t=b["t"])
                break
    for key, good in acks.items():
        ds = deliveries.get(key, [])
        windows = []
        for a in good:
            mine = [d for d in ds if d["c"] == a["c"] and d["t"] <= a["t"]]
            if mine:
                windows.append((mine[-1]["t"], a["t"], a["c"], a["type"]))
            if a["type"] in ("accept", "reject"):
                for d in ds:
                    late = d["t"] > a["done"] + (SAME_MEMBER_GRACE_S if d["c"] == a["c"] else 0.0)
                    if late:
                        report.add(
                            "share-redelivered",
                            p=key[0],
                            off=key[1],
                            acked_by=a["c"],
                            ack=a["type"],
                            acked_at=a["done"],
                            delivered_to=d["c"],
                            delivered_at=d["t"],
                            dc=d["dc"],
                        )
                        break
        windows.sort()
        for i, (s1, e1, c1, _t1) in enumerate(windows):
            for s2, e2, c2, _t2 in windows[i + 1 :]:
                if s2 > e1:
                    break
                if c1 != c2 and s2 <= e1 and s1 <= e2:
                    report.add("share-overlap", p=key[0], off=key[1], members=[c1, c2], windows=[[s1, e1], [s2, e2]])
    terminal = share_terminal(ev["deliver"], ev["ack"], ev["ackres"])
    starts: dict[int, int] = {}
    for e in ev.get("share-offsets", [])[-1:]:
        starts = {int(p): o for p, o in e["offs"].items()}
    unfinished: dict[int, list[int]] = defaultdict(list)
    for p, off, _v in finals.get(("queue", "read_uncommitted"), []):
        if (p, off) not in deliveries:
            report.add("share-never-delivered", p=p, off=off)
        if (p, off) not in terminal and off >= starts.get(p, 0):
            unfinished[p].append(off)
    for p, pending in sorted(unfinished.items()):
        report.add("share-unfinished", p=p, records=len(pending), first=pending[:5], start_offset=starts.get(p))
    fig.update(Counter(terminal.values()))
    report.figures["share"] = dict(fig)


def share_terminal(
    delivers: Iterable[dict[str, Any]], acks: Iterable[dict[str, Any]], results: Iterable[dict[str, Any]]
) -> dict[tuple[int, int], str]:
    """{(partition, offset): how it ended} for the records the clients saw end: a confirmed
    ACCEPT (``accepted``) or REJECT (``rejected``), or ``limit`` deliveries (archived by
    the broker once that delivery is released or its lock expires)."""
    out: dict[tuple[int, int], str] = {}
    for d in delivers:
        if d["dc"] >= DELIVERY_COUNT_LIMIT:
            out.setdefault((d["p"], d["off"]), "archived_at_limit")
    by_member: dict[tuple[str, int], list[tuple[float, set[int], bool]]] = defaultdict(list)
    for r in results:
        by_member[(r["c"], r["p"])].append((r["t"], set(r["offs"]), r["ok"]))
    for a in acks:
        if a["type"] not in ("accept", "reject"):
            continue
        for t, offs, ok in by_member.get((a["c"], a["p"]), ()):
            if t >= a["t"] and a["off"] in offs:
                if ok:
                    out[(a["p"], a["off"])] = "accepted" if a["type"] == "accept" else "rejected"
                break
    return out


# ---------------------------------------------------------------------- recovery


def _check_recovery(ev: dict[str, list[dict[str, Any]]], report: Report) -> None:
    sent: dict[tuple[int, int], float] = {}
    for e in ev["probe-ack"]:
        if e["ok"]:
            sent[(e["n"], e["p"])] = e["t0"]
    # Per partition: (read time, send time) of probe records acknowledged and read back.
    back: dict[int, list[tuple[float, float]]] = defaultdict(list)
    for e in ev["probe-read"]:
        t0 = sent.get((e["n"], e["p"]))
        if t0 is not None:
            back[e["p"]].append((t0, e["t"]))
    for rows in back.values():
        rows.sort()
    starts = {p: [r[0] for r in rows] for p, rows in back.items()}
    faults = sorted(ev["fault"], key=lambda f: f["t_heal"])
    per_kind: dict[str, list[float]] = defaultdict(list)
    end_of_run = max((e["t"] for e in ev["drain-start"]), default=float("inf"))
    for f in faults:
        heal = f["t_heal"]
        recovered = 0.0
        for p in range(3):
            rows = back.get(p, [])
            i = bisect.bisect_left(starts.get(p, []), heal)
            first = min((r[1] for r in rows[i:]), default=None)
            if first is None:
                recovered = float("inf")
                break
            recovered = max(recovered, first)
        took = recovered - heal
        f["recovery_s"] = took
        if took == float("inf") or recovered > end_of_run + RECOVERY_BOUND_S:
            report.add("no-recovery", fault=f["kind"], targets=f.get("targets"), healed_at=heal)
            continue
        per_kind[f["kind"]].append(took)
        if took > RECOVERY_BOUND_S:
            report.add("slow-recovery", fault=f["kind"], targets=f.get("targets"), seconds=round(took, 2))
    report.figures["faults"] = {
        kind: {
            "count": sum(1 for f in faults if f["kind"] == kind),
            "recovery_p50_s": _r(percentile(times, 0.5)),
            "recovery_p99_s": _r(percentile(times, 0.99)),
            "recovery_max_s": _r(max(times) if times else None),
        }
        for kind, times in sorted(per_kind.items())
    }
    all_times = [t for times in per_kind.values() for t in times]
    report.figures["recovery"] = {
        "bound_s": RECOVERY_BOUND_S,
        "p50_s": _r(percentile(all_times, 0.5)),
        "p99_s": _r(percentile(all_times, 0.99)),
        "max_s": _r(max(all_times) if all_times else None),
        "mean_s": _r(statistics.fmean(all_times) if all_times else None),
    }


def _r(x: float | None) -> float | None:
    return None if x is None else round(x, 2)


def _check_process(ev: dict[str, list[dict[str, Any]]], report: Report) -> None:
    for e in ev["crash"]:
        report.add("crash", node=e["node"], during=e.get("during"), t=e["t"])
    for e in ev["drain-timeout"]:
        report.add("stuck", what=e["what"], seconds=e["seconds"])
    for e in ev["client-crashed"]:
        report.add("client-crashed", client=e["c"], returncode=e["rc"], t=e["t"])
    for e in ev["worker-failed"]:
        report.add("client-failed", client=e["c"], err=e["err"][-500:])
    ops = Counter(e["k"] for kind in ev.values() for e in kind)
    report.figures["operations"] = {
        k: ops[k]
        for k in ("produce", "txn", "read", "gread", "commit", "committed", "deliver", "ack", "probe-ack", "fault")
    }
    report.figures["operations_total"] = sum(report.figures["operations"].values())
