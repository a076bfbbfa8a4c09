"""The trio server: listener, one task per connection, graceful shutdown.

``serve(config, task_status=...)`` lets tests ``await nursery.start(serve, config)``
and get the running :class:`~broker.handlers.context.Services` back.

Start-up: the listener is bound and ApiVersions answered before anything else is
imported; the services are built, the logs recovered and the coordinators loaded
right after, while other requests wait (see :class:`Gate`).
``run(config)`` is what ``sharebroker serve`` calls: it adds SIGTERM/SIGINT
handling (a cluster member's controlled shutdown first) and exits 0 after a
clean shutdown.
"""

from __future__ import annotations

import importlib
import signal
from typing import TYPE_CHECKING, Any

import trio
import trio.lowlevel

from broker.config.services import ConnectionSettings
from broker.handlers import HANDLERS
from broker.lifecycle import Lifecycle
from broker.logging import LazyLogger, apply_requested
from broker.server.connection import serve_connection
from broker.server.limits import ConnectionCounter, MemoryPool

if TYPE_CHECKING:
    from broker.handlers.context import Services

log = LazyLogger("sharebroker.server")

# After SIGTERM, connections get this long to finish the request they are
# handling before they are cancelled; the rest of the 5 s budget goes to
# flushing and closing the logs.
SHUTDOWN_GRACE_S = 3.0


class Gate:
    """What connections have before the services exist: the config and lifecycle at
    once, the services when built. ApiVersions is answered at once; every other
    request waits at the gate until the logs are recovered and the coordinators loaded
    (Kafka's brokers accept connections only after that; here the listener is up
    first so clients and health checks see the broker as early as possible)."""

    def __init__(self, config: Any, lifecycle: Lifecycle) -> None:
        self.config = config
        self.lifecycle = lifecycle
        self.services: Services | None = None
        self._ready = trio.Event()
        queued = int(config.get("queued.max.request.bytes"))
        self.memory_pool: MemoryPool | None = MemoryPool(queued) if queued > 0 else None

    def ready(self, services: Services) -> None:
        self.services = services
        self._ready.set()

    async def wait(self) -> Services:
        await self._ready.wait()
        assert self.services is not None
        return self.services


