"""Turn a schema model into straight-line code for every version.

Every decision (which fields a version carries, compact or classic encodings,
nullability, tagged fields, default values, which fixed-width fields can share
one ``struct`` call) is made here, in Python. The jinja2 templates only loop
over the result.

For each struct and version we render the body of a decode and an encode
function; identical bodies are shared between versions, so ``FetchRequest``
v4..v11 may all point to one function when the fields they carry agree.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from codegen.model import Field, Message, Struct, Versions

FIXED = {
    "bool": ("?", 1),
    "int8": ("b", 1),
    "int16": ("h", 2),
    "uint16": ("H", 2),
    "int32": ("i", 4),
    "uint32": ("I", 4),
    "int64": ("q", 8),
    "float64": ("d", 8),
}

# Encoding packs bools with 'B': unlike '?', it refuses None (and any
# non-integer), so a missing value is an error instead of a silent false.
ENCODE_CODES = {"bool": "B"}

PY_TYPES = {
    "bool": "bool",
    "int8": "int",
    "int16": "int",
    "uint16": "int",
    "int32": "int",
    "uint32": "int",
    "int64": "int",
    "float64": "float",
    "string": "str",
    "bytes": "bytes",
    "records": "memoryview | bytes",
    "uuid": "uuid.UUID",
}


@dataclass
class DataField:
    py_name: str
    annotation: str
    default: str  # the right-hand side of the dataclass field declaration
    about: str


@dataclass
class DataClass:
    name: str
    about: str
    fields: list[DataField]
    classvars: list[tuple[str, str, str]] = field(default_factory=list)  # name, annotation, value
    is_message: bool = False

    @property
    def bases(self) -> str:
        return "(Message)" if self.is_message else ""


@dataclass
class Function:
    name: str
    args: str
    lines: list[str]


@dataclass
class ModulePlan:
    message: Message
    classes: list[DataClass]
    struct_consts: list[tuple[str, str]]
    functions: list[Function]
    decoders: list[tuple[int, str]]
    encoders: list[tuple[int, str]]
    needs_uuid: bool


def _int_default(text: str) -> int:
    try:
        return int(text, 0)
    except ValueError:
        return int(text)


class Planner:
    def __init__(self, msg: Message) -> None:
        self.msg = msg
        self.consts: dict[str, str] = {}  # struct format -> const name
        self.functions: list[Function] = []
        self._fn_by_body: dict[tuple[str, str], str] = {}
        self._memo: dict[tuple[str, str, int], str] = {}
        self.needs_uuid = False

    # --- defaults ---------------------------------------------------------------------

    def default_value(self, f: Field) -> str:
        """A Python expression for the field's default value."""
        d = f.default
        if f.is_array:
            return "None" if d == "null" else "[]"
        if f.is_struct:
            return "None" if d == "null" else f"{f.element_type}()"
        t = f.type
        if d == "null":
            return "None"
        if t in FIXED and t not in ("bool", "float64"):
            return repr(_int_default(d)) if d not in (None, "") else "0"
        if t == "bool":
            return "True" if (d or "").lower() == "true" else "False"
        if t == "float64":
            return repr(float(d)) if d not in (None, "") else "0.0"
        if t == "string":
            return repr(d or "")
        if t in ("bytes", "records"):
            return "b''"
        if t == "uuid":
            self.needs_uuid = True
            return "UUID_ZERO"
        raise ValueError(f"no default for {f.name}: {t}")

    def dataclass_default(self, f: Field) -> str:
        d = self.default_value(f)
        if d == "[]":
            return "field(default_factory=list)"
        if f.is_struct and not f.is_array and d != "None":
            return f"field(default_factory={f.element_type})"
        return d

    def annotation(self, f: Field) -> str:
        base = f.element_type if f.is_struct else PY_TYPES[f.element_type]
        if f.element_type == "uuid":
            self.needs_uuid = True
        ann = f"list[{base}]" if f.is_array else base
        if not f.nullable.empty:
            ann += " | None"
        return ann

    def non_default_test(self, f: Field, expr: str, *, none_is_set: bool = False) -> str:
        """A condition that is true when ``expr`` differs from the field's default.

        With ``none_is_set`` a None also counts as set, so that writing a
        tagged field that may not be null refuses it instead of omitting it.
        """
        d = self.default_value(f)
        if d == "None":
            return f"{expr} is not None"
        if d == "[]":
            return f"({expr} or {expr} is None)" if none_is_set else f"{expr}"
        if d == "False":
            return f"{expr} is not False" if none_is_set else f"{expr}"
        if d == "True":
            return f"{expr} is not True" if none_is_set else f"not {expr}"
        return f"{expr} != {d}"

    # --- structs ----------------------------------------------------------------------

    def struct_fields(self, name: str) -> list[Field]:
        if name == self.msg.name:
            return self.msg.fields
        return self.msg.structs[name].fields

    def const(self, fmt: str) -> str:
        if fmt not in self.consts:
            self.consts[fmt] = f"_S{len(self.consts)}"
        return self.consts[fmt]

    def _register(self, kind: str, struct: str, version: int, args: str, lines: list[str]) -> str:
        body = "\n".join(lines)
        key = (kind + struct, body)
        name = self._fn_by_body.get(key)
        if name is None:
            name = f"_{kind}_{struct}_v{version}"
            self._fn_by_body[key] = name
            self.functions.append(Function(name, args, lines))
        return name

    def decoder(self, struct: str, v: int) -> str:
        key = ("d", struct, v)
        if key not in self._memo:
            self._memo[key] = self._register("d", struct, v, "buf, pos", self._decode_lines(struct, v))
        return self._memo[key]

    def encoder(self, struct: str, v: int) -> str:
        key = ("e", struct, v)
        if key not in self._memo:
            self._memo[key] = self._register("e", struct, v, "o, out", self._encode_lines(struct, v))
        return self._memo[key]

    # --- per-field wire choices -------------------------------------------------------

    def compact(self, f: Field, v: int) -> bool:
        if f.flexible_override is not None:
            return v in f.flexible_override
        return self.msg.is_flexible(v)

    def _prim_suffix(self, f: Field, v: int, nullable: bool) -> str:
        parts = []
        if self.compact(f, v):
            parts.append("compact")
        if nullable:
            parts.append("nullable")
        return "_".join(parts + [""])

    # --- decode -----------------------------------------------------------------------

    def _decode_field(self, f: Field, v: int, target: str, posvar: str) -> list[str]:
        """Statements that read field ``f`` into ``target`` advancing ``posvar``."""
        nullable = f.nullable_in(v)
        t = f.element_type
        p = posvar
        if not f.is_array and not f.is_struct:
            if t in FIXED:
                c = self.const(">" + FIXED[t][0])
                return [f"{target} = {c}u(buf, {p})[0]", f"{p} += {FIXED[t][1]}"]
            if t == "uuid":
                return [f"{target}, {p} = read_uuid(buf, {p})"]
            return [f"{target}, {p} = read_{self._prim_suffix(f, v, nullable)}{t}(buf, {p})"]
        if not f.is_array:  # a struct
            child = self.decoder(t, v)
            if nullable and f.tagged_in(v):
                # A tagged nullable struct carries its null marker as an unsigned varint:
                # 0 for null, 1 before the struct (Kafka's generator; untagged ones use int8 -1/1).
                return [
                    f"if buf[{p}] == 0:",
                    f"    {target} = None",
                    f"    {p} += 1",
                    "else:",
                    f"    _, {p} = read_uvarint(buf, {p})",
                    f"    {target}, {p} = {child}(buf, {p})",
                ]
            if nullable:
                return [
                    f"if buf[{p}] == 255:",
                    f"    {target} = None",
                    f"    {p} += 1",
                    "else:",
                    f"    {target}, {p} = {child}(buf, {p} + 1)",
                ]
            return [f"{target}, {p} = {child}(buf, {p})"]
        # arrays
        lines = [f"n, {p} = read_{self._prim_suffix(f, v, nullable)}array_len(buf, {p})"]
        body: list[str]
        if f.is_struct:
            child = self.decoder(t, v)
            body = [
                f"{target} = []",
                f"append = {target}.append",
                "for _ in range(n):",
                f"    item, {p} = {child}(buf, {p})",
                "    append(item)",
            ]
        elif t in FIXED:
            code, size = FIXED[t]
            body = [
                f"check_count(buf, {p}, n, {size})",
                f"{target} = list(unpack_from('>%d{code}' % n, buf, {p}))",
                f"{p} += n * {size}",
            ]
        else:
            item_lines = self._decode_field(
                Field(
                    f.name,
                    t,
                    f.versions,
                    Versions(1, 0),
                    Versions(1, 0),
                    None,
                    None,
                    False,
                    f.flexible_override,
                    "",
                    None,
                ),
                v,
                "item",
                p,
            )
            body = [f"{target} = []", f"append = {target}.append", "for _ in range(n):"]
            body += ["    " + x for x in item_lines] + ["    append(item)"]
        if nullable:
            lines += ["if n < 0:", f"    {target} = None", "else:"] + ["    " + x for x in body]
        else:
            lines += body
        return lines

    def _decode_lines(self, struct: str, v: int) -> list[str]:
        fields = self.struct_fields(struct)
        lines: list[str] = []
        run: list[Field] = []

        def flush() -> None:
            if not run:
                return
            fmt = ">" + "".join(FIXED[x.type][0] for x in run)
            size = sum(FIXED[x.type][1] for x in run)
            c = self.const(fmt)
            targets = ", ".join(f"f_{x.py_name}" for x in run)
            if len(run) == 1:
                lines.append(f"{targets} = {c}u(buf, pos)[0]")
            else:
                lines.append(f"{targets} = {c}u(buf, pos)")
            lines.append(f"pos += {size}")
            run.clear()

        args = []
        tagged: list[tuple[int, Field]] = []
        for f in fields:
            if not f.present_in(v):
                args.append(self.default_value(f))
                continue
            args.append(f"f_{f.py_name}")
            tag = f.tag_in(v)
            if tag is not None:
                tagged.append((tag, f))
                continue
            if f.type in FIXED:
                run.append(f)
                continue
            flush()
            lines += self._decode_field(f, v, f"f_{f.py_name}", "pos")
        flush()
        if self.msg.is_flexible(v):
            for _, f in tagged:
                lines.append(f"f_{f.py_name} = {self.default_value(f)}")
            if tagged:
                lines += [
                    "unknown = ()",
                    "if buf[pos]:",
                    "    n_tags, pos = read_uvarint(buf, pos)",
                    "    for _ in range(n_tags):",
                    "        tag, p, pos = read_tag_header(buf, pos)",
                ]
                kw = "if"
                for tag, f in sorted(tagged, key=lambda x: x[0]):
                    lines.append(f"        {kw} tag == {tag}:")
                    lines += ["            " + x for x in self._decode_field(f, v, f"f_{f.py_name}", "p")]
                    kw = "elif"
                lines += [
                    "        else:",
                    "            if not unknown:",
                    "                unknown = []",
                    "            unknown.append((tag, bytes(buf[p:pos])))",
                    "else:",
                    "    pos += 1",
                ]
            else:
                lines += [
                    "if buf[pos]:",
                    "    unknown, pos = read_unknown_tags(buf, pos)",
                    "else:",
                    "    unknown = ()",
                    "    pos += 1",
                ]
            args.append("unknown")
        lines.append(f"return {struct}({', '.join(args)}), pos")
        return lines

    # --- encode -----------------------------------------------------------------------

    def _encode_field(self, f: Field, v: int, expr: str, outvar: str) -> list[str]:
        nullable = f.nullable_in(v)
        t = f.element_type
        o = outvar
        if not f.is_array and not f.is_struct:
            if t in FIXED:
                c = self.const(">" + ENCODE_CODES.get(t, FIXED[t][0]))
                return [f"{o} += {c}p({expr})"]
            if t == "uuid":
                return [f"write_uuid({o}, {expr})"]
            return [f"write_{self._prim_suffix(f, v, nullable)}{t}({o}, {expr})"]
        if not f.is_array:
            child = self.encoder(t, v)
            if nullable and f.tagged_in(v):
                return [
                    f"if {expr} is None:",
                    f"    {o}.append(0)",
                    "else:",
                    f"    {o}.append(1)",
                    f"    {child}({expr}, {o})",
                ]
            if nullable:
                return [
                    f"if {expr} is None:",
                    f"    {o}.append(255)",
                    "else:",
                    f"    {o}.append(1)",
                    f"    {child}({expr}, {o})",
                ]
            return [f"{child}({expr}, {o})"]
        lines = [f"value = {expr}", f"write_{self._prim_suffix(f, v, nullable)}array_len({o}, value)"]
        if f.is_struct:
            child = self.encoder(t, v)
            body = ["for item in value:", f"    {child}(item, {o})"]
        elif t in FIXED:
            code = ENCODE_CODES.get(t, FIXED[t][0])
            body = [f"{o} += pack('>%d{code}' % len(value), *value)"]
        else:
            item_lines = self._encode_field(
                Field(
                    f.name,
                    t,
                    f.versions,
                    Versions(1, 0),
                    Versions(1, 0),
                    None,
                    None,
                    False,
                    f.flexible_override,
                    "",
                    None,
                ),
                v,
                "item",
                o,
            )
            body = ["for item in value:"] + ["    " + x for x in item_lines]
        if nullable:
            return lines + ["if value is not None:"] + ["    " + x for x in body]
        return lines + body

    def _encode_lines(self, struct: str, v: int) -> list[str]:
        fields = self.struct_fields(struct)
        lines: list[str] = []
        run: list[Field] = []

        def flush() -> None:
            if not run:
                return
            fmt = ">" + "".join(ENCODE_CODES.get(x.type, FIXED[x.type][0]) for x in run)
            c = self.const(fmt)
            lines.append(f"out += {c}p({', '.join('o.' + x.py_name for x in run)})")
            run.clear()

        tagged: list[tuple[int, Field]] = []
        for f in fields:
            if not f.present_in(v):
                if not f.ignorable:
                    flush()
                    lines += [
                        f"if {self.non_default_test(f, 'o.' + f.py_name)}:",
                        f"    raise UnsupportedFieldError("
                        f"{(self.msg.name + ' v' + str(v) + ' cannot carry a non-default ' + f.name)!r})",
                    ]
                continue
            tag = f.tag_in(v)
            if tag is not None:
                tagged.append((tag, f))
                continue
            if not f.nullable_in(v) and self.default_value(f) == "None":
                pass  # the writer itself refuses None for a non-nullable version
            if f.type in FIXED:
                run.append(f)
                continue
            flush()
            lines += self._encode_field(f, v, "o." + f.py_name, "out")
        flush()
        if self.msg.is_flexible(v):
            if tagged:
                lines.append("tags = list(o._unknown_tagged_fields)")
                for tag, f in sorted(tagged, key=lambda x: x[0]):
                    lines.append(f"if {self.non_default_test(f, 'o.' + f.py_name, none_is_set=True)}:")
                    lines.append("    t = bytearray()")
                    lines += ["    " + x for x in self._encode_field(f, v, "o." + f.py_name, "t")]
                    lines.append(f"    tags.append(({tag}, t))")
                lines.append("write_tagged_fields(out, tags)")
            else:
                lines += [
                    "if o._unknown_tagged_fields:",
                    "    write_tagged_fields(out, list(o._unknown_tagged_fields))",
                    "else:",
                    "    out.append(0)",
                ]
        if not lines:
            lines.append("pass")
        return lines

    # --- whole module -----------------------------------------------------------------

    def classes(self) -> list[DataClass]:
        """Data classes in definition order: children before the structs using them."""
        order: list[str] = []
        seen: set[str] = set()

        def visit(name: str) -> None:
            if name in seen:
                return
            seen.add(name)
            for f in self.struct_fields(name):
                if f.is_struct:
                    visit(f.element_type)
            order.append(name)

        visit(self.msg.name)
        for s in self.msg.common_structs:  # common structs no field uses are still defined
            visit(s.name)
        out = []
        for name in order:
            fields = [
                DataField(f.py_name, self.annotation(f), self.dataclass_default(f), f.about)
                for f in self.struct_fields(name)
            ]
            is_msg = name == self.msg.name
            about = f"{name}, api key {self.msg.api_key}." if is_msg else self._struct_about(name)
            dc = DataClass(name, about, fields, is_message=is_msg)
            # The versions each field exists at (dropped fields included), for code that
            # builds messages generically (error responses) and must stay within a version.
            spans = ", ".join(
                f"{f.py_name!r}: ({f.versions.lo}, {min(f.versions.hi, self.msg.valid.hi)})"
                for f in self.struct_fields(name)
            )
            field_versions = ("FIELD_VERSIONS", "dict[str, tuple[int, int]]", "{" + spans + "}")
            if is_msg:
                m = self.msg
                flex_min = None if m.flexible.empty else max(m.flexible.lo, m.valid.lo)
                dc.classvars = [
                    ("API_KEY", "int", repr(m.api_key if m.api_key is not None else -1)),
                    ("NAME", "str", repr(m.name)),
                    ("TYPE", "str", repr(m.type)),
                    ("MIN_VERSION", "int", repr(m.valid.lo)),
                    ("MAX_VERSION", "int", repr(m.valid.hi)),
                    ("FLEXIBLE_MIN", "int | None", repr(flex_min)),
                    ("LATEST_VERSION_UNSTABLE", "bool", repr(m.latest_unstable)),
                ]
            dc.classvars.append(field_versions)
            out.append(dc)
        return out

    def _struct_about(self, name: str) -> str:
        def walk(fields: list[Field]) -> str | None:
            for f in fields:
                if f.element_type == name and f.fields is not None:
                    return f.about
                if f.fields:
                    r = walk(f.fields)
                    if r:
                        return r
            return None

        return (
            walk(self.msg.fields)
            or next((walk(s.fields) for s in self.msg.common_structs if walk(s.fields)), None)
            or f"Common structure {name}."
        )

    def plan(self) -> ModulePlan:
        classes = self.classes()
        decoders = [(v, self.decoder(self.msg.name, v)) for v in self.msg.versions()]
        encoders = [(v, self.encoder(self.msg.name, v)) for v in self.msg.versions()]
        consts = [(name, repr(fmt)) for fmt, name in self.consts.items()]
        return ModulePlan(self.msg, classes, consts, self.functions, decoders, encoders, self.needs_uuid)


def plan_message(msg: Message) -> ModulePlan:
    return Planner(msg).plan()


def struct_versions(s: Struct) -> Versions:
    return s.versions
