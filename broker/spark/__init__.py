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

from broker.spark.source import NAME, KafkaShareDataSource, KafkaShareStreamReader, kafka_schema, register

__all__ = ["NAME", "KafkaShareDataSource", "KafkaShareStreamReader", "kafka_schema", "register"]
