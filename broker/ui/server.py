"""``sharebroker ui``: serve the console with Hypercorn's trio worker.

The web listener is HTTP/1.1 and HTTP/2 (TLS with ``--tls-cert``/``--tls-key``). The
gateway's sampler runs beside it in the same nursery; Ctrl-C or SIGTERM stops both.
"""

from __future__ import annotations

import signal
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING

import trio

from broker.ui.gateway import Gateway, UiSettings

if TYPE_CHECKING:  # hypercorn is imported where used, to keep the start-up short
    from hypercorn.config import Config

DEFAULT_LISTEN = "127.0.0.1:8080"


@dataclass(slots=True)
class WebSettings:
    listen: str = DEFAULT_LISTEN
    users: dict[str, str] | None = None
    tls_cert: str | None = None
    tls_key: str | None = None


def read_users(path: str) -> dict[str, str]:
    """``user:password`` lines (``#`` comments and blank lines skipped). Raises ValueError."""
    users: dict[str, str] = {}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            user, sep, password = line.partition(":")
            if not sep or not user or not password:
                raise ValueError(f"{path}:{n}: expected user:password")
            users[user] = password
    if not users:
        raise ValueError(f"{path}: no user:password line")
    return users


def hypercorn_config(web: WebSettings) -> Config:
    from hypercorn.config import Config

    config = Config()
    config.bind = [web.listen]
    config.accesslog = None
    config.errorlog = "-"
    # A page is small; a body past 1 MiB is no form of this console (produce caps values at 1 MiB).
    config.h11_max_incomplete_size = 64 * 1024
    config.wsgi_max_body_size = 2 * 1024 * 1024
    if web.tls_cert:
        config.certfile = web.tls_cert
        config.keyfile = web.tls_key
    return config


async def serve(
    settings: UiSettings, web: WebSettings, *, task_status: trio.TaskStatus[list[str]] = trio.TASK_STATUS_IGNORED
) -> None:
    from hypercorn.trio import serve as hypercorn_serve

    from broker.ui.app import create_app

    gateway = Gateway(settings)
    app = create_app(gateway, web.users)
    try:
        async with trio.open_nursery() as nursery:
            await nursery.start(gateway.sample_forever)
            binds = await nursery.start(hypercorn_serve, app, hypercorn_config(web))
            for url in binds:
                print(f"sharebroker ui: serving {url} for {settings.bootstrap_servers}", flush=True)
            task_status.started(binds)
            # Ctrl-C (SIGINT) and SIGTERM end the console cleanly: the web listener and the
            # sampler are cancelled, the admin clients closed.
            with trio.open_signal_receiver(signal.SIGTERM, signal.SIGINT) as signals:
                async for _ in signals:
                    nursery.cancel_scope.cancel()
                    break
    finally:
        gateway.close()


def run(settings: UiSettings, web: WebSettings) -> int:
    # Log lines (the sampler's rounds) reach a file or a pipe as they are written.
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(line_buffering=True)
    try:
        trio.run(serve, settings, web)
    except KeyboardInterrupt:
        return 130
    except OSError as exc:
        print(f"sharebroker ui: error: cannot serve on {web.listen}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    return 0
