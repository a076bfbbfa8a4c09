"""The trio server: listener, one task per connection, graceful shutdown.

``serve(config, task_status=...)`` lets tests ``await nursery.start(serve, config)``
and get the running :class:`~broker.server.app.Services` back.
``run(config)`` is what ``sharebroker serve`` calls: it adds SIGTERM/SIGINT
handling and exits 0 after a clean shutdown.
"""

from __future__ import annotations

import signal
from typing import Any

import structlog
import trio
import trio.lowlevel

from broker.handlers import HANDLERS
from broker.server.app import bind, build, close_services, load_coordinators, open_services, run_background
from broker.server.connection import serve_connection

log = structlog.get_logger("sharebroker.server")

# After SIGTERM, connections get this long to finish the request they are
# handling before they are cancelled; the rest of the 5 s budget goes to
# flushing and closing the logs.
SHUTDOWN_GRACE_S = 3.0


async def serve(config: Any, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
    services = build(config)
    await trio.to_thread.run_sync(open_services, services)
    try:
        listener = services.config.current.listener
        listeners = await trio.open_tcp_listeners(config.port, host=config.host)
        bound_port = listeners[0].socket.getsockname()[1]
        bind(services, bound_port)
        max_connections = config.get("max.connections")
        open_connections = 0

        async def handle(stream: trio.SocketStream) -> None:
            nonlocal open_connections
            if open_connections >= max_connections:
                log.warning("connection_refused", reason="max.connections reached", limit=max_connections)
                await stream.aclose()
                return
            open_connections += 1
            try:
                await serve_connection(services, stream, listener.name)
            finally:
                open_connections -= 1

        async with trio.open_nursery() as background:
            await run_background(services, background)
            await load_coordinators(services)
            metrics_listen = config.get("metrics.listen")
            if metrics_listen:
                from broker.server.metrics import parse_listen, serve_metrics

                await background.start(serve_metrics, services, *parse_listen(metrics_listen))
            async with trio.open_nursery() as connections:
                async with trio.open_nursery() as acceptors:
                    for tcp_listener in listeners:
                        acceptors.start_soon(_accept_loop, tcp_listener, handle, connections)
                    advertised = services.config.current.advertised_listeners[0]
                    log.info(
                        "listening",
                        host=config.host or "*",
                        port=bound_port,
                        advertised=f"{advertised.host}:{advertised.port}",
                        data_dir=str(services.logs.data_dir),
                        cluster_id=services.cluster_id,
                    )
                    task_status.started(services)
                    background.start_soon(_warm_handlers)
                    await services.lifecycle.stopped.wait()
                    acceptors.cancel_scope.cancel()
                for tcp_listener in listeners:
                    await tcp_listener.aclose()
                connections.cancel_scope.deadline = trio.current_time() + SHUTDOWN_GRACE_S
            background.cancel_scope.cancel()
    finally:
        with trio.CancelScope(shield=True):
            await trio.to_thread.run_sync(close_services, services)
        log.info("stopped")


async def _warm_handlers() -> None:
    """Import the handler modules one by one once the broker is answering.

    Start-up only needs ApiVersions; the rest is imported here, yielding
    between modules so early requests are not held up.
    """
    for h in list(HANDLERS.values()):
        await trio.lowlevel.checkpoint()
        h.load()


async def _accept_loop(listener: trio.SocketListener, handle: Any, nursery: trio.Nursery) -> None:
    while True:
        try:
            stream = await listener.accept()
        except OSError as exc:  # e.g. EMFILE: back off instead of spinning
            log.warning("accept_failed", error=str(exc))
            await trio.sleep(0.1)
            continue
        nursery.start_soon(handle, stream)


def run(config: Any) -> int:
    """Run the broker until SIGTERM or SIGINT; return the process exit code."""

    async def main() -> None:
        async with trio.open_nursery() as nursery:
            services = await nursery.start(serve, config)
            with trio.open_signal_receiver(signal.SIGTERM, signal.SIGINT) as signals:
                async for signum in signals:
                    log.info("shutting_down", signal=signal.Signals(signum).name)
                    services.lifecycle.request_stop()
                    break

    trio.run(main)
    return 0
