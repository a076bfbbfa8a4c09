"""The advertised API table matches what the handler modules implement."""

from __future__ import annotations

import ast
from pathlib import Path

import broker.handlers
from broker.handlers import HANDLERS, ROUTES, load_all
from broker.protocol.messages import API_INDEX


def test_every_route_has_a_module_with_matching_versions():
    load_all()  # each module's @handler checks its versions against ROUTES
    assert set(HANDLERS) == set(ROUTES)
    for key, h in HANDLERS.items():
        assert h.fn is not None, h.name
        info = API_INDEX[key]
        assert info.min_version <= h.min_version <= h.max_version <= info.max_version


def test_api_versions_advertises_the_routes():
    from broker.handlers.api_18_api_versions import api_keys

    advertised = {k.api_key: (k.min_version, k.max_version) for k in api_keys()}
    expected = {key: (lo, hi) for key, (_, lo, hi) in ROUTES.items()}
    expected[0] = (0, expected[0][1])  # Produce is advertised from v0, as Kafka 4.x does
    assert advertised == expected


def test_handler_modules_import_shared_code_not_each_other():
    """One module per API: what two handlers share lives in a ``broker.handlers._*`` module."""
    handlers = Path(broker.handlers.__file__).parent
    modules = {p.stem for p in handlers.glob("api_*.py")}
    crossings = []
    for path in sorted(handlers.glob("api_*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            crossings += [
                f"{path.stem} imports {name}"
                for name in names
                if name.startswith("broker.handlers.") and name.split(".")[2] in modules - {path.stem}
            ]
    assert crossings == []
