"""The sharebroker command line and the logging it sets up."""

from __future__ import annotations

import argparse
import io
import json
import logging
import os
import subprocess
import sys
import types
from pathlib import Path

import pytest
import structlog

from broker import cli
from broker.config import BrokerConfig, render_markdown
from broker.logging import configure_logging, get_logger

REPO = Path(__file__).resolve().parents[2]


def run_cli(*args: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("SHAREBROKER_")}
    full_env["PYTHONPATH"] = str(REPO)
    full_env.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "broker", *args],
        capture_output=True,
        text=True,
        env=full_env,
        cwd=cwd or REPO,
        timeout=60,
    )


@pytest.fixture
def restore_logging():
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    for h in list(root.handlers):
        if h not in handlers:
            root.removeHandler(h)
    root.setLevel(level)
    structlog.reset_defaults()


@pytest.fixture
def fake_server(monkeypatch: pytest.MonkeyPatch, restore_logging):
    """Stand-in for broker.server so `serve` can be exercised without a network."""
    calls: list[BrokerConfig] = []
    module = types.ModuleType("broker.server")
    module.run = calls.append  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "broker.server", module)
    for name in [k for k in os.environ if k.startswith("SHAREBROKER_")]:
        monkeypatch.delenv(name)
    return calls


# --------------------------------------------------------------------------- serve


