"""The systems under test, each node in a namespace of its own (:mod:`tests.faults.net`).

- :class:`SharebrokerSystem`: a 3-member etcd (Debian's etcd-server 3.4) and three
  ``sharebroker serve`` processes;
- :class:`KafkaSystem`: three Apache Kafka 4.4.0 KRaft nodes (broker and controller
  each), as ``bench/replication.py`` runs them, from ``peers/.cache/kafka/libs``.

Both get the same session timing (``broker.session.timeout.ms`` 6000, heartbeats every
second), internal topics with 3 replicas and min ISR 2, and a data directory on a tmpfs
of its own per broker (:class:`Disk`: the disk-full fault fills it). Every service port
is reached through the node's delay proxy (:mod:`tests.faults.delay_proxy`).

Processes are started with ``ip netns exec`` (which execs the program, so the pid is
the program's) and stopped by pid.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from broker.localcluster import BrokerProcess
from broker.log.meta import new_cluster_id
from tests.faults.net import Namespace, Network, run

__all__ = ["Disk", "KafkaSystem", "NodeProcess", "SharebrokerSystem", "System"]

ROOT = Path(__file__).resolve().parents[2]
KAFKA_LIBS = Path(os.environ.get("KAFKA_PEER_LIBS", ROOT / "peers/.cache/kafka/libs"))
BROKER_PORT = 9092
KAFKA_CONTROLLER_PORT = 9093
ETCD_CLIENT_PORT, ETCD_PEER_PORT = 2379, 2380
PROXY_OFFSET = 10000
# Both systems: a broker that stops refreshing its session for 6 s is out of the cluster.
SESSION = {"broker.session.timeout.ms": "6000", "broker.heartbeat.interval.ms": "1000"}
# Internal topics small (start-up speed), replicated as Kafka's defaults have them.
INTERNAL = {
    "offsets.topic.num.partitions": "6",
    "share.coordinator.state.topic.num.partitions": "6",
    "transaction.state.log.num.partitions": "6",
    "offsets.topic.replication.factor": "3",
    "transaction.state.log.replication.factor": "3",
    "transaction.state.log.min.isr": "2",
    "share.coordinator.state.topic.replication.factor": "3",
    "share.coordinator.state.topic.min.isr": "2",
    "group.initial.rebalance.delay.ms": "0",
}
DISK_MB = 768
START_TIMEOUT_S = 90.0


class Disk:
    """A tmpfs of ``size_mb`` mounted at ``path`` (a broker's data directory)."""

    def __init__(self, path: Path, size_mb: int = DISK_MB) -> None:
        self.path, self.size_mb = path, size_mb
        self.mounted = False
        self._fillers: list[Path] = []

    def mount(self) -> None:
        self.path.mkdir(parents=True, exist_ok=True)
        run("mount", "-t", "tmpfs", "-o", f"size={self.size_mb}m,mode=0755", "tmpfs", str(self.path))
        self.mounted = True

    def unmount(self) -> None:
        if self.mounted:
            run("umount", "-l", str(self.path), check=False)
            self.mounted = False

    def free_bytes(self) -> int:
        st = os.statvfs(self.path)
        return st.f_bavail * st.f_frsize

    def fill(self) -> int:
        """Take every free byte (a preallocated file, then writes until ENOSPC); returns
        how many were taken."""
        filler = self.path / f".filler-{len(self._fillers)}"
        self._fillers.append(filler)
        taken = self.free_bytes()
        run("fallocate", "-l", str(taken), str(filler), check=False)
        try:
            with open(filler, "ab") as f:
                chunk = b"\0" * 4096
                while True:
                    f.write(chunk)
                    f.flush()
        except OSError:
            pass  # ENOSPC: full
        return taken

    def free(self) -> None:
        for filler in self._fillers:
            filler.unlink(missing_ok=True)
        self._fillers.clear()


class NodeProcess:
    """One program in a namespace, by pid: start, SIGKILL, SIGTERM, SIGSTOP/SIGCONT."""

    def __init__(self, name: str, ns: Namespace, log_path: Path) -> None:
        self.name, self.ns, self.log_path = name, ns, log_path
        self.process: subprocess.Popen[bytes] | None = None
        self.paused = False

    def command(self) -> list[str]:
        raise NotImplementedError

    def ready(self) -> bool:
        raise NotImplementedError

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def start(self) -> None:
        if self.alive:
            raise RuntimeError(f"{self.name} is running")
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                self.ns.exec_prefix() + self.command(), stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL
            )
        self.paused = False
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if not self.alive:
                raise RuntimeError(f"{self.name} exited during start-up; see {self.log_path}")
            if self.ready():
                return
            time.sleep(0.2)
        raise RuntimeError(f"{self.name} did not start within {START_TIMEOUT_S} s; see {self.log_path}")

    def signal(self, sig: int) -> None:
        if self.alive:
            assert self.process is not None
            os.kill(self.process.pid, sig)

    def kill(self) -> None:
        if self.alive:
            assert self.process is not None
            self.process.kill()
            self.process.wait()
        self.paused = False

    def stop(self, timeout: float = 60.0) -> bool:
        """SIGTERM and wait; True if it exited in time (else it is killed)."""
        if not self.alive:
            return True
        assert self.process is not None
        if self.paused:
            self.resume()
        self.process.terminate()
        try:
            self.process.wait(timeout)
            return True
        except subprocess.TimeoutExpired:
            self.kill()
            return False

    def pause(self) -> None:
        self.signal(signal.SIGSTOP)
        self.paused = True

    def resume(self) -> None:
        self.signal(signal.SIGCONT)
        self.paused = False


