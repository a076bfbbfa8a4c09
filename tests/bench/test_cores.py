"""bench.cores: how busy each core was over a stretch, from /proc/stat."""

from __future__ import annotations

import os
import time

import pytest

from bench import cores

BEFORE = """cpu  300 0 100 900 10 0 0 0 0 0
cpu0 100 0 50 800 10 0 0 0 0 0
cpu1 200 0 50 100 0 0 0 0 0 0
intr 12345 0 0
ctxt 999
"""
AFTER = """cpu  600 0 150 1100 10 0 0 20 0 0
cpu0 120 0 60 960 10 0 0 10 0 0
cpu1 460 0 90 110 0 0 0 10 0 0
intr 12399 0 0
"""


def test_busy_and_steal_are_shares_of_each_core_s_stretch():
    before, after = cores.sample(BEFORE), cores.sample(AFTER)
    assert before == {0: (150, 0, 960), 1: (250, 0, 350)}
    # core 0: 30 busy ticks and 10 stolen of 200; core 1: 300 busy and 10 stolen of 320.
    assert cores.busy_pct(before, after) == {"0": {"busy": 15, "steal": 5}, "1": {"busy": 94, "steal": 3}}


def test_a_core_without_ticks_in_between_or_missing_before_gives_no_figure():
    before = cores.sample("cpu0 1 0 0 9\n")  # an old kernel: no iowait, irq or steal columns
    after = cores.sample("cpu0 1 0 0 9\ncpu1 5 0 0 5\n")
    assert before == {0: (1, 0, 10)}
    assert cores.busy_pct(before, after) == {}


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="needs sched_setaffinity")
def test_a_busy_loop_pinned_to_one_core_shows_on_that_core():
    saved = os.sched_getaffinity(0)
    core = min(saved)
    os.sched_setaffinity(0, {core})
    try:
        stretch = cores.Stretch()
        until = time.monotonic() + 0.5
        while time.monotonic() < until:
            pass
        busy = stretch.end()
    finally:
        os.sched_setaffinity(0, saved)
    assert busy[str(core)]["busy"] >= 80
