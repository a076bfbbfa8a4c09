"""Browser tests of ``sharebroker ui`` (make test-ui): marked ``ui`` and left out of make test."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.ui.harness import browser_missing, new_browser


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "tests/ui/" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.ui)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    missing = browser_missing()
    if missing:
        pytest.fail(missing)
    driver = new_browser()
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()
