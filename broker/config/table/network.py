"""Network settings: listeners, connections, sockets.

Pure data: one :class:`Setting` per key, in the order of docs/CONFIG.md."""

from __future__ import annotations

from broker.config.checks import (
    DEFAULT_PROTOCOL_MAP,
    check_advertised,
    check_host_port,
    check_ip_overrides,
    check_listeners,
    check_protocol_map,
)
from broker.config.model import INT_MAX, Setting
from broker.config.table.names import LST, NET, STR, I, L

SETTINGS: tuple[Setting, ...] = (
    # ---- network
    Setting(
        "listeners",
        LST,
        ("PLAINTEXT://127.0.0.1:9092",),
        section=NET,
        summary=True,
        doc="Addresses the broker listens on, as NAME://host:port, comma-separated; each "
        "name is a listener whose security protocol listener.security.protocol.map gives. "
        "An empty host means every interface; port 0 picks a free port (the chosen port is "
        "logged and advertised).",
        check=check_listeners,
        check_doc="NAME://host:port entries, each name once",
        kafka_default="PLAINTEXT://:9092",
        why="we bind to loopback by default because a PLAINTEXT listener has no authentication",
    ),
    Setting(
        "advertised.listeners",
        LST,
        None,
        section=NET,
        summary=True,
        doc="Addresses clients are told to connect to (Metadata, FindCoordinator), one per "
        "listener name: a client is answered with the addresses of the listener it came in "
        "on. Unset: the listener addresses, with a wildcard host replaced by this machine's "
        "host name.",
        check=check_advertised,
        check_doc="NAME://host:port entries of names in listeners, no wildcard host, no port 0",
    ),
    Setting(
        "listener.security.protocol.map",
        STR,
        DEFAULT_PROTOCOL_MAP,
        section=NET,
        doc="The security protocol of each listener name, as NAME:PROTOCOL pairs "
        "(PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL). A listener named after a protocol needs "
        "no entry. Settings for one listener take the prefix listener.name.<name lower case>. "
        "(listener.name.sasl_ssl.ssl.keystore.location, "
        "listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config).",
        check=check_protocol_map,
        check_doc="comma-separated NAME:PROTOCOL pairs",
    ),
    Setting(
        "inter.broker.listener.name",
        STR,
        None,
        section=NET,
        doc="The listener brokers use to reach each other (share-state RPCs to the share "
        "coordinator in a cluster). Unset: the first listener.",
    ),
    Setting(
        "max.connections",
        I,
        1000,
        section=NET,
        min=0,
        dynamic=True,
        doc="Most client connections open at once; further connections are closed on accept.",
        kafka_default=str(INT_MAX),
        why="each connection costs a file descriptor, a task and up to "
        "socket.request.max.bytes of buffer, so the default stays below the common 1024 "
        "open-file limit; raise it together with `ulimit -n`",
    ),
    Setting(
        "max.connections.per.ip",
        I,
        INT_MAX,
        section=NET,
        min=0,
        dynamic=True,
        doc="Most connections open at once from one IP address; further connections from it "
        "are closed on accept. max.connections.per.ip.overrides sets other limits per host.",
    ),
    Setting(
        "max.connections.per.ip.overrides",
        STR,
        "",
        section=NET,
        dynamic=True,
        doc="Per-host limits that replace max.connections.per.ip, as host:count pairs "
        "separated by commas (127.0.0.1:200,10.0.0.7:50).",
        check=lambda v: check_ip_overrides(v),
        check_doc="comma-separated host:count pairs",
    ),
    Setting(
        "request.receive.timeout.ms",
        L,
        60000,
        section=NET,
        min=1,
        doc="Longest time a client may take to send one whole request, from its first byte "
        "to its last; a connection that takes longer is closed. Not a Kafka setting: Kafka "
        "bounds only idle time (connections.max.idle.ms), so a client that trickles bytes "
        "could hold a connection and its buffer forever.",
        why="a 100 MiB request (socket.request.max.bytes) still arrives in time at under 2 MB/s",
    ),
    Setting(
        "queued.max.request.bytes",
        L,
        268435456,
        section=NET,
        min=-1,
        doc="Bytes of requests received (whole or in part) and not yet handled, over all "
        "connections, before the broker stops reading new requests until some are handled; "
        "-1: no bound. Must be -1 or at least socket.request.max.bytes.",
        kafka_default="-1",
        why="bounds the memory clients can pin with requests sent slowly or in bulk; 256 MiB "
        "leaves room for two requests of the largest size at once",
    ),
    Setting(
        "quota.window.num",
        I,
        11,
        section=NET,
        min=1,
        doc="Samples kept to measure a client's byte rate against its produce and fetch quotas.",
    ),
    Setting(
        "quota.window.size.seconds",
        I,
        1,
        section=NET,
        min=1,
        doc="Length of each quota sample.",
    ),
    Setting(
        "connections.max.idle.ms",
        L,
        600000,
        section=NET,
        min=-1,
        doc="A connection with no request for this long is closed; -1 never closes idle connections.",
    ),
    Setting(
        "socket.request.max.bytes",
        I,
        104857600,
        section=NET,
        min=1,
        doc="Largest request frame accepted; a bigger size prefix closes the connection before anything is allocated.",
        why="bounds the memory one request can pin",
    ),
    Setting(
        "socket.listen.backlog.size",
        I,
        50,
        section=NET,
        min=1,
        doc="Connections the operating system queues before the broker accepts them.",
    ),
    Setting(
        "metrics.listen",
        STR,
        None,
        section=NET,
        doc="HOST:PORT of an HTTP endpoint serving broker metrics in the Prometheus text "
        "format at /metrics (request counts and latency per API, bytes in and out, log "
        "sizes, and the KIP-932 share-group metrics). Unset: no endpoint. An empty host "
        "means every interface; port 0 picks a free port (logged as `metrics_listening`). "
        "Not a Kafka setting: Kafka exports its metrics over JMX.",
        check=check_host_port,
        check_doc="HOST:PORT",
        why="the endpoint has no authentication, so bind it to loopback or a private address",
    ),
    Setting(
        "request.timeout.ms",
        I,
        30000,
        section=NET,
        min=0,
        doc="Upper bound the broker uses when it waits on its own work for a request "
        "(for example a durable share-state write).",
    ),
)
