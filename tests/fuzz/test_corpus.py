"""Replay every fuzz seed and saved finding through its target (no atheris needed).

Inputs that once broke a target live in ``tests/fuzz/corpus/<target>/``; this
keeps them fixed. The coverage-guided search itself is ``make fuzz``.
"""

from __future__ import annotations

import pytest

from tests.fuzz.targets import TARGETS, seeds


@pytest.mark.parametrize("target", sorted(TARGETS))
def test_seeds_and_saved_findings_pass(target: str) -> None:
    inputs = seeds(target)
    assert inputs, f"no seeds for {target}"
    for data in inputs:
        TARGETS[target](data)
