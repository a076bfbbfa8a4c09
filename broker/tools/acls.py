"""``sharebroker acls``: add, list and remove ACLs, like ``kafka-acls.sh``.

::

    sharebroker acls --bootstrap-server B --add --allow-principal User:alice --operation Read --topic orders
    sharebroker acls --bootstrap-server B --add --allow-principal User:alice --consumer --topic orders --group workers
    sharebroker acls --bootstrap-server B --add --deny-principal User:bob --operation All --topic orders- \\
        --resource-pattern-type prefixed
    sharebroker acls --bootstrap-server B --list [--topic orders] [--principal User:alice]
    sharebroker acls --bootstrap-server B --remove --allow-principal User:alice --operation Read --topic orders
    sharebroker acls --bootstrap-server B --add --allow-principal User:bob --operation CreateTokens \\
        --user-principal User:alice

Resources: ``--topic``, ``--group``, ``--transactional-id``, ``--delegation-token``
(a token id: DESCRIBE lets a user see the token) and ``--user-principal`` (``User:x``:
CREATE_TOKENS lets a user make tokens owned by x, DESCRIBE_TOKENS see x's tokens), all
repeatable, and ``--cluster``; ``--resource-pattern-type`` LITERAL (default for --add/--remove),
PREFIXED, ANY or MATCH (filters only; the --list default is ANY). ``--producer``
grants WRITE, DESCRIBE and CREATE on the topics (and WRITE, DESCRIBE on
transactional ids; IDEMPOTENT_WRITE on the cluster with ``--idempotent``);
``--consumer`` grants READ and DESCRIBE on the topics and READ on the groups.
The output is kafka-acls.sh's.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from broker.protocol.acls import AclOperation, AclPermissionType, PatternType, ResourceType
from broker.tools._cli import add_tool_parser, run_with_admin

if TYPE_CHECKING:  # imported where used, to keep the command's start-up short
    from broker.admin.client import AdminClient

# The wire's codes: operations by the names the options take (any case, - and _ dropped),
# resource types, pattern types and permissions; their names as Kafka's tool prints them.
OPERATIONS = {op.name.replace("_", "").lower(): int(op) for op in AclOperation if op >= AclOperation.ALL}
_OP_NAMES = {int(op): op.name for op in AclOperation if op >= AclOperation.ALL}
_R = ResourceType
TOPIC, GROUP, CLUSTER, TXN, TOKEN, USER = (
    int(rt) for rt in (_R.TOPIC, _R.GROUP, _R.CLUSTER, _R.TRANSACTIONAL_ID, _R.DELEGATION_TOKEN, _R.USER)
)
_RT_NAMES = {int(rt): rt.name for rt in ResourceType if rt >= ResourceType.TOPIC}
PATTERNS = {pt.name.lower(): int(pt) for pt in PatternType if pt >= PatternType.ANY}
_PT_NAMES = {int(pt): pt.name for pt in PatternType if pt >= PatternType.ANY}
DENY, ALLOW = int(AclPermissionType.DENY), int(AclPermissionType.ALLOW)
_PERM_NAMES = {p: AclPermissionType(p).name for p in (DENY, ALLOW)}
CLUSTER_NAME = "kafka-cluster"
_NO_RESOURCE = (
    "name a resource: --topic, --group, --transactional-id, --delegation-token, --user-principal or --cluster"
)


def register(subparsers: argparse._SubParsersAction) -> None:
    p = add_tool_parser(
        subparsers,
        "acls",
        help="add, list and remove ACLs (like kafka-acls.sh)",
        description="Manage ACLs over the Kafka protocol (CreateAcls, DescribeAcls, DeleteAcls), like kafka-acls.sh.",
        actions={"add": "add ACLs", "remove": "remove ACLs", "list": "list ACLs"},
    )
    p.add_argument("--topic", action="append", default=[], metavar="T", help="topic resource (repeatable)")
    p.add_argument("--group", action="append", default=[], metavar="G", help="group resource (repeatable)")
    p.add_argument("--transactional-id", action="append", default=[], metavar="ID", help="transactional id resource")
    p.add_argument("--cluster", action="store_true", help="the cluster resource")
    p.add_argument(
        "--delegation-token", action="append", default=[], metavar="ID", help="delegation token resource (its id)"
    )
    p.add_argument(
        "--user-principal",
        action="append",
        default=[],
        metavar="P",
        help="user resource (User:x), for CreateTokens and DescribeTokens",
    )
    p.add_argument(
        "--resource-pattern-type",
        type=str.lower,
        choices=sorted(PATTERNS),
        help="literal or prefixed (add/remove; default literal); any or match too for list/remove (list default any)",
    )
    p.add_argument("--allow-principal", action="append", default=[], metavar="P", help="principal to allow (User:x)")
    p.add_argument("--deny-principal", action="append", default=[], metavar="P", help="principal to deny")
    p.add_argument("--allow-host", action="append", default=[], metavar="H", help="host the allow applies to (*)")
    p.add_argument("--deny-host", action="append", default=[], metavar="H", help="host the deny applies to (*)")
    p.add_argument(
        "--operation", action="append", default=[], type=str.lower, metavar="OP", help="Read, Write, ..., All"
    )
    p.add_argument("--producer", action="store_true", help="the ACLs a producer needs")
    p.add_argument("--consumer", action="store_true", help="the ACLs a consumer needs")
    p.add_argument("--idempotent", action="store_true", help="with --producer: IDEMPOTENT_WRITE on the cluster")
    p.add_argument("--principal", action="append", default=[], metavar="P", help="--list: only ACLs of this principal")
    p.add_argument("--force", action="store_true", help="--remove: do not ask for confirmation")
    p.add_argument("--timeout-ms", type=int, default=30000, help="request timeout (default 30000)")
    p.set_defaults(func=run)


def _resources(args: argparse.Namespace, pattern: int) -> list[tuple[int, str, int]]:
    out = [(TOPIC, t, pattern) for t in args.topic]
    out += [(GROUP, g, pattern) for g in args.group]
    out += [(TXN, t, pattern) for t in args.transactional_id]
    out += [(TOKEN, t, pattern) for t in args.delegation_token]
    out += [(USER, u, pattern) for u in args.user_principal]
    if args.cluster:
        out.append((CLUSTER, CLUSTER_NAME, 3))
    return out


def _operations(args: argparse.Namespace, rtype: int) -> list[int]:
    ops = []
    for name in args.operation:
        code = OPERATIONS.get(name.replace("_", "").replace("-", ""))
        if code is None:
            raise ValueError(f"unknown operation {name!r} (Read, Write, Create, Delete, Alter, Describe, All, ...)")
        ops.append(code)
    if args.producer:
        ops += {TOPIC: [4, 8, 5], TXN: [4, 8], CLUSTER: [12] if args.idempotent else []}.get(rtype, [])
    if args.consumer:
        ops += {TOPIC: [3, 8], GROUP: [3]}.get(rtype, [])
    return list(dict.fromkeys(ops))


def _entries(args: argparse.Namespace) -> list[tuple[str, str, int]]:
    """(principal, host, permission) for the principals named."""
    out = []
    for principal in args.allow_principal:
        for host in args.allow_host or ["*"]:
            out.append((principal, host, ALLOW))
    for principal in args.deny_principal:
        for host in args.deny_host or ["*"]:
            out.append((principal, host, DENY))
    return out


def _pattern_text(rtype: int, name: str, pattern: int) -> str:
    return f"ResourcePattern(resourceType={_RT_NAMES.get(rtype, rtype)}, name={name}, patternType={_PT_NAMES.get(pattern, pattern)})"


def _acl_text(principal: str, host: str, op: int, perm: int) -> str:
    return f"(principal={principal}, host={host}, operation={_OP_NAMES.get(op, op)}, permissionType={_PERM_NAMES.get(perm, perm)})"


def run(args: argparse.Namespace) -> int:
    def check() -> None:
        if args.producer or args.consumer:
            if args.add is False and args.remove is False:
                raise ValueError("--producer and --consumer go with --add or --remove")
            if args.consumer and not args.group:
                raise ValueError("--consumer needs --group")
            if args.idempotent:
                args.cluster = True

    return run_with_admin(
        args,
        lambda admin: _act(admin, args),
        client_id="sharebroker-acls",
        timeout_s=args.timeout_ms / 1000 + 5,
        check=check,
    )


def _act(admin: AdminClient, args: argparse.Namespace) -> int:
    if args.list:
        return _list(admin, args)
    if args.add:
        return _add(admin, args)
    return _remove(admin, args)


def _describe(admin: AdminClient, rtype: int, name: str | None, pattern: int, principal: str | None) -> list:
    from broker.admin.client import check_error
    from broker.protocol.messages.describe_acls_request import DescribeAclsRequest

    resp = admin.send(
        DescribeAclsRequest(
            resource_type_filter=rtype,
            resource_name_filter=name,
            pattern_type_filter=pattern,
            principal_filter=principal,
            host_filter=None,
            operation=1,
            permission_type=1,
        )
    )
    check_error(resp.error_code, resp.error_message, "DescribeAcls")
    return list(resp.resources)


def _print_acls(title: str, acls: Iterable[Any]) -> None:
    """One block as kafka-acls.sh prints it: ``title``, a line per ACL (anything with its
    principal, host, operation and permission_type), a blank line."""
    print(f"{title}: ")
    for a in acls:
        print(f" \t{_acl_text(a.principal, a.host, a.operation, a.permission_type)} ")
    print()


def _print_described(resources: Iterable[Any]) -> None:
    """DescribeAcls' resources, each with its ACLs."""
    for res in resources:
        _print_acls(
            f"Current ACLs for resource `{_pattern_text(res.resource_type, res.resource_name, res.pattern_type)}`",
            res.acls,
        )


