"""``sharebroker ui`` in Debian's chromium against a real broker with real clients
(confluent-kafka ShareConsumers and Producer), and against Apache Kafka 4.4.0."""

from __future__ import annotations

import base64
import http.client
import json
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from confluent_kafka import AcknowledgeType, Consumer, Producer, ShareConsumer
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from broker.admin.client import AdminClient
from broker.localcluster import BrokerProcess
from tests.ui.harness import UiProcess, click_through, screenshot, texts, wait_for

# Share consumers poll this long at most per call; a test's consumers stop with it.
POLL_S = 0.5


def metrics_port(broker: BrokerProcess) -> int:
    for line in Path(broker.log_path).read_text(errors="replace").splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if isinstance(event, dict) and event.get("event") == "metrics_listening":
            return int(event["port"])
    raise AssertionError("no metrics_listening event in the broker log")


@pytest.fixture(scope="module")
def broker(sharebroker_factory) -> BrokerProcess:
    return sharebroker_factory(settings={"metrics.listen": "127.0.0.1:0"})


@pytest.fixture(scope="module")
def ui(broker: BrokerProcess) -> Iterator[UiProcess]:
    url = f"http://127.0.0.1:{metrics_port(broker)}/metrics"
    with UiProcess(broker.bootstrap, "--metrics-url", url) as proc:
        yield proc


def share_group(bootstrap: str, group: str, topic: str, partitions: int, **configs: str) -> None:
    with AdminClient(bootstrap) as admin:
        admin.create_topics({topic: partitions})
        admin.set_group_configs(
            group, {"share.auto.offset.reset": "earliest", "share.assignment.interval.ms": "0", **configs}
        )


def produce(bootstrap: str, topic: str, count: int, partitions: int = 1) -> None:
    p = Producer({"bootstrap.servers": bootstrap})
    for i in range(count):
        p.produce(topic, key=f"k{i}".encode(), value=json.dumps({"n": i}).encode(), partition=i % partitions)
    assert p.flush(30) == 0


class Consumers:
    """Share consumers in threads, each accepting what it gets until stopped."""

    def __init__(self, bootstrap: str, group: str, topic: str, count: int) -> None:
        self.stop = threading.Event()
        self.errors: list[BaseException] = []
        self.threads = [
            threading.Thread(target=self._run, args=(bootstrap, group, topic, f"worker-{n}"), daemon=True)
            for n in range(count)
        ]
        for t in self.threads:
            t.start()

    def _run(self, bootstrap: str, group: str, topic: str, client_id: str) -> None:
        try:
            c = ShareConsumer({"bootstrap.servers": bootstrap, "group.id": group, "client.id": client_id})
            c.subscribe([topic])
            while not self.stop.is_set():
                c.poll(POLL_S)
            c.close()
        except BaseException as exc:
            self.errors.append(exc)

    def close(self) -> None:
        self.stop.set()
        for t in self.threads:
            t.join(30)
        assert not self.errors, self.errors


@pytest.fixture(scope="module")
def busy_group(broker: BrokerProcess) -> Iterator[tuple[str, str]]:
    """A share group with 3 ShareConsumers on a 3-partition topic, for the whole module."""
    group, topic = "workers", "orders"
    share_group(broker.bootstrap, group, topic, 3)
    produce(broker.bootstrap, topic, 60, partitions=3)
    consumers = Consumers(broker.bootstrap, group, topic, 3)
    yield group, topic
    consumers.close()


def test_three_share_consumers_are_three_members_with_their_partitions(browser, ui, busy_group):
    group, topic = busy_group
    browser.get(f"{ui.url}/share-groups/{group}")
    # A marker on the window: it survives only if the page is never reloaded.
    browser.execute_script("window.__notReloaded = true;")
    wait_for("3 members", lambda: texts(browser, "#member-count") == ["3"])

    def assignments() -> dict[str, set[int]] | None:
        rows = browser.find_elements(By.CSS_SELECTOR, "#members tr.member")
        out = {}
        for row in rows:
            parts = row.find_element(By.CSS_SELECTOR, "td.assignment").text
            if not parts.startswith(f"{topic}: "):
                return None
            out[row.get_attribute("data-member")] = {int(p) for p in parts.split(": ", 1)[1].split(",")}
        # Members take their new assignment at their next heartbeat: until then two may share one.
        spread = sorted(p for ps in out.values() for p in ps) == [0, 1, 2]
        return out if len(out) == 3 and spread else None

    found = wait_for("each member with its own partition", assignments)
    assert all(len(ps) == 1 for ps in found.values())
    assert browser.execute_script("return window.__notReloaded === true")
    screenshot(browser, "share-group-members")
    browser.get(f"{ui.url}/share-groups")
    wait_for("the group in the list", lambda: texts(browser, f'tr[data-group="{group}"] td.members') == ["3"])
    screenshot(browser, "share-groups")


