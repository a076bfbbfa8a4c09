"""Time from process start to the first answered ApiVersions (``python -m bench.startup``, sharebroker alone).

Starts ``sharebroker serve`` on a fresh data directory, connects as soon as the
port accepts, sends ApiVersions v3 and stops the clock at the response. Repeats
and prints min / median / max. ``make bench-startup`` runs the startup scenario of
``bench.compare`` instead (every broker, and also to the first share record).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import time

from broker.protocol.messages import RequestHeader
from broker.protocol.messages.api_versions_request import ApiVersionsRequest

# Give up on one start after this long (a healthy start takes a fraction of it).
TIMEOUT_S = 10.0


# Measure the normal case: bytecode caches written (as pip does at install)
# and used, even if the calling shell disables them.
_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def api_versions_frame() -> bytes:
    out = bytearray()
    RequestHeader(request_api_key=18, request_api_version=3, correlation_id=1, client_id="bench").encode_into(out, 2)
    ApiVersionsRequest(client_software_name="bench", client_software_version="1").encode_into(out, 3)
    return struct.pack(">i", len(out)) + bytes(out)


def broker_command(cmd_prefix: list[str]):
    def command(port: int, data: str) -> list[str]:
        return cmd_prefix + ["serve", "--set", f"listeners=PLAINTEXT://127.0.0.1:{port}", "--set", f"log.dirs={data}"]

    return command


def floor_command(python: str):
    """The floor: interpreter + import trio + one answered request (bench/floor_server.py)."""

    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "floor_server.py")

    def command(port: int, data: str) -> list[str]:
        return [python, script, str(port)]

    return command


def one_start(command) -> float:
    port = free_port()
    frame = api_versions_frame()
    with tempfile.TemporaryDirectory() as data:
        cmd = command(port, data)
        start = time.perf_counter()
        # Run from the data dir: ``python -m broker`` then loads the interpreter's
        # installed package, not a source tree that happens to be the working directory.
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=_ENV, cwd=data)
        try:
            while True:
                if time.perf_counter() - start > TIMEOUT_S:
                    raise RuntimeError("broker did not answer in time")
                try:
                    s = socket.create_connection(("127.0.0.1", port), timeout=1)
                except OSError:
                    time.sleep(0.002)
                    continue
                with s:
                    s.sendall(frame)
                    size = struct.unpack(">i", s.recv(4))[0]
                    got = 0
                    while got < size:
                        got += len(s.recv(size - got))
                return time.perf_counter() - start
        finally:
            proc.terminate()
            proc.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--json", help="write results here too")
    parser.add_argument("--python", default=sys.executable, help="interpreter of the install to measure")
    args = parser.parse_args()
    python = os.path.abspath(args.python)
    broker = broker_command([python, "-m", "broker"])
    floor = floor_command(python)
    one_start(broker)  # warm-up: writes the bytecode caches, not counted
    one_start(floor)
    # Interleaved, so both see the same machine load.
    times, floors = [], []
    for _ in range(args.runs):
        times.append(one_start(broker))
        floors.append(one_start(floor))
    for label, t in (("sharebroker", times), ("floor (python + trio + one answer)", floors)):
        print(
            f"{label}: start -> first ApiVersions response over {args.runs} runs: "
            f"min {min(t) * 1000:.0f} ms, median {statistics.median(t) * 1000:.0f} ms, max {max(t) * 1000:.0f} ms"
        )
    ratio = statistics.median(times) / statistics.median(floors)
    print(f"ratio to the floor (medians): {ratio:.2f}")
    if args.json:
        with open(args.json, "w") as f:
            result = {
                "runs_s": times,
                "median_s": statistics.median(times),
                "floor_runs_s": floors,
                "floor_median_s": statistics.median(floors),
                "ratio_to_floor": ratio,
            }
            json.dump(result, f, indent=2)


if __name__ == "__main__":
    main()
