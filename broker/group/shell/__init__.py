"""The group shell by group type: each type's dispatch is its own mixin of
:class:`~broker.group.coordinator.GroupCoordinator`.

``base`` (routing and durable writes) is under all of them; ``classic``, ``consumer``,
``streams`` and ``share`` each dispatch one group type to its core, and ``offsets`` the
committed offsets of every type. The types' modules import none of each other
(an import-linter contract); what crosses types is the coordinator's.
"""
