"""Partitions as the handlers see them: leadership and epoch checks, the high watermark,
what ``acks=all`` waits for, and the wake-ups after appends."""
