"""Cluster metadata: the image (brokers, topics, leaders, coordinators) and its sources.

``image`` is the immutable snapshot, ``source`` the interface every source
implements, ``local`` the single-node source, ``group_configs`` the dynamic
group configs (cluster metadata in Kafka, kept with the rest of it here).
"""
