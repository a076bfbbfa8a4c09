"""ACL enforcement for every API, in one place, before and after the handler.

When an authorizer runs (``authorizer.class.name``), the dispatcher asks
:func:`authorize` for a :class:`Plan` before calling a handler. Each API has a
rule, registered for its generated request class (``RULES_BY_REQUEST``; ``RULES``
by api key) and typed against it and its response class, so mypy checks every
field a rule reads or fills in. The rules follow ``broker.security.api_acls``
(which operation on which resource Kafka 4.4's ``KafkaApis`` checks) and Kafka's
way of answering a denial:

* **Whole request**: a denied check on the one resource the request is about
  (the group of JoinGroup, the transactional id of EndTxn, the cluster of
  CreateAcls) answers the API's error response with that code; the handler is
  not called.
* **Per entity**: where the response has an error per topic, partition, group or
  resource, the entities the principal may not touch are taken out of the request
  the handler sees and answered with ``TOPIC_AUTHORIZATION_FAILED``,
  ``GROUP_AUTHORIZATION_FAILED``, ... next to the handler's answers for the rest
  (the error entries are built by :func:`broker.protocol.error_response.error_response`
  from the denied part of the request, so they carry the same identifying fields).
* **Listings** (Metadata for all topics, ListGroups, OffsetFetch of all topics,
  ListTransactions) leave out what the principal may not describe.
* **Authorized operations** fields (Metadata, DescribeGroups, DescribeCluster,
  DescribeTopicPartitions, the KIP-848/932/1071 group describes) get the
  principal's operations instead of every operation.

Kafka checks existence after authorization, so an unknown topic the principal
may not describe is TOPIC_AUTHORIZATION_FAILED, never UNKNOWN_TOPIC_OR_PARTITION.
Topics named by id resolve through the metadata image; an unknown id is left to
the handler (UNKNOWN_TOPIC_ID).

The rules, by the APIs they are about: :mod:`.topics` (produce, fetch, metadata,
topic admin), :mod:`.groups` (classic, consumer and streams groups, offsets,
FindCoordinator), :mod:`.share` (KIP-932), :mod:`.txn` (transactions) and
:mod:`.admin` (configs, ACLs, SCRAM, quotas, cluster operations); :mod:`.core`
holds what they are made of.

An API served without a rule is refused (CLUSTER_AUTHORIZATION_FAILED) rather
than served unchecked; ``tests/unit/test_authz.py`` keeps every served API covered.

Difference from Kafka: Fetch and ShareFetch sessions are checked on the
partitions a request names, so a partition that entered a session before an ACL
was removed keeps being served until the session is re-created.
"""

from __future__ import annotations

from broker.handlers.context import RequestContext
from broker.protocol.message_base import Message
from broker.security.authorizer import Authorizer

# Each rule module registers its rules on import.
from broker.server.authz import admin, groups, share, topics, txn  # noqa: F401
from broker.server.authz.core import CLUSTER_DENIED, NO_ACL_APIS, RULES, RULES_BY_REQUEST, Check, Plan

__all__ = ["NO_ACL_APIS", "RULES", "RULES_BY_REQUEST", "Plan", "authorize"]


def authorize(ctx: RequestContext, authorizer: Authorizer, api_key: int, body: Message) -> Plan:
    """The plan for one request (see the module docstring)."""
    if api_key in NO_ACL_APIS:
        return Plan(request=body)
    check = Check(ctx, authorizer)
    fn = RULES_BY_REQUEST.get(type(body))
    if fn is None:
        return check.whole(body, CLUSTER_DENIED, "no authorization rule for this API")
    return fn(check, body)
