"""Copy the console's browser assets from their pinned npm packages into the package.

    python ui-assets/vendor.py           # npm ci (package-lock.json), then copy
    python ui-assets/vendor.py --check   # the same into a temporary directory, compared

The files in broker/ui/static/vendor/ are exactly the packages' own built files (and
their licences), so the wheel carries them and the console needs no network at run
time; ``--check`` (make ui-assets-check) fails when they differ from what the lock file
pins. Not shipped: a build tool like codegen/.
"""

from __future__ import annotations

import argparse
import filecmp
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
TARGET = HERE.parent / "broker" / "ui" / "static" / "vendor"
# (file in node_modules, name under broker/ui/static/vendor)
FILES = (
    ("htmx.org/dist/htmx.min.js", "htmx.min.js"),
    ("htmx.org/LICENSE", "htmx.LICENSE"),
    ("@picocss/pico/css/pico.min.css", "pico.min.css"),
    ("@picocss/pico/LICENSE.md", "pico.LICENSE.md"),
)


def install(workdir: Path) -> Path:
    for name in ("package.json", "package-lock.json"):
        shutil.copy2(HERE / name, workdir / name)
    subprocess.run(
        ["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"], cwd=workdir, check=True
    )
    return workdir / "node_modules"


def copy(modules: Path, target: Path) -> None:
    target.mkdir(parents=True, exist_ok=True)
    for src, dst in FILES:
        shutil.copyfile(modules / src, target / dst)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        modules = install(Path(tmp))
        if not args.check:
            copy(modules, TARGET)
            print(f"copied {len(FILES)} files into {TARGET}")
            return 0
        fresh = Path(tmp) / "vendor"
        copy(modules, fresh)
        stale = [
            dst
            for _, dst in FILES
            if not (TARGET / dst).exists() or not filecmp.cmp(fresh / dst, TARGET / dst, shallow=False)
        ]
        extra = sorted({p.name for p in TARGET.iterdir()} - {dst for _, dst in FILES}) if TARGET.exists() else []
        if stale or extra:
            print(
                f"broker/ui/static/vendor differs from package-lock.json: {', '.join(stale + extra)}; run make ui-assets"
            )
            return 1
        print("broker/ui/static/vendor matches package-lock.json")
        return 0


if __name__ == "__main__":
    sys.exit(main())
