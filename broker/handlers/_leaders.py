"""Leader hints (KIP-951) shared by Produce and Fetch.

A partition answered with NOT_LEADER_OR_FOLLOWER or FENCED_LEADER_EPOCH carries
its current leader and epoch; the response's ``NodeEndpoints`` then names where
those leaders listen, on the listener the client came in on, so the client can
move on without a Metadata round trip.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from broker.handlers._endpoints import client_endpoint
from broker.metadata.image import MetadataImage

E = TypeVar("E")


def node_endpoints(image: MetadataImage, nodes: set[int], listener: str | None, endpoint: Callable[..., E]) -> list[E]:
    """The endpoints of the leaders named in hints, as ``endpoint(node_id=, host=, port=, rack=)``
    (the response's own NodeEndpoint class), in node id order; nodes not registered are left out."""
    out = []
    for node in sorted(nodes):
        b = image.broker(node)
        e = client_endpoint(b, listener)
        if b is not None and e is not None:
            out.append(endpoint(node_id=node, host=e.host, port=e.port, rack=b.rack))
    return out