def _ack_all(bootstrap: str, group: str, topic: str, want: int, decide) -> None:
    """One explicit-mode ShareConsumer acknowledging ``want`` records as ``decide(offset)`` says."""
    c = ShareConsumer({"bootstrap.servers": bootstrap, "group.id": group, "share.acknowledgement.mode": "explicit"})
    c.subscribe([topic])
    seen: set[int] = set()
    deadline = time.monotonic() + 60
    while len(seen) < want and time.monotonic() < deadline:
        for m in c.poll(POLL_S):
            offset = m.offset()
            if m.error() or offset is None or offset in seen:
                continue
            seen.add(offset)
            c.acknowledge(m, decide(offset))
        c.commit_sync()
    c.close()
    assert len(seen) >= want, f"got {len(seen)} of {want} records"


@pytest.fixture(scope="module")
def dlq_group(broker: BrokerProcess) -> tuple[str, str]:
    """An empty share group whose consumer rejected offsets 3 and 7 (dead letters), released
    20-29 (available again, delivery count 1) and accepted the rest of 50 records."""
    group, topic, dlq = "billing", "invoices", "dlq.billing"
    with AdminClient(broker.bootstrap) as admin:
        admin.create_topics({dlq: 1}, configs={"errors.deadletterqueue.group.enable": "true"})
    share_group(broker.bootstrap, group, topic, 1, **{"errors.deadletterqueue.topic.name": dlq})
    produce(broker.bootstrap, topic, 50)

    def decide(offset: int) -> AcknowledgeType:
        if offset in (3, 7):
            return AcknowledgeType.REJECT
        if 20 <= offset <= 29:
            return AcknowledgeType.RELEASE
        return AcknowledgeType.ACCEPT

    _ack_all(broker.bootstrap, group, topic, 50, decide)
    return group, topic


def test_rejected_records_appear_in_the_dead_letter_view(browser, ui, dlq_group):
    group, topic = dlq_group
    browser.get(f"{ui.url}/share-groups/{group}")
    sources = wait_for(
        "two dead letters",
        lambda: (s := sorted(texts(browser, "#dead-letter-table tr.dead-letter td.source"))) and len(s) == 2 and s,
    )
    assert sources == [f"{topic}-0 @ 3", f"{topic}-0 @ 7"]
    assert set(texts(browser, "#dead-letter-table td.reason")) == {"Offset rejected by client."}


def test_in_flight_window_and_delivery_counts(browser, ui, dlq_group):
    group, topic = dlq_group
    browser.get(f"{ui.url}/share-groups/{group}?topic={topic}&partition=0")
    wait_for(
        "the start offset past the final run",
        lambda: texts(browser, f'tr[data-tp="{topic}-0"] td.start-offset') == ["20"],
    )
    seg = wait_for(
        "a released range in the map", lambda: browser.find_elements(By.CSS_SELECTOR, "svg.inflight rect.seg-available")
    )
    assert (seg[0].get_attribute("data-first"), seg[0].get_attribute("data-last")) == ("20", "29")
    assert seg[0].get_attribute("data-count") == "1"
    bars = browser.find_elements(By.CSS_SELECTOR, "svg.histogram rect.bar")
    by_state = {b.get_attribute("data-state"): int(b.get_attribute("data-records")) for b in bars}
    assert by_state == {"available": 10, "acknowledged": 20}
    screenshot(browser, "share-group")


