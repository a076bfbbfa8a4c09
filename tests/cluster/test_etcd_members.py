"""The etcd client against a 3-member etcd that loses its quorum: a member without a
leader is skipped for the next endpoint at once, for reads, writes and the watch.

Three real etcd members on loopback; two are killed, so the third is up and answers
but has no leader (what a member cut off from the others looks like to a client).
A separate single-member etcd stands for the part of the cluster that still works.
"""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import trio

from broker.localcluster import EtcdProcess, free_port
from broker.metadata.etcd_client import EtcdClient, EtcdError, EtcdUnavailable

# A call that is skipped for "no leader" takes milliseconds; one that waits for a leader
# runs into the client's deadline (TIMEOUT_S). The bound sits well between the two.
TIMEOUT_S = 5.0
SKIP_BOUND_S = 2.0


class Member:
    def __init__(self, name: str, data_dir: Path, cluster: str, client_port: int, peer_port: int) -> None:
        self.name, self.data_dir, self.cluster = name, data_dir, cluster
        self.client_url = f"http://127.0.0.1:{client_port}"
        self.peer_url = f"http://127.0.0.1:{peer_port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        binary = shutil.which("etcd")
        assert binary is not None
        self.data_dir.parent.mkdir(parents=True, exist_ok=True)
        with open(self.data_dir.parent / f"{self.name}.log", "ab") as log:
            self.process = subprocess.Popen(
                [binary, "--name", self.name, "--data-dir", str(self.data_dir)]
                + ["--listen-client-urls", self.client_url, "--advertise-client-urls", self.client_url]
                + ["--listen-peer-urls", self.peer_url, "--initial-advertise-peer-urls", self.peer_url]
                + ["--initial-cluster", self.cluster, "--initial-cluster-token", self.data_dir.parent.name]
                + ["--initial-cluster-state", "new"],
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
            )

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()


@pytest.fixture
def lone_member(tmp_path: Path) -> Iterator[str]:
    """The client URL of a member of a 3-member etcd whose other two members are dead."""
    ports = [(free_port(), free_port()) for _ in range(3)]
    cluster = ",".join(f"m{i}=http://127.0.0.1:{peer}" for i, (_, peer) in enumerate(ports))
    members = [Member(f"m{i}", tmp_path / "three" / f"m{i}", cluster, c, p) for i, (c, p) in enumerate(ports)]
    try:
        for m in members:
            m.start()

        async def formed() -> None:
            client = EtcdClient([members[0].client_url], timeout_s=1.0)
            try:
                with trio.fail_after(60):
                    while True:
                        try:
                            await client.put(b"formed", b"1")
                            return
                        except (EtcdUnavailable, EtcdError):
                            await trio.sleep(0.2)
            finally:
                await client.aclose()

        trio.run(formed)
        members[1].kill()
        members[2].kill()
        time.sleep(3)  # past the election timeout (1 s): the survivor knows it has no leader
        yield members[0].client_url
    finally:
        for m in members:
            m.kill()


@pytest.fixture
def healthy(tmp_path: Path) -> Iterator[str]:
    etcd = EtcdProcess(tmp_path / "one" / "data").start()
    try:
        yield etcd.endpoint
    finally:
        etcd.kill()


def test_a_member_without_a_leader_is_skipped_at_once(lone_member: str, healthy: str) -> None:
    async def main() -> None:
        client = EtcdClient([lone_member, healthy], timeout_s=TIMEOUT_S)
        try:
            t0 = time.monotonic()
            revision = await client.put(b"k", b"v")
            assert revision > 0
            kv = await client.get(b"k")
            assert kv is not None and kv.value == b"v"
            took = time.monotonic() - t0
            assert took < SKIP_BOUND_S, f"waited {took:.1f} s on a member without a leader"
            # Only the leaderless member: an answer at once that no endpoint can serve,
            # not a request held until the deadline.
            alone = EtcdClient([lone_member], timeout_s=TIMEOUT_S)
            try:
                t0 = time.monotonic()
                with pytest.raises(EtcdUnavailable, match="no leader"):
                    await alone.get(b"k")
                assert time.monotonic() - t0 < SKIP_BOUND_S
            finally:
                await alone.aclose()
        finally:
            await client.aclose()

    trio.run(main)


def test_a_watch_on_a_member_without_a_leader_ends_instead_of_going_silent(lone_member: str) -> None:
    async def main() -> None:
        client = EtcdClient([lone_member], timeout_s=TIMEOUT_S)
        try:
            with trio.fail_after(SKIP_BOUND_S):
                with pytest.raises(EtcdUnavailable):
                    async for _ in client.watch(b"k", None, 1):
                        pass
        finally:
            await client.aclose()

    trio.run(main)
