"""Orders pipeline: consume orders through a share group, enrich them, write them to
another topic (Spark's Kafka sink) and to Parquet.

    pip install 'sharebroker[spark]'
    # Spark's Kafka connector (for the Kafka sink):
    #   --packages org.apache.spark:spark-sql-kafka-0-10_2.13:4.2.0, or the jars of
    #   peers/spark/pom.xml (make spark-jars) in spark.jars
    python examples/spark/orders_pipeline.py --bootstrap 127.0.0.1:9092 --produce 1000 --available-now

Orders are JSON objects on the ``orders`` topic. The job reads them with the
``kafka-share`` source (group ``order-enricher``: start several copies of this job
and they split the orders between them, whatever the number of partitions), adds
the order total and a size class, and writes each micro-batch twice:

- to ``orders-enriched`` with Spark's own Kafka sink, keyed by order id;
- to Parquet under ``--parquet``, with the source ``(topic, partition, offset)``
  so that readers can drop the rare duplicate.

Delivery is at-least-once: a record is acknowledged only after Spark committed the
micro-batch that held it, so a crash redelivers (see the README's "Spark" section
for an idempotent sink keyed on (topic, partition, offset)).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any

ORDER_SCHEMA = "order_id STRING, customer STRING, sku STRING, quantity INT, unit_price DOUBLE"


def produce_orders(bootstrap: str, topic: str, n: int, *, seed: int = 7) -> list[dict[str, Any]]:
    """Produce ``n`` random orders (JSON, keyed by customer); returns them."""
    from confluent_kafka import Producer

    rng = random.Random(seed)
    producer = Producer({"bootstrap.servers": bootstrap, "linger.ms": 10})
    orders = []
    for i in range(n):
        order = {
            "order_id": f"o-{i:06d}",
            "customer": f"c-{rng.randrange(50):03d}",
            "sku": rng.choice(["apple", "pear", "plum", "fig"]),
            "quantity": rng.randrange(1, 20),
            "unit_price": round(rng.uniform(0.5, 20.0), 2),
        }
        orders.append(order)
        producer.produce(topic, key=order["customer"].encode(), value=json.dumps(order).encode())
    if producer.flush(30):
        raise RuntimeError("orders were not all delivered")
    return orders


def start_pipeline(
    spark: Any,
    *,
    bootstrap: str,
    orders_topic: str,
    enriched_topic: str,
    group: str,
    parquet_path: str,
    checkpoint: str,
    available_now: bool = False,
    max_records_per_trigger: int | None = None,
) -> Any:
    """Start the streaming query; returns it (``awaitTermination`` with available_now)."""
    from pyspark.sql import functions as F

    from broker.spark import register

    register(spark)
    reader = (
        spark.readStream.format("kafka-share")
        .option("kafka.bootstrap.servers", bootstrap)
        .option("subscribe", orders_topic)
        .option("group.id", group)
    )
    if max_records_per_trigger:
        reader = reader.option("maxRecordsPerTrigger", str(max_records_per_trigger))
    orders = reader.load()
    enriched = (
        orders.select(
            F.from_json(F.col("value").cast("string"), ORDER_SCHEMA).alias("o"),
            "topic",
            "partition",
            "offset",
            "timestamp",
            "deliveryCount",
        )
        .select("o.*", "topic", "partition", "offset", F.col("timestamp").alias("ordered_at"), "deliveryCount")
        .withColumn("total", F.round(F.col("quantity") * F.col("unit_price"), 2))
        .withColumn(
            "size", F.when(F.col("total") >= 100, "large").when(F.col("total") >= 20, "medium").otherwise("small")
        )
    )

    def write(batch: Any, batch_id: int) -> None:
        batch.persist()
        try:
            batch.write.mode("append").parquet(parquet_path)
            (
                batch.select(
                    F.col("order_id").alias("key"),
                    F.to_json(F.struct("order_id", "customer", "sku", "quantity", "unit_price", "total", "size")).alias(
                        "value"
                    ),
                )
                .write.format("kafka")
                .option("kafka.bootstrap.servers", bootstrap)
                .option("topic", enriched_topic)
                .save()
            )
        finally:
            batch.unpersist()

    writer = enriched.writeStream.foreachBatch(write).option("checkpointLocation", checkpoint)
    writer = writer.trigger(availableNow=True) if available_now else writer.trigger(processingTime="1 second")
    return writer.start()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="orders -> kafka-share -> enrich -> Kafka topic + Parquet")
    ap.add_argument("--bootstrap", default="127.0.0.1:9092")
    ap.add_argument("--orders", default="orders")
    ap.add_argument("--enriched", default="orders-enriched")
    ap.add_argument("--group", default="order-enricher")
    ap.add_argument("--parquet", default="/tmp/orders-enriched.parquet")
    ap.add_argument("--checkpoint", default="/tmp/orders-enricher.checkpoint")
    ap.add_argument("--produce", type=int, default=0, metavar="N", help="first produce N random orders")
    ap.add_argument("--available-now", action="store_true", help="process what is there, then stop")
    ap.add_argument("--jars", default="", help="comma-separated jars for spark.jars (Spark's Kafka connector)")
    args = ap.parse_args(argv)

    from pyspark.sql import SparkSession

    from broker.admin.client import AdminClient, KafkaApiError

    with AdminClient(args.bootstrap) as admin:
        for topic in (args.orders, args.enriched):
            try:
                admin.create_topics({topic: 3})
            except KafkaApiError as exc:
                if exc.error_code != 36:  # TOPIC_ALREADY_EXISTS
                    raise
        admin.set_group_configs(args.group, {"share.auto.offset.reset": "earliest"})
    if args.produce:
        produce_orders(args.bootstrap, args.orders, args.produce)

    builder = SparkSession.builder.appName("orders-pipeline")
    if args.jars:
        builder = builder.config("spark.jars", args.jars)
    spark = builder.getOrCreate()
    query = start_pipeline(
        spark,
        bootstrap=args.bootstrap,
        orders_topic=args.orders,
        enriched_topic=args.enriched,
        group=args.group,
        parquet_path=args.parquet,
        checkpoint=args.checkpoint,
        available_now=args.available_now,
    )
    query.awaitTermination()
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
