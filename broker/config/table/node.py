"""Node and storage settings: ids, data directories, threads.

Pure data: one :class:`Setting` per key, in the order of docs/CONFIG.md."""

from __future__ import annotations

from broker.config.checks import check_dirs
from broker.config.model import Setting
from broker.config.table.names import LST, NODE, STR, I

SETTINGS: tuple[Setting, ...] = (
    # ---- node and storage
    Setting(
        "node.id",
        I,
        1,
        section=NODE,
        min=0,
        summary=True,
        doc="This broker's id, reported in Metadata and used as the controller id.",
        kafka_default="(required)",
        why="a single-node broker can pick an id itself",
    ),
    Setting(
        "broker.id",
        I,
        None,
        section=NODE,
        min=0,
        doc="Older name for node.id. If both are set they must be equal.",
    ),
    Setting(
        "broker.rack",
        STR,
        None,
        section=NODE,
        doc="Rack (or zone) of this broker. In a cluster, partitions are placed over racks "
        "first, so one rack's loss takes at most its share of each topic's leaders.",
    ),
    Setting(
        "etcd.endpoints",
        LST,
        None,
        section=NODE,
        summary=True,
        doc="etcd endpoints (http://host:port, comma-separated). Set: this broker is a member "
        "of a cluster whose registrations, controller election and metadata live in etcd "
        "(v3 API, etcd 3.4+). Unset: the broker is a single node and needs no etcd. "
        "Not a Kafka setting: Kafka's counterpart was zookeeper.connect.",
    ),
    Setting(
        "etcd.prefix",
        STR,
        "/sharebroker",
        section=NODE,
        doc="Key prefix under which the cluster keeps everything in etcd; several clusters "
        "can share one etcd with different prefixes (like a ZooKeeper chroot).",
    ),
    Setting(
        "broker.session.timeout.ms",
        I,
        9000,
        section=NODE,
        min=2000,
        doc="In a cluster: the TTL of this broker's etcd lease. A broker (or the controller) "
        "that stops refreshing its lease for this long is removed from the cluster, its "
        "partitions lose their leader and a new controller is elected.",
        why="etcd refuses lease TTLs shorter than about 1.5 s with its default election timeout",
    ),
    Setting(
        "broker.heartbeat.interval.ms",
        I,
        2000,
        section=NODE,
        min=100,
        doc="In a cluster: how often the broker refreshes its etcd lease.",
    ),
    Setting(
        "etcd.request.timeout.ms",
        I,
        3000,
        section=NODE,
        min=100,
        doc="In a cluster: how long one etcd request may take before etcd counts as "
        "unreachable for it (the broker then keeps serving with the metadata it has).",
    ),
    Setting(
        "log.dirs",
        LST,
        None,
        section=NODE,
        summary=True,
        doc="Directories holding topic data (comma-separated; several spread the partitions over "
        "them, JBOD). The first also holds the broker's internal state. Takes precedence over log.dir.",
        check=check_dirs,
        check_doc="one or more directories, each once",
    ),
    Setting(
        "log.dir",
        LST,
        ("./data",),
        section=NODE,
        doc="Data directory used when log.dirs is not set. Relative paths are resolved against the working directory.",
        check=check_dirs,
        check_doc="one or more directories, each once",
        kafka_default="/tmp/kafka-logs",
        why="a directory next to the working tree survives reboots, unlike /tmp",
    ),
)
