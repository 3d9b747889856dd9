"""Where the tests run: in a source checkout, or against an installed wheel.

``make check-wheel`` copies ``tests/`` out of the checkout and runs it against the wheel
installed in a fresh virtual environment, so ``import vncards`` is the installed package. The
few tests that read the checkout itself (README.md, docs/, src/, benches/, examples/) carry
:data:`source_tree` and skip there with :data:`REASON`; conftest.py prints how many did.
"""

from __future__ import annotations

from pathlib import Path

import pytest

#: The folder above ``tests/``: the checkout, or the wheel check's scratch folder.
ROOT = Path(__file__).resolve().parents[2]

#: True in a source checkout (the Rust crate and the Python sources beside ``tests/``).
IN_SOURCE_TREE = (ROOT / "Cargo.toml").is_file() and (ROOT / "python" / "vncards").is_dir()

#: The skip reason of every test that needs the checkout.
REASON = (
    "needs the source tree (README, docs/, src/, benches/, examples/); running against an installed wheel"
)

#: Marks a test (or, as ``pytestmark``, a module) that reads files of the checkout.
source_tree = pytest.mark.skipif(not IN_SOURCE_TREE, reason=REASON)
