"""The command line, run as a user runs it (subprocess), including bad input."""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys

import pytest

from support.tree import source_tree
from vncards import RulesError
from vncards.cli import colour_cards
from vncards.games import parse_rule_options, rules_schema, spec
from vncards.simulate import simulate, wilson_interval
from vncards.words import payment_text, term


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
    assert [p["bot"] for p in data["positions"].values()] == ["montecarlo", "greedy", "random"]
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
    assert "Wilson" in out.stdout


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
    # (x at the Sâm question: no card parsing, it asks for y or n: issue 35)
    assert out.stdout.count("is not a move") == 2 and out.stdout.count("not allowed: type y or n") == 1
    assert "declare Sâm (báo Sâm)" in out.stdout and "your hand:" in out.stdout
    assert "game abandoned" in out.stdout


def test_play_sam_phase_and_claim_windows_are_offered() -> None:
    out = run("play", "samloc", "--players", "3", "--seed", "4", stdin="1\n" * 40)
    assert "declare Sâm (báo Sâm)" in out.stdout and "you: declares Sâm / báo Sâm" in out.stdout
    out = run("play", "tusac", "--seed", "4", stdin="1\n" * 400)
    assert "claim it with your" in out.stdout and "on offer:" in out.stdout


def test_play_input_ending_early_is_an_error() -> None:
    out = run("play", "tienlen", "--seed", "1", stdin="1\n")
    assert out.returncode == 2
    assert out.stderr.strip() == "vncards play: error: input ended before the game did"


def test_colour_cards() -> None:
    assert colour_cards("10♥ 3♠ 4♦") == "[bold red3]10♥[/bold red3] 3♠ [bold red3]4♦[/bold red3]"
    assert colour_cards("PR") == "[bold red3]PR[/bold red3]"


def test_colours_read_on_light_and_dark_terminals() -> None:
    """No white (invisible on a light terminal) and no plain yellow (unreadable on one): white
    Tứ Sắc cards take the terminal's own text colour."""
    from vncards._core import TuSacCard

    codes = [str(TuSacCard(i)) for i in range(28)]
    markup = colour_cards(" ".join(codes)) + colour_cards("3♠ 3♣ 3♦ 3♥")
    for bad in ("white", "[bold yellow]", "[yellow]"):
        assert bad not in markup
    assert "[bold]PW[/bold]" in markup


def test_play_maubinh_with_a_typed_arrangement() -> None:
    stdin = "A♠ K♠ | 2 3 4 | x\n1\n2\n"
    out = run("play", "maubinh", "--seed", "2", "--players", "3", stdin=stdin)
    assert out.returncode == 0, out.stderr
    assert "not allowed: not a card" in out.stdout
    assert "Settlement" in out.stdout and "solver" in out.stdout


# ---- issue #12: the command line speaks to players ----------------------------------------------

SNAKE = re.compile(r"\b[a-z0-9]+_[a-z0-9_]+\b")


def test_malformed_arrangement_reprompts_with_the_error() -> None:
    out = run("play", "maubinh", "--seed", "2", "--players", "3", stdin="zz | yy | xx\n3 4\n1\n2\n")
    assert out.returncode == 0, out.stderr
    assert 'not allowed: not a card: unknown rank: "zz" at position 0' in out.stdout
    assert "not allowed: write the three hands as back | middle | front" in out.stdout
    assert "Settlement" in out.stdout


@pytest.mark.parametrize("game", ["tienlen", "tienlen-north", "samloc", "maubinh", "tusac"])
def test_play_speaks_words_not_codes(game: str) -> None:
    out = run("play", game, "--seed", "3", stdin="1\n2\n" * 400)
    assert out.returncode == 0, out.stderr
    assert not SNAKE.findall(out.stdout), SNAKE.findall(out.stdout)[:5]
    assert any(w in out.stdout for w in ("Payments", "nobody pays", "Against each opponent"))