def test_reset_changes_the_start_offset_shown(browser, ui, dlq_group):
    group, topic = dlq_group
    browser.get(f"{ui.url}/share-groups/{group}")
    wait_for("start offset 20", lambda: texts(browser, f'tr[data-tp="{topic}-0"] td.start-offset') == ["20"])
    form = browser.find_element(By.ID, "reset-form")
    field = form.find_element(By.NAME, "topic")
    field.clear()
    field.send_keys(topic)
    Select(form.find_element(By.NAME, "to")).select_by_visible_text("latest")
    click_through(browser, form.find_element(By.ID, "reset-submit"))
    wait_for("the confirmation", lambda: "latest" in browser.find_element(By.ID, "confirm-what").text)
    click_through(browser, browser.find_element(By.ID, "confirm"))
    assert "done" in wait_for("the result", lambda: browser.find_element(By.ID, "action-ok").text)
    browser.get(f"{ui.url}/share-groups/{group}")
    wait_for("start offset 50", lambda: texts(browser, f'tr[data-tp="{topic}-0"] td.start-offset') == ["50"])


def test_a_reset_kafka_refuses_shows_kafkas_error(browser, ui, busy_group):
    group, _topic = busy_group
    browser.get(f"{ui.url}/share-groups/{group}")
    wait_for("3 members", lambda: texts(browser, "#member-count") == ["3"])
    click_through(browser, browser.find_element(By.ID, "reset-submit"))
    click_through(browser, browser.find_element(By.ID, "confirm"))
    error = wait_for("Kafka's refusal", lambda: browser.find_element(By.ID, "action-error").text)
    assert "NON_EMPTY_GROUP" in error, error


def test_message_browser_shows_key_value_and_headers(browser, ui, broker):
    topic = "browse"
    with AdminClient(broker.bootstrap) as admin:
        admin.create_topics({topic: 2})
    p = Producer({"bootstrap.servers": broker.bootstrap})
    p.produce(topic, key=b"order-42", value=b'{"id": 42, "total": 9.5}', partition=1, headers=[("trace-id", b"abc123")])
    assert p.flush(30) == 0
    browser.get(f"{ui.url}/topics/{topic}/messages?partition=1&offset=0&format=json")
    row = wait_for("the record", lambda: browser.find_elements(By.CSS_SELECTOR, '#messages tr[data-offset="0"]'))[0]
    assert row.find_element(By.CSS_SELECTOR, "td.key").text == "order-42"
    assert json.loads(row.find_element(By.CSS_SELECTOR, "td.value").text) == {"id": 42, "total": 9.5}
    assert row.find_element(By.CSS_SELECTOR, "td.headers").text == "trace-id: abc123"
    # Produce through the form, and find the record where the console says it went.
    browser.find_element(By.CSS_SELECTOR, "#produce summary").click()
    form = browser.find_element(By.ID, "produce-form")
    form.find_element(By.NAME, "key").send_keys("from-the-console")
    form.find_element(By.NAME, "value").send_keys("hello")
    form.find_element(By.NAME, "headers").send_keys("origin=ui")
    click_through(browser, form.find_element(By.ID, "produce-submit"))
    assert "offset 1" in wait_for("the produced note", lambda: browser.find_element(By.ID, "produced").text)
    row = browser.find_element(By.CSS_SELECTOR, '#messages tr[data-offset="1"]')
    assert [row.find_element(By.CSS_SELECTOR, c).text for c in ("td.key", "td.value", "td.headers")] == [
        "from-the-console",
        "hello",
        "origin: ui",
    ]
    browser.get(f"{ui.url}/topics/{topic}/messages?partition=1&offset=0&format=json")
    screenshot(browser, "messages")


