"""Route a decoded request to its handler and frame the response."""

from __future__ import annotations

import time
from typing import Any

from broker.handlers import HANDLERS, Handler
from broker.handlers.context import AnswerLater, RequestContext
from broker.logging import LazyLogger
from broker.protocol.api_keys import ApiKey
from broker.protocol.connection import Request, ServerConnection, UnsupportedRequest
from broker.protocol.error_response import error_response
from broker.protocol.errors import ErrorCode, KafkaError, ProtocolError
from broker.protocol.messages import RESPONSES

log = LazyLogger("sharebroker.dispatch")


async def dispatch(ctx: RequestContext, proto: ServerConnection, request: Request) -> bytearray | bool | None:
    """Handle one request.

    Returns the framed response, ``None`` when the request gets no response
    (Produce with acks=0), or ``False`` when the connection must be closed
    (an API or version we do not serve, as Kafka does, or a request that
    cannot be decoded). A :class:`KafkaError` escaping the handler becomes
    the API's error response carrying its code; any other failure is logged
    and answered UNKNOWN_SERVER_ERROR, as Kafka does. The connection lives on.
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
    except KafkaError as exc:
        log.info("request_failed", api=handler.name, version=request.api_version, error=str(exc))
        response = _error_response(handler, request, exc.code, exc.message)
    except ProtocolError as exc:
        log.warning("invalid_request", api=handler.name, version=request.api_version, error=str(exc))
        return False
    except Exception:
        log.exception("handler_failed", api=handler.name, version=request.api_version, peer=ctx.connection.peer)
        response = _error_response(handler, request, ErrorCode.UNKNOWN_SERVER_ERROR, None)
    if response is False:
        return False
    if isinstance(response, AnswerLater):
        return Deferred(ctx, proto, handler, request, response, started)
    return _finish(ctx, proto, handler, request, response, started)


def _finish(
    ctx: RequestContext, proto: ServerConnection, handler: Handler, request: Request, response: Any, started: float
) -> bytearray | bool | None:
    if ctx.services is not None:  # None only for ApiVersions during start-up
        ctx.services.metrics.observe_request(handler.name, time.perf_counter() - started)
    if response is None:
        return None
    try:
        return proto.encode_response(request, response, request.api_version)
    except ProtocolError:
        log.exception("response_encoding_failed", api=handler.name, version=request.api_version)
        return False


class Deferred:
    """A response that follows once the handler's :class:`AnswerLater` completes."""

    __slots__ = ("_ctx", "_handler", "_later", "_proto", "_request", "_started")

    def __init__(
        self,
        ctx: RequestContext,
        proto: ServerConnection,
        handler: Handler,
        request: Request,
        later: AnswerLater,
        started: float,
    ) -> None:
        self._ctx, self._proto, self._handler = ctx, proto, handler
        self._request, self._later, self._started = request, later, started

    async def finish(self) -> bytearray | bool | None:
        """The encoded response (None: no response; False: close the connection)."""
        handler, request = self._handler, self._request
        try:
            response = await self._later.wait()
        except KafkaError as exc:
            log.info("request_failed", api=handler.name, version=request.api_version, error=str(exc))
            response = _error_response(handler, request, exc.code, exc.message)
        except Exception:
            log.exception("handler_failed", api=handler.name, version=request.api_version)
            response = _error_response(handler, request, ErrorCode.UNKNOWN_SERVER_ERROR, None)
        if response is False:
            return False
        return _finish(self._ctx, self._proto, handler, request, response, self._started)


def _error_response(handler: Handler, request: Request, code: ErrorCode, message: str | None) -> object:
    """The API's error response, or False (close) when one cannot be built."""
    if request.api_key == 0 and getattr(request.body, "acks", None) == 0:
        return None  # acks=0 gets no response, failed or not
    try:
        return error_response(request.body, RESPONSES[request.api_key], request.api_version, code, message)
    except Exception:
        log.exception("error_response_failed", api=handler.name, version=request.api_version)
        return False


def unsupported_reply(proto: ServerConnection, event: UnsupportedRequest) -> bytearray | None:
    """Kafka answers an unknown ApiVersions version with v0 + UNSUPPORTED_VERSION;
    anything else it does not serve closes the connection (None)."""
    if event.api_key == 18:
        h = HANDLERS[18]
        return proto.api_versions_fallback_response(event, h.min_version, h.max_version)
    return None