def test_payment_and_category_words() -> None:
    assert payment_text({"from": 1, "to": 0, "units": 15, "reason": "thoi_2"}) == (
        "seat 1 pays seat 0: thối 2 (a 2 left in hand): 15"
    )
    assert term("straight_flush") == "straight flush / thùng phá sảnh"
    for code in ["cards_left", "thoi_black_two", "cong", "den_lang", "back:four_of_a_kind", "instant:dragon"]:
        assert "_" not in term(code)


def test_tusac_hands_by_name_and_a_drawn_hand() -> None:
    # A stock limit just under the undealt stock: the first draw ends the hand drawn, whatever the seed.
    out = run("play", "tusac", "--seed", "3", "--rules", "draw_at_stock=30", stdin="1\n" * 600)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("your hand, "))
    hand = "\n".join(lines[start : start + 6])
    assert "Tướng" in hand or "Chốt" in hand or "Xe" in hand
    assert not re.search(r"\b[KAERCHP][YRGW]\b", hand)
    assert "hand drawn (hòa)" in out.stdout


def test_typed_cards_and_forced_passes_and_h() -> None:
    # Seat 0 holds 3♠ and 3♥ at seed 3 and leads: type the pair instead of its number.
    out = run("play", "tienlen", "--seed", "3", stdin="3♠3♥\nh\n" + "1\n" * 300)
    assert out.returncode == 0, out.stderr
    assert "you: pair / đôi: 3♠ 3♥" in out.stdout
    first_menu = out.stdout.split("your move>")[0]
    assert out.stdout.count("1. play") > first_menu.count("1. play")
    assert "you pass (forced)" in out.stdout
    typed = run("play", "tienlen", "--seed", "3", stdin="3s\n" + "1\n" * 300)
    assert "you: single / lẻ: 3♠" in typed.stdout
    tusac = run("play", "tusac", "--seed", "4", stdin="Sĩ vàng\n" + "1\n" * 600)
    assert "you discard Sĩ vàng" in tusac.stdout


def test_typed_illegal_cards_are_explained() -> None:
    out = run("play", "tienlen", "--seed", "3", stdin="4c\n2h 2h\nq\n")
    assert out.returncode == 0
    assert "not allowed: the first play must include 3♠" in out.stdout
    assert "not allowed: not a card" in out.stdout and "game abandoned" in out.stdout


@pytest.mark.parametrize("game", ["tienlen", "tienlen-north", "samloc", "maubinh", "tusac"])
def test_rules_command_lists_every_option(game: str) -> None:
    out = run("rules", game)
    assert out.returncode == 0, out.stderr
    for option in rules_schema(game):
        default = (
            str(option["default"]).lower() if isinstance(option["default"], bool) else str(option["default"])
        )
        assert f"{option['name']} = {default}" in out.stdout
        assert option["description"] in out.stdout
    data = json.loads(run("rules", game, "--json").stdout)
    assert data == rules_schema(game)


def test_simulate_help_and_seat_count() -> None:
    text = run("simulate", "--help").stdout
    assert "(default: random)" in text and "%%" not in text and "95%" in text
    assert "maubinh: easy, normal, hard, expert, random, greedy, search, solver" in " ".join(text.split())
    out = run("simulate", "tienlen", "--bots", "greedy,random,greedy", "--players", "4")
    assert out.returncode == 2 and "3 bots for 4 seats" in out.stderr


