"""``sharebroker ui``: the web console (broker/ui), speaking only the Kafka protocol.

    sharebroker ui --bootstrap-server 127.0.0.1:9092 [--listen 127.0.0.1:8080]
        [--command-config FILE] [--metrics-url http://127.0.0.1:9404/metrics ...]
        [--read-only] [--basic-auth-file FILE] [--tls-cert PEM --tls-key PEM] [--refresh S]

Needs the ``ui`` extra (``pip install 'sharebroker[ui]'``): Starlette, Hypercorn, Jinja2.
"""

from __future__ import annotations

import argparse
import os
import sys

from broker.tools._security import add_command_config, client_security


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "ui",
        help="web console: cluster, topics, share groups (in flight, dead letters), groups, transactions, ACLs",
        description="Serve a web console for a Kafka cluster (sharebroker or Apache Kafka 4.2+). It speaks only "
        "the Kafka protocol, like the other tools; the broker's Prometheus endpoint adds what the protocol "
        "does not carry (records acquired now, acknowledgements by type).",
    )
    p.add_argument("--bootstrap-server", required=True, metavar="HOST:PORT[,...]", help="brokers to bootstrap from")
    add_command_config(p)
    p.add_argument(
        "--listen",
        default="127.0.0.1:8080",
        metavar="HOST:PORT",
        help="web listener (default 127.0.0.1:8080; port 0 picks a free one)",
    )
    p.add_argument(
        "--metrics-url",
        action="append",
        default=[],
        metavar="URL",
        help="a broker's Prometheus endpoint, e.g. http://127.0.0.1:9404/metrics (repeat for each broker)",
    )
    p.add_argument(
        "--read-only", action="store_true", help="hide and refuse every action (reset, delete, produce, config changes)"
    )
    p.add_argument(
        "--basic-auth-file",
        metavar="FILE",
        default=os.environ.get("SHAREBROKER_UI_BASIC_AUTH_FILE"),
        help="require HTTP basic authentication: user:password lines (default: $SHAREBROKER_UI_BASIC_AUTH_FILE)",
    )
    p.add_argument("--tls-cert", metavar="PEM", help="serve HTTPS with this certificate chain")
    p.add_argument("--tls-key", metavar="PEM", help="the private key of --tls-cert")
    p.add_argument(
        "--refresh", type=float, default=5.0, metavar="SECONDS", help="how often live values refresh (default 5)"
    )
    p.add_argument("--timeout-ms", type=int, default=10_000, help="deadline of each Kafka call (default 10000)")
    p.set_defaults(func=run)


def _error(message: str) -> int:
    print(f"sharebroker ui: error: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    try:
        import hypercorn  # noqa: F401
        import starlette  # noqa: F401
    except ImportError:
        return _error("the web console needs the ui extra: pip install 'sharebroker[ui]'")
    from broker.admin.client import parse_bootstrap
    from broker.ui.gateway import UiSettings
    from broker.ui.server import WebSettings, read_users
    from broker.ui.server import run as serve

    try:
        parse_bootstrap(args.bootstrap_server)
        security = client_security(args)
        users = read_users(args.basic_auth_file) if args.basic_auth_file else None
    except (ValueError, OSError) as exc:
        return _error(str(exc))
    if bool(args.tls_cert) != bool(args.tls_key):
        return _error("--tls-cert and --tls-key go together")
    if not 0.5 <= args.refresh <= 3600:
        return _error("--refresh must be between 0.5 and 3600 seconds")
    for url in args.metrics_url:
        if not url.startswith(("http://", "https://")):
            return _error(f"--metrics-url {url!r} is not an http(s) URL")
    settings = UiSettings(
        args.bootstrap_server,
        security=security,
        metrics_urls=list(args.metrics_url),
        read_only=args.read_only,
        refresh_s=args.refresh,
        timeout_s=args.timeout_ms / 1000,
    )
    return serve(settings, WebSettings(args.listen, users, args.tls_cert, args.tls_key))
