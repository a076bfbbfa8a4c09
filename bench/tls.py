"""Produce and fetch MB/s over PLAINTEXT, SSL and SASL_SSL: sharebroker vs Kafka 4.4.0.

``python -m bench.tls [--mib N]`` (``make bench-tls``). Both brokers run in the same
run, one after the other, on CPU 0 (this process and its librdkafka clients on CPU 1
when started with ``taskset -c 1``), with the same certificates (tests/pki.py: a test
CA, the broker's certificate as a PEM keystore) and the same listeners:

* PLAINTEXT (the baseline and the admin: topics, SCRAM credentials);
* SSL (TLS 1.3, no client certificate);
* SASL_SSL with SCRAM-SHA-512.

First, untimed, ``--warm-mib`` MiB (64) are produced and read back on every listener,
so that Kafka's JVM has compiled its produce, fetch and TLS paths before the first
timed row (as ``bench.compare`` warms every broker). Then for each listener: a
librdkafka producer sends N MiB of 1 KiB records (acks=all, idempotent) to a new
1-partition topic, and a consumer (assign, no group) reads them back. Prints a
table with the ratio sharebroker/Kafka and writes bench/results/tls-<date>.json.
"""

from __future__ import annotations

import argparse
import datetime
import json
import platform
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.fetch import DRAIN_CONSUMER, drain, know_leader
from bench.peers import KafkaPeer, Sharebroker, free_port

RECORD = b"x" * 1024
PROTOCOLS = ("PLAINTEXT", "SSL", "SASL_SSL")
USER, PASSWORD = "bench", "bench-secret"


def client_conf(protocol: str, bootstrap: str, ca_file: Path) -> dict:
    conf: dict = {"bootstrap.servers": bootstrap, "security.protocol": protocol, "log_level": 3}
    if protocol != "PLAINTEXT":
        conf["ssl.ca.location"] = str(ca_file)
    if protocol == "SASL_SSL":
        conf.update({"sasl.mechanism": "SCRAM-SHA-512", "sasl.username": USER, "sasl.password": PASSWORD})
    return conf


def setup(admin_bootstrap: str, topics: list[str]) -> None:
    """Topics and the SCRAM credential, through the PLAINTEXT listener."""
    from confluent_kafka.admin import (
        AdminClient,
        NewTopic,
        ScramCredentialInfo,
        ScramMechanism,
        UserScramCredentialUpsertion,
    )

    admin = AdminClient({"bootstrap.servers": admin_bootstrap})
    for f in admin.create_topics([NewTopic(t, 1, 1) for t in topics], operation_timeout=30).values():
        f.result(60)
    upsert = UserScramCredentialUpsertion(
        USER, ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096), PASSWORD.encode()
    )
    for f in admin.alter_user_scram_credentials([upsert]).values():
        f.result(30)
    time.sleep(1.0)  # Kafka's brokers learn of the credential from the metadata log


def produce(conf: dict, topic: str, records: int) -> float:
    from confluent_kafka import Producer

    p = Producer(
        {
            **conf,
            "acks": "all",
            "linger.ms": 5,
            "batch.size": 1_000_000,
            "queue.buffering.max.messages": 200_000,
            "enable.idempotence": True,
        }
    )
    errors: list = []

    def on_delivery(err: Any, _msg: Any) -> None:
        if err is not None:
            errors.append(err)

    start = time.perf_counter()
    for i in range(records):
        while True:
            try:
                p.produce(topic, RECORD, partition=0, on_delivery=on_delivery)
                break
            except BufferError:
                p.poll(0.01)
        if i % 1000 == 0:
            p.poll(0)
    left = p.flush(120)
    elapsed = time.perf_counter() - start
    if errors or left:
        raise RuntimeError(f"produce to {topic}: {len(errors)} errors ({errors[:1]}), {left} undelivered")
    return elapsed


def fetch(conf: dict, topic: str, records: int, deadline_s: float = 120.0) -> float:
    from confluent_kafka import OFFSET_BEGINNING, Consumer, TopicPartition

    c = Consumer(
        {
            **conf,
            "group.id": f"tls-{time.time_ns()}",
            "enable.auto.commit": False,
            **DRAIN_CONSUMER,
        }
    )
    know_leader(c, topic)
    start = time.perf_counter()
    c.assign([TopicPartition(topic, 0, OFFSET_BEGINNING)])
    try:
        got, _, last = drain(c, records, deadline_s)
    finally:
        c.close()
    if got < records:
        raise RuntimeError(f"fetch from {topic}: {got} of {records} records")
    return last - start