def test_simulate_json_keys_identical_bots_by_position() -> None:
    out = run("simulate", "tienlen", "--games", "12", "--bots", "greedy,greedy,random,random", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert list(data["positions"]) == ["0", "1", "2", "3"]
    assert all(p["seats_played"] == 12 for p in data["positions"].values())
    for p in data["positions"].values():
        low, high = p["win_rate_wilson95"]
        assert 0 <= low <= p["win_rate"] <= high <= 1


def test_wilson_interval_is_never_empty() -> None:
    low, high = wilson_interval(0, 500)
    assert low == 0 and 0.005 < high < 0.01
    low, high = wilson_interval(500, 500)
    assert 0.99 < low < 1 and high > 0.9999


def test_duplicate_mode_replays_each_deal_in_every_rotation() -> None:
    # Two identical deterministic bots: each deal played from both seats cancels exactly.
    dup = simulate("tienlen", 40, ["greedy", "greedy"], jobs=1, duplicate=True)
    assert [st.units for st in dup.positions.values()] == [0, 0]
    assert simulate("tienlen", 3, ["greedy", "greedy"], jobs=1, duplicate=True).games == 4
    out = run("simulate", "tienlen", "--games", "8", "--bots", "greedy,random", "--duplicate")
    assert out.returncode == 0 and "duplicate deals" in out.stdout


def test_deal_five_players() -> None:
    out = run("deal", "--players", "5", "--seed", "1")
    assert out.returncode == 0 and out.stdout.count("seat") == 5
    assert all(len(line.split(": ")[1].split()) == 10 for line in out.stdout.splitlines())
    bad = run("deal", "--players", "5", "--cards", "13")
    assert bad.returncode == 2 and "5 players × 13 cards = 65 cards, but the deck has 52" in bad.stderr


@pytest.mark.parametrize(
    "args",
    [
        ("deal", "--seed", "1"),
        ("rules", "tienlen"),
        ("arrange", "AS KS QS JS TS 9h 9d 4c 4d 7s 7h 2c 3d"),
        ("simulate", "samloc", "--games", "6", "--bots", "greedy"),
        ("play", "tusac", "--seed", "3"),
        ("--help",),
    ],
)
def test_ascii_for_every_command(args: tuple[str, ...]) -> None:
    stdin = "1\n" * 600
    flagged = run("--ascii", *args, stdin=stdin)
    assert flagged.returncode == 0, flagged.stderr
    assert flagged.stdout.isascii() and flagged.stdout.strip()
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    fallback = subprocess.run(
        [sys.executable, "-m", "vncards", *args],
        capture_output=True,
        text=True,
        input=stdin,
        timeout=120,
        env=env,
    )
    assert fallback.returncode == 0, fallback.stderr
    assert fallback.stdout == flagged.stdout or args[0] in ("simulate", "--help")


def test_ascii_play_accepts_ascii_cards() -> None:
    out = run("play", "tienlen", "--seed", "3", "--ascii", stdin="3s 3h\nq\n")
    assert "you: pair / doi: 3s 3h" in out.stdout


def test_arrange_reports_an_instant_win_alone() -> None:
    out = run("arrange", "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As")
    assert out.returncode == 0, out.stderr
    assert (
        "instant win: dragon flush / rồng cuốn" in out.stdout
        and "expected" not in out.stdout.split("\n", 1)[1]
    )
    plain = run("arrange", "AS KS QS JS TS 9h 9d 4c 4d 7s 7h 2c 3d")
    assert "straight flush / thùng phá sảnh" in plain.stdout and "expected" in plain.stdout
    # The equilibrium objective by default (issue 38); expected by name.
    assert plain.stdout.startswith('Mậu Binh, objective "equilibrium"')
    by_name = run("arrange", "AS KS QS JS TS 9h 9d 4c 4d 7s 7h 2c 3d", "--objective", "expected")
    assert by_name.stdout.startswith('Mậu Binh, objective "expected"')
    text = " ".join(run("arrange", "--help").stdout.split())
    assert "--objective" in text and "strongest: the strongest back" in text
    assert "equilibrium: the arrangement an opponent who knows it exploits least (default)" in text


# ---- issue #29: what a newcomer tripped on -------------------------------------------------------


def _after(text: str, marker: str) -> str:
    """The output after the first ``marker``."""
    return text.split(marker, 1)[1]


def test_words_for_pass_and_the_sam_declaration() -> None:
    # Seed 4, three seats: you answer the Sâm declaration, then face a single you may pass on.
    out = run("play", "samloc", "--players", "3", "--seed", "4", stdin="không\nbo\nq\n")
    assert out.returncode == 0, out.stderr
    assert "[n]" in out.stdout and "[p]" in out.stdout  # the word shown by its move
    moves = out.stdout.split("your move>")
    assert moves[1].lstrip().startswith("you: no Sâm / không báo")
    assert moves[2].lstrip().startswith("you: pass (bỏ lượt)")
    declared = run("play", "samloc", "--players", "3", "--seed", "4", stdin="Y\np\nq\n")
    assert _after(declared.stdout, "your move>").lstrip().startswith("you: declares Sâm / báo Sâm")
    # Leading, a pass is not a move: the engine says why.
    assert "not allowed: the leader of a round must play" in declared.stdout


def test_the_last_card_is_played_for_you() -> None:
    out = run("play", "tienlen", "--players", "2", "--seed", "1", stdin="1\n" * 300)
    assert out.returncode == 0, out.stderr
    forced = [line for line in out.stdout.splitlines() if "your last card:" in line]
    assert forced == ["  your last card: play single / lẻ: 2♥ (forced)"]
    assert "you: single / lẻ: 2♥" not in out.stdout  # said once
    assert "you out of cards (về), place 1" in out.stdout


# Seed 2's hand, fouled: the front's pair of kings beats the middle's pair of nines.
FOULED = "2s 4s 4c 5s 5c | 5h 8d 9d 9h 10d | Qh Ks Kh"
NOT_HELD = "2s 4s 4c 5s 5c | 5h 8d 9d 9h 10d | Qh Ks Kd"


def test_maubinh_arrangement_shown_fouled_confirmed_twice_showdown_per_opponent() -> None:
    stdin = f"{FOULED}\n2\nn\n{NOT_HELD}\n2\nkhông\ny\ny\n"
    out = run("play", "maubinh", "--seed", "2", stdin=stdin)
    assert out.returncode == 0, out.stderr
    # The typed arrangement, back row by row with its categories, and the warning.
    shown = _after(out.stdout, "your arrangement:")
    assert shown.startswith(
        "\n    back (chi 1)    2♠ 4♠ 4♣ 5♠ 5♣   two pairs / thú"
        "\n    middle (chi 2)  5♥ 8♦ 9♦ 9♥ 10♦  pair / đôi"
        "\n    front (chi 3)   Q♥ K♠ K♥         pair / đôi"
        "\nfouled (binh lủng)"
    )
    # Confirming it asks again: n (or không) goes back, y confirms.
    assert out.stdout.count("confirm it anyway?") == 3
    assert out.stdout.count("not confirmed: pick a move or type another arrangement") == 2
    # A card not held is named, in the words of everything else ("you", not "seat 0").
    assert "not allowed: not in your hand: K♦ (your hand also holds K♥)" in out.stdout
    assert "seat 0" not in _after(out.stdout, "you are seat 0;")
    # The showdown: each seat's rows with categories; one line per opponent.
    showdown = _after(out.stdout, "hands revealed (so bài):")
    assert "    you: fouled (binh lủng)\n      back (chi 1)" in showdown
    assert "instant win, three flushes / ba thùng" in showdown
    assert "Payments" not in showdown
    summary = _after(showdown, "Against each opponent\n").splitlines()
    assert summary == [
        "  seat 1 (solver): you fouled (binh lủng) -6: you -6",
        "  seat 2 (solver): you fouled (binh lủng) -6: you -6",
        "  seat 3 (solver): their instant win, three flushes / ba thùng -3: you -3",
    ]


def test_maubinh_summary_names_every_hand_and_ties() -> None:
    out = run("play", "maubinh", "--seed", "2", stdin="1\ny\n")
    assert out.returncode == 0, out.stderr
    summary = _after(out.stdout, "Against each opponent\n").splitlines()
    assert summary[0] == "  seat 1 (solver): back +1, middle -1, front +1: you +1"
    assert len(summary) == 3
    # Seat 1 plays the equilibrium (since card removal, with the 4♦ in the middle, the 6♥ in front).
    assert "middle (chi 2)  2♣ 3♠ 3♣ 3♥ 4♦  three of a kind / sám cô" in out.stdout


def test_play_says_who_sits_where_and_refuses_a_wrong_bot_count() -> None:
    out = run("play", "samloc", "--bots", "greedy,random", "--seed", "1", stdin="q\n")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("Sâm Lốc, 3 seats: you are seat 0; seat 1: greedy, seat 2: random.")
    seated = run("play", "tienlen", "--bots", "random,greedy,montecarlo", "--seat", "2", stdin="q\n")
    assert "you are seat 2; seat 0: random, seat 1: greedy, seat 3: montecarlo." in seated.stdout
    bad = run("play", "tienlen", "--bots", "greedy,random", "--players", "4")
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr == (
        "vncards play: error: --bots names 2 bots for the 3 other seats of 4: "
        "name one bot per other seat, or a single bot for all of them\n"
    )


def test_tusac_hand_by_colour_and_meld_and_the_glossary() -> None:
    from vncards import tusac
    from vncards.games import new_game

    out = run("play", "tusac", "--seed", "4", stdin="g\nq\n")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("your hand, 21 cards by colour"))
    # Every card of the hand, once, on its colour's line (a meld in brackets), soldiers of
    # several colours on a line of their own.
    words = {"vàng": "Y", "đỏ": "R", "xanh": "G", "trắng": "W"}
    seen: list[str] = []
    for line in lines[start + 1 :]:
        colour, _, rest = line.strip().partition(" ")
        if not line.startswith("  ") or colour not in (*words, "Chốt"):
            break
        names = rest.replace("[", " ").replace("]", " ").split()
        if colour == "Chốt":
            seen += [str(tusac.parse_card(f"Chốt {c}")) for c in names]
        else:
            seen += [str(tusac.parse_card(f"{n} {colour}")) for n in names]
    assert sorted(seen) == sorted(new_game("tusac", seed=4).view(0)["hand"])
    glossary = _after(out.stdout, "Tứ Sắc: glossary")
    assert "Tướng, Sĩ, Tượng" in glossary and "general, advisor, elephant" in glossary
    assert "card codes: Tướng K, Sĩ A, Tượng E, Xe R, Pháo C, Mã H, Chốt P" in glossary


