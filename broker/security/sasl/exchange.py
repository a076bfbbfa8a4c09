"""What the server-side mechanisms answer alike about their exchange."""

from __future__ import annotations

__all__ = ["ServerExchange"]


class ServerExchange:
    """A server exchange is complete once it has authenticated someone: the mechanism
    sets ``_authorized`` to the authorization id then, and not before."""

    _authorized: str | None = None

    @property
    def complete(self) -> bool:
        return self._authorized is not None

    @property
    def authorization_id(self) -> str:
        if self._authorized is None:
            raise RuntimeError("Authentication exchange has not completed")
        return self._authorized
