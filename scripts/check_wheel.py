"""Test the built wheel as a user gets it: ``make check-wheel``.

For every CPython from 3.10 to 3.13 found on this machine (pyenv's, or ``python3.X`` on PATH),
in a fresh virtual environment with no Rust toolchain on PATH (every folder holding ``cargo``
or ``rustc`` is dropped, the ``CARGO*``/``RUSTUP*``/``RUST*`` variables unset) and pip limited
to binary wheels, so nothing can be compiled:

1. install the wheel alone (its runtime dependencies only) and check that ``vncards`` comes
   from site-packages, that ``vncards --version`` is the wheel's version, that the core works
   without numpy (tests/support/no_numpy.py), and time a cold ``import vncards`` there
   (benches/import_bench.py: fresh processes, wall-clock over a bare start and
   ``-X importtime``);
2. install the test extras (``test`` and ``server`` must install; ``pettingzoo``,
   ``openspiel``, ``ray``, ``rllib`` and ``ratings`` are tried one by one, and an extra with no wheel for
   that interpreter is reported and its tests skip), copy ``tests/`` to a scratch folder outside
   the checkout and run pytest there, so ``import vncards`` is the installed wheel
   (VNCARDS_EXPECT_INSTALLED=1 makes the suite refuse any other). The tests that need the
   checkout skip with their reason, and their count is printed.

    python scripts/check_wheel.py [--wheel dist/X.whl] [--python 3.10 ...] [--extras LIST]
        [--jobs N] [--keep] [-- PYTEST-ARGS]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from dist import ROOT, newest

MINORS = (10, 11, 12, 13)
#: Extras the suite needs everywhere, and the integrations tried one by one.
REQUIRED_EXTRAS = ("test", "server")
OPTIONAL_EXTRAS = ("pettingzoo", "openspiel", "ray", "rllib", "ratings")
IMPORT_RUNS = 9
HIDDEN_TOOLS = ("cargo", "rustc", "rustup")


def find_pythons(wanted: list[str]) -> dict[str, Path]:
    """``{"3.10": interpreter}`` for each wanted minor version this machine has."""
    found: dict[str, Path] = {}
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    for version in wanted:
        candidates = sorted(
            (p for p in pyenv.glob(f"{version}.*") if re.fullmatch(rf"{re.escape(version)}\.\d+", p.name)),
            key=lambda p: int(p.name.rsplit(".", 1)[1]),
        )
        exe = candidates[-1] / "bin" / "python3" if candidates else None
        if exe is None or not exe.exists():
            on_path = shutil.which(f"python{version}")
            exe = Path(on_path) if on_path and "shims" not in on_path else None
        if exe is not None:
            found[version] = exe
    return found


def toolless_env(venv: Path) -> dict[str, str]:
    """This process's environment less every trace of a Rust toolchain, with ``venv`` active."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("CARGO", "RUSTUP", "RUST", "PYTHON", "VIRTUAL_ENV"))
        and k not in {"MATURIN_PEP517_ARGS", "CONDA_PREFIX"}
    }
    kept = [
        d
        for d in os.environ.get("PATH", "").split(os.pathsep)
        if d
        and not any((Path(d) / tool).exists() for tool in HIDDEN_TOOLS)
        and ".cargo" not in Path(d).parts
        and "shims" not in Path(d).parts
    ]
    env["PATH"] = os.pathsep.join([str(venv / "bin"), *kept])
    env["VIRTUAL_ENV"] = str(venv)
    env["PIP_ONLY_BINARY"] = ":all:"  # a dependency without a wheel fails: nothing is compiled
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


@dataclass
class Report:
    version: str
    log: list[str] = field(default_factory=list)
    extras: list[str] = field(default_factory=list)
    missing: dict[str, str] = field(default_factory=dict)
    import_ms: float | None = None
    importtime_ms: float | None = None
    summary: str = ""
    source_skips: str = ""
    ok: bool = False

    def say(self, line: str) -> None:
        self.log.append(f"[{self.version}] {line}")


class Failed(Exception):
    pass


