"""The one synchronous Kafka client of the operator tools (``broker.admin.client``).

Kept import-free so that ``import broker.admin`` costs nothing; import
``broker.admin.client`` for ``AdminClient``.
"""
