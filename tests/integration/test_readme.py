"""Every code block in README.md, run the way a reader would run it.

The blocks are found by parsing README.md, so a block added later is picked up
(and fails until this module knows how to run its language). A block preceded by
``<!-- not run: reason -->`` is reported as skipped with that reason: only for a
block that truly cannot be run.

- ``console``: a session against one broker started with the pytest plugin's
  ``sharebroker_factory`` (metrics on), each ``$`` command run in bash and its
  output compared with the README's after normalising what must vary
  (throughput and latency figures, random payloads, ports). Run first, on the
  fresh broker, since its metrics output counts from zero.
- ``python``: executed in README order against the same broker, after the
  console session's topics and groups are deleted. The README's addresses are
  the only text replaced; names a block leaves to the reader (``handle``,
  ``run_my_app``) are defined here and must have been called; ``print(...)  # X``
  must print ``X``; a ``test_*`` function a block defines is called with its
  fixtures.
- ``sh``: ``make TARGET`` is checked by a dry run (it cannot run itself here);
  a command ending in ``sharebroker serve`` runs verbatim in a temporary copy of
  the tree, offline (pip gets ``PIP_NO_INDEX`` and the wheelhouse ``make venv``
  downloads), until the broker answers ApiVersions; anything else runs to
  completion in that copy.
"""

from __future__ import annotations

import ast
import contextlib
import difflib
import inspect
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from confluent_kafka import Producer

import broker.testing
from broker.admin.client import AdminClient
from broker.config import SETTINGS_BY_KEY
from broker.protocol.messages.api_versions_request import ApiVersionsRequest
from broker.testing import BrokerProcess
from tests.integration.wire import WireClient

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"

# The addresses the README uses, replaced with the test broker's.
README_BOOTSTRAP = "127.0.0.1:9092"
README_METRICS = "127.0.0.1:9404"

NOT_RUN = re.compile(r"<!--\s*not run:\s*(.+?)\s*-->")
FENCE = re.compile(r"^```\s*([\w+-]*)\s*$")

# Bounds: a README command that takes longer than this is broken, not slow.
COMMAND_TIMEOUT_S = 60.0
# The venv + offline editable install + first ApiVersions (about 30 s on a loaded 2-core VM).
SERVE_TIMEOUT_S = 120.0


@dataclass(frozen=True)
class Block:
    lang: str
    text: str
    line: int  # README line of the first line of the block's text
    not_run: str | None

    @property
    def id(self) -> str:
        return f"{self.lang or 'plain'}-line{self.line}"


def parse_blocks(text: str) -> list[Block]:
    """The fenced code blocks of a Markdown text, with their language and start line."""
    blocks: list[Block] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        prev = next((lines[j] for j in range(i - 1, -1, -1) if lines[j].strip()), "")
        marker = NOT_RUN.search(prev)
        start = i + 1
        end = next((j for j in range(start, len(lines)) if lines[j].rstrip() == "```"), None)
        if end is None:
            raise ValueError(f"README.md line {i + 1}: code block never closed")
        blocks.append(
            Block(m.group(1), "\n".join(lines[start:end]) + "\n", start + 1, marker.group(1) if marker else None)
        )
        i = end + 1
    return blocks


BLOCKS = parse_blocks(README.read_text())
# The console session first (fresh broker: its metrics count from zero), then the
# Python blocks in README order, then the shell blocks (which start their own broker).
PHASES = {"console": 0, "python": 1, "sh": 2}
ORDERED = sorted(BLOCKS, key=lambda b: PHASES.get(b.lang, len(PHASES)))


def test_the_readme_has_blocks_of_every_kind_run_here():
    assert {b.lang for b in BLOCKS} >= set(PHASES), "the parser lost blocks, or the README lost a kind of block"


# ---------------------------------------------------------------------------------- session


