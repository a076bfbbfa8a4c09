"""`docker compose up` builds the broker image when it is missing, as a user's first `up`
does: the compose files' own build section (context, Dockerfile, BASE_IMAGE), with pip
fetching from a package index. Here the index is test.sh's wheelhouse served on 127.0.0.1
in the engine's namespace, and the build shares that namespace (network: host), which
holds only loopback; a small override adds just that to the build section."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from docker_helpers import FIGURES, Compose, compose_env, docker, package_index

pytestmark = pytest.mark.timeout(600)

IMAGE = "sharebroker-ci/broker:compose-build"


def build_override(path: Path, services: list[str], index_url: str) -> str:
    build = {"build": {"network": "host", "args": {"PIP_INDEX_URL": index_url}}}
    path.write_text(json.dumps({"services": dict.fromkeys(services, build)}))  # JSON is YAML
    return str(path)


def test_single_up_builds_the_image(tmp_path: Path, compose_project: list[Compose]) -> None:
    docker("image", "rm", "--force", IMAGE)
    with package_index(tmp_path / "index") as index_url:
        override = build_override(tmp_path / "override.yaml", ["broker"], index_url)
        compose = Compose(("compose.single.yaml", override), compose_env(SB_IMAGE=IMAGE))
        compose_project.append(compose)
        started = time.monotonic()
        compose("up", "--detach", "--wait", "--pull", "never", timeout=600)
        FIGURES["compose.single.yaml: first up (builds the image when missing) -> healthy"] = (
            f"{time.monotonic() - started:.0f} s"
        )
    assert docker("image", "inspect", "--format", "{{.Config.User}}", IMAGE).strip() == "sharebroker"
    assert compose.inspect("broker")["State"]["Health"]["Status"] == "healthy"


def test_cluster_build(tmp_path: Path) -> None:
    """compose.yaml's three brokers share one image and one build section."""
    docker("image", "rm", "--force", IMAGE)
    with package_index(tmp_path / "index") as index_url:
        override = build_override(tmp_path / "override.yaml", ["broker-1", "broker-2", "broker-3"], index_url)
        compose = Compose(("compose.yaml", override), compose_env(SB_IMAGE=IMAGE))
        out = compose("build", timeout=600, stderr=True)
    print(out[-3000:])
    assert docker("image", "inspect", "--format", "{{.Config.User}}", IMAGE).strip() == "sharebroker"
    docker("image", "rm", "--force", IMAGE)