def test_serve_with_unknown_setting_exits_2_with_one_line(tmp_path: Path):
    result = run_cli("serve", "--set", "bogus=1", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == "sharebroker: error: bogus: unknown setting (from --set)\n"
    assert result.stdout == ""


def test_serve_reports_file_and_env_errors_without_traceback(tmp_path: Path):
    props = tmp_path / "server.properties"
    props.write_text("# broker\nnum.partitions=zero\n")
    result = run_cli("serve", "--config", str(props), cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == f"sharebroker: error: num.partitions: 'zero' is not an integer (from {props}:2)\n"

    result = run_cli("serve", env={"SHAREBROKER_MESSAGE_MAX_BYTES": "-5"}, cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == (
        "sharebroker: error: message.max.bytes: -5 is below the minimum 0 (from env SHAREBROKER_MESSAGE_MAX_BYTES)\n"
    )


def test_serve_passes_loaded_config_to_server(fake_server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    props = tmp_path / "server.properties"
    props.write_text("num.partitions=2\nnode.id=5\n")
    monkeypatch.setenv("SHAREBROKER_NUM_PARTITIONS", "3")
    rc = cli.main(["serve", "-c", str(props), "--set", "listeners=PLAINTEXT://127.0.0.1:0", "--log-level", "WARNING"])
    assert rc == 0
    (config,) = fake_server
    assert config.node_id == 5
    assert config.get("num.partitions") == 3
    assert (config.host, config.port) == ("127.0.0.1", 0)
    assert logging.getLogger().level == logging.WARNING


def test_serve_runs_an_async_server_under_trio(monkeypatch: pytest.MonkeyPatch, restore_logging):
    seen: list[BrokerConfig] = []

    async def run(config: BrokerConfig) -> None:
        seen.append(config)

    module = types.ModuleType("broker.server")
    module.run = run  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "broker.server", module)
    assert cli.main(["serve", "--set", "node.id=9"]) == 0
    assert seen[0].node_id == 9


def test_serve_without_a_server_module_says_so(monkeypatch: pytest.MonkeyPatch, restore_logging, capsys):
    monkeypatch.setitem(sys.modules, "broker.server", types.ModuleType("broker.server"))
    assert cli.main(["serve"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("sharebroker: error: the broker server cannot be loaded (")
    assert "Traceback" not in err


def test_serve_ctrl_c_exits_quietly(monkeypatch: pytest.MonkeyPatch, restore_logging):
    def run(config: BrokerConfig) -> None:
        raise KeyboardInterrupt

    module = types.ModuleType("broker.server")
    module.run = run  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "broker.server", module)
    assert cli.main(["serve"]) == 130


def test_log_options_take_defaults_from_environment(fake_server, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("SHAREBROKER_LOG_FORMAT", "json")
    monkeypatch.setenv("SHAREBROKER_LOG_LEVEL", "ERROR")
    args = cli.build_parser().parse_args(["serve"])
    assert (args.log_format, args.log_level) == ("json", "error")
    assert cli.main(["serve"]) == 0  # not mistaken for broker settings


def test_bad_log_format_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as info:
        cli.main(["serve", "--log-format", "xml"])
    assert info.value.code == 2
    assert "invalid choice: 'xml'" in capsys.readouterr().err


# --------------------------------------------------------------------------- other commands


@pytest.mark.parametrize("argv", [["--help"], ["serve", "--help"], ["config-docs", "--help"]])
def test_help_works_for_every_command(argv: list[str], capsys):
    with pytest.raises(SystemExit) as info:
        cli.main(argv)
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: sharebroker")


def test_every_subcommand_is_listed_with_help():
    parser = cli.build_parser()
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    from broker.tools import TOOLS

    assert set(sub.choices) == {"serve", "config-docs", "local-cluster"} | {name.replace("_", "-") for name in TOOLS}
    listed = {c.dest: c.help for c in sub._choices_actions}
    assert set(listed) == set(sub.choices) and all(listed.values())


def test_no_command_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as info:
        cli.main([])
    assert info.value.code == 2
    assert "required: COMMAND" in capsys.readouterr().err


def test_version(capsys):
    with pytest.raises(SystemExit) as info:
        cli.main(["--version"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("sharebroker ") and out.strip() != "sharebroker unknown"


def test_config_docs_prints_the_table(capsys):
    assert cli.main(["config-docs"]) == 0
    assert capsys.readouterr().out == render_markdown()
    assert cli.main(["config-docs", "--summary"]) == 0
    assert capsys.readouterr().out == render_markdown(summary=True)


def test_python_dash_m_broker_help_and_version():
    result = run_cli("--help")
    assert result.returncode == 0 and "serve" in result.stdout and "config-docs" in result.stdout
    result = run_cli("--version")
    assert result.returncode == 0 and result.stdout.startswith("sharebroker ")


def _modules_after(code: str) -> set[str]:
    """The modules loaded after running ``code`` in a fresh interpreter."""
    result = subprocess.run(
        [sys.executable, "-c", code + "\nimport sys\nprint(' '.join(sys.modules))"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return set(result.stdout.split())


def test_importing_the_cli_stays_light():
    """Start-up speed: the CLI module must not pull in trio, structlog or the server."""
    loaded = _modules_after("import broker.cli, broker.config, broker.logging")
    heavy = sorted(m for m in ("trio", "structlog", "broker.server", "broker.protocol") if m in loaded)
    assert ",".join(heavy) == ""


def test_own_commands_do_not_load_the_operator_tools():
    """`serve` (timed to its first answer) and the other built-in commands parse their
    command line without registering the tools' subcommands; any other word does."""
    own = _modules_after("import broker.cli as c\nc.build_parser(tools=False).parse_args(['serve', '--set', 'a=b'])")
    assert not {m for m in own if m.startswith("broker.tools")}
    parser = cli.build_parser()
    assert parser.parse_args(["topics", "--bootstrap-server", "h:1", "--list"]).command == "topics"
    assert cli.OWN_COMMANDS == ("serve", "config-docs", "local-cluster")
    for command in cli.OWN_COMMANDS:
        assert command in cli.build_parser(tools=False)._subparsers._group_actions[0].choices
    with_tools = _modules_after(
        "import broker.cli as c, contextlib, io\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        "    c.main(['topics', '--help'])"
    )
    assert "broker.tools.topics" in with_tools


def test_the_first_api_versions_answer_loads_only_its_handler():
    """ApiVersions is answered while the rest of the broker is imported in a worker
    thread: its handler must not import a coordinator (it would wait for that import)."""
    before = _modules_after("import broker.server")
    after = _modules_after("import broker.server, broker.handlers.api_18_api_versions")
    assert after - before == {"broker.handlers.api_18_api_versions"}


# --------------------------------------------------------------------------- logging


def test_json_logs_are_one_object_per_line_for_structlog_and_stdlib(restore_logging):
    buf = io.StringIO()
    configure_logging("json", "info", stream=buf)
    get_logger("broker.test").info("listening", port=9092)
    get_logger("broker.test").debug("dropped")
    logging.getLogger("other.lib").warning("from %s", "stdlib")
    logging.getLogger("other.lib").debug("dropped too")
    lines = [json.loads(line) for line in buf.getvalue().splitlines()]
    assert [(x["event"], x["level"], x["logger"]) for x in lines] == [
        ("listening", "info", "broker.test"),
        ("from stdlib", "warning", "other.lib"),
    ]
    assert lines[0]["port"] == 9092
    assert lines[0]["timestamp"].endswith("Z") and "T" in lines[0]["timestamp"]


def test_console_logs_and_plain_tracebacks(restore_logging):
    buf = io.StringIO()
    configure_logging("console", "debug", stream=buf)
    log = get_logger("broker.test")
    log.debug("shown", n=1)
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        log.exception("failed")
    text = buf.getvalue()
    assert "shown" in text and "[broker.test]" in text and "n=1" in text
    assert "RuntimeError: boom" in text
    assert "\x1b[" not in text  # no colours when not writing to a terminal


def test_reconfiguring_replaces_the_handler(restore_logging):
    first, second = io.StringIO(), io.StringIO()
    configure_logging("json", "info", stream=first)
    configure_logging("json", "info", stream=second)
    logging.getLogger("x").warning("once")
    assert first.getvalue() == ""
    assert second.getvalue().count("once") == 1


def test_logging_rejects_unknown_format_and_level():
    with pytest.raises(ValueError):
        configure_logging("xml")
    with pytest.raises(ValueError):
        configure_logging("json", "loud")