class ReadmeSession:
    """The broker every block runs against and what has run so far."""

    def __init__(self, broker: BrokerProcess, metrics: str, tmp: Path) -> None:
        self.broker = broker
        self.subs = {README_BOOTSTRAP: broker.bootstrap, README_METRICS: metrics}
        self.tmp = tmp
        self.phase: str | None = None
        self.python_attempted: set[int] = set()
        self._tree: Path | None = None

    def substitute(self, text: str) -> str:
        for old, new in self.subs.items():
            text = text.replace(old, new)
        return text

    def enter_phase(self, lang: str) -> None:
        """A console block starts from an empty broker; so do the Python blocks, together."""
        if lang == "console" or self.phase != lang:
            if lang in ("console", "python"):
                self.reset_broker()
            self.phase = lang

    def reset_broker(self) -> None:
        with AdminClient(self.broker.bootstrap) as admin:
            topics = [t for t in admin.topic_partitions() if not t.startswith("__")]
            if topics:
                admin.delete_topics(topics)
            groups = [g.group_id for g in admin.list_groups()]
            if groups:
                failed = {g: e for g, e in admin.delete_groups(groups).items() if e is not None}
                assert not failed, f"could not delete groups left by earlier blocks: {failed}"

    def tree(self) -> Path:
        """A copy of the project's files (what git tracks, plus new files), made once."""
        if self._tree is None:
            listed = subprocess.run(
                ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                cwd=ROOT,
                check=True,
                capture_output=True,
            ).stdout.decode()
            tree = self.tmp / "tree"
            for rel in filter(None, listed.split("\0")):
                src = ROOT / rel
                if src.is_file():
                    (tree / rel).parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(src, tree / rel)
            self._tree = tree
        return self._tree


def _metrics_address(broker: BrokerProcess) -> str:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        for line in broker.log_path.read_text(errors="replace").splitlines():
            with contextlib.suppress(ValueError):
                event = json.loads(line)
                if isinstance(event, dict) and event.get("event") == "metrics_listening":
                    return f"127.0.0.1:{event['port']}"
        time.sleep(0.05)
    raise AssertionError(f"the broker did not log metrics_listening:\n{broker.log_tail()}")


@pytest.fixture(scope="module")
def session(sharebroker_factory, tmp_path_factory) -> Iterator[ReadmeSession]:
    broker = sharebroker_factory(settings={"metrics.listen": "127.0.0.1:0"})
    tmp = tmp_path_factory.mktemp("readme")
    yield ReadmeSession(broker, _metrics_address(broker), tmp)
    broker.stop()
    shutil.rmtree(tmp, ignore_errors=True)  # the tree copy and its venv


@pytest.mark.parametrize("block", ORDERED, ids=[b.id for b in ORDERED])
def test_readme_block(block: Block, session: ReadmeSession, request: pytest.FixtureRequest) -> None:
    if block.not_run:
        pytest.skip(f"README.md line {block.line}: not run: {block.not_run}")
    runner = RUNNERS.get(block.lang)
    if runner is None:
        pytest.fail(
            f"README.md line {block.line}: no runner for ```{block.lang} blocks; add one to "
            f"{Path(__file__).name} or mark the block <!-- not run: reason --> if it truly cannot run"
        )
    session.enter_phase(block.lang)
    runner(block, session, request)


# ---------------------------------------------------------------------------------- python


class ReaderNames:
    """Names the README leaves to the reader, each doing something real and counting its calls."""

    def __init__(self) -> None:
        self.calls: dict[str, list[Any]] = {"handle": [], "run_my_app": []}

    def handle(self, value: bytes) -> bool:
        self.calls["handle"].append(value)
        return True

    def run_my_app(self, bootstrap_servers: str) -> None:
        self.calls["run_my_app"].append(bootstrap_servers)
        producer = Producer({"bootstrap.servers": bootstrap_servers, "acks": "all"})
        delivered: list[Any] = []
        producer.produce("readme-app", b"ok", on_delivery=lambda err, msg: delivered.append(err))
        assert producer.flush(30) == 0 and delivered == [None], delivered

    def namespace(self) -> dict[str, Callable[..., Any]]:
        return {name: getattr(self, name) for name in self.calls}


EXPECTED_PRINT = re.compile(r"^\s*print\(.*\)\s*#\s*(.*\S)\s*$")


def run_python(block: Block, session: ReadmeSession, request: pytest.FixtureRequest) -> None:
    # A Python block may build on the ones before it (the share-group example reads the
    # quickstart's record): run those first when this block was selected on its own.
    for earlier in [b for b in BLOCKS if b.lang == "python" and b.line < block.line and not b.not_run]:
        if earlier.line not in session.python_attempted:
            _exec_python(earlier, session, request)
    _exec_python(block, session, request)


def _exec_python(block: Block, session: ReadmeSession, request: pytest.FixtureRequest) -> None:
    session.python_attempted.add(block.line)
    source = session.substitute(block.text)
    # Padded so that tracebacks point at README.md's own line numbers.
    code = compile("\n" * (block.line - 1) + source, str(README), "exec")
    reader = ReaderNames()
    namespace: dict[str, Any] = {"__name__": "readme", **reader.namespace()}
    before = set(namespace)
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            exec(code, namespace)
            for name in sorted(set(namespace) - before):
                if name.startswith("test_") and callable(namespace[name]):
                    _call_with_fixtures(namespace[name], session, request)
    finally:
        # Drop the block's clients now, even when a failure's traceback keeps the namespace.
        namespace.clear()
    printed = out.getvalue().splitlines()
    expected = [m.group(1) for line in block.text.splitlines() if (m := EXPECTED_PRINT.match(line))]
    it = iter(printed)
    missing = [e for e in expected if not any(p == e for p in it)]
    assert not missing, f"README.md line {block.line}: expected {expected} in the printed lines {printed}"
    used = {n.id for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Name)} & set(reader.calls)
    for name in sorted(used):
        assert reader.calls[name], f"README.md line {block.line}: the block never called {name}()"


