"""examples/spark/orders_pipeline.py end to end: orders produced, consumed through a share
group, enriched, written to another topic with Spark's Kafka sink and to Parquet."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

from broker.admin.client import AdminClient
from tests.spark.conftest import share_group
from tests.spark.session import ROOT


def load_example() -> Any:
    path = ROOT / "examples" / "spark" / "orders_pipeline.py"
    spec = importlib.util.spec_from_file_location("orders_pipeline", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_orders_pipeline(spark: Any, bootstrap: str, admin: AdminClient, topic_factory: Any, tmp_path: Path) -> None:
    example = load_example()
    orders_topic = topic_factory(partitions=3, prefix="orders")
    enriched_topic = topic_factory(partitions=3, prefix="orders-enriched")
    group = share_group(admin)
    orders = example.produce_orders(bootstrap, orders_topic, 600)

    query = example.start_pipeline(
        spark,
        bootstrap=bootstrap,
        orders_topic=orders_topic,
        enriched_topic=enriched_topic,
        group=group,
        parquet_path=str(tmp_path / "parquet"),
        checkpoint=str(tmp_path / "checkpoint"),
        available_now=True,
        max_records_per_trigger=250,
    )
    assert query.awaitTermination(180)
    assert query.exception() is None

    expected = {o["order_id"]: o for o in orders}
    parquet = spark.read.parquet(str(tmp_path / "parquet")).collect()
    assert len(parquet) == 600
    assert {r.order_id for r in parquet} == set(expected)
    for r in parquet:
        o = expected[r.order_id]
        assert r.total == round(o["quantity"] * o["unit_price"], 2)
        assert r.size == ("large" if r.total >= 100 else "medium" if r.total >= 20 else "small")
        assert r.topic == orders_topic and r.deliveryCount == 1
    assert len({(r.partition, r.offset) for r in parquet}) == 600

    out = (
        spark.read.format("kafka")
        .option("kafka.bootstrap.servers", bootstrap)
        .option("subscribe", enriched_topic)
        .load()
        .selectExpr("CAST(key AS STRING) AS key", "CAST(value AS STRING) AS value")
        .collect()
    )
    assert len(out) == 600
    for r in out:
        value = json.loads(r.value)
        assert r.key == value["order_id"]
        o = expected[value["order_id"]]
        assert value["total"] == round(o["quantity"] * o["unit_price"], 2)
        assert value["customer"] == o["customer"]
