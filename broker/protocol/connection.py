"""Sans-IO Kafka connections: size-prefixed framing, headers and message decoding.

Kafka frames every request and response as a big-endian int32 size followed by
that many bytes: a header, then the body. This module turns a byte stream into
decoded events and decoded responses back into bytes, in the style of h11: it
never touches a socket, a clock or trio, so it can be driven by any I/O loop
and tested by feeding it bytes.

Server side::

    conn = ServerConnection()
    conn.receive_data(chunk)            # b"" signals end of stream
    while (event := conn.next_event()) is not NEED_DATA:
        ...                             # Request | UnsupportedRequest | CONNECTION_CLOSED
        out = conn.encode_response(event, response, event.api_version)

A ``ProtocolError`` from ``next_event`` means the stream can no longer be
trusted (oversized or negative size prefix, undecodable header or body, end of
stream inside a frame): the caller logs it and closes the connection. The
connection stays failed; later calls raise the same error.

Copies: each frame is copied exactly once, from the received chunks into its
own ``bytes`` object (none when one received chunk holds exactly the frame). The
frame is immutable, so decoded ``records`` fields can be zero-copy memoryviews
into it and stay valid for as long as anyone holds them.

``receive_data`` only queues references; frames are cut lazily by
``next_event``. A server applies back-pressure by reading from the socket only
after ``next_event`` returned ``NEED_DATA``, which bounds the bytes buffered per
connection to one frame plus one socket read.

``ClientConnection`` is the client-side counterpart used by admin tools and
tests: it encodes requests with fresh correlation ids and decodes responses by
matching the correlation id back to the request's API and version.
"""

from __future__ import annotations

import struct
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Final, Generic, Literal, TypeAlias, TypeVar

from broker.protocol.api_keys import ApiKey
from broker.protocol.errors import (
    ErrorCode,
    FrameTooLargeError,
    InvalidFrameSizeError,
    MalformedFrameError,
    ProtocolError,
    TruncatedFrameError,
)
from broker.protocol.message_base import Message
from broker.protocol.messages import REQUESTS, RESPONSES, RequestHeader, ResponseHeader
from broker.protocol.messages.api_versions_response import ApiVersion, ApiVersionsResponse
from broker.protocol.primitives import Chunk, SplicedFrame

__all__ = [
    "CLIENT_MAX_FRAME_SIZE",
    "CONNECTION_CLOSED",
    "DEFAULT_MAX_FRAME_SIZE",
    "NEED_DATA",
    "ClientConnection",
    "Request",
    "Response",
    "ServerConnection",
    "Signal",
    "UnsupportedRequest",
    "request_header_version",
    "response_header_version",
]

# Kafka's default socket.request.max.bytes (100 MiB). It is the largest request a
# stock broker accepts, so any client configuration that works against Kafka works
# here; a larger size prefix is a bug or an attack, and accepting it would let one
# peer make us buffer that much.
DEFAULT_MAX_FRAME_SIZE: Final = 104_857_600

# Clients accept any response a non-negative int32 size can describe (2 GiB - 1),
# as Kafka's own clients do: a response is already bounded by the max-bytes
# settings of the request that asked for it.
CLIENT_MAX_FRAME_SIZE: Final = 2**31 - 1

# A request header starts with api key (int16), api version (int16) and
# correlation id (int32): 8 bytes that must be present before anything else.
_REQUEST_PREFIX_SIZE: Final = 8
# A response header starts with the correlation id (int32).
_RESPONSE_PREFIX_SIZE: Final = 4
# Correlation ids are int32s chosen by the client; ours count up and wrap to 0
# before turning negative.
_MAX_CORRELATION_ID: Final = 2**31 - 1

_SIZE = struct.Struct(">i")
_REQUEST_PREFIX = struct.Struct(">hhi")
_INT16 = struct.Struct(">h")


class Signal(Enum):
    """Non-event results of ``next_event``."""

    NEED_DATA = "NEED_DATA"
    """No complete frame is buffered: feed more bytes with ``receive_data``."""
    CONNECTION_CLOSED = "CONNECTION_CLOSED"
    """The peer ended the stream cleanly, between frames."""

    def __repr__(self) -> str:
        return self.value