def _call_with_fixtures(func: Callable[..., Any], session: ReadmeSession, request: pytest.FixtureRequest) -> None:
    """Call a test function a block defines, as pytest would, with the plugin's fixtures
    resolved to this module's broker (one broker for every block)."""
    plugin = request.config.pluginmanager.get_plugin("sharebroker")
    assert plugin is broker.testing, "the sharebroker pytest plugin is not registered by the installed package"
    ours = {"sharebroker": session.broker, "sharebroker_bootstrap": session.broker.bootstrap}
    kwargs = {}
    for name in inspect.signature(func).parameters:
        if name in ours:
            assert hasattr(plugin, name), f"the plugin has no fixture {name!r}"
            kwargs[name] = ours[name]
        else:
            kwargs[name] = request.getfixturevalue(name)
    func(**kwargs)


# ---------------------------------------------------------------------------------- console

NORMALISE = [
    # Throughput and latency figures.
    (re.compile(r"\d+(?:\.\d+)? (records/sec|MB/sec|ms)\b"), r"<N> \1"),
    # Payloads of random letters (producer-perf's).
    (re.compile(r"\b[A-Z]{20,}\b"), "<RANDOM>"),
    # Ports.
    (re.compile(r"\b127\.0\.0\.1:\d+\b"), "127.0.0.1:<PORT>"),
]


def normalise(line: str) -> str:
    for pattern, repl in NORMALISE:
        line = pattern.sub(repl, line)
    return line.rstrip()


def parse_session(text: str) -> list[tuple[str, list[str]]]:
    """``$ command`` (with ``\\`` continuations) and the output lines that follow it."""
    steps: list[tuple[str, list[str]]] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        if not lines[i].startswith("$ "):
            raise ValueError(f"console block: output before any command: {lines[i]!r}")
        command = lines[i][2:]
        while command.endswith("\\") and i + 1 < len(lines):
            i += 1
            command += "\n" + lines[i]
        i += 1
        output = []
        while i < len(lines) and not lines[i].startswith("$ "):
            output.append(lines[i])
            i += 1
        steps.append((command, output))
    return steps


def _tool_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    return env


