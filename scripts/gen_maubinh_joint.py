"""Regenerate the Mậu Binh 4-2 joint cells shipped in ``src/maubinh/joint_tables_42.bin``.

The method and the file format are in ``src/maubinh/joint.rs`` and
:func:`vncards.maubinh.tables.joint_cells`: seeded 4-player deals arranged by the shipped 4-2
equilibrium tables (without the correction), every seat's opponents counted at the quantiles
of their three hands under the seat's own class tables. Defaults: 400,000 deals (4.8 million
opponents), seed 20261205, in parts of 50,000 deals, each part checkpointed (``--checkpoint``)
so a stopped run resumes where it stopped: about a minute on two cores. Regenerate after the
4-2 equilibrium tables change, and rebuild (``maturin develop``) so the file is compiled in.

With ``--play corrected`` the hands are arranged by the shipped strategy itself (card removal
and the joint term included) instead of its tables alone: one step of fictitious play on the
cells.

    python scripts/gen_maubinh_joint.py [--deals N] [--seed S] [--part P] [--checkpoint PATH] [--out PATH]
        [--play tables|corrected]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shlex
import struct
import sys
import time
from pathlib import Path

from vncards import _core
from vncards.maubinh.tables import joint_cells, joint_header

OUT = Path(__file__).resolve().parent.parent / "src" / "maubinh" / "joint_tables_42.bin"


def with_header(blob: bytes, header: dict[str, object]) -> bytes:
    """The file with its JSON header replaced (the counts after it unchanged)."""
    (length,) = struct.unpack_from("<I", blob, 4)
    text = json.dumps(header).encode()
    return blob[:4] + struct.pack("<I", len(text)) + text + blob[8 + length :]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=400_000)
    parser.add_argument("--seed", type=int, default=20261205)
    parser.add_argument("--part", type=int, default=50_000, help="deals between checkpoints")
    parser.add_argument("--checkpoint", type=Path, default=Path("joint_tables_42.partial.bin"))
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--play", choices=["tables", "corrected"], default="tables")
    args = parser.parse_args()
    started = time.perf_counter()
    cells: bytes | None = None
    done = 0
    if args.checkpoint.exists():
        cells = args.checkpoint.read_bytes()
        header = joint_header(cells)
        if header["seed"] != args.seed or header.get("play", "tables") != args.play:
            sys.exit(f"{args.checkpoint} is of another seed or play than asked: remove it")
        done = int(header["deals"])
        print(f"resuming after {done:,} deals from {args.checkpoint}")
    while done < args.deals:
        part = min(args.part, args.deals - done)
        cells = joint_cells(part, args.seed, start=done, cells=cells, play=args.play)
        done += part
        tmp = args.checkpoint.with_suffix(".tmp")
        tmp.write_bytes(cells)
        os.replace(tmp, args.checkpoint)
        load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
        print(f"{done:,} deals, {time.perf_counter() - started:.0f} s, load {load}", flush=True)
    assert cells is not None
    header = joint_header(cells)
    header["command"] = f"python scripts/gen_maubinh_joint.py {shlex.join(sys.argv[1:])}".rstrip()
    if args.play == "corrected":
        # The strategy that played: the build's own cells (and tables) at the time.
        header["played_with_joint_sha256"] = hashlib.sha256(_core.maubinh_joint_file()).hexdigest()
    args.out.write_bytes(with_header(cells, header))
    args.checkpoint.unlink(missing_ok=True)
    print(f"wrote {args.out} ({args.out.stat().st_size:,} bytes) in {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