def test_rules_says_what_seed_means_and_reads_options_by_their_schema() -> None:
    out = run("rules", "tusac")
    assert "not a random seed" in out.stdout.splitlines()[1]
    for args, message in [
        (("--rules", "draw_at_stock=many"), "draw_at_stock is a whole number"),
        (("--rules", "discard_rule=sometimes"), "discard_rule is penalize | enforce, not 'sometimes'"),
        (("--rules", "triple_optional=maybe"), "triple_optional is false | true, not 'maybe'"),
        (("--rules", "colour=red"), "tusac has no rule option 'colour' (options: "),
    ]:
        bad = run("play", "tusac", *args)
        assert bad.returncode == 2 and message in bad.stderr and bad.stderr.count("\n") == 1, bad.stderr


@source_tree
def test_glossary_matches_the_rules_pages() -> None:
    """The glossary ``g`` shows is the rules pages' glossary tables, row for row."""
    from pathlib import Path

    from vncards.words import GLOSSARY

    pages = Path(__file__).resolve().parent.parent / "docs" / "rules"
    for key, page in [
        ("cards", "index"),
        ("tienlen", "tienlen-south"),
        ("tienlen-north", "tienlen-north"),
        ("samloc", "samloc"),
        ("maubinh", "maubinh"),
        ("tusac", "tusac"),
    ]:
        text = (pages / f"{page}.md").read_text(encoding="utf-8")
        section = text[text.index("## Glossary") :].split("\n## ")[0]
        rows = [
            tuple(cell.strip() for cell in line.strip("|").split(" | "))
            for line in section.splitlines()[3:]
            if line.startswith("| ")
        ]
        assert rows == list(GLOSSARY[key]), page


