"""Route a decoded request to its handler and frame the response."""

from __future__ import annotations

import time

import structlog

from broker.handlers import HANDLERS
from broker.protocol.api_keys import ApiKey
from broker.protocol.connection import Request, ServerConnection
from broker.protocol.errors import ProtocolError
from broker.server.context import RequestContext

log = structlog.get_logger("sharebroker.dispatch")


async def dispatch(ctx: RequestContext, proto: ServerConnection, request: Request) -> bytearray | bool | None:
    """Handle one request.

    Returns the framed response, ``None`` when the request gets no response
    (Produce with acks=0), or ``False`` when the connection must be closed
    (an API or version we do not serve, as Kafka does, or a handler failure).
    """
    handler = HANDLERS.get(request.api_key)
    if handler is not None and request.api_key == ApiKey.API_VERSIONS and not handler.supports(request.api_version):
        # A version the schemas know but the handler does not serve: the same v0
        # UNSUPPORTED_VERSION answer as a version nobody knows, so the client retries
        # lower on this connection instead of losing it.
        return proto.api_versions_fallback_response(request.header, handler.min_version, handler.max_version)
    if handler is None or not handler.supports(request.api_version):
        log.warning(
            "unsupported_version",
            api=request.api_key,
            version=request.api_version,
            peer=ctx.connection.peer,
        )
        return False
    started = time.perf_counter()
    try:
        response = await handler.handle(ctx, request.body)
    except ProtocolError as exc:
        log.warning("invalid_request", api=handler.name, version=request.api_version, error=str(exc))
        return False
    except Exception:
        log.exception("handler_failed", api=handler.name, version=request.api_version, peer=ctx.connection.peer)
        return False
    ctx.broker.metrics.observe_request(handler.name, time.perf_counter() - started)
    if response is None:
        return None
    try:
        return proto.encode_response(request, response, request.api_version)
    except ProtocolError:
        log.exception("response_encoding_failed", api=handler.name, version=request.api_version)
        return False
