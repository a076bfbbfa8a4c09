"""Helpers of the docker test: commands with a deadline, docker compose with the test's
images, Docker's timestamps."""

from __future__ import annotations

import functools
import http.server
import json
import os
import re
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

DOCKER_DIR = Path(__file__).resolve().parent.parent
REQUIRED_ENV = ("DOCKER_HOST", "SB_DOCKER", "SB_COMPOSE", "SB_IMAGE", "SB_BASE_IMAGE", "SB_ETCD_IMAGE")

# Cluster mode (etcd metadata, replication, named listeners) is in the broker: compose.yaml's
# three brokers (replication factor 3, min ISR 2) are run. SB_CLUSTER_MODE=0 skips that run.
CLUSTER_MODE_LANDED = True
CLUSTER_MODE = os.environ.get("SB_CLUSTER_MODE", "1" if CLUSTER_MODE_LANDED else "0") == "1"

# Figures collected by the tests, printed at the end of the run (image size, start times).
FIGURES: dict[str, str] = {}
# `docker compose config` of each compose file as the test resolved it, printed at the end.
CONFIGS: dict[str, str] = {}


def run(
    argv: Sequence[str], *, timeout: float = 120, check: bool = True, env: dict | None = None, stderr: bool = False
) -> str:
    """Run a command; return its stdout (with stderr too when `stderr`). A failure shows
    the command and both streams."""
    started = time.monotonic()
    proc = subprocess.run(
        list(argv),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT if stderr else subprocess.PIPE,
        text=True,
        timeout=timeout,
        env={**os.environ, **(env or {})},
    )
    took = time.monotonic() - started
    print(f"$ {' '.join(argv)}  [{took:.1f} s, exit {proc.returncode}]")
    if check and proc.returncode != 0:
        raise AssertionError(
            f"{' '.join(argv)} exited {proc.returncode}\n--- stdout\n{(proc.stdout or '')[-4000:]}\n--- stderr\n{(proc.stderr or '')[-4000:]}"
        )
    return proc.stdout


def docker(*args: str, timeout: float = 120, check: bool = True, stderr: bool = False) -> str:
    return run([os.environ["SB_DOCKER"], *args], timeout=timeout, check=check, stderr=stderr)


def json_lines(text: str) -> list[dict]:
    """The JSON objects among `text`'s lines (the image logs JSON; Docker adds nothing)."""
    out = []
    for line in text.splitlines():
        try:
            obj = json.loads(line)
        except ValueError:
            continue
        if isinstance(obj, dict):
            out.append(obj)
    return out


def parse_docker_time(text: str) -> float:
    """Docker's RFC 3339 timestamps (nanoseconds, Z) -> seconds since the epoch."""
    text = text.strip().replace("Z", "+00:00")
    head, _, tail = text.partition(".")
    if tail:
        frac, _, zone = tail.partition("+")
        text = f"{head}.{frac[:6]}+{zone}"
    return datetime.fromisoformat(text).timestamp()


@dataclass
class Compose:
    """`docker compose -f docker/<file>` for one project, with the test's images."""

    files: tuple[str, ...]
    env: dict[str, str] = field(default_factory=dict)

    def __call__(self, *args: str, timeout: float = 180, check: bool = True, stderr: bool = False) -> str:
        argv = [os.environ["SB_COMPOSE"]]
        for f in self.files:
            argv += ["-f", str(DOCKER_DIR / f)]
        return run([*argv, *args], timeout=timeout, check=check, env=self.env, stderr=stderr)

    def config(self) -> dict:
        return json.loads(self("config", "--format", "json"))

    @property
    def project(self) -> str:
        return str(self.config()["name"])

    def container(self, service: str) -> str:
        cid = self("ps", "-aq", service).strip()
        assert cid, f"no container for {service}"
        return cid

    def inspect(self, service: str) -> dict:
        return json.loads(docker("inspect", self.container(service)))[0]

    def up(self, *services: str, timeout: float = 180) -> None:
        # --wait: until every service started is healthy; never pull or build here (the
        # images were built by test.sh and no registry is reachable).
        self("up", "--detach", "--wait", "--pull", "never", "--no-build", *services, timeout=timeout)

    def down(self) -> None:
        project = self.project
        self("down", "--volumes", "--remove-orphans", "--timeout", "30", timeout=120)
        label = f"label=com.docker.compose.project={project}"
        left = {
            "containers": docker("ps", "-aq", "--filter", label).split(),
            "networks": docker("network", "ls", "-q", "--filter", label).split(),
            "volumes": docker("volume", "ls", "-q", "--filter", label).split(),
        }
        assert not any(left.values()), f"compose down -v left {left}"

    def logs(self, service: str) -> list[dict]:
        """The service's JSON log lines (the image logs JSON)."""
        return json_lines(self("logs", "--no-color", "--no-log-prefix", service))


def compose_env(**extra: str) -> dict[str, str]:
    """Variables the compose files read, pointed at the images test.sh built."""
    return {
        "SB_IMAGE": os.environ.get("SB_IMAGE", ""),
        "SB_BASE_IMAGE": os.environ.get("SB_BASE_IMAGE", ""),
        "SB_ETCD_IMAGE": os.environ.get("SB_ETCD_IMAGE", ""),
        **extra,
    }


# In the engine's network namespace (test.sh), where nothing else listens. Fixed, because
# the index URL is a build argument and so part of the build cache's key.
INDEX_PORT = 18765


@contextmanager
def package_index(root: Path) -> Iterator[str]:
    """Serve test.sh's wheelhouse ($SB_WHEELHOUSE) as a PEP 503 "simple" index on
    127.0.0.1 (files written under `root`); yields the index URL for PIP_INDEX_URL."""
    by_project: dict[str, list[str]] = {}
    (root / "files").mkdir(parents=True)
    for whl in sorted(Path(os.environ["SB_WHEELHOUSE"]).glob("*.whl")):
        shutil.copy(whl, root / "files" / whl.name)
        project = re.sub(r"[-_.]+", "-", whl.name.split("-")[0]).lower()
        by_project.setdefault(project, []).append(whl.name)
    for project, files in by_project.items():
        page = root / "simple" / project / "index.html"
        page.parent.mkdir(parents=True)
        links = "".join(f'<a href="../../files/{name}">{name}</a>\n' for name in files)
        page.write_text(f"<!DOCTYPE html>\n<html><body>\n{links}</body></html>\n")

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", INDEX_PORT), functools.partial(Quiet, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, name="package-index", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{INDEX_PORT}/simple/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)
