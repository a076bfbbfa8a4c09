"""Capture golden Kafka frames from real clients talking to the reference peer.

    python -m tests.tools.capture_golden [--use-running] [--peer-port 19092]
                                         [--proxy-port 19192] [--out tests/protocol/golden]

Starts Apache Kafka (peers/kafka.sh, advertising the proxy port) unless
--use-running is given (then the running peer must advertise --proxy-port),
starts the recording proxy in front of it, drives confluent-kafka (AdminClient,
Producer per codec, transactional Producer, Consumer with assign, ShareConsumer
in implicit and explicit acknowledgement mode) and kafka-python (admin,
idempotent producer, group consumer) through the proxy, and writes a small
representative selection of request/response pairs to the output directory:

    <client>_<ApiName>_v<version>_<n>.req.bin / .resp.bin   (frame without size prefix)
    index.json                                             (what each file is)

Previous *.bin files and index.json in the output directory are replaced.
Every wait is bounded; the whole run takes about a minute.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import subprocess
import sys
import time
import uuid
from collections import defaultdict

from tests.tools import kafka_decode as kd
from tests.tools.capture_proxy import CaptureProxy, Exchange

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
KAFKA_SH = os.path.join(REPO, "peers", "kafka.sh")
DEFAULT_OUT = os.path.join(REPO, "tests", "protocol", "golden")
MAX_PER_GROUP = 4
CODECS = ("gzip", "snappy", "lz4", "zstd")
ACK_NAMES = {0: "Gap", 1: "Accept", 2: "Release", 3: "Reject", 4: "Renew"}
CODEC_NAMES = {0: "none", 1: "gzip", 2: "snappy", 3: "lz4", 4: "zstd"}

# client.id prefixes that tell the recorded traffic apart
CK, KP = "golden-ck", "golden-kp"


def log(*a):
    print("[capture]", *a, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------
# traffic
# --------------------------------------------------------------------------
def drive_confluent(bootstrap: str, topics: dict, groups: dict) -> None:
    from confluent_kafka import (
        OFFSET_BEGINNING,
        AcknowledgeType,
        Consumer,
        Message,
        Producer,
        ShareConsumer,
        TopicPartition,
    )
    from confluent_kafka.admin import (
        AdminClient,
        AlterConfigOpType,
        ConfigEntry,
        ConfigResource,
        NewTopic,
        ResourceType,
    )

    base = {"bootstrap.servers": bootstrap, "broker.address.family": "v4"}
    admin = AdminClient({**base, "client.id": f"{CK}-admin"})
    futs = admin.create_topics(
        [NewTopic(t, num_partitions=1, replication_factor=1) for t in (topics["ck"], topics["share"])],
        operation_timeout=10,
        request_timeout=15,
    )
    for t, f in futs.items():
        f.result(timeout=20)
        log("created topic", t)
    for g in (groups["implicit"], groups["explicit"]):
        res = ConfigResource(
            ResourceType.GROUP,
            g,
            incremental_configs=[
                ConfigEntry("share.auto.offset.reset", "earliest", incremental_operation=AlterConfigOpType.SET)
            ],
        )
        for _, f in admin.incremental_alter_configs([res], request_timeout=15).items():
            f.result(timeout=20)
        log("share.auto.offset.reset=earliest on group", g)

    def produce(client_id: str, topic: str, n: int, extra: dict | None = None, tag: str = ""):
        p = Producer(
            {**base, "client.id": client_id, "acks": "all", "enable.idempotence": True, "linger.ms": 5, **(extra or {})}
        )
        for i in range(n):
            p.produce(
                topic,
                key=f"k{i}".encode(),
                value=f"{tag} value {i} ".encode() * 4,
                headers=[("h", b"golden")] if i == 0 else None,
            )
        left = p.flush(20)
        assert left == 0, f"{client_id}: {left} records not delivered"

    for codec in CODECS:
        produce(f"{CK}-producer-{codec}", topics["ck"], 3, {"compression.type": codec}, codec)
        produce(f"{CK}-producer-{codec}", topics["share"], 3, {"compression.type": codec}, codec)
        log("produced with", codec)
    # A committed transaction leaves a control record in the share topic: the
    # share consumer must Gap-acknowledge its offset.
    try:
        tp = Producer(
            {**base, "client.id": f"{CK}-txn-producer", "transactional.id": f"golden-txn-{uuid.uuid4().hex[:8]}"}
        )
        tp.init_transactions(20)
        tp.begin_transaction()
        for i in range(2):
            tp.produce(topics["share"], key=b"t", value=f"txn {i}".encode())
        tp.commit_transaction(20)
        log("transactional records committed")
    except Exception as e:  # optional extra; report and carry on
        log("transactional producer failed:", e)

    # Classic consumer with manual assignment.
    c = Consumer(
        {
            **base,
            "client.id": f"{CK}-consumer",
            "group.id": "golden-ck-assign",
            "enable.auto.commit": False,
            "fetch.wait.max.ms": 100,
        }
    )
    c.assign([TopicPartition(topics["ck"], 0, OFFSET_BEGINNING)])
    got: list[Message] = []
    deadline = time.monotonic() + 20
    while len(got) < 3 * len(CODECS) and time.monotonic() < deadline:
        m = c.poll(0.5)
        if m is not None and m.error() is None:
            got.append(m)
    log("classic consumer got", len(got), "records")
    if got:
        c.commit(message=got[-1], asynchronous=False)
    c.close()

    def share_consumer(mode: str, client_id: str, group: str):
        sc = ShareConsumer({**base, "client.id": client_id, "group.id": group, "share.acknowledgement.mode": mode})
        sc.subscribe([topics["share"]])
        return sc

    def poll_some(sc, want: int = 1, seconds: float = 25.0) -> list:
        out: list[Message] = []
        deadline = time.monotonic() + seconds
        while len(out) < want and time.monotonic() < deadline:
            for m in sc.poll(1.0):
                if m.error() is None:
                    out.append(m)
                else:
                    log("share poll error:", m.error())
            if out:
                break
        return out

    # -- implicit acknowledgement -------------------------------------------
    sc = share_consumer("implicit", f"{CK}-share-implicit", groups["implicit"])
    first = poll_some(sc)
    log("implicit share consumer: first poll", len(first), "records")
    produce(f"{CK}-producer-zstd", topics["share"], 2, {"compression.type": "zstd"}, "more")
    second = poll_some(sc)  # this ShareFetch piggy-backs the acks of `first`
    log("implicit share consumer: second poll", len(second))
    log("implicit commit_sync:", sc.commit_sync(15))  # ShareAcknowledge
    produce(f"{CK}-producer-lz4", topics["share"], 2, {"compression.type": "lz4"}, "last")
    third = poll_some(sc, seconds=10)
    log("implicit share consumer: third poll", len(third))
    sc.close()  # leave heartbeat + epoch -1
    log("implicit share consumer closed")

    # -- explicit acknowledgement: accept / release / reject -----------------
    sc = share_consumer("explicit", f"{CK}-share-explicit", groups["explicit"])
    batch = poll_some(sc)
    log("explicit share consumer: first poll", len(batch))
    kinds = [AcknowledgeType.ACCEPT, AcknowledgeType.RELEASE, AcknowledgeType.REJECT]
    for i, m in enumerate(batch):
        sc.acknowledge(m, kinds[i % 3] if i < 3 else AcknowledgeType.ACCEPT)
    batch = poll_some(sc)  # ShareFetch with mixed acks; released record returns
    log(
        "explicit share consumer: second poll",
        len(batch),
        [(m.offset(), m.delivery_count() if hasattr(m, "delivery_count") else None) for m in batch],
    )
    for m in batch:
        sc.acknowledge(m, AcknowledgeType.ACCEPT)
    log("explicit commit_sync:", sc.commit_sync(15))  # ShareAcknowledge
    produce(f"{CK}-producer-gzip", topics["share"], 2, {"compression.type": "gzip"}, "final")
    batch = poll_some(sc, seconds=10)
    log("explicit share consumer: third poll", len(batch))
    for i, m in enumerate(batch):
        sc.acknowledge(m, AcknowledgeType.RELEASE if i == 0 else AcknowledgeType.ACCEPT)
    sc.close()  # ShareAcknowledge epoch -1 carrying these acks
    log("explicit share consumer closed")

    try:
        log("list_groups:", [g.id for g in admin.list_groups(timeout=10)])
    except Exception as e:
        log("list_groups failed:", e)
    try:
        r = admin.list_consumer_groups(request_timeout=10).result(timeout=15)
        log("list_consumer_groups:", [g.group_id for g in r.valid])
    except Exception as e:
        log("list_consumer_groups failed:", e)


def drive_kafka_python(bootstrap: str, topics: dict) -> None:
    from kafka import KafkaConsumer, KafkaProducer
    from kafka.admin import ConfigResource, ConfigResourceType, KafkaAdminClient, NewTopic

    admin = KafkaAdminClient(bootstrap_servers=bootstrap, client_id=f"{KP}-admin", request_timeout_ms=15000)
    admin.create_topics([NewTopic(topics["kp"], 1, 1)], timeout_ms=10000)
    log("kafka-python created topic", topics["kp"])
    try:
        admin.alter_configs(
            [
                ConfigResource(
                    ConfigResourceType.GROUP, "golden-kp-share", configs={"share.auto.offset.reset": "earliest"}
                )
            ],
            incremental=True,
        )
        log("kafka-python incremental alter_configs on GROUP ok")
    except Exception as e:
        log("kafka-python alter_configs failed:", e)
    try:
        log("kafka-python list_groups:", admin.list_groups(types_filter=["share", "classic", "consumer"]))
    except Exception as e:
        log("kafka-python list_groups failed:", e)

    p = KafkaProducer(bootstrap_servers=bootstrap, client_id=f"{KP}-producer", acks="all", linger_ms=5)
    for i in range(4):
        p.send(
            topics["kp"],
            key=f"k{i}".encode(),
            value=f"kafka-python value {i}".encode(),
            headers=[("h", b"golden")] if i == 0 else None,
        )
    p.flush(20)
    p.close(10)
    log("kafka-python produced")
    c = KafkaConsumer(
        topics["kp"],
        bootstrap_servers=bootstrap,
        client_id=f"{KP}-consumer",
        group_id="golden-kp-group",
        auto_offset_reset="earliest",
        enable_auto_commit=False,
        consumer_timeout_ms=1000,
        fetch_max_wait_ms=100,
    )
    got, deadline = 0, time.monotonic() + 25
    while got < 4 and time.monotonic() < deadline:
        for _ in c:
            got += 1
    log("kafka-python consumer got", got)
    c.commit()
    c.close()
    admin.close()


# --------------------------------------------------------------------------
# selection
# --------------------------------------------------------------------------
def client_of(ex: Exchange) -> str | None:
    cid = ex.client_id or ""
    if cid.startswith(CK):
        return "confluent-kafka"
    if cid.startswith(KP):
        return "kafka-python"
    return None


def _acks_text(parts) -> tuple[str, set]:
    out, kinds = [], set()
    for part in parts or []:
        for b in part.get("AcknowledgementBatches") or []:
            types = [ACK_NAMES.get(t, str(t)) for t in b["AcknowledgeTypes"]]
            kinds.update(types)
            out.append(f"[{b['FirstOffset']}-{b['LastOffset']}:{'/'.join(types)}]")
    return "".join(out), kinds


def classify(ex: Exchange) -> tuple[int, str, str]:
    """(rank, category, note): the first exchange of each category is a candidate;
    lower rank is kept first."""
    role = (ex.client_id or "").replace(CK + "-", "").replace(KP + "-", "")
    name = kd.api_name(ex.api_key)
    try:
        req = kd.decode_request(ex.request)["body"]
        resp = kd.decode_response(ex.response, ex.api_key, ex.api_version)["body"] if ex.response is not None else None
    except Exception as e:  # schema mismatch: still keep one example
        return 9, "undecoded", f"{role}: {name} (not decodable with protocol/schemas: {e})"
    err = (resp or {}).get("ErrorCode")
    errs = f" error={err}" if err else ""

    if name == "ShareFetch":
        epoch = req["ShareSessionEpoch"]
        acks, kinds = _acks_text(p for t in req["Topics"] for p in t["Partitions"])
        acquired = sum(
            len(p.get("AcquiredRecords") or []) for t in (resp or {}).get("Responses", []) for p in t["Partitions"]
        )
        ntopics = len(req["Topics"])
        note = f"{role}: epoch={epoch} topics={ntopics} acks={acks or 'none'} acquired_ranges={acquired}{errs}"
        if epoch == 0:
            return 0, "epoch0" + ("+records" if acquired else ""), note
        if epoch == -1:
            return 1, "close", note
        if acks:
            return (
                1 if len(kinds) > 1 else 2,
                "acks:" + ",".join(sorted(kinds)) + ("+records" if acquired else ""),
                note,
            )
        return 5, "poll" + ("+records" if acquired else ""), note
    if name == "ShareAcknowledge":
        epoch = req["ShareSessionEpoch"]
        acks, kinds = _acks_text(p for t in req["Topics"] for p in t["Partitions"])
        note = f"{role}: epoch={epoch} acks={acks or 'none'}{errs}"
        return (0 if epoch == -1 else 1), f"epoch{'-1' if epoch == -1 else 'N'}:" + ",".join(sorted(kinds)), note
    if name == "ShareGroupHeartbeat":
        epoch = req["MemberEpoch"]
        asg = (resp or {}).get("Assignment")
        note = (
            f"{role}: member_epoch={epoch} subscribed={req.get('SubscribedTopicNames')} "
            f"-> epoch={(resp or {}).get('MemberEpoch')} assignment={'yes' if asg else 'no'}{errs}"
        )
        if epoch == 0:
            return 0, "join", note
        if epoch == -1:
            return 0, "leave", note
        return 1, "epochN" + ("+assignment" if asg else ""), note
    if name == "Produce":
        codecs = set()
        for t in req["TopicData"]:
            for p in t["PartitionData"]:
                rec = p.get("Records") or b""
                if len(rec) >= 23:
                    codecs.add(CODEC_NAMES.get(int.from_bytes(rec[21:23], "big") & 7, "?"))
        codec = ",".join(sorted(codecs)) or "none"
        txn = " transactional" if req.get("TransactionalId") else ""
        return (1 if txn else 0), f"{codec}{txn}", f"{role}: acks={req['Acks']} codec={codec}{txn}{errs}"
    if name == "Metadata":
        topics = req.get("Topics")
        if topics is None:
            kind = "all-topics"
        elif not topics:
            kind = "no-topics"
        elif any(t.get("TopicId") not in (None, "00000000-0000-0000-0000-000000000000") for t in topics):
            kind = "by-topic-id"
        else:
            kind = "by-name"
        share = role.startswith("share")
        return (0 if share else 1), f"{kind}{'/share' if share else ''}", f"{role}: {kind}"
    if name == "Fetch":
        nrec = sum(
            len(p.get("Records") or b"") for t in (resp or {}).get("Responses", []) for p in t.get("Partitions", [])
        )
        return (0 if nrec else 1), "records" if nrec else "empty", f"{role}: response records bytes={nrec}{errs}"
    if name == "FindCoordinator":
        kt = req.get("KeyType", 0)
        keys = req.get("CoordinatorKeys") or [req.get("Key")]
        return 0, f"{role}/{kt}", f"{role}: key_type={kt} keys={keys}"
    if name == "ListGroups":
        return (
            0,
            str(req.get("TypesFilter")),
            f"{role}: states={req.get('StatesFilter')} types={req.get('TypesFilter')}",
        )
    if name == "IncrementalAlterConfigs":
        res = [(r["ResourceType"], r["ResourceName"]) for r in req["Resources"]]
        return 0, role, f"{role}: resources={res}"
    kind = role.split("-")[0]  # admin / producer / consumer / share / txn
    return 3, kind + errs, f"{role}: {name}{errs}"


def check_decoding(exchanges: list[Exchange]) -> list[str]:
    """Every recorded frame must decode with protocol/schemas, leaving no bytes."""
    problems = []
    for ex in exchanges:
        where = f"{kd.api_name(ex.api_key)} v{ex.api_version} corr={ex.correlation_id}"
        try:
            r = kd.decode_request(ex.request)
            if r["trailing"]:
                problems.append(f"{where}: request has {r['trailing']} undecoded bytes")
            if ex.response is not None:
                r = kd.decode_response(ex.response, ex.api_key, ex.api_version)
                if r["trailing"]:
                    problems.append(f"{where}: response has {r['trailing']} undecoded bytes")
        except Exception as e:
            problems.append(f"{where}: {type(e).__name__}: {e}")
    return problems


def select(exchanges: list[Exchange]) -> list[tuple[str, Exchange, str]]:
    groups: dict[tuple, dict[str, tuple]] = defaultdict(dict)
    for ex in exchanges:
        client = client_of(ex)
        if client is None:
            continue
        rank, cat, note = classify(ex)
        g = groups[(client, ex.api_key, ex.api_version)]
        if cat not in g:
            g[cat] = (rank, ex.seq, ex, note)
    chosen = []
    for (client, _, _), cats in sorted(groups.items()):
        best = sorted(cats.values(), key=lambda x: (x[0], x[1]))[:MAX_PER_GROUP]
        for _rank, _seq, ex, note in sorted(best, key=lambda x: x[1]):
            chosen.append((client, ex, note))
    return chosen


def write_out(out: str, chosen, versions: dict, peer: str) -> dict:
    os.makedirs(out, exist_ok=True)
    for stale in glob.glob(os.path.join(out, "*.bin")) + [os.path.join(out, "index.json")]:
        if os.path.exists(stale):
            os.remove(stale)
    counter: dict[tuple, int] = defaultdict(int)
    entries = []
    for client, ex, note in chosen:
        name = kd.api_name(ex.api_key)
        counter[(client, name, ex.api_version)] += 1
        stem = f"{client}_{name}_v{ex.api_version}_{counter[(client, name, ex.api_version)]}"
        with open(os.path.join(out, stem + ".req.bin"), "wb") as f:
            f.write(ex.request)
        entry = {
            "file": stem + ".req.bin",
            "client": client,
            "client_version": versions[client],
            "client_id": ex.client_id,
            "api_key": ex.api_key,
            "api_name": name,
            "api_version": ex.api_version,
            "correlation_id": ex.correlation_id,
            "connection": ex.conn,
            "direction": "client->broker",
            "response_file": None,
            "note": note,
        }
        if ex.response is not None:
            with open(os.path.join(out, stem + ".resp.bin"), "wb") as f:
                f.write(ex.response)
            entry["response_file"] = stem + ".resp.bin"
        entries.append(entry)
    index = {
        "peer": peer,
        "clients": versions,
        "format": "frame payload without the 4-byte size prefix (header + body)",
        "captured_at": time.strftime("%Y-%m-%d"),
        "frames": entries,
    }
    with open(os.path.join(out, "index.json"), "w") as f:
        json.dump(index, f, indent=1)
        f.write("\n")
    return index


# --------------------------------------------------------------------------
def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--peer-port", type=int, default=19092)
    ap.add_argument("--proxy-port", type=int, default=19192)
    ap.add_argument(
        "--use-running", action="store_true", help="use a peer already started with --advertise-port PROXY_PORT"
    )
    ap.add_argument("--out", default=DEFAULT_OUT)
    a = ap.parse_args(argv)

    import confluent_kafka
    import kafka

    versions = {
        "confluent-kafka": f"{confluent_kafka.version()[0]} (librdkafka {confluent_kafka.libversion()[0]})",
        "kafka-python": kafka.__version__,
    }
    started = False
    if not a.use_running:
        subprocess.run(
            [KAFKA_SH, "start", "--port", str(a.peer_port), "--advertise-port", str(a.proxy_port)], check=True
        )
        started = True
    proxy = CaptureProxy(a.proxy_port, ("127.0.0.1", a.peer_port)).start()
    bootstrap = f"127.0.0.1:{a.proxy_port}"
    suffix = uuid.uuid4().hex[:6] if a.use_running else "1"
    topics = {"ck": f"golden-ck-{suffix}", "share": f"golden-share-{suffix}", "kp": f"golden-kp-{suffix}"}
    groups = {"implicit": f"golden-share-implicit-{suffix}", "explicit": f"golden-share-explicit-{suffix}"}
    try:
        drive_confluent(bootstrap, topics, groups)
        drive_kafka_python(bootstrap, topics)
        time.sleep(1.0)
    finally:
        proxy.stop()
        if started:
            subprocess.run([KAFKA_SH, "stop", "--port", str(a.peer_port)], check=False)
    exchanges = proxy.exchanges()
    log(f"recorded {len(exchanges)} exchanges")
    seen: defaultdict[tuple[str | None, str, int], int] = defaultdict(int)
    for ex in exchanges:
        seen[(client_of(ex), kd.api_name(ex.api_key), ex.api_version)] += 1
    for k in sorted(seen, key=str):
        log("  seen", k, seen[k])
    for p in check_decoding(exchanges):
        log("decode problem:", p)
    chosen = select(exchanges)
    index = write_out(a.out, chosen, versions, "Apache Kafka 4.4.0 (peers/kafka.sh, KRaft single node)")
    log(f"wrote {len(index['frames'])} frame pairs to {a.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
