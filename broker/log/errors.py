"""Exceptions of the log layer, each carrying the Kafka error code to answer with."""

from __future__ import annotations

from broker.protocol.errors import ErrorCode, KafkaError

__all__ = ["LogError", "TopicError"]


class LogError(KafkaError):
    """A log operation failed; ``error_code`` (int) is the Kafka error for the response.

    Examples: OFFSET_OUT_OF_RANGE (1) from ``read``, OUT_OF_ORDER_SEQUENCE_NUMBER (45)
    and INVALID_PRODUCER_EPOCH (47) from ``append``, KAFKA_STORAGE_ERROR (56) when a
    write or fsync fails.
    """

    def __init__(self, error_code: int, message: str | None = None) -> None:
        code = ErrorCode.for_code(int(error_code))
        super().__init__(code, message)
        self.error_code = int(code)
        self.detail = message or code.message


class TopicError(LogError):
    """A topic-level operation (create, delete, alter) was refused.

    Codes: TOPIC_ALREADY_EXISTS 36, INVALID_TOPIC_EXCEPTION 17, INVALID_PARTITIONS 37,
    INVALID_CONFIG 40, INVALID_REPLICATION_FACTOR 38, UNKNOWN_TOPIC_OR_PARTITION 3.
    """
