"""Broker and cluster processes on loopback: ``sharebroker serve`` and etcd, by pid.

:class:`BrokerProcess` is one real ``sharebroker serve`` process (the pytest
plugin :mod:`broker.testing` and the benchmarks start brokers with it);
:class:`LocalCluster` is etcd and N brokers, for ``sharebroker local-cluster``
and the ``sharebroker_cluster`` fixture. Nothing here needs pytest.

Stopping: :meth:`LocalCluster.stop` sends SIGTERM to every broker at once (each
hands its leaderships over and closes its logs in parallel with the others),
waits for all of them within ``STOP_TIMEOUT_S``, kills what is left, then stops
etcd. :meth:`LocalCluster.kill` is SIGKILL for every process at once. The
children stay in their parent's process group (a terminal's Ctrl-C and hang-up
reach them too), and with ``die_with_parent`` they are killed by the kernel
when their parent dies, however it dies (``PR_SET_PDEATHSIG``, Linux).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Self

__all__ = ["BrokerProcess", "EtcdProcess", "LocalCluster", "free_port"]

# A broker that has not logged that it is listening within this many seconds
# is reported as failed (it normally takes well under one).
START_TIMEOUT_S = 20.0
STOP_TIMEOUT_S = 10.0
# "k=v,k=v": settings for the pytest plugin's session broker (CI tweaks). The broker
# itself reads every SHAREBROKER_* variable as a setting, so this one is kept from
# the environment of the brokers started here.
TEST_SETTINGS_ENV = "SHAREBROKER_TEST_SETTINGS"


# prctl(2) option: the signal a child gets when the thread that forked it exits.
PR_SET_PDEATHSIG = 1


def _die_with(parent: int) -> Callable[[], None]:
    """A ``preexec_fn``: the child gets SIGKILL when its parent (``parent``) dies."""
    libc_name = ctypes.util.find_library("c")

    def arm() -> None:
        if libc_name is not None:
            ctypes.CDLL(libc_name, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != parent:  # the parent died before the call above
            os._exit(1)

    return arm


class _ChildProcess:
    """What a broker and an etcd member started here share: the subprocess (None
    before the first start) and killing it."""

    process: subprocess.Popen | None

    def kill(self) -> None:
        """SIGKILL: the crash case."""
        self.send_kill()
        if self.process is not None:
            self.process.wait()

    def send_kill(self) -> None:
        """Send SIGKILL without waiting (safe in a signal handler)."""
        if self.process is not None and self.process.returncode is None:
            try:
                os.kill(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


class BrokerProcess(_ChildProcess):
    """One ``sharebroker serve`` subprocess with its own data directory.

    ``die_with_parent``: the kernel kills the broker if the process that started it
    dies first (only for a parent whose starting thread lives as long as it does:
    ``PR_SET_PDEATHSIG`` fires when that thread exits)."""

    def __init__(
        self,
        data_dir: Path,
        settings: Mapping[str, str] | None = None,
        port: int = 0,
        *,
        die_with_parent: bool = False,
    ) -> None:
        self.data_dir = Path(data_dir)
        self.settings = dict(settings or {})
        self.port = port
        self.die_with_parent = die_with_parent
        self.process: subprocess.Popen | None = None
        self.log_path = self.data_dir.parent / f"{self.data_dir.name}.log"
        self._log_offset = 0

    @property
    def bootstrap(self) -> str:
        return f"127.0.0.1:{self.port}"

    def command(self) -> list[str]:
        cmd = [sys.executable, "-m", "broker", "serve", "--log-format", "json"]
        settings = {"listeners": f"PLAINTEXT://127.0.0.1:{self.port}", "log.dirs": str(self.data_dir)}
        settings.update(self.settings)
        for key, value in settings.items():
            cmd += ["--set", f"{key}={value}"]
        return cmd

    def start(self) -> Self:
        """Start the process and wait until it logs that it is ready to serve.

        The first start picks a free port; restarts reuse it, so clients keep
        their bootstrap address.
        """
        if self.process is not None and self.process.poll() is None:
            raise RuntimeError("broker already running")
        self.data_dir.mkdir(parents=True, exist_ok=True)
        log = open(self.log_path, "ab")
        self._log_offset = log.tell()
        try:
            env = {k: v for k, v in os.environ.items() if k != TEST_SETTINGS_ENV}
            self.process = subprocess.Popen(
                self.command(),
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                env=env,
                preexec_fn=_die_with(os.getpid()) if self.die_with_parent else None,
            )
        finally:
            log.close()
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            port = self._listening_port()
            if port is not None:
                self.port = port
                return self
            if self.process.poll() is not None:
                raise RuntimeError(f"sharebroker exited with {self.process.returncode}:\n{self.log_tail()}")
            time.sleep(0.02)
        self.kill()
        raise RuntimeError(f"sharebroker did not start within {START_TIMEOUT_S} s:\n{self.log_tail()}")

    def _listening_port(self) -> int | None:
        """The bound port once the broker is ready to serve (its ``ready`` log line
        follows ``listening``, which names the port)."""
        port = None
        for event in self._log_events():
            if event.get("event") == "listening":
                port = int(event["port"])
            elif event.get("event") == "ready" and port is not None:
                return port
        return None

    def listener_ports(self) -> dict[str, int]:
        """{listener name: bound port} of the running process (from its ``listening`` log line)."""
        ports: dict[str, int] = {}
        for event in self._log_events():
            if event.get("event") == "listening":
                for item in str(event.get("listeners", "")).split(","):
                    name, _, port = item.rpartition(":")
                    if name and port.isdigit():
                        ports[name] = int(port)
        return ports

    def _log_events(self) -> Iterator[dict[str, Any]]:
        """The JSON events this run of the process has logged so far (other lines skipped)."""
        with open(self.log_path, "rb") as f:
            f.seek(self._log_offset)
            for line in f:
                try:
                    event = json.loads(line)
                except ValueError:
                    continue
                if isinstance(event, dict):
                    yield event

    def address(self, listener: str) -> str:
        """``127.0.0.1:<port>`` of one named listener."""
        return f"127.0.0.1:{self.listener_ports()[listener]}"

    def log_tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def stop(self) -> int:
        """SIGTERM and wait for a clean exit; return the exit code."""
        self.terminate()
        return self.wait_stopped(time.monotonic() + STOP_TIMEOUT_S)

    def terminate(self) -> None:
        """Send SIGTERM (a clean stop) without waiting."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)

    def wait_stopped(self, deadline: float) -> int:
        """Wait for the process to exit until ``deadline`` (monotonic), then kill it and
        raise RuntimeError; return the exit code."""
        if self.process is None:
            return 0
        try:
            self.process.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise RuntimeError(f"sharebroker ignored SIGTERM for {STOP_TIMEOUT_S} s:\n{self.log_tail()}") from None
        return self.process.returncode

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.kill() if exc[0] is not None else self.stop()


