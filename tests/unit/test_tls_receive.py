"""What a server TLS stream gives after one receive_some: every whole record already read.

Real trio SSLStreams and OpenSSL over in-memory transports, with the test PKI."""

from __future__ import annotations

import ssl
from typing import cast

import pytest
import trio
import trio.testing

from broker.security.tls import server_context
from broker.server.connection import buffered_plaintext
from tests.pki import Pki

RECEIVE = 256 * 1024


async def _pair(tmp_path) -> tuple[trio.SSLStream, trio.SSLStream, trio.testing.MemorySendStream]:
    """A client and a server stream after their handshake, and the client's raw send
    stream, which from then on moves bytes to the server only when told to."""
    pki = Pki(tmp_path / "pki")
    client_ctx = ssl.create_default_context(cafile=str(pki.ca_file))
    client_ctx.check_hostname = False
    c2s_send, c2s_recv = trio.testing.memory_stream_one_way_pair()
    s2c_send, s2c_recv = trio.testing.memory_stream_one_way_pair()
    client = trio.SSLStream(trio.StapledStream(c2s_send, s2c_recv), client_ctx)
    server = trio.SSLStream(
        trio.StapledStream(s2c_send, c2s_recv), server_context(pki.broker_settings()), server_side=True
    )
    async with trio.open_nursery() as nursery:
        nursery.start_soon(client.do_handshake)
        nursery.start_soon(server.do_handshake)
    c2s_send.send_all_hook = None
    return client, server, c2s_send


def _arrive(server: trio.SSLStream, data: bytes) -> None:
    """``data`` reaches the server's socket."""
    receive = cast(trio.StapledStream, server.transport_stream).receive_stream
    cast(trio.testing.MemoryReceiveStream, receive).put_data(data)


def _deliver(client_raw: trio.testing.MemorySendStream, server: trio.SSLStream, keep_back: int = 0) -> bytes:
    """Move what the client sent to the server, all but the last ``keep_back`` bytes (returned)."""
    data = bytes(client_raw.get_data_nowait())
    _arrive(server, data[: len(data) - keep_back])
    return data[len(data) - keep_back :]


async def test_records_already_received_are_decrypted_in_one_go(tmp_path):
    client, server, client_raw = await _pair(tmp_path)
    # One TLS record per send, as librdkafka sends the records of a produce request.
    pieces = [bytes([i]) * 1024 for i in range(50)]
    for piece in pieces:
        await client.send_all(piece)
    _deliver(client_raw, server)
    assert await server.receive_some(RECEIVE) == pieces[0]
    assert buffered_plaintext(server) == pieces[1:]  # without another receive_some
    assert buffered_plaintext(server) == []
    # The stream goes on as before: what comes next arrives through receive_some.
    await client.send_all(b"after")
    _deliver(client_raw, server)
    assert await server.receive_some(RECEIVE) == b"after"


async def test_a_record_cut_short_waits_for_the_next_receive(tmp_path):
    client, server, client_raw = await _pair(tmp_path)
    await client.send_all(b"a" * 1024)
    await client.send_all(b"b" * 1024)
    await client.send_all(b"c" * 1024)
    rest = _deliver(client_raw, server, keep_back=100)  # the third record lacks its end
    assert await server.receive_some(RECEIVE) == b"a" * 1024
    assert buffered_plaintext(server) == [b"b" * 1024]
    _arrive(server, rest)
    assert await server.receive_some(RECEIVE) == b"c" * 1024


async def test_a_broken_record_is_left_for_receive_some_to_report(tmp_path):
    client, server, client_raw = await _pair(tmp_path)
    await client.send_all(b"a" * 1024)
    await client.send_all(b"b" * 1024)
    data = bytearray(client_raw.get_data_nowait())
    data[-5] ^= 0xFF  # the second record's authentication tag no longer matches
    _arrive(server, bytes(data))
    assert await server.receive_some(RECEIVE) == b"a" * 1024
    assert buffered_plaintext(server) == []
    with pytest.raises(trio.BrokenResourceError):
        await server.receive_some(RECEIVE)


def test_a_stream_without_the_buffers_gives_nothing():
    assert buffered_plaintext(cast(trio.SSLStream, object())) == []


async def test_a_close_after_the_records_still_ends_the_stream(tmp_path):
    client, server, client_raw = await _pair(tmp_path)
    await client.send_all(b"a" * 1024)
    await client.send_all(b"b" * 1024)
    await client.aclose()  # close_notify after the two records
    _deliver(client_raw, server)
    assert await server.receive_some(RECEIVE) == b"a" * 1024
    assert buffered_plaintext(server) == [b"b" * 1024]
    assert await server.receive_some(RECEIVE) == b""
