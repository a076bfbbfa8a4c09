"""The ACL authorizer (StandardAuthorizer semantics), ACL APIs and the per-API check table."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from broker.protocol.api_keys import ApiKey
from broker.protocol.auth import KafkaPrincipal
from broker.protocol.errors import ErrorCode
from broker.security.api_acls import API_ACLS, NOT_CLIENT_FACING, checks_for
from broker.security.authorizer import (
    AclBinding,
    AclBindingFilter,
    AclOperation,
    AclPermissionType,
    Authorizer,
    FileAclPersistence,
    PatternType,
    ResourceType,
    parse_super_users,
)

T, G, C, X = ResourceType.TOPIC, ResourceType.GROUP, ResourceType.CLUSTER, ResourceType.TRANSACTIONAL_ID
LIT, PRE = PatternType.LITERAL, PatternType.PREFIXED
O = AclOperation
ALLOW, DENY = AclPermissionType.ALLOW, AclPermissionType.DENY
ALICE, BOB = KafkaPrincipal.user("alice"), KafkaPrincipal.user("bob")
HOST = "10.0.0.1"


def acl(rt, name, op, perm=ALLOW, principal="User:alice", host="*", pt=LIT) -> AclBinding:
    return AclBinding(rt, name, pt, principal, host, op, perm)


def test_literal_prefixed_and_wildcard_resources():
    a = Authorizer([acl(T, "orders", O.READ), acl(T, "logs-", O.WRITE, pt=PRE), acl(G, "*", O.READ)])
    assert a.authorize(ALICE, HOST, O.READ, T, "orders")
    assert not a.authorize(ALICE, HOST, O.READ, T, "orders2")
    assert a.authorize(ALICE, HOST, O.WRITE, T, "logs-app")
    assert not a.authorize(ALICE, HOST, O.WRITE, T, "log")
    assert a.authorize(ALICE, HOST, O.READ, G, "any-group")
    assert not a.authorize(BOB, HOST, O.READ, T, "orders")


def test_implied_operations_apply_to_allow_only():
    a = Authorizer([acl(T, "t", O.WRITE), acl(T, "u", O.ALTER_CONFIGS), acl(T, "v", O.ALL)])
    assert a.authorize(ALICE, HOST, O.DESCRIBE, T, "t")
    assert not a.authorize(ALICE, HOST, O.READ, T, "t")
    assert a.authorize(ALICE, HOST, O.DESCRIBE_CONFIGS, T, "u")
    assert not a.authorize(ALICE, HOST, O.DESCRIBE, T, "u")
    assert all(a.authorize(ALICE, HOST, op, T, "v") for op in (O.READ, O.WRITE, O.DELETE, O.DESCRIBE))
    # a DENY READ does not deny DESCRIBE
    d = Authorizer([acl(T, "t", O.ALL), acl(T, "t", O.READ, DENY)])
    assert not d.authorize(ALICE, HOST, O.READ, T, "t")
    assert d.authorize(ALICE, HOST, O.DESCRIBE, T, "t")


def test_deny_wins_wildcards_hosts_super_users_and_no_acl_default():
    a = Authorizer(
        [
            acl(T, "t", O.READ, principal="User:*"),
            acl(T, "t", O.READ, DENY, principal="User:bob"),
            acl(T, "h", O.READ, host="10.0.0.9"),
            acl(T, "p", O.READ, DENY, principal="User:*", pt=PRE),
        ],
        super_users=parse_super_users("User:root; User:CN=admin,O=corp"),
    )
    assert a.authorize(ALICE, HOST, O.READ, T, "t") and not a.authorize(BOB, HOST, O.READ, T, "t")
    assert not a.authorize(ALICE, HOST, O.READ, T, "h") and a.authorize(ALICE, "10.0.0.9", O.READ, T, "h")
    assert a.authorize(KafkaPrincipal.user("root"), HOST, O.READ, T, "p")  # super user beats DENY
    assert a.authorize(KafkaPrincipal.user("CN=admin,O=corp"), HOST, O.ALTER, C, "kafka-cluster")
    assert not a.authorize(ALICE, HOST, O.READ, T, "nothing")
    everyone = Authorizer([acl(T, "t", O.READ, principal="User:bob")], allow_everyone_if_no_acl_found=True)
    assert everyone.authorize(ALICE, HOST, O.READ, T, "other")  # no ACL on the resource at all
    assert not everyone.authorize(ALICE, HOST, O.READ, T, "t")  # an ACL exists, for someone else


def test_authorized_operations_and_by_resource_type():
    a = Authorizer([acl(T, "t", O.WRITE), acl(G, "g", O.READ)])
    bits = a.authorized_operations(ALICE, HOST, T, "t")
    assert bits == (1 << O.WRITE) | (1 << O.DESCRIBE)
    assert a.authorize_by_resource_type(ALICE, HOST, O.WRITE, T)
    assert not a.authorize_by_resource_type(BOB, HOST, O.WRITE, T)
    denied = Authorizer([acl(T, "ab", O.WRITE), acl(T, "a", O.WRITE, DENY, pt=PRE)])
    assert not denied.authorize_by_resource_type(ALICE, HOST, O.WRITE, T)
    wildcard_deny = Authorizer([acl(T, "x", O.WRITE), acl(T, "*", O.WRITE, DENY)])
    assert not wildcard_deny.authorize_by_resource_type(ALICE, HOST, O.WRITE, T)
    with pytest.raises(ValueError):
        a.authorize_by_resource_type(ALICE, HOST, O.ANY, T)


def creation(rt=2, name="t", pt=3, principal="User:alice", host="*", op=3, perm=3):
    return (rt, name, pt, principal, host, op, perm)


def test_create_acls_validation():
    a = Authorizer()
    results, delta = a.prepare_create(
        [
            creation(),
            creation(),  # the same ACL twice: both succeed, stored once
            creation(rt=4, name="other"),
            creation(name=""),
            creation(rt=1),
            creation(pt=2),
            creation(op=1),
            creation(perm=1),
            creation(rt=0),
            creation(op=99),
            creation(principal="alice"),
        ]
    )
    assert [(r.error_code, r.error_message) for r in results] == [
        (0, None),
        (0, None),
        (ErrorCode.INVALID_REQUEST, "The only valid name for the CLUSTER resource is kafka-cluster"),
        (ErrorCode.INVALID_REQUEST, "Invalid empty resource name"),
        (ErrorCode.INVALID_REQUEST, "Invalid resourceType ANY"),
        (ErrorCode.INVALID_REQUEST, "Invalid patternType MATCH"),
        (ErrorCode.INVALID_REQUEST, "Invalid operation ANY"),
        (ErrorCode.INVALID_REQUEST, "Invalid permissionType ANY"),
        (ErrorCode.INVALID_REQUEST, "CreatableAcls contain unknown elements"),
        (ErrorCode.INVALID_REQUEST, "CreatableAcls contain unknown elements"),
        (ErrorCode.INVALID_REQUEST, "expected a string in format principalType:principalName but got alice"),
    ]
    assert len(delta.added) == 1 and not a.acls
    a.apply(delta)
    assert a.authorize(ALICE, HOST, O.READ, T, "t")
    (v0,), _ = a.prepare_create([creation(pt=4)], api_version=0)
    assert v0.error_code == ErrorCode.UNSUPPORTED_VERSION


def test_describe_and_delete_filters(tmp_path):
    acls = [acl(T, "foo", O.READ), acl(T, "fo", O.WRITE, pt=PRE), acl(T, "*", O.DESCRIBE), acl(G, "foo", O.READ)]
    a = Authorizer(acls)
    match = AclBindingFilter(T, "foo", PatternType.MATCH)
    assert a.describe(match) == acls[:3]
    assert a.describe(AclBindingFilter(T, "foo", PatternType.ANY)) == [acls[0]]
    assert a.describe(AclBindingFilter(ResourceType.ANY, None, PatternType.ANY, operation=O.READ)) == [
        acls[0],
        acls[3],
    ]
    assert a.describe(AclBindingFilter(principal="User:bob")) == []
    assert AclBindingFilter.from_codes(0, None, 1, None, None, 1, 1) == "The filter contains UNKNOWN elements"
    assert AclBindingFilter.from_codes(2, None, 7, None, None, 1, 1) == "The filter contains UNKNOWN elements"
    results, delta = a.prepare_delete([AclBindingFilter(T, None, PRE), "The filter contains UNKNOWN elements"])
    assert results[0].matching == (acls[1],) and results[1].error_code == ErrorCode.INVALID_REQUEST
    store = FileAclPersistence(tmp_path / "acls.json")
    store.save(a.preview(delta))
    a.apply(delta)
    assert Authorizer(store.load()).acls == a.acls == [acls[0], acls[2], acls[3]]


acl_strategy = st.builds(
    acl,
    st.sampled_from([T, G]),
    st.sampled_from(["a", "ab", "abc", "*", "b"]),
    st.sampled_from([O.READ, O.WRITE, O.DESCRIBE, O.ALL, O.ALTER]),
    st.sampled_from([ALLOW, DENY]),
    st.sampled_from(["User:alice", "User:*", "User:bob"]),
    st.sampled_from(["*", HOST, "10.9.9.9"]),
    st.sampled_from([LIT, PRE]),
)


@settings(max_examples=300, deadline=None)
@given(
    acls=st.lists(acl_strategy, max_size=8),
    name=st.sampled_from(["a", "ab", "abc", "b", "zz"]),
    op=st.sampled_from([O.READ, O.WRITE, O.DESCRIBE]),
)
def test_authorize_agrees_with_a_direct_reading_of_the_rules(acls, name, op):
    """An independent restatement: DENY wins, an applicable ALLOW allows, else denied."""
    a = Authorizer(acls)

    def applies(x: AclBinding) -> bool:
        on_resource = (x.pattern_type is LIT and x.resource_name in (name, "*")) or (
            x.pattern_type is PRE and name.startswith(x.resource_name)
        )
        who = x.principal in ("User:alice", "User:*") and x.host in ("*", HOST)
        if x.permission is DENY:
            what = x.operation in (op, O.ALL)
        else:
            what = x.operation in (op, O.ALL) or (op is O.DESCRIBE and x.operation in (O.READ, O.WRITE, O.ALTER))
        return on_resource and who and what and x.resource_type is T

    expected = not any(applies(x) and x.permission is DENY for x in acls) and any(
        applies(x) and x.permission is ALLOW for x in acls
    )
    assert a.authorize(ALICE, HOST, op, T, name) is expected


def test_every_client_facing_api_has_checks():
    missing = [k.name for k in ApiKey if k not in API_ACLS and k not in NOT_CLIENT_FACING]
    assert missing == []
    assert not set(API_ACLS) & NOT_CLIENT_FACING


def test_share_group_rules_of_kip_932():
    def pairs(key):
        return {(c.resource, c.operation) for c in checks_for(key)}

    for key in (ApiKey.SHARE_FETCH, ApiKey.SHARE_ACKNOWLEDGE):
        assert pairs(key) == {(G, O.READ), (T, O.READ)}
    assert (G, O.READ) in pairs(ApiKey.SHARE_GROUP_HEARTBEAT)
    assert pairs(ApiKey.DESCRIBE_SHARE_GROUP_OFFSETS) == {(G, O.DESCRIBE), (T, O.DESCRIBE)}
    assert (G, O.DESCRIBE) in pairs(ApiKey.SHARE_GROUP_DESCRIBE)
    assert (G, O.DELETE) in pairs(ApiKey.DELETE_SHARE_GROUP_OFFSETS)
    assert pairs(ApiKey.DELETE_GROUPS) == {(G, O.DELETE)}
    for key in range(83, 88):
        assert pairs(key) == {(C, O.CLUSTER_ACTION)}
    assert checks_for(ApiKey.SHARE_FETCH)[0].error == ErrorCode.GROUP_AUTHORIZATION_FAILED
    assert checks_for(ApiKey.END_TXN)[0].error == ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED
    assert all(c.resource is X for c in checks_for(ApiKey.END_TXN))
    assert checks_for(ApiKey.API_VERSIONS) == checks_for(ApiKey.SASL_HANDSHAKE) == ()


def test_every_handler_the_broker_serves_is_in_the_table():
    from broker.handlers import HANDLERS

    assert [k for k in HANDLERS if ApiKey(k) not in API_ACLS] == []
