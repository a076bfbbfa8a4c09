"""Network fuzzing of a running broker: ``python -m tests.fuzz.network [--connections N]``.

Starts ``sharebroker serve`` (a PLAINTEXT and a SASL_PLAINTEXT listener, the
StandardAuthorizer on, small frame and memory limits) in a temporary directory, where
the unauthenticated clients may do anything on topics, groups and transactional ids
but create, delete or alter topics (``--allow-create`` lifts that: creating a topic of
thousands of partitions holds the broker for seconds), and
opens ``--connections`` connections to it, each sending a few frames recorded from
real clients (``tests/protocol/golden``) with bit flips, truncations, insertions,
deletions, overwritten integers, wrong size prefixes and random tails, then reading
whatever the broker answers until it closes the connection or goes quiet.

After every batch of ``--batch`` connections a fresh connection sends a well-formed
ApiVersions and Metadata request on each listener; the run fails when one is not
answered within ``--check-timeout`` seconds (a hang) or the broker process exits (a
crash). Bounded in count and in time (``--max-seconds``). Prints one summary line:
connections, frames, bytes, answers, health checks and their slowest answer, peak RSS.
"""

from __future__ import annotations

import argparse
import json
import random
import socket
import struct
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from broker.localcluster import BrokerProcess
from broker.protocol.messages.api_versions_request import ApiVersionsRequest
from broker.protocol.messages.metadata_request import MetadataRequest
from tests.integration.wire import WireClient

GOLDEN = Path(__file__).resolve().parent.parent / "protocol" / "golden"
JAAS = 'org.apache.kafka.common.security.plain.PlainLoginModule required user_admin="admin-secret";'
SETTINGS = {
    "listeners": "PLAINTEXT://127.0.0.1:0,SASL_PLAINTEXT://127.0.0.1:0",
    "listener.name.sasl_plaintext.sasl.enabled.mechanisms": "PLAIN,SCRAM-SHA-512",
    "listener.name.sasl_plaintext.plain.sasl.jaas.config": JAAS,
    "authorizer.class.name": "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
    "super.users": "User:admin",
    "socket.request.max.bytes": "1048576",
    "queued.max.request.bytes": "8388608",
    "request.receive.timeout.ms": "2000",
    "max.connections.per.ip": "1000",
    "auto.create.topics.enable": "true",
}


def grant(bootstrap: str, allow_create: bool) -> None:
    """The fuzzing clients' ACLs, made with ``sharebroker acls`` as the super user."""
    with tempfile.NamedTemporaryFile("w", suffix=".properties") as cfg:
        cfg.write(
            "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\n"
            'sasl.jaas.config=x required username="admin" password="admin-secret";\n'
        )
        cfg.flush()
        base = [sys.executable, "-m", "broker", "acls", "--bootstrap-server", bootstrap, "--command-config", cfg.name]
        anyone = ["--topic", "*", "--group", "*", "--transactional-id", "*"]
        runs = [[*base, "--add", "--allow-principal", "User:ANONYMOUS", "--operation", "All", *anyone]]
        if not allow_create:
            for op in ("Create", "Delete", "Alter"):
                runs.append([*base, "--add", "--deny-principal", "User:ANONYMOUS", "--operation", op, "--topic", "*"])
        for cmd in runs:
            subprocess.run(cmd, check=True, capture_output=True, timeout=60)


def golden_requests() -> list[bytes]:
    index = json.loads((GOLDEN / "index.json").read_text())
    return [(GOLDEN / entry["file"]).read_bytes() for entry in index["frames"]]


def mutate(rng: random.Random, frame: bytes) -> bytes:
    """One damaged frame with its size prefix (consistent, arbitrary or a little off)."""
    data = bytearray(frame)
    for _ in range(rng.randint(1, 4)):
        op = rng.choice(("flip", "truncate", "insert", "delete", "overwrite"))
        if op == "flip" and data:
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        elif op == "truncate":
            del data[rng.randint(0, len(data)) :]
        elif op == "insert":
            i = rng.randint(0, len(data))
            data[i:i] = rng.randbytes(rng.randint(1, 8))
        elif op == "delete" and data:
            i = rng.randrange(len(data))
            del data[i : i + rng.randint(1, 8)]
        elif op == "overwrite" and data:
            i = rng.randrange(len(data))
            value = rng.choice((b"\xff\xff", b"\x7f\xff\xff\xff", b"\x80\x00\x00\x00", b"\x00", b"\xff"))
            data[i : i + len(value)] = value
    roll = rng.random()
    if roll < 0.75:
        size = len(data)
    elif roll < 0.9:
        size = len(data) + rng.randint(-16, 16)
    else:
        size = rng.randint(-(2**31), 2**31 - 1)
    return struct.pack(">i", size) + bytes(data)


def one_connection(address: tuple[str, int], frames: list[bytes], read_timeout: float) -> tuple[int, int, int]:
    """Send ``frames`` and read until the broker closes or goes quiet: (frames, bytes sent, bytes read)."""
    sent = read = 0
    try:
        with socket.create_connection(address, timeout=5) as sock:
            for frame in frames:
                sock.sendall(frame)
                sent += len(frame)
            sock.settimeout(read_timeout)
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                read += len(chunk)
    except (TimeoutError, ConnectionError, OSError):
        pass
    return len(frames), sent, read


