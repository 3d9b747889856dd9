"""Build the source distribution that installs with no network: ``make sdist``.

``maturin sdist`` runs on a scratch copy of the checkout (its tracked and untracked, not
ignored, files) into which ``cargo vendor --locked`` has copied every crate of ``Cargo.lock``,
with the ``.cargo/config.toml`` that points cargo at them. pyproject.toml's
``[tool.maturin] include`` puts both into the sdist, so

    CARGO_NET_OFFLINE=true pip install dist/vncards-*.tar.gz

builds the Rust core from the sdist alone. The vendored crates live only in the sdist: the
checkout stays untouched and the repository never stores them.

    python scripts/build_sdist.py [--out DIR]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The sdist's .cargo/config.toml: crates.io replaced by the vendored copies.
CARGO_CONFIG = """\
# Written by scripts/build_sdist.py: cargo builds from the crates vendored in this sdist.
[source.crates-io]
replace-with = "vendored-sources"

[source.vendored-sources]
directory = "vendor"
"""


def checkout_files(root: Path) -> list[str]:
    """The files of the checkout that git tracks or would track (not ignored), that exist."""
    out = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=root,
        check=True,
        capture_output=True,
    ).stdout
    names = [name for name in out.decode().split("\0") if name]
    return [name for name in names if (root / name).is_file()]


def maturin() -> str:
    """The maturin command on PATH (``pip install maturin``, or the ``release`` extra)."""
    found = shutil.which("maturin")
    if found is None:
        raise SystemExit("maturin is not on PATH: pip install 'vncards[release]' (or maturin)")
    return found


def vendor(project: Path) -> None:
    """Copies every crate of ``Cargo.lock`` into ``project/vendor`` and points cargo at them."""
    subprocess.run(
        ["cargo", "vendor", "--locked", "--quiet", "--manifest-path", str(project / "Cargo.toml"), "vendor"],
        cwd=project,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    (project / ".cargo").mkdir(exist_ok=True)
    (project / ".cargo" / "config.toml").write_text(CARGO_CONFIG, encoding="utf-8")


def build(out_dir: Path) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="vncards-sdist-") as scratch:
        project = Path(scratch) / "vncards"
        for name in checkout_files(ROOT):
            (project / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, project / name)
        vendor(project)
        before = set(out_dir.glob("*.tar.gz"))
        subprocess.run(
            [maturin(), "sdist", "--manifest-path", str(project / "Cargo.toml"), "--out", str(out_dir)],
            check=True,
        )
    made = sorted(set(out_dir.glob("*.tar.gz")) - before) or sorted(out_dir.glob("vncards-*.tar.gz"))
    sdist = max(made, key=lambda p: p.stat().st_mtime)
    check(sdist)
    return sdist


def check(sdist: Path) -> None:
    """The sdist carries the vendored crates and the config that selects them."""
    with tarfile.open(sdist) as tar:
        names = tar.getnames()
    top = names[0].split("/", 1)[0]
    crates = {n.split("/")[2] for n in names if n.startswith(f"{top}/vendor/") and n.count("/") >= 3}
    if f"{top}/.cargo/config.toml" not in names or not crates:
        raise SystemExit(f"{sdist.name}: no vendored crates or no .cargo/config.toml in the sdist")
    print(f"{sdist}: {sdist.stat().st_size / 1e6:.1f} MB, {len(crates)} vendored crates, {len(names)} files")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--out", type=Path, default=ROOT / "dist", help="output folder (default: dist/)")
    args = parser.parse_args(argv)
    build(args.out.resolve())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
