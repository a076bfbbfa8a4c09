"""KIP-848 consumer groups: the pure core one group shard owns.

:class:`ConsumerGroups` holds every consumer group of one ``__consumer_offsets``
partition. It follows Kafka 4.4's ``GroupMetadataManager`` consumer paths:

* **ConsumerGroupHeartbeat** (v0-1). Epoch 0 joins, -1 leaves, -2 is a static
  member leaving for a restart (it keeps its partitions until its session
  ends or it rejoins under the same instance id), any other epoch must be the
  member's epoch or, when the bump's response was lost, its previous epoch
  with owned partitions inside its assignment; else FENCED_MEMBER_EPOCH.
  A known member joining again at epoch 0 keeps its epoch and assignment and
  gets them in full (Kafka 4.4's answer, checked against it). v1 requires a
  client-generated member id; v0 may leave it empty on join and gets one
  generated. A new group's first epoch is 2, as in Kafka 4.4.
* **Migration** (:mod:`.migration`): a join to a non-empty classic group
  converts it; classic members inside a consumer group are served JoinGroup,
  SyncGroup, Heartbeat and LeaveGroup (``classic_*``, :mod:`.classic_members`); the last
  consumer-protocol member leaving converts the group back.
* Changing the subscription (topic names or regex), joining, leaving or the
  metadata of subscribed topics bumps the **group epoch**. A heartbeat that
  finds the group epoch ahead of the **target assignment epoch** runs the
  group's assignor (the ``ServerAssignor`` most members ask for, else the
  first of ``group.consumer.assignors``) and writes the new target, at most
  once per ``consumer.assignment.interval.ms`` (KIP-1263): within the
  interval the group stays Assigning, members reconcile to the current target,
  and the first heartbeat after it computes one target with every change made
  meanwhile. A new or emptied group's first target is never delayed; 0
  computes at once.
* **Reconciliation** (:mod:`.reconcile`): partitions are revoked first (the
  member stays at its epoch in UNREVOKED_PARTITIONS until it reports them
  gone, within its rebalance timeout or it is fenced), then the member moves
  to the target epoch and gets the partitions nobody else still holds; those
  still held wait (UNRELEASED_PARTITIONS).
* **Static membership**: a join with a known instance id and a new member id
  takes the old member's place (assignment included) only if the old one left
  with epoch -2, else UNRELEASED_INSTANCE_ID; a request whose member id does
  not hold the instance id is FENCED_INSTANCE_ID.
* **Timers**: member session (``group.consumer.session.timeout.ms`` or the
  group's ``consumer.session.timeout.ms``) and the rebalance timeout of a
  member revoking partitions. Expiry fences the member.
* **Offset commits** (:meth:`ConsumerGroups.validate_offset_commit`): the
  member epoch must be the member's; an older one is accepted for the
  partitions the member already held at that epoch (per-partition
  assignment epochs, Kafka 4.4), others get STALE_MEMBER_EPOCH.

State changes only through :meth:`ConsumerGroups.replay`: operations build
the records Kafka would write and return them; the runtime replays them and
appends them. Timers are the only in-memory state an operation sets itself.

Differences from Kafka 4.4, on purpose:

* Regular expressions are resolved when they are first subscribed and on
  :meth:`ConsumerGroups.on_metadata_changed`, synchronously, so the group
  epoch is bumped once (Kafka resolves asynchronously and bumps when the
  result lands). The member's authorisation to DESCRIBE each topic is not
  checked here: the core sees no principal (the handler may filter).
* ``consumer.assignor.offload.enable`` has no effect (nor has it in Kafka
  4.4.0): the assignor runs on the event loop, between requests.
* The metadata hash is a BLAKE2b over the subscribed topics' names, ids,
  partition counts and racks, not Kafka's XXH3 topic hash: a group moved
  between this broker and Kafka rebalances once.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import replace

from broker.coordinator.result import CoordinatorResult
from broker.group.consumer import records as rec
from broker.group.consumer.assignor import ASSIGNORS, MemberSpec
from broker.group.consumer.classic_members import ClassicMembers
from broker.group.consumer.classic_protocol import decode_assignment, decode_subscription
from broker.group.consumer.model import (
    CLIENT_MEMBER_ID_VERSION,
    CONSUMER_PROTOCOL_TYPE,
    FIRST_GROUP_EPOCH,
    JOIN_EPOCH,
    ClassicJoin,
    CommitCheck,
    ConsumerGroup,
    ConsumerGroupState,
    DowngradeMember,
    GroupDirectory,
    Member,
)
from broker.group.consumer.reconcile import MemberAssignment, MemberState, reconcile
from broker.group.consumer.records import MemberValue, Record, RecordType, RegexValue
from broker.group.modern import LEAVE_EPOCH, STATIC_LEAVE_EPOCH, refuse_empty
from broker.group.modern import HeartbeatRefused as _Fail
from broker.group.regex import compile_error, resolve
from broker.group.shard_api import (
    TopicImage,
    heartbeat_interval_while_batching,
    sorted_wire,
    target_assignment_due,
)
from broker.protocol.errors import ErrorCode, ProtocolError
from broker.protocol.messages.consumer_group_heartbeat_request import ConsumerGroupHeartbeatRequest
from broker.protocol.messages.consumer_group_heartbeat_response import (
    Assignment as WireAssignment,
)
from broker.protocol.messages.consumer_group_heartbeat_response import ConsumerGroupHeartbeatResponse
from broker.protocol.messages.consumer_group_heartbeat_response import (
    TopicPartitions as WireTopicPartitions,
)

__all__ = [
    "JOIN_EPOCH",
    "LEAVE_EPOCH",
    "STATIC_LEAVE_EPOCH",
    "CommitCheck",
    "ConsumerGroup",
    "ConsumerGroupState",
    "ConsumerGroups",
    "GroupDirectory",
    "Member",
]


class ConsumerGroups(ClassicMembers):
    """Every KIP-848 consumer group of one shard: the heartbeat, leaving and fencing,
    topic changes, and online migration to and from classic groups (the replay and read
    side is :class:`~broker.group.consumer.state.ConsumerGroupsState`, the classic members
    :class:`~broker.group.consumer.classic_members.ClassicMembers`)."""

    # ============================================================ heartbeat

    def _refused(self, fail: _Fail) -> ConsumerGroupHeartbeatResponse:
        return ConsumerGroupHeartbeatResponse(
            error_code=int(fail.code), error_message=fail.message or fail.code.message
        )

    def _validate(self, r: ConsumerGroupHeartbeatRequest, api_version: int) -> None:
        invalid = ErrorCode.INVALID_REQUEST
        refuse_empty("GroupId", r.group_id)
        refuse_empty("InstanceId", r.instance_id, null_ok=True)
        refuse_empty("RackId", r.rack_id, null_ok=True)
        if api_version >= CLIENT_MEMBER_ID_VERSION:
            refuse_empty("MemberId", r.member_id)
        epoch = r.member_epoch
        if epoch > 0 or epoch == LEAVE_EPOCH:
            refuse_empty("MemberId", r.member_id)
        elif epoch == JOIN_EPOCH:
            if r.rebalance_timeout_ms == -1:
                raise _Fail(invalid, "RebalanceTimeoutMs must be provided in first request.")
            if r.topic_partitions is None or r.topic_partitions:
                raise _Fail(invalid, "TopicPartitions must be empty when (re-)joining.")
            if not r.subscribed_topic_names and not r.subscribed_topic_regex:
                raise _Fail(
                    invalid, "Either SubscribedTopicNames or SubscribedTopicRegex must be non-null when (re-)joining."
                )
        elif epoch == STATIC_LEAVE_EPOCH:
            if r.instance_id is None:
                raise _Fail(invalid, "InstanceId can't be null.")
        else:
            raise _Fail(invalid, "MemberEpoch is invalid.")
        if r.server_assignor is not None and r.server_assignor not in self.config.assignors:
            raise _Fail(
                ErrorCode.UNSUPPORTED_ASSIGNOR,
                f"ServerAssignor {r.server_assignor} is not supported. "
                f"Supported assignors: {', '.join(self.config.assignors)}.",
            )

    def _group_or_fail(self, group_id: str) -> ConsumerGroup:
        group = self.groups.get(group_id)
        if group is not None:
            return group
        if self.directory.group_type(group_id) is not None:
            raise _Fail(ErrorCode.GROUP_ID_NOT_FOUND, f"Group {group_id} is not a consumer group.")
        raise _Fail(ErrorCode.GROUP_ID_NOT_FOUND, f"Consumer group {group_id} not found.")

    def _heartbeat(
        self,
        r: ConsumerGroupHeartbeatRequest,
        now_ms: int,
        api_version: int,
        client_id: str,
        client_host: str,
        classic: ClassicJoin | None = None,
    ) -> CoordinatorResult[ConsumerGroupHeartbeatResponse]:
        records: list[Record] = []
        joining = r.member_epoch == JOIN_EPOCH
        group = self._admit(r, joining, now_ms, records)
        member_id = r.member_id
        if not member_id:
            member_id = self._new_member_id()
        if r.instance_id is None:
            member = self._dynamic_member(group, member_id, r, classic)
        else:
            member = self._static_member(group, member_id, r, records, classic)

        replaced = member.replaced if isinstance(member, _Replacement) else None
        # 1. The member's metadata.
        old_meta = member.meta
        meta = self._member_metadata(r, old_meta, client_id, client_host, classic)
        is_new = member_id not in group.members and replaced is None
        if is_new or meta != old_meta:
            records.append(rec.member(group.group_id, member_id, meta))
        names_changed = is_new or meta.subscribed_topic_names != old_meta.subscribed_topic_names
        regex_changed, regexes = self._update_regex(group, member_id, old_meta, meta, now_ms, records, is_new)
        subscription_changed = names_changed or regex_changed

        # 2. The group epoch, bumped when the subscriptions or their topics changed.
        members_after, previous_target, released = self._after_replacement(group, member_id, meta, replaced)
        group_epoch = self._bump_group_epoch(group, members_after, regexes, subscription_changed, records)

        # 3. The target assignment, computed at most once per assignment interval (KIP-1263).
        assignment_interval = self.config.assignment_interval_for(group.group_id)
        last_assignment_ms = group.assignment_timestamp_ms
        target_epoch, target = self._target(
            group, members_after, previous_target, regexes, group_epoch, assignment_interval, now_ms, records
        )

        # 4. Reconcile the member towards its target.
        current = member.assignment
        updated = self._reconcile_member(
            group,
            member,
            member_id,
            meta,
            r,
            classic,
            released,
            subscription_changed,
            regexes,
            target_epoch,
            target,
            is_new,
            now_ms,
            records,
        )

        response = self._response(
            group,
            r,
            member_id,
            joining,
            current,
            updated,
            target_epoch,
            last_assignment_ms,
            assignment_interval,
            now_ms,
        )
        return CoordinatorResult(records, response)

    def _response(
        self,
        group: ConsumerGroup,
        r: ConsumerGroupHeartbeatRequest,
        member_id: str,
        joining: bool,
        current: MemberAssignment,
        updated: MemberAssignment,
        target_epoch: int,
        last_assignment_ms: int,
        assignment_interval: int,
        now_ms: int,
    ) -> ConsumerGroupHeartbeatResponse:
        """The answer: the member's epoch, the heartbeat interval (shorter while a target
        is batched or a partition awaits release), and the assignment when it changed, the
        member joined or sent a full request."""
        heartbeat_interval = heartbeat_interval_while_batching(
            self.config.heartbeat_interval_for(group.group_id),
            now_ms if target_epoch > group.assignment_epoch else last_assignment_ms,
            assignment_interval,
            now_ms,
            waiting_for_release=updated.state is MemberState.UNRELEASED_PARTITIONS,
        )
        response = ConsumerGroupHeartbeatResponse(
            error_code=0,
            member_id=member_id,
            member_epoch=updated.member_epoch,
            heartbeat_interval_ms=heartbeat_interval,
        )
        full = (
            r.rebalance_timeout_ms != -1
            and (r.subscribed_topic_names is not None or r.subscribed_topic_regex is not None)
            and r.topic_partitions is not None
        )
        if joining or full or updated.assigned_sets() != current.assigned_sets():
            response.assignment = WireAssignment(
                [WireTopicPartitions(t, ps) for t, ps in sorted_wire(updated.assigned_sets())]
            )
        return response

    def _admit(
        self, r: ConsumerGroupHeartbeatRequest, joining: bool, now_ms: int, records: list[Record]
    ) -> ConsumerGroup:
        """The member's group: an existing consumer group, a new one for a join (taking the
        place of an empty classic group, or upgrading a classic group with members);
        GROUP_ID_NOT_FOUND and GROUP_MAX_SIZE_REACHED as Kafka answers them."""
        group = self.groups.get(r.group_id)
        if group is None:
            if not joining:
                self._group_or_fail(r.group_id)
            other = self.directory.group_type(r.group_id)
            if other is not None:
                if other == "classic" and self.directory.is_empty_classic(r.group_id):
                    records.extend(self.directory.classic_tombstones(r.group_id))  # type: ignore[arg-type]
                    group = ConsumerGroup(r.group_id)
                elif other == "classic":
                    group = self._upgrade(r.group_id, now_ms, records)
                else:
                    raise _Fail(ErrorCode.GROUP_ID_NOT_FOUND, f"Group {r.group_id} is not a consumer group.")
            else:
                group = ConsumerGroup(r.group_id)
        member_id = r.member_id
        known = member_id in group.members or (r.instance_id is not None and r.instance_id in group.static)
        if len(group.members) >= self.config.max_size and (not member_id or not known):
            raise _Fail(
                ErrorCode.GROUP_MAX_SIZE_REACHED,
                f"The consumer group has reached its maximum capacity of {self.config.max_size} members.",
            )
        return group

    @staticmethod
    def _member_metadata(
        r: ConsumerGroupHeartbeatRequest,
        old_meta: MemberValue,
        client_id: str,
        client_host: str,
        classic: ClassicJoin | None,
    ) -> MemberValue:
        """The member's metadata after the request: null fields leave it unchanged."""
        return replace(
            old_meta,
            instance_id=r.instance_id if r.instance_id is not None else old_meta.instance_id,
            rack_id=r.rack_id if r.rack_id is not None else old_meta.rack_id,
            rebalance_timeout_ms=r.rebalance_timeout_ms
            if r.rebalance_timeout_ms != -1
            else old_meta.rebalance_timeout_ms,
            server_assignor=r.server_assignor if r.server_assignor is not None else old_meta.server_assignor,
            subscribed_topic_names=(
                tuple(sorted(set(r.subscribed_topic_names)))
                if r.subscribed_topic_names is not None
                else old_meta.subscribed_topic_names
            ),
            subscribed_topic_regex=(
                (r.subscribed_topic_regex or None)
                if r.subscribed_topic_regex is not None
                else old_meta.subscribed_topic_regex
            ),
            client_id=client_id,
            client_host=client_host,
            classic=None if classic is None else classic.metadata,
        )

    def _bump_group_epoch(
        self,
        group: ConsumerGroup,
        members_after: Mapping[str, MemberValue],
        regexes: Mapping[str, RegexValue],
        subscription_changed: bool,
        records: list[Record],
    ) -> int:
        """The group epoch after the request: one more (with the group's record) when a
        subscription or the metadata of the subscribed topics changed."""
        metadata_hash = self._metadata_hash(members_after.values(), regexes)
        group_epoch = group.epoch
        if group_epoch == 0 or subscription_changed or metadata_hash != group.metadata_hash:
            # A new group's first epoch is 2, as Kafka 4.4 numbers them.
            group_epoch = FIRST_GROUP_EPOCH if group_epoch == 0 else group_epoch + 1
            records.append(rec.group_epoch(group.group_id, group_epoch, metadata_hash))
        return group_epoch

    @staticmethod
    def _after_replacement(
        group: ConsumerGroup, member_id: str, meta: MemberValue, replaced: str | None
    ) -> tuple[
        dict[str, MemberValue],
        dict[str, dict[uuid.UUID, frozenset[int]]],
        Mapping[uuid.UUID, Mapping[int, int]],
    ]:
        """(every member's metadata, the current target, the partitions released) with this
        member in: a static member taking the place of another takes over its target, and
        the partitions the one it replaces held count as released."""
        members_after = {m: g.meta for m, g in group.members.items() if m != replaced}
        members_after[member_id] = meta
        previous_target = dict(group.target)
        released: Mapping[uuid.UUID, Mapping[int, int]] = {}
        if replaced is not None:
            previous_target[member_id] = previous_target.pop(replaced, {})
            released = group.members[replaced].assignment.assigned
        return members_after, previous_target, released

    def _target(
        self,
        group: ConsumerGroup,
        members_after: dict[str, MemberValue],
        previous_target: dict[str, dict[uuid.UUID, frozenset[int]]],
        regexes: Mapping[str, RegexValue],
        group_epoch: int,
        assignment_interval: int,
        now_ms: int,
        records: list[Record],
    ) -> tuple[int, dict[str, dict[uuid.UUID, frozenset[int]]]]:
        """(target epoch, target): a new target for a new group epoch when the assignment
        interval allows one (KIP-1263), else the current one."""
        target_epoch = group.assignment_epoch
        if group_epoch > group.assignment_epoch and target_assignment_due(
            group.assignment_timestamp_ms, assignment_interval, now_ms
        ):
            target = self._new_target(group, members_after, previous_target, regexes, records, group_epoch, now_ms)
            target_epoch = group_epoch
        else:
            target = previous_target
        return target_epoch, target

    def _reconcile_member(
        self,
        group: ConsumerGroup,
        member: Member,
        member_id: str,
        meta: MemberValue,
        r: ConsumerGroupHeartbeatRequest,
        classic: ClassicJoin | None,
        released: Mapping[uuid.UUID, Mapping[int, int]],
        subscription_changed: bool,
        regexes: Mapping[str, RegexValue],
        target_epoch: int,
        target: Mapping[str, dict[uuid.UUID, frozenset[int]]],
        is_new: bool,
        now_ms: int,
        records: list[Record],
    ) -> MemberAssignment:
        """The member's assignment one step towards its target (its record when it
        changed), and its rebalance and session timers."""

        def partition_epoch(topic_id: uuid.UUID, partition: int) -> int:
            if partition in released.get(topic_id, {}):
                return -1  # held by the static member this one replaces
            return group.partition_epoch(topic_id, partition)

        if classic is not None:
            owned: list[tuple[uuid.UUID, list[int]]] | None = [(t, list(ps)) for t, ps in classic.owned.items()]
        else:
            owned = (
                None
                if r.topic_partitions is None
                else [(tp.topic_id, list(tp.partitions)) for tp in r.topic_partitions]
            )
        current = member.assignment
        reconciled = reconcile(
            current,
            target_epoch=target_epoch,
            target=target.get(member_id, {}),
            subscribed=self._subscribed_ids(meta, regexes),
            subscription_changed=subscription_changed,
            owned=owned,
            partition_epoch=partition_epoch,
        )
        if reconciled.error:
            raise _Fail(
                reconciled.error,
                "The consumer group member is in a unknown state. The member must abandon all its partitions and rejoin.",
            )
        updated = reconciled.assignment
        if updated != current or is_new:
            records.append(rec.current(group.group_id, member_id, updated))
            if updated.state is MemberState.UNREVOKED_PARTITIONS:
                timeout = max(meta.rebalance_timeout_ms, 0)
                self._arm_rebalance(group.group_id, member_id, updated.member_epoch, now_ms + timeout)
            else:
                self._disarm_rebalance(group.group_id, member_id)
        self._arm_session(group.group_id, member_id, now_ms, meta)
        return updated

    def _missed_answer(self, member: Member, received: int, owned: Sequence | None) -> bool:
        assigned = member.assignment.assigned
        return (
            received == member.assignment.previous_member_epoch
            and owned is not None
            and all(p in assigned.get(tp.topic_id, {}) for tp in owned for p in tp.partitions)
        )

    def _dynamic_member(
        self, group: ConsumerGroup, member_id: str, r: ConsumerGroupHeartbeatRequest, classic: ClassicJoin | None
    ) -> Member:
        member = group.members.get(member_id)
        if member is not None and classic is not None:
            return member  # a JoinGroup carries no member epoch to check
        if member is None:
            if r.member_epoch != JOIN_EPOCH:
                raise _Fail(
                    ErrorCode.UNKNOWN_MEMBER_ID, f"Member {member_id} is not a member of group {group.group_id}."
                )
            return Member(member_id)
        if r.member_epoch != JOIN_EPOCH:
            # A known member joining again (epoch 0) keeps its epoch and assignment and
            # gets them in full, as Kafka 4.4 answers; any other epoch must match.
            self._check_epoch(member, r.member_epoch, r.topic_partitions)
        return member

    def _static_member(
        self,
        group: ConsumerGroup,
        member_id: str,
        r: ConsumerGroupHeartbeatRequest,
        records: list[Record],
        classic: ClassicJoin | None = None,
    ) -> Member:
        assert r.instance_id is not None
        holder_id = group.static.get(r.instance_id)
        holder = group.members.get(holder_id) if holder_id is not None else None
        if classic is not None and holder is not None:
            if holder.member_id == member_id:
                return holder
            if not classic.unknown_member:
                raise _Fail(
                    ErrorCode.FENCED_INSTANCE_ID,
                    f"Static member {member_id} with instance id {r.instance_id} was fenced by member {holder.member_id}.",
                )
            return self._replace_static(group, holder, member_id, records)
        if r.member_epoch == JOIN_EPOCH:
            if holder is None:
                existing = group.members.get(member_id)
                if existing is not None:
                    self._check_epoch(existing, r.member_epoch, r.topic_partitions)
                    return existing
                return Member(member_id)
            if holder.epoch != STATIC_LEAVE_EPOCH:
                raise _Fail(
                    ErrorCode.UNRELEASED_INSTANCE_ID,
                    f"Static member {member_id} with instance id {r.instance_id} cannot join the group "
                    f"because the instance id is owned by {holder.member_id} member.",
                )
            return self._replace_static(group, holder, member_id, records)
        # A heartbeat (a known member id: the request's) of the instance id's holder.
        holder = self._static_holder(group, r)
        self._check_epoch(holder, r.member_epoch, r.topic_partitions)
        return holder

    def _replace_static(self, group: ConsumerGroup, holder: Member, member_id: str, records: list[Record]) -> Member:
        """Take a static member's place, its target assignment included."""
        gid = group.group_id
        fresh = MemberAssignment(0, 0, MemberState.STABLE)
        records.extend(
            [
                rec.current(gid, holder.member_id, None),
                rec.target_member(gid, holder.member_id, None),
                rec.member(gid, holder.member_id, None),
                rec.member(gid, member_id, holder.meta),
                rec.target_member(gid, member_id, group.target.get(holder.member_id, {})),
                rec.current(gid, member_id, fresh),
            ]
        )
        self._cancel_member_timers(gid, holder.member_id)
        return _Replacement(member_id, holder.meta, fresh, holder.member_id)

    # ------------------------------------------------------------ regexes and topics

    def _update_regex(
        self,
        group: ConsumerGroup,
        member_id: str,
        old: MemberValue,
        new: MemberValue,
        now_ms: int,
        records: list[Record],
        is_new: bool,
    ) -> tuple[bool, dict[str, RegexValue]]:
        """Resolve a newly subscribed regex, drop one nobody uses; returns
        (regex subscription changed, the regexes as they will be)."""
        regexes = dict(group.regexes)
        old_rx = None if is_new else old.subscribed_topic_regex
        new_rx = new.subscribed_topic_regex
        if old_rx == new_rx:
            return False, regexes
        if old_rx and group.regex_subscribers(old_rx, without=member_id) == 0:
            regexes.pop(old_rx, None)
            records.append(rec.regex(group.group_id, old_rx, None))
        if new_rx and new_rx not in regexes:
            error = compile_error(new_rx)
            if error is not None:
                raise _Fail(
                    ErrorCode.INVALID_REGULAR_EXPRESSION,
                    f"SubscribedTopicRegex `{new_rx}` is not a valid regular expression: {error}.",
                )
            value = RegexValue(resolve(new_rx, self.topics.topic_names()), 0, now_ms)
            regexes[new_rx] = value
            records.append(rec.regex(group.group_id, new_rx, value))
        return True, regexes

    def _new_target(
        self,
        group: ConsumerGroup,
        members: Mapping[str, MemberValue],
        previous: Mapping[str, Mapping[uuid.UUID, frozenset[int]]],
        regexes: Mapping[str, RegexValue],
        records: list[Record],
        epoch: int,
        now_ms: int,
    ) -> dict[str, dict[uuid.UUID, frozenset[int]]]:
        specs: dict[str, MemberSpec] = {}
        partitions: dict[uuid.UUID, int] = {}
        for member_id, meta in members.items():
            subscribed = self._subscribed_ids(meta, regexes)
            specs[member_id] = MemberSpec(subscribed, previous.get(member_id, {}), meta.rack_id, meta.instance_id)
            for topic_id in subscribed:
                info = self.topics.topic_by_id(topic_id)
                if info is not None:
                    partitions[topic_id] = info.partitions
        assignor = ASSIGNORS[self._preferred_assignor(members.values())]
        computed = assignor(specs, partitions) if specs else {}
        target = {m: {t: ps for t, ps in a.items() if ps} for m, a in computed.items()}
        for member_id, assignment in sorted(target.items()):
            if previous.get(member_id) != assignment:
                records.append(rec.target_member(group.group_id, member_id, assignment))
        records.append(rec.target_epoch(group.group_id, epoch, now_ms))
        return target

    # ------------------------------------------------------------ leaving and fencing

    def _static_leave(self, group: ConsumerGroup, member: Member) -> Record:
        leaving = replace(member.assignment, member_epoch=STATIC_LEAVE_EPOCH, pending_revocation={})
        return rec.current(group.group_id, member.member_id, leaving)

    def _left(self, r: ConsumerGroupHeartbeatRequest) -> ConsumerGroupHeartbeatResponse:
        return ConsumerGroupHeartbeatResponse(member_id=r.member_id, member_epoch=r.member_epoch)

    def _fence(self, group: ConsumerGroup, member: Member, now_ms: int) -> list[Record]:
        """Remove the member and bump the group epoch (leave, session expiry, rebalance timeout)."""
        gid, mid = group.group_id, member.member_id
        records = [rec.current(gid, mid, None), rec.target_member(gid, mid, None), rec.member(gid, mid, None)]
        rx = member.meta.subscribed_topic_regex
        regexes = dict(group.regexes)
        if rx and group.regex_subscribers(rx, without=mid) == 0:
            regexes.pop(rx, None)
            records.append(rec.regex(gid, rx, None))
        remaining = [m.meta for m_id, m in group.members.items() if m_id != mid]
        if self._can_downgrade(group, mid):
            self._cancel_member_timers(gid, mid)
            return self._downgrade(group, mid)
        records.append(rec.group_epoch(gid, group.epoch + 1, self._metadata_hash(remaining, regexes)))
        if not remaining:
            # Nobody left to assign to: the (empty) target is current at once, and with
            # no time recorded the next member's target is not delayed (as Kafka).
            records.append(rec.target_epoch(gid, group.epoch + 1, 0))
        self._cancel_member_timers(gid, mid)
        return records

    # ============================================================ metadata

    def on_metadata_changed(self, image: TopicImage, now_ms: int) -> CoordinatorResult[None]:
        """New topic metadata: re-resolve regexes and bump groups whose subscribed topics changed."""
        self.topics = image
        result: CoordinatorResult[None] = CoordinatorResult()
        for group in list(self.groups.values()):
            regexes = dict(group.regexes)
            for pattern, old in group.regexes.items():
                topics = resolve(pattern, image.topic_names())
                if topics != old.topics:
                    regexes[pattern] = RegexValue(topics, old.version + 1, now_ms)
                    result.records.append(rec.regex(group.group_id, pattern, regexes[pattern]))
            metadata_hash = self._metadata_hash((m.meta for m in group.members.values()), regexes)
            if group.members and metadata_hash != group.metadata_hash:
                result.records.append(rec.group_epoch(group.group_id, group.epoch + 1, metadata_hash))
        return result

    # ============================================================ describe, list, delete

    # ============================================================ offsets

    # ============================================================ online migration (classic <-> consumer)

    def _upgrade(self, group_id: str, now_ms: int, records: list[Record]) -> ConsumerGroup:
        """A consumer-protocol member joins a non-empty classic group: convert it (Kafka's
        ConsumerGroup.fromClassicGroup) when the policy allows and the group speaks the
        consumer protocol; its members stay classic members at the group's generation."""
        snapshot = self.directory.classic_snapshot(group_id)
        refused = f"Group {group_id} is not a consumer group."
        if (
            snapshot is None
            or not self.config.migration_policy.upgrade_enabled
            or snapshot.protocol_type != CONSUMER_PROTOCOL_TYPE
            or len(snapshot.members) > self.config.max_size
        ):
            raise _Fail(ErrorCode.GROUP_ID_NOT_FOUND, refused)
        generation = snapshot.generation
        converted: list[Record] = []
        metas: list[MemberValue] = []
        for m in snapshot.members:
            data = dict(m.protocols).get(snapshot.protocol_name or "", m.protocols[0][1] if m.protocols else b"")
            try:
                sub = decode_subscription(data)
                assigned = decode_assignment(m.assignment)
            except ProtocolError:
                raise _Fail(
                    ErrorCode.GROUP_ID_NOT_FOUND,
                    f"Cannot upgrade the classic group {group_id} to consumer group because the embedded consumer "
                    "protocol is malformed.",
                ) from None
            ids = self._topic_ids(assigned)
            meta = MemberValue(
                instance_id=m.instance_id,
                rack_id=sub.rack_id,
                client_id=m.client_id,
                client_host=m.client_host,
                subscribed_topic_names=sub.topics,
                rebalance_timeout_ms=m.rebalance_timeout_ms,
                classic=rec.ClassicMemberMetadata(m.session_timeout_ms, m.protocols),
            )
            metas.append(meta)
            converted.append(rec.member(group_id, m.member_id, meta))
            converted.append(rec.target_member(group_id, m.member_id, {t: frozenset(ps) for t, ps in ids.items()}))
            epochs = {t: dict.fromkeys(ps, generation) for t, ps in ids.items()}
            converted.append(
                rec.current(group_id, m.member_id, MemberAssignment(generation, generation, MemberState.STABLE, epochs))
            )
        members = [r for r in converted if r.type is RecordType.MEMBER]
        targets = [r for r in converted if r.type is RecordType.TARGET_MEMBER]
        currents = [r for r in converted if r.type is RecordType.CURRENT]
        ordered = [
            *members,
            rec.group_epoch(group_id, generation, self._metadata_hash(metas, {})),
            *targets,
            # The classic assignment is taken over with no time: the next target is due at once.
            rec.target_epoch(group_id, generation, 0),
            *currents,
        ]
        records.extend(self.directory.classic_tombstones(group_id))  # type: ignore[arg-type]
        records.extend(ordered)
        scratch = ConsumerGroups(self.topics, self.config)
        for r in ordered:
            scratch.replay_record(r)
        for m in snapshot.members:
            self._arm(("session", group_id, m.member_id), now_ms + m.session_timeout_ms)
        return scratch.groups[group_id]

    def _can_downgrade(self, group: ConsumerGroup, leaving: str) -> bool:
        """Kafka's validateOnlineDowngradeWithFencedMember: the last consumer-protocol
        member leaves and classic members remain."""
        member = group.members.get(leaving)
        if member is None or member.uses_classic_protocol:
            return False
        rest = [m for m_id, m in group.members.items() if m_id != leaving]
        return (
            bool(rest)
            and all(m.uses_classic_protocol for m in rest)
            and self.config.migration_policy.downgrade_enabled
            and len(rest) <= self.directory.classic_max_size()
        )

    def _downgrade(self, group: ConsumerGroup, leaving: str) -> list[Record]:
        """Convert the group back to a classic group of its remaining (classic) members,
        each with its target assignment; the classic group then rebalances."""
        members = []
        for m_id, m in sorted(group.members.items()):
            if m_id == leaving:
                continue
            assert m.meta.classic is not None
            members.append(
                DowngradeMember(
                    m_id,
                    m.meta.instance_id,
                    m.meta.client_id,
                    m.meta.client_host,
                    m.meta.rebalance_timeout_ms,
                    m.meta.classic.session_timeout_ms,
                    m.meta.classic.protocols,
                    self._topic_names(group.target.get(m_id, {})),
                )
            )
        for m_id in group.members:
            self._cancel_member_timers(group.group_id, m_id)
        records: list[Record] = self._tombstones(group)
        records += self.directory.classic_group_records(group.group_id, group.epoch, members)  # type: ignore[arg-type]
        return records


class _Replacement(Member):
    """A static member taking a departed one's place (its records are already written)."""

    __slots__ = ("replaced",)

    def __init__(self, member_id: str, meta: MemberValue, assignment: MemberAssignment, replaced: str) -> None:
        super().__init__(member_id, meta, assignment)
        self.replaced = replaced
