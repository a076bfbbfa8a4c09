"""The base class of every generated message.

Generated modules attach a decoder and an encoder per version to each message
class (``_DECODERS`` / ``_ENCODERS``); this class turns them into the public
API and converts any low-level failure into :class:`ProtocolError`, so callers
only ever see our protocol error type whatever bytes they feed in.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import Any, ClassVar, Self

from broker.protocol.errors import ProtocolError

# What a straight-line decoder can raise on malformed input: short reads
# (struct.error, IndexError), bad UTF-8 (UnicodeDecodeError is a ValueError),
# absurd counts (MemoryError, OverflowError), recursion through nested structs.
_DECODE_ERRORS = (struct.error, IndexError, ValueError, OverflowError, MemoryError, RecursionError)
# What an encoder can raise on values the wire cannot carry: out-of-range
# integers (struct.error), None where a value is required (TypeError,
# AttributeError), a wrong type (TypeError, ValueError).
_ENCODE_ERRORS = (struct.error, TypeError, AttributeError, ValueError, OverflowError)

Decoder = Callable[[memoryview, int], tuple[Any, int]]
Encoder = Callable[[Any, bytearray], None]


class Message:
    __slots__ = ()

    API_KEY: ClassVar[int]
    NAME: ClassVar[str]
    TYPE: ClassVar[str]
    MIN_VERSION: ClassVar[int]
    MAX_VERSION: ClassVar[int]
    FLEXIBLE_MIN: ClassVar[int | None]
    LATEST_VERSION_UNSTABLE: ClassVar[bool]
    _DECODERS: ClassVar[dict[int, Decoder]]
    _ENCODERS: ClassVar[dict[int, Encoder]]

    @classmethod
    def is_flexible(cls, version: int) -> bool:
        return cls.FLEXIBLE_MIN is not None and version >= cls.FLEXIBLE_MIN

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> Self:
        """Decode a whole message starting at byte 0 of ``buf``."""
        if buf.__class__ is not memoryview:
            buf = memoryview(buf)
        return cls.decode_at(buf, 0, version)[0]

    @classmethod
    def decode_at(cls, buf: memoryview, pos: int, version: int) -> tuple[Self, int]:
        """Decode one message at ``pos``; return it and the position after it."""
        decoder = cls._DECODERS.get(version)
        if decoder is None:
            raise ProtocolError(f"{cls.NAME} has no version {version} (valid: {cls.MIN_VERSION}-{cls.MAX_VERSION})")
        try:
            return decoder(buf, pos)
        except ProtocolError:
            raise
        except _DECODE_ERRORS as exc:
            raise ProtocolError(f"malformed {cls.NAME} v{version}: {exc}") from None

    def encode_into(self, out: bytearray, version: int) -> None:
        """Append this message, encoded at ``version``, to ``out``."""
        encoder = self._ENCODERS.get(version)
        if encoder is None:
            raise ProtocolError(f"{self.NAME} has no version {version} (valid: {self.MIN_VERSION}-{self.MAX_VERSION})")
        try:
            encoder(self, out)
        except ProtocolError:
            raise
        except _ENCODE_ERRORS as exc:
            raise ProtocolError(f"cannot encode {self.NAME} v{version}: {exc}") from None

    def encode(self, version: int) -> bytes:
        out = bytearray()
        self.encode_into(out, version)
        return bytes(out)
