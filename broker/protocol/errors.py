"""Protocol exceptions and the Kafka error-code table."""

from __future__ import annotations


class ProtocolError(Exception):
    """Raised for any malformed or unsupported input on the wire.

    Every decoder in ``broker.protocol`` raises only this type (or a subclass),
    whatever the bytes it is given.
    """


class UnsupportedFieldError(ProtocolError):
    """A non-default value was set on a field the chosen version cannot carry."""
