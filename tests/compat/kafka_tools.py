"""Apache Kafka 4.4.0's own command-line tools, run step by step as a user would.

Each :class:`Step` is one tool run (its ``kafka-*.sh`` main class, from the
``kafka-tools`` 4.4.0 jar) with the exit status and the
lines of output a user would look for. :func:`run_steps` runs them in order
against one broker and returns every outcome, so a failing step does not hide the
ones after it. The same steps run against sharebroker and against Kafka 4.4.0
(tests/compat/test_kafka_tools.py); what differs between the two (log directory
paths, the broker's node id, the SASL listener's address) is passed in as
placeholders, and what a step prints that later steps need (a delegation token's id
and HMAC) is captured into them.
"""

from __future__ import annotations

import re
import subprocess
import time
from collections.abc import Callable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOOLS_LIBS = ROOT / "peers" / ".cache" / "tools" / "lib"
# One tool run: a JVM start (~1.5 s here) plus the work; a stuck one fails its step.
STEP_TIMEOUT_S = 90.0


def classpath() -> str:
    # kafka-tools 4.4.0 and its dependencies: every kafka-*.sh command the steps use.
    return f"{TOOLS_LIBS}/*"


def available() -> str | None:
    if not (TOOLS_LIBS / "kafka-tools-4.4.0.jar").exists():
        return "kafka-tools 4.4.0 not resolved (make kafka-tools)"
    return None


# The kafka-*.sh scripts and the classes they run in Kafka 4.4.0.
TOOLS = {
    "kafka-topics": "org.apache.kafka.tools.TopicCommand",
    "kafka-configs": "org.apache.kafka.tools.ConfigCommand",
    "kafka-producer-perf-test": "org.apache.kafka.tools.ProducerPerformance",
    "kafka-consumer-perf-test": "org.apache.kafka.tools.ConsumerPerformance",
    "kafka-share-consumer-perf-test": "org.apache.kafka.tools.ShareConsumerPerformance",
    "kafka-console-producer": "org.apache.kafka.tools.ConsoleProducer",
    "kafka-console-consumer": "org.apache.kafka.tools.consumer.ConsoleConsumer",
    "kafka-console-share-consumer": "org.apache.kafka.tools.consumer.ConsoleShareConsumer",
    "kafka-consumer-groups": "org.apache.kafka.tools.consumer.group.ConsumerGroupCommand",
    "kafka-share-groups": "org.apache.kafka.tools.consumer.group.ShareGroupCommand",
    "kafka-streams-groups": "org.apache.kafka.tools.streams.StreamsGroupCommand",
    "kafka-get-offsets": "org.apache.kafka.tools.GetOffsetShell",
    "kafka-delete-records": "org.apache.kafka.tools.DeleteRecordsCommand",
    "kafka-features": "org.apache.kafka.tools.FeatureCommand",
    "kafka-leader-election": "org.apache.kafka.tools.LeaderElectionCommand",
    "kafka-reassign-partitions": "org.apache.kafka.tools.reassign.ReassignPartitionsCommand",
    "kafka-transactions": "org.apache.kafka.tools.TransactionsCommand",
    "kafka-client-metrics": "org.apache.kafka.tools.ClientMetricsCommand",
    "kafka-e2e-latency": "org.apache.kafka.tools.EndToEndLatency",
    "kafka-log-dirs": "org.apache.kafka.tools.LogDirsCommand",
    "kafka-delegation-tokens": "org.apache.kafka.tools.DelegationTokenCommand",
    "kafka-cluster": "org.apache.kafka.tools.ClusterTool",
    "kafka-broker-api-versions": "org.apache.kafka.tools.BrokerApiVersionsCommand",
}


@dataclass(frozen=True)
class Step:
    """One tool run: ``args`` and ``stdin`` may name placeholders ({bs}, {tmp}, {dir_b} ...)."""

    name: str
    tool: str
    args: Sequence[str]
    expect: Sequence[str] = ()  # regular expressions every one of which must match the output
    rc: int = 0
    # Other exit statuses that pass too (a tool whose way of giving up depends on timing).
    rc_also: tuple[int, ...] = ()
    stdin: str | None = None
    # Retried (up to the timeout) until it passes: for what becomes true a moment later.
    until_s: float = 0.0
    # A file to write first: (path placeholder, content placeholder).
    writes: tuple[tuple[str, str], ...] = ()
    reject: Sequence[str] = ()  # expressions that must not match
    # Whether a Java exception trace in the output is expected (else it fails the step).
    trace_ok: bool = False
    # Expressions whose named groups, once the step passed, become placeholders of the
    # steps after it (a token id and HMAC the tool printed).
    capture: Sequence[str] = ()


