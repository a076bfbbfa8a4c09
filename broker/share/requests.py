"""Request handling shared by ShareFetch and ShareAcknowledge (same session rules)."""

from __future__ import annotations

import uuid
from typing import Any

import trio

from broker.protocol.errors import ErrorCode
from broker.share.manager import ClientConnection, Entry, SharePartitionManager
from broker.share.sessions import FINAL_EPOCH, INITIAL_EPOCH, ShareSession

# Acknowledge types on the wire (KIP-932): 0 Gap, 1 Accept, 2 Release, 3 Reject, 4 Renew.
RENEW = 4
MAX_ACK_TYPE = 4


def ack_batches(batches: Any) -> list[tuple[int, int, list[int]]]:
    return [(b.first_offset, b.last_offset, list(b.acknowledge_types)) for b in batches]


def check_ack_types(batches: list[tuple[int, int, list[int]]], renew_allowed: bool) -> int:
    """INVALID_REQUEST for an unknown type, or a Renew the request/group does not allow."""
    for _, _, types in batches:
        for t in types:
            if t < 0 or t > MAX_ACK_TYPE or (t == RENEW and not renew_allowed):
                return ErrorCode.INVALID_REQUEST
    return ErrorCode.NONE


async def open_or_continue(
    mgr: SharePartitionManager,
    connection: ClientConnection,
    group_id: str,
    member_id: str,
    epoch: int,
    *,
    may_open: bool = True,
) -> tuple[ShareSession | None, int]:
    """Apply the session epoch rules; return (session, error code)."""
    now = mgr.now_ms()
    if epoch == INITIAL_EPOCH:
        if not may_open:
            return None, ErrorCode.INVALID_SHARE_SESSION_EPOCH
        session, old, code = mgr.sessions.open(group_id, member_id, connection.connection_id, now)
        if code:
            return None, code
        if old is not None:
            # The member started over: what its old session held is given back now
            # rather than when the locks expire.
            await mgr.release_member(group_id, member_id)
        mgr.watch_connection(connection)
        return session, ErrorCode.NONE
    if epoch == FINAL_EPOCH:
        return mgr.sessions.check_final(group_id, member_id)
    if epoch < FINAL_EPOCH:
        return None, ErrorCode.INVALID_SHARE_SESSION_EPOCH
    return mgr.sessions.continue_(group_id, member_id, epoch, now)


async def acknowledge_all(
    mgr: SharePartitionManager,
    group_id: str,
    member_id: str,
    acks: dict[tuple[uuid.UUID, int], list[tuple[int, int, list[int]]]],
    renew_allowed: bool,
    woken: set[Entry] | None = None,
) -> dict[tuple[uuid.UUID, int], int]:
    """Apply every partition's acknowledgements; return an error code per partition.

    Partitions are handled concurrently: each one's change is still durable
    before the response, but one group-commit fsync round covers them all
    instead of one round per partition. ``woken``: see
    :meth:`SharePartitionManager.acknowledge`.
    """
    codes: dict[tuple[uuid.UUID, int], int] = {}

    async def one(key: tuple[uuid.UUID, int], batches: list[tuple[int, int, list[int]]]) -> None:
        code = check_ack_types(batches, renew_allowed)
        if not code:
            entry, code = await mgr.entry(group_id, *key)
            if entry is not None:
                code = await mgr.acknowledge(entry, member_id, batches, woken)
        codes[key] = code

    if len(acks) == 1:
        ((key, batches),) = acks.items()
        await one(key, batches)
    elif acks:
        async with trio.open_nursery() as nursery:
            for key, batches in acks.items():
                nursery.start_soon(one, key, batches)
    return {key: codes[key] for key in acks}
