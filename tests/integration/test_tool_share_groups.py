"""``sharebroker share-groups`` run as a subprocess against the real broker process.

Share-group activity comes from confluent-kafka's ShareConsumer; the assertions
are on the tool's real stdout, stderr and exit status. Every wait is bounded.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from tests.integration.clients import create_topic, produce
from tests.integration.share_helpers import commit_ok, poll_count, share_consumer, share_group, unique

CLIENT_ID = "sg-tool-test"


def tool(bootstrap: str, *args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "broker", "share-groups", "--bootstrap-server", bootstrap, *args],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def ok(bootstrap: str, *args: str) -> str:
    result = tool(bootstrap, *args)
    assert result.returncode == 0, f"{args}: rc={result.returncode}\n{result.stdout}\n{result.stderr}"
    return result.stdout


def as_json(bootstrap: str, *args: str):
    return json.loads(ok(bootstrap, *args, "--output", "json"))


def rows(output: str) -> list[list[str]]:
    """Non-blank lines of a table, split on whitespace."""
    return [line.split() for line in output.splitlines() if line.strip()]


def group_state(bootstrap: str, group: str) -> str:
    return as_json(bootstrap, "--describe", "--group", group, "--state")[0]["state"]


def wait_state(bootstrap: str, group: str, state: str, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while (current := group_state(bootstrap, group)) != state:
        assert time.monotonic() < deadline, f"share group {group} stayed {current}, expected {state}"
        time.sleep(0.2)


@pytest.fixture
def consumed_group(sharebroker_bootstrap):
    """A topic with 10 records on partition 0 (2 partitions) and a share group that consumed them.

    Yields (bootstrap, topic, group, consumer); the consumer is still a member.
    """
    bs = sharebroker_bootstrap
    topic = unique("t")
    create_topic(bs, topic, partitions=2)
    produce(bs, topic, [f"v-{i}".encode() for i in range(10)])
    group = share_group(bs)
    sc = share_consumer(bs, group, [topic], **{"client.id": CLIENT_ID})
    try:
        assert len(poll_count(sc, 10, timeout=30)) == 10
        commit_ok(sc)
        yield bs, topic, group, sc
    finally:
        sc.close()


def test_list_and_describe_while_a_member_consumes(consumed_group):
    bs, topic, group, _sc = consumed_group
    wait_state(bs, group, "Stable")

    assert group in ok(bs, "--list").split()
    listed = rows(ok(bs, "--list", "--state"))
    assert listed[0] == ["GROUP", "STATE"]
    assert [group, "Stable"] in listed
    assert group in [r[0] for r in rows(ok(bs, "--list", "--state", "Stable"))]
    assert group not in [r[0] for r in rows(ok(bs, "--list", "--state", "empty,dead"))[1:]]
    assert {"group": group, "state": "Stable"} in as_json(bs, "--list")

    # Members: Kafka's columns; the member holds both partitions.
    members = rows(ok(bs, "--describe", "--group", group, "--members"))
    assert members[0] == ["GROUP", "CONSUMER-ID", "HOST", "CLIENT-ID", "#PARTITIONS", "ASSIGNMENT"]
    assert len(members) == 2
    row = members[1]
    assert row[0] == group and row[3] == CLIENT_ID and row[4] == "2" and row[5] == f"{topic}:0,1"
    verbose = rows(ok(bs, "--describe", "--group", group, "--members", "--verbose"))
    assert verbose[0][5] == "MEMBER-EPOCH" and int(verbose[1][5]) > 0
    [doc] = as_json(bs, "--describe", "--group", group, "--members")
    [member] = doc["members"]
    assert member["member_id"] == row[1] and member["client_id"] == CLIENT_ID
    assert member["member_epoch"] > 0 and member["assignment"] == {topic: [0, 1]}

    # State: coordinator "host:port  (id)", state and member count.
    state_out = ok(bs, "--describe", "--group", group, "--state")
    header, line = state_out.strip("\n").splitlines()
    assert header.split() == ["GROUP", "COORDINATOR", "(ID)", "STATE", "#MEMBERS"]
    assert line.split()[0] == group and line.split()[-2:] == ["Stable", "1"]
    assert f"{bs}  (" in line

    # Offsets: partition 0 acknowledged up to 10, nothing left; partition 1 empty.
    offsets = rows(ok(bs, "--describe", "--group", group))
    assert offsets[0] == ["GROUP", "TOPIC", "PARTITION", "START-OFFSET", "LAG"]
    assert [group, topic, "0", "10", "0"] in offsets
    assert ["GROUP", "TOPIC", "PARTITION", "LEADER-EPOCH", "START-OFFSET", "LAG"] == rows(
        ok(bs, "--describe", "--group", group, "--offsets", "--verbose")
    )[0]
    [doc] = as_json(bs, "--describe", "--group", group, "--offsets")
    by_partition = {o["partition"]: o for o in doc["offsets"] if o["topic"] == topic}
    assert by_partition[0]["start_offset"] == 10 and by_partition[0]["lag"] == 0


def test_changes_refused_while_the_group_has_members(consumed_group):
    bs, topic, group, _sc = consumed_group
    wait_state(bs, group, "Stable")
    for args in (
        ("--reset-offsets", "--group", group, "--topic", topic, "--to-earliest", "--dry-run"),
        ("--reset-offsets", "--group", group, "--all-topics", "--to-earliest", "--execute"),
        ("--delete-offsets", "--group", group, "--topic", topic),
    ):
        result = tool(bs, *args)
        assert result.returncode == 1, result
        assert result.stderr.strip().splitlines()[-1] == f"Error: Share group '{group}' is not empty.", result.stderr
    result = tool(bs, "--delete", "--group", group)
    assert result.returncode == 1
    assert f"* Group '{group}' could not be deleted due to: Share group '{group}' is not EMPTY." in result.stdout
    # Nothing changed.
    assert [group, topic, "0", "10", "0"] in rows(ok(bs, "--describe", "--group", group))


def test_reset_delete_offsets_and_delete_once_empty(consumed_group, tmp_path):
    bs, topic, group, sc = consumed_group
    sc.close()
    wait_state(bs, group, "Empty")

    # Members view of an empty group: the note on stderr, no table.
    result = tool(bs, "--describe", "--group", group, "--members")
    assert result.returncode == 0 and result.stdout.strip() == ""
    assert f"Share group '{group}' has no active members." in result.stderr

    # Dry run (explicit, and the default) shows the plan and changes nothing.
    plan = rows(ok(bs, "--reset-offsets", "--group", group, "--topic", topic, "--to-earliest", "--dry-run"))
    assert plan == [["GROUP", "TOPIC", "PARTITION", "NEW-OFFSET"], [group, topic, "0", "0"], [group, topic, "1", "0"]]
    default = tool(bs, "--reset-offsets", "--group", group, "--topic", f"{topic}:0", "--to-earliest")
    assert default.returncode == 0 and "--execute" in default.stderr
    assert rows(default.stdout)[1:] == [[group, topic, "0", "0"]]
    assert [group, topic, "0", "10", "0"] in rows(ok(bs, "--describe", "--group", group))

    # Execute: back to the start, everything is lag again.
    ok(bs, "--reset-offsets", "--group", group, "--topic", f"{topic}:0", "--to-earliest", "--execute")
    assert [group, topic, "0", "0", "10"] in rows(ok(bs, "--describe", "--group", group))

    # KIP-1323: to a given offset (moved into the log if outside it), and from a CSV plan
    # (what --export prints).
    to4 = ok(bs, "--reset-offsets", "--group", group, "--topic", f"{topic}:0", "--to-offset", "4", "--dry-run")
    assert rows(to4)[1:] == [[group, topic, "0", "4"]]
    to99 = ok(bs, "--reset-offsets", "--group", group, "--topic", f"{topic}:0", "--to-offset", "99", "--dry-run")
    assert rows(to99)[1:] == [[group, topic, "0", "10"]]
    exported = ok(bs, "--reset-offsets", "--group", group, "--all-topics", "--to-offset", "3", "--export")
    assert exported.split() == [f"{topic},0,3", f"{topic},1,0"]
    plan = tmp_path / "plan.csv"
    plan.write_text(f"{topic},0,7\n")
    ok(bs, "--reset-offsets", "--group", group, "--from-file", str(plan), "--execute")
    assert [group, topic, "0", "7", "3"] in rows(ok(bs, "--describe", "--group", group))
    bad = tmp_path / "bad.csv"
    bad.write_text(f"{topic},zero,7\n")
    refused = tool(bs, "--reset-offsets", "--group", group, "--from-file", str(bad), "--execute")
    assert refused.returncode == 2 and "partition and offset must be integers" in refused.stderr
    ok(bs, "--reset-offsets", "--group", group, "--topic", f"{topic}:0", "--to-earliest", "--execute")

    # Other scenarios (dry run): latest, a datetime in the future (-> latest), a duration (-> earliest).
    assert rows(ok(bs, "--reset-offsets", "--group", group, "--all-topics", "--to-latest", "--dry-run"))[1:] == [
        [group, topic, "0", "10"],
        [group, topic, "1", "0"],
    ]
    assert rows(
        ok(
            bs,
            "--reset-offsets",
            "--group",
            group,
            "--topic",
            f"{topic}:0",
            "--to-datetime",
            "2999-01-01T00:00:00.000",
            "--dry-run",
        )
    )[1] == [group, topic, "0", "10"]
    assert rows(
        ok(bs, "--reset-offsets", "--group", group, "--topic", f"{topic}:0", "--by-duration", "PT1H", "--dry-run")
    )[1] == [group, topic, "0", "0"]
    doc = as_json(bs, "--reset-offsets", "--group", group, "--topic", f"{topic}:0", "--to-latest", "--execute")
    assert doc == {"group": group, "executed": True, "offsets": [{"topic": topic, "partition": 0, "new_offset": 10}]}
    assert [group, topic, "0", "10", "0"] in rows(ok(bs, "--describe", "--group", group))

    # Delete the topic's offsets, then the group.
    assert rows(ok(bs, "--delete-offsets", "--group", group, "--topic", topic)) == [
        ["TOPIC", "STATUS"],
        [topic, "Successful"],
    ]
    assert f"Share group '{group}' has no offset information." in ok(bs, "--describe", "--group", group)
    assert (
        ok(bs, "--delete", "--group", group).strip()
        == f"Deletion of requested share groups ('{group}') was successful."
    )
    assert group not in ok(bs, "--list").split()
    gone = tool(bs, "--describe", "--group", group)
    assert gone.returncode == 1 and gone.stderr.strip() == f"Error: Share group '{group}' does not exist."


def test_usage_and_connection_errors(sharebroker_bootstrap):
    bs = sharebroker_bootstrap
    assert tool(bs, "--help").returncode == 0
    for args in (
        (),
        ("--list", "--describe"),
        ("--describe",),
        ("--list", "--state", "bogus"),
        ("--reset-offsets", "--group", "g", "--to-earliest"),
        ("--reset-offsets", "--group", "g", "--all-topics"),
        ("--reset-offsets", "--group", "g", "--all-topics", "--by-duration", "an hour"),
    ):
        result = tool(bs, *args)
        assert result.returncode == 2, (args, result)
        assert "error:" in result.stderr
    down = tool("127.0.0.1:1", "--list", "--timeout", "3000")
    assert down.returncode == 1 and len(down.stderr.strip().splitlines()) == 1
    assert down.stderr.startswith("Error: cannot connect to 127.0.0.1:1")
    import socket

    with socket.socket() as silent:  # accepts connections, never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        hung = tool(f"127.0.0.1:{silent.getsockname()[1]}", "--list", "--timeout", "1000")
    assert hung.returncode == 1 and "timed out after 1 s" in hung.stderr
    missing = tool(
        bs, "--reset-offsets", "--group", unique("g"), "--topic", unique("no-topic"), "--to-earliest", "--dry-run"
    )
    assert missing.returncode == 1 and "UNKNOWN_TOPIC_OR_PARTITION" in missing.stderr


# ------------------------------------------------------------------ Kafka peer comparison

REPO = Path(__file__).resolve().parents[2]
PEER_SCRIPT = REPO / "peers" / "kafka.sh"
PEER_LIBS = Path(os.environ.get("KAFKA_PEER_LIBS", REPO / "peers" / ".cache" / "kafka" / "libs"))


def _free_port_block() -> int:
    """A port P with P, P+1 and P+2 free (the peer's client, controller and inter-broker listeners)."""
    import socket

    for base in range(19592, 19992, 10):
        try:
            for port in (base, base + 1, base + 2):
                with socket.socket() as s:
                    s.bind(("127.0.0.1", port))
        except OSError:
            continue
        return base
    pytest.skip("no free port block for the Kafka peer")


@pytest.fixture(scope="module")
def kafka_peer_bootstrap():
    if not PEER_SCRIPT.exists() or not any(PEER_LIBS.glob("kafka-server-*.jar")) or shutil.which("java") is None:
        pytest.skip("Kafka peer jars (make peers) or java not available")
    port = _free_port_block()
    started = subprocess.run(
        [str(PEER_SCRIPT), "start", "--port", str(port)], capture_output=True, text=True, timeout=180
    )
    if started.returncode != 0:
        pytest.skip(f"Kafka peer did not start: {started.stderr.strip() or started.stdout.strip()}")
    try:
        yield f"127.0.0.1:{port}"
    finally:
        subprocess.run([str(PEER_SCRIPT), "stop", "--port", str(port)], capture_output=True, timeout=60)


def _scenario(bs: str) -> list[tuple[str, int, list[str], list[str]]]:
    """The same steps against one broker: (step, exit status, stdout lines, stderr lines), names normalised."""
    topic = unique("t")
    create_topic(bs, topic, partitions=2)
    produce(bs, topic, [f"v-{i}".encode() for i in range(10)])
    group = share_group(bs)
    out: list[tuple[str, int, list[str], list[str]]] = []

    def step(name: str, *args: str) -> None:
        r = tool(bs, *args)

        def norm(text):
            return [line.replace(group, "G").replace(topic, "T").replace(bs, "HOST:PORT") for line in text.splitlines()]

        out.append((name, r.returncode, norm(r.stdout), norm(r.stderr)))

    sc = share_consumer(bs, group, [topic], **{"client.id": CLIENT_ID})
    try:
        assert len(poll_count(sc, 10, timeout=40)) == 10
        commit_ok(sc)
        wait_state(bs, group, "Stable")
        step("list", "--list", "--state", "Stable")
        step("members", "--describe", "--group", group, "--members", "--verbose")
        step("state", "--describe", "--group", group, "--state", "--verbose")
        step("offsets", "--describe", "--group", group, "--verbose")
        step("reset while stable", "--reset-offsets", "--group", group, "--all-topics", "--to-earliest", "--dry-run")
        step("delete-offsets while stable", "--delete-offsets", "--group", group, "--topic", topic)
        step("delete while stable", "--delete", "--group", group)
    finally:
        sc.close()
    wait_state(bs, group, "Empty")
    step("members when empty", "--describe", "--group", group, "--members")
    step("reset execute", "--reset-offsets", "--group", group, "--topic", topic, "--to-earliest", "--execute")
    step("offsets after reset", "--describe", "--group", group)
    step(
        "reset to offset", "--reset-offsets", "--group", group, "--topic", f"{topic}:0", "--to-offset", "3", "--execute"
    )
    step("export plan", "--reset-offsets", "--group", group, "--all-topics", "--to-offset", "2", "--export")
    plan = Path(tempfile.mkdtemp(prefix="share-plan-")) / "plan.csv"
    plan.write_text(f"{topic},0,5\n{topic},1,0\n")
    step("reset from file", "--reset-offsets", "--group", group, "--from-file", str(plan), "--execute")
    step("offsets after file", "--describe", "--group", group)
    step(
        "reset by duration",
        "--reset-offsets",
        "--group",
        group,
        "--topic",
        f"{topic}:0",
        "--by-duration",
        "PT1H",
        "--dry-run",
    )
    step(
        "reset to datetime",
        "--reset-offsets",
        "--group",
        group,
        "--topic",
        f"{topic}:0",
        "--to-datetime",
        "2999-01-01T00:00:00",
        "--dry-run",
    )
    step("delete-offsets", "--delete-offsets", "--group", group, "--topic", topic)
    step("delete", "--delete", "--group", group)
    step("describe deleted", "--describe", "--group", group)
    return out


@pytest.mark.compat
def test_same_scenario_reads_the_same_against_kafka(sharebroker_factory, kafka_peer_bootstrap):
    """Our tool against the Kafka peer (4.4.0) and against sharebroker: same exit statuses, tables and messages.

    Kafka's own kafka-tools jar is not in the peer's jar set, so the comparison runs our
    tool against both brokers. Values that legitimately differ are masked: member ids
    and epochs, and the offsets columns of a Stable group (Kafka persists share state
    lazily, so its start offset lags behind while members are active). Both brokers are
    started for this test, so ``--list`` shows only the scenario's group on each (the
    session broker also holds the groups of every other test, some of them Stable).
    """
    ours = _scenario(sharebroker_factory().bootstrap)
    theirs = _scenario(kafka_peer_bootstrap)

    def masked(name: str, lines: list[str]) -> list[list[str]]:
        table = [line.split() for line in lines if line.strip()]
        if name == "members":
            table = [r[:1] + ["ID"] + r[2:5] + ["EPOCH"] + r[6:] if i else r for i, r in enumerate(table)]
        elif name == "state":
            table = [r[:4] + ["EPOCH", "EPOCH"] + r[6:] if i else r for i, r in enumerate(table)]
        elif name == "offsets":
            table = [r[:4] + ["X", "X"] if i else r for i, r in enumerate(table)]
        return table

    assert [s[0] for s in ours] == [s[0] for s in theirs]
    for (name, rc, out, err), (_, peer_rc, peer_out, peer_err) in zip(ours, theirs):
        assert rc == peer_rc, (name, err, peer_err)
        assert masked(name, out) == masked(name, peer_out), name
        assert [line.split(":")[0] for line in err if line.strip()] == [
            line.split(":")[0] for line in peer_err if line.strip()
        ], name
