"""Size limits of hand-written code in broker/: a module reads in one pass, a function on a screen or two.

Limits (docs/ARCHITECTURE.md, "Sizes"): no hand-written module over 1,000 lines and no
function over 80. The generated messages (broker/protocol/messages/, made by
codegen from the schemas) are not hand-written and are left out.

The modules and functions over a limit today are listed below, each with why it is
left whole. Nothing new may join the list, and an entry that has been split must
leave it, so the list is always what is left over.
"""

from __future__ import annotations

import ast
from pathlib import Path

import broker

MAX_MODULE_LINES = 1_000
MAX_FUNCTION_LINES = 80

ROOT = Path(broker.__file__).parent
GENERATED = ROOT / "protocol" / "messages"

# Over the limit today, to be split (path relative to broker/).
OVERSIZE_MODULES: set[str] = set()

OVERSIZE_FUNCTIONS = {
    # The per-record decode loop of the Spark source, varints inlined: split, every
    # record would pay a call.
    "spark/columns.py::decode_into",
}


def _hand_written() -> list[Path]:
    return [p for p in sorted(ROOT.rglob("*.py")) if GENERATED not in p.parents]


def _functions(tree: ast.AST, prefix: str = "") -> list[tuple[str, int]]:
    """(qualified name, lines) of every function, nested ones included."""
    found = []
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.ClassDef):
            found += _functions(node, f"{prefix}{node.name}.")
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            assert node.end_lineno is not None
            found.append((f"{prefix}{node.name}", node.end_lineno - node.lineno + 1))
            found += _functions(node, f"{prefix}{node.name}.")
        else:
            found += _functions(node, prefix)
    return found


def _measure() -> tuple[dict[str, int], dict[str, int]]:
    modules: dict[str, int] = {}
    functions: dict[str, int] = {}
    for path in _hand_written():
        rel = path.relative_to(ROOT).as_posix()
        text = path.read_text()
        modules[rel] = text.count("\n")
        for name, lines in _functions(ast.parse(text)):
            key = f"{rel}::{name}"
            functions[key] = max(lines, functions.get(key, 0))
    return modules, functions


def test_no_new_module_over_the_limit_and_none_listed_that_fits():
    modules, _ = _measure()
    over = {rel for rel, lines in modules.items() if lines > MAX_MODULE_LINES}
    assert over - OVERSIZE_MODULES == set(), f"modules over {MAX_MODULE_LINES} lines: split them at their seams"
    assert OVERSIZE_MODULES - over == set(), "these fit the limit now: take them off OVERSIZE_MODULES"


def test_no_new_function_over_the_limit_and_none_listed_that_fits():
    _, functions = _measure()
    over = {key for key, lines in functions.items() if lines > MAX_FUNCTION_LINES}
    assert over - OVERSIZE_FUNCTIONS == set(), f"functions over {MAX_FUNCTION_LINES} lines: split them"
    assert OVERSIZE_FUNCTIONS - over == set(), "these fit the limit now: take them off OVERSIZE_FUNCTIONS"


def test_the_measure_sees_nested_and_method_functions():
    tree = ast.parse("class A:\n    def f(self):\n        def g():\n            pass\n        return g\n")
    assert _functions(tree) == [("A.f", 4), ("A.f.g", 2)]
