"""bench.compare without brokers: scenario selection and file names."""

from __future__ import annotations

import base64

import pytest

from bench import compare, scale


def test_parse_scenarios():
    assert compare.parse_scenarios("all") == list(compare.SCENARIOS)
    assert compare.parse_scenarios("") == list(compare.SCENARIOS)
    # Canonical order whatever the order given.
    assert compare.parse_scenarios("scale, produce,startup") == ["startup", "produce", "scale"]
    with pytest.raises(ValueError, match="profile"):
        compare.parse_scenarios("produce,profile")


def test_default_json_name():
    assert compare.default_json_name(list(compare.SCENARIOS), "2026-01-02") == "compare-2026-01-02.json"
    assert compare.default_json_name(["produce"], "2026-01-02") == "produce-2026-01-02.json"
    assert compare.default_json_name(["startup", "fetch"], "2026-01-02") == "startup-fetch-2026-01-02.json"


def test_member_id_is_a_kafka_uuid_string():
    m = scale.member_id()
    assert len(m) == 22 and "=" not in m
    assert len(base64.urlsafe_b64decode(m + "==")) == 16
    assert scale.member_id() != m
