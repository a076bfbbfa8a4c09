"""Log settings: segments, retention, flushing and the cleaner.

Pure data: one :class:`Setting` per key, in the order of docs/CONFIG.md."""

from __future__ import annotations

from broker.config.checks import check_unlimited_or_positive
from broker.config.model import LONG_MAX, Setting
from broker.config.table.names import LOG, LST, B, D, I, L

SETTINGS: tuple[Setting, ...] = (
    # ---- log
    Setting(
        "log.segment.bytes",
        I,
        1073741824,
        section=LOG,
        min=1048576,
        dynamic=True,
        doc="A partition's active segment is rolled once it reaches this size.",
        why="Kafka's floor: tiny segments mean many files and descriptors",
    ),
    Setting(
        "log.roll.ms",
        L,
        None,
        section=LOG,
        min=1,
        dynamic=True,
        doc="Roll the active segment once its first record is this old. Unset: log.roll.hours.",
    ),
    Setting(
        "log.roll.hours",
        I,
        168,
        section=LOG,
        min=1,
        doc="Segment age limit in hours, used when log.roll.ms is not set.",
    ),
    Setting(
        "log.retention.ms",
        L,
        None,
        section=LOG,
        dynamic=True,
        summary=True,
        doc="Delete closed segments whose newest record is older than this; -1 keeps "
        "everything. Unset: log.retention.minutes, then log.retention.hours.",
        check=check_unlimited_or_positive,
        check_doc="-1 or >= 1",
    ),
    Setting(
        "log.retention.minutes",
        I,
        None,
        section=LOG,
        doc="Retention in minutes, used when log.retention.ms is not set.",
        check=check_unlimited_or_positive,
        check_doc="-1 or >= 1",
    ),
    Setting(
        "log.retention.hours",
        I,
        168,
        section=LOG,
        summary=True,
        doc="Retention in hours, used when neither log.retention.ms nor .minutes is set.",
        check=check_unlimited_or_positive,
        check_doc="-1 or >= 1",
    ),
    Setting(
        "log.retention.bytes",
        L,
        -1,
        section=LOG,
        dynamic=True,
        doc="Delete the oldest segments while a partition is larger than this; -1: no size limit.",
    ),
    Setting(
        "log.retention.check.interval.ms",
        L,
        300000,
        section=LOG,
        min=1,
        doc="How often the retention sweep runs.",
    ),
    Setting(
        "log.index.interval.bytes",
        I,
        4096,
        section=LOG,
        min=0,
        dynamic=True,
        doc="Bytes of log between two entries of the offset and time indexes.",
    ),
    Setting(
        "log.flush.interval.messages",
        L,
        LONG_MAX,
        section=LOG,
        min=1,
        dynamic=True,
        doc="fsync a partition after this many records. The default leaves durability "
        "to the page cache, as Kafka does.",
    ),
    Setting(
        "log.flush.interval.ms",
        L,
        None,
        section=LOG,
        dynamic=True,
        doc="fsync a partition whose oldest unflushed record is this old. Unset: log.flush.scheduler.interval.ms.",
    ),
    Setting(
        "log.flush.scheduler.interval.ms",
        L,
        LONG_MAX,
        section=LOG,
        doc="How often the time-based flush check runs.",
    ),
    Setting(
        "log.cleanup.policy",
        LST,
        ("delete",),
        section=LOG,
        choices=("compact", "delete"),
        dynamic=True,
        doc="Default cleanup.policy of topics: `delete` (retention by time and size), `compact` "
        "(keep the latest record of each key) or both.",
    ),
    Setting(
        "log.cleaner.enable",
        B,
        True,
        section=LOG,
        doc="Run the log cleaner, which compacts topics whose cleanup.policy includes `compact` "
        "(internal topics such as __consumer_offsets among them).",
    ),
    Setting(
        "log.cleaner.threads",
        I,
        1,
        section=LOG,
        min=0,
        dynamic=True,
        doc="Partitions cleaned at once. Each clean runs in a worker process of its own, so "
        "compaction never competes with request handling for the interpreter.",
    ),
    Setting(
        "log.cleaner.dedupe.buffer.size",
        L,
        134217728,
        section=LOG,
        min=0,
        dynamic=True,
        doc="Memory for the key -> offset maps of all cleaner workers together. One clean maps "
        "at most (this / threads * load factor) / 112 keys; more keys take more rounds.",
        why="a key costs about 112 bytes in a worker's map (Kafka packs 24: a 16-byte hash and an "
        "offset), so the same buffer maps fewer keys per round",
    ),
    Setting(
        "log.cleaner.io.buffer.size",
        I,
        524288,
        section=LOG,
        min=0,
        dynamic=True,
        doc="Bytes a cleaner worker reads from a segment at a time (a larger batch is read whole).",
    ),
    Setting(
        "log.cleaner.io.buffer.load.factor",
        D,
        0.9,
        section=LOG,
        min=0.0,
        max=1.0,
        dynamic=True,
        doc="How full a cleaner's key map may get before the round stops mapping keys.",
    ),
    Setting(
        "log.cleaner.io.max.bytes.per.second",
        D,
        1.7976931348623157e308,
        section=LOG,
        min=0.0,
        dynamic=True,
        doc="Read plus write rate of all cleaner workers together; the default is unlimited.",
    ),
    Setting(
        "replica.alter.log.dirs.io.max.bytes.per.second",
        L,
        9223372036854775807,
        section=LOG,
        min=1,
        dynamic=True,
        doc="Bytes per second that AlterReplicaLogDirs moves copy between log directories, all "
        "moves together; the default is unlimited.",
    ),
    Setting(
        "log.cleaner.backoff.ms",
        L,
        15000,
        section=LOG,
        min=0,
        dynamic=True,
        doc="How long the cleaner sleeps when no partition needs cleaning.",
    ),
    Setting(
        "log.cleaner.min.cleanable.ratio",
        D,
        0.5,
        section=LOG,
        min=0.0,
        max=1.0,
        dynamic=True,
        doc="Default min.cleanable.dirty.ratio: clean a partition once this share of its log is "
        "dirty (written since the last clean).",
    ),
    Setting(
        "log.cleaner.delete.retention.ms",
        L,
        86400000,
        section=LOG,
        min=0,
        dynamic=True,
        doc="Default delete.retention.ms: how long a tombstone or transaction marker stays after "
        "the clean that first finds it removable.",
    ),
    Setting(
        "log.cleaner.min.compaction.lag.ms",
        L,
        0,
        section=LOG,
        min=0,
        dynamic=True,
        doc="Default min.compaction.lag.ms: a record stays uncompacted at least this long.",
    ),
    Setting(
        "log.cleaner.max.compaction.lag.ms",
        L,
        LONG_MAX,
        section=LOG,
        min=1,
        dynamic=True,
        doc="Default max.compaction.lag.ms: a record is compacted at most this long after it is "
        "written, whatever the dirty ratio (the active segment also rolls by then).",
    ),
    Setting(
        "log.segment.delete.delay.ms",
        L,
        60000,
        section=LOG,
        min=0,
        dynamic=True,
        doc="Default file.delete.delay.ms: how long a segment replaced by the cleaner stays "
        "readable by requests that were already reading it.",
    ),
)
