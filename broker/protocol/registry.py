"""Static facts about every API, and lazy access to the generated classes.

The generated ``broker.protocol.messages`` package lists every API with its
version range without importing the ~100 message modules; a class is imported
the first time it is asked for. This keeps broker start-up fast.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from typing import NamedTuple

from broker.protocol.message_base import Message


class ApiInfo(NamedTuple):
    api_key: int
    name: str
    request_module: str
    request_class: str
    response_module: str
    response_class: str
    min_version: int
    max_version: int
    flexible_min: int | None  # first flexible version, None if never flexible
    latest_version_unstable: bool

    def is_flexible(self, version: int) -> bool:
        return self.flexible_min is not None and version >= self.flexible_min

    def request_header_version(self, version: int) -> int:
        return 2 if self.is_flexible(version) else 1

    def response_header_version(self, version: int) -> int:
        # ApiVersions responses always use header v0, so a client that sent a
        # version we do not know can still parse the error we return.
        if self.api_key == 18:
            return 0
        return 1 if self.is_flexible(version) else 0


class LazyRegistry(Mapping[int, type[Message]]):
    """api key -> request (or response) class, importing each module on first use."""

    def __init__(self, package: str, index: Mapping[int, ApiInfo], side: str) -> None:
        self._package = package
        self._index = index
        self._side = side
        self._cache: dict[int, type[Message]] = {}

    def __getitem__(self, api_key: int) -> type[Message]:
        cls = self._cache.get(api_key)
        if cls is None:
            info = self._index[api_key]
            if self._side == "request":
                module, name = info.request_module, info.request_class
            else:
                module, name = info.response_module, info.response_class
            cls = getattr(importlib.import_module(f"{self._package}.{module}"), name)
            self._cache[api_key] = cls
        return cls

    def __iter__(self) -> Iterator[int]:
        return iter(self._index)

    def __len__(self) -> int:
        return len(self._index)

    def __contains__(self, api_key: object) -> bool:
        return api_key in self._index
