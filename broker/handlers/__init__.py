"""The handler registry: one module per API, registered by api key and versions.

``ROUTES`` names, for every API we serve, its module and the versions it
serves. ApiVersions advertises exactly this table. Each module declares the
same versions again with :func:`handler`; a mismatch fails the import, and a
test imports every module, so the table cannot drift from what is implemented.

Modules are imported on first use (and warmed in the background once the
listener is up), so start-up does not pay for ~40 handler modules and the
message classes they pull in before it can answer ApiVersions.
"""

from __future__ import annotations

import importlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from broker.protocol.messages import API_INDEX

if TYPE_CHECKING:
    from broker.handlers.context import RequestContext

HandlerFn = Callable[["RequestContext", Any], Awaitable[Any]]

# api key -> (module, min version, max version)
ROUTES: dict[int, tuple[str, int, int]] = {
    0: ("api_00_produce", 3, 13),
    1: ("api_01_fetch", 4, 18),
    2: ("api_02_list_offsets", 1, 11),
    3: ("api_03_metadata", 0, 13),
    8: ("api_08_offset_commit", 2, 10),
    9: ("api_09_offset_fetch", 1, 10),
    10: ("api_10_find_coordinator", 0, 6),
    11: ("api_11_join_group", 0, 9),
    12: ("api_12_heartbeat", 0, 4),
    13: ("api_13_leave_group", 0, 5),
    14: ("api_14_sync_group", 0, 5),
    15: ("api_15_describe_groups", 0, 6),
    16: ("api_16_list_groups", 0, 5),
    17: ("api_17_sasl_handshake", 0, 1),
    18: ("api_18_api_versions", 0, 5),
    19: ("api_19_create_topics", 2, 7),
    20: ("api_20_delete_topics", 1, 6),
    21: ("api_21_delete_records", 0, 2),
    22: ("api_22_init_producer_id", 0, 5),
    23: ("api_23_offset_for_leader_epoch", 2, 4),
    24: ("api_24_add_partitions_to_txn", 0, 5),
    25: ("api_25_add_offsets_to_txn", 0, 4),
    26: ("api_26_end_txn", 0, 5),
    27: ("api_27_write_txn_markers", 1, 2),
    28: ("api_28_txn_offset_commit", 0, 6),
    29: ("api_29_describe_acls", 1, 3),
    30: ("api_30_create_acls", 1, 3),
    31: ("api_31_delete_acls", 1, 3),
    32: ("api_32_describe_configs", 1, 4),
    33: ("api_33_alter_configs", 0, 2),
    34: ("api_34_alter_replica_log_dirs", 1, 2),
    35: ("api_35_describe_log_dirs", 1, 5),
    36: ("api_36_sasl_authenticate", 0, 2),
    37: ("api_37_create_partitions", 0, 3),
    38: ("api_38_create_delegation_token", 1, 3),
    39: ("api_39_renew_delegation_token", 1, 2),
    40: ("api_40_expire_delegation_token", 1, 2),
    41: ("api_41_describe_delegation_token", 1, 3),
    42: ("api_42_delete_groups", 0, 3),
    43: ("api_43_elect_leaders", 0, 2),
    44: ("api_44_incremental_alter_configs", 0, 1),
    45: ("api_45_alter_partition_reassignments", 0, 1),
    46: ("api_46_list_partition_reassignments", 0, 0),
    47: ("api_47_offset_delete", 0, 0),
    48: ("api_48_describe_client_quotas", 0, 1),
    49: ("api_49_alter_client_quotas", 0, 1),
    50: ("api_50_describe_user_scram_credentials", 0, 0),
    51: ("api_51_alter_user_scram_credentials", 0, 0),
    57: ("api_57_update_features", 0, 2),
    60: ("api_60_describe_cluster", 0, 2),
    61: ("api_61_describe_producers", 0, 0),
    65: ("api_65_describe_transactions", 0, 0),
    66: ("api_66_list_transactions", 0, 2),
    68: ("api_68_consumer_group_heartbeat", 0, 1),
    69: ("api_69_consumer_group_describe", 0, 1),
    71: ("api_71_get_telemetry_subscriptions", 0, 0),
    72: ("api_72_push_telemetry", 0, 0),
    74: ("api_74_list_config_resources", 0, 1),
    75: ("api_75_describe_topic_partitions", 0, 0),
    76: ("api_76_share_group_heartbeat", 1, 1),
    77: ("api_77_share_group_describe", 1, 1),
    78: ("api_78_share_fetch", 1, 2),
    79: ("api_79_share_acknowledge", 1, 2),
    83: ("api_83_initialize_share_group_state", 0, 0),
    84: ("api_84_read_share_group_state", 0, 0),
    85: ("api_85_write_share_group_state", 0, 1),
    86: ("api_86_delete_share_group_state", 0, 0),
    87: ("api_87_read_share_group_state_summary", 0, 1),
    88: ("api_88_streams_group_heartbeat", 0, 1),
    89: ("api_89_streams_group_describe", 0, 1),
    90: ("api_90_describe_share_group_offsets", 0, 1),
    91: ("api_91_alter_share_group_offsets", 0, 0),
    92: ("api_92_delete_share_group_offsets", 0, 0),
    93: ("api_93_streams_group_topology_description_update", 0, 0),
}


@dataclass(slots=True)
class Handler:
    api_key: int
    name: str
    module: str
    min_version: int
    max_version: int
    fn: HandlerFn | None = None

    def supports(self, version: int) -> bool:
        return self.min_version <= version <= self.max_version

    async def handle(self, ctx: RequestContext, request: Any) -> Any:
        fn = self.fn
        if fn is None:
            fn = self.load()
        return await fn(ctx, request)

    def load(self) -> HandlerFn:
        if self.fn is None:
            importlib.import_module(f"{__name__}.{self.module}")
            if self.fn is None:
                raise RuntimeError(f"{self.module} did not register a handler for {self.name}")
        return self.fn


def _build() -> dict[int, Handler]:
    table = {}
    for api_key, (module, lo, hi) in ROUTES.items():
        info = API_INDEX[api_key]
        if not (info.min_version <= lo <= hi <= info.max_version):
            raise ValueError(
                f"{info.name}: versions {lo}-{hi} outside the schema's {info.min_version}-{info.max_version}"
            )
        table[api_key] = Handler(api_key, info.name, module, lo, hi)
    return table


HANDLERS: dict[int, Handler] = _build()


def handler(api_key: int, *, min_version: int, max_version: int) -> Callable[[HandlerFn], HandlerFn]:
    """Attach the decorated coroutine to ``api_key``'s route; versions must match ``ROUTES``."""
    entry = HANDLERS.get(api_key)
    if entry is None:
        raise ValueError(f"api key {api_key} has no entry in broker.handlers.ROUTES")
    if (entry.min_version, entry.max_version) != (min_version, max_version):
        raise ValueError(
            f"{entry.name}: module serves v{min_version}-{max_version} but ROUTES advertises "
            f"v{entry.min_version}-{entry.max_version}"
        )

    def register(fn: HandlerFn) -> HandlerFn:
        if entry.fn is not None and entry.fn is not fn:
            raise ValueError(f"{entry.name} registered twice")
        entry.fn = fn
        return fn

    return register


def load_all() -> dict[int, Handler]:
    """Import every handler module now (tests, and the post-start warm-up)."""
    for h in HANDLERS.values():
        h.load()
    return HANDLERS
