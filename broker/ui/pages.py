"""Page and action handlers. A page gathers its data through the gateway and renders one
template; an action checks its input, asks for confirmation, then runs and shows
Kafka's answer (its error as Kafka gave it)."""

from __future__ import annotations

import calendar
import time
from typing import Any

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from broker.admin.client import RESOURCE_GROUP, RESOURCE_TOPIC, AdminError
from broker.ui import charts
from broker.ui.data import cluster as cluster_data
from broker.ui.data import groups as group_data
from broker.ui.data import security as security_data
from broker.ui.data import share as share_data
from broker.ui.data import topics as topic_data
from broker.ui.gateway import GROUP_KINDS, Gateway
from broker.ui.rendering import ConsoleError, render

FORMATS = ("text", "json", "hex")
RESET_TARGETS = ("earliest", "latest", "timestamp", "offset")


def _gw(request: Request) -> Gateway:
    gw: Gateway = request.app.state.gateway
    return gw


def _int(value: str | None, what: str, *, default: int | None = None, minimum: int | None = None) -> int | None:
    if value is None or value.strip() == "":
        return default
    try:
        n = int(value.strip())
    except ValueError:
        raise ConsoleError(f"{what} must be a whole number, not {value!r}") from None
    if minimum is not None and n < minimum:
        raise ConsoleError(f"{what} must be {minimum} or more, not {n}")
    return n


def _timestamp_ms(value: str | None) -> int | None:
    """Milliseconds since the epoch, or an ISO date-time (UTC) such as 2026-11-28T10:00:00."""
    if value is None or value.strip() == "":
        return None
    text = value.strip()
    if text.lstrip("-").isdigit():
        return int(text)
    for fmt in ("%Y-%m-%dT%H:%M:%S", "%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M:%S", "%Y-%m-%d"):
        try:
            return calendar.timegm(time.strptime(text.rstrip("Z"), fmt)) * 1000
        except ValueError:
            continue
    raise ConsoleError(f"{value!r} is neither milliseconds since the epoch nor a date-time like 2026-11-28T10:00:00")


# -- cluster -----------------------------------------------------------------------------------


async def cluster(request: Request) -> Response:
    gw = _gw(request)
    topics = await gw.latest("topics", topic_data.list_topics)
    view = await gw.cached(("cluster",), cluster_data.cluster_view, topics)
    return render(request, "cluster.html", title="Cluster", nav="cluster", view=view)


# -- topics ------------------------------------------------------------------------------------


async def topics(request: Request) -> Response:
    gw = _gw(request)
    rows = await gw.latest("topics", topic_data.list_topics)
    show_internal = request.query_params.get("internal") == "1"
    rates = {t.name: gw.history.last_rate(f"in:{t.name}") for t in rows}
    out_rates = {t.name: gw.out_rate(t.name) for t in rows}
    return render(
        request,
        "topics.html",
        title="Topics",
        nav="topics",
        rows=[t for t in rows if show_internal or not t.internal],
        hidden=sum(1 for t in rows if t.internal and not show_internal),
        rates=rates,
        show_internal=show_internal,
        out_rates=out_rates,
    )


async def topic(request: Request) -> Response:
    gw = _gw(request)
    name = request.path_params["name"]
    row = await gw.cached(("topic", name), topic_data.topic_detail, name)
    try:
        configs: Any = await gw.cached(("topic-configs", name), topic_data.topic_configs, name)
    except AdminError as exc:
        configs = share_data.Unavailable(f"DescribeConfigs: {exc}")
    series = gw.history.get(f"in:{name}")
    chart = charts.line_chart({"records in/s": series.rates() if series else []}, "/s")
    return render(request, "topic.html", title=f"Topic {name}", nav="topics", topic=row, configs=configs, chart=chart)