def test_play_in_a_terminal() -> None:
    """A pseudo-terminal, as a person's: colours on, the typed pair played, then quit."""
    import pty
    import select

    leader, follower = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "vncards", "play", "tienlen", "--seed", "3"],
        stdin=follower,
        stdout=follower,
        stderr=follower,
        env={**os.environ, "TERM": "xterm-256color", "COLUMNS": "100"},
    )
    os.close(follower)
    out = b""

    def read_until(marker: bytes, count: int = 1) -> None:
        nonlocal out
        while out.count(marker) < count:
            ready, _, _ = select.select([leader], [], [], 60)
            assert ready, out.decode(errors="replace")[-500:]
            try:
                out += os.read(leader, 65536)
            except OSError:  # the program ended
                return

    try:
        read_until(b"your move> ")
        os.write(leader, "3♠ 3♥\n".encode())
        read_until(b"your move> ", 2)
        os.write(leader, b"q\n")
        read_until(b"game abandoned")
        assert proc.wait(timeout=60) == 0
    finally:
        proc.kill()
        os.close(leader)
    text = out.decode()
    assert "\x1b[" in text  # colours
    assert "you: pair / đôi: 3♠" in re.sub(r"\x1b\[[0-9;]*m", "", text)


def test_bench_bots_prints_the_strength_tables() -> None:
    out = run("bench-bots", "maubinh", "--bots", "normal,easy", "--deals", "3", "--jobs", "1", "--seed", "4")
    assert out.returncode == 0, out.stderr
    text = " ".join(out.stdout.split())
    assert "3 deals per pairing" in text and "| normal vs easy |" in text and "units/game" in text
    js = run("bench-bots", "tienlen", "--bots", "greedy,random", "--deals", "2", "--jobs", "1", "--json")
    data = json.loads(js.stdout)
    assert data["pairings"][0]["games"] == 4 and data["seed"] == 0
    bad = run("bench-bots", "tusac", "--bots", "greedy")
    assert bad.returncode == 2 and "fewer than two bots" in bad.stderr