NEED_DATA: Final = Signal.NEED_DATA
CONNECTION_CLOSED: Final = Signal.CONNECTION_CLOSED


class _Event:
    """What the decoded frames share: a header naming their correlation id."""

    __slots__ = ()
    header: RequestHeader | ResponseHeader

    @property
    def correlation_id(self) -> int:
        return self.header.correlation_id


@dataclass(frozen=True, slots=True)
class Request(_Event):
    """A request whose header and body decoded at a version the schema defines.

    Bytes after the body inside the frame are ignored, as Kafka ignores them.
    """

    header: RequestHeader
    body: Message
    api_key: int
    api_version: int
    frame_size: int


@dataclass(frozen=True, slots=True)
class UnsupportedRequest(_Event):
    """A request with an unknown api key or a version outside the schema's range.

    The header is decoded (at v1 for an unknown key, else at the version the
    request's api version implies) so the server can name the correlation id.
    Kafka answers an unsupported ApiVersions version with an ApiVersions v0
    response carrying UNSUPPORTED_VERSION and the ApiVersions range it serves
    (``api_versions_fallback_response`` builds exactly that), so clients can
    retry at a version both sides know; for any other API it closes the
    connection.
    """

    header: RequestHeader
    api_key: int
    api_version: int
    reason: str
    frame_size: int


@dataclass(frozen=True, slots=True)
class Response(_Event):
    """A decoded response, matched to its request by correlation id."""

    header: ResponseHeader
    body: Message
    api_key: int
    api_version: int
    frame_size: int


EventT = TypeVar("EventT")

ServerEvent: TypeAlias = Request | UnsupportedRequest | Literal[Signal.NEED_DATA, Signal.CONNECTION_CLOSED]
ClientEvent: TypeAlias = Response | Literal[Signal.NEED_DATA, Signal.CONNECTION_CLOSED]


def _is_flexible(message_type: type[Message] | Message, version: int) -> bool:
    flexible_min = message_type.FLEXIBLE_MIN
    return flexible_min is not None and version >= flexible_min


def request_header_version(request_type: type[Message] | Message, api_version: int) -> int:
    """Request header version for a request class at ``api_version``: 2 if flexible, else 1."""
    return 2 if _is_flexible(request_type, api_version) else 1


def response_header_version(response_type: type[Message] | Message, api_version: int) -> int:
    """Response header version: 1 if flexible, else 0; ApiVersions always 0.

    ApiVersions is the exception so that a client which sent a version the
    server does not know can still read the error (and the supported range)
    in the reply.
    """
    if response_type.API_KEY == ApiKey.API_VERSIONS:
        return 0
    return 1 if _is_flexible(response_type, api_version) else 0


