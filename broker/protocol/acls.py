"""The ACL codes as the wire carries them (CreateAcls, DescribeAcls, DeleteAcls and the
authorized-operations bitfields): resource types, pattern types, operations and
permission types, with Kafka's numbering. The authorizer, the ACL tool and the
console all read them from here.
"""

from __future__ import annotations

from enum import IntEnum

__all__ = ["AclOperation", "AclPermissionType", "PatternType", "ResourceType"]


class ResourceType(IntEnum):
    UNKNOWN = 0
    ANY = 1
    TOPIC = 2
    GROUP = 3
    CLUSTER = 4
    TRANSACTIONAL_ID = 5
    DELEGATION_TOKEN = 6
    USER = 7


class PatternType(IntEnum):
    UNKNOWN = 0
    ANY = 1  # filters: any pattern type, names compared exactly
    MATCH = 2  # filters: every ACL that would apply to the named resource
    LITERAL = 3
    PREFIXED = 4


class AclOperation(IntEnum):
    UNKNOWN = 0
    ANY = 1
    ALL = 2
    READ = 3
    WRITE = 4
    CREATE = 5
    DELETE = 6
    ALTER = 7
    DESCRIBE = 8
    CLUSTER_ACTION = 9
    DESCRIBE_CONFIGS = 10
    ALTER_CONFIGS = 11
    IDEMPOTENT_WRITE = 12
    CREATE_TOKENS = 13
    DESCRIBE_TOKENS = 14


class AclPermissionType(IntEnum):
    UNKNOWN = 0
    ANY = 1
    DENY = 2
    ALLOW = 3