def test_bad_input_gets_a_clear_message(browser, ui, broker):
    cases = [
        ("/share-groups/no-such-group", "GROUP_ID_NOT_FOUND"),
        ("/groups/no-such-group", "GROUP_ID_NOT_FOUND"),
        ("/topics/no-such-topic", "UNKNOWN_TOPIC_OR_PARTITION"),
        ("/topics/no-such-topic/messages", "UNKNOWN_TOPIC_OR_PARTITION"),
        ("/topics/typos/messages?offset=abc", "offset must be a whole number"),
        ("/topics/typos/messages?partition=9", "has no partition 9"),
        ("/topics/typos/messages?timestamp=yesterday", "neither milliseconds"),
    ]
    with AdminClient(broker.bootstrap) as admin:
        admin.create_topics({"typos": 3})
    for path, expected in cases:
        browser.get(ui.url + path)
        text = browser.find_element(By.ID, "page-error").text
        assert expected in text, (path, text)
        assert "Traceback" not in browser.page_source
    browser.get(f"{ui.url}/topics/typos/messages?partition=0&offset=999999")
    assert "out of range" in browser.find_element(By.ID, "browse-note").text


def test_a_broker_that_goes_away_mid_page(browser, sharebroker_factory):
    broker = sharebroker_factory()
    with AdminClient(broker.bootstrap) as admin:
        admin.create_topics({"short-lived": 1})
    with UiProcess(broker.bootstrap, "--timeout-ms", "3000") as ui:
        browser.get(f"{ui.url}/topics/short-lived")
        wait_for("the topic page", lambda: browser.find_elements(By.ID, "partitions"))
        broker.stop()
        error = wait_for(
            "the live section to say so", lambda: browser.find_element(By.ID, "page-error").text, timeout=20
        )
        assert "The cluster cannot be reached" in error and "Connection refused" in error, error
        assert "Traceback" not in browser.page_source


def test_basic_auth_and_a_wrong_password(browser, broker, tmp_path):
    users = tmp_path / "users"
    users.write_text("admin:s3cret\n")
    with UiProcess(broker.bootstrap, "--basic-auth-file", str(users)) as ui:
        host = ui.url.split("://", 1)[1]
        for auth in (None, "admin:wrong", "nobody:s3cret"):
            req = urllib.request.Request(ui.url + "/topics")
            if auth:
                req.add_header("Authorization", "Basic " + base64.b64encode(auth.encode()).decode())
            try:
                urllib.request.urlopen(req, timeout=10)
                raise AssertionError(f"served with {auth}")
            except urllib.error.HTTPError as exc:
                assert exc.code == 401
                assert exc.headers["WWW-Authenticate"].startswith("Basic")
                assert "password is wrong" in exc.read().decode()
        browser.get(f"http://admin:s3cret@{host}/topics")
        wait_for("the topics page", lambda: browser.find_elements(By.ID, "topics"))


def test_read_only_hides_and_refuses_actions(browser, broker, busy_group):
    group, _ = busy_group
    with UiProcess(broker.bootstrap, "--read-only") as ui:
        browser.get(f"{ui.url}/share-groups/{group}")
        wait_for("the group page", lambda: browser.find_elements(By.ID, "members"))
        assert not browser.find_elements(By.TAG_NAME, "form")
        req = urllib.request.Request(f"{ui.url}/share-groups/{group}/delete", data=b"confirm=yes", method="POST")
        try:
            urllib.request.urlopen(req, timeout=10)
            raise AssertionError("a read-only console ran an action")
        except urllib.error.HTTPError as exc:
            assert exc.code == 403
            assert "read-only" in exc.read().decode()


def test_every_main_page_renders(browser, ui, broker, busy_group):
    _group, topic = busy_group
    produce(broker.bootstrap, "clicks", 5)
    c = Consumer({"bootstrap.servers": broker.bootstrap, "group.id": "clicks-reader", "auto.offset.reset": "earliest"})
    try:
        c.subscribe(["clicks"])
        wait_for("a record for the consumer group", lambda: (m := c.poll(0.5)) is not None and not m.error())
        c.commit(asynchronous=False)
        pages = [
            ("/", "brokers", "cluster"),
            ("/topics", "topics", "topics"),
            (f"/topics/{topic}", "partitions", "topic"),
            ("/groups", "groups", "groups"),
            ("/groups/clicks-reader", "members", "group"),
            ("/transactions", "transactions", "transactions"),
            ("/acls", "acls-unavailable", "acls"),
            ("/users", "users", "users"),
        ]
        for path, element, name in pages:
            browser.get(ui.url + path)
            wait_for(f"{path} to render", lambda e=element: browser.find_elements(By.ID, e))
            errors = texts(browser, "#page-error")
            assert not errors, (path, errors)
            screenshot(browser, name)
        browser.get(ui.url + "/groups/clicks-reader")
        assert "clicks: 0" in browser.find_element(By.ID, "members").text
        # Topic sizes come from DescribeLogDirs (API 35) where the broker lists it, else say so.
        with AdminClient(broker.bootstrap) as admin:
            has_log_dirs = 35 in admin.api_versions()
        browser.get(ui.url + "/topics")
        # Records out: how fast the groups reading the topic move on, once two samples saw one.
        wait_for("an out rate for clicks", lambda: texts(browser, 'tr[data-topic="clicks"] td.out') == ["0.0"])
        size = texts(browser, 'tr[data-topic="clicks"] td.size')
        assert size and (size[0][0].isdigit() if has_log_dirs else size[0] == "unavailable"), (has_log_dirs, size)
    finally:
        c.close()


