"""Profile-guided optimisation (PGO) of the Rust core, trained on the Rust benches.

    python scripts/pgo.py find                 # the llvm-profdata this rustc needs, or why none
    python scripts/pgo.py profile [--dir DIR]  # instrumented benches -> DIR/merged.profdata
    python scripts/pgo.py compare [--dir DIR]  # each bench built plain and with the profile

``profile`` builds the benches with ``-Cprofile-generate``, runs each once (the training: move
generation, the Mậu Binh evaluator and solver, the vector tables, cards and the stream) and
merges the raw profiles with ``llvm-profdata merge``. ``make wheel-pgo`` then builds the wheel
with ``RUSTFLAGS=-Cprofile-use=DIR/merged.profdata``.

The raw profiles rustc writes are read only by an ``llvm-profdata`` of the same LLVM major
version as rustc's (``rustc -vV`` prints it). ``find`` looks, in order, at ``$LLVM_PROFDATA``,
the rustup component ``llvm-tools`` (``rustup component add llvm-tools``), ``llvm-profdata-N``
and ``/usr/lib/llvm-N/bin/llvm-profdata`` (Debian's ``llvm-N`` package) and a plain
``llvm-profdata``, and takes the first whose major version matches; with none it says which
versions it saw and exits 1.

``compare`` runs every bench binary (or those of ``--bench NAME``) built both ways alternately (``--rounds`` times) and prints
each bench's CPU time (user + system: the work is fixed, and CPU time is far less disturbed by
a busy machine than the wall clock), the medians and the ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DIR = ROOT / "target" / "pgo"


def llvm_major(version_text: str) -> int | None:
    """The LLVM major version in ``rustc -vV`` or ``llvm-profdata --version`` output."""
    m = re.search(r"LLVM version:?\s*(\d+)\.", version_text)
    return int(m.group(1)) if m else None


def rustc_llvm_major() -> int:
    major = llvm_major(subprocess.run(["rustc", "-vV"], capture_output=True, text=True, check=True).stdout)
    if major is None:
        raise SystemExit("rustc -vV names no LLVM version")
    return major


def candidates(major: int) -> list[str]:
    """Where an llvm-profdata may be, most specific first."""
    out = []
    if os.environ.get("LLVM_PROFDATA"):
        out.append(os.environ["LLVM_PROFDATA"])
    sysroot = subprocess.run(["rustc", "--print", "sysroot"], capture_output=True, text=True).stdout.strip()
    host = re.search(r"host: (\S+)", subprocess.run(["rustc", "-vV"], capture_output=True, text=True).stdout)
    if sysroot and host:
        out.append(str(Path(sysroot) / "lib" / "rustlib" / host.group(1) / "bin" / "llvm-profdata"))
    out += [f"llvm-profdata-{major}", f"/usr/lib/llvm-{major}/bin/llvm-profdata", "llvm-profdata"]
    return out


def find_profdata(major: int, paths: list[str]) -> tuple[str | None, list[str]]:
    """The first of ``paths`` that runs and has LLVM major ``major``; and what each one was."""
    seen = []
    for p in paths:
        exe = shutil.which(p)
        if exe is None:
            seen.append(f"{p}: not found")
            continue
        run = subprocess.run([exe, "--version"], capture_output=True, text=True)
        found = llvm_major(run.stdout + run.stderr)
        seen.append(f"{exe}: LLVM {found}")
        if found == major:
            return exe, seen
    return None, seen


def profdata_or_exit() -> str:
    major = rustc_llvm_major()
    exe, seen = find_profdata(major, candidates(major))
    if exe is None:
        print(f"no llvm-profdata of LLVM {major} (rustc's); seen:", *seen, sep="\n  ", file=sys.stderr)
        print(
            f"install one: rustup component add llvm-tools, or apt-get install llvm-{major}, "
            "or set LLVM_PROFDATA",
            file=sys.stderr,
        )
        raise SystemExit(1)
    return exe


def bench_binaries(target: Path, rustflags: str, only: list[str] | None = None) -> list[Path]:
    """Builds the benches (``only`` those named, else all) into ``target`` with ``rustflags``:
    the binaries."""
    env = {**os.environ, "CARGO_TARGET_DIR": str(target), "RUSTFLAGS": rustflags}
    which = [a for name in only for a in ("--bench", name)] if only else ["--benches"]
    run = subprocess.run(
        ["cargo", "bench", "--no-run", *which, "--message-format=json"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    if run.returncode != 0:
        sys.stderr.write(run.stderr)
        raise SystemExit(run.returncode)
    out = []
    for line in run.stdout.splitlines():
        msg = json.loads(line)
        if (
            msg.get("reason") == "compiler-artifact"
            and msg.get("executable")
            and "bench" in msg["target"]["kind"]
        ):
            out.append(Path(msg["executable"]))
    return sorted(out, key=lambda p: p.name)


def bench_name(binary: Path) -> str:
    return binary.name.rsplit("-", 1)[0]


def cpu_seconds(binary: Path) -> float:
    """User + system CPU time of one run of ``binary`` (its output discarded)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([str(binary)], cwd=ROOT, stdout=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def profile(directory: Path) -> Path:
    """Trains the profile: ``directory/merged.profdata``."""
    profdata = profdata_or_exit()
    raw = directory / "raw"
    shutil.rmtree(raw, ignore_errors=True)
    raw.mkdir(parents=True)
    for binary in bench_binaries(directory / "target-generate", f"-Cprofile-generate={raw}"):
        print(f"training: {bench_name(binary)}", flush=True)
        subprocess.run([str(binary)], cwd=ROOT, stdout=subprocess.DEVNULL, check=True)
    merged = directory / "merged.profdata"
    subprocess.run([profdata, "merge", "-o", str(merged), *map(str, raw.glob("*.profraw"))], check=True)
    print(f"profile: {merged}")
    return merged


def use_flags(merged: Path) -> str:
    """The RUSTFLAGS of a build that uses the profile."""
    return f"-Cprofile-use={merged}"


def compare(directory: Path, rounds: int, only: list[str] | None) -> None:
    merged = directory / "merged.profdata"
    if not merged.is_file():
        merged = profile(directory)
    plain = {bench_name(b): b for b in bench_binaries(directory / "target-plain", "", only)}
    pgo = {bench_name(b): b for b in bench_binaries(directory / "target-use", use_flags(merged), only)}
    print(f"load: {os.getloadavg()}; {rounds} rounds, CPU seconds (user + system) per run")
    ratios = []
    for name in sorted(plain):
        a, b = [], []
        for _ in range(rounds):
            a.append(cpu_seconds(plain[name]))
            b.append(cpu_seconds(pgo[name]))
        ma, mb = statistics.median(a), statistics.median(b)
        ratios.append(ma / mb)
        print(f"{name:<14} plain {ma:7.2f} s  pgo {mb:7.2f} s  plain/pgo {ma / mb:5.3f}  ", a, b, flush=True)
    print(f"median speed-up (plain/pgo) over the benches: {statistics.median(ratios):.3f}")
    print(f"load: {os.getloadavg()}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["find", "profile", "flags", "compare"])
    parser.add_argument("--dir", type=Path, default=DEFAULT_DIR)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--bench", action="append", help="compare: only this bench (repeatable)")
    args = parser.parse_args(argv)
    directory = args.dir.resolve()
    if args.command == "find":
        print(profdata_or_exit())
    elif args.command == "profile":
        profile(directory)
    elif args.command == "flags":
        print(use_flags(directory / "merged.profdata"))
    else:
        compare(directory, args.rounds, args.bench)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