def _print_current(admin: AdminClient, rtype: int, name: str, pattern: int) -> None:
    _print_described(_describe(admin, rtype, name, pattern, None))


def _add(admin: AdminClient, args: argparse.Namespace) -> int:
    from broker.admin.client import KafkaApiError
    from broker.protocol.messages.create_acls_request import AclCreation, CreateAclsRequest

    pattern = PATTERNS[args.resource_pattern_type or "literal"]
    if pattern not in (3, 4):
        raise ValueError("--add needs --resource-pattern-type literal or prefixed")
    resources = _resources(args, pattern)
    entries = _entries(args)
    if not resources:
        raise ValueError(_NO_RESOURCE)
    if not entries:
        raise ValueError("name a principal: --allow-principal or --deny-principal")
    for rtype, name, pt in resources:
        ops = _operations(args, rtype)
        if not ops:
            continue
        creations = [
            AclCreation(
                resource_type=rtype,
                resource_name=name,
                resource_pattern_type=pt,
                principal=principal,
                host=host,
                operation=op,
                permission_type=perm,
            )
            for principal, host, perm in entries
            for op in ops
        ]
        _print_acls(f"Adding ACLs for resource `{_pattern_text(rtype, name, pt)}`", creations)
        resp = admin.send(CreateAclsRequest(creations=creations))
        for r in resp.results:
            if r.error_code:
                raise KafkaApiError(r.error_code, r.error_message, "CreateAcls")
        _print_current(admin, rtype, name, pt)
    return 0