def measure(
    name: str, addresses: dict[str, str], admin_bootstrap: str, ca_file: Path, mib: int, warm_mib: int = 0
) -> dict:
    records = mib * 1024 * 1024 // len(RECORD)
    topics = {p: f"tls-{p.lower()}-{time.time_ns()}" for p in PROTOCOLS}
    warm = {p: f"tls-warm-{p.lower()}-{time.time_ns()}" for p in PROTOCOLS} if warm_mib else {}
    setup(admin_bootstrap, [*topics.values(), *warm.values()])
    out: dict[str, Any] = {}
    if warm:
        # Untimed, on every listener, before any timed row: a JVM compiles its produce,
        # fetch and TLS paths over the first seconds of load (as bench.compare.warm_up).
        warm_records = warm_mib * 1024 * 1024 // len(RECORD)
        for protocol in PROTOCOLS:
            conf = client_conf(protocol, addresses[protocol], ca_file)
            produce(conf, warm[protocol], warm_records)
            fetch(conf, warm[protocol], warm_records)
        out["warm_up_mib_per_listener"] = warm_mib
    for protocol in PROTOCOLS:
        conf = client_conf(protocol, addresses[protocol], ca_file)
        p_s = produce(conf, topics[protocol], records)
        f_s = fetch(conf, topics[protocol], records)
        mb = records * len(RECORD) / 1e6
        out[protocol] = {"produce_mb_s": round(mb / p_s, 1), "fetch_mb_s": round(mb / f_s, 1)}
        print(
            f"{name} {protocol}: produce {out[protocol]['produce_mb_s']} MB/s, fetch {out[protocol]['fetch_mb_s']} MB/s"
        )
    return out


def run_sharebroker(pki, mib: int, cpus: str | None, warm_mib: int = 0) -> dict:
    settings = {
        "listeners": "PLAINTEXT://127.0.0.1:0,SSL://127.0.0.1:0,SASL_SSL://127.0.0.1:0",
        **pki.broker_settings(),
        "listener.name.sasl_ssl.sasl.enabled.mechanisms": "SCRAM-SHA-512",
    }
    broker = Sharebroker(cpus=cpus, settings=settings).start()
    try:
        assert broker._proc is not None
        addresses = {p: broker._proc.address(p) for p in PROTOCOLS}
        try:
            return measure("sharebroker", addresses, addresses["PLAINTEXT"], pki.ca_file, mib, warm_mib)
        except Exception:
            print(broker._proc.log_tail(30), file=sys.stderr)
            raise
    finally:
        broker.stop()


def run_kafka(pki, mib: int, cpus: str | None, warm_mib: int = 0) -> dict:
    peer = KafkaPeer(cpus=cpus)
    p, ssl_port, sasl_port = peer.port, free_port(), free_port()
    assert pki.broker is not None
    tls = [
        "ssl.keystore.type=PEM",
        f"ssl.keystore.location={pki.broker.bundle_file}",
        "ssl.truststore.type=PEM",
        f"ssl.truststore.location={pki.ca_file}",
    ]
    peer.extra_config = "\n".join(
        [
            f"listeners=CLIENT://127.0.0.1:{p},INTERNAL://127.0.0.1:{p + 2},CONTROLLER://127.0.0.1:{p + 1},"
            f"SSL://127.0.0.1:{ssl_port},SASL_SSL://127.0.0.1:{sasl_port}",
            f"advertised.listeners=CLIENT://127.0.0.1:{p},INTERNAL://127.0.0.1:{p + 2},"
            f"SSL://127.0.0.1:{ssl_port},SASL_SSL://127.0.0.1:{sasl_port}",
            "listener.security.protocol.map=CLIENT:PLAINTEXT,INTERNAL:PLAINTEXT,CONTROLLER:PLAINTEXT,"
            "SSL:SSL,SASL_SSL:SASL_SSL",
            *tls,
            "listener.name.sasl_ssl.sasl.enabled.mechanisms=SCRAM-SHA-512",
            "listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config="
            "org.apache.kafka.common.security.scram.ScramLoginModule required;",
            "",
        ]
    )
    try:
        peer.start()
        addresses = {
            "PLAINTEXT": peer.bootstrap,
            "SSL": f"127.0.0.1:{ssl_port}",
            "SASL_SSL": f"127.0.0.1:{sasl_port}",
        }
        return measure("kafka", addresses, peer.bootstrap, pki.ca_file, mib, warm_mib)
    finally:
        peer.stop()
        peer._tmp.cleanup()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mib", type=int, default=256, help="MiB produced and fetched per listener")
    parser.add_argument("--broker-cpus", default="0", help="CPUs the brokers are pinned to (taskset)")
    parser.add_argument(
        "--warm-mib", type=int, default=64, help="untimed MiB produced and fetched on each listener first (0: none)"
    )
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    why = KafkaPeer.available()
    if why:
        print(f"bench-tls: Kafka peer unavailable: {why}", file=sys.stderr)
        return 1
    from tests.pki import Pki

    with tempfile.TemporaryDirectory(prefix="bench-tls-") as tmp:
        pki = Pki(Path(tmp) / "pki")
        results = {
            "sharebroker": run_sharebroker(pki, args.mib, args.broker_cpus, args.warm_mib),
            "kafka": run_kafka(pki, args.mib, args.broker_cpus, args.warm_mib),
        }
    print(f"\n{'listener':<10} {'metric':<8} {'sharebroker':>12} {'kafka 4.4':>10} {'ratio':>6}")
    for protocol in PROTOCOLS:
        for metric in ("produce_mb_s", "fetch_mb_s"):
            s, k = results["sharebroker"][protocol][metric], results["kafka"][protocol][metric]
            print(f"{protocol:<10} {metric[:-5]:<8} {s:>12} {k:>10} {s / k:>6.2f}")
    doc = {
        "date": datetime.date.today().isoformat(),
        "machine": platform.platform(),
        "mib": args.mib,
        "warm_mib": args.warm_mib,
        "record_bytes": len(RECORD),
        "results": results,
    }
    path = args.json or Path("bench/results") / f"tls-{doc['date']}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, indent=2) + "\n")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
