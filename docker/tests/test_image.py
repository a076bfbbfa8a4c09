"""The broker image on its own: size, user, init, health check, volume, and how long the
broker takes from container start to listening and to healthy."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest
from docker_helpers import FIGURES, docker, json_lines, package_index, parse_docker_time, run

pytestmark = pytest.mark.timeout(300)


def image_config(image: str) -> dict:
    return json.loads(docker("image", "inspect", image))[0]


def test_image_shape() -> None:
    image = os.environ["SB_IMAGE"]
    info = image_config(image)
    base = image_config(os.environ["SB_BASE_IMAGE"])
    size, base_size = info["Size"], base["Size"]
    FIGURES["image size"] = (
        f"{size / 1e6:.1f} MB ({base_size / 1e6:.1f} MB base + {(size - base_size) / 1e6:.1f} MB broker, "
        f"{len(info['RootFS']['Layers'])} layers)"
    )
    config = info["Config"]
    assert config["User"] == "sharebroker"
    assert config["Entrypoint"] == ["/opt/sharebroker/bin/dumb-init", "--"]
    assert config["Cmd"] == ["sharebroker", "serve"]
    assert "/var/lib/sharebroker" in (config.get("Volumes") or {})
    assert config["Healthcheck"]["Test"] == ["CMD", "/opt/sharebroker/bin/python", "/opt/sharebroker/healthcheck.py"]
    # The broker's part stays small: the venv with its dependencies (cryptography alone is
    # about 16 MB, the broker's own modules with their bytecode about 12 MB), no build
    # tools, no pip. The bound leaves room for the broker to grow, not for a toolchain.
    assert size - base_size < 60e6, f"the broker adds {(size - base_size) / 1e6:.1f} MB to the base image"

    run = ("run", "--rm", "--network", "none")
    assert docker(*run, image, "id", "-u").strip() == "10001"
    assert docker(*run, image, "sharebroker", "--version").startswith("sharebroker ")
    for tool in ("topics", "share-groups", "console-share-consumer", "producer-perf"):
        assert "usage: sharebroker" in docker(*run, image, "sharebroker", tool, "--help")
    probe = docker(*run, "--entrypoint", "python", image, "-c", "import importlib.util as u; print(u.find_spec('pip'))")
    assert probe.strip() == "None"


def _wait_health(cid: str, want: str, timeout: float) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        state = json.loads(docker("inspect", cid))[0]["State"]
        status = (state.get("Health") or {}).get("Status")
        if status == want:
            return state
        assert state["Status"] == "running", f"container {state['Status']}: {docker('logs', cid)}"
        assert time.monotonic() < deadline, f"not {want} within {timeout} s (health {status})"
        time.sleep(0.2)


def _json_logs(cid: str) -> list[dict]:
    return json_lines(docker("logs", cid, stderr=True))


def test_start_to_healthy_and_signals() -> None:
    """A broker container alone: time from container start to the `listening` log line and
    to the first passing health check (probed every second here; the image's default is
    every 5 s), then `docker stop` must reach the broker through dumb-init (a clean stop,
    exit status 0, well before Docker's SIGKILL)."""
    cid = docker("run", "--detach", "--network", "none", "--health-interval", "1s", os.environ["SB_IMAGE"]).strip()
    try:
        state = _wait_health(cid, "healthy", 60)
        started = parse_docker_time(state["StartedAt"])
        listening = next(e for e in _json_logs(cid) if e.get("event") == "listening")
        to_listening = parse_docker_time(listening["timestamp"]) - started
        first_ok = next(h for h in state["Health"]["Log"] if h["ExitCode"] == 0)
        to_healthy = parse_docker_time(first_ok["End"]) - started
        probe_s = parse_docker_time(first_ok["End"]) - parse_docker_time(first_ok["Start"])
        assert first_ok["Output"].startswith("healthy: 127.0.0.1:9092: ApiVersions v3 answered"), first_ok["Output"]
        FIGURES["broker container start -> listening"] = f"{to_listening * 1000:.0f} ms"
        FIGURES["broker container start -> healthy (1 s probe interval)"] = (
            f"{to_healthy:.2f} s (one ApiVersions probe: {probe_s * 1000:.0f} ms)"
        )

        stop_started = time.monotonic()
        docker("stop", "--time", "20", cid, timeout=60)
        stop_s = time.monotonic() - stop_started
        final = json.loads(docker("inspect", cid))[0]["State"]
        events = [e.get("event") for e in _json_logs(cid)]
        assert "shutting_down" in events and events[-1] == "stopped", events[-5:]
        assert final["ExitCode"] == 0, final
        assert stop_s < 15, f"docker stop took {stop_s:.1f} s: SIGTERM did not reach the broker"
        FIGURES["docker stop (SIGTERM through dumb-init) -> exited"] = f"{stop_s:.2f} s, exit status 0"
    finally:
        docker("rm", "--force", "--volumes", cid, check=False)


def test_build_from_a_package_index(tmp_path: Path) -> None:
    """The Dockerfile as a user with a package index builds it: no docker/wheelhouse in the
    context, no PIP_NO_INDEX; the first stage's pip fetches every wheel from an index.
    The index is test.sh's wheelhouse served on 127.0.0.1 in the engine's namespace, and
    the build shares that namespace (--network=host), which holds only loopback."""
    root = Path(__file__).resolve().parents[2]
    context = tmp_path / "context"
    for rel in (
        "pyproject.toml",
        "README.md",
        "docker/Dockerfile",
        "docker/Dockerfile.dockerignore",
        "docker/healthcheck.py",
    ):
        (context / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(root / rel, context / rel)
    shutil.copytree(root / "broker", context / "broker", ignore=shutil.ignore_patterns("__pycache__"))
    image = "sharebroker-ci/broker:from-index"
    with package_index(tmp_path / "index") as index_url:
        started = time.monotonic()
        run(
            [os.environ["SB_DOCKER"], "build", "--network=host", "--build-arg", f"BASE_IMAGE={os.environ['SB_BASE_IMAGE']}",
             "--build-arg", f"PIP_INDEX_URL={index_url}", "-f", str(context / "docker/Dockerfile"), "-t", image, str(context)],
            timeout=600, env={"DOCKER_BUILDKIT": "1"}, stderr=True,
        )  # fmt: skip
        FIGURES["image build from a package index (no wheelhouse)"] = f"{time.monotonic() - started:.0f} s"
        assert docker("run", "--rm", "--network", "none", image, "sharebroker", "--version").startswith("sharebroker ")
        built, reference = image_config(image), image_config(os.environ["SB_IMAGE"])
        assert abs(built["Size"] - reference["Size"]) < 1e6, (built["Size"], reference["Size"])
    docker("image", "rm", "--force", image)
