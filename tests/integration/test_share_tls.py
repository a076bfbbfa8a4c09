"""ShareFetch answers of whole stored batches leave as file ranges: sent from the page cache on
a plaintext listener, read into the stream on TLS. A real broker with both listeners and
confluent-kafka ShareConsumers (librdkafka) on each; every wait is bounded."""

from __future__ import annotations

import time

import pytest

from tests.integration.clients import create_topic, produce
from tests.integration.share_helpers import close_quietly, poll_batch, share_consumer, share_group
from tests.pki import Pki

# Large enough that an answer is not read into memory before it is sent (64 KiB and up).
RECORDS = 60
SIZE = 20_000


@pytest.fixture(scope="module")
def tls_broker(sharebroker_factory, tmp_path_factory):
    pki = Pki(tmp_path_factory.mktemp("pki"))
    broker = sharebroker_factory({"listeners": "SSL://127.0.0.1:0,PLAINTEXT://127.0.0.1:0", **pki.broker_settings()})
    return broker, pki


def _drain(sc, want: int) -> list[bytes]:
    got: list[bytes] = []
    deadline = time.monotonic() + 30
    while len(got) < want and time.monotonic() < deadline:
        got.extend(m.value() for m in poll_batch(sc, 1.0))
    return got


@pytest.mark.parametrize("listener", ["PLAINTEXT", "SSL"])
def test_share_consumers_receive_whole_batches_over_either_listener(tls_broker, topic_name, listener) -> None:
    broker, pki = tls_broker
    plain = broker.address("PLAINTEXT")
    topic = f"{topic_name}-{listener.lower()}"
    create_topic(plain, topic, partitions=1)
    values = [b"%04d" % i + bytes([i]) * (SIZE - 4) for i in range(RECORDS)]
    produce(plain, topic, values, **{"linger.ms": 50})
    conf: dict[str, str] = {"bootstrap.servers": broker.address(listener)}
    if listener == "SSL":
        conf |= {"security.protocol": "SSL", "ssl.ca.location": str(pki.ca_file)}
    sc = share_consumer(plain, share_group(plain), [topic], **conf)
    try:
        got = _drain(sc, RECORDS)
    finally:
        close_quietly(sc)
    assert sorted(got) == values
