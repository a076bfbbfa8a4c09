"""Topology descriptions of streams groups (KIP-1331) on the real broker: a heartbeat asks a
member for one, StreamsGroupTopologyDescriptionUpdate stores it (Kafka's checks first),
StreamsGroupDescribe v1 and ``sharebroker streams-groups --describe --topology`` show it,
it survives a restart, and deleting the group deletes it."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from broker.admin.client import AdminClient
from broker.protocol.errors import ErrorCode
from broker.protocol.messages import streams_group_heartbeat_request as sq
from broker.protocol.messages import streams_group_topology_description_update_request as tq
from broker.protocol.messages.delete_groups_request import DeleteGroupsRequest
from broker.testing import BrokerProcess
from tests.integration.clients import create_topic

APP = "topo-app"
SOURCE = "topo-src"

DESCRIPTION = tq.TopologyDescription(
    subtopologies=[
        tq.TopologyDescriptionSubtopology(
            subtopology_id="0",
            nodes=[
                tq.TopologyDescriptionNode(
                    name="KSTREAM-SOURCE-0000000000", node_type=1, source_topics=[SOURCE], successors=["count"]
                ),
                tq.TopologyDescriptionNode(name="count", node_type=2, stores=["counts"], successors=["sink"]),
                tq.TopologyDescriptionNode(name="sink", node_type=3, sink_topic="topo-out"),
            ],
        )
    ],
    global_stores=[],
)

EXPECTED_TEXT = """Topologies:
   Sub-topology: 0
    Source: KSTREAM-SOURCE-0000000000 (topics: [topo-src])
      --> count
    Processor: count (stores: [counts])
      --> sink
      <-- KSTREAM-SOURCE-0000000000
    Sink: sink (topic: topo-out)
      <-- count

"""


def _tool(bootstrap: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "broker", "streams-groups", "--bootstrap-server", bootstrap, *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


def _update(conn, member: str, epoch: int, description=DESCRIPTION):
    return conn.call(
        tq.StreamsGroupTopologyDescriptionUpdateRequest(
            group_id=APP, member_id=member, topology_epoch=epoch, topology_description=description
        ),
        0,
    )


def test_topology_description_is_asked_for_stored_and_shown(tmp_path: Path):
    broker = BrokerProcess(tmp_path / "data").start()
    try:
        create_topic(broker.bootstrap, SOURCE, 1)
        topology = sq.Topology(epoch=0, subtopologies=[sq.Subtopology(subtopology_id="0", source_topics=[SOURCE])])
        with AdminClient(broker.bootstrap) as admin:
            conn = admin.connect(admin.find_coordinator(APP))
            joined = conn.call(
                sq.StreamsGroupHeartbeatRequest(
                    group_id=APP,
                    member_id="m1",
                    member_epoch=0,
                    rebalance_timeout_ms=5000,
                    topology=topology,
                    process_id="p1",
                    active_tasks=[],
                    standby_tasks=[],
                    warmup_tasks=[],
                ),
                1,
            )
            assert joined.error_code == 0 and joined.topology_description_required
            again = conn.call(
                sq.StreamsGroupHeartbeatRequest(
                    group_id=APP, member_id="m1", member_epoch=joined.member_epoch, active_tasks=[], standby_tasks=[]
                ),
                1,
            )
            assert not again.topology_description_required  # asked once per backoff period
            assert _tool(broker.bootstrap, "--describe", "--group", APP, "--topology").returncode == 1
            bad = _update(conn, "nobody", 0)
            assert bad.error_code == ErrorCode.UNKNOWN_MEMBER_ID
            assert _update(conn, "", 0).error_code == ErrorCode.INVALID_REQUEST
            stale = _update(conn, "m1", 3)
            assert stale.error_code == ErrorCode.INVALID_REQUEST
            assert stale.error_message == "Topology epoch 3 does not match the group's current topology epoch 0."
            assert _update(conn, "m1", 0).error_code == ErrorCode.NONE
            desc = admin.describe_streams_group(APP, include_topology_description=True)
            assert desc.topology_description_status == 3
            assert [n.name for n in desc.topology_description.subtopologies[0].nodes] == [
                "KSTREAM-SOURCE-0000000000",
                "count",
                "sink",
            ]
        shown = _tool(broker.bootstrap, "--describe", "--group", APP, "--topology")
        assert shown.returncode == 0, shown.stderr
        assert shown.stdout.strip("\n") == EXPECTED_TEXT.strip("\n")
        as_json = json.loads(
            _tool(broker.bootstrap, "--describe", "--group", APP, "--topology", "--output", "json").stdout
        )
        assert as_json[0]["topology"]["subtopologies"][0]["nodes"][2] == {
            "name": "sink",
            "type": "sink",
            "source_topics": [],
            "sink_topic": "topo-out",
            "stores": [],
            "successors": [],
        }
        assert broker.stop() == 0
        broker.start()
        assert _tool(broker.bootstrap, "--describe", "--group", APP, "--topology").stdout.strip("\n") == (
            EXPECTED_TEXT.strip("\n")
        )
        with AdminClient(broker.bootstrap) as admin:
            conn = admin.connect(admin.find_coordinator(APP))
            # The member left with the restart's session timeout or not: leave it explicitly.
            conn.call(sq.StreamsGroupHeartbeatRequest(group_id=APP, member_id="m1", member_epoch=-1), 1)
            deadline = time.monotonic() + 30
            while True:
                resp = conn.call(DeleteGroupsRequest(groups_names=[APP]), 2)
                if resp.results[0].error_code == 0 or time.monotonic() > deadline:
                    break
                time.sleep(0.5)
            assert resp.results[0].error_code == 0, resp
        assert not json.loads((tmp_path / "data" / "streams-topologies.json").read_text())["groups"]
    finally:
        broker.kill()
