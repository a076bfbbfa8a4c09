"""pytest fixtures for testing applications against a real sharebroker.

Installed as a pytest plugin (entry point ``sharebroker``), so with the
``sharebroker`` package installed these fixtures are available in any test
suite without imports:

- ``sharebroker_bootstrap``: ``"127.0.0.1:PORT"`` of a broker started for the
  test session on a free port with a temporary data directory;
- ``sharebroker``: the :class:`BrokerProcess` behind it (``.bootstrap``,
  ``.data_dir``, ``.stop()``, ``.kill()``, ``.start()``);
- ``sharebroker_factory``: start extra brokers with their own settings,
  e.g. ``sharebroker_factory(settings={"num.partitions": "3"})``.

The broker is the real ``sharebroker serve`` process, exactly as users run it.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Self

import pytest

# A broker that has not logged that it is listening within this many seconds
# is reported as failed (it normally takes well under one).
START_TIMEOUT_S = 20.0
STOP_TIMEOUT_S = 10.0
# "k=v,k=v": settings for the session broker (CI tweaks). The broker itself reads
# every SHAREBROKER_* variable as a setting, so this one is kept from its environment.
TEST_SETTINGS_ENV = "SHAREBROKER_TEST_SETTINGS"


class BrokerProcess:
    """One ``sharebroker serve`` subprocess with its own data directory."""

    def __init__(self, data_dir: Path, settings: Mapping[str, str] | None = None, port: int = 0) -> None:
        self.data_dir = Path(data_dir)
        self.settings = dict(settings or {})
        self.port = port
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
                self.command(), stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env
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
        with open(self.log_path, "rb") as f:
            f.seek(self._log_offset)
            for line in f:
                try:
                    event = json.loads(line)
                except ValueError:
                    continue
                if not isinstance(event, dict):
                    continue
                if event.get("event") == "listening":
                    port = int(event["port"])
                elif event.get("event") == "ready" and port is not None:
                    return port
        return None

    def log_tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def stop(self) -> int:
        """SIGTERM and wait for a clean exit; return the exit code."""
        if self.process is None:
            return 0
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
                raise RuntimeError(f"sharebroker ignored SIGTERM for {STOP_TIMEOUT_S} s:\n{self.log_tail()}") from None
        return self.process.returncode

    def kill(self) -> None:
        """SIGKILL: the crash case."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.kill() if exc[0] is not None else self.stop()


@pytest.fixture(scope="session")
def sharebroker_factory() -> Iterator:
    """Start brokers on demand; every one is stopped at the end of the session."""
    started: list[BrokerProcess] = []
    with tempfile.TemporaryDirectory(prefix="sharebroker-") as tmp:
        counter = iter(range(1_000_000))

        def factory(settings: Mapping[str, str] | None = None) -> BrokerProcess:
            broker = BrokerProcess(Path(tmp) / f"broker-{next(counter)}", settings)
            started.append(broker)
            return broker.start()

        yield factory
        for broker in started:
            try:
                broker.stop()
            except RuntimeError:
                broker.kill()


@pytest.fixture(scope="session")
def sharebroker(sharebroker_factory) -> BrokerProcess:
    """A broker shared by the test session."""
    settings: dict[str, str] = {}
    extra = os.environ.get(TEST_SETTINGS_ENV)
    if extra:
        for item in extra.split(","):
            key, sep, value = item.partition("=")
            if not sep:
                raise pytest.UsageError(f"{TEST_SETTINGS_ENV}: {item!r} is not key=value")
            settings[key] = value
    return sharebroker_factory(settings)


@pytest.fixture(scope="session")
def sharebroker_bootstrap(sharebroker: BrokerProcess) -> str:
    """``host:port`` of the session broker, for ``bootstrap.servers``."""
    return sharebroker.bootstrap
