"""Broker metrics, served over HTTP in the Prometheus text format (0.0.4).

Counters are plain integers bumped on the hot path (request counts and latency,
bytes in and out, share acknowledgements, rebalances, share-partition loads);
gauges (log sizes, groups by state, loaded share-partitions, in-flight records,
open share sessions) are computed from the live objects when ``/metrics`` is
scraped, so they cost nothing between scrapes.

The KIP-932 broker metrics map to:

=======================================  ============================================
KIP-932                                  here
=======================================  ============================================
group-count (by state)                   ``sharebroker_share_groups{state}``
rebalance-rate / rebalance-count         ``sharebroker_share_group_rebalances_total``
num-partitions                           ``sharebroker_share_partitions_loaded``
share-acknowledgement-rate / count       ``sharebroker_share_acknowledgements_total``
record-acknowledgement (by ack-type)     ``sharebroker_share_acknowledged_records_total``
partition-load-time                      ``sharebroker_share_partition_load_seconds``
=======================================  ============================================

For autoscaling, per share group and partition (labels ``group``, ``topic``,
``partition``): ``sharebroker_share_partition_lag`` (KIP-1226, as
DescribeShareGroupOffsets v1), ``..._acquired_records``,
``..._oldest_available_age_seconds`` and ``..._archiving_records``; per group
``sharebroker_share_redelivered_records_total`` and
``sharebroker_share_dead_lettered_records_total`` (docs/SHARE_GROUPS.md has an
alert and an autoscaling rule).

Consumer groups (KIP-848) and streams groups (KIP-1071) have the same three:
``sharebroker_consumer_groups{state}`` / ``sharebroker_streams_groups{state}``
(Kafka's group-count by protocol and state), ``..._group_count``, and
``..._group_rebalances_total`` (rebalance-count: new target assignments).

The endpoint (``metrics.listen``) is a minimal HTTP/1.1 server: ``GET /metrics``
answers 200, anything else 404, requests are bounded in
size and time, one connection serves one request, and no failure in it reaches
the broker.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import structlog
import trio

from broker.group.share_offsets import share_partition_lag

# The counters live in broker.metrics (a leaf module every service may use); the
# exposition re-exports the names its readers know it by.
from broker.metrics import (  # noqa: F401
    _TARGET_ASSIGNMENT_METADATA,
    ACK_TYPES,
    LOAD_BUCKETS,
    REQUEST_BUCKETS,
    SHARE_GROUP_STATES,
    Histogram,
    Metrics,
)
from broker.share.states import FINAL_STATES, RecordState

if TYPE_CHECKING:
    from broker.handlers.context import Services

log = structlog.get_logger("sharebroker.metrics")

CONSUMER_GROUP_STATES: tuple[str, ...] = ("Empty", "Assigning", "Reconciling", "Stable")
STREAMS_GROUP_STATES: tuple[str, ...] = ("Empty", "NotReady", "Assigning", "Reconciling", "Stable")

PREFIX = "sharebroker_"
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

# --------------------------------------------------------------------------- text format


@dataclass(slots=True)
class Family:
    """One metric family: its samples are (name suffix, labels, value), in output order."""

    name: str
    type: str  # counter, gauge, histogram, summary, untyped
    help: str
    samples: list[tuple[str, tuple[tuple[str, str], ...], float]] = field(default_factory=list)

    def add(self, value: float, suffix: str = "", **labels: Any) -> Family:
        self.samples.append((suffix, tuple((k, str(v)) for k, v in labels.items()), value))
        return self

    def add_each(self, values: Mapping[str, float], label: str) -> Family:
        """One sample per entry of ``values``, labelled ``label``=its key, in key order."""
        for key in sorted(values):
            self.add(values[key], **{label: key})
        return self


def escape_help(text: str) -> str:
    return text.replace("\\", "\\\\").replace("\n", "\\n")


def escape_label(value: str) -> str:
    return value.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')


def format_value(value: float) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, int):
        return str(value)
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    if value.is_integer() and abs(value) < 2**53:
        return str(int(value))
    return repr(value)


def render(families: Iterable[Family]) -> str:
    """The Prometheus text exposition (0.0.4) of ``families``, in the order given."""
    out: list[str] = []
    for f in families:
        out.append(f"# HELP {f.name} {escape_help(f.help)}")
        out.append(f"# TYPE {f.name} {f.type}")
        for suffix, labels, value in f.samples:
            if labels:
                body = ",".join(f'{k}="{escape_label(v)}"' for k, v in labels)
                out.append(f"{f.name}{suffix}{{{body}}} {format_value(value)}")
            else:
                out.append(f"{f.name}{suffix} {format_value(value)}")
    return "\n".join(out) + "\n" if out else ""


def _histogram(f: Family, h: Histogram, **labels: Any) -> None:
    for bound, total in h.cumulative():
        f.add(total, "_bucket", **labels, le=format_value(float(bound)))
    f.add(h.sum, "_sum", **labels)
    f.add(h.count, "_count", **labels)


def collect(services: Services) -> list[Family]:
    """Every family, counters from ``services.metrics``, gauges from the live objects.

    Families come in a fixed order and samples sorted by their labels, so two
    scrapes of an idle broker are identical.
    """
    m: Metrics = services.metrics
    p = PREFIX
    fams: list[Family] = []

    fams.extend(_request_families(m))
    fams.extend(_telemetry_families(services))
    fams.append(_log_size_family(services))
    fams.extend(_cleaner_families(services))
    fams.extend(_share_families(services, m))

    fams.append(
        Family(p + "classic_groups", "gauge", "Classic consumer groups.").add(len(services.groups.list_groups()))
    )
    _group_families(
        fams,
        "consumer",
        "Consumer groups (KIP-848)",
        CONSUMER_GROUP_STATES,
        services.groups.list_consumer_groups(),
        m.consumer_rebalances,
    )
    _group_families(
        fams,
        "streams",
        "Streams groups (KIP-1071)",
        STREAMS_GROUP_STATES,
        services.groups.list_streams_groups(),
        m.streams_rebalances,
    )
    return fams


def _request_families(m: Metrics) -> list[Family]:
    """Requests by API, their latency, and the record bytes in and out."""
    p = PREFIX
    fams: list[Family] = []
    fams.append(Family(p + "requests_total", "counter", "Requests handled, by API.").add_each(m.requests, "api"))
    f = Family(
        p + "request_duration_seconds",
        "histogram",
        "Time from a request's decoding to its response, by API (long polls included).",
    )
    for api in sorted(m.request_latency):
        _histogram(f, m.request_latency[api], api=api)
    fams.append(f)
    fams.append(Family(p + "bytes_in_total", "counter", "Record bytes received by Produce.").add(m.bytes_in))
    fams.append(Family(p + "bytes_out_total", "counter", "Record bytes sent by Fetch and ShareFetch.").add(m.bytes_out))
    f = Family(
        p + "log_flush_seconds",
        "histogram",
        "Group-commit fsync rounds: one round makes every waiting append (acks=all produce, "
        "coordinator and share-state records) durable at once.",
    )
    _histogram(f, m.log_flush)
    fams.append(f)
    fams.append(
        Family(p + "log_flush_logs_total", "counter", "Logs fsynced by group-commit rounds.").add(m.log_flush_logs)
    )
    return fams


def _telemetry_families(services: Services) -> list[Family]:
    """The latest values clients pushed (KIP-714), when the broker collects them."""
    p = PREFIX
    fams: list[Family] = []
    telemetry = getattr(services, "telemetry", None)  # None: services built without it (tests)
    if telemetry is not None:
        f = Family(
            p + "client_metric",
            "gauge",
            "Latest value of each metric client instances pushed (KIP-714 PushTelemetry), by instance and metric.",
        )
        for labels, value in telemetry.samples(services.now_ms()):
            f.add(value, **labels)
        fams.append(f)
    return fams


def _log_size_family(services: Services) -> Family:
    p = PREFIX
    f = Family(p + "log_size_bytes", "gauge", "Size of a partition's log on disk, all segments.")
    sizes = [(topic, partition, 0) for topic, partition in services.logs.unopened_new()]
    for plog in services.logs.logs():
        try:
            sizes.append((plog.topic, plog.partition, plog.size_bytes))
        except Exception:  # a segment closed under us: skip it this scrape
            continue
    for topic, partition, size in sorted(sizes):
        f.add(size, topic=topic, partition=partition)
    return f


def _share_families(services: Services, m: Metrics) -> list[Family]:
    """Share groups, share-partitions, sessions and acknowledgements (KIP-932)."""
    p = PREFIX
    fams: list[Family] = []
    list_share_groups = services.groups.list_share_groups
    by_state = {state: len(list_share_groups((state,))) for state in SHARE_GROUP_STATES}
    fams.append(
        Family(p + "share_groups", "gauge", "Share groups by state (KIP-932 group-count).").add_each(by_state, "state")
    )
    fams.append(Family(p + "share_group_count", "gauge", "Share groups, all states.").add(len(list_share_groups())))
    fams.append(
        Family(
            p + "share_group_rebalances_total",
            "counter",
            "New target assignments of share groups (assignment epoch bumps).",
        ).add(m.share_rebalances)
    )

    share = services.share
    entries = share.loaded()
    fams.append(
        Family(
            p + "share_partitions_loaded", "gauge", "Share-partitions loaded on this broker (KIP-932 num-partitions)."
        ).add(len(entries))
    )
    in_flight = 0
    for e in entries:
        in_flight += e.sp.in_flight
    fams.append(
        Family(
            p + "share_in_flight_records", "gauge", "Offsets between SPSO and SPEO over the loaded share-partitions."
        ).add(in_flight)
    )
    fams.append(Family(p + "share_sessions", "gauge", "Open share sessions.").add(len(share.sessions)))
    fams.extend(_share_partition_families(services, entries))

    fams.append(
        Family(
            p + "share_acknowledgements_total",
            "counter",
            "Share-partition acknowledgements applied (ShareFetch and ShareAcknowledge), by acknowledge type.",
        ).add_each(dict(zip(ACK_TYPES, m.ack_requests)), "type")
    )
    fams.append(
        Family(
            p + "share_acknowledged_records_total", "counter", "Records acknowledged, by acknowledge type."
        ).add_each(dict(zip(ACK_TYPES, m.ack_records)), "type")
    )
    f = Family(
        p + "share_partition_load_seconds",
        "histogram",
        "Time to load a share-partition (read its persisted state, or initialise it).",
    )
    _histogram(f, m.partition_load)
    fams.append(f)
    f = Family(
        p + "share_state_write_seconds",
        "histogram",
        "Time for a share-partition's change (acknowledgements, releases, lock expiries) to be "
        "durable in __share_group_state; a ShareFetch or ShareAcknowledge carrying "
        "acknowledgements answers after it.",
    )
    _histogram(f, m.share_state_write)
    fams.append(f)
    return fams


def _share_partition_families(services: Services, entries: list) -> list[Family]:
    """Per share group and partition: lag (KIP-1226), records in flight, age of the oldest
    record waiting to be delivered; per group: redelivered and dead-lettered records."""
    p = PREFIX
    lag = Family(
        p + "share_partition_lag",
        "gauge",
        "Records from the share-partition start offset to the high watermark not yet delivered to "
        "completion (KIP-1226 lag, as DescribeShareGroupOffsets v1 reports it).",
    )
    acquired = Family(p + "share_partition_acquired_records", "gauge", "Records acquired by consumers right now.")
    oldest = Family(
        p + "share_partition_oldest_available_age_seconds",
        "gauge",
        "Age (now minus its timestamp) of the first record waiting to be delivered; 0 when none waits.",
    )
    archiving = Family(
        p + "share_partition_archiving_records", "gauge", "Records waiting for their dead-letter copy (KIP-1191)."
    )
    now_ms = services.share.now_ms()
    for e in entries:
        sp = e.sp
        labels = {"group": e.key[0], "topic": e.topic, "partition": e.partition}
        complete = busy = 0
        for r in sp.runs():
            size = r.last_offset - r.first_offset + 1
            if r.state in FINAL_STATES:
                complete += size
            elif r.state == RecordState.ACQUIRED:
                busy += size
        plog = e.view.log
        lag.add(share_partition_lag(plog.high_watermark, sp.start_offset, complete), **labels)
        acquired.add(busy, **labels)
        archiving.add(sp.archiving(), **labels)
        age = 0.0
        first = sp.first_available_offset()
        if first is not None:
            for header in plog.batch_headers(first, 1 << 16, max_offset=plog.high_watermark):
                if header.base_timestamp >= 0:
                    age = max(0.0, (now_ms - header.base_timestamp) / 1000)
                break
        oldest.add(age, **labels)
    m = services.metrics
    redelivered = Family(
        p + "share_redelivered_records_total", "counter", "Records handed out again (delivery count above 1)."
    ).add_each(m.share_redelivered, "group")
    dead = Family(
        p + "share_dead_lettered_records_total",
        "counter",
        "Records copied to the group's dead-letter topic (KIP-1191).",
    ).add_each(m.share_dead_lettered, "group")
    return [lag, acquired, oldest, archiving, redelivered, dead]


def _group_families(
    fams: list[Family], kind: str, what: str, states: tuple[str, ...], groups: list[tuple[str, str]], rebalances: int
) -> None:
    """``<kind>_groups{state}``, ``<kind>_group_count`` and ``<kind>_group_rebalances_total``
    (Kafka's group-count by state and rebalance count for that group type)."""
    p = PREFIX
    counts = dict.fromkeys(states, 0)
    for _, state in groups:
        counts[state] = counts.get(state, 0) + 1
    fams.append(Family(p + f"{kind}_groups", "gauge", f"{what} by state.").add_each(counts, "state"))
    fams.append(Family(p + f"{kind}_group_count", "gauge", f"{what}, all states.").add(len(groups)))
    fams.append(
        Family(
            p + f"{kind}_group_rebalances_total",
            "counter",
            f"New target assignments of {what.split(' (')[0].lower()} (assignment epoch bumps).",
        ).add(rebalances)
    )


def _cleaner_families(services: Services) -> list[Family]:
    """The log cleaner (Kafka's LogCleaner / LogCleanerManager metrics, per partition too)."""
    p = PREFIX
    cleaner = services.logs.cleaner
    fams = [
        Family(p + "log_cleaner_runs_total", "counter", "Cleans completed (one per partition round).").add(
            cleaner.runs
        ),
        Family(p + "log_cleaner_read_bytes_total", "counter", "Bytes of log the cleaner rewrote from.").add(
            cleaner.bytes_read
        ),
        Family(p + "log_cleaner_written_bytes_total", "counter", "Bytes of cleaned segments written.").add(
            cleaner.bytes_written
        ),
        Family(p + "log_cleaner_failures_total", "counter", "Cleans that failed or were left unfinished.").add(
            cleaner.failures
        ),
        Family(p + "log_cleaner_uncleanable_partitions", "gauge", "Partitions the cleaner gave up on.").add(
            len(cleaner.uncleanable)
        ),
        Family(
            p + "log_cleaner_max_dirty_ratio",
            "gauge",
            "Highest dirty ratio at the cleaner's last look (max-dirty-percent).",
        ).add(cleaner.max_dirty_ratio),
    ]
    ratio = Family(p + "log_dirty_ratio", "gauge", "Share of a compacted partition's log written since its last clean.")
    since = Family(
        p + "log_seconds_since_last_clean",
        "gauge",
        "Time since a compacted partition was last cleaned (none yet: absent).",
    )
    try:
        rows = sorted(cleaner.partition_stats())
    except Exception:  # a log closed under us: skip this scrape's per-partition rows
        rows = []
    for topic, partition, dirty, seconds in rows:
        ratio.add(dirty, topic=topic, partition=partition)
        if seconds is not None:
            since.add(seconds, topic=topic, partition=partition)
    return [*fams, ratio, since]


def scrape(services: Services) -> str:
    return render(collect(services))


# --------------------------------------------------------------------------- HTTP endpoint

MAX_REQUEST_BYTES = 8192
REQUEST_TIMEOUT_S = 10.0
MAX_SCRAPE_CONNECTIONS = 16


def parse_listen(value: str) -> tuple[str, int]:
    """``host:port`` (``[v6]:port``; empty host: every interface) -> (host, port). Raises ValueError."""
    host, sep, port = value.strip().rpartition(":")
    if not sep:
        raise ValueError(f"{value!r} is not HOST:PORT")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ValueError(f"{value!r} has no port 0..65535")
    return host, int(port)


def _response(status: str, body: bytes, content_type: str = "text/plain; charset=utf-8") -> bytes:
    head = (
        f"HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    ).encode("ascii")
    return head + body


def handle_request(services: Services, head: bytes) -> bytes:
    """The response to one request head (everything up to the blank line)."""
    try:
        line = head.split(b"\r\n", 1)[0].decode("ascii")
        method, target, version = line.split(" ")
    except ValueError:
        return _response("400 Bad Request", b"bad request\n")
    if not version.startswith("HTTP/1."):
        return _response("400 Bad Request", b"bad request\n")
    if method != "GET" or target.split("?", 1)[0] != "/metrics":
        return _response("404 Not Found", b"not found\n")
    try:
        body = scrape(services).encode("utf-8")
    except Exception:
        log.exception("metrics_scrape_failed")
        return _response("500 Internal Server Error", b"scrape failed\n")
    return _response("200 OK", body, CONTENT_TYPE)


async def _read_head(stream: trio.abc.Stream) -> bytes | None:
    buf = bytearray()
    while b"\r\n\r\n" not in buf:
        if len(buf) > MAX_REQUEST_BYTES:
            return None
        data = await stream.receive_some(4096)
        if not data:
            return b"" if not buf else None
        buf += data
    return bytes(buf[: buf.index(b"\r\n\r\n")])


async def serve_metrics(
    services: Services, host: str, port: int, *, task_status: Any = trio.TASK_STATUS_IGNORED
) -> None:
    """Serve ``/metrics`` on host:port until cancelled; a bind failure is logged, not raised."""
    try:
        listeners = await trio.open_tcp_listeners(port, host=host or None)
    except OSError as exc:
        log.error("metrics_listen_failed", host=host or "*", port=port, error=str(exc))
        task_status.started(None)
        return
    bound = listeners[0].socket.getsockname()[1]
    open_connections = 0

    async def handle(stream: trio.SocketStream) -> None:
        nonlocal open_connections
        if open_connections >= MAX_SCRAPE_CONNECTIONS:
            with trio.CancelScope(shield=True):
                await stream.aclose()
            return
        open_connections += 1
        try:
            with trio.move_on_after(REQUEST_TIMEOUT_S):
                head = await _read_head(stream)
                if head is None:
                    reply = _response("413 Request Entity Too Large", b"request too large\n")
                elif not head:
                    reply = b""
                else:
                    reply = handle_request(services, head)
                if reply:
                    await stream.send_all(reply)
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            pass
        except Exception:
            log.exception("metrics_request_failed")
        finally:
            open_connections -= 1
            with trio.CancelScope(shield=True):
                try:
                    await stream.aclose()
                except Exception:
                    pass

    log.info("metrics_listening", host=host or "*", port=bound)
    task_status.started(bound)
    try:
        await trio.serve_listeners(handle, listeners)
    except Exception:  # the endpoint dies alone; the broker keeps serving Kafka clients
        log.exception("metrics_endpoint_failed")
    finally:
        with trio.CancelScope(shield=True):
            for listener in listeners:
                await listener.aclose()
