"""What KIP-714's match selectors see of the client behind a request."""

from __future__ import annotations

from broker.handlers.context import RequestContext


def client_attributes(ctx: RequestContext) -> dict[str, str]:
    conn = ctx.connection
    address, _, port = conn.peer.rpartition(":")
    return {
        "client_id": ctx.client_id or "",
        "client_software_name": conn.client_software_name or "",
        "client_software_version": conn.client_software_version or "",
        "client_source_address": conn.host or address.strip("[]"),
        "client_source_port": port,
    }
