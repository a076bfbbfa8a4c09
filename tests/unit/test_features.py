"""Finalized features: Kafka's checks of UpdateFeatures (pure), and the durable store."""

from __future__ import annotations

import trio

from broker.metadata.features import (
    SAFE_DOWNGRADE,
    UNSAFE_DOWNGRADE,
    UPGRADE,
    FeatureStore,
    initial_levels,
    validate,
)
from broker.protocol.errors import ErrorCode

CURRENT = {
    "metadata.version": 29,
    "group.version": 1,
    "share.version": 2,
    "streams.version": 1,
    "transaction.version": 2,
}


def _error(updates):
    levels, error = validate(CURRENT, updates, 1)
    assert error is not None and levels == CURRENT
    assert error.code == ErrorCode.INVALID_UPDATE_VERSION
    return error.message


def test_accepted_changes():
    assert validate(CURRENT, [("share.version", 1, SAFE_DOWNGRADE), ("group.version", 0, UNSAFE_DOWNGRADE)], 1) == (
        {**CURRENT, "share.version": 1, "group.version": 0},
        None,
    )
    assert validate(CURRENT, [("transaction.version", 2, UPGRADE)], 1) == (CURRENT, None)  # no change
    assert validate(CURRENT, [], 1) == (CURRENT, None)


def test_kafkas_refusals_and_messages():
    assert _error([("share.version", 3, UPGRADE)]) == (
        "Invalid update version 3 for feature share.version. Local controller 1 only supports versions 0-2"
    )
    assert _error([("foo.version", 1, UPGRADE)]) == (
        "Invalid update version 1 for feature foo.version. Local controller 1 does not support this feature."
    )
    assert _error([("transaction.version", 1, UPGRADE)]).endswith(
        "Can't downgrade the version of this feature without setting the upgrade type to either safe or unsafe "
        "downgrade."
    )
    assert _error([("share.version", 2, SAFE_DOWNGRADE), ("group.version", 2, SAFE_DOWNGRADE)]).endswith(
        "only supports versions 0-1"
    )
    assert _error([("share.version", -1, SAFE_DOWNGRADE)]).endswith("A feature version cannot be less than 0.")
    assert _error([("share.version", 1, 7)]).endswith("The controller does not support the given upgrade type.")
    assert _error([("metadata.version", 28, SAFE_DOWNGRADE)]) == (
        "Unsupported metadata.version downgrade from 29 to 28. Refusing to perform the requested downgrade "
        "because it might delete metadata information."
    )
    assert _error([("metadata.version", 28, UNSAFE_DOWNGRADE)]).endswith(
        "Unsafe metadata downgrade is not supported in this version."
    )
    assert _error([("metadata.version", 0, SAFE_DOWNGRADE)]).endswith("only supports versions 7-29")


def test_initial_levels_come_from_the_settings():
    settings = {"share.version": 1, "transaction.version": 0}
    assert initial_levels(settings.__getitem__) == {**CURRENT, "share.version": 1, "transaction.version": 0}


def test_the_store_is_durable_and_tells_its_listeners(tmp_path):
    store = FeatureStore(tmp_path, {"share.version": 2, "transaction.version": 2}.__getitem__)
    store.load()
    seen = []
    store.listeners.append(seen.append)
    trio.run(store.update, {**CURRENT, "share.version": 1})
    assert store.level("share.version") == 1 and store.epoch == 2 and seen[-1]["share.version"] == 1
    overlaid = store.overlay(lambda key: f"setting {key}")
    assert overlaid("share.version") == 1 and overlaid("other") == "setting other"
    again = FeatureStore(tmp_path, {"share.version": 2, "transaction.version": 2}.__getitem__)
    again.load()
    assert again.levels == store.levels and again.epoch == 2
