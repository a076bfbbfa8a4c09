"""Real broker services for in-process tests: the composition root, on a data dir.

Handler and coordinator tests run the same services ``sharebroker serve`` builds
(:func:`broker.server.app.build`), with no listener: requests go straight to the
handlers. ``running`` also starts the background loops and loads the coordinators.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import trio

from broker.config import load_config
from broker.handlers.context import ConnectionState, RequestContext, Services
from broker.server.app import bind, build, close_services, load_coordinators, open_services, run_background


def config_for(data_dir: Path | str, **settings: Any) -> Any:
    overrides = [f"log.dirs={data_dir}"] + [f"{key.replace('_', '.')}={value}" for key, value in settings.items()]
    return load_config(None, overrides)


def make_services(
    data_dir: Path | str, settings: dict[str, Any] | None = None, *, clock: Callable[[], int] | None = None
) -> Services:
    """Built and opened (logs recovered); nothing runs in the background."""
    overrides = [f"log.dirs={data_dir}"] + [f"{key}={value}" for key, value in (settings or {}).items()]
    config = load_config(None, overrides, environ={})
    services = build(config) if clock is None else build(config, clock=clock)
    open_services(services)
    return services


@contextlib.asynccontextmanager
async def running(
    data_dir: Path | str, settings: dict[str, Any] | None = None, *, clock: Callable[[], int] | None = None
) -> AsyncIterator[Services]:
    """Services with their background loops running and coordinators loaded; closed on exit."""
    services = make_services(data_dir, settings, clock=clock)
    try:
        async with trio.open_nursery() as nursery:
            await run_background(services, nursery)
            await load_coordinators(services)
            yield services
            services.lifecycle.request_stop()
            nursery.cancel_scope.cancel()
    finally:
        close_services(services)


class ServicesView:
    """Real services plus the few conveniences handler tests use."""

    def __init__(self, services: Services) -> None:
        self.services = services

    def __getattr__(self, name: str) -> Any:
        return getattr(self.services, name)

    def appended(self, topic: str, partition: int) -> None:
        self.services.replicas.appended(topic, partition)

    def request_stop(self) -> None:
        self.services.lifecycle.request_stop()

    @property
    def advertised_host(self) -> str:
        return str(self.services.config.current.advertised_host)


def started(data_dir: Path | str, settings: dict[str, Any] | None = None, *, port: int = 19092) -> ServicesView:
    """Built, opened and bound to ``port`` (what clients are told); nothing runs in the background."""
    services = make_services(data_dir, {"listeners": "PLAINTEXT://127.0.0.1:0", "node.id": 1, **(settings or {})})
    bind(services, port)
    return ServicesView(services)


def context(services: Any, version: int, header: Any = None, peer: str = "test") -> RequestContext:
    target = services.services if isinstance(services, ServicesView) else services
    return RequestContext(target, ConnectionState(1, peer), header, version)
