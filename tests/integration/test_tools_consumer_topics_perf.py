"""The topics, producer-perf and console-share-consumer tools against the real broker.

Each tool runs as its own process (``python -m broker ...``), as an operator runs it,
and the assertions are on what it prints.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
import uuid

import pytest

from broker.admin.client import set_group_configs

PERF_SUMMARY = re.compile(
    r"^(\d+) records sent, [\d.]+ records/sec \([\d.]+ MB/sec\), [\d.]+ ms avg latency, "
    r"[\d.]+ ms max latency, \d+ ms 50th, \d+ ms 95th, \d+ ms 99th, \d+ ms 99\.9th\.$",
    re.M,
)
RECORD_LINE = re.compile(r"^Partition:(\d+)\tOffset:(\d+)\tDeliveryCount:(\d+)\t(.*)\t(.*)$")
PRINT_ALL = [
    "--property",
    "print.partition=true",
    "--property",
    "print.offset=true",
    "--property",
    "print.delivery=true",
    "--property",
    "print.key=true",
]


def tool(*args: str, timeout: float = 60, check: bool = True) -> subprocess.CompletedProcess:
    proc = subprocess.run([sys.executable, "-m", "broker", *args], capture_output=True, text=True, timeout=timeout)
    if check:
        assert proc.returncode == 0, f"{args} exited {proc.returncode}: {proc.stdout}\n{proc.stderr}"
    return proc


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


def earliest_group(bootstrap: str) -> str:
    group = unique("sg-tool")
    set_group_configs(bootstrap, group, {"share.auto.offset.reset": "earliest"})
    return group


def records(stdout: str) -> list[tuple[int, int, int, str, str]]:
    out = []
    for line in stdout.splitlines():
        m = RECORD_LINE.match(line)
        assert m, f"unexpected line {line!r}"
        out.append((int(m[1]), int(m[2]), int(m[3]), m[4], m[5]))
    return out


@pytest.mark.parametrize("command", ["topics", "producer-perf", "console-share-consumer"])
def test_help(command):
    proc = tool(command, "--help")
    assert f"usage: sharebroker {command}" in proc.stdout
    assert "--bootstrap-server" in proc.stdout


def test_topics_create_list_describe_alter_delete(sharebroker_bootstrap):
    b = sharebroker_bootstrap
    topic = unique("tool-topic")
    out = tool(
        "topics",
        "--bootstrap-server",
        b,
        "--create",
        "--topic",
        topic,
        "--partitions",
        "3",
        "--config",
        "retention.ms=86400000",
    ).stdout
    assert out.strip() == f"Created topic {topic}."
    again = tool("topics", "--bootstrap-server", b, "--create", "--topic", topic, check=False)
    assert again.returncode == 1 and "TOPIC_ALREADY_EXISTS" in again.stderr

    assert topic in tool("topics", "--bootstrap-server", b, "--list").stdout.splitlines()

    lines = tool("topics", "--bootstrap-server", b, "--describe", "--topic", topic).stdout.splitlines()
    assert re.match(
        rf"^Topic: {topic}\tTopicId: [A-Za-z0-9_-]{{22}}\tPartitionCount: 3\tReplicationFactor: 1"
        r"\tConfigs: retention.ms=86400000$",
        lines[0],
    ), lines[0]
    assert [re.sub(r"Leader: \d+", "Leader: L", line) for line in lines[1:]] == [
        f"\tTopic: {topic}\tPartition: {p}\tLeader: L\tReplicas: 1\tIsr: 1" for p in range(3)
    ]

    out = tool(
        "topics",
        "--bootstrap-server",
        b,
        "--alter",
        "--topic",
        topic,
        "--add-config",
        "retention.ms=1000,cleanup.policy=compact",
    ).stdout
    assert out.strip() == f"Completed updating config for topic {topic}."
    first = tool("topics", "--bootstrap-server", b, "--describe", "--topic", topic).stdout.splitlines()[0]
    assert first.endswith("\tConfigs: cleanup.policy=compact,retention.ms=1000"), first
    tool("topics", "--bootstrap-server", b, "--alter", "--topic", topic, "--delete-config", "cleanup.policy")
    first = tool("topics", "--bootstrap-server", b, "--describe", "--topic", topic).stdout.splitlines()[0]
    assert first.endswith("\tConfigs: retention.ms=1000"), first

    # --describe without --topic covers every topic, ours included.
    assert f"Topic: {topic}\t" in tool("topics", "--bootstrap-server", b, "--describe").stdout

    out = tool("topics", "--bootstrap-server", b, "--delete", "--topic", topic).stdout
    assert out.strip() == f"Deleted topic {topic}."
    assert topic not in tool("topics", "--bootstrap-server", b, "--list").stdout.splitlines()
    gone = tool("topics", "--bootstrap-server", b, "--describe", "--topic", topic, check=False)
    assert gone.returncode == 1 and "UNKNOWN_TOPIC_OR_PARTITION" in gone.stderr
    tool("topics", "--bootstrap-server", b, "--delete", "--topic", topic, "--if-exists")


def test_producer_perf_then_share_consumer_reads_all(sharebroker_bootstrap):
    b = sharebroker_bootstrap
    topic = unique("tool-perf")
    tool("topics", "--bootstrap-server", b, "--create", "--topic", topic, "--partitions", "1")
    perf = tool(
        "producer-perf",
        "--bootstrap-server",
        b,
        "--topic",
        topic,
        "--num-records",
        "1000",
        "--record-size",
        "100",
        "--throughput",
        "-1",
        "--payload-monotonic",
        "--acks",
        "all",
    )
    m = PERF_SUMMARY.search(perf.stdout)
    assert m and m[1] == "1000", perf.stdout

    group = earliest_group(b)
    proc = tool(
        "console-share-consumer",
        "--bootstrap-server",
        b,
        "--topic",
        topic,
        "--group",
        group,
        "--max-messages",
        "1000",
        "--timeout-ms",
        "20000",
        *PRINT_ALL,
    )
    got = records(proc.stdout)
    assert [r[1] for r in got] == list(range(1000))
    assert all(p == 0 and count == 1 and key == "null" for p, _, count, key, _ in got)
    assert [v for *_, v in got] == [str(i) for i in range(1000)]  # --payload-monotonic
    assert "Processed a total of 1000 messages" in proc.stderr

    # Everything was accepted: the group has nothing left to hand out.
    again = tool(
        "console-share-consumer",
        "--bootstrap-server",
        b,
        "--topic",
        topic,
        "--group",
        group,
        "--timeout-ms",
        "1500",
        *PRINT_ALL,
    )
    assert again.stdout == ""
    assert "Processed a total of 0 messages" in again.stderr


def test_release_redelivers_with_delivery_count_two(sharebroker_bootstrap):
    b = sharebroker_bootstrap
    topic = unique("tool-release")
    tool("topics", "--bootstrap-server", b, "--create", "--topic", topic, "--partitions", "1")
    tool(
        "producer-perf",
        "--bootstrap-server",
        b,
        "--topic",
        topic,
        "--num-records",
        "10",
        "--record-size",
        "8",
        "--throughput",
        "-1",
        "--payload-monotonic",
    )
    group = earliest_group(b)

    first = records(
        tool(
            "console-share-consumer",
            "--bootstrap-server",
            b,
            "--topic",
            topic,
            "--group",
            group,
            "--max-messages",
            "10",
            "--timeout-ms",
            "20000",
            "--release",
            *PRINT_ALL,
        ).stdout
    )
    assert [(o, c) for _, o, c, _, _ in first] == [(o, 1) for o in range(10)]

    second = records(
        tool(
            "console-share-consumer",
            "--bootstrap-server",
            b,
            "--topic",
            topic,
            "--group",
            group,
            "--max-messages",
            "10",
            "--timeout-ms",
            "20000",
            "--reject",
            *PRINT_ALL,
        ).stdout
    )
    assert [(o, c) for _, o, c, _, _ in second] == [(o, 2) for o in range(10)]

    # Rejected records are archived: nothing comes back.
    third = tool(
        "console-share-consumer",
        "--bootstrap-server",
        b,
        "--topic",
        topic,
        "--group",
        group,
        "--timeout-ms",
        "1500",
        *PRINT_ALL,
    )
    assert third.stdout == ""


def test_max_messages_releases_the_rest(sharebroker_bootstrap):
    b = sharebroker_bootstrap
    topic = unique("tool-budget")
    tool("topics", "--bootstrap-server", b, "--create", "--topic", topic, "--partitions", "1")
    tool(
        "producer-perf",
        "--bootstrap-server",
        b,
        "--topic",
        topic,
        "--num-records",
        "20",
        "--record-size",
        "8",
        "--throughput",
        "-1",
        "--payload-monotonic",
    )
    group = earliest_group(b)
    first = records(
        tool(
            "console-share-consumer",
            "--bootstrap-server",
            b,
            "--topic",
            topic,
            "--group",
            group,
            "--max-messages",
            "5",
            "--timeout-ms",
            "20000",
            *PRINT_ALL,
        ).stdout
    )
    assert [o for _, o, _, _, _ in first] == list(range(5))
    rest = records(
        tool(
            "console-share-consumer",
            "--bootstrap-server",
            b,
            "--topic",
            topic,
            "--group",
            group,
            "--max-messages",
            "15",
            "--timeout-ms",
            "20000",
            *PRINT_ALL,
        ).stdout
    )
    assert [o for _, o, _, _, _ in rest] == list(range(5, 20))


def test_formatter_properties(sharebroker_bootstrap):
    b = sharebroker_bootstrap
    topic = unique("tool-format")
    tool("topics", "--bootstrap-server", b, "--create", "--topic", topic, "--partitions", "1")
    tool(
        "producer-perf",
        "--bootstrap-server",
        b,
        "--topic",
        topic,
        "--num-records",
        "2",
        "--record-size",
        "8",
        "--throughput",
        "-1",
        "--payload-monotonic",
    )
    group = earliest_group(b)
    out = tool(
        "console-share-consumer",
        "--bootstrap-server",
        b,
        "--topic",
        topic,
        "--group",
        group,
        "--max-messages",
        "2",
        "--timeout-ms",
        "20000",
        "--property",
        "print.timestamp=true",
        "--property",
        "print.headers=true",
        "--property",
        "print.key=true",
        "--property",
        "key.separator=|",
        "--property",
        "line.separator=;",
    ).stdout
    items = out.split(";")
    assert items[-1] == ""
    assert [re.sub(r"^CreateTime:\d+\|", "TS|", i) for i in items[:-1]] == [
        "TS|NO_HEADERS|null|0",
        "TS|NO_HEADERS|null|1",
    ]


def test_fractional_throughput(sharebroker_bootstrap):
    b = sharebroker_bootstrap
    topic = unique("tool-slow")
    tool("topics", "--bootstrap-server", b, "--create", "--topic", topic, "--partitions", "1")
    start = time.monotonic()
    perf = tool(
        "producer-perf",
        "--bootstrap-server",
        b,
        "--topic",
        topic,
        "--num-records",
        "2",
        "--record-size",
        "16",
        "--throughput",
        "0.5",
        "--acks",
        "1",
    )
    elapsed = time.monotonic() - start
    m = PERF_SUMMARY.search(perf.stdout)
    assert m and m[1] == "2", perf.stdout
    assert 1.9 <= elapsed < 15, elapsed  # the second record waits 2 s at 0.5 records/sec


def test_producer_perf_acks_zero(sharebroker_bootstrap):
    b = sharebroker_bootstrap
    topic = unique("tool-acks0")
    tool("topics", "--bootstrap-server", b, "--create", "--topic", topic, "--partitions", "2")
    perf = tool(
        "producer-perf",
        "--bootstrap-server",
        b,
        "--topic",
        topic,
        "--num-records",
        "50",
        "--record-size",
        "16",
        "--throughput",
        "-1",
        "--acks",
        "0",
        "--batch-size",
        "200",
    )
    m = PERF_SUMMARY.search(perf.stdout)
    assert m and m[1] == "50", perf.stdout
    group = earliest_group(b)
    got = records(
        tool(
            "console-share-consumer",
            "--bootstrap-server",
            b,
            "--topic",
            topic,
            "--group",
            group,
            "--max-messages",
            "50",
            "--timeout-ms",
            "20000",
            *PRINT_ALL,
        ).stdout
    )
    assert len(got) == 50
    assert {p for p, *_ in got} == {0, 1}


def test_tools_report_a_missing_broker():
    proc = tool("topics", "--bootstrap-server", "127.0.0.1:1", "--list", check=False)
    assert proc.returncode == 1 and "cannot connect" in proc.stderr


def test_sigterm_acknowledges_and_leaves(sharebroker_bootstrap):
    """A consumer stopped by SIGTERM still sends its acks (epoch -1) and leaves the group."""
    import signal

    b = sharebroker_bootstrap
    topic = unique("tool-term")
    tool("topics", "--bootstrap-server", b, "--create", "--topic", topic, "--partitions", "1")
    tool(
        "producer-perf",
        "--bootstrap-server",
        b,
        "--topic",
        topic,
        "--num-records",
        "30",
        "--record-size",
        "8",
        "--throughput",
        "-1",
        "--payload-monotonic",
    )
    group = earliest_group(b)
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "broker",
            "console-share-consumer",
            "--bootstrap-server",
            b,
            "--topic",
            topic,
            "--group",
            group,
            *PRINT_ALL,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        lines = [proc.stdout.readline() for _ in range(30)]
        assert [r[1] for r in records("".join(lines))] == list(range(30))
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    assert "Processed a total of 30 messages" in err
    # The acks went out on close: a new member finds nothing to read.
    again = tool(
        "console-share-consumer",
        "--bootstrap-server",
        b,
        "--topic",
        topic,
        "--group",
        group,
        "--timeout-ms",
        "1500",
        *PRINT_ALL,
    )
    assert again.stdout == ""
