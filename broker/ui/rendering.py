"""Rendering a page: the templates, their common context, and the error a page may raise."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.templating import Jinja2Templates

from broker.ui import filters
from broker.ui.gateway import Gateway

HERE = Path(__file__).resolve().parent


class ConsoleError(Exception):
    """Bad input from the browser: shown on the page with this status."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def templates() -> Jinja2Templates:
    t = Jinja2Templates(directory=str(HERE / "templates"))
    filters.install(t.env)
    return t


def render(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
    app = request.app
    gw: Gateway = app.state.gateway
    context.setdefault("error", None)
    base = {
        "request": request,
        "read_only": gw.settings.read_only,
        "refresh_s": gw.settings.refresh_s,
        "bootstrap": gw.settings.bootstrap_servers,
        "metrics_on": bool(gw.settings.metrics_urls),
        "live": request.headers.get("HX-Request") == "true",
    }
    # htmx swaps only 2xx answers: a live refresh that fails still shows its message.
    if base["live"]:
        status = 200
    return app.state.templates.TemplateResponse(request, name, {**base, **context}, status_code=status)