def test_maubinh_cards_in_one_order_everywhere() -> None:
    """Issue 35: Mậu Binh lists 2 lowest and A highest everywhere (hand, the suggestion, the
    arrangement once chosen, the showdown, ``vncards arrange``), a wheel as A-2-3-4-5."""
    out = run("play", "maubinh", "--seed", "2", stdin="1\ny\n")
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "your hand: 2♠ 4♠ 4♣ 5♠ 5♣ 5♥ 8♦ 9♦ 9♥ 10♦ Q♥ K♠ K♥" in text
    suggested = _after(text, "1. arrange as the solver suggests:\n").splitlines()[:3]
    chosen = _after(text, "your arrangement:\n").splitlines()[:3]
    assert [line.split() for line in suggested] == [line.split() for line in chosen]
    # The equilibrium's arrangements (since card removal: the Q♥ in front, seat 2's 10♠ in the
    # middle), listed 2 lowest.
    assert "middle (chi 2)  2♠ 8♦ 10♦ K♠ K♥  pair / đôi" in chosen[1]
    showdown = _after(text, "hands revealed (so bài):")
    assert "2♦ 5♦ 6♦ 7♦ Q♦" in showdown and "2♥ 3♦ 10♠ K♣ K♦" in showdown
    cards = "As 2d 3d 4d 5s 9h 9c Kd Ks 7c Jh Qd 8c"
    arranged = run("arrange", cards, "--alternatives", "0")
    assert "back    A♠ 2♦ 3♦ 4♦ 5♠      straight / sảnh" in arranged.stdout
    arranged = run("arrange", cards, "--objective", "strongest", "--alternatives", "0")
    assert "back    2♦ 3♦ 4♦ Q♦ K♦" in arranged.stdout and "9♣ 9♥ J♥ K♠ A♠" in arranged.stdout
    typed = "As 2d 3d 4d 5s | 9h 9c Kd Ks 7c | Jh Qd 8c"
    wheel = run("play", "maubinh", "--seed", "2", stdin=f"{typed}\nq\n")
    assert "not in your hand: 2♦ 3♦ 4♦ 7♣ 8♣ 9♣ J♥ Q♦ K♦ A♠ (your hand also holds" in wheel.stdout


# ---- issue #35: the words a player types -------------------------------------------------------


@pytest.mark.parametrize("word", ["qua", "bỏ qua", "Bỏ Qua", "bo qua"])
def test_qua_and_bo_qua_pass(word: str) -> None:
    out = run("play", "samloc", "--players", "3", "--seed", "4", stdin=f"không\n{word}\nq\n")
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("your move>")[2].lstrip().startswith("you: pass (bỏ lượt)")
    assert "not a card" not in out.stdout


