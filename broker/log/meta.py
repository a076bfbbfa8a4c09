"""``meta.properties``: the identity of a data directory (cluster id and node id)."""

from __future__ import annotations

import base64
import os
import uuid
from pathlib import Path

__all__ = ["MetaPropertiesError", "load_or_create_meta", "new_cluster_id"]

FILE = "meta.properties"


class MetaPropertiesError(Exception):
    """The data directory belongs to another node or cluster."""


def new_cluster_id() -> str:
    """A cluster id as Kafka writes them: 22 characters of URL-safe base64 of a UUID.

    Never one that starts with ``-``, as Kafka's own random ids do not: a command line
    (``kafka-storage format -t <id>``) would read it as an option.
    """
    while True:
        text = base64.urlsafe_b64encode(uuid.uuid4().bytes).decode().rstrip("=")
        if not text.startswith("-"):
            return text


def read_meta(data_dir: Path) -> dict[str, str] | None:
    path = data_dir / FILE
    if not path.exists():
        return None
    return dict(
        line.split("=", 1) for line in path.read_text().splitlines() if "=" in line and not line.startswith("#")
    )


def load_or_create_meta(data_dir: Path, node_id: int, cluster_id: str | None = None) -> str:
    """The cluster id of ``data_dir``; written on first start (``cluster_id`` or a new one).

    Raises MetaPropertiesError when the directory belongs to another node id, or to
    another cluster than ``cluster_id``.
    """
    path = data_dir / FILE
    props = read_meta(data_dir)
    if props is not None:
        stored_node = int(props.get("node.id", node_id))
        if stored_node != node_id:
            raise MetaPropertiesError(f"{path} belongs to node.id {stored_node}, not {node_id}")
        stored_cluster = props["cluster.id"]
        if cluster_id is not None and stored_cluster != cluster_id:
            raise MetaPropertiesError(f"{path} belongs to cluster {stored_cluster}, not {cluster_id}")
        return stored_cluster
    cluster_id = cluster_id or new_cluster_id()
    tmp = path.with_suffix(".tmp")
    with open(tmp, "w") as f:
        f.write(f"# written by sharebroker on first start\nversion=1\ncluster.id={cluster_id}\nnode.id={node_id}\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    return cluster_id
