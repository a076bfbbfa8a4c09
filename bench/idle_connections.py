"""Memory held per idle connection: ``python -m bench.idle_connections [--connections N] [--brokers sharebroker,kafka]``.

For each broker, one after the other, a fresh single broker: ``sharebroker serve``
(``max.connections`` above N; its default is 1000) and Apache Kafka 4.4.0 as
``make peers`` starts it (``max.connections.per.ip`` set above N, as every connection comes from
127.0.0.1; Kafka's defaults for it and for ``max.connections`` are 2147483647,
no limit, so this only pins it). The same method for both: open N connections that each send
one ApiVersions request (as every Kafka client does first) and then stay idle, and
read the broker process's resident set size (``VmRSS``; the JVM's for Kafka) before
and after. Checks that the broker still answers on a new connection and on a sample
of the idle ones. Prints one JSON line per broker: connections, RSS before/after in
MB, KB per connection. :func:`compare` is what ``bench.scale_cluster`` runs.
"""

from __future__ import annotations

import argparse
import json
import socket
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.peers import KafkaPeer
from broker.localcluster import BrokerProcess
from broker.protocol.connection import NEED_DATA, ClientConnection, Response
from broker.protocol.messages.api_versions_request import ApiVersionsRequest

REQUEST = ApiVersionsRequest(client_software_name="idle", client_software_version="1")


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def api_versions(sock: socket.socket, conn: ClientConnection) -> None:
    _, frame = conn.encode_request(REQUEST, 3)
    sock.sendall(frame)
    while (event := conn.next_event()) is NEED_DATA:
        data = sock.recv(65536)
        if not data:
            raise ConnectionError("closed by the broker")
        conn.receive_data(data)
    if not isinstance(event, Response):
        raise ConnectionError("closed by the broker")
    body: Any = event.body
    if body.error_code != 0:
        raise RuntimeError(f"ApiVersions error {body.error_code}")


def hold(bootstrap: str, pid: int, connections: int) -> dict:
    """Open ``connections`` idle connections to the broker at ``bootstrap``; measure; close them."""
    host, port = bootstrap.rsplit(":", 1)
    probe = socket.create_connection((host, int(port)), timeout=10)
    api_versions(probe, ClientConnection(client_id="idle-probe"))
    time.sleep(0.5)
    before = rss_kb(pid)
    held: list[tuple[socket.socket, ClientConnection]] = []
    try:
        for i in range(connections):
            sock = socket.create_connection((host, int(port)), timeout=10)
            conn = ClientConnection(client_id=f"idle-{i}")
            held.append((sock, conn))
            api_versions(sock, conn)
        time.sleep(1.0)
        after = rss_kb(pid)
        api_versions(probe, ClientConnection(client_id="idle-probe-2"))
        for sock, conn in held[:: max(1, connections // 50)]:
            api_versions(sock, conn)  # the idle ones are still served
    finally:
        for sock, _ in held:
            sock.close()
        probe.close()
    return {
        "connections": connections,
        "rss_before_mb": round(before / 1024, 1),
        "rss_after_mb": round(after / 1024, 1),
        "kb_per_connection": round((after - before) / connections, 1),
    }


def sharebroker(connections: int) -> dict:
    with tempfile.TemporaryDirectory(prefix="sharebroker-idle-") as tmp:
        with BrokerProcess(Path(tmp) / "broker", {"max.connections": str(connections + 100)}) as broker:
            assert broker.process is not None
            return hold(broker.bootstrap, broker.process.pid, connections)


def kafka(connections: int) -> dict:
    peer = KafkaPeer(extra_config=f"max.connections.per.ip={connections + 100}\n").start()
    try:
        return hold(peer.bootstrap, peer.pid, connections)
    finally:
        peer.stop()


BROKERS = {"sharebroker": sharebroker, "kafka": kafka}


def compare(brokers: list[str], connections: int) -> dict[str, Any]:
    """Each broker measured in turn; a broker that fails is written as null with its reason."""
    out: dict[str, Any] = {"connections": connections}
    for name in brokers:
        try:
            out[name] = BROKERS[name](connections)
        except Exception as exc:
            out[name] = None
            out.setdefault("errors", {})[name] = f"{type(exc).__name__}: {exc}"
        print(f"  idle connections, {name}: {json.dumps(out[name])}", flush=True)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, default=2000)
    parser.add_argument("--brokers", default="sharebroker", help="sharebroker and/or kafka, comma-separated")
    args = parser.parse_args()
    which = args.brokers.split(",")
    if unknown := set(which) - set(BROKERS):
        raise SystemExit(f"unknown broker(s): {', '.join(sorted(unknown))}")
    if "kafka" in which and (why := KafkaPeer.available()) is not None:
        raise SystemExit(why)
    for name in which:
        print(json.dumps({"broker": name, **BROKERS[name](args.connections)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
