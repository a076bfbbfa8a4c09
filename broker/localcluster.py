"""A development cluster on loopback: etcd and N ``sharebroker serve`` processes.

Used by ``sharebroker local-cluster`` and by the ``sharebroker_cluster`` pytest
fixture. etcd is the ``etcd`` binary from PATH (Debian's ``etcd-server``, or any
etcd 3.4+), started on free loopback ports with a data directory of its own;
or an etcd the caller already runs (``etcd_endpoints``), which is then left
alone. Every process is started and stopped by its pid.
"""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Mapping, Sequence
from pathlib import Path

from broker.testing import BrokerProcess

__all__ = ["EtcdProcess", "LocalCluster", "free_port"]

ETCD_START_TIMEOUT_S = 20.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class EtcdProcess:
    """One etcd member on 127.0.0.1 with its own data directory."""

    def __init__(self, data_dir: Path, binary: str | None = None) -> None:
        self.data_dir = Path(data_dir)
        self.binary = binary or shutil.which("etcd")
        if self.binary is None:
            raise RuntimeError("etcd is not on PATH (Debian: apt-get install etcd-server)")
        self.client_port = 0
        self.peer_port = 0
        self.process: subprocess.Popen | None = None
        self.log_path = self.data_dir.parent / f"{self.data_dir.name}.log"

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.client_port}"

    def start(self) -> EtcdProcess:
        """Start (or restart on the same ports and data) and wait until it answers."""
        if self.process is not None and self.process.poll() is None:
            raise RuntimeError("etcd already running")
        if not self.client_port:
            self.client_port, self.peer_port = free_port(), free_port()
        peer = f"http://127.0.0.1:{self.peer_port}"
        cmd = [
            self.binary,
            "--name",
            "dev",
            "--data-dir",
            str(self.data_dir),
            "--listen-client-urls",
            self.endpoint,
            "--advertise-client-urls",
            self.endpoint,
            "--listen-peer-urls",
            peer,
            "--initial-advertise-peer-urls",
            peer,
            "--initial-cluster",
            f"dev={peer}",
        ]
        self.data_dir.parent.mkdir(parents=True, exist_ok=True)
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + ETCD_START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"etcd exited with {self.process.returncode}: see {self.log_path}")
            try:
                request = urllib.request.Request(self.endpoint + "/v3/kv/range", data=b'{"key":"AA=="}')
                with urllib.request.urlopen(request, timeout=1) as response:
                    if response.status == 200:
                        return self
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.05)
        self.kill()
        raise RuntimeError(f"etcd did not answer within {ETCD_START_TIMEOUT_S} s: see {self.log_path}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()


class LocalCluster:
    """etcd plus ``brokers`` brokers (node ids 1..N) on loopback, data under ``base_dir``."""

    def __init__(
        self,
        brokers: int,
        base_dir: Path | None = None,
        *,
        etcd_endpoints: Sequence[str] | None = None,
        settings: Mapping[str, str] | None = None,
        racks: Sequence[str | None] | None = None,
    ) -> None:
        if brokers < 1:
            raise ValueError("a cluster needs at least one broker")
        self._tmp = None if base_dir is not None else tempfile.TemporaryDirectory(prefix="sharebroker-cluster-")
        self.base_dir = Path(base_dir if base_dir is not None else self._tmp.name)  # type: ignore[union-attr]
        self.etcd: EtcdProcess | None = None
        self._etcd_endpoints = list(etcd_endpoints or ())
        self.settings = dict(settings or {})
        self.brokers: list[BrokerProcess] = []
        for i in range(brokers):
            node = i + 1
            s = {"node.id": str(node), **self.settings}
            rack = racks[i] if racks is not None and i < len(racks) else None
            if rack:
                s["broker.rack"] = rack
            self.brokers.append(BrokerProcess(self.base_dir / f"broker-{node}", s))

    @property
    def etcd_endpoints(self) -> list[str]:
        return self._etcd_endpoints

    @property
    def bootstrap(self) -> str:
        return ",".join(b.bootstrap for b in self.brokers)

    def broker(self, node_id: int) -> BrokerProcess:
        return self.brokers[node_id - 1]

    def start(self) -> LocalCluster:
        if not self._etcd_endpoints:
            self.etcd = EtcdProcess(self.base_dir / "etcd").start()
            self._etcd_endpoints = [self.etcd.endpoint]
        for b in self.brokers:
            b.settings["etcd.endpoints"] = ",".join(self._etcd_endpoints)
        try:
            # Started one by one: each waits until it has joined and listens.
            for b in self.brokers:
                b.start()
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        for b in self.brokers:
            try:
                b.stop()
            except RuntimeError:
                b.kill()
        if self.etcd is not None:
            self.etcd.stop()
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    def __enter__(self) -> LocalCluster:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
