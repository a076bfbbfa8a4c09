"""Every config resource type this broker serves, registered.

DescribeConfigs, AlterConfigs and IncrementalAlterConfigs look resources up through
:func:`config_resource` from here, so every resource type is registered before the
first request: TOPIC (2), BROKER (4), CLIENT_METRICS (16) and GROUP (32).
BROKER_LOGGER (8) is not served.
"""

from __future__ import annotations

from broker.handlers import (  # noqa: F401 (each module registers its resource type)
    _broker_configs,
    _client_metrics_configs,
    _group_configs,
    _topic_configs,
)
from broker.handlers._configs import config_resource

__all__ = ["config_resource"]