@dataclass
class Outcome:
    step: Step
    rc: int
    output: str
    seconds: float
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def _fill(text: str, values: Mapping[str, str]) -> str:
    return text.format(**values)


def run_step(step: Step, values: Mapping[str, str]) -> Outcome:
    for path, content in step.writes:
        Path(_fill(path, values)).write_text(_fill(content, values))
    cmd = ["java", "-cp", classpath(), TOOLS[step.tool], *[_fill(a, values) for a in step.args]]
    started = time.monotonic()
    deadline = started + max(step.until_s, 0.0)
    while True:
        try:
            proc = subprocess.run(
                cmd,
                input=_fill(step.stdin, values) if step.stdin is not None else None,
                capture_output=True,
                text=True,
                timeout=STEP_TIMEOUT_S,
                stdin=None if step.stdin is not None else subprocess.DEVNULL,
            )
            rc, output = proc.returncode, proc.stdout + proc.stderr
        except subprocess.TimeoutExpired as exc:
            rc, output = -1, f"timed out after {STEP_TIMEOUT_S:.0f} s: {exc.stdout!r} {exc.stderr!r}"
        problems = []
        if rc != step.rc and rc not in step.rc_also:
            problems.append(f"exit status {rc}, expected {step.rc}")
        for pattern in step.expect:
            if not re.search(_fill(pattern, {k: re.escape(v) for k, v in values.items()}), output, re.M):
                problems.append(f"no match for {pattern!r}")
        traces = () if step.trace_ok else (r"^Exception in thread|^\s+at org\.apache\.kafka\.",)
        for pattern in (*step.reject, *traces):
            if re.search(pattern, output, re.M):
                problems.append(f"output matches {pattern!r}")
        if not problems or time.monotonic() >= deadline:
            return Outcome(step, rc, output, time.monotonic() - started, problems)
        time.sleep(1.0)


def run_steps(
    steps: Sequence[Step], values: MutableMapping[str, str], *, before: Callable[[Step], None] | None = None
) -> list[Outcome]:
    outcomes = []
    for step in steps:
        if before is not None:
            before(step)
        outcome = run_step(step, values)
        for pattern in step.capture:
            found = re.search(pattern, outcome.output, re.M)
            if found is None:
                outcome.problems.append(f"nothing captured by {pattern!r}")
            else:
                values.update(found.groupdict())
        outcomes.append(outcome)
    return outcomes


def report(label: str, outcomes: Sequence[Outcome]) -> str:
    lines = [f"{label}: {sum(o.ok for o in outcomes)} of {len(outcomes)} steps passed"]
    for o in outcomes:
        lines.append(f"  {'ok ' if o.ok else 'BAD'} {o.seconds:5.1f}s  {o.step.name}")
        if not o.ok:
            lines.append("      " + "; ".join(o.problems))
            lines.extend("      | " + line for line in o.output.strip().splitlines()[-15:])
    return "\n".join(lines)


T = "tools-topic"
C = "tools-console"