def healthy(broker: BrokerProcess, listeners: dict[str, tuple[str, int]], timeout: float) -> float:
    """Seconds the slowest well-formed request took; raises when one is not answered."""
    from broker.security.client import ClientSecurity

    slowest = 0.0
    for name, (host, port) in listeners.items():
        security = None
        if name == "SASL_PLAINTEXT":
            security = ClientSecurity.from_properties(
                {
                    "security.protocol": "SASL_PLAINTEXT",
                    "sasl.mechanism": "PLAIN",
                    "sasl.jaas.config": 'x required username="admin" password="admin-secret";',
                }
            )
        started = time.monotonic()
        with WireClient(f"{host}:{port}", timeout=timeout, security=security) as w:
            assert (
                w.request(ApiVersionsRequest(client_software_name="fuzz", client_software_version="1"), 3).error_code
                == 0
            )
            assert w.request(MetadataRequest(topics=None), 12).brokers
        slowest = max(slowest, time.monotonic() - started)
    if broker.process is None or broker.process.poll() is not None:
        raise RuntimeError("the broker exited")
    return slowest


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, default=10_000)
    parser.add_argument("--batch", type=int, default=200)
    parser.add_argument("--workers", type=int, default=32)
    parser.add_argument("--frames-per-connection", type=int, default=4)
    parser.add_argument("--read-timeout", type=float, default=0.3)
    parser.add_argument("--check-timeout", type=float, default=10.0)
    parser.add_argument("--max-seconds", type=float, default=1800.0)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--allow-create", action="store_true", help="let the fuzzing clients create topics")
    parser.add_argument("--keep-log", metavar="FILE", help="copy the broker's log there at the end")
    parser.add_argument("--verbose", action="store_true", help="print the broker's log after a slow health check")
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(2**32)
    rng = random.Random(seed)
    seeds = golden_requests()
    with tempfile.TemporaryDirectory(prefix="sharebroker-netfuzz-") as tmp:
        broker = BrokerProcess(Path(tmp) / "broker", SETTINGS)
        broker.start()
        try:
            listeners = {name: ("127.0.0.1", port) for name, port in broker.listener_ports().items()}
            targets = list(listeners.values())
            grant(f"127.0.0.1:{listeners['SASL_PLAINTEXT'][1]}", args.allow_create)
            started = time.monotonic()
            done = frames = sent = read = answered = checks = 0
            slowest = healthy(broker, listeners, args.check_timeout)
            with ThreadPoolExecutor(args.workers) as pool:
                while done < args.connections:
                    if time.monotonic() - started > args.max_seconds:
                        print(f"network fuzz: stopped at the time bound after {done} connections", file=sys.stderr)
                        break
                    n = min(args.batch, args.connections - done)
                    jobs = []
                    for _ in range(n):
                        count = rng.randint(1, args.frames_per_connection)
                        batch = [mutate(rng, rng.choice(seeds)) for _ in range(count)]
                        if rng.random() < 0.3:  # valid frames first: the damage lands mid-conversation
                            valid = [rng.choice(seeds) for _ in range(rng.randint(1, 3))]
                            batch[:0] = [struct.pack(">i", len(v)) + v for v in valid]
                        if rng.random() < 0.3:  # a valid frame after the damage: is it still parsed?
                            good = rng.choice(seeds)
                            batch.append(struct.pack(">i", len(good)) + good)
                        jobs.append(pool.submit(one_connection, rng.choice(targets), batch, args.read_timeout))
                    for job in jobs:
                        f, s, r = job.result()
                        frames += f
                        sent += s
                        read += r
                        answered += r > 0
                    done += n
                    try:
                        took = healthy(broker, listeners, args.check_timeout)
                        if took > 1.0 and args.verbose:
                            print(
                                f"slow health check after {done}: {took:.1f} s\n{broker.log_tail(15)}", file=sys.stderr
                            )
                        slowest = max(slowest, took)
                    except Exception as exc:
                        print(
                            f"network fuzz: FAILED after {done} connections (seed {seed}): {exc!r}\n{broker.log_tail(30)}",
                            file=sys.stderr,
                        )
                        return 1
                    checks += 1
            elapsed = time.monotonic() - started
            peak = rss_kb(broker.process.pid) if broker.process else 0
            print(
                f"network fuzz: {done} connections, {frames} mutated frames, {sent / 1e6:.1f} MB sent, "
                f"{answered} connections answered, {checks} health checks passed (slowest {slowest * 1000:.0f} ms), "
                f"peak RSS {peak / 1024:.0f} MB, {elapsed:.0f} s, seed {seed}: ok"
            )
        finally:
            try:
                code = broker.stop()
            finally:
                if args.keep_log:
                    Path(args.keep_log).write_bytes(broker.log_path.read_bytes())
        if code != 0:
            print(f"network fuzz: the broker exited with {code} on SIGTERM", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
