"""Where a client reaches a broker: Metadata, DescribeCluster, FindCoordinator and the
leader hints of Produce and Fetch name brokers by the endpoint on the listener the
client came in on."""

from __future__ import annotations

from broker.metadata.image import BrokerInfo, Endpoint


def client_endpoint(broker: BrokerInfo | None, listener: str | None) -> Endpoint | None:
    """``broker``'s endpoint on ``listener``, else its first one; None for no broker or a
    broker without endpoints."""
    if broker is None:
        return None
    return broker.endpoint(listener) or broker.endpoint()
