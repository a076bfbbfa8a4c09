"""The durable append-only log: segments, indexes, recovery, retention, group commit.

``PartitionLog`` is one partition's log, ``LogManager`` owns the data directory and
the topic catalog, ``GroupCommitter`` (in ``broker.log.commit``, the only module
here that uses trio) turns fsyncs into shared rounds.
"""

from broker.log.config import ConfigSource, LogConfig
from broker.log.manager import LogManager, TopicInfo
from broker.log.partition import AppendInfo, PartitionLog, ReadResult

__all__ = [
    "AppendInfo",
    "ConfigSource",
    "LogConfig",
    "LogManager",
    "PartitionLog",
    "ReadResult",
    "TopicInfo",
]
