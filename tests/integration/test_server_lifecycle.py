"""Connection limits, idle timeout and graceful shutdown of the real broker process."""

from __future__ import annotations

import signal
import socket
import threading
import time
from pathlib import Path

from broker.protocol.messages.api_versions_request import ApiVersionsRequest
from broker.protocol.messages.fetch_request import FetchPartition, FetchRequest, FetchTopic
from broker.testing import BrokerProcess
from tests.integration.clients import create_topic, produce
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
        from tests.integration.clients import consume

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
