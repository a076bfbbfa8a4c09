"""Authorized-operation bit fields (KIP-430) when no authorizer decides them.

Metadata, DescribeCluster, DescribeTopicPartitions and the group describes answer
the operations a principal may perform on a resource as a 32-bit field (bit =
``AclOperation`` code). With no authorizer every operation Kafka supports on the
resource type is allowed (Kafka's ``AclEntry.supportedOperations``); when one runs,
:mod:`broker.server.authz` replaces these fields with its answer.
"""

from __future__ import annotations

from broker.security.authorizer import SUPPORTED_OPERATIONS, ResourceType


def all_operations(resource_type: ResourceType) -> int:
    """Every operation supported on ``resource_type``, as the bit field."""
    return sum(1 << op for op in SUPPORTED_OPERATIONS[resource_type])


TOPIC_OPERATIONS = all_operations(ResourceType.TOPIC)
# 8096, what Kafka reports with no authorizer.
CLUSTER_OPERATIONS = all_operations(ResourceType.CLUSTER)
GROUP_OPERATIONS = all_operations(ResourceType.GROUP)
# The schema default: "authorized operations were not asked for".
OPERATIONS_OMITTED = -(2**31)
