"""Group coordination: every group type on the coordinator runtime.

One package per group type, each a pure core with its records (and assignor where
the broker assigns), independent of the others: :mod:`.classic`, :mod:`.consumer`
(KIP-848), :mod:`.streams` (KIP-1071) and :mod:`.share` (KIP-932). What they share
sits beside them (:mod:`.modern`, :mod:`.offsets`, :mod:`.shard_api`, :mod:`.regex`);
:mod:`.migration` converts classic and consumer groups into each other.
:mod:`.shard` holds the registry of group types of one ``__consumer_offsets``
partition (``GroupShard``); :mod:`.shell` dispatches each group type (one module per
type) and :mod:`.coordinator` composes them and hosts the shards on the coordinator runtime;
:mod:`.share_offsets` serves the share groups' offset APIs over it.
"""
