"""The fault runs' history checker (tests/faults/checker.py) on small hand-made histories:
each check fires on the history it names and stays quiet on a lawful one."""

from __future__ import annotations

from typing import Any

from tests.faults.checker import check


def final(topic: str, p: int, records: list[tuple[int, str]], iso: str = "read_uncommitted") -> dict[str, Any]:
    end = records[-1][0] + 1 if records else 0
    return {"k": "final", "topic": topic, "iso": iso, "p": p, "complete": True, "end": end, "records": records}


def produce(w: str, seq: int, p: int, off: int | None, ok: bool = True, t: float = 1.0) -> dict[str, Any]:
    return {"k": "produce", "w": w, "seq": seq, "topic": "idem", "p": p, "off": off, "ok": ok, "t0": t - 0.1, "t": t}


def checks(events: list[dict[str, Any]]) -> list[str]:
    return [v["check"] for v in check(events).violations]


def test_a_lawful_idempotent_history_passes() -> None:
    events = [
        final("idem", 0, [(0, "i0.0:1"), (1, "i1.0:1"), (2, "i0.0:2")]),
        produce("i0.0", 1, 0, 0),
        produce("i1.0", 1, 0, 1),
        produce("i0.0", 2, 0, 2),
        produce("i0.0", 3, 0, None, ok=False),  # outcome unknown, and not stored: allowed
    ]
    report = check(events)
    assert report.ok, report.violations
    assert report.figures["writers"]["i0"] == {"ok": 2, "unknown": 1}


def test_an_acknowledged_write_missing_from_the_log_is_lost() -> None:
    events = [final("idem", 0, [(0, "i0.0:1")]), produce("i0.0", 1, 0, 0), produce("i0.0", 2, 0, 1)]
    assert checks(events) == ["lost-write"]


def test_a_value_stored_twice_is_a_duplicate_and_out_of_order() -> None:
    events = [
        final("idem", 0, [(0, "i0.0:1"), (1, "i0.0:2"), (2, "i0.0:1")]),
        produce("i0.0", 1, 0, 2),
        produce("i0.0", 2, 0, 1),
    ]
    assert checks(events) == ["duplicate", "order"]


def test_an_acknowledgement_at_another_offset_is_a_mismatch() -> None:
    events = [final("idem", 0, [(0, "i0.0:1"), (1, "i0.0:2")]), produce("i0.0", 1, 0, 1), produce("i0.0", 2, 0, 1)]
    assert checks(events) == ["offset-mismatch"]


def test_an_acknowledgement_without_an_offset_needs_the_record_once_on_its_partition() -> None:
    # librdkafka acknowledges a batch whose request failed, without an offset, once a
    # later batch of the producer succeeded.
    stored_once = [
        final("idem", 0, [(0, "i0.0:1"), (1, "i0.0:2")]),
        produce("i0.0", 1, 0, None),
        produce("i0.0", 2, 0, 1),
    ]
    report = check(stored_once)
    assert report.ok, report.violations
    assert report.figures["writers"]["i0"] == {"ok": 2, "ok_without_offset": 1}

    elsewhere = [final("idem", 0, []), final("idem", 1, [(0, "i0.0:1")]), produce("i0.0", 1, 0, None)]
    assert checks(elsewhere) == ["offset-mismatch"]

    missing = [final("idem", 0, [(0, "i0.0:2")]), produce("i0.0", 1, 0, None), produce("i0.0", 2, 0, 0)]
    assert checks(missing) == ["lost-write"]


def test_acks1_writers_may_lose_what_was_acknowledged() -> None:
    events = [final("idem", 0, []), {**produce("a1.0", 1, 0, 0), "t": 5.0}]
    report = check(events)
    assert report.ok, report.violations
    assert report.figures["writers"]["a1"] == {"ok": 1, "lost": 1}
    assert report.figures["writers"]["acks1_lost_times"] == [5.0]


