"""The ``sharebroker`` command line (also ``python -m broker``).

    sharebroker serve [--config FILE] [--set KEY=VALUE ...] [--metrics-listen HOST:PORT]
                      [--log-format console|json] [--log-level LEVEL]
    sharebroker config-docs [--summary]
    sharebroker --version

Start-up time matters (the broker should answer ApiVersions well within 0.3 s of the
process starting), so this module imports only argparse at the top; the config table,
structlog and trio are loaded by the command that needs them.
"""

from __future__ import annotations

import argparse
import atexit
import os
import sys
from collections.abc import Sequence

PROG = "sharebroker"

# Exit statuses: 0 ok, 1 the broker failed at run time, 2 bad usage or configuration
# (argparse's own convention), 130 interrupted by Ctrl-C.
EXIT_OK, EXIT_FAILURE, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130

LOG_FORMATS = ("console", "json")
LOG_LEVELS = ("debug", "info", "warning", "error", "critical")


def _version() -> str:
    from importlib import metadata

    try:
        return metadata.version("sharebroker")
    except metadata.PackageNotFoundError:
        pass
    # Running from a source checkout that was never installed.
    from pathlib import Path

    pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
    try:
        import tomllib

        return str(tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["version"])
    except (OSError, KeyError, ValueError):
        return "unknown"


class _VersionAction(argparse.Action):
    """``--version`` that looks the version up only when asked."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS, **kw: object) -> None:
        super().__init__(
            option_strings, dest=dest, default=argparse.SUPPRESS, nargs=0, help="print the version and exit"
        )

    def __call__(self, parser: argparse.ArgumentParser, *args: object, **kw: object) -> None:
        print(f"{PROG} {_version()}")
        parser.exit(EXIT_OK)


def _choice_from_env(var: str, choices: Sequence[str], fallback: str) -> str:
    value = os.environ.get(var, "").strip().lower()
    return value if value in choices else fallback


# The commands defined here; any other command is an operator tool (broker.tools).
OWN_COMMANDS = ("serve", "config-docs", "local-cluster")


def build_parser(tools: bool = True) -> argparse.ArgumentParser:
    """The whole command line; ``tools=False`` leaves out the operator tools' subcommands
    (used when the command line names one of OWN_COMMANDS, which then cannot reach them)."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="A Kafka-compatible broker with KIP-932 share groups.",
    )
    parser.add_argument("--version", action=_VersionAction)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    serve = sub.add_parser(
        "serve",
        help="run the broker",
        description="Run the broker until interrupted. Settings come from the built-in "
        "defaults, then --config, then SHAREBROKER_* environment variables, then --set "
        "(see docs/CONFIG.md or `sharebroker config-docs`).",
    )
    serve.add_argument("-c", "--config", metavar="FILE", help="properties file in Kafka's server.properties format")
    serve.add_argument(
        "--set",
        dest="overrides",
        metavar="KEY=VALUE",
        action="append",
        default=[],
        help="override one setting (repeatable), e.g. --set listeners=PLAINTEXT://127.0.0.1:0",
    )
    serve.add_argument(
        "--metrics-listen",
        metavar="HOST:PORT",
        help="serve Prometheus metrics at http://HOST:PORT/metrics (sets metrics.listen; port 0 picks a free port)",
    )
    serve.add_argument(
        "--log-format",
        choices=LOG_FORMATS,
        default=_choice_from_env("SHAREBROKER_LOG_FORMAT", LOG_FORMATS, "console"),
        help="console lines for people or JSON lines for machines (default: $SHAREBROKER_LOG_FORMAT or console)",
    )
    serve.add_argument(
        "--log-level",
        type=str.lower,
        choices=LOG_LEVELS,
        default=_choice_from_env("SHAREBROKER_LOG_LEVEL", LOG_LEVELS, "info"),
        help="lowest level logged (default: $SHAREBROKER_LOG_LEVEL or info)",
    )
    serve.set_defaults(func=_cmd_serve)

    docs = sub.add_parser(
        "config-docs",
        help="print the settings table as Markdown",
        description="Print every supported setting with its type, default, valid values "
        "and meaning as Markdown (this is how docs/CONFIG.md is made).",
    )
    docs.add_argument(
        "--summary", action="store_true", help="only the most used settings, as a short table for the README"
    )
    docs.set_defaults(func=_cmd_config_docs)

    lc = sub.add_parser(
        "local-cluster",
        help="run etcd and N brokers on loopback (a development cluster)",
        description="Start etcd (the etcd binary on PATH, unless --etcd-endpoints names a running "
        "one) and N brokers on 127.0.0.1 with free ports, print the bootstrap servers, and stop "
        "them all on Ctrl-C.",
    )
    lc.add_argument("--brokers", type=int, default=3, metavar="N", help="number of brokers (default 3)")
    lc.add_argument("--etcd-endpoints", metavar="URLS", help="use this etcd (comma-separated) instead of starting one")
    lc.add_argument(
        "--data-dir", metavar="DIR", help="keep data here (default: a temporary directory, removed on exit)"
    )
    lc.add_argument(
        "--set", dest="overrides", metavar="KEY=VALUE", action="append", default=[], help="a setting for every broker"
    )
    lc.set_defaults(func=_cmd_local_cluster)

    if tools:
        from broker.tools import register_all

        register_all(sub)
    return parser


