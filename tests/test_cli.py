"""The command line, run as a user runs it (subprocess), including bad input."""

from __future__ import annotations

import subprocess
import sys

import pytest

from vncards import RulesError
from vncards.games import parse_rule_options, spec


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "vncards", *args], capture_output=True, text=True, input=stdin, timeout=120
    )


def test_help_and_version() -> None:
    out = run("--help")
    assert out.returncode == 0
    for word in ("play", "simulate", "arrange", "deal"):
        assert word in out.stdout
    version = run("--version")
    assert version.returncode == 0 and version.stdout.startswith("vncards ")


def test_deal_is_seeded() -> None:
    a, b = run("deal", "--seed", "3"), run("deal", "--seed", "3")
    assert a.returncode == 0 and a.stdout == b.stdout
    assert a.stdout.count("seat") == 4 and "♠" in a.stdout


@pytest.mark.parametrize(
    "args",
    [
        ("deal", "--players", "9"),
        ("simulate", "nosuchgame"),
        ("simulate", "tienlen", "--games", "0"),
        ("deal", "--seed", "abc"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: tuple[str, ...]) -> None:
    out = run(*args)
    assert out.returncode == 2
    assert out.stdout == ""
    assert out.stderr.strip().count("\n") <= 1 or "usage:" in out.stderr


def test_rule_options_are_typed() -> None:
    assert parse_rule_options(["scoring=ranked", "ket_3_bich=false", "draw_at_stock=7", "x=on"]) == {
        "scoring": "ranked",
        "ket_3_bich": False,
        "draw_at_stock": 7,
        "x": True,
    }
    with pytest.raises(RulesError):
        parse_rule_options(["novalue"])
    with pytest.raises(RulesError):
        spec("poker")
