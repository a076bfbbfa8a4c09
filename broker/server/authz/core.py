"""The pieces every authorization rule is made of: the checks of one request, the plan it
yields, the table of rules by request class, and the per-entity split.

A rule is a function ``(Check, Request) -> Plan`` registered for one generated request
class with :func:`rule` (or :func:`register`); both are typed so that mypy checks the rule
against that class: the fields it reads exist and have the types it expects. The parts of
the response a rule fills in or filters (denied topics, groups, authorized operations) are
read through the typed response class the same way.
"""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from broker.handlers.context import RequestContext
from broker.protocol.api_keys import ApiKey
from broker.protocol.error_response import error_response
from broker.protocol.errors import ErrorCode
from broker.protocol.message_base import Message
from broker.protocol.messages import RESPONSES
from broker.security.authorizer import CLUSTER_NAME, AclOperation, Authorizer, ResourceType

__all__ = [
    "CLUSTER_DENIED",
    "GROUP_DENIED",
    "NO_ACL_APIS",
    "RULES",
    "RULES_BY_REQUEST",
    "TOPIC_DENIED",
    "TXN_DENIED",
    "UUID_ZERO",
    "After",
    "Check",
    "Entities",
    "Items",
    "Keyed",
    "Plan",
    "Rule",
    "appending",
    "cluster_rule",
    "denied_answers",
    "each_named",
    "each_topic",
    "entities",
    "per_entity",
    "register",
    "rule",
    "split",
    "then",
]

_O = AclOperation
_T, _C = ResourceType.TOPIC, ResourceType.CLUSTER
E = ErrorCode
TOPIC_DENIED = E.TOPIC_AUTHORIZATION_FAILED
GROUP_DENIED = E.GROUP_AUTHORIZATION_FAILED
CLUSTER_DENIED = E.CLUSTER_AUTHORIZATION_FAILED
TXN_DENIED = E.TRANSACTIONAL_ID_AUTHORIZATION_FAILED
UUID_ZERO = uuid.UUID(int=0)

# APIs a client may use with no ACL (as in Kafka): version negotiation, authentication and
# client telemetry (KIP-714: every client may push its own metrics).
NO_ACL_APIS = frozenset(
    {
        ApiKey.API_VERSIONS,
        ApiKey.SASL_HANDSHAKE,
        ApiKey.SASL_AUTHENTICATE,
        ApiKey.GET_TELEMETRY_SUBSCRIPTIONS,
        ApiKey.PUSH_TELEMETRY,
    }
)

Q = TypeVar("Q", bound="Keyed")  # a request class
M = TypeVar("M", bound=Message)  # a generated request class (the key of a rule)
R = TypeVar("R", bound=Message)  # its response class
I = TypeVar("I")  # noqa: E741 - an entity of a request (a topic, a group, a resource)
A = TypeVar("A")  # an entity of a response

# Adjusts the handler's response (typed at each rule against its response class).
After = Callable[[Any], Any]


class Keyed(Protocol):
    """A request class (what :meth:`Check.whole` needs of it: its API key)."""

    API_KEY: ClassVar[int]


@dataclasses.dataclass(slots=True)
class Plan:
    """What to do with one request: ``response`` answers it without the handler;
    otherwise the handler gets ``request`` and ``after`` adjusts its response."""

    request: Any = None
    after: After | None = None
    response: Any = None


