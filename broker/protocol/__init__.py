"""Sans-IO Kafka wire protocol: primitives, frames, headers, record batches, errors.

Nothing in this package performs I/O; an import-linter contract enforces it.
"""