def steps() -> list[Step]:
    """The steps, in order (each may rely on what the ones before it made)."""
    bs = ["--bootstrap-server", "{bs}"]
    return [
        # --- topics and configs
        Step(
            "topics --create",
            "kafka-topics",
            [*bs, "--create", "--topic", T, "--partitions", "3", "--replication-factor", "1"],
            [rf"^Created topic {T}\.$"],
        ),
        Step("topics --list", "kafka-topics", [*bs, "--list"], [rf"^{T}$"]),
        Step(
            "topics --describe",
            "kafka-topics",
            [*bs, "--describe", "--topic", T],
            [
                rf"Topic: {T}\tTopicId: \S+\tPartitionCount: 3\tReplicationFactor: 1",
                rf"Topic: {T}\tPartition: 0\tLeader: {{node}}\tReplicas: {{node}}\tIsr: {{node}}",
            ],
        ),
        Step("topics --alter --partitions", "kafka-topics", [*bs, "--alter", "--topic", T, "--partitions", "4"]),
        Step(
            "configs --alter topic",
            "kafka-configs",
            [*bs, "--alter", "--entity-type", "topics", "--entity-name", T, "--add-config", "retention.ms=86400000"],
            [rf"^Completed updating config for topic {T}\.$"],
        ),
        Step(
            "configs --describe topic",
            "kafka-configs",
            [*bs, "--describe", "--entity-type", "topics", "--entity-name", T],
            [r"retention\.ms=86400000 sensitive=false"],
        ),
        Step(
            "configs --describe broker",
            "kafka-configs",
            [*bs, "--describe", "--entity-type", "brokers", "--entity-name", "{node}"],
            [r"^Dynamic configs for broker {node} are:$"],
        ),
        # --- perf tests and console clients
        Step(
            "producer-perf-test",
            "kafka-producer-perf-test",
            [
                "--topic",
                T,
                "--num-records",
                "2000",
                "--record-size",
                "100",
                "--throughput",
                "-1",
                "--producer-props",
                "bootstrap.servers={bs}",
                "acks=all",
            ],
            [r"^2000 records sent, .* records/sec"],
        ),
        Step(
            "consumer-perf-test",
            "kafka-consumer-perf-test",
            [*bs, "--topic", T, "--messages", "2000", "--timeout", "30000"],
            [r"start\.time, end\.time, data\.consumed\.in\.MB"],
        ),
        Step("console-producer", "kafka-console-producer", [*bs, "--topic", C], stdin="a\nb\nc\n"),
        Step(
            "console-consumer",
            "kafka-console-consumer",
            [
                *bs,
                "--topic",
                C,
                "--from-beginning",
                "--max-messages",
                "3",
                "--group",
                "tools-cg",
                "--timeout-ms",
                "30000",
            ],
            [r"^a\nb\nc$", r"Processed a total of 3 messages"],
        ),
        # --- consumer groups
        Step("consumer-groups --list", "kafka-consumer-groups", [*bs, "--list"], [r"^tools-cg$"]),
        Step(
            "consumer-groups --describe",
            "kafka-consumer-groups",
            [*bs, "--describe", "--group", "tools-cg"],
            [rf"tools-cg\s+{C}\s+0\s+3\s+3\s+0"],
        ),
        Step(
            "consumer-groups --reset-offsets",
            "kafka-consumer-groups",
            [*bs, "--reset-offsets", "--group", "tools-cg", "--topic", C, "--to-earliest", "--execute"],
            [rf"tools-cg\s+{C}\s+0\s+0"],
        ),
        Step(
            "consumer-groups --delete-offsets",
            "kafka-consumer-groups",
            [*bs, "--delete-offsets", "--group", "tools-cg", "--topic", C],
            [rf"{C}\s+0\s+Successful"],
        ),
        # --- share groups
        Step(
            "configs --alter group",
            "kafka-configs",
            [
                *bs,
                "--alter",
                "--entity-type",
                "groups",
                "--entity-name",
                "tools-sg",
                "--add-config",
                "share.auto.offset.reset=earliest",
            ],
            [r"^Completed updating config for group tools-sg\.$"],
        ),
        Step(
            "console-share-consumer",
            "kafka-console-share-consumer",
            [*bs, "--topic", C, "--group", "tools-sg", "--max-messages", "3", "--timeout-ms", "30000"],
            [r"^a$", r"^b$", r"^c$", r"Processed a total of 3 messages"],
        ),
        Step("share-groups --list", "kafka-share-groups", [*bs, "--list"], [r"^tools-sg$"]),
        Step(
            "share-groups --describe",
            "kafka-share-groups",
            [*bs, "--describe", "--group", "tools-sg"],
            [rf"tools-sg\s+{C}\s+0\s+\S+\s+\S+"],
        ),
        Step(
            "share-groups --describe --state",
            "kafka-share-groups",
            [*bs, "--describe", "--group", "tools-sg", "--state"],
            [r"tools-sg\s+\S+\s+\S+\s+(Empty|Stable)\s+0"],
            until_s=30,
        ),
        Step(
            "share-groups --reset-offsets",
            "kafka-share-groups",
            [*bs, "--reset-offsets", "--group", "tools-sg", "--topic", C, "--to-earliest", "--execute"],
            [rf"tools-sg\s+{C}\s+0\s+0"],
            until_s=30,
        ),
        Step(
            "share-groups --delete-offsets",
            "kafka-share-groups",
            [*bs, "--delete-offsets", "--group", "tools-sg", "--topic", C],
            [rf"{C}\s+Successful"],
        ),
        Step(
            "configs --alter perf group",
            "kafka-configs",
            [
                *bs,
                "--alter",
                "--entity-type",
                "groups",
                "--entity-name",
                "tools-sgp",
                "--add-config",
                "share.auto.offset.reset=earliest",
            ],
        ),
        Step(
            "share-consumer-perf-test",
            "kafka-share-consumer-perf-test",
            [*bs, "--topic", T, "--group", "tools-sgp", "--messages", "2000", "--timeout", "30000"],
            [r"start\.time, end\.time, data\.consumed\.in\.MB"],
        ),
        # Asked for more records than the group can get, the tool gives up at its timeout, against
        # Kafka as against sharebroker: with an InterruptedException trace and exit status 1 when
        # its timeout interrupts the consumer's close, else with its warning and exit status 0
        # (both seen from both brokers, depending on the machine's load).
        Step(
            "share-consumer-perf-test, more than there is",
            "kafka-share-consumer-perf-test",
            [*bs, "--topic", T, "--group", "tools-sgp", "--messages", "100000", "--timeout", "5000"],
            [
                r"Caused by: java\.lang\.InterruptedException"
                r"|WARNING: Exiting before consuming the expected number of records: timeout \(5000 ms\) exceeded"
            ],
            rc=1,
            rc_also=(0,),
            trace_ok=True,
        ),
        Step(
            "share-groups --delete",
            "kafka-share-groups",
            [*bs, "--delete", "--group", "tools-sg"],
            [r"Deletion of requested share groups \('tools-sg'\) was successful\."],
            until_s=30,
        ),
        # --- offsets and records
        Step("get-offsets", "kafka-get-offsets", [*bs, "--topic", T], [rf"^{T}:0:\d+$", rf"^{T}:3:\d+$"]),
        Step(
            "delete-records",
            "kafka-delete-records",
            [*bs, "--offset-json-file", "{tmp}/delete.json"],
            [rf"partition: {T}-0\tlow_watermark: 1"],
            writes=(
                (
                    "{tmp}/delete.json",
                    '{{"partitions":[{{"topic":"' + T + '","partition":0,"offset":1}}],"version":1}}',
                ),
            ),
        ),
        # --- features
        Step(
            "features describe",
            "kafka-features",
            [*bs, "describe"],
            [
                r"^Feature: share\.version\s+SupportedMinVersion: 0\s+SupportedMaxVersion: 2\s+"
                r"FinalizedVersionLevel: 2",
                r"^Feature: transaction\.version\s+.*FinalizedVersionLevel: 2",
            ],
        ),
        Step(
            "features downgrade",
            "kafka-features",
            [*bs, "downgrade", "--feature", "transaction.version=1"],
            [r"^transaction\.version was downgraded to 1\.$"],
        ),
        Step(
            "features upgrade",
            "kafka-features",
            [*bs, "upgrade", "--feature", "transaction.version=2"],
            [r"^transaction\.version was upgraded to 2\.$"],
        ),
        Step(
            "features upgrade --dry-run",
            "kafka-features",
            [*bs, "upgrade", "--feature", "share.version=2", "--dry-run"],
            [r"^share\.version can be upgraded to 2\.$"],
        ),
        Step(
            "features upgrade beyond support",
            "kafka-features",
            [*bs, "upgrade", "--feature", "share.version=9"],
            [r"Could not upgrade share\.version to 9\. .*only supports versions 0-2"],
            rc=1,
        ),
        # --- leadership and placement
        Step(
            "leader-election",
            "kafka-leader-election",
            [*bs, "--election-type", "preferred", "--topic", T, "--partition", "0"],
            [rf"Valid replica already elected for partitions {T}-0"],
        ),
        Step(
            "reassign-partitions --execute",
            "kafka-reassign-partitions",
            [*bs, "--reassignment-json-file", "{tmp}/reassign.json", "--execute"],
            [rf"Successfully started partition reassignment for {T}-1"],
            writes=(
                (
                    "{tmp}/reassign.json",
                    '{{"version":1,"partitions":[{{"topic":"' + T + '","partition":1,"replicas":[{node}]}}]}}',
                ),
            ),
        ),
        Step(
            "reassign-partitions --verify",
            "kafka-reassign-partitions",
            [*bs, "--reassignment-json-file", "{tmp}/reassign.json", "--verify"],
            [rf"Reassignment of partition {T}-1 is completed\."],
            until_s=30,
        ),
        # --- log directories (two on both brokers)
        Step(
            "log-dirs --describe",
            "kafka-log-dirs",
            [*bs, "--describe", "--topic-list", T],
            [
                r'"logDir":"{dir_a}"',
                r'"logDir":"{dir_b}"',
                rf'"partition":"{T}-0","size":\d+,"offsetLag":0,'
                r'"isFuture":false',
            ],
        ),
        Step(
            "reassign-partitions with log_dirs",
            "kafka-reassign-partitions",
            [*bs, "--reassignment-json-file", "{tmp}/move.json", "--execute"],
            [
                r"Successfully started moving log directory to {dir_move} for "
                rf"replica {T}-0 with broker {{node}}"
            ],
            writes=(
                (
                    "{tmp}/move.json",
                    '{{"version":1,"partitions":[{{"topic":"' + T + '","partition":0,'
                    '"replicas":[{node}],"log_dirs":["{dir_move}"]}}]}}',
                ),
            ),
        ),
        Step(
            "reassign-partitions with log_dirs --verify",
            "kafka-reassign-partitions",
            [*bs, "--reassignment-json-file", "{tmp}/move.json", "--verify"],
            [rf"Reassignment of replica {T}-0-{{node}} completed successfully\."],
            until_s=30,
        ),
        Step(
            "log-dirs after the move",
            "kafka-log-dirs",
            [*bs, "--describe", "--topic-list", T],
            [
                r'"logDir":"{dir_move}"',
            ],
            until_s=30,
        ),
        # --- transactions, streams groups
        Step(
            "transactions list",
            "kafka-transactions",
            [*bs, "list"],
            [r"^TransactionalId\s+Coordinator\s+ProducerId\s+TransactionState"],
        ),
        Step(
            "transactions find-hanging",
            "kafka-transactions",
            [*bs, "find-hanging", "--broker-id", "{node}"],
            [r"^Topic\s+Partition\s+ProducerId"],
        ),
        Step("streams-groups --list", "kafka-streams-groups", [*bs, "--list"]),
        # --- client metrics
        Step(
            "client-metrics --alter",
            "kafka-client-metrics",
            [
                *bs,
                "--alter",
                "--name",
                "tools-cm",
                "--metrics",
                "org.apache.kafka.producer.",
                "--interval",
                "1000",
                "--match",
                "client_id=perf.*",
            ],
            [r"^Altered client metrics config for tools-cm\.$"],
        ),
        Step("client-metrics --list", "kafka-client-metrics", [*bs, "--list"], [r"^tools-cm$"]),
        Step(
            "client-metrics --describe",
            "kafka-client-metrics",
            [*bs, "--describe", "--name", "tools-cm"],
            [r"^  interval\.ms=1000$", r"^  match=client_id=perf\.\*$", r"^  metrics=org\.apache\.kafka\.producer\.$"],
        ),
        Step(
            "client-metrics --delete",
            "kafka-client-metrics",
            [*bs, "--delete", "--name", "tools-cm"],
            [r"^Deleted client metrics config for tools-cm\.$"],
        ),
        # --- delegation tokens (KIP-48), on the SASL_PLAINTEXT listener with SCRAM-SHA-512
        *token_steps(),
        # --- end-to-end latency, API versions
        Step(
            "e2e-latency",
            "kafka-e2e-latency",
            ["{bs}", "tools-e2e", "200", "all", "100"],
            [r"^Avg latency: [\d.]+ ms", r"^Percentiles: 50th = \d+, 99th = \d+, 99\.9th = \d+"],
        ),
        Step(
            "broker-api-versions",
            "kafka-broker-api-versions",
            [*bs],
            [
                r"DescribeLogDirs\(35\): 1 to 5",
                r"AlterReplicaLogDirs\(34\): 1 to 2",
                r"UpdateFeatures\(57\): 0 to 2",
                r"ListConfigResources\(74\): 0 to 1",
                r"CreateDelegationToken\(38\): 1 to 3",
                r"RenewDelegationToken\(39\): 1 to 2",
                r"ExpireDelegationToken\(40\): 1 to 2",
                r"DescribeDelegationToken\(41\): 1 to 3",
            ],
        ),
    ]