def deliver(c: str, off: int, dc: int, t: float) -> dict[str, Any]:
    return {"k": "deliver", "c": c, "p": 0, "off": off, "dc": dc, "t": t}


def ack(c: str, off: int, kind: str, t: float) -> dict[str, Any]:
    return {"k": "ack", "c": c, "p": 0, "off": off, "type": kind, "t": t}


def ackres(c: str, offs: list[int], t: float, ok: bool = True) -> dict[str, Any]:
    return {"k": "ackres", "c": c, "p": 0, "offs": offs, "ok": ok, "t": t}


def test_a_delivery_count_that_goes_down_is_reported() -> None:
    events = [deliver("s0", 0, 1, 1.0), deliver("s1", 0, 2, 2.0), deliver("s0", 0, 1, 3.0)]
    assert "delivery-count-down" in checks(events)


def test_a_record_delivered_after_a_confirmed_accept_is_redelivered() -> None:
    lawful = [deliver("s0", 0, 1, 1.0), ack("s0", 0, "accept", 1.5), ackres("s0", [0], 1.6)]
    assert "share-redelivered" not in checks(lawful)
    late = [*lawful, deliver("s1", 0, 2, 2.0)]
    assert "share-redelivered" in checks(late)
    # A failed accept promises nothing.
    failed = [
        deliver("s0", 0, 1, 1.0),
        ack("s0", 0, "accept", 1.5),
        ackres("s0", [0], 1.6, ok=False),
        deliver("s1", 0, 2, 2.0),
    ]
    assert "share-redelivered" not in checks(failed)


def test_two_members_holding_one_record_at_once_overlap() -> None:
    events = [
        deliver("s0", 0, 1, 1.0),
        deliver("s1", 0, 2, 1.2),
        ack("s0", 0, "release", 1.5),
        ackres("s0", [0], 1.55),
        ack("s1", 0, "accept", 1.6),
        ackres("s1", [0], 1.7),
    ]
    assert "share-overlap" in checks(events)


def txn(w: str, n: int, outcome: str, values: list[tuple[str, int, str]], t: float = 1.0) -> dict[str, Any]:
    return {"k": "txn", "w": w, "n": n, "outcome": outcome, "values": [list(v) for v in values], "t": t}


def test_transactions_are_all_or_nothing_for_read_committed() -> None:
    committed = txn("t0", 1, "commit", [("txn-a", 0, "t0:1:0"), ("txn-b", 0, "t0:1:1")])
    aborted = txn("t0", 2, "abort", [("txn-a", 0, "t0:2:0"), ("txn-b", 0, "t0:2:1")])
    lawful = [
        final("txn-a", 0, [(0, "t0:1:0")], iso="read_committed"),
        final("txn-b", 0, [(0, "t0:1:1")], iso="read_committed"),
        committed,
        aborted,
    ]
    report = check(lawful)
    assert report.ok, report.violations
    assert report.figures["transactions"]["commit"] == 1 and report.figures["transactions"]["abort"] == 1

    half = [final("txn-a", 0, [(0, "t0:1:0")], iso="read_committed"), committed]
    assert checks(half) == ["partial-transaction"]
    lost = [committed]
    assert checks(lost) == ["lost-transaction"]
    shown = [
        final("txn-a", 0, [(0, "t0:2:0")], iso="read_committed"),
        final("txn-b", 0, [(0, "t0:2:1")], iso="read_committed"),
        aborted,
    ]
    assert checks(shown) == ["aborted-read"]


def test_the_live_read_committed_reader_never_sees_an_aborted_record() -> None:
    aborted = txn("t0", 2, "abort", [("txn-a", 0, "t0:2:0")])
    read = {"k": "read", "c": "rc", "v": "t0:2:0", "t": 2.0}
    assert checks([aborted, read]) == ["aborted-read"]


def commit(g: str, offs: dict[str, int], t0: float, t: float, ok: bool = True) -> dict[str, Any]:
    return {"k": "commit", "g": g, "offs": offs, "t0": t0, "t": t, "ok": ok}


