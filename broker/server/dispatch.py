"""Route a decoded request to its handler and frame the response."""

from __future__ import annotations

import time
from typing import Any, Literal, TypeAlias

import trio

from broker.handlers import HANDLERS, Handler
from broker.handlers.context import AnswerLater, RequestContext
from broker.logging import LazyLogger
from broker.metadata.features import GATES
from broker.protocol.api_keys import ApiKey
from broker.protocol.connection import Request, ServerConnection, UnsupportedRequest
from broker.protocol.error_response import error_response
from broker.protocol.errors import ErrorCode, KafkaError, ProtocolError
from broker.protocol.messages import RESPONSES
from broker.protocol.primitives import Chunk

log = LazyLogger("sharebroker.dispatch")

# An encoded response: one buffer, or the buffers to send in order when the answer
# carries large records (sent from where they are, not copied into the frame).
Frame: TypeAlias = bytearray | list[Chunk]
# A framed response, None for no response, False to close the connection.
Reply: TypeAlias = Frame | Literal[False] | None


async def dispatch(ctx: RequestContext, proto: ServerConnection, request: Request) -> Reply | Deferred:
    """Handle one request.

    Returns the framed response (a :data:`Frame`), a :class:`Deferred` when the
    handler answers later, ``None`` when the request gets no response
    (Produce with acks=0), or ``False`` when the connection must be closed
    (an API or version we do not serve, as Kafka does, or a request that
    cannot be decoded). A :class:`KafkaError` escaping the handler becomes the API's error response
    carrying its code; any other failure is logged and answered
    UNKNOWN_SERVER_ERROR, as Kafka does. The connection lives on.
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
    body, after = request.body, None
    security = ctx.services.security if ctx.services is not None else None
    if security is not None and security.authorizer is not None:
        # The rules import every request and response class they check (a sixth of a
        # second): only a broker with an authorizer loads them (open_services does, at start).
        from broker.server.authz import authorize

        plan = authorize(ctx, security.authorizer, request.api_key, body)
        if plan.response is not None:
            log.info(
                "request_denied", api=handler.name, principal=str(ctx.connection.principal), peer=ctx.connection.peer
            )
            return _finish(ctx, proto, handler, request, plan.response, started)
        body, after = plan.request, plan.after
    features = ctx.services.features if ctx.services is not None else None
    gate = GATES.get(request.api_key)
    if gate is not None and features is not None and features.level(gate) < 1:
        message = f"{handler.name} is off: the finalized {gate} is 0"
        return _finish(
            ctx,
            proto,
            handler,
            request,
            _error_response(handler, request, ErrorCode.UNSUPPORTED_VERSION, message),
            started,
        )
    try:
        response = await handler.handle(ctx, body)
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
        return Deferred(ctx, proto, handler, request, response, started, after)
    if after is not None and response is not None:
        response = after(response)
    return _finish(ctx, proto, handler, request, response, started)


def _finish(
    ctx: RequestContext, proto: ServerConnection, handler: Handler, request: Request, response: Any, started: float
) -> Reply:
    if ctx.services is not None:  # None only for ApiVersions during start-up
        ctx.services.metrics.observe_request(handler.name, time.perf_counter() - started)
        if request.api_key in _BYTE_RATES and response is not False:
            _throttle(ctx, request, response)
    if response is None:
        return None
    try:
        return proto.encode_response_chunks(request, response, request.api_version)
    except ProtocolError:
        log.exception("response_encoding_failed", api=handler.name, version=request.api_version)
        return False


_BYTE_RATES = {ApiKey.PRODUCE: "producer_byte_rate", ApiKey.FETCH: "consumer_byte_rate"}


def _fetched_bytes(response: Any) -> int:
    return sum(len(p.records or b"") for t in response.responses for p in t.partitions)


def _throttle(ctx: RequestContext, request: Request, response: Any) -> None:
    """Produce and Fetch byte-rate quotas (KIP-13, KIP-219): count the bytes against the
    client's quota entity; over the quota, report the throttle time in the response and
    stop reading from the connection for that long. A throttled Fetch is answered
    without data (and its bytes are not counted), as Kafka does."""
    security = ctx.services.security
    if security is None or not security.client_quotas.has_byte_rates:
        return
    key = _BYTE_RATES[ApiKey(request.api_key)]
    if request.api_key == ApiKey.FETCH:
        body: Any = request.body
        if (body.replica_state.replica_id if request.api_version >= 15 else body.replica_id) >= 0:
            return  # replication is not a client
        if response is None:
            return
        size = _fetched_bytes(response)
    else:
        size = request.frame_size
    principal = ctx.connection.principal
    user = principal.name if principal.type == "User" else str(principal)
    hit = security.client_quotas.resolve(user, request.header.client_id or "", key)
    if hit is None:
        return
    entity, quota = hit
    now = ctx.services.now_ms()
    throttle_ms = security.byte_rates.record(key, entity, size, quota, now)
    if not throttle_ms:
        return
    if response is not None:
        if request.api_key == ApiKey.FETCH:
            security.byte_rates.unrecord(key, entity, size, now)
            response.responses = []
        response.throttle_time_ms = max(int(getattr(response, "throttle_time_ms", 0) or 0), throttle_ms)
    until = trio.current_time() + throttle_ms / 1000
    ctx.connection.throttled_until = max(ctx.connection.throttled_until, until)


class Deferred:
    """A response that follows once the handler's :class:`AnswerLater` completes."""

    __slots__ = ("_after", "_ctx", "_handler", "_later", "_proto", "_request", "_started")

    def __init__(
        self,
        ctx: RequestContext,
        proto: ServerConnection,
        handler: Handler,
        request: Request,
        later: AnswerLater,
        started: float,
        after: Any = None,
    ) -> None:
        self._ctx, self._proto, self._handler = ctx, proto, handler
        self._request, self._later, self._started = request, later, started
        self._after = after

    async def finish(self) -> Reply:
        """The encoded response (None: no response; False: close the connection)."""
        handler, request = self._handler, self._request
        try:
            response = await self._later.wait()
            if self._after is not None and response is not None and response is not False:
                response = self._after(response)
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