async def serve(config: Any, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
    """Bind, answer ApiVersions, build and load the services, then serve everything."""
    lifecycle = Lifecycle()
    gate = Gate(config, lifecycle)
    security, runtime = _listener_security(config)
    listeners, bound = await _bind(config)
    bound_port = next(iter(bound.values()))
    starting = ConnectionSettings.of(config)
    counter = ConnectionCounter(
        lambda: gate.services.config.settings(ConnectionSettings) if gate.services else starting
    )

    async def handle(stream: trio.SocketStream, listener_name: str) -> None:
        try:
            host = str(stream.socket.getpeername()[0])
        except OSError:
            host = "?"
        refused = counter.admit(host)
        if refused is not None:
            log.warning("connection_refused", reason=refused, peer=host, listener=listener_name)
            await stream.aclose()
            return
        try:
            await serve_connection(gate, stream, listener_name, security.get(listener_name))
        finally:
            counter.release(host)

    services: Services | None = None
    try:
        async with trio.open_nursery() as background:
            async with trio.open_nursery() as connections:
                async with trio.open_nursery() as acceptors:
                    for name, tcp_listener in listeners:
                        acceptors.start_soon(_accept_loop, tcp_listener, name, handle, connections)
                    # Logging (structlog) is set up now, in a worker thread, while
                    # ApiVersions is already being answered.
                    await trio.to_thread.run_sync(apply_requested)
                    log.info(
                        "listening",
                        host=config.host or "*",
                        port=bound_port,
                        listeners=",".join(f"{name}:{port}" for name, port in bound.items()),
                    )
                    # Everything but ApiVersions is imported and built now, with the
                    # listener already up; the import runs in a worker thread so the
                    # event loop answers meanwhile (start-up time: see bench.startup).
                    app = await trio.to_thread.run_sync(importlib.import_module, "broker.server.app")
                    services = app.build(config, lifecycle=lifecycle)
                    await trio.to_thread.run_sync(app.open_services, services)
                    app.bind(services, bound)
                    await app.run_background(services, background)
                    if runtime is not None:
                        await app.run_security(services, runtime, background)
                    await app.load_coordinators(services)
                    metrics_listen = config.get("metrics.listen")
                    if metrics_listen:
                        from broker.server.metrics import parse_listen, serve_metrics

                        await background.start(serve_metrics, services, *parse_listen(metrics_listen))
                    gate.ready(services)
                    advertised = services.config.current.advertised_listeners[0]
                    log.info(
                        "ready",
                        advertised=f"{advertised.host}:{advertised.port}",
                        data_dir=str(services.logs.data_dir),
                        cluster_id=services.cluster_id,
                    )
                    task_status.started(services)
                    background.start_soon(_warm_handlers)
                    await lifecycle.stopped.wait()
                    acceptors.cancel_scope.cancel()
                for _, tcp_listener in listeners:
                    await tcp_listener.aclose()
                connections.cancel_scope.deadline = trio.current_time() + SHUTDOWN_GRACE_S
            background.cancel_scope.cancel()
    finally:
        if services is not None:
            with trio.CancelScope(shield=True):
                await trio.to_thread.run_sync(services.logs.close)
        log.info("stopped")


def _listener_security(config: Any) -> tuple[dict[str, Any], Any]:
    """TLS and SASL listeners: their contexts and mechanisms, checked before anything is
    bound ({listener: security}, and the runtime that reloads them; None without any)."""
    security: dict[str, Any] = {}
    runtime = None
    if any(config.security_protocol(lst.name) != "PLAINTEXT" for lst in config.listeners):
        from broker.server.security import ListenerSecurityError, SecurityRuntime, build_listener_security

        runtime = SecurityRuntime()
        try:
            security = build_listener_security(config, runtime)
        except ListenerSecurityError as exc:
            raise SystemExit(f"sharebroker: error: {exc}") from None
    return security, runtime


async def _bind(config: Any) -> tuple[list[tuple[str, trio.SocketListener]], dict[str, int]]:
    """One set of sockets per named listener (a connection knows which it came in on), and
    the port each listener is bound to."""
    listeners: list[tuple[str, trio.SocketListener]] = []
    bound: dict[str, int] = {}
    for lst in config.listeners:
        sockets = await trio.open_tcp_listeners(lst.port, host=lst.bind_host)
        bound[lst.name] = sockets[0].socket.getsockname()[1]
        listeners += [(lst.name, s) for s in sockets]
    return listeners, bound


async def _warm_handlers() -> None:
    """Import the handler modules one by one once the broker is answering.

    Start-up only needs ApiVersions; the rest is imported here, yielding
    between modules so early requests are not held up.
    """
    for h in list(HANDLERS.values()):
        await trio.lowlevel.checkpoint()
        h.load()


async def _accept_loop(listener: trio.SocketListener, name: str, handle: Any, nursery: trio.Nursery) -> None:
    while True:
        try:
            stream = await listener.accept()
        except OSError as exc:  # e.g. EMFILE: back off instead of spinning
            log.warning("accept_failed", error=str(exc))
            await trio.sleep(0.1)
            continue
        nursery.start_soon(handle, stream, name)


def run(config: Any) -> int:
    """Run the broker until SIGTERM or SIGINT; return the process exit code.

    A failure to start that has one cause (an address in use, a data directory that
    cannot be opened) is raised as that cause, not wrapped in a group, so the command
    line can print one line for it."""

    async def main() -> None:
        # The signals are caught from the start: a SIGTERM while the broker is still
        # starting (opening logs, loading coordinators) stops it as cleanly as one later.
        with trio.open_signal_receiver(signal.SIGTERM, signal.SIGINT) as signals:
            async with trio.open_nursery() as nursery:
                starting = trio.CancelScope()
                started: list[Services] = []

                async def start() -> None:
                    with starting:
                        started.append(await nursery.start(serve, config))

                nursery.start_soon(start)
                async for signum in signals:
                    log.info("shutting_down", signal=signal.Signals(signum).name)
                    if started:
                        # A cluster member first hands its leaderships over (bounded), serving meanwhile.
                        app = importlib.import_module("broker.server.app")
                        await app.controlled_shutdown(started[0])
                        started[0].lifecycle.request_stop()
                    else:
                        starting.cancel()
                    break

    try:
        trio.run(main)
    except BaseExceptionGroup as group:
        leaves = _leaves(group)
        if len(leaves) == 1 and isinstance(leaves[0], Exception):
            raise leaves[0] from None
        raise
    return 0


def _leaves(group: BaseExceptionGroup) -> list[BaseException]:
    out: list[BaseException] = []
    for exc in group.exceptions:
        out += _leaves(exc) if isinstance(exc, BaseExceptionGroup) else [exc]
    return out
