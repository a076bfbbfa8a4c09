"""Integration tests run the real broker process (as the README starts it) against real clients."""

from __future__ import annotations

import uuid

import pytest


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/integration/" in str(item.fspath):
            item.add_marker(pytest.mark.integration)


@pytest.fixture
def topic_name() -> str:
    return f"t-{uuid.uuid4().hex[:12]}"
