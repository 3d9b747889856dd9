"""The Mậu Binh opponent tables: the shipped file's header, the file format, and the sampler's
independence from batching and executors."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from support.interrupt import Stopped, interrupted_after
from support.tree import source_tree
from vncards import RulesError, _core
from vncards.maubinh.tables import (
    CLASSES3,
    CLASSES5,
    MAX_TABLE_DEALS,
    Histograms,
    equilibrium,
    generate,
    sample,
    shipped_header,
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