def run(report: Report, cmd: list[str], env: dict[str, str], cwd: Path, check: bool = True) -> str:
    proc = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True)
    out = proc.stdout + proc.stderr
    if check and proc.returncode != 0:
        report.say(f"$ {' '.join(cmd)}\n{out}")
        raise Failed(f"{cmd[0]} {' '.join(cmd[1:3])} ... exited {proc.returncode}")
    return out


def cold_import(report: Report, python: str, env: dict[str, str], cwd: Path) -> None:
    """benches/import_bench.py in the fresh environment (only the wheel and rich installed)."""
    out = run(
        report,
        [python, str(ROOT / "benches" / "import_bench.py"), "--json", "--runs", str(IMPORT_RUNS)],
        env,
        cwd,
    )
    figures = json.loads(out.strip().splitlines()[-1])
    report.import_ms = figures["vncards"]["wall_ms"]
    report.importtime_ms = figures["vncards"]["importtime_ms"]
    for module, f in figures.items():
        report.say(
            f"cold import {module}: {f['wall_ms']:.1f} ms wall over a bare start (min {f['wall_min_ms']:.1f}), "
            f"{f['importtime_ms']:.1f} ms by -X importtime (median of {IMPORT_RUNS} fresh processes)"
        )


def pytest_ini(dest: Path) -> None:
    """pyproject.toml's pytest settings as a pytest.ini of the scratch folder."""
    import tomllib  # this script runs on Python >= 3.11; the interpreters it checks may be older

    opts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"][
        "ini_options"
    ]
    lines = ["[pytest]"]
    for key, value in opts.items():
        if isinstance(value, list):
            lines.append(f"{key} =")
            lines.extend(f"    {item}" for item in value)
        else:
            lines.append(f"{key} = {value}")
    dest.write_text("\n".join(lines) + "\n", encoding="utf-8")


def check(
    version: str, exe: Path, wheel: Path, extras: list[str], scratch: Path, pytest_args: list[str]
) -> Report:
    report = Report(version)
    try:
        _check(report, exe, wheel, extras, scratch / f"py{version}", pytest_args)
        report.ok = True
    except Failed as e:
        report.say(f"FAILED: {e}")
    return report


