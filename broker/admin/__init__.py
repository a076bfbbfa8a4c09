"""A small synchronous Kafka admin client for the operator tools (``broker.admin.client``).

Kept import-free so that ``import broker.admin`` costs nothing; import
``broker.admin.client`` for ``AdminClient``.
"""
