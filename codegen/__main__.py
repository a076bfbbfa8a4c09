"""Regenerate ``broker/protocol/messages`` from ``protocol/schemas``.

Usage: ``python -m codegen [--check]``. With ``--check`` nothing is written;
the exit status says whether the checked-in code matches the schemas.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import jinja2

from broker.protocol import primitives
from broker.protocol.registry import ApiInfo
from codegen.model import Message, load_all
from codegen.plan import ModulePlan, plan_message

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "protocol" / "schemas"
OUT = ROOT / "broker" / "protocol" / "messages"

_PRIMITIVE_NAMES = re.compile(r"\b(read_\w+|write_\w+|check_count|UUID_ZERO)\b")


def _env() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(Path(__file__).parent / "templates")),
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
    )


def render_module(env: jinja2.Environment, plan: ModulePlan) -> str:
    code = "\n".join(line for fn in plan.functions for line in fn.lines)
    defaults = "\n".join(f.default for c in plan.classes for f in c.fields)
    imports = sorted(set(_PRIMITIVE_NAMES.findall(code + "\n" + defaults)) & set(primitives.__all__))
    struct_imports = ["Struct"] + [n for n in ("pack", "unpack_from") if re.search(rf"\b{n}\(", code)]
    text = env.get_template("message.py.j2").render(
        plan=plan,
        imports=imports,
        struct_imports=struct_imports,
        needs_unsupported="UnsupportedFieldError" in code,
    )
    return _tidy(text)


def _tidy(text: str) -> str:
    text = re.sub(r"\n{4,}", "\n\n\n", text)
    text = text.replace("from broker.protocol.primitives import (\n)\n", "")
    return text.rstrip("\n") + "\n"


def api_index(messages: list[Message]) -> list[ApiInfo]:
    by_key: dict[int, dict[str, Message]] = {}
    for m in messages:
        if m.type in ("request", "response"):
            if m.api_key is None:
                raise SystemExit(f"{m.source}: a {m.type} schema needs an apiKey")
            by_key.setdefault(m.api_key, {})[m.type] = m
    out = []
    for key in sorted(by_key):
        req, resp = by_key[key]["request"], by_key[key]["response"]
        if (req.valid, req.flexible) != (resp.valid, resp.flexible):
            raise SystemExit(f"{req.source} and {resp.source} disagree on versions")
        out.append(
            ApiInfo(
                key,
                req.name.removesuffix("Request"),
                req.module_name,
                req.name,
                resp.module_name,
                resp.name,
                req.valid.lo,
                req.valid.hi,
                None if req.flexible.empty else max(req.flexible.lo, req.valid.lo),
                req.latest_unstable,
            )
        )
    return out


def generate() -> dict[Path, str]:
    env = _env()
    messages = load_all(SCHEMAS)
    files: dict[Path, str] = {}
    for m in messages:
        files[OUT / f"{m.module_name}.py"] = render_module(env, plan_message(m))
    modules = sorted((m.module_name, m.name) for m in messages)
    files[OUT / "__init__.py"] = _tidy(env.get_template("init.py.j2").render(apis=api_index(messages), modules=modules))
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m codegen", description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args(argv)
    files = generate()
    stale = sorted(p for p in OUT.glob("*.py") if p not in files)
    if args.check:
        differ = [p for p, text in files.items() if not p.exists() or p.read_text() != text]
        for p in differ + stale:
            print(f"out of date: {p.relative_to(ROOT)}", file=sys.stderr)
        return 1 if differ or stale else 0
    OUT.mkdir(parents=True, exist_ok=True)
    for p in stale:
        p.unlink()
    for p, text in files.items():
        if not p.exists() or p.read_text() != text:
            p.write_text(text)
    print(f"generated {len(files)} modules in {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