class _FrameReader:
    """Cuts a byte stream into size-prefixed frames, one copy per frame."""

    __slots__ = ("_buffered", "_chunks", "_direct", "_eof", "_max_frame_size", "_size")

    def __init__(self, max_frame_size: int) -> None:
        self._max_frame_size = _checked_limit(max_frame_size)
        self._chunks: deque[memoryview] = deque()
        self._buffered = 0
        self._size = -1  # size of the frame being assembled; -1 while the prefix is incomplete
        self._eof = False
        # The current frame's own buffer once the caller reads straight into it
        # (see direct_buffer); its first ``_buffered`` bytes are filled.
        self._direct: bytearray | None = None

    @property
    def buffered(self) -> int:
        return self._buffered

    @property
    def max_frame_size(self) -> int:
        return self._max_frame_size

    @max_frame_size.setter
    def max_frame_size(self, value: int) -> None:
        self._max_frame_size = _checked_limit(value)

    @property
    def partial_size(self) -> int | None:
        """Size of the frame being assembled once its prefix is read, else None."""
        return self._size if self._size >= 0 else None

    def feed(self, data: bytes | bytearray | memoryview) -> None:
        if not data:
            self._eof = True
            return
        if self._eof:
            raise RuntimeError("receive_data() got bytes after the end of stream was signalled")
        direct = self._direct
        if direct is not None:
            # Mixing feed() with direct_buffer(): fill the frame, queue the rest.
            take = min(len(direct) - self._buffered, len(data))
            direct[self._buffered : self._buffered + take] = memoryview(data)[:take]
            self._buffered += take
            if take == len(data):
                return
            data = bytes(memoryview(data)[take:])
            self._chunks.append(memoryview(data))
            return  # counted in _buffered once this frame is handed out
        if data.__class__ is not bytes:
            # A caller may reuse a mutable buffer for its next read; frames (and
            # the memoryviews decoded bodies hold into them) must never change.
            data = bytes(data)
        self._chunks.append(memoryview(data))
        self._buffered += len(data)

    def direct_buffer(self, min_missing: int) -> memoryview | None:
        """Where to receive the rest of the current frame without a later copy.

        Once a frame's size is known and at least ``min_missing`` of its bytes
        are still to come, the frame gets its own buffer (the bytes buffered so
        far are moved in) and this returns a writable view of its unfilled part;
        report what was read into it with :meth:`filled`. None otherwise: feed
        bytes with :meth:`feed`.
        """
        if self._direct is None:
            if self._size < 0 or self._size - self._buffered < max(min_missing, 1):
                return None
            frame = bytearray(self._size)
            pos = 0
            for chunk in self._chunks:
                frame[pos : pos + len(chunk)] = chunk
                pos += len(chunk)
            self._chunks.clear()
            self._direct = frame
        return memoryview(self._direct)[self._buffered :]

    def filled(self, n: int) -> None:
        """``n`` bytes were read into the view :meth:`direct_buffer` returned; 0 means end of stream."""
        if self._direct is None:
            raise RuntimeError("filled() without a direct_buffer()")
        if n == 0:
            self._eof = True
            return
        if not 0 < n <= len(self._direct) - self._buffered:
            raise ValueError(f"filled({n}) but {len(self._direct) - self._buffered} bytes were free")
        self._buffered += n

    def next_frame(self) -> bytes | bytearray | None:
        """The next complete frame, or None if more data is needed (or the stream ended cleanly)."""
        if self._direct is not None:
            if self._buffered < self._size:
                if self._eof:
                    raise TruncatedFrameError(
                        f"stream ended inside a frame: {self._buffered} of {self._size} bytes received"
                    )
                return None
            direct, self._direct = self._direct, None
            self._buffered = sum(len(c) for c in self._chunks)
            self._size = -1
            return direct  # nothing else refers to it: it never changes again
        if self._size < 0:
            if self._buffered < 4:
                if self._eof and self._buffered:
                    raise TruncatedFrameError(
                        f"stream ended inside a frame's size prefix ({self._buffered} of 4 bytes)"
                    )
                return None
            size = _SIZE.unpack(self._take(4))[0]
            if size < 0:
                raise InvalidFrameSizeError(size)
            if size > self._max_frame_size:
                raise FrameTooLargeError(size, self._max_frame_size)
            self._size = size
        if self._buffered < self._size:
            if self._eof:
                raise TruncatedFrameError(
                    f"stream ended inside a frame: {self._buffered} of {self._size} bytes received"
                )
            return None
        frame = self._take(self._size)
        self._size = -1
        return frame

    @property
    def at_clean_eof(self) -> bool:
        return self._eof and self._buffered == 0 and self._size < 0

    def _take(self, n: int) -> bytes:
        """Remove and return the next ``n`` buffered bytes (caller checked they are there)."""
        if n == 0:
            return b""
        chunks = self._chunks
        self._buffered -= n
        first = chunks[0]
        if len(first) >= n:
            if len(first) == n:
                chunks.popleft()
                whole = first.obj
                if len(whole) == n:  # type: ignore[arg-type]
                    return whole  # type: ignore[return-value]  # exactly one received chunk: no copy
                return first.tobytes()
            chunks[0] = first[n:]
            return first[:n].tobytes()
        pieces = []
        while n:
            chunk = chunks[0]
            if len(chunk) <= n:
                chunks.popleft()
                pieces.append(chunk)
                n -= len(chunk)
            else:
                pieces.append(chunk[:n])
                chunks[0] = chunk[n:]
                n = 0
        return b"".join(pieces)


def _checked_limit(max_frame_size: int) -> int:
    if not 0 <= max_frame_size <= CLIENT_MAX_FRAME_SIZE:
        raise ValueError(f"max_frame_size must be in 0..{CLIENT_MAX_FRAME_SIZE}, got {max_frame_size}")
    return max_frame_size


