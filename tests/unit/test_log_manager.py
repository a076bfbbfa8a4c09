"""LogManager: topic catalog, topic admin operations, restarts, effective configs."""

from __future__ import annotations

import json
import os
import uuid

import pytest

from broker.log.checkpoint import CLEAN_SHUTDOWN_FILE, LOG_START_OFFSET_CHECKPOINT, read_offset_checkpoint
from broker.log.config import ConfigSource, LogConfig
from broker.log.manager import LogManager, run_steps_async
from broker.protocol.errors import ErrorCode, KafkaError
from tests.unit.test_log_helpers import Clock, batch, batch_offsets


@pytest.fixture
def manager(tmp_path):
    m = LogManager(tmp_path / "data", now_ms=Clock())
    m.open()
    yield m
    m.close()


def _code(exc_info) -> int:
    return exc_info.value.error_code


def test_create_topic_makes_partitions_and_catalog(manager):
    info = manager.create_topic("orders", 3, {"retention.ms": "1000", "cleanup.policy": "delete"})
    assert info.partitions == 3 and isinstance(info.topic_id, uuid.UUID) and not info.internal
    assert manager.topics["orders"] is info
    assert manager.topic_by_id(info.topic_id) is info
    assert manager.topic_by_id(uuid.uuid4()) is None
    for p in range(3):
        # A partition's directory is made by its first write (an empty one costs no file).
        assert not (manager.data_dir / f"orders-{p}").exists()
        manager.partition("orders", p).append(batch(1))
        assert (manager.data_dir / f"orders-{p}" / "partition.metadata").exists()
        assert manager.partition("orders", p).config.retention_ms == 1000
    assert manager.partition("orders", 3) is None
    catalog = json.loads((manager.data_dir / "topics.json").read_text())
    assert catalog["topics"] == [
        {
            "name": "orders",
            "topic_id": str(info.topic_id),
            "partitions": 3,
            "configs": {"cleanup.policy": "delete", "retention.ms": "1000"},
            "internal": False,
        }
    ]
    assert not list(manager.data_dir.glob("*.tmp"))


def test_restart_keeps_topics_ids_configs_and_offsets(tmp_path):
    data = tmp_path / "data"
    m = LogManager(data, {"log.segment.bytes": 400}, now_ms=Clock())
    m.open()
    info = m.create_topic("a", 2, {"max.message.bytes": "5000"})
    internal = m.create_topic("__consumer_offsets", 1, {"cleanup.policy": "compact"}, internal=True)
    for _ in range(10):
        m.partition("a", 1).append(batch(2, value_size=60))
    m.partition("a", 1).delete_records(5)
    m.close()
    assert (data / CLEAN_SHUTDOWN_FILE).exists()
    m = LogManager(data, {"log.segment.bytes": 400}, now_ms=Clock())
    m.open()
    assert not (data / CLEAN_SHUTDOWN_FILE).exists()  # a crash from now on is unclean
    assert m.topics["a"] == info
    assert m.topics["__consumer_offsets"].internal and m.topic_by_id(internal.topic_id).name == "__consumer_offsets"
    log = m.partition("a", 1)
    assert (log.log_start_offset, log.log_end_offset) == (5, 20)
    assert log.config.max_message_bytes == 5000 and log.config.segment_bytes == 400
    assert batch_offsets(log.read(18, 100).records) == [(18, 19)]
    assert m.partition("a", 0).log_end_offset == 0
    m.close()


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("", 17),
        (".", 17),
        ("..", 17),
        ("a" * 250, 17),
        ("bad/name", 17),
        ("sp ace", 17),
        ("ünï", 17),
    ],
)
def test_invalid_topic_names(manager, name, code):
    with pytest.raises(KafkaError) as err:
        manager.create_topic(name, 1, {})
    assert _code(err) == code == ErrorCode.INVALID_TOPIC_EXCEPTION