class Check:
    """Decisions for one request, cached per (operation, resource)."""

    __slots__ = ("_cache", "authorizer", "ctx", "host", "principal", "version")

    def __init__(self, ctx: RequestContext, authorizer: Authorizer) -> None:
        self.ctx = ctx
        self.authorizer = authorizer
        self.principal = ctx.connection.principal
        self.host = ctx.connection.host
        self.version = ctx.api_version
        self._cache: dict[tuple[AclOperation, ResourceType, str], bool] = {}

    def ok(self, op: AclOperation, rt: ResourceType, name: str | None) -> bool:
        if name is None:
            return False
        key = (op, rt, name)
        hit = self._cache.get(key)
        if hit is None:
            hit = self._cache[key] = self.authorizer.authorize(self.principal, self.host, op, rt, name)
        return hit

    def cluster(self, op: AclOperation) -> bool:
        return self.ok(op, _C, CLUSTER_NAME)

    def ops(self, rt: ResourceType, name: str) -> int:
        return self.authorizer.authorized_operations(self.principal, self.host, rt, name)

    def topic_name(self, name: str | None, topic_id: uuid.UUID | None = None) -> str | None:
        """The topic's name (looked up by id when the request names it by id); None: unknown id."""
        if topic_id is not None and topic_id != UUID_ZERO:
            topic = self.ctx.services.metadata.image.topic_by_id(topic_id)
            return None if topic is None else topic.name
        return name

    def topic_known(self, name: str) -> bool:
        return self.ctx.services.metadata.image.topic(name) is not None

    def topic(self, op: AclOperation, name: str | None, topic_id: uuid.UUID | None = None) -> int | None:
        """The verdict on one topic named by name or id: None (allowed, or an unknown id the
        handler answers UNKNOWN_TOPIC_ID) or TOPIC_AUTHORIZATION_FAILED."""
        resolved = self.topic_name(name, topic_id)
        if resolved is None:
            return None
        return None if self.ok(op, _T, resolved) else TOPIC_DENIED

    def named(self, op: AclOperation, rt: ResourceType, code: int) -> Callable[[str], int | None]:
        """The verdict on a resource named by a plain string (a group id, a transactional id)."""
        return lambda name: None if self.ok(op, rt, name) else code

    def whole(self, body: Keyed, code: int, message: str | None = None) -> Plan:
        """The API's error response with ``code`` for every entity of ``body``; no handler."""
        return Plan(response=error_response(body, RESPONSES[body.API_KEY], self.version, code, message))


# --------------------------------------------------------------------------- the rule table

Rule = Callable[[Check, Any], Plan]
RULES_BY_REQUEST: dict[type[Message], Rule] = {}
# The same rules by api key (how ApiVersions, the handlers and the tests name an API).
RULES: dict[int, Rule] = {}


def register(request: type[M], fn: Callable[[Check, M], Plan]) -> None:
    """Make ``fn`` the rule of ``request``; mypy checks that ``fn`` takes that class."""
    if request in RULES_BY_REQUEST:
        raise ValueError(f"{request.__name__} has two authorization rules")
    RULES_BY_REQUEST[request] = fn
    RULES[request.API_KEY] = fn


def rule(request: type[M]) -> Callable[[Callable[[Check, M], Plan]], Callable[[Check, M], Plan]]:
    """Decorator form of :func:`register`."""

    def add(fn: Callable[[Check, M], Plan]) -> Callable[[Check, M], Plan]:
        register(request, fn)
        return fn

    return add


# --------------------------------------------------------------------------- helpers


def then(*steps: Callable[[R], R] | None) -> Callable[[R], R] | None:
    """The steps run in order on the response (None: no step)."""
    real = [s for s in steps if s is not None]
    if not real:
        return None

    def run(resp: R) -> R:
        for step in real:
            resp = step(resp)
        return resp

    return run


def split(items: Sequence[I], verdict: Callable[[I], int | None]) -> tuple[list[I], dict[int, list[I]]]:
    """The allowed items, and the denied ones by error code, in request order."""
    allowed: list[I] = []
    denied: dict[int, list[I]] = {}
    for item in items:
        code = verdict(item)
        if code is None:
            allowed.append(item)
        else:
            denied.setdefault(code, []).append(item)
    return allowed, denied


@dataclasses.dataclass(frozen=True, slots=True)
class Entities(Generic[Q, I, R, A]):
    """Where the entities a per-entity rule decides on are: ``items`` of the request (topics,
    groups, resources), the request cut down to some of them (``request_with``), and the
    response's list answering them (``answers``), typed by the two classes."""

    request: type[Q]
    response: type[R]
    items: Callable[[Q], Sequence[I]]
    request_with: Callable[[Q, list[I]], Q]
    answers: Callable[[R], list[A]]