def _encode_frame(
    header: Message, header_version: int, body: Message, body_version: int, *, splice: bool = False
) -> bytearray:
    """Size prefix + header + body. With ``splice`` the frame is a SplicedFrame whose
    large bytes fields (fetched records) are referenced, not copied."""
    out = SplicedFrame(4) if splice else bytearray(4)
    header.encode_into(out, header_version)
    body.encode_into(out, body_version)
    size = len(out) - 4 + (out.spliced_bytes if isinstance(out, SplicedFrame) else 0)
    if size > CLIENT_MAX_FRAME_SIZE:
        raise ProtocolError(f"encoded frame of {size} bytes does not fit an int32 size prefix")
    _SIZE.pack_into(out, 0, size)
    return out


class _Connection(Generic[EventT]):
    """What both ends of a connection share: frames in, decoded into events, until the
    first broken frame ends the stream."""

    _reader: _FrameReader
    _error: ProtocolError | None

    def receive_data(self, data: bytes | bytearray | memoryview) -> None:
        """Queue bytes read from the peer; ``b""`` means the peer closed the stream."""
        self._reader.feed(data)

    def next_event(self) -> EventT | Literal[Signal.NEED_DATA, Signal.CONNECTION_CLOSED]:
        """The next event (a request on the server side, a response on the client side),
        ``NEED_DATA`` or ``CONNECTION_CLOSED``.

        Raises a ``ProtocolError`` subclass when the stream is broken; after that
        every call raises the same error.
        """
        if self._error is not None:
            raise self._error
        try:
            frame = self._reader.next_frame()
            if frame is None:
                return CONNECTION_CLOSED if self._reader.at_clean_eof else NEED_DATA
            return self._decode(frame)
        except ProtocolError as exc:
            self._error = exc
            raise

    def _decode(self, frame: bytes | bytearray) -> EventT:
        raise NotImplementedError


