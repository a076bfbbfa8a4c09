"""Bounded coverage-guided fuzzing with atheris: ``python -m tests.fuzz.run [--runs N] [target ...]``.

Each target runs in its own process (libFuzzer owns the process) for ``--runs``
inputs from the seeds in ``targets.seeds``, with the broker's protocol and
security modules instrumented for coverage. A crashing input is written to
``tests/fuzz/findings/<target>/`` and the run fails; after fixing, copy it to
``tests/fuzz/corpus/<target>/`` so ``test_corpus.py`` replays it forever.
Prints one line per target: inputs run, coverage, time, result.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).parent
ROOT = HERE.parent.parent


def _child(target: str, runs: int, max_len: int) -> None:
    import atheris

    with atheris.instrument_imports(include=["broker"]):
        from tests.fuzz.targets import TARGETS, seeds

    fn = TARGETS[target]
    with tempfile.TemporaryDirectory() as corpus:
        for i, seed in enumerate(seeds(target)):
            Path(corpus, f"seed-{i}").write_bytes(seed)
        findings = HERE / "findings" / target
        findings.mkdir(parents=True, exist_ok=True)
        argv = [
            sys.argv[0],
            corpus,
            f"-runs={runs}",
            f"-max_len={max_len}",
            f"-artifact_prefix={findings}/",
            "-print_final_stats=1",
            "-timeout=10",
            "-rss_limit_mb=2048",
        ]
        atheris.Setup(argv, fn)
        atheris.Fuzz()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("targets", nargs="*", default=["frames", "records", "auth"])
    parser.add_argument("--runs", type=int, default=int(os.environ.get("FUZZ_RUNS", "20000")))
    parser.add_argument("--max-len", type=int, default=4096)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(args.child, args.runs, args.max_len)
        return 0
    failed = 0
    for target in args.targets:
        start = time.monotonic()
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "tests.fuzz.run",
                "--child",
                target,
                "--runs",
                str(args.runs),
                "--max-len",
                str(args.max_len),
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=1800,
            check=False,
        )
        elapsed = time.monotonic() - start
        log = proc.stderr
        done = re.findall(r"stat::number_of_executed_units: (\d+)", log)
        cov = re.findall(r"cov: (\d+)", log)
        ok = proc.returncode == 0
        print(
            f"fuzz {target}: {done[-1] if done else '?'} inputs, coverage {cov[-1] if cov else '?'} edges, "
            f"{elapsed:.1f}s: {'ok' if ok else 'FINDING (exit ' + str(proc.returncode) + ')'}"
        )
        if not ok:
            failed += 1
            tail = "\n".join(log.splitlines()[-40:])
            print(tail, file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
