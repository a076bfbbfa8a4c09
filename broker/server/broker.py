"""The broker's shared state: config, logs, durability, coordinators, metrics."""

from __future__ import annotations

import base64
import os
import time
import uuid
from pathlib import Path
from typing import Any

import structlog
import trio

from broker.protocol.connection import ServerConnection, UnsupportedRequest
from broker.server.metrics import Metrics
from broker.server.producer_ids import ProducerIdAllocator

log = structlog.get_logger("sharebroker.broker")


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


class Broker:
    def __init__(self, config: Any) -> None:
        from broker.group.configs import GroupConfigStore
        from broker.log.commit import GroupCommitter
        from broker.log.manager import LogManager

        self.config = config
        self.node_id: int = config.get("node.id")
        self.data_dir = Path(config.log_dir)
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.cluster_id = self._load_or_create_meta()
        self.logs = LogManager.from_config(self.data_dir, config)
        self.committer = GroupCommitter.from_config(config, logs=self.logs.logs)
        self.metrics = Metrics()
        self.producer_ids = ProducerIdAllocator(self.data_dir)
        self.group_configs = GroupConfigStore(self.data_dir, config)
        self._coordinators(config)
        self.stopping = False
        self.stop_event = trio.Event()
        self.port = 0
        self.advertised_host = ""
        self.advertised_port = 0
        # One ParkingLot per partition: fetch long-polls park here, appends wake them.
        self._append_lots: dict[tuple[str, int], trio.Event] = {}
        self.idle_scopes: set[trio.CancelScope] = set()
        # Called with (topic, partition) after every append (share partitions wake their fetches).
        self.append_listeners: list = [self.share.appended]
        self.started_ms = _now_ms()

    def _coordinators(self, config: Any) -> None:
        """The group coordinators and the share runtime (KIP-932)."""
        from broker.group.classic_runtime import ClassicRuntime
        from broker.group.share_runtime import ShareGroupRuntime
        from broker.share.manager import SharePartitionManager
        from broker.share.state_store import ShareStateStore

        self.share_state = ShareStateStore.from_broker(self)
        self.share = SharePartitionManager(self, self.share_state)
        self.share_groups = ShareGroupRuntime(self)
        self.classic_groups = ClassicRuntime(self)
        # One namespace for group ids: each coordinator refuses the other's groups.
        self.classic_groups.other_group_type = self.share_groups.coordinator.group_type
        self.logs.topic_listeners.append(self._topic_changed)
        # The group.type group config pins which kind of group an id may become.
        pin = self.share_groups.coordinator.pin_group_type
        for group_id in self.group_configs.groups():
            pin(group_id, self.group_configs.group_type(group_id))
        self.group_configs.add_listener(lambda group_id, overrides: pin(group_id, overrides.get("group.type")))

    def _topic_changed(self, event: str, name: str) -> None:
        if event == "deleted":
            self.share.forget_topic(name)
        self.share_groups.topics_changed()

    def classic_group_type(self, group_id: str) -> str | None:
        return self.classic_groups.group_type(group_id)

    def classic_groups_list(self) -> list[Any]:
        return self.classic_groups.list_groups()

    async def classic_groups_delete(self, group_id: str) -> int:
        return await self.classic_groups.delete_group(group_id)

    # --- identity --------------------------------------------------------------------

    def _load_or_create_meta(self) -> str:
        """Read (or write, on first start) ``meta.properties`` with the cluster id."""
        path = self.data_dir / "meta.properties"
        if path.exists():
            props = dict(
                line.split("=", 1) for line in path.read_text().splitlines() if "=" in line and not line.startswith("#")
            )
            stored_node = int(props.get("node.id", self.node_id))
            if stored_node != self.node_id:
                raise SystemExit(f"sharebroker: error: {path} belongs to node.id {stored_node}, not {self.node_id}")
            return props["cluster.id"]
        cluster_id = base64.urlsafe_b64encode(uuid.uuid4().bytes).decode().rstrip("=")
        tmp = path.with_suffix(".tmp")
        with open(tmp, "w") as f:
            f.write(
                f"# written by sharebroker on first start\nversion=1\ncluster.id={cluster_id}\nnode.id={self.node_id}\n"
            )
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        return cluster_id

    def bind(self, port: int) -> None:
        """Record the bound port (resolving port 0) and what clients are told."""
        self.config = self.config.with_bound_port(port)
        self.port = port
        self.advertised_host = self.config.advertised_host
        self.advertised_port = self.config.advertised_port

    # --- lifecycle -------------------------------------------------------------------

    def open(self) -> None:
        """Recover the logs and rebuild coordinator state from the internal topics (blocking)."""
        self.logs.open()
        self.classic_groups.load()
        self.share_groups.load()

    def close(self) -> None:
        self.logs.close()

    def request_stop(self) -> None:
        if self.stopping:
            return
        self.stopping = True
        self.stop_event.set()
        for scope in list(self.idle_scopes):
            scope.cancel()

    # --- long-poll wake-ups ----------------------------------------------------------

    def appended(self, topic: str, partition: int) -> None:
        """Wake every fetch waiting on this partition."""
        event = self._append_lots.pop((topic, partition), None)
        if event is not None:
            event.set()
        for listener in self.append_listeners:
            listener(topic, partition)

    def append_event(self, topic: str, partition: int) -> trio.Event:
        key = (topic, partition)
        event = self._append_lots.get(key)
        if event is None:
            event = self._append_lots[key] = trio.Event()
        return event

    # --- replies the connection layer needs -------------------------------------------

    def unsupported_reply(self, proto: ServerConnection, event: UnsupportedRequest) -> bytearray | None:
        """Kafka answers an unknown ApiVersions version with v0 + UNSUPPORTED_VERSION; anything else closes."""
        from broker.handlers import HANDLERS

        if event.api_key == 18:
            h = HANDLERS[18]
            return proto.api_versions_fallback_response(event, h.min_version, h.max_version)
        return None

    def now_ms(self) -> int:
        return _now_ms()