class ServerConnection(_Connection[Request | UnsupportedRequest]):
    """Server side of one Kafka connection: bytes in, request events out.

    ``request_types`` maps api key to generated request class (default: every
    schema); keys missing from it come out as ``UnsupportedRequest``.
    """

    def __init__(
        self,
        max_frame_size: int = DEFAULT_MAX_FRAME_SIZE,
        request_types: Mapping[int, type[Message]] | None = None,
    ) -> None:
        self._reader = _FrameReader(max_frame_size)
        self._request_types: Mapping[int, type[Message]] = REQUESTS if request_types is None else request_types
        self._error: ProtocolError | None = None

    @property
    def max_frame_size(self) -> int:
        """Largest frame accepted from now on (checked when a size prefix is read).

        Adjustable at run time: a SASL listener accepts only
        ``sasl.server.max.receive.size`` until the peer has authenticated.
        """
        return self._reader.max_frame_size

    @max_frame_size.setter
    def max_frame_size(self, value: int) -> None:
        self._reader.max_frame_size = value

    @property
    def bytes_buffered(self) -> int:
        """Bytes received but not yet handed out as events."""
        return self._reader.buffered

    @property
    def partial_frame_size(self) -> int | None:
        """Size of the request being received once its size prefix has arrived
        (the whole frame is not here yet), else None. Lets the I/O loop account for
        the memory the request will take before it is allocated."""
        return self._reader.partial_size

    @property
    def receiving_frame(self) -> bool:
        """True while part of a request (at least one byte) has arrived but not all of it."""
        return self._reader.partial_size is not None or self._reader.buffered > 0

    def receive_buffer(self, min_missing: int) -> memoryview | None:
        """A writable view to read the rest of a large request straight into
        (then call :meth:`received_into`), or None: use :meth:`receive_data`.

        Offered while at least ``min_missing`` bytes of a frame whose size is
        known are still to come; saves joining the received chunks into one
        frame (a copy of every large Produce request).
        """
        return self._reader.direct_buffer(min_missing)

    def received_into(self, n: int) -> None:
        """``n`` bytes were read into :meth:`receive_buffer`'s view; 0 means the peer closed."""
        self._reader.filled(n)

    def next_raw_frame(self) -> bytes | bytearray | Literal[Signal.NEED_DATA, Signal.CONNECTION_CLOSED]:
        """The next frame's bytes, undecoded (no request header), ``NEED_DATA`` or
        ``CONNECTION_CLOSED``.

        For SASL tokens after a SaslHandshake v0: they come as bare size-prefixed
        frames. Raises like :meth:`next_event` when the stream is broken.
        """
        if self._error is not None:
            raise self._error
        try:
            frame = self._reader.next_frame()
        except ProtocolError as exc:
            self._error = exc
            raise
        if frame is None:
            return CONNECTION_CLOSED if self._reader.at_clean_eof else NEED_DATA
        return frame

    @staticmethod
    def encode_raw(data: bytes) -> bytearray:
        """``data`` framed with a size prefix and nothing else (a bare SASL token)."""
        out = bytearray(_SIZE.pack(len(data)))
        out += data
        return out

    def _decode(self, frame: bytes | bytearray) -> Request | UnsupportedRequest:
        frame_size = len(frame)
        if frame_size < _REQUEST_PREFIX_SIZE:
            raise MalformedFrameError(
                f"request frame of {frame_size} bytes is shorter than the {_REQUEST_PREFIX_SIZE}-byte header prefix"
            )
        api_key, api_version, correlation_id = _REQUEST_PREFIX.unpack_from(frame, 0)
        view = memoryview(frame)
        request_type = self._request_types.get(api_key)
        if request_type is None:
            header, _ = self._decode_header(view, 1, api_key, api_version, correlation_id)
            return UnsupportedRequest(header, api_key, api_version, f"unknown api key {api_key}", frame_size)
        header_version = request_header_version(request_type, api_version)
        header, pos = self._decode_header(view, header_version, api_key, api_version, correlation_id)
        if not request_type.MIN_VERSION <= api_version <= request_type.MAX_VERSION:
            return UnsupportedRequest(
                header,
                api_key,
                api_version,
                f"{request_type.NAME} v{api_version} is outside the supported range "
                f"v{request_type.MIN_VERSION}-v{request_type.MAX_VERSION}",
                frame_size,
            )
        try:
            body, _ = request_type.decode_at(view, pos, api_version)
        except ProtocolError as exc:
            raise MalformedFrameError(
                f"malformed {request_type.NAME} v{api_version} body (correlation id {correlation_id}): {exc}",
                header,
            ) from exc
        return Request(header, body, api_key, api_version, frame_size)

    @staticmethod
    def _decode_header(
        view: memoryview, header_version: int, api_key: int, api_version: int, correlation_id: int
    ) -> tuple[RequestHeader, int]:
        try:
            return RequestHeader.decode_at(view, 0, header_version)
        except ProtocolError as exc:
            raise MalformedFrameError(
                f"malformed request header v{header_version} (api key {api_key}, "
                f"version {api_version}, correlation id {correlation_id}): {exc}"
            ) from exc

    def encode_response(
        self,
        request: Request | UnsupportedRequest | RequestHeader,
        response: Message,
        api_version: int,
    ) -> bytearray:
        """Frame ``response`` (size prefix + response header + body) for ``request``.

        ``api_version`` is the body version, normally the request's; the header
        version follows from it (``response_header_version``). Returns a
        ``bytearray`` to spare a copy of the whole response.
        """
        header = request if isinstance(request, RequestHeader) else request.header
        if response.API_KEY != header.request_api_key:
            raise ValueError(
                f"{response.NAME} (api key {response.API_KEY}) cannot answer a request "
                f"with api key {header.request_api_key}"
            )
        return _encode_frame(
            ResponseHeader(correlation_id=header.correlation_id),
            response_header_version(response, api_version),
            response,
            api_version,
        )

    def encode_response_chunks(
        self,
        request: Request | UnsupportedRequest | RequestHeader,
        response: Message,
        api_version: int,
    ) -> list[Chunk]:
        """Like :meth:`encode_response`, as the buffers to send in order: large bytes
        fields (a fetch's records) are sent from the buffers that hold them, not copied
        into the frame."""
        header = request if isinstance(request, RequestHeader) else request.header
        if response.API_KEY != header.request_api_key:
            raise ValueError(
                f"{response.NAME} (api key {response.API_KEY}) cannot answer a request "
                f"with api key {header.request_api_key}"
            )
        frame = _encode_frame(
            ResponseHeader(correlation_id=header.correlation_id),
            response_header_version(response, api_version),
            response,
            api_version,
            splice=True,
        )
        assert isinstance(frame, SplicedFrame)
        return frame.chunks()

    def api_versions_fallback_response(
        self, request: Request | UnsupportedRequest | RequestHeader, min_version: int, max_version: int
    ) -> bytearray:
        """Kafka's answer to an ApiVersions request at a version it does not know.

        An ApiVersions v0 response (header v0) with UNSUPPORTED_VERSION listing only
        ApiVersions' own served range ``min_version..max_version``; the client
        then retries at the highest version both sides share.
        """
        response = ApiVersionsResponse(
            error_code=ErrorCode.UNSUPPORTED_VERSION,
            api_keys=[ApiVersion(api_key=ApiKey.API_VERSIONS, min_version=min_version, max_version=max_version)],
        )
        return self.encode_response(request, response, 0)


