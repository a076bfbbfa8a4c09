"""AlterReplicaLogDirs (key 34), v1-2.

Moves replicas of this broker between its log directories, online (JBOD,
:mod:`broker.log.future`): a future replica is made in the target directory,
filled from the current one while it keeps taking writes, and swapped in once it
has caught up; the response comes as soon as the move has started
(``kafka-log-dirs.sh --describe`` shows its progress as the future replica's
offset lag). Errors per partition, as Kafka answers them: LOG_DIR_NOT_FOUND for
a path that is not one of ``log.dirs`` (given as an absolute path),
KAFKA_STORAGE_ERROR for an offline directory or partition,
UNKNOWN_TOPIC_OR_PARTITION for a partition the cluster does not have,
REPLICA_NOT_AVAILABLE for one with no replica here (the directory is remembered
and used when a reassignment brings the replica, which is how
``kafka-reassign-partitions.sh`` with ``log_dirs`` works), NONE when the replica
is already there or on its way.
ALTER on the cluster is checked by the dispatcher (``broker.server.authz``).
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers.context import RequestContext
from broker.protocol.errors import ErrorCode, KafkaError
from broker.protocol.messages.alter_replica_log_dirs_request import AlterReplicaLogDirsRequest
from broker.protocol.messages.alter_replica_log_dirs_response import (
    AlterReplicaLogDirPartitionResult,
    AlterReplicaLogDirsResponse,
    AlterReplicaLogDirTopicResult,
)


@handler(34, min_version=1, max_version=2)
async def handle(ctx: RequestContext, req: AlterReplicaLogDirsRequest) -> AlterReplicaLogDirsResponse:
    logs = ctx.services.logs
    results: dict[str, dict[int, int]] = {}
    for d in req.dirs:
        for t in d.topics:
            for p in t.partitions:
                try:
                    if ctx.services.metadata.image.partition(t.name, p) is None:
                        raise KafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
                    logs.alter_replica_dir(t.name, p, d.path)
                    code = ErrorCode.NONE
                except KafkaError as exc:
                    code = exc.code
                results.setdefault(t.name, {})[p] = int(code)
    return AlterReplicaLogDirsResponse(
        throttle_time_ms=0,
        results=[
            AlterReplicaLogDirTopicResult(
                topic_name=name,
                partitions=[
                    AlterReplicaLogDirPartitionResult(partition_index=p, error_code=c) for p, c in parts.items()
                ],
            )
            for name, parts in results.items()
        ],
    )