# ---------------------------------------------------------------- a development cluster
# etcd and N ``sharebroker serve`` processes on loopback, for ``sharebroker local-cluster``
# and the ``sharebroker_cluster`` fixture. etcd is the ``etcd`` binary from PATH (Debian's
# etcd-server, or any etcd 3.4+) on free loopback ports with a data directory of its own,
# or an etcd the caller already runs (``etcd_endpoints``), which is then left alone.

ETCD_START_TIMEOUT_S = 20.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class EtcdProcess(_ChildProcess):
    """One etcd member on 127.0.0.1 with its own data directory."""

    def __init__(self, data_dir: Path, binary: str | None = None, *, die_with_parent: bool = False) -> None:
        self.data_dir = Path(data_dir)
        self.die_with_parent = die_with_parent
        found = binary or shutil.which("etcd")
        if found is None:
            raise RuntimeError("etcd is not on PATH (Debian: apt-get install etcd-server)")
        self.binary = found
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
            self.process = subprocess.Popen(
                cmd,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                preexec_fn=_die_with(os.getpid()) if self.die_with_parent else None,
            )
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


def _internal_topic_settings(brokers: int) -> dict[str, str]:
    """Replication of the internal topics for a cluster of ``brokers``: Kafka's defaults
    (3 replicas, min ISR 2) from 3 brokers on; smaller clusters get one replica per broker
    and a min ISR that leaves one broker free to stop, as Kafka's own example configs
    lower these for small clusters."""
    if brokers >= 3:
        return {}
    rf, min_isr = str(brokers), str(max(1, brokers - 1))
    return {
        "offsets.topic.replication.factor": rf,
        "share.coordinator.state.topic.replication.factor": rf,
        "transaction.state.log.replication.factor": rf,
        "share.coordinator.state.topic.min.isr": min_isr,
        "transaction.state.log.min.isr": min_isr,
    }


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
        die_with_parent: bool = False,
    ) -> None:
        if brokers < 1:
            raise ValueError("a cluster needs at least one broker")
        self._tmp = None if base_dir is not None else tempfile.TemporaryDirectory(prefix="sharebroker-cluster-")
        self.base_dir = Path(base_dir if base_dir is not None else self._tmp.name)  # type: ignore[union-attr]
        self.etcd: EtcdProcess | None = None
        self.die_with_parent = die_with_parent
        self._etcd_endpoints = list(etcd_endpoints or ())
        self.settings = {**_internal_topic_settings(brokers), **(settings or {})}
        self.brokers: list[BrokerProcess] = []
        for i in range(brokers):
            node = i + 1
            s = {"node.id": str(node), **self.settings}
            rack = racks[i] if racks is not None and i < len(racks) else None
            if rack:
                s["broker.rack"] = rack
            self.brokers.append(BrokerProcess(self.base_dir / f"broker-{node}", s, die_with_parent=die_with_parent))

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
            self.etcd = EtcdProcess(self.base_dir / "etcd", die_with_parent=self.die_with_parent).start()
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
        """Stop every broker cleanly and at once (SIGTERM to all, then wait for all within
        ``STOP_TIMEOUT_S``; what is still running then is killed), then etcd."""
        for b in self.brokers:
            b.terminate()
        deadline = time.monotonic() + STOP_TIMEOUT_S
        for b in self.brokers:
            try:
                b.wait_stopped(deadline)
            except RuntimeError:
                pass  # killed: it ignored SIGTERM for too long
        if self.etcd is not None:
            self.etcd.stop()
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    def send_kill(self) -> None:
        """SIGKILL to every process of the cluster without waiting (safe in a signal
        handler: a stop under way then finds them gone)."""
        for b in self.brokers:
            b.send_kill()
        if self.etcd is not None:
            self.etcd.send_kill()

    def kill(self) -> None:
        """SIGKILL to every process of the cluster, and wait for them."""
        self.send_kill()
        for b in self.brokers:
            b.kill()
        if self.etcd is not None:
            self.etcd.kill()

    def pids(self) -> list[int]:
        """The process ids of the running brokers and etcd."""
        procs = [b.process for b in self.brokers] + [self.etcd.process if self.etcd is not None else None]
        return [p.pid for p in procs if p is not None and p.poll() is None]

    def __enter__(self) -> LocalCluster:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