def test_create_topic_errors(manager):
    manager.create_topic("a.b", 1, {})
    assert manager.create_topic("x" * 249, 1, {}).name == "x" * 249
    cases = [
        (("a.b", 1, {}), {}, ErrorCode.TOPIC_ALREADY_EXISTS),
        (("a_b", 1, {}), {}, ErrorCode.INVALID_TOPIC_EXCEPTION),  # collides with a.b
        (("c", 0, {}), {}, ErrorCode.INVALID_PARTITIONS),
        (("c", -2, {}), {}, ErrorCode.INVALID_PARTITIONS),
        (("c", 10_001, {}), {}, ErrorCode.INVALID_PARTITIONS),
        (("c", 1, {}), {"replication_factor": 3}, ErrorCode.INVALID_REPLICATION_FACTOR),
        (("c", 1, {"no.such.config": "1"}), {}, ErrorCode.INVALID_CONFIG),
        (("c", 1, {"retention.ms": "soon"}), {}, ErrorCode.INVALID_CONFIG),
        (("c", 1, {"retention.ms": "-2"}), {}, ErrorCode.INVALID_CONFIG),
        (("c", 1, {"segment.bytes": "1000"}), {}, ErrorCode.INVALID_CONFIG),  # below 1 MiB
        (("c", 1, {"cleanup.policy": "compact,bogus"}), {}, ErrorCode.INVALID_CONFIG),
        (("c", 1, {"message.timestamp.type": "logappendtime"}), {}, ErrorCode.INVALID_CONFIG),
        (("c", 1, {"preallocate": "yes"}), {}, ErrorCode.INVALID_CONFIG),
    ]
    for args, kwargs, code in cases:
        with pytest.raises(KafkaError) as err:
            manager.create_topic(*args, **kwargs)
        assert _code(err) == code, (args, kwargs)
    assert set(manager.topics) == {"a.b", "x" * 249}
    assert not (manager.data_dir / "c-0").exists()


def test_validate_only_and_defaults(manager):
    info = manager.create_topic("v", -1, {"compression.type": "zstd"}, validate_only=True, replication_factor=1)
    assert info.partitions == 1 and "v" not in manager.topics
    assert not (manager.data_dir / "v-0").exists()
    given = uuid.uuid4()
    assert manager.create_topic("w", 2, {}, topic_id=given).topic_id == given


def test_delete_topic_removes_directories_and_recreate_starts_over(manager):
    first = manager.create_topic("gone", 2, {})
    for _ in range(3):
        manager.partition("gone", 0).append(batch(1))
    manager.partition("gone", 0).delete_records(2)
    manager.delete_topic("gone")
    assert "gone" not in manager.topics and manager.topic_by_id(first.topic_id) is None
    assert manager.partition("gone", 0) is None
    assert not any(p.name.startswith("gone-") for p in manager.data_dir.iterdir())
    assert ("gone", 0) not in read_offset_checkpoint(manager.data_dir / LOG_START_OFFSET_CHECKPOINT)
    with pytest.raises(KafkaError) as err:
        manager.delete_topic("gone")
    assert _code(err) == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
    second = manager.create_topic("gone", 1, {})
    assert second.topic_id != first.topic_id
    log = manager.partition("gone", 0)
    assert (log.log_start_offset, log.log_end_offset) == (0, 0)


def test_create_partitions(manager):
    manager.create_topic("p", 2, {"retention.ms": "5000"})
    for bad in (1, 2, 10_001):
        with pytest.raises(KafkaError) as err:
            manager.create_partitions("p", bad)
        assert _code(err) == ErrorCode.INVALID_PARTITIONS
    with pytest.raises(KafkaError) as err:
        manager.create_partitions("nope", 3)
    assert _code(err) == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
    assert manager.create_partitions("p", 5, validate_only=True).partitions == 5
    assert manager.partition("p", 2) is None
    info = manager.create_partitions("p", 5)
    assert info.partitions == 5 == manager.topics["p"].partitions
    assert manager.partition("p", 4).config.retention_ms == 5000


def test_alter_topic_configs(manager):
    manager.create_topic("c", 1, {"retention.ms": "5000", "segment.ms": "100000"})
    info = manager.alter_topic_configs("c", {"retention.bytes": "1000"}, ["segment.ms"])
    assert info.configs == {"retention.ms": "5000", "retention.bytes": "1000"}
    config = manager.partition("c", 0).config
    assert (config.retention_bytes, config.segment_ms) == (1000, LogConfig().segment_ms)
    for bad_set, bad_delete in (({"retention.ms": "x"}, []), ({}, ["not.a.key"]), ({"unknown": "1"}, [])):
        with pytest.raises(KafkaError) as err:
            manager.alter_topic_configs("c", bad_set, bad_delete)
        assert _code(err) == ErrorCode.INVALID_CONFIG
    manager.alter_topic_configs("c", {"retention.ms": "1"}, [], validate_only=True)
    assert manager.topics["c"].configs["retention.ms"] == "5000"
    on_disk = json.loads((manager.data_dir / "topics.json").read_text())["topics"][0]["configs"]
    assert on_disk == {"retention.bytes": "1000", "retention.ms": "5000"}