def _port_open(ns: Namespace, port: int) -> bool:
    probe = f"exec 3<>/dev/tcp/{ns.ip}/{port}"
    return subprocess.run([*ns.exec_prefix(), "bash", "-c", probe], capture_output=True).returncode == 0


class ProxyProcess(NodeProcess):
    def __init__(self, name: str, ns: Namespace, log_path: Path, ports: list[int], control: Path) -> None:
        super().__init__(name, ns, log_path)
        self.ports, self.control = ports, control

    def command(self) -> list[str]:
        ports = ",".join(str(p) for p in self.ports)
        return [sys.executable, "-m", "tests.faults.delay_proxy", "--ip", self.ns.ip, "--ports", ports] + [
            "--offset",
            str(PROXY_OFFSET),
            "--control",
            str(self.control),
        ]

    def ready(self) -> bool:
        return _port_open(self.ns, self.ports[0] + PROXY_OFFSET)


class EtcdMember(NodeProcess):
    def __init__(self, name: str, ns: Namespace, run_dir: Path, cluster: str) -> None:
        super().__init__(name, ns, run_dir / f"{name}.log")
        self.data_dir = run_dir / name / "data"
        self.cluster = cluster

    @property
    def client_url(self) -> str:
        return f"http://{self.ns.ip}:{ETCD_CLIENT_PORT}"

    def command(self) -> list[str]:
        binary = shutil.which("etcd") or "etcd"
        peer = f"http://{self.ns.ip}:{ETCD_PEER_PORT}"
        return [
            binary,
            "--name",
            self.name,
            "--data-dir",
            str(self.data_dir),
            "--listen-client-urls",
            self.client_url,
            "--advertise-client-urls",
            self.client_url,
            "--listen-peer-urls",
            peer,
            "--initial-advertise-peer-urls",
            peer,
            "--initial-cluster",
            self.cluster,
            "--initial-cluster-token",
            "faults",
            "--initial-cluster-state",
            "new",
        ]

    def ready(self) -> bool:
        return self.status() is not None

    def status(self) -> dict[str, Any] | None:
        """etcd's own /v3/maintenance/status, asked inside its namespace (None: no answer)."""
        done = subprocess.run(
            [*self.ns.exec_prefix(), "curl", "-s", "-m", "2", "-X", "POST", "-d", "{}"]
            + [f"{self.client_url}/v3/maintenance/status"],
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            return None
        try:
            doc = json.loads(done.stdout)
        except ValueError:
            return None
        return doc if "header" in doc else None


class SharebrokerNode(BrokerProcess):
    """``sharebroker serve`` in a namespace (BrokerProcess's start-up and readiness)."""

    def __init__(self, ns: Namespace, data_dir: Path, settings: dict[str, str]) -> None:
        super().__init__(data_dir, settings, port=BROKER_PORT)
        self.ns = ns

    def command(self) -> list[str]:
        return self.ns.exec_prefix() + super().command()


class SharebrokerProcess(NodeProcess):
    def __init__(self, name: str, ns: Namespace, disk: Disk, settings: dict[str, str], run_dir: Path) -> None:
        super().__init__(name, ns, run_dir / f"{name}.log")
        self.disk = disk
        self.node = SharebrokerNode(ns, disk.path, settings)
        self.node.log_path = self.log_path

    def start(self) -> None:
        self.node.start()
        self.process = self.node.process
        self.paused = False

    def command(self) -> list[str]:
        return self.node.command()

    def ready(self) -> bool:
        return True


class KafkaProcess(NodeProcess):
    def __init__(self, name: str, node_id: int, ns: Namespace, disk: Disk, run_dir: Path, voters: str) -> None:
        super().__init__(name, ns, run_dir / f"{name}.log")
        self.node_id, self.disk = node_id, disk
        self.conf_dir = run_dir / name
        self.conf_dir.mkdir(parents=True, exist_ok=True)
        props = {
            "process.roles": "broker,controller",
            "node.id": str(node_id),
            "controller.quorum.voters": voters,
            "listeners": f"CLIENT://{ns.ip}:{BROKER_PORT},CONTROLLER://{ns.ip}:{KAFKA_CONTROLLER_PORT}",
            "advertised.listeners": f"CLIENT://{ns.ip}:{BROKER_PORT}",
            "listener.security.protocol.map": "CLIENT:PLAINTEXT,CONTROLLER:PLAINTEXT",
            "inter.broker.listener.name": "CLIENT",
            "controller.listener.names": "CONTROLLER",
            "log.dirs": str(disk.path),
            **INTERNAL,
            **SESSION,
        }
        (self.conf_dir / "server.properties").write_text("".join(f"{k}={v}\n" for k, v in props.items()))
        (self.conf_dir / "log4j2.properties").write_text(
            "status = warn\nappender.file.type = File\nappender.file.name = file\n"
            f"appender.file.fileName = {self.conf_dir / 'server.log'}\nappender.file.layout.type = PatternLayout\n"
            "appender.file.layout.pattern = [%d] %p %m (%c)%n\nrootLogger.level = INFO\n"
            "rootLogger.appenderRef.file.ref = file\n"
        )

    def java(self, *args: str) -> list[str]:
        return [
            "java",
            "-Xms256m",
            "-Xmx512m",
            "-XX:+UseG1GC",
            "-Djava.awt.headless=true",
            f"-Dlog4j2.configurationFile={self.conf_dir / 'log4j2.properties'}",
            "-cp",
            f"{KAFKA_LIBS}/*",
            *args,
        ]

    def format(self, cluster_id: str) -> None:
        subprocess.run(
            self.java(
                "kafka.tools.StorageTool",
                "format",
                "-t",
                cluster_id,
                "-c",
                str(self.conf_dir / "server.properties"),
                "--feature",
                "share.version=2",
            ),
            check=True,
            capture_output=True,
            timeout=180,
        )

    def command(self) -> list[str]:
        return self.java("kafka.Kafka", str(self.conf_dir / "server.properties"))

    def ready(self) -> bool:
        return _port_open(self.ns, BROKER_PORT)


class System:
    """What the nemesis needs of a cluster: its nodes by name and their processes."""

    name = "system"
    has_etcd = False

    def __init__(self, net: Network, run_dir: Path) -> None:
        self.net, self.run_dir = net, run_dir
        self.brokers: dict[str, NodeProcess] = {}
        self.etcd: dict[str, EtcdMember] = {}
        self.proxies: list[ProxyProcess] = []
        self.disks: dict[str, Disk] = {}
        self.control = run_dir / "delays.json"
        self.control.write_text("{}")

    @property
    def bootstrap(self) -> str:
        return ",".join(f"{self.net.nodes[b].ip}:{BROKER_PORT}" for b in self.brokers)

    def node_id(self, broker: str) -> int:
        return int(broker[1:])

    def broker_name(self, node_id: int) -> str:
        return f"b{node_id}"

    def _proxy(self, node: str, ports: list[int]) -> None:
        self.net.redirect(node, ports, PROXY_OFFSET)
        proxy = ProxyProcess(
            f"proxy-{node}", self.net.nodes[node], self.run_dir / f"proxy-{node}.log", ports, self.control
        )
        proxy.start()
        self.proxies.append(proxy)

    def set_delays(self, delays: dict[str, int]) -> None:
        """{node: ms} for the delay proxies (an empty dict: no delay anywhere)."""
        doc = {"delays": {self.net.nodes[n].ip: ms for n, ms in delays.items()}}
        tmp = self.control.with_suffix(".tmp")
        tmp.write_text(json.dumps(doc))
        os.replace(tmp, self.control)

    def etcd_leader(self) -> str | None:
        return None

    def start(self) -> None:
        raise NotImplementedError

    def stop(self) -> None:
        for p in [*self.brokers.values(), *self.etcd.values()]:
            if p.paused:
                p.resume()
        for b in self.brokers.values():
            b.stop(30)
        for e in self.etcd.values():
            e.stop(10)
        for proxy in self.proxies:
            proxy.kill()
        for d in self.disks.values():
            d.free()
            d.unmount()

    def kill_all(self) -> None:
        for p in [*self.brokers.values(), *self.etcd.values(), *self.proxies]:
            p.kill()
        for d in self.disks.values():
            d.unmount()


class SharebrokerSystem(System):
    name = "sharebroker"
    has_etcd = True

    def start(self) -> None:
        members = [self.net.add(f"e{i}", 20 + i) for i in (1, 2, 3)]
        cluster = ",".join(f"e{i}=http://{ns.ip}:{ETCD_PEER_PORT}" for i, ns in zip((1, 2, 3), members, strict=True))
        for i, ns in zip((1, 2, 3), members, strict=True):
            self._proxy(f"e{i}", [ETCD_CLIENT_PORT, ETCD_PEER_PORT])
            self.etcd[f"e{i}"] = EtcdMember(f"e{i}", ns, self.run_dir, cluster)
        # Members start together: the first waits for a quorum before it answers.
        for e in self.etcd.values():
            e.log_path.parent.mkdir(parents=True, exist_ok=True)
            with open(e.log_path, "ab") as log:
                e.process = subprocess.Popen(
                    e.ns.exec_prefix() + e.command(), stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL
                )
        deadline = time.monotonic() + START_TIMEOUT_S
        while not all(e.ready() for e in self.etcd.values()):
            if time.monotonic() > deadline:
                raise RuntimeError("etcd did not form a cluster in time")
            time.sleep(0.3)
        urls = [e.client_url for e in self.etcd.values()]
        for i in (1, 2, 3):
            name = f"b{i}"
            ns = self.net.add(name, 10 + i)
            self._proxy(name, [BROKER_PORT])
            disk = self.disks[name] = Disk(self.run_dir / name / "data")
            disk.mount()
            # Each broker starts with a different etcd member first in its list.
            endpoints = urls[i - 1 :] + urls[: i - 1]
            settings = {
                "node.id": str(i),
                "listeners": f"PLAINTEXT://{ns.ip}:{BROKER_PORT}",
                "etcd.endpoints": ",".join(endpoints),
                **SESSION,
                **INTERNAL,
            }
            self.brokers[name] = SharebrokerProcess(name, ns, disk, settings, self.run_dir)
        for b in self.brokers.values():
            b.start()

    def etcd_leader(self) -> str | None:
        ids: dict[int, str] = {}
        leader = None
        for name, e in self.etcd.items():
            if not e.alive or e.paused:
                continue
            s = e.status()
            if s is None:
                continue
            ids[int(s["header"]["member_id"])] = name
            leader = int(s.get("leader", 0)) or leader
        return ids.get(leader) if leader else None


class KafkaSystem(System):
    name = "kafka"

    def start(self) -> None:
        if not (KAFKA_LIBS / "kafka_2.13-4.4.0.jar").exists():
            raise RuntimeError(f"Kafka 4.4.0 jars missing in {KAFKA_LIBS}: run `make peers`")
        nss = {i: self.net.add(f"b{i}", 10 + i) for i in (1, 2, 3)}
        voters = ",".join(f"{i}@{ns.ip}:{KAFKA_CONTROLLER_PORT}" for i, ns in nss.items())
        cluster_id = new_cluster_id()
        for i, ns in nss.items():
            name = f"b{i}"
            self._proxy(name, [BROKER_PORT, KAFKA_CONTROLLER_PORT])
            disk = self.disks[name] = Disk(self.run_dir / name / "data")
            disk.mount()
            node = KafkaProcess(name, i, ns, disk, self.run_dir, voters)
            node.format(cluster_id)
            self.brokers[name] = node
        # The controllers need a quorum before any of them is ready: start all, then wait.
        for b in self.brokers.values():
            with open(b.log_path, "ab") as log:
                b.process = subprocess.Popen(
                    b.ns.exec_prefix() + b.command(), stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL
                )
        deadline = time.monotonic() + START_TIMEOUT_S
        while not all(b.ready() for b in self.brokers.values()):
            if time.monotonic() > deadline or not all(b.alive for b in self.brokers.values()):
                raise RuntimeError(f"Kafka did not start; see {self.run_dir}")
            time.sleep(0.5)