def _kafka_peer() -> Any:
    from bench.peers import KafkaPeer

    reason = KafkaPeer.available()
    if reason:
        pytest.skip(f"Apache Kafka 4.4.0: {reason}")
    return KafkaPeer().start()


def test_against_apache_kafka_the_broker_only_panels_are_unavailable(browser):
    peer = _kafka_peer()
    try:
        group, topic = f"kafka-{uuid.uuid4().hex[:6]}", "orders"
        share_group(peer.bootstrap, group, topic, 2)
        produce(peer.bootstrap, topic, 20, partitions=2)
        consumers = Consumers(peer.bootstrap, group, topic, 1)
        try:
            with UiProcess(peer.bootstrap, "--timeout-ms", "15000") as ui:
                browser.get(f"{ui.url}/share-groups/{group}")
                wait_for("the member", lambda: texts(browser, "#member-count") == ["1"], timeout=60)
                # Kafka's own figures: start offsets and lag once the consumer has read.
                wait_for(
                    "start offsets and lag from Kafka",
                    lambda: (
                        len(cells := texts(browser, "#share-partitions td.start-offset, #share-partitions td.lag")) == 4
                        and all(c.replace(",", "").isdigit() for c in cells)
                    ),
                    timeout=60,
                )
                acquired = wait_for(
                    "its 2 share-partitions",
                    lambda: (a := texts(browser, "#share-partitions td.acquired")) and len(a) == 2 and a,
                    timeout=60,
                )
                assert set(acquired) == {"unavailable"}, acquired
                assert "unavailable" in browser.find_element(By.ID, "acks-section").text
                assert "unavailable" in browser.find_element(By.ID, "flow-section").text
                assert not browser.find_elements(By.ID, "page-error")
                screenshot(browser, "kafka-share-group")
                browser.get(f"{ui.url}/")
                wait_for("the cluster page", lambda: browser.find_elements(By.ID, "brokers"))
                assert "share.version" in browser.find_element(By.ID, "features").text
                browser.get(f"{ui.url}/topics")
                sizes = wait_for("the topic row", lambda: texts(browser, f'tr[data-topic="{topic}"] td.size'))
                assert sizes[0][0].isdigit() and sizes[0].endswith("B"), sizes  # Kafka serves DescribeLogDirs
                screenshot(browser, "kafka-topics")
        finally:
            consumers.close()
    finally:
        peer.stop()
        peer._tmp.cleanup()


def test_https_with_tls_cert_and_key(broker, tmp_path):
    import ssl

    from tests.pki import Pki

    pki = Pki(tmp_path / "pki")
    assert pki.broker is not None
    with UiProcess(
        broker.bootstrap, "--tls-cert", str(pki.broker.cert_file), "--tls-key", str(pki.broker.key_file)
    ) as ui:
        assert ui.url.startswith("https://"), ui.url
        context = ssl.create_default_context(cafile=str(pki.ca_file))
        with urllib.request.urlopen(ui.url + "/topics", timeout=10, context=context) as resp:
            assert resp.status == 200 and b'id="topics"' in resp.read()
        # Plain HTTP to the TLS listener gets no page (the connection is dropped).
        with pytest.raises((OSError, http.client.HTTPException)):
            urllib.request.urlopen(ui.url.replace("https://", "http://") + "/topics", timeout=10)


