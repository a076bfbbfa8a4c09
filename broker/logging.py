"""Structured logging for the broker: one configuration for structlog and stdlib logging.

``configure_logging("console" | "json", "info")`` sends every log line - from
``structlog.get_logger(__name__)`` / :func:`get_logger` and from plain ``logging`` -
through the same processors: level, logger name, ISO-8601 UTC timestamp, then either a
human-readable console line or one JSON object per line.

Importing this module is cheap (structlog is imported when logging is configured or a
logger is first requested), so the CLI can import it before the broker starts.
"""

from __future__ import annotations

import sys
from typing import IO, Any

__all__ = ["FORMATS", "LEVELS", "LazyLogger", "apply_requested", "configure_logging", "get_logger", "request_logging"]

FORMATS = ("console", "json")
LEVELS = {"debug": 10, "info": 20, "warning": 30, "error": 40, "critical": 50}

_HANDLER_MARK = "_sharebroker_handler"


def configure_logging(fmt: str = "console", level: str | int = "info", *, stream: IO[str] | None = None) -> None:
    """Route structlog and stdlib logging to ``stream`` (stderr) in format ``fmt``.

    Calling it again replaces the previous setup (tests rely on that).
    """
    import logging

    import structlog

    if fmt not in FORMATS:
        raise ValueError(f"log format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    if isinstance(level, str):
        try:
            level_no = LEVELS[level.lower()]
        except KeyError:
            raise ValueError(f"log level must be one of {', '.join(LEVELS)}, not {level!r}") from None
    else:
        level_no = int(level)
    out = stream if stream is not None else sys.stderr

    shared: list[Any] = [
        structlog.contextvars.merge_contextvars,
        structlog.stdlib.add_log_level,
        structlog.stdlib.add_logger_name,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]
    renderer: Any
    if fmt == "json":
        renderer = structlog.processors.JSONRenderer()
        final: list[Any] = [structlog.processors.format_exc_info, renderer]
    else:
        isatty = getattr(out, "isatty", None)
        # Plain tracebacks: rich's pretty ones print local variables, which may hold
        # record payloads, and span dozens of lines per error.
        renderer = structlog.dev.ConsoleRenderer(
            colors=bool(isatty and isatty()), exception_formatter=structlog.dev.plain_traceback
        )
        final = [renderer]

    structlog.configure(
        processors=[*shared, structlog.stdlib.ProcessorFormatter.wrap_for_formatter],
        logger_factory=structlog.stdlib.LoggerFactory(),
        # Filtering happens before any processor runs, so disabled levels cost one call.
        wrapper_class=structlog.make_filtering_bound_logger(level_no),
        cache_logger_on_first_use=True,
    )

    handler = logging.StreamHandler(out)
    setattr(handler, _HANDLER_MARK, True)
    handler.setFormatter(
        structlog.stdlib.ProcessorFormatter(
            foreign_pre_chain=shared,
            processors=[structlog.stdlib.ProcessorFormatter.remove_processors_meta, *final],
        )
    )
    root = logging.getLogger()
    for old in list(root.handlers):
        if getattr(old, _HANDLER_MARK, False):
            root.removeHandler(old)
            old.close()
    root.addHandler(handler)
    root.setLevel(level_no)


def get_logger(name: str | None = None, **initial: Any) -> Any:
    """A structlog logger named ``name`` (shown as ``logger`` in every line)."""
    import structlog

    return structlog.get_logger(name, **initial) if name else structlog.get_logger(**initial)


# What the command line asked for, applied once the server has bound its listener
# (start-up: structlog is imported off the critical path, see broker.server.serve).
_requested: tuple[str, str | int] | None = None


def request_logging(fmt: str = "console", level: str | int = "info") -> None:
    """Remember the logging setup to apply later with :func:`apply_requested` (cheap)."""
    global _requested
    if fmt not in FORMATS:
        raise ValueError(f"log format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    _requested = (fmt, level)


def apply_requested() -> None:
    """Apply what :func:`request_logging` asked for (nothing if it was not called)."""
    global _requested
    if _requested is not None:
        fmt, level = _requested
        _requested = None
        configure_logging(fmt, level)


class LazyLogger:
    """A logger for modules on the start-up path: structlog is imported on first use,
    so importing the module costs nothing; calls behave as ``get_logger(name)``'s."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._logger: Any = None

    def __getattr__(self, attr: str) -> Any:
        if self._logger is None:
            self._logger = get_logger(self._name)
        return getattr(self._logger, attr)
