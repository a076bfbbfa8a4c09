"""Connection limits, idle timeout and graceful shutdown of the real broker process."""

from __future__ import annotations

import os
import signal
import socket
import threading
import time
from pathlib import Path

from broker.protocol.messages.api_versions_request import ApiVersionsRequest
from broker.protocol.messages.fetch_request import FetchPartition, FetchRequest, FetchTopic
from broker.testing import BrokerProcess
from tests.integration.clients import consume, create_topic, produce
from tests.integration.wire import WireClient


def _closed_by_peer(sock: socket.socket, within: float) -> bool:
    sock.settimeout(within)
    try:
        return sock.recv(1) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def test_idle_connections_are_closed(tmp_path: Path):
    with BrokerProcess(tmp_path / "data", {"connections.max.idle.ms": "1000"}) as broker:
        with WireClient(broker.bootstrap) as w:
            assert w.request(ApiVersionsRequest(), 0).error_code == 0
            assert _closed_by_peer(w.sock, within=10)


def test_connections_beyond_max_connections_are_refused(tmp_path: Path):
    with BrokerProcess(tmp_path / "data", {"max.connections": "2"}) as broker:
        host, port = broker.bootstrap.rsplit(":", 1)
        kept = [WireClient(broker.bootstrap) for _ in range(2)]
        try:
            for w in kept:
                assert w.request(ApiVersionsRequest(), 0).error_code == 0
            extra = socket.create_connection((host, int(port)), timeout=5)
            assert _closed_by_peer(extra, within=5)
            extra.close()
        finally:
            for w in kept:
                w.close()
        # Slots free up again once connections close.
        deadline = time.monotonic() + 5
        while True:
            try:
                with WireClient(broker.bootstrap) as w:
                    assert w.request(ApiVersionsRequest(), 0).error_code == 0
                break
            except ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)


def test_sigterm_during_a_long_poll_exits_zero_within_five_seconds(tmp_path: Path):
    broker = BrokerProcess(tmp_path / "data").start()
    assert broker.process is not None
    try:
        create_topic(broker.bootstrap, "quiet")
        produce(broker.bootstrap, "quiet", [b"x"], acks="all")
        w = WireClient(broker.bootstrap, timeout=30)
        fetch = FetchRequest(
            replica_id=-1,
            max_wait_ms=30_000,
            min_bytes=1 << 20,
            max_bytes=1 << 20,
            isolation_level=0,
            topics=[
                FetchTopic(
                    topic="quiet", partitions=[FetchPartition(partition=0, fetch_offset=1, partition_max_bytes=1 << 20)]
                )
            ],
        )
        answered = []
        t = threading.Thread(target=lambda: answered.append(w.request(fetch, 11)))
        t.start()
        time.sleep(0.5)  # the fetch is parked in its long-poll
        started = time.monotonic()
        broker.process.send_signal(signal.SIGTERM)
        code = broker.process.wait(10)
        elapsed = time.monotonic() - started
        t.join(10)
        w.close()
        assert code == 0
        assert elapsed < 5, f"shutdown took {elapsed:.1f} s"
        # Data written before the stop is there after a restart.
        broker.start()

        assert [m.value() for m in consume(broker.bootstrap, "quiet", 1)] == [b"x"]
    finally:
        broker.kill()


def test_an_address_in_use_is_one_line_and_exit_one(tmp_path: Path):
    import subprocess
    import sys

    with BrokerProcess(tmp_path / "first") as first:
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "broker",
                "serve",
                "--set",
                f"listeners=PLAINTEXT://127.0.0.1:{first.port}",
                "--set",
                f"log.dirs={tmp_path / 'second'}",
            ],
            capture_output=True,
            text=True,
            timeout=30,
        )
    assert result.returncode == 1
    assert result.stderr.strip().splitlines()[-1].startswith("sharebroker: error: cannot serve: ")
    assert "Address already in use" in result.stderr and "Traceback" not in result.stderr


def test_sigterm_while_starting_is_a_clean_stop(tmp_path: Path):
    """SIGTERM between "listening" and "ready" (the logs still opening) stops the broker
    cleanly: exit status 0, "shutting_down" then "stopped", and the data still there."""
    import subprocess
    import sys

    data = tmp_path / "data"
    with BrokerProcess(data) as broker:
        # Enough partitions that opening them keeps the broker starting for a while.
        create_topic(broker.bootstrap, "many", partitions=400)
        produce(broker.bootstrap, "many", [b"kept"])
        port = broker.port
    proc = subprocess.Popen(
        [sys.executable, "-m", "broker", "serve", "--set", f"listeners=PLAINTEXT://127.0.0.1:{port}",
         "--set", f"log.dirs={data}"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        lines = []
        for line in proc.stdout:
            lines.append(line)
            if "listening" in line:
                proc.send_signal(signal.SIGTERM)
                break
        rest, _ = proc.communicate(timeout=60)
        out = "".join(lines) + rest
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, out
    assert "shutting_down" in out and out.rstrip().splitlines()[-1].find("stopped") >= 0, out
    assert "Traceback" not in out
    with BrokerProcess(data) as broker:
        assert [m.value() for m in consume(broker.bootstrap, "many", 1)] == [b"kept"]


def test_a_plain_broker_leaves_etcd_oauth_and_scram_libraries_unloaded(tmp_path: Path, monkeypatch):
    """Memory: httpx (etcd), PyJWT with cryptography (OAUTHBEARER) and scramp (SCRAM)
    are loaded by the first use of what needs them, not by every broker."""
    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(
        "import atexit, os, sys\n"
        "atexit.register(lambda: open(os.environ['MODULES_OUT'], 'w').write('\\n'.join(sorted(sys.modules))))\n"
    )
    out = tmp_path / "modules.txt"
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(hook), os.environ.get("PYTHONPATH")])))
    monkeypatch.setenv("MODULES_OUT", str(out))
    broker = BrokerProcess(tmp_path / "data").start()
    assert broker.process is not None
    try:
        create_topic(broker.bootstrap, "plain")
        produce(broker.bootstrap, "plain", [b"x"], acks="all")
        assert [m.value() for m in consume(broker.bootstrap, "plain", 1)] == [b"x"]
        broker.process.send_signal(signal.SIGTERM)
        assert broker.process.wait(10) == 0
    finally:
        broker.kill()
    loaded = {name.partition(".")[0] for name in out.read_text().split()}
    assert "broker" in loaded  # the hook saw the broker's own modules
    assert not loaded & {"httpx", "jwt", "cryptography", "scramp"}
