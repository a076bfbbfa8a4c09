"""Cluster ids: Kafka's text form, and never one a command line would take for an option."""

from __future__ import annotations

import base64
import uuid
from pathlib import Path

import pytest

from broker.log import meta
from broker.log.meta import MetaPropertiesError, load_or_create_meta, new_cluster_id


def test_a_cluster_id_is_22_characters_of_url_safe_base64() -> None:
    cid = new_cluster_id()
    assert len(cid) == 22
    assert uuid.UUID(bytes=base64.urlsafe_b64decode(cid + "==")).version == 4


def test_an_id_that_would_start_with_a_dash_is_drawn_again(monkeypatch: pytest.MonkeyPatch) -> None:
    # 0xF8 in the first byte puts 62 ("-") first in URL-safe base64.
    draws = iter([uuid.UUID(bytes=b"\xf8" + bytes(15)), uuid.UUID(bytes=b"\x10" + bytes(15))])
    monkeypatch.setattr(meta.uuid, "uuid4", lambda: next(draws))
    assert new_cluster_id() == base64.urlsafe_b64encode(b"\x10" + bytes(15)).decode().rstrip("=")


def test_meta_properties_keep_their_cluster_and_node(tmp_path: Path) -> None:
    cid = load_or_create_meta(tmp_path, 1)
    assert not cid.startswith("-")
    assert load_or_create_meta(tmp_path, 1) == cid
    with pytest.raises(MetaPropertiesError):
        load_or_create_meta(tmp_path, 2)
    with pytest.raises(MetaPropertiesError):
        load_or_create_meta(tmp_path, 1, cluster_id=new_cluster_id())
