"""Protocol exceptions and the Kafka error-code table.

``ProtocolError`` is the one exception type decoders raise for bad input; the
framing layer adds subclasses for size-prefix and frame failures. ``ErrorCode``
is Kafka's complete error-code table (Apache Kafka 4.4: codes -1..136) with each
code's retriability, and ``KafkaError`` carries one of those codes from the
place a request fails to the place its response is built.
"""

from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING, ClassVar

__all__ = [
    "CodedError",
    "ErrorCode",
    "FrameTooLargeError",
    "InvalidFrameSizeError",
    "KafkaError",
    "MalformedFrameError",
    "ProtocolError",
    "TruncatedFrameError",
    "UnsupportedFieldError",
]


class ProtocolError(Exception):
    """Raised for any malformed or unsupported input on the wire.

    Every decoder in ``broker.protocol`` raises only this type (or a subclass),
    whatever the bytes it is given.
    """


class UnsupportedFieldError(ProtocolError):
    """A non-default value was set on a field the chosen version cannot carry."""


class FrameTooLargeError(ProtocolError):
    """A frame's size prefix exceeds the connection's ``max_frame_size``.

    The broker answers this by closing the connection, as Kafka does: nothing
    after an oversized frame can be trusted to be in sync.
    """

    def __init__(self, size: int, limit: int) -> None:
        super().__init__(
            f"invalid receive: frame size {size} is larger than the limit {limit} (socket.request.max.bytes)"
        )
        self.size = size
        self.limit = limit


class InvalidFrameSizeError(ProtocolError):
    """A frame's size prefix is negative (int32 sign bit set)."""

    def __init__(self, size: int) -> None:
        super().__init__(f"invalid receive: negative frame size {size}")
        self.size = size


class MalformedFrameError(ProtocolError):
    """A complete frame whose header or body cannot be decoded.

    ``header`` is the decoded request/response header when decoding got that far
    (so a log line can name the correlation id), else ``None``.
    """

    def __init__(self, message: str, header: object | None = None) -> None:
        super().__init__(message)
        self.header = header


class TruncatedFrameError(ProtocolError):
    """The peer closed the stream in the middle of a frame."""


