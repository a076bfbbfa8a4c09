"""kcat (Debian's package, an older librdkafka): -L, -P, -C."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.integration.clients import create_topic

KCAT = shutil.which("kcat") or shutil.which("kafkacat")
pytestmark = pytest.mark.skipif(KCAT is None and not __import__("os").environ.get("CI"), reason="kcat not installed")


def kcat(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    if KCAT is None:
        pytest.fail("kcat is required in CI (.ci/run installs it)")
    return subprocess.run([KCAT, *args], input=stdin, capture_output=True, timeout=60, check=True)


def test_kcat_metadata(sharebroker_bootstrap, topic_name):
    create_topic(sharebroker_bootstrap, topic_name, partitions=2)
    out = kcat("-b", sharebroker_bootstrap, "-L", "-t", topic_name).stdout.decode()
    assert f'topic "{topic_name}" with 2 partitions' in out
    assert "1 brokers" in out


def test_kcat_produce_consume(sharebroker_bootstrap, topic_name):
    create_topic(sharebroker_bootstrap, topic_name)
    lines = [f"line {i}" for i in range(50)]
    kcat("-b", sharebroker_bootstrap, "-P", "-t", topic_name, "-p", "0", stdin=("\n".join(lines) + "\n").encode())
    out = kcat(
        "-b", sharebroker_bootstrap, "-C", "-t", topic_name, "-p", "0", "-o", "beginning", "-e", "-q", "-f", "%o %s\n"
    )
    assert out.stdout.decode().splitlines() == [f"{i} line {i}" for i in range(50)]
