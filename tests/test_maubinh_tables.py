"""The Mậu Binh opponent tables: the shipped file's header, the file format, and the sampler's
independence from batching and executors."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from support.interrupt import Stopped, interrupted_after
from support.tree import source_tree
from vncards import RulesError, _core
from vncards.maubinh.tables import (
    CLASSES3,
    CLASSES5,
    COMPACT_BITS,
    MAX_TABLE_DEALS,
    Histograms,
    equilibrium,
    generate,
    joint_cells,
    joint_header,
    sample,
    shipped_header,
    shipped_joint_header,
)
from vncards.parallel import worker_context

SHIPPED = Path(__file__).resolve().parent.parent / "src" / "maubinh" / "position_tables.bin"


def current_rules() -> str:
    """The solver's default rules, as this build writes them into a header."""
    return sample(1, seed=0, objective="strongest").header["rules"]  # type: ignore[no-any-return]


@source_tree
def test_shipped_file_header_records_sample_size_and_seed() -> None:
    shipped = Histograms.from_bytes(SHIPPED.read_bytes())
    header = shipped.header
    assert set(header) == {"deals", "iterations", "seed", "hands", "rules"}
    assert header["deals"] >= 100_000 and header["iterations"] >= 1 and isinstance(header["seed"], int)
    # Every position counts each arranged hand once; instant wins (a few %) are left out.
    for position in shipped.positions():
        assert int(position.sum()) == header["hands"]
    assert 0.9 < header["hands"] / (4 * header["deals"] * header["iterations"]) <= 1
    # The build compiled this very file in, and it was made for today's default rules.
    assert shipped_header() == header
    assert header["rules"] == current_rules()


def test_file_format_round_trips() -> None:
    counts = np.arange(2 * CLASSES5 + CLASSES3, dtype=np.uint64) * np.uint64(2**33)
    h = Histograms({"deals": 3, "seed": 9, "note": "Mậu Binh"}, counts)
    blob = h.to_bytes()
    assert blob[:4] == b"MBT2"
    back = Histograms.from_bytes(blob)
    assert back.header == h.header and (back.counts == counts).all()
    # The Rust core reads what Python writes: as a model for the solver.
    assert _core.maubinh_position_histograms(1, 0, "expected", blob)[:4] == b"MBT2"


@pytest.mark.parametrize(
    "blob",
    [b"MBT1" + bytes(4 * (2 * CLASSES5 + CLASSES3)), b"MBT2", b"MBT2" + (2).to_bytes(4, "little") + b"{}"],
)
def test_damaged_files_are_refused(blob: bytes) -> None:
    with pytest.raises(ValueError):
        Histograms.from_bytes(blob)
    with pytest.raises(ValueError):
        _core.maubinh_position_histograms(1, 0, "expected", blob)


def _cumulative_shares(h: Histograms) -> list[npt.NDArray[np.float64]]:
    """Each position's cumulative shares, class by class (an empty position: zeros)."""
    out = []
    for k in range(h.parts):
        for c in h.positions(k):
            total = float(c.sum())
            out.append(np.cumsum(c.astype(np.float64)) / total if total else np.zeros(c.size))
    return out


