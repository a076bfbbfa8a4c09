"""PySpark support: the ``kafka-share`` streaming source (install ``sharebroker[spark]``).

    from broker.spark import register
    register(spark)
    df = (spark.readStream.format("kafka-share")
          .option("kafka.bootstrap.servers", "127.0.0.1:9092")
          .option("subscribe", "orders")
          .option("group.id", "spark-orders")
          .load())

See ``broker.spark.source`` for how micro-batches are acquired, read and
acknowledged, and the guarantee (at-least-once).
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["NAME", "KafkaShareDataSource", "KafkaShareStreamReader", "kafka_schema", "register"]


def __getattr__(name: str) -> Any:
    # The source needs pyspark (the spark extra); the parts beside it (columns, fetcher,
    # member) do not, so the package imports pyspark only when the source is asked for.
    if name in __all__:
        return getattr(importlib.import_module("broker.spark.source"), name)
    raise AttributeError(f"module 'broker.spark' has no attribute {name!r}")
