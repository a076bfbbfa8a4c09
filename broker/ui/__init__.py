"""``sharebroker ui``: a web console for Kafka clusters whose headline is share groups.

It speaks only the Kafka protocol, through the project's admin client
(:mod:`broker.admin`), so it works against sharebroker and Apache Kafka 4.2+ alike;
the broker's Prometheus endpoint, when given, adds what the protocol does not carry.

- :mod:`broker.ui.data`: what each page shows, read from the cluster (synchronous);
- :mod:`broker.ui.gateway`: worker threads, the short cache, the sampler for charts;
- :mod:`broker.ui.app` and :mod:`broker.ui.pages`: the Starlette application;
- :mod:`broker.ui.server`: Hypercorn's trio worker;
- templates/ and static/ (Pico CSS and htmx from their npm packages, ui-assets/).
"""
