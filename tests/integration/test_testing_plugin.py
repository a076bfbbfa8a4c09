"""The pytest plugin (``broker/testing.py``) in a pytest session of its own."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

# A test run in the inner session: the session broker took the settings from
# SHAREBROKER_TEST_SETTINGS (DescribeConfigs of broker 1, resource type 4).
_INNER = """
from broker.admin.client import AdminClient


def test_settings_reach_the_broker(sharebroker):
    with AdminClient(sharebroker.bootstrap, timeout=10) as admin:
        configs = admin.describe_configs(4, "1", ["num.partitions", "log.retention.ms"])
    assert configs == {"num.partitions": "3", "log.retention.ms": "123456789"}
"""


def test_sharebroker_test_settings_are_applied_to_the_session_broker(tmp_path: Path):
    (tmp_path / "test_inner.py").write_text(_INNER)
    env = dict(os.environ, SHAREBROKER_TEST_SETTINGS="num.partitions=3,log.retention.ms=123456789")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_inner.py"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
