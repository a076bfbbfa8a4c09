"""Fixtures of the docker test: the engine, the compose binary and the images come from
docker/test.sh through the environment (it runs this directory; `make test-docker`).

Every command here is bounded in time; compose projects are taken down with their
volumes by the fixture that started them, also when a test fails.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from docker_helpers import CONFIGS, FIGURES, REQUIRED_ENV, Compose


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    missing = [name for name in REQUIRED_ENV if not os.environ.get(name)]
    if missing:
        reason = f"run through docker/test.sh (make test-docker): {', '.join(missing)} not set"
        for item in items:
            item.add_marker(pytest.mark.skip(reason=reason))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    for name, text in CONFIGS.items():
        terminalreporter.section(f"docker compose -f docker/{name} config")
        terminalreporter.write(text)
    if FIGURES:
        terminalreporter.section("docker test figures")
        for key, value in FIGURES.items():
            terminalreporter.write_line(f"{key}: {value}")


@pytest.fixture
def compose_project() -> Iterator[list[Compose]]:
    """Projects appended here are taken down (with volumes) after the test."""
    started: list[Compose] = []
    yield started
    errors = []
    for c in reversed(started):
        try:
            c.down()
        except Exception as e:  # report every project, then fail
            errors.append(e)
    if errors:
        raise errors[0]