def _submit(browser: Any, form_id: str, **fields: str) -> None:
    form = browser.find_element(By.ID, form_id)
    for name, value in fields.items():
        element = form.find_element(By.NAME, name)
        if element.tag_name == "select":
            Select(element).select_by_visible_text(value)
        else:
            element.clear()
            element.send_keys(value)
    click_through(browser, form.find_element(By.CSS_SELECTOR, "button[type=submit]"))


def test_config_edits_show_kafkas_validation_error(browser, ui, broker):
    with AdminClient(broker.bootstrap) as admin:
        admin.create_topics({"settings": 1})
    browser.get(f"{ui.url}/topics/settings")
    browser.find_element(By.CSS_SELECTOR, "details summary").click()
    _submit(browser, "config-form", key="retention.ms", value="soon")
    error = browser.find_element(By.ID, "action-error").text
    assert "INVALID_CONFIG" in error, error
    browser.get(f"{ui.url}/topics/settings")
    browser.find_element(By.CSS_SELECTOR, "details summary").click()
    _submit(browser, "config-form", key="retention.ms", value="3600000")
    assert "retention.ms set to '3600000'" in browser.find_element(By.ID, "action-ok").text
    with AdminClient(broker.bootstrap) as admin:
        assert admin.describe_configs(2, "settings", ["retention.ms"]) == {"retention.ms": "3600000"}


def test_delete_a_share_group_and_reset_a_consumer_group(browser, ui, broker):
    with AdminClient(broker.bootstrap) as admin:
        admin.create_topics({"ledger": 1})
        admin.alter_share_group_offsets("retired", {("ledger", 0): 0})
    produce(broker.bootstrap, "ledger", 10)
    browser.get(f"{ui.url}/share-groups/retired")
    click_through(browser, browser.find_element(By.CSS_SELECTOR, "form[action$='/delete'] button"))
    assert "Delete share group retired" in browser.find_element(By.ID, "confirm-what").text
    click_through(browser, browser.find_element(By.ID, "confirm"))
    assert "done" in browser.find_element(By.ID, "action-ok").text
    browser.get(f"{ui.url}/share-groups/retired")
    assert "GROUP_ID_NOT_FOUND" in browser.find_element(By.ID, "page-error").text

    c = Consumer({"bootstrap.servers": broker.bootstrap, "group.id": "auditors", "auto.offset.reset": "earliest"})
    c.subscribe(["ledger"])
    got = 0
    deadline = time.monotonic() + 30
    while got < 10 and time.monotonic() < deadline:
        m = c.poll(0.5)
        got += m is not None and not m.error()
    c.commit(asynchronous=False)
    c.close()
    browser.get(f"{ui.url}/groups/auditors")
    wait_for("the committed offset", lambda: "10" in texts(browser, "#offsets td"))
    _submit(browser, "reset-form", topic="ledger", to="offset", value="4")
    click_through(browser, browser.find_element(By.ID, "confirm"))
    assert "ledger-0: 4" in browser.find_element(By.ID, "action-ok").text
    with AdminClient(broker.bootstrap) as admin:
        assert admin.fetch_offsets("auditors")[("ledger", 0)][0] == 4


def test_an_open_transaction_and_its_producer(browser, ui, broker):
    with AdminClient(broker.bootstrap) as admin:
        admin.create_topics({"payments": 1})
    p = Producer({"bootstrap.servers": broker.bootstrap, "transactional.id": "payments-etl"})
    p.init_transactions(30)
    p.begin_transaction()
    p.produce("payments", value=b"pending", partition=0)
    assert p.flush(30) == 0
    try:
        browser.get(f"{ui.url}/transactions")
        row = wait_for(
            "the open transaction",
            lambda: [r for r in browser.find_elements(By.CSS_SELECTOR, "#transactions tr") if "payments-etl" in r.text],
        )[0]
        assert "Ongoing" in row.text and "payments-0" in row.text
        browser.get(f"{ui.url}/transactions?topic=payments&partition=0")
        producers = browser.find_element(By.ID, "producers").text
        assert producers.splitlines()[1].split()[-1] == "0", producers  # its open transaction starts at offset 0
    finally:
        p.abort_transaction(30)