def committed(g: str, offs: dict[str, int], t0: float, t: float) -> dict[str, Any]:
    return {"k": "committed", "g": g, "offs": offs, "t0": t0, "t": t}


def test_group_offsets_never_go_backwards() -> None:
    forward = [commit("g", {"0": 10}, 1.0, 1.1), commit("g", {"0": 20}, 2.0, 2.1), committed("g", {"0": 20}, 3.0, 3.1)]
    assert check(forward).ok
    # A commit that began after another completed commits less: backwards.
    assert "commit-backwards" in checks([commit("g", {"0": 20}, 1.0, 1.1), commit("g", {"0": 10}, 2.0, 2.1)])
    # Overlapping commits may land in either order.
    assert check([commit("g", {"0": 20}, 1.0, 1.5), commit("g", {"0": 10}, 1.2, 1.6)]).ok
    # A read below an earlier read, or below a commit acknowledged before it began.
    assert "committed-backwards" in checks([committed("g", {"0": 20}, 1.0, 1.1), committed("g", {"0": 10}, 2.0, 2.1)])
    assert "commit-lost" in checks([commit("g", {"0": 20}, 1.0, 1.1), committed("g", {"0": 10}, 2.0, 2.1)])
    # A failed commit promises nothing.
    assert check([commit("g", {"0": 20}, 1.0, 1.1, ok=False), committed("g", {"0": 10}, 2.0, 2.1)]).ok


def queue(records: list[tuple[int, str]]) -> dict[str, Any]:
    return final("queue", 0, records)


def test_every_queue_record_ends_accepted_or_archived() -> None:
    ended = [
        queue([(0, "q0.0:1"), (1, "q0.0:2")]),
        deliver("s0", 0, 1, 1.0),
        ack("s0", 0, "accept", 1.1),
        ackres("s0", [0], 1.2),
        *(deliver("s1", 1, n, 1.0 + n) for n in range(1, 6)),  # the delivery count limit
    ]
    report = check(ended)
    assert report.ok, report.violations
    assert report.figures["share"]["accepted"] == 1 and report.figures["share"]["archived_at_limit"] == 1

    released = [queue([(0, "q0.0:1")]), deliver("s0", 0, 1, 1.0), ack("s0", 0, "release", 1.1), ackres("s0", [0], 1.2)]
    assert checks(released) == ["share-unfinished"]
    never = [queue([(0, "q0.0:1")])]
    assert checks(never) == ["share-never-delivered", "share-unfinished"]
    # Below the share-partition start offset the broker reports: ended, as far as it says.
    below = [*never, {"k": "share-offsets", "offs": {"0": 1}, "t": 9.0}]
    assert checks(below) == ["share-never-delivered"]


def fault(kind: str, heal: float) -> dict[str, Any]:
    return {"k": "fault", "kind": kind, "targets": ["b1"], "t_heal": heal, "t": heal}


def probe(n: int, p: int, sent: float, read: float | None) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [{"k": "probe-ack", "n": n, "p": p, "ok": True, "t0": sent, "t": sent + 0.1}]
    if read is not None:
        out.append({"k": "probe-read", "n": n, "p": p, "t": read})
    return out


def test_recovery_is_the_time_until_every_partition_takes_and_serves_a_probe() -> None:
    healed = [fault("kill", 10.0), *(e for p in range(3) for e in probe(1, p, 10.5, 11.0 + p))]
    report = check(healed)
    assert report.ok, report.violations
    assert report.figures["faults"]["kill"]["recovery_p50_s"] == 3.0  # the slowest partition
    one_missing = [fault("kill", 10.0), *(e for p in range(2) for e in probe(1, p, 10.5, 11.0))]
    assert checks(one_missing) == ["no-recovery"]
    slow = [fault("kill", 10.0), *(e for p in range(3) for e in probe(1, p, 75.0, 75.5))]
    assert checks(slow) == ["slow-recovery"]