def test_effective_topic_config_sources(tmp_path):
    m = LogManager(
        tmp_path,
        {"log.retention.hours": 24, "log.segment.bytes": 2_000_000, "log.cleanup.policy": ("compact", "delete")},
        broker_config_sources={"log.segment.bytes": ConfigSource.DEFAULT_CONFIG},
        now_ms=Clock(),
    )
    m.open()
    m.create_topic("e", 1, {"max.message.bytes": "2000"})
    eff = m.effective_topic_config("e")
    assert eff["max.message.bytes"] == ("2000", ConfigSource.TOPIC_CONFIG)
    assert eff["retention.ms"] == ("86400000", ConfigSource.STATIC_BROKER_CONFIG)
    assert eff["segment.bytes"] == ("2000000", ConfigSource.DEFAULT_CONFIG)
    assert eff["cleanup.policy"] == ("compact,delete", ConfigSource.STATIC_BROKER_CONFIG)
    assert eff["flush.messages"] == (str(2**63 - 1), ConfigSource.DEFAULT_CONFIG)
    assert eff["message.timestamp.type"] == ("CreateTime", ConfigSource.DEFAULT_CONFIG)
    assert m.partition("e", 0).config.retention_ms == 86_400_000
    with pytest.raises(KafkaError):
        m.effective_topic_config("missing")
    m.close()


def test_log_config_from_broker_synonyms():
    assert LogConfig.from_configs({}, {}) == LogConfig()
    config = LogConfig.from_configs(
        {"log.retention.minutes": "3", "log.retention.hours": "1", "log.roll.hours": "2", "message.max.bytes": 99},
        {"flush.messages": "10"},
    )
    assert config.retention_ms == 180_000  # minutes beat hours
    assert config.segment_ms == 7_200_000
    assert config.max_message_bytes == 99 and config.flush_messages == 10
    assert LogConfig.from_configs({"log.retention.hours": "-1"}, {}).retention_ms == -1
    assert LogConfig.from_configs({"log.retention.ms": "5"}, {"retention.ms": "7"}).retention_ms == 7


def test_from_broker_config(tmp_path):
    from broker.config import load_config

    config = load_config(None, [f"log.dirs={tmp_path}", "log.retention.hours=2"], environ={})
    m = LogManager.from_config(tmp_path, config)
    m.open()
    m.create_topic("f", 1, {})
    eff = m.effective_topic_config("f")
    assert eff["retention.ms"] == ("7200000", ConfigSource.STATIC_BROKER_CONFIG)
    assert eff["segment.bytes"] == ("1073741824", ConfigSource.DEFAULT_CONFIG)
    assert m.partition("f", 0).config.retention_ms == 7_200_000
    m.close()


def test_catalog_write_is_atomic(manager, monkeypatch):
    manager.create_topic("keep", 1, {})
    before = (manager.data_dir / "topics.json").read_bytes()

    def failing_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(KafkaError) as err:
        manager.create_topic("new", 2, {})
    assert _code(err) == ErrorCode.KAFKA_STORAGE_ERROR
    monkeypatch.undo()
    assert (manager.data_dir / "topics.json").read_bytes() == before
    assert "new" not in manager.topics and manager.partition("new", 0) is None
    assert not (manager.data_dir / "new-0").exists()


def test_orphan_directories_are_removed_at_open(tmp_path):
    data = tmp_path / "data"
    m = LogManager(data, now_ms=Clock())
    m.open()
    m.create_topic("real", 1, {})
    m.partition("real", 0).append(batch(1))  # its directory is made by its first write
    m.close()
    (data / "ghost-0").mkdir()
    (data / "ghost-0" / "00000000000000000000.log").write_bytes(b"")
    (data / "0123abcd-delete").mkdir()
    (data / "not-a-partition-dir-x").mkdir()
    m = LogManager(data, now_ms=Clock())
    m.open()
    assert not (data / "ghost-0").exists() and not (data / "0123abcd-delete").exists()
    assert (data / "real-0").exists() and (data / "not-a-partition-dir-x").exists()
    m.close()