async def messages(request: Request) -> Response:
    gw = _gw(request)
    name = request.path_params["name"]
    q = request.query_params
    partition = _int(q.get("partition"), "partition", default=0, minimum=0)
    offset = _int(q.get("offset"), "offset", minimum=0)
    ts = _timestamp_ms(q.get("timestamp"))
    limit = _int(q.get("limit"), "limit", default=20, minimum=1)
    fmt = q.get("format", "text")
    if fmt not in FORMATS:
        raise ConsoleError(f"format must be one of {', '.join(FORMATS)}")
    detail = await gw.cached(("topic", name), topic_data.topic_detail, name)
    assert partition is not None and limit is not None
    page = await gw.call(topic_data.browse, name, partition, offset=offset, timestamp_ms=ts, limit=limit)
    return render(
        request,
        "messages.html",
        title=f"Messages of {name}",
        nav="topics",
        topic=detail,
        page=page,
        fmt=fmt,
        q=q,
        limit=limit,
        produced=q.get("produced"),
    )


def _headers(text: str) -> list[tuple[str, bytes | None]]:
    out: list[tuple[str, bytes | None]] = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        key, sep, value = line.partition("=")
        if not sep or not key.strip():
            raise ConsoleError(f"header line {n} is not NAME=VALUE: {line!r}")
        out.append((key.strip(), value.encode()))
    return out


async def produce(request: Request) -> Response:
    gw, fields = await _action(request)
    name = request.path_params["name"]
    partition = _int(fields.get("partition", "0"), "partition", default=0, minimum=0)
    key = fields.get("key", "")
    value = fields.get("value", "")
    headers = _headers(fields.get("headers", ""))
    assert partition is not None
    offset = await gw.call(
        topic_data.produce, name, partition, key.encode() if key else None, value.encode() if value else None, headers
    )
    gw.forget()
    return RedirectResponse(
        f"/topics/{name}/messages?partition={partition}&offset={offset}&produced={offset}", status_code=303
    )


async def alter_config(request: Request) -> Response:
    gw, fields = await _action(request)
    kind = request.path_params["kind"]
    name = request.path_params["name"]
    key = fields.get("key", "").strip()
    value = fields.get("value", "")
    delete = fields.get("delete") == "1"
    if not key:
        raise ConsoleError("give the name of the config to change")
    resource = {"topics": RESOURCE_TOPIC, "share-groups": RESOURCE_GROUP}.get(kind)
    if resource is None:
        raise ConsoleError("configs can be changed for topics and share groups", 404)
    back = f"/{kind}/{name}"
    try:
        await gw.call(topic_data.alter_config, resource, name, key, None if delete else value)
    except AdminError as exc:
        return render(request, "result.html", 400, title="Config not changed", ok=False, message=str(exc), back=back)
    gw.forget()
    done = f"{key} deleted (back to its default)" if delete else f"{key} set to {value!r}"
    return render(request, "result.html", title="Config changed", ok=True, message=done, back=back)


# -- share groups ------------------------------------------------------------------------------


async def share_groups(request: Request) -> Response:
    gw = _gw(request)
    rows = await gw.latest("share-groups", share_data.list_share_groups)
    return render(request, "share_groups.html", title="Share groups", nav="share", rows=rows)


async def share_group(request: Request) -> Response:
    gw = _gw(request)
    group_id = request.path_params["group"]
    view = await gw.cached(("share-group", group_id), share_data.share_group, group_id)
    m = gw.metrics
    if m is not None and m.ok:
        for p in view.partitions:
            labels = {"group": group_id, "topic": p.topic, "partition": str(p.partition)}
            acquired = m.get("share_partition_acquired_records", **labels)
            age = m.get("share_partition_oldest_available_age_seconds", **labels)
            reason = share_data.Unavailable("the metrics endpoints do not report this share-partition (not loaded)")
            p.acquired = int(acquired) if acquired is not None else reason
            p.oldest_age_s = age if age is not None else reason
    elif m is not None:
        for p in view.partitions:
            p.acquired = p.oldest_age_s = share_data.Unavailable("metrics: " + "; ".join(m.errors))
    selected = _selected_partition(request, view)
    lag = gw.history.get(f"lag:{group_id}")
    acks = {t: s.rates() for t in ("accept", "release", "reject", "renew", "gap") if (s := gw.history.get(f"acks:{t}"))}
    flows = {
        label: s.rates()
        for label, key in (("redelivered/s", "redelivered"), ("dead-lettered/s", "dead"))
        if (s := gw.history.get(f"{key}:{group_id}"))
    }
    return render(
        request,
        "share_group.html",
        title=f"Share group {group_id}",
        nav="share",
        g=view,
        selected=selected,
        inflight=_inflight(selected),
        histogram=view.histogram(),
        histogram_svg=None
        if isinstance(view.histogram(), share_data.Unavailable)
        else charts.histogram(view.histogram()),  # type: ignore[arg-type]
        lag_chart=charts.line_chart({"lag": list(lag.points) if lag else []}),
        ack_chart=charts.line_chart({f"{t}/s": r for t, r in acks.items()}, "/s") if acks else None,
        flow_chart=charts.line_chart(flows, "/s") if flows else None,
        metrics=m,
        targets=RESET_TARGETS,
        fmt=request.query_params.get("format", "text"),
    )