def test_a_wrong_word_at_the_sam_question_asks_for_y_or_n() -> None:
    out = run("play", "samloc", "--players", "3", "--seed", "4", stdin="maybe\nbỏ qua\nn\nq\n")
    assert out.returncode == 0, out.stderr
    answers = out.stdout.split("your move>")
    for wrong in answers[1:3]:
        assert wrong.lstrip().startswith("not allowed: type y or n: y (có) to declare Sâm")
    assert answers[3].lstrip().startswith("you: no Sâm / không báo")
    assert "not a card" not in out.stdout


def test_n_at_the_maubinh_prompt_is_no_engine_error() -> None:
    out = run("play", "maubinh", "--seed", "2", stdin="n\nq\n")
    assert out.returncode == 0, out.stderr
    assert "unknown action type" not in out.stdout and "decline_sam" not in out.stdout
    assert "not allowed: write the three hands as back | middle | front" in out.stdout


def test_tusac_refusals_name_the_piece_typed() -> None:
    # Seed 4: you discard first (the tỳ), holding no Tượng trắng; then a claim window opens.
    out = run("play", "tusac", "--seed", "4", stdin="tượng trắng\nEW\nxe đỏ\nsĩ vàng\nq\n")
    assert out.returncode == 0, out.stderr
    assert out.stdout.count("not allowed: you hold no Tượng trắng (EW)") == 2
    assert "holds no" not in out.stdout and "seat 0" not in _after(out.stdout, "you are seat 0;")
    assert "not allowed: you do not discard now: claim the card on offer" in out.stdout


def test_match_totals_name_the_seats() -> None:
    out = run("play", "tienlen", "--bots", "greedy", "--seed", "5", "--hands", "2", stdin="1\n" * 900)
    assert out.returncode == 0, out.stderr
    totals = re.findall(r"totals: .*", out.stdout)
    assert len(totals) == 2
    for line in totals:
        assert re.fullmatch(
            r"totals: you [+-]\d+, seat 1 \(greedy\) [+-]\d+, seat 2 \(greedy\) [+-]\d+, seat 3 \(greedy\) [+-]\d+",
            line,
        )


def test_input_ending_prints_the_error_on_a_line_of_its_own() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "vncards", "play", "tienlen", "--seed", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        input="1\n",
        timeout=120,
    )
    assert done.returncode == 2
    assert "\nvncards play: error: input ended before the game did\n" in done.stdout
    assert "your move> vncards" not in done.stdout


def _options() -> list[tuple[str, argparse.Action, str]]:
    """Every option of every subcommand that takes a value (flags are off by default), with
    its help as ``--help`` prints it (``%(default)s`` filled in)."""
    from vncards.cli import _parser

    sub = next(a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction))
    flags = (
        argparse._HelpAction,
        argparse._VersionAction,
        argparse._StoreTrueAction,
        argparse._StoreFalseAction,
    )
    return [
        (name, a, " ".join(parser._get_formatter()._expand_help(a).split()))
        for name, parser in sub.choices.items()
        for a in parser._actions
        if a.option_strings and a.help != argparse.SUPPRESS and not isinstance(a, flags)
    ]


def test_every_option_help_shows_its_default() -> None:
    """Issue 35: ``vncards serve --help`` showed no default for --bot-delay. Every option of
    every subcommand says its default (or that it has none), and a literal default is the one
    the help names."""
    options = _options()
    assert {name for name, _, _ in options} >= {
        "play",
        "simulate",
        "serve",
        "replay",
        "arrange",
        "bench-bots",
    }
    for name, a, text in options:
        assert "default" in text.lower(), f"vncards {name} {a.option_strings[-1]}: {text!r}"
        if isinstance(a.default, (int, float, str)) and not isinstance(a.default, bool) and a.default != "":
            assert re.search(rf"\b{re.escape(str(a.default))}\b", text), (
                f"{name} {a.option_strings[-1]}: {text!r}"
            )
    out = run("serve", "--help")
    assert out.returncode == 0 and re.search(
        r"--bot-delay BOT_DELAY\s+seconds a bot waits before it\s+acts \(default 0.6\)", out.stdout
    )