class ClientConnection(_Connection[Response]):
    """Client side of one Kafka connection: requests out, matched responses in.

    Responses are matched to requests by correlation id; a response carrying an
    id we never sent (or already answered) is a ``MalformedFrameError``.
    """

    def __init__(
        self,
        client_id: str | None = "sharebroker",
        max_frame_size: int = CLIENT_MAX_FRAME_SIZE,
        response_types: Mapping[int, type[Message]] | None = None,
    ) -> None:
        self.client_id = client_id
        self._reader = _FrameReader(max_frame_size)
        self._response_types: Mapping[int, type[Message]] = RESPONSES if response_types is None else response_types
        self._next_correlation_id = 0
        # correlation id -> (response class, api version) for requests awaiting a response
        self._in_flight: dict[int, tuple[type[Message], int]] = {}
        self._error: ProtocolError | None = None

    @property
    def in_flight(self) -> int:
        """Requests sent that still expect a response."""
        return len(self._in_flight)

    def encode_request(
        self, request: Message, api_version: int, *, expect_response: bool = True
    ) -> tuple[int, bytearray]:
        """Frame ``request`` at ``api_version``; return its correlation id and the bytes.

        Pass ``expect_response=False`` for requests the server never answers
        (Produce with acks=0), so no response slot is kept for them.
        """
        correlation_id = self._next_correlation_id
        if correlation_id in self._in_flight:
            raise RuntimeError(f"correlation id {correlation_id} is still in flight")
        self._next_correlation_id = 0 if correlation_id == _MAX_CORRELATION_ID else correlation_id + 1
        header = RequestHeader(
            request_api_key=request.API_KEY,
            request_api_version=api_version,
            correlation_id=correlation_id,
            client_id=self.client_id,
        )
        frame = _encode_frame(header, request_header_version(request, api_version), request, api_version)
        if expect_response:
            self._in_flight[correlation_id] = (self._response_types[request.API_KEY], api_version)
        return correlation_id, frame

    def _decode(self, frame: bytes | bytearray) -> Response:
        frame_size = len(frame)
        if frame_size < _RESPONSE_PREFIX_SIZE:
            raise MalformedFrameError(f"response frame of {frame_size} bytes has no correlation id")
        correlation_id = _SIZE.unpack_from(frame, 0)[0]
        pending = self._in_flight.pop(correlation_id, None)
        if pending is None:
            raise MalformedFrameError(f"response for correlation id {correlation_id}, which is not in flight")
        response_type, api_version = pending
        view = memoryview(frame)
        try:
            header, pos = ResponseHeader.decode_at(view, 0, response_header_version(response_type, api_version))
            if (
                response_type.API_KEY == ApiKey.API_VERSIONS
                and api_version > 0
                and frame_size >= pos + 2
                and _INT16.unpack_from(frame, pos)[0] == ErrorCode.UNSUPPORTED_VERSION
            ):
                # The server did not know our version and answered in v0 (see
                # ServerConnection.api_versions_fallback_response).
                api_version = 0
            body, _ = response_type.decode_at(view, pos, api_version)
        except ProtocolError as exc:
            raise MalformedFrameError(
                f"malformed {response_type.NAME} v{api_version} (correlation id {correlation_id}): {exc}"
            ) from exc
        return Response(header, body, response_type.API_KEY, api_version, frame_size)
