"""The faults, each a start and a heal, chosen by a seeded random generator.

Every fault is held for a few seconds (``hold``) and then healed; the run waits for
recovery before the next one (:mod:`tests.faults.run`). Kinds:

==========================  ==============================================================
``partition-node``          a node (broker, or etcd member) cut from every other node and
                            from the clients, both ways
``partition-leader``        the leader of a partition cut from the other brokers and from
                            etcd; clients still reach it (the acks=1 case)
``partition-pair``          two brokers cut from each other only, both ways
``partition-oneway``        packets from one broker to another dropped, the other way not
``partition-etcd``          one broker (or every broker) cut from every etcd member
``loss``                    20-40 % of a broker's packets dropped, in and out
``delay``                   100-300 ms added each way to a node's connections (the proxy)
``pause``                   SIGSTOP a broker for 3-12 s, then SIGCONT
``kill``                    kill -9 a broker, start it again 2-8 s later
``restart``                 SIGTERM a broker (controlled shutdown), start it again
``disk-full``               a broker's data disk (its tmpfs) filled for 5-10 s, then freed
``etcd-leader-kill``        kill -9 the etcd leader, start it again 3-8 s later
``etcd-member-kill``        kill -9 an etcd follower, start it again 3-8 s later
``etcd-leader-partition``   the etcd leader cut from every other node
==========================  ==============================================================

The etcd kinds exist only for sharebroker (Kafka 4.4 keeps its metadata in its own
KRaft quorum, which the broker faults already hit: every Kafka node is a controller).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tests.faults.cluster import System

__all__ = ["ALL_KINDS", "ETCD_KINDS", "Fault", "Nemesis"]

ETCD_KINDS = ("etcd-leader-kill", "etcd-member-kill", "etcd-leader-partition")
ALL_KINDS = (
    "partition-node",
    "partition-leader",
    "partition-pair",
    "partition-oneway",
    "partition-etcd",
    "loss",
    "delay",
    "pause",
    "kill",
    "restart",
    "disk-full",
    *ETCD_KINDS,
)
KAFKA_KINDS = tuple(k for k in ALL_KINDS if k not in ETCD_KINDS and k != "partition-etcd")


@dataclass
class Fault:
    kind: str
    targets: list[str]
    hold: float
    heal: Callable[[], dict[str, Any]]
    detail: dict[str, Any] = field(default_factory=dict)


class Nemesis:
    def __init__(self, system: System, rng: random.Random, leaders: Callable[[], dict[str, int]]) -> None:
        self.system, self.rng, self.leaders = system, rng, leaders
        self.net = system.net

    # --- choosing --------------------------------------------------------------------

    def kinds(self, enabled: tuple[str, ...]) -> list[str]:
        """An endless-enough schedule: every enabled kind once per round, rounds shuffled."""
        out: list[str] = []
        for _ in range(200):
            round_ = list(enabled)
            self.rng.shuffle(round_)
            out.extend(round_)
        return out

    def _broker(self) -> str:
        return self.rng.choice(sorted(self.system.brokers))

    def _leader(self) -> str:
        """The broker leading a random partition of the workload's topics (any broker if unknown)."""
        leaders = [n for key, n in sorted(self.leaders().items()) if n > 0 and not key.startswith("probe")]
        if leaders:
            return self.system.broker_name(self.rng.choice(leaders))
        return self._broker()

    def _others(self, node: str) -> list[str]:
        return [n for n in self.net.nodes if n != node]

    # --- faults ----------------------------------------------------------------------

    def start(self, kind: str) -> Fault:
        return getattr(self, "_" + kind.replace("-", "_"))()

    def _heal_net(self, *nodes: str) -> Callable[[], dict[str, Any]]:
        def heal() -> dict[str, Any]:
            self.net.heal(list(nodes))
            return {}

        return heal

    def _partition_node(self) -> Fault:
        pool = sorted(self.system.brokers) + sorted(self.system.etcd)
        node = self.rng.choice(pool)
        self.net.isolate(node, self._others(node))
        return Fault("partition-node", [node], self.rng.uniform(5, 12), self._heal_net(node))

    def _partition_leader(self) -> Fault:
        node = self._leader()
        cut = [n for n in [*self.system.brokers, *self.system.etcd] if n != node]
        self.net.isolate(node, cut)
        return Fault("partition-leader", [node], self.rng.uniform(5, 12), self._heal_net(node))

    def _partition_pair(self) -> Fault:
        a, b = self.rng.sample(sorted(self.system.brokers), 2)
        self.net.cut(a, b)
        return Fault("partition-pair", [a, b], self.rng.uniform(5, 12), self._heal_net(a))

    def _partition_oneway(self) -> Fault:
        a, b = self.rng.sample(sorted(self.system.brokers), 2)
        self.net.cut(a, b, both_ways=False)
        return Fault("partition-oneway", [a, b], self.rng.uniform(5, 12), self._heal_net(a), {"from": a, "to": b})

    def _partition_etcd(self) -> Fault:
        victims = sorted(self.system.brokers) if self.rng.random() < 0.3 else [self._broker()]
        for b in victims:
            self.net.isolate(b, list(self.system.etcd))
        return Fault("partition-etcd", victims, self.rng.uniform(5, 12), self._heal_net(*victims))

    def _loss(self) -> Fault:
        node = self._broker()
        p = round(self.rng.uniform(0.2, 0.4), 2)
        self.net.loss(node, p)
        return Fault("loss", [node], self.rng.uniform(5, 12), self._heal_net(node), {"probability": p})

    def _delay(self) -> Fault:
        pool = sorted(self.system.brokers) + sorted(self.system.etcd)
        node = self.rng.choice(pool)
        ms = self.rng.randint(100, 300)
        self.system.set_delays({node: ms})

        def heal() -> dict[str, Any]:
            self.system.set_delays({})
            return {}

        return Fault("delay", [node], self.rng.uniform(5, 12), heal, {"ms": ms})

    def _pause(self) -> Fault:
        node = self._broker()
        proc = self.system.brokers[node]
        proc.pause()

        def heal() -> dict[str, Any]:
            proc.resume()
            return {}

        return Fault("pause", [node], self.rng.uniform(3, 12), heal)

    def _kill(self) -> Fault:
        node = self._broker()
        proc = self.system.brokers[node]
        proc.kill()
        return Fault("kill", [node], self.rng.uniform(2, 8), self._restart_fn(node))

    def _restart(self) -> Fault:
        node = self._broker()
        proc = self.system.brokers[node]
        t0 = time.monotonic()
        clean = proc.stop(60)
        detail = {"stopped_in_s": round(time.monotonic() - t0, 2), "clean": clean}
        return Fault("restart", [node], 0.5, self._restart_fn(node), detail)

    def _restart_fn(self, node: str) -> Callable[[], dict[str, Any]]:
        def heal() -> dict[str, Any]:
            proc = self.system.brokers[node]
            t0 = time.monotonic()
            proc.start()
            return {"started_in_s": round(time.monotonic() - t0, 2)}

        return heal

    def _disk_full(self) -> Fault:
        node = self._broker()
        disk = self.system.disks[node]
        taken = disk.fill()

        def heal() -> dict[str, Any]:
            disk.free()
            proc = self.system.brokers[node]
            if proc.alive:
                return {"exited": False}
            # It stopped on the full disk (Kafka halts when its only log directory fails).
            proc.kill()
            t0 = time.monotonic()
            proc.start()
            return {"exited": True, "started_in_s": round(time.monotonic() - t0, 2)}

        return Fault("disk-full", [node], self.rng.uniform(5, 10), heal, {"bytes": taken})

    def _etcd_leader_kill(self) -> Fault:
        leader = self.system.etcd_leader() or self.rng.choice(sorted(self.system.etcd))
        self.system.etcd[leader].kill()
        return Fault("etcd-leader-kill", [leader], self.rng.uniform(3, 8), self._etcd_restart(leader))

    def _etcd_member_kill(self) -> Fault:
        leader = self.system.etcd_leader()
        member = self.rng.choice([m for m in sorted(self.system.etcd) if m != leader])
        self.system.etcd[member].kill()
        return Fault("etcd-member-kill", [member], self.rng.uniform(3, 8), self._etcd_restart(member))

    def _etcd_restart(self, member: str) -> Callable[[], dict[str, Any]]:
        def heal() -> dict[str, Any]:
            t0 = time.monotonic()
            self.system.etcd[member].start()
            return {"started_in_s": round(time.monotonic() - t0, 2)}

        return heal

    def _etcd_leader_partition(self) -> Fault:
        leader = self.system.etcd_leader() or self.rng.choice(sorted(self.system.etcd))
        self.net.isolate(leader, self._others(leader))
        return Fault("etcd-leader-partition", [leader], self.rng.uniform(5, 12), self._heal_net(leader))
