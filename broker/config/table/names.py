"""Short names the table modules use: one-letter type tags and section titles."""

from __future__ import annotations

from broker.config.model import ConfigType

I, L, S, B, STR, LST, D = (  # noqa: E741 (one-letter type tags keep the settings table readable)
    ConfigType.INT,
    ConfigType.LONG,
    ConfigType.SHORT,
    ConfigType.BOOLEAN,
    ConfigType.STRING,
    ConfigType.LIST,
    ConfigType.DOUBLE,
)
NET, NODE, LOG, TOPIC, GROUP, SHARE, INTERNAL, COMPAT = (
    "Network",
    "Node and storage",
    "Log segments, retention and flushing",
    "Topics and records",
    "Classic and consumer groups",
    "Share groups (KIP-932)",
    "Internal topics",
    "Compatibility",
)
SEC = "Security"
REPL = "Replication (cluster)"
ONE_NODE = "a single node holds the only copy, so 1 is the only possible value"
SINGLE_NODE_RF = "a single node creates it with one replica, whatever this says"
