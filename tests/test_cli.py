"""The command line, run as a user runs it (subprocess), including bad input."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from vncards import RulesError
from vncards.cli import colour_cards
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


def test_every_subcommand_has_help() -> None:
    for cmd in ("deal", "play", "simulate", "arrange"):
        out = run(cmd, "--help")
        assert out.returncode == 0 and "usage: vncards " + cmd in out.stdout
    assert "montecarlo" in run("simulate", "--help").stdout
    assert "number" in run("play", "--help").stdout


@pytest.mark.parametrize(
    "args",
    [
        ("simulate", "tienlen", "--bots", "nosuchbot"),
        ("simulate", "tusac", "--bots", "montecarlo"),
        ("simulate", "tienlen", "--jobs", "0"),
        ("simulate", "tienlen", "--rules", "scoring=ranked"),
        ("simulate", "tienlen", "--players", "7"),
        ("play", "tienlen", "--seat", "4"),
        ("play", "poker"),
        ("play", "samloc", "--rules", "nosuchoption=1"),
        ("--nosuchflag",),
    ],
)
def test_bad_arguments_are_one_line_exit_2(args: tuple[str, ...]) -> None:
    out = run(*args)
    assert out.returncode == 2, out.stderr
    assert out.stdout == ""
    assert out.stderr.count("\n") == 1 and "error:" in out.stderr


def test_simulate_json_summary_per_bot() -> None:
    out = run(
        "simulate", "samloc", "--games", "60", "--bots", "montecarlo,greedy,random", "--seed", "2", "--json"
    )
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["games"] == 60 and set(data["bots"]) == {"montecarlo", "greedy", "random"}
    assert sum(b["mean_units"] for b in data["bots"].values()) == pytest.approx(0)
    for b in data["bots"].values():
        assert b["seats_played"] == 60 and "events" in b and b["ci95"] >= 0
    again = json.loads(
        run(
            "simulate",
            "samloc",
            "--games",
            "60",
            "--bots",
            "montecarlo,greedy,random",
            "--seed",
            "2",
            "--json",
        ).stdout
    )
    assert again["bots"] == data["bots"]


def test_simulate_table() -> None:
    out = run("simulate", "tienlen", "--games", "40", "--bots", "greedy,random,greedy,random")
    assert out.returncode == 0, out.stderr
    assert "games/s" in out.stdout and "units/game" in out.stdout and "greedy" in out.stdout


@pytest.mark.parametrize(
    "game,extra",
    [
        ("tienlen", []),
        ("tienlen-north", ["--players", "3"]),
        ("samloc", ["--players", "3"]),
        ("tusac", []),
        ("tienlen", ["--bots", "montecarlo,random", "--rules", "ending=ranked", "scoring=ranked"]),
    ],
)
def test_play_to_the_end(game: str, extra: list[str]) -> None:
    # Always the first listed move: a legal game to the settlement table.
    out = run("play", game, "--seed", "3", *extra, stdin="1\n" * 400)
    assert out.returncode == 0, out.stderr
    assert "Settlement" in out.stdout and "you" in out.stdout


def test_play_explains_bad_input_and_quits() -> None:
    out = run("play", "samloc", "--players", "3", "--seed", "4", stdin="x\n99\n0\nh\nq\n")
    assert out.returncode == 0
    assert out.stdout.count("is not a move") == 3
    assert "declares Sâm" in out.stdout and "your hand:" in out.stdout
    assert "game abandoned" in out.stdout


def test_play_sam_phase_and_claim_windows_are_offered() -> None:
    out = run("play", "samloc", "--players", "3", "--seed", "4", stdin="1\n" * 40)
    assert "declares Sâm" in out.stdout and "declare_sam: seat=0" in out.stdout
    out = run("play", "tusac", "--seed", "4", stdin="1\n" * 400)
    assert "claims into" in out.stdout and "on offer:" in out.stdout


def test_play_input_ending_early_is_an_error() -> None:
    out = run("play", "tienlen", "--seed", "1", stdin="1\n")
    assert out.returncode == 2
    assert out.stderr.strip() == "vncards play: error: input ended before the game did"


def test_colour_cards() -> None:
    assert colour_cards("10♥ 3♠ 4♦") == "[bold red]10♥[/bold red] 3♠ [bold red]4♦[/bold red]"
    assert colour_cards("PR") == "[bold red]PR[/bold red]"


def test_play_maubinh_with_a_typed_arrangement() -> None:
    stdin = "A♠ K♠ | 2 3 4 | x\n1\n2\n"
    out = run("play", "maubinh", "--seed", "2", "--players", "3", stdin=stdin)
    assert out.returncode == 0, out.stderr
    assert "not allowed: the back needs 5 cards" in out.stdout
    assert "Settlement" in out.stdout and "solver" in out.stdout