class ErrorCode(IntEnum):
    """Kafka protocol error codes, complete as of Apache Kafka 4.4.

    Each member carries ``retriable`` (whether a client may retry the same
    request unchanged and expect it to succeed later) and ``message`` (a short
    human-readable explanation). Codes, names and retriability follow Kafka's
    ``Errors`` enum exactly; the wording is ours.
    """

    retriable: bool
    message: str

    if TYPE_CHECKING:
        # After the class is built, ``ErrorCode(code)`` looks a member up by its code
        # (Enum swaps the member-building __new__ below for its own lookup). Type
        # checkers take the call signature from that member-building __new__
        # (python/mypy#10573), so they are shown the lookup signature instead.
        def __new__(cls, code: int) -> ErrorCode: ...

    else:

        def __new__(cls, code: int, retriable: bool, message: str) -> ErrorCode:
            obj = int.__new__(cls, code)
            obj._value_ = code
            obj.retriable = retriable
            obj.message = message
            return obj

    UNKNOWN_SERVER_ERROR = -1, False, "The server hit an unexpected error while handling the request."
    NONE = 0, False, "No error."
    OFFSET_OUT_OF_RANGE = 1, False, "The requested offset lies outside the range the partition holds."
    CORRUPT_MESSAGE = 2, True, "A record failed its CRC check, is too small, or is otherwise corrupt."
    UNKNOWN_TOPIC_OR_PARTITION = 3, True, "No such topic or partition exists on this broker."
    INVALID_FETCH_SIZE = 4, False, "The requested fetch size is not valid."
    LEADER_NOT_AVAILABLE = 5, True, "The partition has no leader right now (an election may be under way)."
    NOT_LEADER_OR_FOLLOWER = 6, True, "This broker is neither leader nor follower for the partition."
    REQUEST_TIMED_OUT = 7, True, "The request did not complete within its timeout."
    BROKER_NOT_AVAILABLE = 8, False, "The broker is not available."
    REPLICA_NOT_AVAILABLE = 9, True, "The replica is not available for the requested partition."
    MESSAGE_TOO_LARGE = 10, False, "The request carries a record batch larger than the server accepts."
    STALE_CONTROLLER_EPOCH = 11, False, "The request came from a controller with an outdated epoch."
    OFFSET_METADATA_TOO_LARGE = 12, False, "The metadata string attached to the offset is too long."
    NETWORK_EXCEPTION = 13, True, "The connection was lost before a response arrived."
    COORDINATOR_LOAD_IN_PROGRESS = 14, True, "The coordinator is still loading its state; try again shortly."
    COORDINATOR_NOT_AVAILABLE = 15, True, "The coordinator is not available."
    NOT_COORDINATOR = 16, True, "This broker is not the coordinator for the given key."
    INVALID_TOPIC_EXCEPTION = 17, False, "The operation targets an invalid topic name or an internal topic."
    RECORD_LIST_TOO_LARGE = 18, False, "The batch exceeds the largest segment size the topic allows."
    NOT_ENOUGH_REPLICAS = 19, True, "Too few in-sync replicas to accept the write."
    NOT_ENOUGH_REPLICAS_AFTER_APPEND = 20, True, "Appended, but fewer in-sync replicas than required acknowledged it."
    INVALID_REQUIRED_ACKS = 21, False, "The acks setting of the produce request is not valid."
    ILLEGAL_GENERATION = 22, False, "The generation id given by the member is not the current one."
    INCONSISTENT_GROUP_PROTOCOL = 23, False, "The member's protocol type or protocols do not match the group's."
    INVALID_GROUP_ID = 24, False, "The group id is empty or otherwise invalid."
    UNKNOWN_MEMBER_ID = 25, False, "The group has no member with this id."
    INVALID_SESSION_TIMEOUT = 26, False, "The session timeout lies outside the range the broker allows."
    REBALANCE_IN_PROGRESS = 27, False, "The group is rebalancing; the member must rejoin."
    INVALID_COMMIT_OFFSET_SIZE = 28, False, "The offset commit was refused because its metadata is too large."
    TOPIC_AUTHORIZATION_FAILED = 29, False, "Not authorized to access the topic."
    GROUP_AUTHORIZATION_FAILED = 30, False, "Not authorized to access the group."
    CLUSTER_AUTHORIZATION_FAILED = 31, False, "Not authorized for this cluster-level operation."
    INVALID_TIMESTAMP = 32, False, "A record timestamp lies outside the accepted range."
    UNSUPPORTED_SASL_MECHANISM = 33, False, "The broker does not offer the requested SASL mechanism."
    ILLEGAL_SASL_STATE = 34, False, "The request is not allowed at this point of the SASL exchange."
    UNSUPPORTED_VERSION = 35, False, "The broker does not serve this API version."
    TOPIC_ALREADY_EXISTS = 36, False, "A topic with this name already exists."
    INVALID_PARTITIONS = 37, False, "The partition count is not valid."
    INVALID_REPLICATION_FACTOR = 38, False, "The replication factor is not valid."
    INVALID_REPLICA_ASSIGNMENT = 39, False, "The replica assignment is not valid."
    INVALID_CONFIG = 40, False, "The configuration is not valid."
    NOT_CONTROLLER = 41, True, "This node is not the active controller."
    INVALID_REQUEST = 42, False, "The request is malformed or breaks a protocol rule; the broker log has details."
    UNSUPPORTED_FOR_MESSAGE_FORMAT = 43, False, "The topic's message format version does not support this request."
    POLICY_VIOLATION = 44, False, "The request was refused by a configured policy."
    OUT_OF_ORDER_SEQUENCE_NUMBER = 45, False, "The broker saw a producer sequence number out of order."
    DUPLICATE_SEQUENCE_NUMBER = 46, False, "The broker already has a batch with this producer sequence number."
    INVALID_PRODUCER_EPOCH = 47, False, "The producer's epoch is older than the current one for its transactional id."
    INVALID_TXN_STATE = 48, False, "The operation is not allowed in the transaction's current state."
    INVALID_PRODUCER_ID_MAPPING = 49, False, "The producer id does not belong to the given transactional id."
    INVALID_TRANSACTION_TIMEOUT = 50, False, "The transaction timeout exceeds the broker's maximum."
    CONCURRENT_TRANSACTIONS = 51, True, "Another transaction for this producer is still completing."
    TRANSACTION_COORDINATOR_FENCED = 52, False, "A coordinator with a newer epoch has taken over this transactional id."
    TRANSACTIONAL_ID_AUTHORIZATION_FAILED = 53, False, "Not authorized to use the transactional id."
    SECURITY_DISABLED = 54, False, "Security features are turned off on this broker."
    OPERATION_NOT_ATTEMPTED = 55, False, "The broker skipped this operation because a related one failed."
    KAFKA_STORAGE_ERROR = 56, True, "The replica's log directory is offline or unusable."
    LOG_DIR_NOT_FOUND = 57, False, "The broker has no such log directory."
    SASL_AUTHENTICATION_FAILED = 58, False, "SASL authentication did not succeed."
    UNKNOWN_PRODUCER_ID = 59, False, "The broker holds no state for this producer id."
    REASSIGNMENT_IN_PROGRESS = 60, False, "A reassignment is already running for this partition."
    DELEGATION_TOKEN_AUTH_DISABLED = 61, False, "Delegation-token authentication is turned off."
    DELEGATION_TOKEN_NOT_FOUND = 62, False, "No such delegation token exists."
    DELEGATION_TOKEN_OWNER_MISMATCH = 63, False, "The principal is not the owner or a renewer of the token."
    DELEGATION_TOKEN_REQUEST_NOT_ALLOWED = 64, False, "Delegation tokens cannot be used on this channel or credential."
    DELEGATION_TOKEN_AUTHORIZATION_FAILED = 65, False, "Not authorized for this delegation-token operation."
    DELEGATION_TOKEN_EXPIRED = 66, False, "The delegation token has expired."
    INVALID_PRINCIPAL_TYPE = 67, False, "The principal type is not supported."
    NON_EMPTY_GROUP = 68, False, "The group still has members."
    GROUP_ID_NOT_FOUND = 69, False, "No group with this id exists."
    FETCH_SESSION_ID_NOT_FOUND = 70, True, "The fetch session does not exist (it may have been evicted)."
    INVALID_FETCH_SESSION_EPOCH = 71, True, "The fetch session epoch is not the expected one."
    LISTENER_NOT_FOUND = 72, True, "The partition leader has no endpoint for the listener the request came in on."
    TOPIC_DELETION_DISABLED = 73, False, "Topic deletion is turned off."
    FENCED_LEADER_EPOCH = 74, True, "The request's leader epoch is older than the broker's."
    UNKNOWN_LEADER_EPOCH = 75, True, "The request's leader epoch is newer than the broker's."
    UNSUPPORTED_COMPRESSION_TYPE = 76, False, "The requesting client does not support the topic's compression type."
    STALE_BROKER_EPOCH = 77, False, "The broker epoch is out of date."
    OFFSET_NOT_AVAILABLE = 78, True, "The leader high watermark has not caught up yet; the offset cannot be served."
    MEMBER_ID_REQUIRED = 79, False, "The group needs a member id to be assigned before joining."
    PREFERRED_LEADER_NOT_AVAILABLE = 80, True, "The preferred leader is not available."
    GROUP_MAX_SIZE_REACHED = 81, False, "The group already holds its maximum number of members."
    FENCED_INSTANCE_ID = 82, False, "Another member with the same static instance id replaced this one."
    ELIGIBLE_LEADERS_NOT_AVAILABLE = 83, True, "No replica eligible for leader election is available."
    ELECTION_NOT_NEEDED = 84, True, "The election was not needed: the leader is already the right one."
    NO_REASSIGNMENT_IN_PROGRESS = 85, False, "There is no reassignment running to cancel."
    GROUP_SUBSCRIBED_TO_TOPIC = 86, False, "Offsets cannot be deleted while the group is subscribed to the topic."
    INVALID_RECORD = 87, False, "A record failed the broker's validation and was not appended."
    UNSTABLE_OFFSET_COMMIT = 88, True, "Transactional offset commits are still pending for this partition."
    THROTTLING_QUOTA_EXCEEDED = 89, True, "The throttling quota was exceeded."
    PRODUCER_FENCED = 90, False, "A newer producer with the same transactional id has fenced this one."
    RESOURCE_NOT_FOUND = 91, False, "The named resource does not exist."
    DUPLICATE_RESOURCE = 92, False, "The request names the same resource more than once."
    UNACCEPTABLE_CREDENTIAL = 93, False, "The credential does not meet the broker's requirements."
    INCONSISTENT_VOTER_SET = 94, False, "The voter set of the request does not match the receiver's."
    INVALID_UPDATE_VERSION = 95, False, "The update version is not valid."
    FEATURE_UPDATE_FAILED = 96, False, "The feature update could not be applied."
    PRINCIPAL_DESERIALIZATION_FAILURE = 97, False, "The forwarded principal could not be deserialized."
    SNAPSHOT_NOT_FOUND = 98, False, "The requested snapshot does not exist."
    POSITION_OUT_OF_RANGE = 99, False, "The requested position lies outside the snapshot."
    UNKNOWN_TOPIC_ID = 100, True, "No topic with this id exists on this broker."
    DUPLICATE_BROKER_REGISTRATION = 101, False, "Another broker already registered with this id."
    BROKER_ID_NOT_REGISTERED = 102, False, "No broker is registered with this id."
    INCONSISTENT_TOPIC_ID = 103, True, "The topic id does not match the one the log holds."
    INCONSISTENT_CLUSTER_ID = 104, False, "The cluster id does not match this cluster's."
    TRANSACTIONAL_ID_NOT_FOUND = 105, False, "No such transactional id exists."
    FETCH_SESSION_TOPIC_ID_ERROR = 106, True, "The fetch session saw a topic id change or mix of ids and names."
    INELIGIBLE_REPLICA = 107, False, "The proposed leader or in-sync replica is not eligible."
    NEW_LEADER_ELECTED = 108, False, "The partition change was rejected because a new leader has been elected."
    OFFSET_MOVED_TO_TIERED_STORAGE = 109, False, "The requested offset now lives only in tiered storage."
    FENCED_MEMBER_EPOCH = 110, False, "The member epoch is not the current one; the member must rejoin."
    UNRELEASED_INSTANCE_ID = 111, False, "The static instance id is still held by another member."
    UNSUPPORTED_ASSIGNOR = 112, False, "The group does not offer the requested server-side assignor."
    STALE_MEMBER_EPOCH = 113, False, "The member epoch is stale; the commit was refused."
    MISMATCHED_ENDPOINT_TYPE = 114, False, "The request was sent to the wrong kind of endpoint."
    UNSUPPORTED_ENDPOINT_TYPE = 115, False, "This endpoint type does not support the request."
    UNKNOWN_CONTROLLER_ID = 116, False, "No controller with this id is known."
    UNKNOWN_SUBSCRIPTION_ID = 117, False, "The client telemetry subscription id is not known or has expired."
    TELEMETRY_TOO_LARGE = 118, False, "The client telemetry payload exceeds the allowed size."
    INVALID_REGISTRATION = 119, False, "The controller rejected the broker registration as invalid."
    TRANSACTION_ABORTABLE = 120, False, "The server hit an error that requires the client to abort the transaction."
    INVALID_RECORD_STATE = 121, False, "The record is not in a state that allows this acknowledgement."
    SHARE_SESSION_NOT_FOUND = 122, True, "No share session exists for this member."
    INVALID_SHARE_SESSION_EPOCH = 123, True, "The share session epoch is not the expected one."
    FENCED_STATE_EPOCH = 124, False, "The share-partition state epoch is older than the current one."
    INVALID_VOTER_KEY = 125, False, "The voter key does not match the receiving replica."
    DUPLICATE_VOTER = 126, False, "The voter is already in the voter set."
    VOTER_NOT_FOUND = 127, False, "The voter is not in the voter set."
    INVALID_REGULAR_EXPRESSION = 128, False, "The regular expression does not compile."
    REBOOTSTRAP_REQUIRED = 129, False, "The client must rebuild its view of the cluster from the bootstrap servers."
    STREAMS_INVALID_TOPOLOGY = 130, False, "The supplied Streams topology is not valid."
    STREAMS_INVALID_TOPOLOGY_EPOCH = 131, False, "The Streams topology epoch is not valid."
    STREAMS_TOPOLOGY_FENCED = 132, False, "The Streams topology epoch is older than the group's current one."
    SHARE_SESSION_LIMIT_REACHED = 133, True, "The broker's share-session cache is full; try again later."
    GROUP_DELETION_FAILED = 134, False, "The group could not be deleted; the per-group error message says why."
    STREAMS_TOPOLOGY_DESCRIPTION_UPDATE_FAILED = (
        135,
        False,
        "The broker could not store the Streams topology description.",
    )
    CONTROLLER_ID_NOT_REGISTERED = 136, False, "No controller with this ID is registered."

    @classmethod
    def for_code(cls, code: int) -> ErrorCode:
        """Map a wire code to a member; unknown codes read as UNKNOWN_SERVER_ERROR.

        A client talking to a newer peer can see codes this table lacks; like
        Kafka's own clients we treat those as a generic server error rather
        than failing to decode the response.
        """
        try:
            return cls(code)
        except ValueError:
            return cls.UNKNOWN_SERVER_ERROR


class KafkaError(ProtocolError):
    """The one exception that carries a Kafka error code to a response.

    Raised by handlers and domain code alike; the dispatcher turns one that
    escapes a handler into that API's error response (the connection stays
    open). ``message`` is the text to send, or None where Kafka sends the
    code's default text; ``detail`` is always a readable text.
    """

    def __init__(self, code: ErrorCode | int, message: str | None = None) -> None:
        error = code if isinstance(code, ErrorCode) else ErrorCode.for_code(int(code))
        super().__init__(f"{error.name} ({int(error)}): {message or error.message}")
        self.code = error
        self.message = message

    @property
    def error_code(self) -> int:
        """The code as the wire carries it."""
        return int(self.code)

    @property
    def detail(self) -> str:
        return self.message or self.code.message

    @property
    def retriable(self) -> bool:
        return self.code.retriable

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and (self.code, self.message) == (other.code, other.message)

    def __hash__(self) -> int:
        return hash((type(self), self.code, self.message))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code.name}, {self.message!r})"


class CodedError(KafkaError):
    """A KafkaError whose class fixes the code (``CODE``): raised with a message only."""

    CODE: ClassVar[ErrorCode]

    def __init__(self, message: str) -> None:
        super().__init__(self.CODE, message)
