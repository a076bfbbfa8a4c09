"""The brokers a Metadata answer lists (broker/handlers/api_03_metadata.py): the live
brokers of the image, and always the answering broker.

Soak seed 329: every broker was cut off from etcd past its session timeout, so their
registrations lapsed together. A Metadata answer given before they registered again
listed no broker; librdkafka dropped every broker it knew, found no coordinator for its
group, and went back to its bootstrap list only 5 minutes later."""

from __future__ import annotations

from broker.handlers.api_03_metadata import brokers_for
from broker.metadata.image import BrokerInfo, Endpoint, MetadataImage


def broker(node: int, *, fenced: bool = False) -> BrokerInfo:
    return BrokerInfo(
        node,
        (Endpoint("PLAINTEXT", f"10.0.0.{node}", 9092), Endpoint("INTERNAL", f"10.1.0.{node}", 9093)),
        rack=f"r{node}",
        fenced=fenced,
    )


def image(*brokers: BrokerInfo) -> MetadataImage:
    return MetadataImage("c", 1, {b.node_id: b for b in brokers}, {})


def listed(
    img: MetadataImage, local: BrokerInfo, listener: str | None = "PLAINTEXT"
) -> list[tuple[int, str, str | None]]:
    return [(b.node_id, b.host, b.rack) for b in brokers_for(img, listener, local)]


def test_the_live_brokers_are_listed_in_node_order() -> None:
    assert listed(image(broker(1), broker(2), broker(3, fenced=True)), broker(2)) == [
        (1, "10.0.0.1", "r1"),
        (2, "10.0.0.2", "r2"),
    ]


def test_a_broker_whose_registration_lapsed_still_lists_itself() -> None:
    assert listed(image(), broker(2)) == [(2, "10.0.0.2", "r2")]
    assert listed(image(broker(1), broker(3)), broker(2)) == [
        (1, "10.0.0.1", "r1"),
        (2, "10.0.0.2", "r2"),
        (3, "10.0.0.3", "r3"),
    ]
    # Fenced in the image (a paused process come back): it answers, so it is listed.
    assert listed(image(broker(2, fenced=True)), broker(2)) == [(2, "10.0.0.2", "r2")]


def test_the_answering_broker_is_listed_on_the_clients_listener() -> None:
    assert listed(image(), broker(2), listener="INTERNAL") == [(2, "10.1.0.2", "r2")]
    assert listed(image(), broker(2), listener=None) == [(2, "10.0.0.2", "r2")]