def _check(
    report: Report, exe: Path, wheel: Path, extras: list[str], work: Path, pytest_args: list[str]
) -> None:
    venv, suite = work / "venv", work / "suite"
    subprocess.run([str(exe), "-m", "venv", str(venv)], check=True)
    env = toolless_env(venv)
    python = str(venv / "bin" / "python")
    for tool in HIDDEN_TOOLS:
        if shutil.which(tool, path=env["PATH"]):
            raise Failed(f"{tool} is still on PATH")
    report.say(f"{run(report, [python, '-VV'], env, work).strip()}; no cargo/rustc on PATH")
    run(report, [python, "-m", "pip", "install", "--quiet", "--upgrade", "pip"], env, work)

    # 1. The wheel alone.
    run(report, [python, "-m", "pip", "install", "--quiet", str(wheel)], env, work)
    where = run(report, [python, "-c", "import vncards; print(vncards.__file__)"], env, work).strip()
    if "site-packages" not in where:
        raise Failed(f"vncards imported from {where}")
    version = run(report, [str(venv / "bin" / "vncards"), "--version"], env, work).strip()
    if version != f"vncards {wheel.name.split('-')[1]}":
        raise Failed(f"vncards --version says {version!r}")
    report.say(f"{version} from {Path(where).parent}")
    run(report, [python, str(ROOT / "tests" / "support" / "no_numpy.py")], env, work)
    report.say(
        "runtime dependencies only (no numpy): every game played, batch APIs raise ModuleNotFoundError"
    )
    cold_import(report, python, env, work)

    # 2. The test suite against it.
    needed = [e for e in extras if e in REQUIRED_EXTRAS]
    run(report, [python, "-m", "pip", "install", "--quiet", f"{wheel}[{','.join(needed)}]"], env, work)
    report.extras.extend(needed)
    for extra in (e for e in extras if e not in REQUIRED_EXTRAS):
        proc = subprocess.run(
            [python, "-m", "pip", "install", "--quiet", f"{wheel}[{extra}]"],
            env=env,
            cwd=work,
            capture_output=True,
            text=True,
        )
        if proc.returncode == 0:
            report.extras.append(extra)
        else:
            errors = [ln for ln in (proc.stderr or proc.stdout).splitlines() if "ERROR" in ln]
            report.missing[extra] = errors[0] if errors else f"pip exited {proc.returncode}"
    report.say(f"extras installed: {', '.join(report.extras)}")
    for extra, why in report.missing.items():
        report.say(f"extra {extra!r} not installable here (its tests skip): {why}")
    shutil.copytree(
        ROOT / "tests", suite / "tests", ignore=shutil.ignore_patterns("__pycache__", ".hypothesis")
    )
    pytest_ini(suite / "pytest.ini")
    proc = subprocess.run(
        [python, "-m", "pytest", "-q", "-rfE", "tests", *pytest_args],
        env={**env, "VNCARDS_EXPECT_INSTALLED": "1"},
        cwd=suite,
        capture_output=True,
        text=True,
    )
    lines = proc.stdout.splitlines()
    report.source_skips = next((ln for ln in lines if ln.startswith("source-tree skips:")), "")
    report.summary = next(
        (ln.strip("= ") for ln in reversed(lines) if re.search(r"\d+ (passed|failed)", ln)), ""
    )
    report.say(f"pytest in {suite}: {report.summary}")
    report.say(report.source_skips)
    if proc.returncode != 0:
        report.say("\n".join(lines[-60:]) + proc.stderr[-3000:])
        raise Failed(f"pytest exited {proc.returncode}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--wheel", type=Path, help="the wheel to test (default: the newest in dist/)")
    parser.add_argument(
        "--python", action="append", help="a minor version, e.g. 3.10 (repeatable; default: 3.10-3.13)"
    )
    parser.add_argument(
        "--extras",
        default=",".join(REQUIRED_EXTRAS + OPTIONAL_EXTRAS),
        help="extras to install for the suite (default: %(default)s)",
    )
    parser.add_argument("--jobs", type=int, default=1, help="interpreters checked at once (default 1)")
    parser.add_argument("--keep", action="store_true", help="keep the scratch folder")
    parser.add_argument("pytest_args", nargs="*", help="after --: passed to pytest")
    args = parser.parse_args(argv)

    wheel = (args.wheel or newest("vncards-*.whl", "wheel")).resolve()
    wanted = args.python or [f"3.{m}" for m in MINORS]
    pythons = find_pythons(wanted)
    for version in wanted:
        if version not in pythons:
            print(f"[{version}] not found on this machine: not checked")
    if not pythons:
        raise SystemExit("no CPython 3.10-3.13 found")
    extras = [e for e in args.extras.split(",") if e]
    print(f"checking {wheel.name} ({wheel.stat().st_size / 1e6:.2f} MB) on {', '.join(pythons)}")
    scratch = Path(tempfile.mkdtemp(prefix="vncards-wheel-check-"))
    try:
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            futures = [
                pool.submit(check, v, exe, wheel, extras, scratch, args.pytest_args)
                for v, exe in pythons.items()
            ]
            reports = []
            for future in futures:
                report = future.result()
                print("\n".join(report.log), flush=True)
                reports.append(report)
    finally:
        if args.keep:
            print(f"scratch folder kept: {scratch}")
        else:
            shutil.rmtree(scratch, ignore_errors=True)
    print("\nwheel check:")
    for r in reports:
        imp = f"import {r.import_ms:.0f} ms" if r.import_ms is not None else "import -"
        missing = f"; no wheel for: {', '.join(r.missing)}" if r.missing else ""
        print(f"  {r.version}: {'ok' if r.ok else 'FAILED'}: {r.summary or '-'}; {imp}{missing}")
    return 0 if all(r.ok for r in reports) else 1


if __name__ == "__main__":
    raise SystemExit(main())
