"""The SparkSession the tests and the test jobs use: local[2], UI off, bound to loopback,
Spark's Kafka connector (peers/spark/pom.xml, make spark-jars) on the classpath."""

from __future__ import annotations

import glob
import os
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
JARS = ROOT / "peers" / ".cache" / "spark" / "jars"


def spark_env() -> dict[str, str]:
    """Environment for Spark processes: loopback only, the venv's Python on both sides."""
    return {
        "SPARK_LOCAL_IP": "127.0.0.1",
        "PYSPARK_PYTHON": sys.executable,
        "PYSPARK_DRIVER_PYTHON": sys.executable,
    }


def connector_jars() -> str:
    jars = sorted(glob.glob(str(JARS / "*.jar")))
    if not jars:
        raise RuntimeError(f"Spark's Kafka connector jars are missing in {JARS}: run make spark-jars")
    return ",".join(jars)


def build_session(app: str = "sharebroker-tests") -> Any:
    from pyspark.sql import SparkSession

    os.environ.update(spark_env())
    spark = (
        SparkSession.builder.master("local[2]")
        .appName(app)
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.jars", connector_jars())
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    return spark