def _scram_config(path: str, user: str, password: str, token: bool = False) -> tuple[str, str]:
    """A --command-config file for SCRAM-SHA-512 on the SASL listener (with a token: tokenauth)."""
    extra = ' tokenauth="true"' if token else ""
    return (
        path,
        "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=SCRAM-SHA-512\n"
        "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required "
        f'username="{user}" password="{password}"{extra};\n',
    )


OWNER, RENEWER = "tools-alice", "tools-bob"
TOKEN_TOPIC = "tools-token-topic"  # made by the producer's first request; the test counts its records
# Their SCRAM-SHA-512 passwords; the test makes both credentials before the steps run.
PASSWORDS = {OWNER: "owner-secret", RENEWER: "renewer-secret"}


def token_steps() -> list[Step]:
    """kafka-delegation-tokens.sh create (with a renewer; it prints the token as --describe
    does), renew (by the renewer) and expire, and a Java client (the console producer, two
    records) authenticating with the token over SCRAM-SHA-512 with tokenauth; the token's id
    and HMAC are captured from the create step's output. Four JVMs, to keep the suite's
    time: the token APIs (describe too) and SASL with a token are compared field by field
    in tests/compat/test_differential_tokens.py."""
    sasl = ["--bootstrap-server", "{sasl_bs}"]
    owner = _scram_config("{tmp}/owner.properties", OWNER, PASSWORDS[OWNER])
    renewer = _scram_config("{tmp}/renewer.properties", RENEWER, PASSWORDS[RENEWER])
    token = _scram_config("{tmp}/token.properties", "{token_id}", "{hmac}", token=True)
    return [
        Step(
            "delegation-tokens --create",
            "kafka-delegation-tokens",
            [
                *sasl,
                "--create",
                "--max-life-time-period",
                "-1",
                "--renewer-principal",
                f"User:{RENEWER}",
                "--command-config",
                owner[0],
            ],
            [r"^Created delegation token with tokenId : \S+$", r"^TOKENID\s+HMAC\s+OWNER\s+REQUESTER\s+RENEWERS"],
            writes=(owner, renewer),
            capture=(rf"^(?P<token_id>\S+)\s+(?P<hmac>\S+)\s+User:{OWNER}\s+User:{OWNER}\s+\[User:{RENEWER}\]",),
        ),
        Step(
            "console-producer as the token (SCRAM-SHA-512, tokenauth)",
            "kafka-console-producer",
            [*sasl, "--topic", TOKEN_TOPIC, "--command-config", token[0]],
            [],
            stdin="t1\nt2\n",
            writes=(token,),
            reject=(r"Authentication failed", r"ERROR"),
            until_s=30,  # Kafka's broker learns of the token from the metadata log
        ),
        Step(
            "delegation-tokens --renew by the renewer",
            "kafka-delegation-tokens",
            [*sasl, "--renew", "--renew-time-period", "3600000", "--hmac", "{hmac}", "--command-config", renewer[0]],
            [r"Completed renew operation\. New expiry date : \d{{4}}-\d\d-\d\dT\d\d:\d\d"],
        ),
        Step(
            "delegation-tokens --expire",
            "kafka-delegation-tokens",
            [*sasl, "--expire", "--expiry-time-period", "-1", "--hmac", "{hmac}", "--command-config", owner[0]],
            [r"Completed expire operation\. New expiry date : \d{{4}}-\d\d-\d\dT\d\d:\d\d"],
        ),
    ]