def _selected_partition(request: Request, view: share_data.ShareGroupView) -> share_data.SharePartitionRow | None:
    topic = request.query_params.get("topic")
    partition = _int(request.query_params.get("partition"), "partition", minimum=0)
    for p in view.partitions:
        if (topic is None or p.topic == topic) and (partition is None or p.partition == partition):
            return p
    if topic is not None or partition is not None:
        raise ConsoleError(f"the group has no share-partition {topic}-{partition}", 404)
    return None


def _inflight(p: share_data.SharePartitionRow | None) -> Any:
    if p is None or isinstance(p.batches, share_data.Unavailable) or p.start_offset < 0:
        return None
    hw = p.high_watermark if isinstance(p.high_watermark, int) else p.window_end or p.start_offset
    end = max(hw, p.window_end or 0)
    return charts.inflight_map(p.start_offset, end, p.batches)


async def share_action(request: Request) -> Response:
    gw, fields = await _action(request)
    group_id = request.path_params["group"]
    action = request.path_params["action"]
    back = f"/share-groups/{group_id}"
    topic = fields.get("topic", "").strip()
    to = fields.get("to", "earliest")
    value = fields.get("value", "").strip() or None
    if action == "reset":
        if not topic:
            raise ConsoleError("choose the topic whose start offsets to reset")
        if to not in RESET_TARGETS:
            raise ConsoleError(f"reset to one of {', '.join(RESET_TARGETS)}")
        if to in ("timestamp", "offset") and value is None:
            raise ConsoleError(f"give the {to} to reset to")
        if to == "timestamp":
            value = str(_timestamp_ms(value))
        elif to == "offset":
            _int(value, "offset", minimum=0)
        what = f"Reset the start offsets of share group {group_id} on topic {topic} to {to}{'' if value is None else ' ' + value}"
        run: Any = (share_data.reset_offsets, group_id, topic, to, value)
    elif action == "delete-offsets":
        if not topic:
            raise ConsoleError("choose the topic whose offsets to delete")
        what = f"Delete the offsets of share group {group_id} on topic {topic}"
        run = (share_data.delete_offsets, group_id, topic)
    elif action == "delete":
        what = f"Delete share group {group_id}"
        run = (group_data.delete_group, group_id)
        back = "/share-groups"
    else:
        raise ConsoleError(f"unknown action {action!r}", 404)
    return await _confirm_then_run(request, gw, fields, what, run, back)


async def _confirm_then_run(
    request: Request, gw: Gateway, fields: dict[str, str], what: str, run: tuple, back: str
) -> Response:
    if fields.get("confirm") != "yes":
        hidden = {k: v for k, v in fields.items() if k != "confirm"}
        return render(request, "confirm.html", title="Confirm", what=what, hidden=hidden, back=back)
    try:
        result = await gw.call(*run)
    except AdminError as exc:
        return render(request, "result.html", 409, title="Refused", ok=False, message=str(exc), what=what, back=back)
    gw.forget()
    detail = None
    if isinstance(result, dict) and result:
        detail = [f"{t}-{p}: {off}" for (t, p), off in sorted(result.items())]
    return render(request, "result.html", title="Done", ok=True, message=f"{what}: done.", detail=detail, back=back)


async def _action(request: Request) -> tuple[Gateway, dict[str, str]]:
    """The gateway and the posted form fields of an action (refused when the console is read-only)."""
    gw = _gw(request)
    if gw.settings.read_only:
        raise ConsoleError("the console runs with --read-only: actions are off", 403)
    return gw, {k: str(v) for k, v in (await request.form()).items()}


