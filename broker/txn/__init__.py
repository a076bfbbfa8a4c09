"""The transaction coordinator core (KIP-98, KIP-360, KIP-890): one pure shard per
``__transaction_state`` partition (``broker.txn.shard``), its state table
(``broker.txn.states``) and its records (``broker.txn.records``)."""
