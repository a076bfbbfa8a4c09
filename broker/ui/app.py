"""The console's web application (Starlette): routes, error pages, authentication.

Every page is a GET of its own URL (bookmarkable; its query string holds its choices).
Live sections (``#live``) are fetched again every refresh interval by htmx and swapped
in place. Actions are POSTs that first answer with a confirmation page; with
``--read-only`` they are neither shown nor accepted.
"""

from __future__ import annotations

import base64
import binascii
import hmac
from collections.abc import Awaitable, Callable
from typing import Any

import structlog
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from broker.admin.client import (
    AdminAuthenticationError,
    AdminConnectionError,
    AdminError,
    AdminTimeoutError,
    KafkaApiError,
    UnsupportedApiError,
)
from broker.protocol.errors import ErrorCode
from broker.ui.gateway import Gateway
from broker.ui.rendering import HERE, ConsoleError, render, templates

log = structlog.get_logger("sharebroker.ui")

NOT_FOUND_CODES = (ErrorCode.GROUP_ID_NOT_FOUND, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, ErrorCode.UNKNOWN_TOPIC_ID)


# (error class, HTTP status, headline), the first match wins: subclasses of AdminError before it.
_ERRORS: tuple[tuple[type[Exception], int, str], ...] = (
    (AdminAuthenticationError, 502, "The cluster refused the console's credentials"),
    (AdminTimeoutError, 504, "The cluster did not answer in time"),
    (AdminConnectionError, 502, "The cluster cannot be reached"),
    (UnsupportedApiError, 501, "This cluster does not serve what the page needs"),
    (AdminError, 502, "The cluster request failed"),
    (ValueError, 400, "Bad request"),
)


def describe_error(exc: BaseException) -> tuple[int, str, str]:
    """(HTTP status, headline, detail) for an error met while building a page."""
    if isinstance(exc, ConsoleError):
        return exc.status, "Bad request", str(exc)
    if isinstance(exc, KafkaApiError):
        status = 404 if exc.code in NOT_FOUND_CODES else 502
        what = "Not found" if status == 404 else "Kafka refused the request"
        return status, what, str(exc)
    for kind, status, headline in _ERRORS:
        if isinstance(exc, kind):
            return status, headline, str(exc)
    return 500, "The console failed to build this page", f"{type(exc).__name__} (details are in the console's log)"


async def error_page(request: Request, exc: Exception) -> Response:
    status, headline, detail = describe_error(exc)
    if status == 500:
        log.exception("ui_page_failed", path=request.url.path, exc_info=exc)
    return render(request, "error.html", status, headline=headline, detail=detail, title=headline)


class BasicAuth:
    """HTTP basic authentication for every path (static files too) when users are set."""

    def __init__(self, app: ASGIApp, users: dict[str, str]) -> None:
        self.app = app
        self.users = users

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not self.users or self._ok(scope):
            await self.app(scope, receive, send)
            return
        body = (
            b"<!doctype html><title>Sign in required</title><h1>Sign in required</h1>"
            b"<p>The user name or password is wrong, or none was given. Reload the page to try again.</p>"
        )
        await send(
            {
                "type": "http.response.start",
                "status": 401,
                "headers": [
                    (b"www-authenticate", b'Basic realm="sharebroker ui", charset="UTF-8"'),
                    (b"content-type", b"text/html; charset=utf-8"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})

    def _ok(self, scope: Scope) -> bool:
        header = dict(scope.get("headers") or []).get(b"authorization", b"")
        scheme, _, token = header.partition(b" ")
        if scheme.lower() != b"basic":
            return False
        try:
            user, sep, password = base64.b64decode(token, validate=True).decode("utf-8").partition(":")
        except (binascii.Error, UnicodeDecodeError):
            return False
        expected = self.users.get(user)
        return bool(sep) and expected is not None and hmac.compare_digest(password.encode(), expected.encode())


class SameOrigin:
    """Refuse a POST whose Origin names another site (a form on another page posting here)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "POST":
            headers = dict(scope.get("headers") or [])
            origin = headers.get(b"origin")
            host = headers.get(b"host", b"")
            if origin is not None and origin != b"null" and origin.split(b"://", 1)[-1] != host:
                response = HTMLResponse("<h1>Refused</h1><p>The form was sent from another site.</p>", status_code=403)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def create_app(gateway: Gateway, users: dict[str, str] | None = None) -> ASGIApp:
    from broker.ui import pages

    routes = [*pages.routes(), Mount("/static", app=StaticFiles(directory=str(HERE / "static")), name="static")]
    # Known errors are answered by the exception middleware; anything else by the server-error
    # middleware (logged with its traceback there, shown as one line on the page).
    handlers: dict[Any, Callable[[Request, Exception], Awaitable[Response]]] = {
        AdminError: error_page,
        ConsoleError: error_page,
        ValueError: error_page,
        Exception: error_page,
    }
    app = Starlette(routes=routes, exception_handlers=handlers)
    app.state.gateway = gateway
    app.state.templates = templates()
    return BasicAuth(SameOrigin(app), users or {})