def _remove(admin: AdminClient, args: argparse.Namespace) -> int:
    from broker.admin.client import KafkaApiError
    from broker.protocol.messages.delete_acls_request import DeleteAclsFilter, DeleteAclsRequest

    pattern = PATTERNS[args.resource_pattern_type or "literal"]
    resources = _resources(args, pattern)
    if not resources:
        raise ValueError(_NO_RESOURCE)
    # No principal named: every principal's ACLs, from any host, allowing or denying (ANY).
    entries: Sequence[tuple[str | None, str | None, int]] = _entries(args) or [(None, None, 1)]
    for rtype, name, pt in resources:
        ops = _operations(args, rtype) or [1]  # no operation named: all of them
        filters = [
            DeleteAclsFilter(
                resource_type_filter=rtype,
                resource_name_filter=name,
                pattern_type_filter=pt,
                principal_filter=principal,
                host_filter=host,
                operation=op,
                permission_type=perm,
            )
            for principal, host, perm in entries
            for op in ops
        ]
        if not args.force and sys.stdin.isatty():
            answer = input(
                f"Are you sure you want to remove ACLs from resource `{_pattern_text(rtype, name, pt)}`? (y/n)\n"
            )
            if answer.strip().lower() != "y":
                continue
        resp = admin.send(DeleteAclsRequest(filters=filters))
        for r in resp.filter_results:
            if r.error_code:
                raise KafkaApiError(r.error_code, r.error_message, "DeleteAcls")
        _print_current(admin, rtype, name, 3 if pt in (1, 2) else pt)
    return 0


def _list(admin: AdminClient, args: argparse.Namespace) -> int:
    pattern = PATTERNS[args.resource_pattern_type or "any"]
    resources = _resources(args, pattern) or [(1, None, pattern)]  # type: ignore[list-item]
    principals = args.principal or [None]
    for rtype, name, pt in resources:
        for principal in principals:
            _print_described(_describe(admin, rtype, name, pt, principal))
    return 0