@settings(max_examples=25, deadline=None)
@given(
    scheme=st.sampled_from([0, 1, 3]),
    seed=st.integers(0, 2**32 - 1),
    scale=st.sampled_from([3, 1_000, 2**31 // CLASSES5, 2**40]),
    empty=st.booleans(),
)
def test_the_compact_form_keeps_every_share_within_its_bound(
    scheme: int, seed: int, scale: int, empty: bool
) -> None:
    """``MBT4`` quantizes each position's cumulative shares to multiples of 2⁻¹⁶: every win
    and lose probability the solver reads moves by at most 2⁻¹⁷; compacting what it decodes to
    gives the same bytes; the header and the scheme are kept; empty positions stay empty."""
    rng = np.random.default_rng(seed)
    parts = {0: 1, 1: 24, 3: 48}[scheme]
    counts = rng.integers(0, scale, size=parts * (2 * CLASSES5 + CLASSES3), dtype=np.uint64)
    counts[rng.random(counts.size) < 0.5] = 0  # the sparse counts of rare classes
    if empty:
        counts[: 2 * CLASSES5 + CLASSES3] = 0
    if scheme and int(counts.max()) >= 2**32:
        counts //= np.uint64(2**9)
    exact = Histograms({"deals": 5, "note": "Mậu Binh"}, counts, scheme)
    blob = exact.to_bytes(compact=True)
    assert blob[:4] == b"MBT4"
    back = Histograms.from_bytes(blob)
    assert (back.header, back.scheme, back.parts) == (exact.header, scheme, parts)
    for p, q in zip(_cumulative_shares(exact), _cumulative_shares(back), strict=True):
        assert np.abs(p - q).max() <= 2.0 ** -(COMPACT_BITS + 1) + 1e-12
        assert q[-1] in (0.0, 1.0) and (q[-1] == 0.0) == (p[-1] == 0.0)
    assert back.to_bytes(compact=True) == blob
    # The core reads it as a model, as it reads the exact counts.
    assert _core.maubinh_position_histograms(1, 0, "expected", blob)[:4] in (b"MBT2", b"MBT3")


def test_a_compact_file_of_a_newer_format_or_damaged_is_refused() -> None:
    blob = Histograms({}, np.arange(2 * CLASSES5 + CLASSES3, dtype=np.uint64)).to_bytes(compact=True)
    assert len(blob) < 40_000  # against 123 KB of u64 counts
    for bad in (blob[:-1], blob + b"\x01", blob[:12]):
        with pytest.raises(RulesError, match="MBT4"):
            Histograms.from_bytes(bad)
    newer = b"MBT5" + blob[4:]
    for read in (Histograms.from_bytes, lambda b: _core.maubinh_position_histograms(1, 0, "expected", b)):
        with pytest.raises(RulesError, match=r"MBT5.*upgrade vncards"):
            read(newer)


def test_batches_and_executors_do_not_change_the_counts() -> None:
    whole = sample(10, seed=4, objective="strongest", batch_size=10)
    assert int(whole.positions()[0].sum()) <= 40
    for size in (1, 3, 7):
        assert (sample(10, seed=4, objective="strongest", batch_size=size).counts == whole.counts).all()
    with ProcessPoolExecutor(2, mp_context=worker_context()) as pool:
        assert (
            sample(10, seed=4, objective="strongest", executor=pool, batch_size=4).counts == whole.counts
        ).all()
    assert (sample(10, seed=5, objective="strongest").counts != whole.counts).any()


def test_a_batch_is_the_same_deals_wherever_it_starts() -> None:
    def counts(deals: int, start: int) -> np.ndarray:
        return Histograms.from_bytes(
            _core.maubinh_position_histograms(deals, 8, "strongest", start=start)
        ).counts

    assert (counts(3, 0) + counts(4, 3) == counts(7, 0)).all()
    header = Histograms.from_bytes(_core.maubinh_position_histograms(2, 8, "strongest", start=5)).header
    assert (header["start"], header["deals"], header["seed"]) == (5, 2, 8)


def test_generate_records_its_run_and_is_reproducible() -> None:
    lines: list[str] = []
    a = generate(6, 2, seed=3, batch_size=4, log=lines.append)
    b = generate(6, 2, seed=3, batch_size=6)
    assert a.header == b.header and (a.counts == b.counts).all()
    assert a.header["deals"] == 6 and a.header["iterations"] == 2 and a.header["seed"] == 3
    assert a.header["hands"] == int(a.positions()[2].sum())
    assert len(lines) == 3 and lines[-1].startswith("iteration 2 (expected)")
    with pytest.raises(ValueError):
        generate(0)


def test_generation_bounds_its_total_work() -> None:
    with pytest.raises(RulesError, match="at most 1,000,000,000"):
        generate(500_000_000, 6)
    with pytest.raises(RulesError, match="at most 1,000,000,000"):
        equilibrium(200_000_000, 16)
    for bad in ({"deals": 0}, {"deals": 1.5}, {"iterations": 10**6}, {"patience": 0}):
        with pytest.raises(RulesError):
            equilibrium(**{"deals": 10, "iterations": 1, **bad})  # type: ignore[arg-type]
    with pytest.raises(RulesError):
        sample(MAX_TABLE_DEALS + 1, seed=0, objective="strongest")


def test_a_long_sampling_batch_stops_on_ctrl_c() -> None:
    """SIGINT inside one core call of table sampling raises at once (the handler's error)."""

    with interrupted_after(0.3), pytest.raises(Stopped):
        sample(2_000_000, seed=0, objective="strongest", batch_size=2_000_000)  # minutes


@pytest.mark.parametrize(
    "blob",
    [b"MBT2\x05\x00\x00\x00\xff\xfe{}x", b"MBT2\x02\x00\x00\x00{}abc", "MBT2", b"MBT2\x02\x00\x00\x00[]"],
)
def test_damaged_files_are_rules_errors(blob: bytes) -> None:
    with pytest.raises(RulesError):
        Histograms.from_bytes(blob)


def test_the_suit_scheme_counts_the_same_play_by_other_classes() -> None:
    """Scheme 2 splits by aces, kings and the longest suit: the same deals and play as scheme
    1 (``strongest`` reads no tables), each opponent counted once, under another class."""
    suits = sample(6, seed=1, objective="strongest", split=True, scheme=2, batch_size=3)
    high = sample(6, seed=1, objective="strongest", split=True, batch_size=3)
    assert (suits.scheme, suits.parts, high.scheme, high.parts) == (2, 24, 1, 24)
    per = suits.counts.size // 24
    assert np.array_equal(suits.counts.reshape(24, per).sum(0), high.counts.reshape(24, per).sum(0))
    assert not np.array_equal(suits.counts, high.counts)
    again = Histograms.from_bytes(suits.to_bytes())
    assert again.scheme == 2 and np.array_equal(again.counts, suits.counts)
    both = sample(6, seed=1, objective="strongest", split=True, scheme=3, batch_size=3)
    assert (both.scheme, both.parts) == (3, 48)
    assert np.array_equal(
        both.counts.reshape(24, 2 * per).reshape(24, 2, per).sum(1), high.counts.reshape(24, per)
    )
    for bad in (0, 4):
        with pytest.raises(RulesError, match="scheme"):
            sample(2, seed=1, objective="strongest", split=True, scheme=bad)


def test_a_continued_run_blends_with_the_steps_it_is_given() -> None:
    start = Histograms.from_bytes(_core.maubinh_tables_file("expected", "4-2"))
    lines: list[str] = []
    out = equilibrium(
        8, 2, seed=3, scoring="4-2", start=start, split=True, steps=[0.25, 0.2], patience=5,
        eval_deals=3, eval_samples=60, log=lines.append,
    )  # fmt: skip
    assert out.header["steps"] == [0.25, 0.2] and out.header["iterations"] == 2
    assert len(out.header["exploitability"]) == 3 and len(lines) == 3
    assert "(step 0.250)" in lines[1] and "(step 0.200)" in lines[2]
    # The least exploitable on the evaluation deals is kept: the start itself if no round beat it.
    assert out.parts == (24 if out.header["best"] else 1)
    assert ("24 classes" in out.header["population"]) == (out.parts == 24)
    for bad in ([0.5], [0.5, 0.0], [0.5, 1.5], [True, 0.5], ["0.5", 0.5]):
        with pytest.raises(RulesError, match="steps must be 2 numbers"):
            equilibrium(8, 2, steps=bad)  # type: ignore[arg-type]


@source_tree
def test_the_script_records_its_command_start_and_measure(tmp_path: Path) -> None:
    """What a shipped file's header promises: the command that made it, the start tables'
    digest and header, and both measured on a seed of their own."""
    start = tmp_path / "start.bin"
    start.write_bytes(_core.maubinh_tables_file("expected", "4-2"))
    args = [
        "--objective", "equilibrium", "--scoring", "4-2", "--split", "--start", "start.bin",
        "--deals", "6", "--steps", "0.3", "--seed", "3", "--eval-deals", "3", "--eval-samples", "60",
        "--measure-seed", "5", "--measure-deals", "3", "--measure-samples", "60", "--out", "out.bin",
    ]  # fmt: skip
    script = SHIPPED.parents[2] / "scripts" / "gen_maubinh_tables.py"
    done = subprocess.run(
        [sys.executable, str(script), *args], cwd=tmp_path, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    out = Histograms.from_bytes((tmp_path / "out.bin").read_bytes())
    header = out.header
    assert header["command"] == "python scripts/gen_maubinh_tables.py " + " ".join(args)
    assert header["start"]["sha256"] == hashlib.sha256(start.read_bytes()).hexdigest()
    assert header["start"]["header"] == Histograms.from_bytes(start.read_bytes()).header
    measured = header["measured"]
    assert (measured["seed"], measured["deals"], measured["samples"], measured["held_out"]) == (5, 3, 60, 60)
    for name in ("start", "these"):
        low, high = measured[name][1], measured[name][2]
        assert low <= measured[name][0] <= high and 0 <= measured[f"agreement_{name}"] <= 1
    assert header["steps"] == [0.3] and out.parts == (24 if header["best"] else 1)
    # The equilibrium tables are written compact unless asked for the exact counts.
    assert (tmp_path / "out.bin").read_bytes()[:4] == b"MBT4"


@pytest.mark.parametrize("scoring", ["units", "4-2"])
def test_both_scorings_ship_card_removal_equilibrium_tables(scoring: str) -> None:
    """The equilibrium tables of either scoring are kept per class of the player's hand, made
    under that scoring, and say how (the command and a measure on a seed not built on)."""
    header = shipped_header("equilibrium", scoring)
    blob = _core.maubinh_tables_file("equilibrium", scoring)
    tables = Histograms.from_bytes(blob)
    assert (blob[:4], tables.scheme, tables.parts) == (b"MBT4", 3, 48) and tables.header == header
    assert "--scheme 3" in header["command"] and len(blob) < 600_000
    assert ("FourTwo" in header["rules"]) == (scoring == "4-2")
    assert header["command"].startswith("python scripts/gen_maubinh_tables.py --objective equilibrium")
    assert f"--scoring {scoring}" in header["command"] and "--split" in header["command"]
    assert header["measured"]["seed"] not in (header["seed"], header["evaluation"]["seed"])
    assert header["measured"]["samples"] >= 5_000 and header["measured"]["deals"] >= 1_000


def test_joint_cells_add_up_over_checkpointed_parts() -> None:
    """The 4-2 joint cells of deals 0..30 are those of 0..12 continued from its checkpoint,
    byte for byte (the header says 30 deals either way); a checkpoint goes with a start."""
    whole = joint_cells(30, seed=4)
    assert whole[:4] == b"MBJ1" and joint_header(whole)["deals"] == 30
    assert joint_cells(18, seed=4, start=12, cells=joint_cells(12, seed=4)) == whole
    assert joint_cells(18, seed=4, start=12, cells=joint_cells(12, seed=5)) != whole
    for start, cells in ((12, None), (0, whole)):
        with pytest.raises(RulesError, match="start"):
            joint_cells(5, seed=4, start=start, cells=cells)


def test_joint_cells_count_the_play_asked_for() -> None:
    """Counted over the tables' play or the corrected strategy's (one step of fictitious play),
    each header says which; the parts add up either way and nothing else is a play."""
    tables, corrected = joint_cells(12, seed=4), joint_cells(12, seed=4, play="corrected")
    assert joint_header(tables)["play"] == "tables" and joint_header(corrected)["play"] == "corrected"
    assert joint_cells(12, seed=4, play="tables") == tables
    more = joint_cells(8, seed=4, start=12, cells=corrected, play="corrected")
    assert more == joint_cells(20, seed=4, play="corrected")
    with pytest.raises(RulesError, match="play"):
        joint_cells(5, seed=4, play="strongest")


def test_a_damaged_or_newer_joint_file_is_refused() -> None:
    blob = joint_cells(10, seed=4)
    for bad in (blob[:-1], blob + b"\x00", blob[:9], b"MBT4" + blob[4:]):
        with pytest.raises(RulesError, match="joint tables"):
            joint_cells(1, seed=4, start=10, cells=bad)
    with pytest.raises(RulesError, match=r"MBJ2.*upgrade vncards"):
        joint_cells(1, seed=4, start=10, cells=b"MBJ2" + blob[4:])
    with pytest.raises(RulesError):
        joint_header(b"MBJ")


def test_the_shipped_joint_cells_say_how_they_were_made() -> None:
    header = shipped_joint_header()
    blob = _core.maubinh_joint_file()
    assert header == joint_header(blob) and header["grid"] == 16
    assert "FourTwo" in header["rules"] and header["deals"] >= 100_000
    assert header["command"].startswith("python scripts/gen_maubinh_joint.py")
    # Counted over the corrected play of the build before it (one step of fictitious play).
    assert header["play"] == "corrected" and "--play corrected" in header["command"]
    assert len(header["played_with_joint_sha256"]) == 64
    length = int.from_bytes(blob[4:8], "little")
    assert len(blob) == 8 + length + 1 + 4 * 16**3 and blob[8 + length] == 16


@source_tree
def test_the_joint_script_resumes_from_its_checkpoint(tmp_path: Path) -> None:
    """Stopped after one part, the script resumes from its checkpoint and writes the same
    file as one run (the command aside)."""
    script = Path(__file__).resolve().parent.parent / "scripts" / "gen_maubinh_joint.py"
    run = [sys.executable, str(script), "--deals", "30", "--part", "10", "--seed", "3"]
    check = tmp_path / "part.bin"
    check.write_bytes(joint_cells(10, seed=3))
    subprocess.run([*run, "--checkpoint", str(check), "--out", str(tmp_path / "a.bin")], check=True)
    assert not check.exists()
    subprocess.run([*run, "--checkpoint", str(check), "--out", str(tmp_path / "b.bin")], check=True)
    a, b = (tmp_path / "a.bin").read_bytes(), (tmp_path / "b.bin").read_bytes()
    assert joint_header(a)["deals"] == 30 and a[-4 * 16**3 :] == b[-4 * 16**3 :]
    assert a[-4 * 16**3 :] == joint_cells(30, seed=3)[-4 * 16**3 :]
