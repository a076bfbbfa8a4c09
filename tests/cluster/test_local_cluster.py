"""``sharebroker local-cluster`` leaves no process behind, whatever signals it gets.

The command runs as a shell job would: in a process group of its own, which its
etcd and brokers share, so a terminal's Ctrl-C (SIGINT to the whole group) reaches
every one of them.

- one Ctrl-C: every broker stops cleanly (exit code 0), then etcd, then the command;
- a second Ctrl-C while they stop: every child is killed at once;
- SIGTERM to the command alone: the same clean stop;
- kill -9 of the command: the kernel kills its children (PR_SET_PDEATHSIG).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

# Starting 2-3 brokers and etcd takes a few seconds; stopping them well under 10 s.
START_S = 60.0
STOP_S = 20.0


def _children(pid: int) -> dict[int, bytes]:
    """{pid: command line} of the direct children of ``pid``."""
    out = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == pid:
            out[int(entry)] = cmdline
    return out


def _alive(pid: int, cmdline: bytes) -> bool:
    """The process ``pid`` with this command line still exists (and is no zombie)."""
    try:
        if Path(f"/proc/{pid}/cmdline").read_bytes() != cmdline:
            return False  # exited (a zombie has an empty command line) or the pid was reused
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


class Job:
    """``sharebroker local-cluster`` started like a job of an interactive shell."""

    def __init__(self, tmp: Path, brokers: int) -> None:
        self.out = tmp / "local-cluster.out"
        command = [sys.executable, "-m", "broker", "local-cluster", "--brokers", str(brokers)]
        with open(self.out, "wb") as out:
            self.proc = subprocess.Popen(
                [*command, "--data-dir", str(tmp / "data")],
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,  # its own process group, as a shell gives a job
            )
        deadline = time.monotonic() + START_S
        while b"bootstrap.servers=" not in self.out.read_bytes():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.proc.kill()
                pytest.fail(f"local-cluster did not start:\n{self.text()}")
            time.sleep(0.1)
        self.children = _children(self.proc.pid)
        assert len(self.children) == brokers + 1, self.children  # the brokers and etcd
        for pid in self.children:
            assert os.getpgid(pid) == self.proc.pid  # in the job's process group

    def text(self) -> str:
        return self.out.read_text(errors="replace")

    def ctrl_c(self) -> None:
        """What a terminal does on Ctrl-C: SIGINT to the foreground process group."""
        os.killpg(self.proc.pid, signal.SIGINT)

    def wait_gone(self, timeout: float) -> float:
        """Wait until the command and every child are gone; the seconds it took."""
        start = time.monotonic()
        deadline = start + timeout
        while time.monotonic() < deadline:
            self.proc.poll()
            left = [pid for pid, cmd in self.children.items() if _alive(pid, cmd)]
            if self.proc.returncode is not None and not left:
                return time.monotonic() - start
            time.sleep(0.05)
        for pid, cmd in self.children.items():
            if _alive(pid, cmd):
                os.kill(pid, signal.SIGKILL)
        self.proc.kill()
        pytest.fail(f"processes left behind after {timeout} s:\n{self.text()}")

    def cleanup(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        for pid, cmd in self.children.items():
            if _alive(pid, cmd):
                os.kill(pid, signal.SIGKILL)


def test_ctrl_c_stops_every_broker_cleanly(tmp_path):
    job = Job(tmp_path, brokers=3)
    try:
        job.ctrl_c()
        job.wait_gone(STOP_S)
        assert job.proc.returncode == 0
        assert job.text().rstrip().endswith("stopped")
        for node in (1, 2, 3):
            log = (tmp_path / "data" / f"broker-{node}.log").read_text()
            assert '"event": "stopped"' in log, log[-2000:]  # a clean stop, not a kill
    finally:
        job.cleanup()


def test_a_second_ctrl_c_kills_them_all_at_once(tmp_path):
    job = Job(tmp_path, brokers=2)
    try:
        job.ctrl_c()
        time.sleep(0.2)
        job.ctrl_c()
        job.wait_gone(STOP_S)
        assert job.proc.returncode == 0
    finally:
        job.cleanup()


def test_sigterm_to_the_command_alone_stops_the_cluster(tmp_path):
    job = Job(tmp_path, brokers=2)
    try:
        job.proc.send_signal(signal.SIGTERM)
        job.wait_gone(STOP_S)
        assert job.proc.returncode == 0
    finally:
        job.cleanup()


def test_kill_9_of_the_command_takes_its_children_with_it(tmp_path):
    job = Job(tmp_path, brokers=2)
    try:
        job.proc.kill()
        job.wait_gone(STOP_S)
    finally:
        job.cleanup()