def test_data_directory_is_locked(tmp_path, manager):
    other = LogManager(manager.data_dir, now_ms=Clock())
    with pytest.raises(KafkaError) as err:
        other.open()
    assert _code(err) == ErrorCode.KAFKA_STORAGE_ERROR


def test_unclean_restart_recovers_every_partition(tmp_path):
    data = tmp_path / "data"
    m = LogManager(data, now_ms=Clock())
    m.open()
    m.create_topic("u", 2, {})
    for p in range(2):
        for _ in range(4):
            m.partition("u", p).append(batch(1))
    for log in m.logs():
        log.flush()
    m.checkpoint()
    path = m.partition("u", 1).active_segment.log_path
    for log in m.logs():
        log.discard()  # killed: no close, no clean marker
    for d in m.dirs.dirs:
        os.close(d.lock_fd)  # the dead process' locks go away with it
    with open(path, "ab") as f:
        f.write(b"\x01" * 20)
    m = LogManager(data, now_ms=Clock())
    m.open()
    assert [m.partition("u", p).log_end_offset for p in range(2)] == [4, 4]
    assert path.stat().st_size == 4 * len(batch(1))
    m.close()


def test_apply_retention_over_all_logs(tmp_path):
    clock = Clock()
    m = LogManager(tmp_path, {"log.segment.bytes": 300, "log.retention.ms": 1000}, now_ms=clock)
    m.open()
    m.create_topic("r", 2, {})
    for p in range(2):
        for _ in range(6):
            m.partition("r", p).append(batch(1, value_size=100, ts=clock.now - 10_000))
    assert m.apply_retention(clock.now) >= 4
    assert all(log.log_start_offset == 6 for log in m.logs())
    m.close()


@pytest.fixture
def jbod_manager(tmp_path):
    """Two log directories: a new log is placed (opened) when its topic is created."""
    m = LogManager([tmp_path / "data", tmp_path / "data2"], now_ms=Clock())
    m.open()
    yield m
    m.close()


def test_creating_many_partitions_lets_other_tasks_run_and_takes_the_name(jbod_manager):
    """create_topic_steps pauses between partitions: a task beside it runs meanwhile, a
    second create of the same name is refused while the first is under way, and a create
    cancelled half-way leaves no partition behind. (With one log directory nothing is
    laid out: test_log_deferred.)"""
    import trio

    manager = jbod_manager

    ticks: list[int] = []
    refused: list[int] = []
    opened: list[str] = []  # partition logs opened, by topic (new ones make no directory yet)
    open_log = manager._open_log

    def counting(info, *args):
        opened.append(info.name)
        return open_log(info, *args)

    manager._open_log = counting

    async def main() -> None:
        async with trio.open_nursery() as nursery:
            done = trio.Event()

            async def beside() -> None:
                while not done.is_set():
                    made = opened.count("big")
                    ticks.append(made)
                    if made:  # under way: the name is taken
                        with pytest.raises(KafkaError) as again:
                            manager.create_topic("big", 1)
                        refused.append(_code(again))
                    await trio.lowlevel.checkpoint()

            nursery.start_soon(beside)
            await trio.lowlevel.checkpoint()
            info = await run_steps_async(manager.create_topic_steps("big", 300))
            done.set()
        assert info.partitions == 300 and manager.topics["big"] is info

        with trio.move_on_after(0) as scope:
            await run_steps_async(manager.create_topic_steps("gone", 300))
        assert scope.cancelled_caught

    trio.run(main)
    # The other task ran while partitions were being laid out, not only before or after.
    assert any(0 < n < 300 for n in ticks), ticks
    assert set(refused) == {ErrorCode.TOPIC_ALREADY_EXISTS}
    assert "gone" not in manager.topics and not list(manager.data_dir.glob("gone-*"))
    assert not list((manager.data_dir.parent / "data2").glob("gone-*"))
    manager.create_topic("gone", 2)  # the name is free again
