"""Fault injection the way Jepsen does it: nodes in network namespaces, faults, a history checker.

``python -m tests.faults.run`` (``make test-faults``, ``make soak-faults``); see
docs/RELIABILITY.md for what is injected and checked, and the figures.
"""
