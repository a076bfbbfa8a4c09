"""The coordinator runtime shared by the group, share-state and transaction coordinators."""
