"""Leave a share group on behalf of a process that died: the ``kafka-share`` watchdog.

    python -m broker.spark.leave BOOTSTRAP GROUP MEMBER_ID [CLIENT_ID]

Started by the Spark driver's share-group member with a pipe on stdin. It waits for
the pipe to close: if the member wrote ``left`` first it has left the group itself
and this exits; otherwise its process is gone (the query stopped and Spark killed the
reader process, or the driver crashed) and this sends the ShareGroupHeartbeat with
epoch -1 that the member could not send, so the group rebalances at once instead of
waiting for the member's session to time out. The records the member held were
already released when its connections closed. Bounded: gives up after 15 s.
"""

from __future__ import annotations

import sys
import time

GIVE_UP_S = 15.0


def main(argv: list[str]) -> int:
    if len(argv) not in (3, 4):
        print("usage: python -m broker.spark.leave BOOTSTRAP GROUP MEMBER_ID [CLIENT_ID]", file=sys.stderr)
        return 2
    bootstrap, group, member_id = argv[:3]
    client_id = argv[3] if len(argv) == 4 else "sharebroker-spark"
    said = sys.stdin.buffer.read()
    if said.startswith(b"left"):
        return 0

    from broker.admin.client import AdminClient, AdminError, BrokerConnection
    from broker.protocol.messages.share_group_heartbeat_request import ShareGroupHeartbeatRequest

    deadline = time.monotonic() + GIVE_UP_S
    while time.monotonic() < deadline:
        try:
            with AdminClient(bootstrap, timeout=5, client_id=client_id) as admin:
                node = admin.find_coordinator(group)
                with BrokerConnection(node.host, node.port, client_id=client_id, timeout=5) as conn:
                    resp = conn.call(
                        ShareGroupHeartbeatRequest(
                            group_id=group, member_id=member_id, member_epoch=-1, subscribed_topic_names=None
                        )
                    )
            if resp.error_code in (14, 15, 16):  # coordinator loading or moved: retry
                time.sleep(0.5)
                continue
            return 0
        except (AdminError, OSError):
            time.sleep(0.5)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