@dataclasses.dataclass(frozen=True, slots=True)
class Items(Generic[Q, I]):
    """The entities of a request class, before :meth:`answered` says where they are answered."""

    request: type[Q]
    items: Callable[[Q], Sequence[I]]

    def answered(
        self, response: type[R], request_with: Callable[[Q, list[I]], Q], answers: Callable[[R], list[A]]
    ) -> Entities[Q, I, R, A]:
        """The request cut down to some entities (``request_with``), and the list of the
        response class answering them (``answers``)."""
        return Entities(self.request, response, self.items, request_with, answers)


def entities(request: type[Q], items: Callable[[Q], Sequence[I]]) -> Items[Q, I]:
    """``entities(XRequest, lambda q: q.topics).answered(XResponse, lambda q, ts: replace(q,
    topics=ts), lambda r: r.topics)``: in two steps so that mypy infers the item and answer
    types from the accessors (in one call it gives up on them as Any) and checks each field."""
    return Items(request, items)


def denied_answers(
    c: Check, body: Q, where: Entities[Q, I, R, A], denied: dict[int, list[I]], message: str | None = None
) -> list[A]:
    """The response entries for the denied entities: the API's error response for the request
    cut down to them (so they carry the same identifying fields), one per error code."""
    out: list[A] = []
    for code, group in denied.items():
        extra: R = error_response(where.request_with(body, group), where.response, c.version, code, message)
        out.extend(where.answers(extra))
    return out


def appending(answers: Callable[[R], list[A]], extra: list[A]) -> Callable[[R], R] | None:
    """A step adding ``extra`` to the response's entity list (None when there is nothing)."""
    if not extra:
        return None

    def add(resp: R) -> R:
        answers(resp).extend(extra)
        return resp

    return add


def per_entity(
    c: Check,
    body: Q,
    where: Entities[Q, I, R, A],
    verdict: Callable[[I], int | None],
    after: Callable[[R], R] | None = None,
    message: str | None = None,
) -> Plan:
    """The handler sees ``body`` with only the allowed entities; the denied ones are answered
    with their error code next to the handler's answers (after ``after`` has run)."""
    allowed, denied = split(where.items(body), verdict)
    if not denied:
        return Plan(request=body, after=after)
    extra = denied_answers(c, body, where, denied, message)
    return Plan(request=where.request_with(body, allowed), after=then(after, appending(where.answers, extra)))


def each_topic(
    where: Entities[Q, I, R, A],
    op: AclOperation,
    name: Callable[[I], str | None],
    topic_id: Callable[[I], uuid.UUID] | None = None,
) -> Callable[[Check, Q], Plan]:
    """A rule needing ``op`` on each topic the request names (by name, or by id where
    ``topic_id`` reads one)."""

    def check(c: Check, body: Q) -> Plan:
        return per_entity(c, body, where, lambda t: c.topic(op, name(t), topic_id(t) if topic_id else None))

    return check


def each_named(
    where: Entities[Q, str, R, A], op: AclOperation, rt: ResourceType, code: int
) -> Callable[[Check, Q], Plan]:
    """A rule needing ``op`` on each resource of type ``rt`` the request names by a string."""

    def check(c: Check, body: Q) -> Plan:
        return per_entity(c, body, where, c.named(op, rt, code))

    return check


def cluster_rule(op: AclOperation, *alternatives: AclOperation) -> Callable[[Check, Keyed], Plan]:
    """A rule for an API about the cluster: ``op`` (or one of ``alternatives``) on it, or the
    API's error response with CLUSTER_AUTHORIZATION_FAILED."""

    def check(c: Check, body: Keyed) -> Plan:
        if c.cluster(op) or any(c.cluster(o) for o in alternatives):
            return Plan(request=body)
        return c.whole(body, CLUSTER_DENIED)

    return check
