"""Apache Kafka 4.4.0's command-line tools against sharebroker, and the same steps against
Kafka 4.4.0 (``make compat-kafka-tools``; tests/compat/kafka_tools.py has the steps).

Both brokers have two log directories, so the log-dirs and reassignment steps move a
partition between them, and a SASL_PLAINTEXT listener (SCRAM-SHA-512) with a
delegation-token secret key for the token steps. Each test runs every step and fails with a report of every
step that did not pass (exit status, missing output, an exception trace).
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

import pytest
from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer, TopicPartition

from broker.protocol.messages.alter_user_scram_credentials_request import (
    AlterUserScramCredentialsRequest,
    ScramCredentialUpsertion,
)
from broker.testing import BrokerProcess
from tests.compat import kafka_tools
from tests.integration.wire import WireClient

pytestmark = [pytest.mark.compat, pytest.mark.timeout(900)]

# Settings the Kafka peer has (peers/kafka.sh) that the steps notice.
SB_SETTINGS = {"group.share.min.record.lock.duration.ms": "1000", "group.initial.rebalance.delay.ms": "0"}
# Delegation tokens: a SASL_PLAINTEXT listener with SCRAM-SHA-512 and a secret key, on both.
TOKEN_SECRET = "tools-token-secret"
SB_TOKEN_SETTINGS = {
    "listeners": "PLAINTEXT://127.0.0.1:0,SASL_PLAINTEXT://127.0.0.1:0",
    "listener.name.sasl_plaintext.sasl.enabled.mechanisms": "SCRAM-SHA-512",
    "delegation.token.secret.key": TOKEN_SECRET,
}


def kafka_token_config(port: int, sasl_port: int) -> str:
    p = port
    return "\n".join(
        [
            f"listeners=CLIENT://127.0.0.1:{p},INTERNAL://127.0.0.1:{p + 2},CONTROLLER://127.0.0.1:{p + 1},"
            f"SECURE://127.0.0.1:{sasl_port}",
            f"advertised.listeners=CLIENT://127.0.0.1:{p},INTERNAL://127.0.0.1:{p + 2},SECURE://127.0.0.1:{sasl_port}",
            "listener.security.protocol.map=CLIENT:PLAINTEXT,INTERNAL:PLAINTEXT,CONTROLLER:PLAINTEXT,"
            "SECURE:SASL_PLAINTEXT",
            "listener.name.secure.sasl.enabled.mechanisms=SCRAM-SHA-512",
            "listener.name.secure.scram-sha-512.sasl.jaas.config="
            "org.apache.kafka.common.security.scram.ScramLoginModule required;",
            f"delegation.token.secret.key={TOKEN_SECRET}",
            "",
        ]
    )


@pytest.fixture(autouse=True)
def _tools():
    why = kafka_tools.available()
    if why:
        pytest.skip(why)


def _dir_of(bootstrap: str, topic: str, partition: int) -> str:
    admin = KafkaAdminClient(bootstrap_servers=bootstrap)
    try:
        for broker in admin.describe_log_dirs():
            for d in broker["log_dirs"]:
                for t in d["topics"]:
                    if t["name"] == topic and any(
                        p["partition_index"] == partition and not p["is_future_key"] for p in t["partitions"]
                    ):
                        return d["log_dir"]
    finally:
        admin.close()
    raise AssertionError(f"{topic}-{partition} is in no log directory")


def _scram_users(bootstrap: str) -> None:
    """The token steps' users, with SCRAM-SHA-512 credentials (as kafka-configs.sh --alter
    --entity-type users would make them, without a JVM more)."""
    upserts = []
    for name, password in kafka_tools.PASSWORDS.items():
        salt = os.urandom(16)
        salted = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, 4096)
        upserts.append(
            ScramCredentialUpsertion(name=name, mechanism=2, iterations=4096, salt=salt, salted_password=salted)
        )
    with WireClient(bootstrap) as w:
        resp = w.request(AlterUserScramCredentialsRequest(deletions=[], upsertions=upserts), 0)
    assert all(r.error_code == 0 for r in resp.results), resp


def _produce_to(bootstrap: str, topic: str, partition: int) -> None:
    producer = KafkaProducer(bootstrap_servers=bootstrap, acks="all")
    try:
        producer.send(topic, b"delete-records", partition=partition).get(timeout=30)
    finally:
        producer.close()


def _records_in(bootstrap: str, topic: str) -> int:
    consumer = KafkaConsumer(bootstrap_servers=bootstrap)
    try:
        parts = [TopicPartition(topic, p) for p in consumer.partitions_for_topic(topic) or ()]
        return sum(consumer.end_offsets(parts).values())
    finally:
        consumer.close()


def _run(label: str, bootstrap: str, sasl_bootstrap: str, dirs: tuple[Path, Path], tmp: Path) -> None:
    values = {
        "bs": bootstrap,
        "sasl_bs": sasl_bootstrap,
        "node": "1",
        "tmp": str(tmp),
        "dir_a": str(dirs[0]),
        "dir_b": str(dirs[1]),
        "dir_move": "",
    }

    def before(step: kafka_tools.Step) -> None:
        if step.name == "delete-records":
            # The perf producer's partitioner may leave partition 0 empty; the step deletes
            # below offset 1 there, so partition 0 must hold a record whatever it chose.
            _produce_to(bootstrap, kafka_tools.T, 0)
        if step.name == "reassign-partitions with log_dirs":
            here = _dir_of(bootstrap, kafka_tools.T, 0)
            values["dir_move"] = values["dir_b"] if here == values["dir_a"] else values["dir_a"]

    _scram_users(bootstrap)
    outcomes = kafka_tools.run_steps(kafka_tools.steps(), values, before=before)
    text = kafka_tools.report(label, outcomes)
    # What the console producer sent with the token is there.
    produced = _records_in(bootstrap, kafka_tools.TOKEN_TOPIC)
    text += f"\n  records produced with the token: {produced} (2 expected)"
    print(text)
    out = os.environ.get("COMPAT_TOOLS_REPORT")
    if out:
        with open(out, "a") as f:
            f.write(text + "\n")
    assert all(o.ok for o in outcomes) and produced == 2, text


def test_kafka_tools_against_sharebroker(tmp_path: Path):
    a, b = tmp_path / "a", tmp_path / "b"
    broker = BrokerProcess(a, {**SB_SETTINGS, **SB_TOKEN_SETTINGS, "log.dirs": f"{a},{b}"}).start()
    try:
        _run("sharebroker", broker.address("PLAINTEXT"), broker.address("SASL_PLAINTEXT"), (a, b), tmp_path)
    finally:
        broker.kill()


def test_kafka_tools_against_kafka():
    from bench.peers import KafkaPeer, free_port

    why = KafkaPeer.available()
    if why:
        pytest.skip(f"Kafka peer unavailable: {why}")
    with tempfile.TemporaryDirectory(prefix="kafka-tools-") as tmp:
        a, b = Path(tmp) / "data-a", Path(tmp) / "data-b"
        sasl_port = free_port()
        peer = KafkaPeer()
        peer.extra_config = f"log.dirs={a},{b}\n" + kafka_token_config(peer.port, sasl_port)
        try:
            peer.start()
            _run("kafka 4.4.0", peer.bootstrap, f"127.0.0.1:{sasl_port}", (a, b), Path(tmp))
        finally:
            peer.stop()
            peer._tmp.cleanup()


def test_kafka_streams_groups_prints_the_topology_sharebroker_keeps(tmp_path: Path):
    """kafka-streams-groups.sh --describe --topology reads the description a member pushed
    (KIP-1331) as sharebroker's own tool does. (Kafka 4.4.0 keeps descriptions only with a
    plugin configured, so there is no Kafka run to compare with.)"""
    from broker.admin.client import AdminClient
    from broker.protocol.messages import streams_group_heartbeat_request as sq
    from tests.integration import test_streams_topology as st
    from tests.integration.clients import create_topic

    broker = BrokerProcess(tmp_path / "data").start()
    try:
        create_topic(broker.bootstrap, st.SOURCE, 1)
        with AdminClient(broker.bootstrap) as admin:
            conn = admin.connect(admin.find_coordinator(st.APP))
            topology = sq.Topology(
                epoch=0, subtopologies=[sq.Subtopology(subtopology_id="0", source_topics=[st.SOURCE])]
            )
            joined = conn.call(
                sq.StreamsGroupHeartbeatRequest(
                    group_id=st.APP,
                    member_id="m1",
                    member_epoch=0,
                    rebalance_timeout_ms=5000,
                    topology=topology,
                    process_id="p1",
                    active_tasks=[],
                    standby_tasks=[],
                    warmup_tasks=[],
                ),
                1,
            )
            assert joined.topology_description_required
            assert st._update(conn, "m1", 0).error_code == 0
        step = kafka_tools.Step(
            "streams-groups --describe --topology",
            "kafka-streams-groups",
            ["--bootstrap-server", "{bs}", "--describe", "--group", st.APP, "--topology"],
        )
        outcome = kafka_tools.run_step(step, {"bs": broker.bootstrap})
        assert outcome.ok, kafka_tools.report("sharebroker", [outcome])
        assert st.EXPECTED_TEXT.strip("\n") in outcome.output
    finally:
        broker.kill()
