"""Several named listeners: each client is answered with its own listener's addresses.

The broker listens on INTERNAL and EXTERNAL (both PLAINTEXT through
listener.security.protocol.map) and advertises a different host for each, as a
broker in a container network advertises its container name inside and
``localhost`` to the host. Metadata and FindCoordinator through each listener
name that listener's advertised address.
"""

from __future__ import annotations

from broker.admin.client import AdminClient as WireClient
from broker.localcluster import free_port
from broker.protocol.messages.find_coordinator_request import FindCoordinatorRequest
from broker.protocol.messages.metadata_request import MetadataRequest


def test_each_listener_answers_with_its_own_advertised_address(sharebroker_factory):
    internal, external = free_port(), free_port()
    broker = sharebroker_factory(
        {
            "listeners": f"INTERNAL://127.0.0.1:{internal},EXTERNAL://127.0.0.1:{external}",
            "advertised.listeners": f"INTERNAL://127.0.0.1:{internal},EXTERNAL://localhost:{external}",
            "listener.security.protocol.map": "INTERNAL:PLAINTEXT,EXTERNAL:PLAINTEXT",
            "inter.broker.listener.name": "INTERNAL",
        }
    )
    assert broker.port == internal
    seen = {}
    for name, port in (("INTERNAL", internal), ("EXTERNAL", external)):
        with WireClient(f"127.0.0.1:{port}") as client:
            conn = client.bootstrap_connection()
            md = conn.call(MetadataRequest(topics=[]), 12)
            fc = conn.call(FindCoordinatorRequest(key_type=0, coordinator_keys=["g"]), 4)
        seen[name] = ([(b.host, b.port) for b in md.brokers], (fc.coordinators[0].host, fc.coordinators[0].port))
    assert seen["INTERNAL"] == ([("127.0.0.1", internal)], ("127.0.0.1", internal))
    assert seen["EXTERNAL"] == ([("localhost", external)], ("localhost", external))
