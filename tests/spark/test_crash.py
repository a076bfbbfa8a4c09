"""Crashes in the middle of a micro-batch: kill -9 of the Spark driver (the job's whole
process group: Python driver, JVM, Python workers) and kill -9 of the broker. After the
restart the at-least-once sink has every produced record, and the sink keyed on
(topic, partition, offset) has each exactly once."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from broker.admin.client import AdminClient
from tests.spark.conftest import produce, share_group
from tests.spark.session import ROOT, spark_env

N = 3000


def start_job(
    bootstrap: str, topic: str, group: str, work: Path, batch_sleep: float, log_name: str
) -> subprocess.Popen:
    log = open(work / log_name, "ab")
    try:
        return subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.spark.share_job",
                "--bootstrap",
                bootstrap,
                "--topic",
                topic,
                "--group",
                group,
                "--checkpoint",
                str(work / "checkpoint"),
                "--db",
                str(work / "sink.db"),
                "--batch-sleep",
                str(batch_sleep),
            ],
            cwd=ROOT,
            env={**os.environ, **spark_env()},
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,  # its own process group: the JVM and workers die with it
        )
    finally:
        log.close()


def wait_for_marker(work: Path, batch: int, job: subprocess.Popen, timeout: float = 180) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if (work / f"sink.db.batch-{batch}").exists():
            return
        if job.poll() is not None:
            raise AssertionError(f"the job exited with {job.returncode}:\n{log_tail(work)}")
        time.sleep(0.1)
    raise AssertionError(f"batch {batch} did not start within {timeout} s:\n{log_tail(work)}")


def log_tail(work: Path) -> str:
    out = []
    for log in sorted(work.glob("*.log")):
        out.append(f"--- {log.name}\n" + "\n".join(log.read_text(errors="replace").splitlines()[-40:]))
    return "\n".join(out)


def finish(job: subprocess.Popen, work: Path, timeout: float = 300) -> None:
    try:
        rc = job.wait(timeout)
    except subprocess.TimeoutExpired:
        os.killpg(job.pid, signal.SIGKILL)
        job.wait()
        raise AssertionError(f"the job did not finish within {timeout} s:\n{log_tail(work)}") from None
    assert rc == 0, f"the job exited with {rc}:\n{log_tail(work)}"


def check_sinks(work: Path, topic: str) -> tuple[int, int]:
    """Every key in the appended sink, each once in the idempotent one; returns
    (appended rows, duplicates)."""
    con = sqlite3.connect(work / "sink.db")
    try:
        appended = con.execute("SELECT key FROM appended").fetchall()
        keys = {k for (k,) in appended}
        assert keys == {f"k{i}" for i in range(N)}, f"missing: {sorted({f'k{i}' for i in range(N)} - keys)[:20]}"
        rows = con.execute("SELECT topic, part, off, key FROM idempotent").fetchall()
        assert len(rows) == N
        assert {r[3] for r in rows} == {f"k{i}" for i in range(N)}
        assert {r[0] for r in rows} == {topic}
        return len(appended), len(appended) - N
    finally:
        con.close()


def test_kill_the_spark_driver_mid_batch(
    bootstrap: str, admin: AdminClient, topic_factory: Any, tmp_path: Path, record_property: Any
) -> None:
    topic = topic_factory(partitions=2)
    group = share_group(admin)
    produce(bootstrap, topic, N, partitions=2)
    job = start_job(bootstrap, topic, group, tmp_path, batch_sleep=1.0, log_name="run1.log")
    try:
        wait_for_marker(tmp_path, 3, job)
    finally:
        os.killpg(job.pid, signal.SIGKILL)  # the driver, its JVM and its workers, mid-batch
        job.wait()
    con = sqlite3.connect(tmp_path / "sink.db")
    before = con.execute("SELECT count(DISTINCT key) FROM appended").fetchone()[0]
    con.close()
    assert 0 < before < N

    job = start_job(bootstrap, topic, group, tmp_path, batch_sleep=0.0, log_name="run2.log")
    finish(job, tmp_path)
    appended, duplicates = check_sinks(tmp_path, topic)
    record_property("appended_rows", appended)
    record_property("duplicates", duplicates)
    print(
        f"{N} records: {appended} rows in the at-least-once sink ({duplicates} duplicates), {N} in the idempotent sink"
    )


def test_kill_the_broker_mid_batch(
    broker: Any, bootstrap: str, admin: AdminClient, topic_factory: Any, tmp_path: Path, record_property: Any
) -> None:
    topic = topic_factory(partitions=2)
    group = share_group(admin)
    produce(bootstrap, topic, N, partitions=2)
    job = start_job(bootstrap, topic, group, tmp_path, batch_sleep=1.0, log_name="run.log")
    try:
        wait_for_marker(tmp_path, 3, job)
        broker.kill()  # SIGKILL mid-batch
        time.sleep(2)
        broker.start()  # same port, same data directory
        finish(job, tmp_path)
    finally:
        if job.poll() is None:
            os.killpg(job.pid, signal.SIGKILL)
            job.wait()
    appended, duplicates = check_sinks(tmp_path, topic)
    record_property("appended_rows", appended)
    record_property("duplicates", duplicates)
    print(
        f"{N} records: {appended} rows in the at-least-once sink ({duplicates} duplicates), {N} in the idempotent sink"
    )