def run_console(block: Block, session: ReadmeSession, request: pytest.FixtureRequest) -> None:
    cwd = session.tmp / f"console-{block.line}"
    cwd.mkdir(exist_ok=True)
    for command, expected in parse_session(block.text):
        result = subprocess.run(
            ["bash", "-o", "pipefail", "-c", session.substitute(command)],
            cwd=cwd,
            env=_tool_env(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=COMMAND_TIMEOUT_S,
        )
        got = result.stdout.splitlines()
        want, have = [normalise(x) for x in expected], [normalise(x) for x in got]
        diff = "\n".join(difflib.unified_diff(want, have, "README.md", "actual", lineterm=""))
        assert result.returncode == 0 and want == have, (
            f"README.md line {block.line}: $ {command}\nexit status {result.returncode}\n{diff}"
        )


# ---------------------------------------------------------------------------------- sh


def shell_commands(text: str) -> Iterator[str]:
    """The commands of a shell block: comments and blank lines dropped, continuations joined."""
    pending = ""
    for line in text.splitlines():
        stripped = line.strip()
        if not pending and (not stripped or stripped.startswith("#")):
            continue
        pending += line + "\n"
        if not stripped.endswith("\\"):
            yield pending.strip()
            pending = ""
    if pending:
        yield pending.strip()


def _wheelhouse() -> Path:
    wheelhouse = Path(sys.prefix) / "wheelhouse"
    if not (wheelhouse / ".downloaded").exists():
        pytest.fail(f"no offline wheels in {wheelhouse}: run `make venv` (it downloads them) or use `make test`")
    return wheelhouse


def _offline_env(session: ReadmeSession) -> dict[str, str]:
    """The reader's environment, minus the network: pip installs from the wheelhouse only.
    ``python3`` is the interpreter running these tests (the one the wheels were fetched for)."""
    shim = session.tmp / "bin"
    shim.mkdir(exist_ok=True)
    if not (shim / "python3").exists():
        (shim / "python3").symlink_to(sys.executable)
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME")}
    env.update(
        PATH=os.pathsep.join([str(shim), env.get("PATH", "")]),
        PIP_NO_INDEX="1",
        PIP_FIND_LINKS=str(_wheelhouse()),
        PIP_CONFIG_FILE=os.devnull,
        PIP_DISABLE_PIP_VERSION_CHECK="1",
        SHAREBROKER_LOG_FORMAT="json",
        # The README's address, 127.0.0.1:9092 (the default, checked below), on a free port.
        SHAREBROKER_LISTENERS="PLAINTEXT://127.0.0.1:0",
    )
    return env


def _check_make(block: Block, command: str) -> None:
    targets = command.split()[1:]
    assert targets and all(re.fullmatch(r"[\w.-]+", t) for t in targets), f"README.md line {block.line}: {command}"
    # A dry run with every prerequisite treated as stale: the whole recipe, nothing executed.
    dry = subprocess.run(
        ["make", "-n", "-B", *targets], cwd=ROOT, capture_output=True, text=True, timeout=COMMAND_TIMEOUT_S
    )
    assert dry.returncode == 0 and dry.stdout.strip(), f"README.md line {block.line}: {command}:\n{dry.stderr}"
    if targets == ["test"]:
        # What the README says of it: creates .venv with the development extras and runs
        # the default suite (this module is part of it).
        assert re.search(r"-m venv \.venv\b", dry.stdout), dry.stdout
        assert "pip install -q -e '.[dev]'" in dry.stdout, dry.stdout
        pytest_line = next(line for line in dry.stdout.splitlines() if "-m pytest" in line)
        # The heavier suites have make targets of their own; the default one leaves them out.
        marks = re.search(r'-m "([^"]*)"', pytest_line)
        assert marks, pytest_line
        excluded = set(re.findall(r"not (\w+)", marks.group(1)))
        assert {"slow", "compat", "cluster", "spark", "ui"} <= excluded, pytest_line


def _run_serve(block: Block, command: str, session: ReadmeSession) -> None:
    default = SETTINGS_BY_KEY["listeners"].default
    assert default == (f"PLAINTEXT://{README_BOOTSTRAP}",), f"the README says the broker listens on {README_BOOTSTRAP}"
    tree = session.tree()
    log_path = session.tmp / f"serve-{block.line}.log"
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            ["bash", "-c", command],
            cwd=tree,
            env=_offline_env(session),
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: stopped as one below
        )
    try:
        event = _wait_listening(proc, log_path)
        with WireClient(f"127.0.0.1:{event['port']}") as client:
            answer = client.request(ApiVersionsRequest(client_software_name="readme", client_software_version="1"), 3)
        assert answer.error_code == 0 and answer.api_keys, answer
        # "data in ./data"
        assert event["data_dir"] == "data" and (tree / "data").is_dir(), event
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def _wait_listening(proc: subprocess.Popen, log_path: Path) -> dict[str, Any]:
    """The broker's ``listening`` event (its port) merged with its ``ready`` one (data dir)."""
    deadline = time.monotonic() + SERVE_TIMEOUT_S
    while time.monotonic() < deadline:
        seen: dict[str, Any] = {}
        for line in log_path.read_text(errors="replace").splitlines():
            with contextlib.suppress(ValueError):
                event = json.loads(line)
                if isinstance(event, dict) and event.get("event") in ("listening", "ready"):
                    seen.update(event)
                    if event["event"] == "ready" and "port" in seen:
                        return seen
        if proc.poll() is not None:
            break
        time.sleep(0.1)
    tail = "\n".join(log_path.read_text(errors="replace").splitlines()[-30:])
    raise AssertionError(f"no broker listening within {SERVE_TIMEOUT_S} s (exit {proc.poll()}):\n{tail}")


def run_sh(block: Block, session: ReadmeSession, request: pytest.FixtureRequest) -> None:
    for command in shell_commands(block.text):
        if re.match(r"make(\s|$)", command):
            _check_make(block, command)
        elif re.search(r"\bsharebroker serve\s*$", command):
            _run_serve(block, command, session)
        else:
            result = subprocess.run(
                ["bash", "-o", "pipefail", "-c", command],
                cwd=session.tree(),
                env=_offline_env(session),
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                timeout=COMMAND_TIMEOUT_S,
            )
            assert result.returncode == 0, f"README.md line {block.line}: {command}\n{result.stdout}{result.stderr}"


RUNNERS: dict[str, Callable[[Block, ReadmeSession, pytest.FixtureRequest], None]] = {
    "console": run_console,
    "python": run_python,
    "sh": run_sh,
}
