"""The broker's Prometheus endpoint(s) (``--metrics-url``), read for what the Kafka protocol
does not carry: records acquired right now, the age of the oldest waiting record,
acknowledgements by type, redelivered and dead-lettered records (docs/SHARE_GROUPS.md).

Every URL is scraped (one per broker of a cluster: each broker reports the
share-partitions it leads) and the samples are added up. The text format is parsed by
prometheus_client, the maintained reference implementation of it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import httpx

# A scrape that takes longer than this is reported as unavailable, not waited for:
# the page it feeds must render well within a second.
SCRAPE_TIMEOUT_S = 2.0
# The broker answers a scrape in a few KiB per share-partition; 64 MiB is far past any real one.
MAX_SCRAPE_BYTES = 64 << 20

PREFIX = "sharebroker_"


@dataclass(slots=True)
class Scrape:
    """Samples added up over the scraped brokers: name -> {sorted label items: value}."""

    samples: dict[str, dict[tuple[tuple[str, str], ...], float]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    urls: int = 0

    @property
    def ok(self) -> bool:
        return self.urls > 0 and not self.errors

    def get(self, name: str, **labels: str) -> float | None:
        """The sum of the samples of ``name`` whose labels include ``labels`` (None: none)."""
        series = self.samples.get(PREFIX + name)
        if not series:
            return None
        want = set(labels.items())
        found = [v for key, v in series.items() if want <= set(key)]
        return sum(found) if found else None

    def by_label(self, name: str, label: str, **labels: str) -> dict[str, float]:
        series = self.samples.get(PREFIX + name, {})
        want = set(labels.items())
        out: dict[str, float] = {}
        for key, v in series.items():
            if want <= set(key):
                d = dict(key)
                if label in d:
                    out[d[label]] = out.get(d[label], 0.0) + v
        return out


def parse(text: str, into: Scrape) -> None:
    from prometheus_client.parser import text_string_to_metric_families

    for family in text_string_to_metric_families(text):
        for s in family.samples:
            if not s.name.startswith(PREFIX):
                continue
            series = into.samples.setdefault(s.name, {})
            key = tuple(sorted(s.labels.items()))
            series[key] = series.get(key, 0.0) + float(s.value)


async def scrape(client: httpx.AsyncClient, urls: Sequence[str]) -> Scrape:
    out = Scrape(urls=len(urls))
    for url in urls:
        try:
            resp = await client.get(url, timeout=SCRAPE_TIMEOUT_S)
            resp.raise_for_status()
            if len(resp.content) > MAX_SCRAPE_BYTES:
                raise ValueError(f"answer larger than {MAX_SCRAPE_BYTES} bytes")
            parse(resp.text, out)
        except (httpx.HTTPError, ValueError) as exc:
            out.errors.append(f"{url}: {exc or type(exc).__name__}")
    return out