def _error(message: str) -> None:
    print(f"{PROG}: error: {message}", file=sys.stderr)


def _cmd_serve(args: argparse.Namespace) -> int:
    from broker.config import ConfigError, load_config

    try:
        overrides = list(args.overrides)
        if args.metrics_listen is not None:
            overrides.append(f"metrics.listen={args.metrics_listen}")
        config = load_config(args.config, overrides)
    except ConfigError as e:
        _error(str(e))
        return EXIT_USAGE

    from broker.logging import request_logging

    # Applied by the server once its listener is bound (structlog off the start-up path).
    request_logging(args.log_format, args.log_level)

    try:
        from broker.server import run
    except ImportError as e:
        _error(f"the broker server cannot be loaded ({e})")
        return EXIT_FAILURE

    try:
        import inspect

        if inspect.iscoroutinefunction(run):
            import trio

            trio.run(run, config)
        else:
            run(config)
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except OSError as e:  # e.g. the listener's address is in use
        _error(f"cannot serve: {e}")
        return EXIT_FAILURE
    return EXIT_OK


def _cmd_local_cluster(args: argparse.Namespace) -> int:
    import signal
    from pathlib import Path

    from broker.localcluster import LocalCluster

    if args.brokers < 1:
        _error("--brokers must be at least 1")
        return EXIT_USAGE
    settings = {}
    for item in args.overrides:
        key, sep, value = item.partition("=")
        if not sep:
            _error(f"--set {item!r} is not KEY=VALUE")
            return EXIT_USAGE
        settings[key.strip()] = value
    endpoints = [e for e in (args.etcd_endpoints or "").split(",") if e]
    cluster = LocalCluster(
        args.brokers,
        Path(args.data_dir) if args.data_dir else None,
        etcd_endpoints=endpoints or None,
        settings=settings,
        die_with_parent=True,  # gone with this process, however it ends (even kill -9)
    )
    stopping = False

    def on_signal(signum: int, frame: object) -> None:
        nonlocal stopping
        if stopping:
            # A second Ctrl-C (or SIGTERM, SIGHUP): no more waiting, kill them all now.
            cluster.send_kill()
            print("killed", flush=True)
            return
        stopping = True
        raise KeyboardInterrupt

    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, on_signal)
    try:
        try:
            cluster.start()
        except RuntimeError as exc:
            _error(str(exc))
            return EXIT_FAILURE
        etcd = ",".join(cluster.etcd_endpoints)
        print(f"etcd: {etcd}", flush=True)
        for b in cluster.brokers:
            print(f"broker {b.settings['node.id']}: {b.bootstrap} (data {b.data_dir}, log {b.log_path})", flush=True)
        print(f"bootstrap.servers={cluster.bootstrap}", flush=True)
        print("Ctrl-C stops the cluster (a second Ctrl-C kills it).", flush=True)
        while True:
            signal.pause()
    except KeyboardInterrupt:
        pass
    finally:
        stopping = True
        print("stopping", flush=True)
        cluster.stop()
        # Nothing is left to stop or kill: a Ctrl-C that comes now (the terminal's second
        # one, racing a quick stop) must not end the exiting interpreter by SIGINT.
        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(signum, signal.SIG_IGN)
        print("stopped", flush=True)
    return EXIT_OK


def _cmd_config_docs(args: argparse.Namespace) -> int:
    from broker.config import render_markdown

    sys.stdout.write(render_markdown(summary=args.summary))
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``sharebroker`` console script; returns the exit status."""
    words = sys.argv[1:] if argv is None else list(argv)
    # Registering the ten tools' subcommands costs ~15-20 ms; `serve` is timed to its
    # first answer, so it does not pay for commands it cannot be combined with.
    parser = build_parser(tools=not words or words[0] not in OWN_COMMANDS)
    args = parser.parse_args(words)
    code = int(args.func(args))
    if argv is None and args.func is _cmd_serve and code == EXIT_OK:
        # The process's command line (not a caller in the same process): a broker that
        # stopped cleanly (logs closed, checkpoints written) ends here. Freeing one by
        # one the objects of a broker holding tens of thousands of partitions would be
        # seconds of interpreter teardown. What was registered to run at exit (logging's
        # flush, a site's hooks) still runs.
        atexit._run_exitfuncs()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