# -- consumer and streams groups ---------------------------------------------------------------


async def groups(request: Request) -> Response:
    rows = await _gw(request).latest("groups", lambda admin: group_data.list_groups(admin, GROUP_KINDS))
    return render(request, "groups.html", title="Consumer and streams groups", nav="groups", rows=rows)


async def group(request: Request) -> Response:
    group_id = request.path_params["group"]
    view = await _gw(request).cached(("group", group_id), group_data.group_detail, group_id)
    return render(request, "group.html", title=f"Group {group_id}", nav="groups", g=view, targets=RESET_TARGETS)


async def group_action(request: Request) -> Response:
    gw, fields = await _action(request)
    group_id = request.path_params["group"]
    action = request.path_params["action"]
    back = f"/groups/{group_id}"
    if action == "reset":
        topic = fields.get("topic", "").strip()
        to = fields.get("to", "earliest")
        value = fields.get("value", "").strip() or None
        if not topic or to not in RESET_TARGETS or (to in ("timestamp", "offset") and value is None):
            raise ConsoleError("choose a topic and a target (with its value for timestamp and offset)")
        if to == "timestamp":
            value = str(_timestamp_ms(value))
        what = f"Reset the committed offsets of group {group_id} on topic {topic} to {to}{'' if value is None else ' ' + value}"
        run: tuple = (group_data.reset_offsets, group_id, topic, to, value)
    elif action == "delete":
        what, run, back = f"Delete group {group_id}", (group_data.delete_group, group_id), "/groups"
    else:
        raise ConsoleError(f"unknown action {action!r}", 404)
    return await _confirm_then_run(request, gw, fields, what, run, back)


# -- transactions, ACLs, users -----------------------------------------------------------------


async def transactions(request: Request) -> Response:
    gw = _gw(request)
    rows = await gw.cached(("transactions",), security_data.transactions)
    q = request.query_params
    producers = None
    if q.get("topic"):
        partition = _int(q.get("partition"), "partition", default=0, minimum=0)
        assert partition is not None
        producers = await gw.call(security_data.open_producers, q["topic"], partition)
    return render(request, "transactions.html", title="Transactions", nav="txn", rows=rows, producers=producers, q=q)


async def abort_transaction(request: Request) -> Response:
    gw, fields = await _action(request)
    topic = fields.get("topic", "")
    partition = _int(fields.get("partition"), "partition", minimum=0)
    start = _int(fields.get("start_offset"), "start offset", minimum=0)
    if not topic or partition is None or start is None:
        raise ConsoleError("give the topic, partition and start offset of the transaction to abort")
    what = f"Abort the transaction open at offset {start} of {topic}-{partition}"
    back = f"/transactions?topic={topic}&partition={partition}"
    return await _confirm_then_run(
        request, gw, fields, what, (security_data.abort_open_transaction, topic, partition, start), back
    )


async def acls(request: Request) -> Response:
    rows = await _gw(request).cached(("acls",), security_data.acls)
    return render(request, "acls.html", title="ACLs", nav="acls", rows=rows)


async def users(request: Request) -> Response:
    rows = await _gw(request).cached(("users",), security_data.scram_users)
    return render(request, "users.html", title="SCRAM users", nav="users", rows=rows)


async def health(request: Request) -> Response:
    return Response("ok\n", media_type="text/plain")


def routes() -> list[Route]:
    return [
        Route("/", cluster),
        Route("/topics", topics),
        Route("/topics/{name}", topic),
        Route("/topics/{name}/messages", messages),
        Route("/topics/{name}/produce", produce, methods=["POST"]),
        Route("/{kind}/{name}/configs", alter_config, methods=["POST"]),
        Route("/share-groups", share_groups),
        Route("/share-groups/{group}", share_group),
        Route("/share-groups/{group}/{action}", share_action, methods=["POST"]),
        Route("/groups", groups),
        Route("/groups/{group}", group),
        Route("/groups/{group}/{action}", group_action, methods=["POST"]),
        Route("/transactions", transactions),
        Route("/transactions/abort", abort_transaction, methods=["POST"]),
        Route("/acls", acls),
        Route("/users", users),
        Route("/healthz", health),
    ]
