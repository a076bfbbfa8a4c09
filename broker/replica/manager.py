"""The replica manager: this broker's partitions, looked up with leadership checks.

It pairs every local partition log with the partition's state from the current
metadata image (leader, epoch, replicas, ISR), answers "may I append to / read
from this partition here" with Kafka's error codes, and wakes whatever waits
for new data in a partition (fetch long-polls, share-partitions) after every
append.
"""

from __future__ import annotations

from collections.abc import Callable

import trio

from broker.log.commit import GroupCommitter
from broker.log.manager import LogManager
from broker.metadata.image import MetadataImage
from broker.metadata.source import MetadataSource
from broker.protocol.errors import ErrorCode, KafkaError
from broker.replica.partition import NO_EPOCH, Partition

__all__ = ["AppendListener", "ReplicaManager"]

AppendListener = Callable[[str, int], None]


class ReplicaManager:
    def __init__(self, node_id: int, logs: LogManager, metadata: MetadataSource, committer: GroupCommitter) -> None:
        self.node_id = node_id
        self._logs = logs
        self._metadata = metadata
        self._committer = committer
        self._partitions: dict[tuple[str, int], Partition] = {}
        # One event per partition with a waiter: set (and dropped) by the next append.
        self._append_events: dict[tuple[str, int], trio.Event] = {}
        self._listeners: list[AppendListener] = []
        metadata.subscribe(self._image_changed)

    # --- lookups ---------------------------------------------------------------------

    def partition(self, topic: str, index: int) -> Partition | None:
        """The local replica of ``topic``-``index`` in any role, or None."""
        key = (topic, index)
        p = self._partitions.get(key)
        if p is not None and p.log is self._logs.partition(topic, index):
            return p
        return self._make(topic, index)

    def _make(self, topic: str, index: int) -> Partition | None:
        log = self._logs.partition(topic, index)
        image = self._metadata.image
        t = image.topic(topic)
        state = t.partition(index) if t is not None else None
        if log is None or state is None or t is None:
            self._partitions.pop((topic, index), None)
            return None
        p = Partition(
            log, state, node_id=self.node_id, topic_id=t.topic_id, committer=self._committer, appended=self.appended
        )
        self._partitions[(topic, index)] = p
        return p

    def leader(self, topic: str, index: int, current_leader_epoch: int = NO_EPOCH) -> Partition:
        """The partition, if this broker leads it at the client's epoch (raises KafkaError)."""
        p = self.partition(topic, index)
        if p is None:
            if self._metadata.image.partition(topic, index) is not None:
                raise KafkaError(ErrorCode.NOT_LEADER_OR_FOLLOWER)
            raise KafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
        p.check_leader(current_leader_epoch)
        return p

    def in_cluster(self, topic: str, index: int) -> bool:
        """Whether the partition exists in the cluster (wherever it is placed)."""
        return self._metadata.image.partition(topic, index) is not None

    def _image_changed(self, old: MetadataImage, new: MetadataImage) -> None:
        for key, p in list(self._partitions.items()):
            t = new.topic(key[0])
            state = t.partition(key[1]) if t is not None else None
            if state is None or t is None or t.topic_id != p.topic_id:
                del self._partitions[key]
                self.appended(*key)  # wake waiters: their partition is gone
            else:
                p.state = state

    # --- wake-ups --------------------------------------------------------------------

    def add_append_listener(self, listener: AppendListener) -> None:
        """Called with (topic, partition) after every append (share-partitions wake their fetches)."""
        self._listeners.append(listener)

    def appended(self, topic: str, index: int) -> None:
        """Wake everything waiting for data in ``topic``-``index``."""
        event = self._append_events.pop((topic, index), None)
        if event is not None:
            event.set()
        for listener in self._listeners:
            listener(topic, index)

    def append_event(self, topic: str, index: int) -> trio.Event:
        """An event set by the next append to ``topic``-``index``."""
        key = (topic, index)
        event = self._append_events.get(key)
        if event is None:
            event = self._append_events[key] = trio.Event()
        return event
