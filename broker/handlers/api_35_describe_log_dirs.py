"""DescribeLogDirs (key 35), v1-5.

Every log directory of this broker (``log.dirs``) with the replicas in it: the
partitions named in the request, or every one when ``topics`` is null. For each
replica its size in bytes, its offset lag (how far its log end is behind the high
watermark; for a future replica being filled by AlterReplicaLogDirs, behind the
current replica's log end) and whether it is a future replica. v4 adds the
volume's total and usable bytes (``statvfs``), v5 ``is_cordoned`` (always false:
directories are not cordoned here). An offline directory is listed with
KAFKA_STORAGE_ERROR and nothing else, as in Kafka. DESCRIBE on the cluster is
checked by the dispatcher (``broker.server.authz``): refused, v3+ answers
CLUSTER_AUTHORIZATION_FAILED at the top.
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers.context import RequestContext
from broker.log.manager import DirReport
from broker.protocol.errors import ErrorCode
from broker.protocol.messages.describe_log_dirs_request import DescribeLogDirsRequest
from broker.protocol.messages.describe_log_dirs_response import (
    DescribeLogDirsPartition,
    DescribeLogDirsResponse,
    DescribeLogDirsResult,
    DescribeLogDirsTopic,
)


def _result(report: DirReport) -> DescribeLogDirsResult:
    topics: dict[str, list[DescribeLogDirsPartition]] = {}
    for r in report.replicas:
        topics.setdefault(r.topic, []).append(
            DescribeLogDirsPartition(
                partition_index=r.partition,
                partition_size=r.size,
                offset_lag=r.offset_lag,
                is_future_key=r.is_future,
            )
        )
    return DescribeLogDirsResult(
        error_code=report.error,
        log_dir=str(report.path),
        topics=[DescribeLogDirsTopic(name=name, partitions=parts) for name, parts in topics.items()],
        total_bytes=report.total_bytes,
        usable_bytes=report.usable_bytes,
        is_cordoned=False,
    )


@handler(35, min_version=1, max_version=5)
async def handle(ctx: RequestContext, req: DescribeLogDirsRequest) -> DescribeLogDirsResponse:
    logs = ctx.services.logs
    if req.topics is None:
        await logs.open_in_slices()  # logs not opened since the start, without holding the loop
        reports = logs.describe_dirs()
    else:
        wanted = {(t.topic, p) for t in req.topics for p in t.partitions}
        await logs.open_in_slices(wanted)
        reports = logs.describe_dirs(lambda topic, p: (topic, p) in wanted)
    return DescribeLogDirsResponse(throttle_time_ms=0, error_code=ErrorCode.NONE, results=[_result(r) for r in reports])
