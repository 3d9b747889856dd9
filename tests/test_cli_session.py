"""The command line's sessions and histories: ``vncards play --hands N``, ``vncards simulate
--histories`` and ``vncards replay``, run as a person runs them (a subprocess, typed input)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from vncards import history
from vncards.session import Seat


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "vncards", *args], capture_output=True, text=True, input=stdin, timeout=120
    )


def written(tmp_path: Path, game: str = "samloc", games: int = 4) -> Path:
    path = tmp_path / "hands.txt"
    done = run(
        "simulate", game, "--games", str(games), "--bots", "greedy,random,greedy", "--histories", str(path)
    )
    assert done.returncode == 0, done.stderr
    assert f"hand histories of {games} games written to {path}" in done.stderr
    return path


def test_simulate_writes_every_hand(tmp_path: Path) -> None:
    path = written(tmp_path, games=6)
    hands = history.loads(path.read_text(encoding="utf-8"))
    assert sorted(h.number or 0 for h in hands) == [1, 2, 3, 4, 5, 6]
    for h in hands:
        assert h.seats is not None  # a session's hand, with its seats
        assert h.is_over and sorted(s.bot or "" for s in h.seats) == ["greedy", "greedy", "random"]
        assert h.seats[0] in (Seat(bot="greedy"), Seat(bot="random"))
    # the same run without histories gives the same summary
    plain = run("simulate", "samloc", "--games", "6", "--bots", "greedy,random,greedy", "--json")
    with_file = run(
        "simulate",
        "samloc",
        "--games",
        "6",
        "--bots",
        "greedy,random,greedy",
        "--json",
        "--histories",
        str(tmp_path / "again.txt"),
    )
    assert plain.stdout.split('"seconds"')[0] == with_file.stdout.split('"seconds"')[0]


def test_replay_shows_every_card(tmp_path: Path) -> None:
    path = written(tmp_path, game="tienlen", games=2)
    hand = history.loads(path.read_text(encoding="utf-8"))[0]
    done = run("replay", str(path), "--hand", str(hand.number), "--all")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Tiến Lên Miền Nam, hand" in out and "each checked" in out
    first = history.start(hand.game)
    for s in range(hand.game.players):
        assert f"seat {s}: " + " ".join(map(str, first.hand(s))) in out
    assert f"{len(hand.game.actions)}. " in out and "Settlement" in out
    assert out.count("pays") >= len(hand.game.ledger) > 0


def test_replay_one_seat_step_by_step(tmp_path: Path) -> None:
    path = written(tmp_path, game="tienlen", games=1)
    hand = history.loads(path.read_text(encoding="utf-8"))[0]
    first = history.start(hand.game)
    mine = " ".join(map(str, first.hand(1)))
    theirs = " ".join(map(str, first.hand(0)))
    done = run("replay", str(path), "--seat", "1", stdin="\n\nq\n")  # two steps, then quit
    assert done.returncode == 0, done.stderr
    assert f"you are seat 1: {mine}" in done.stdout
    assert theirs not in done.stdout  # another seat's hidden hand is never shown
    assert done.stdout.count("Enter: next") == 3 and "Settlement" not in done.stdout
    # the input ends: the rest is shown without waiting
    done = run("replay", str(path), "--seat", "1", stdin="a\n")
    assert done.returncode == 0 and "Settlement" in done.stdout and "you" in done.stdout


def test_replay_refuses_a_history_that_does_not_follow(tmp_path: Path) -> None:
    path = written(tmp_path, games=1)
    lines = path.read_text(encoding="utf-8").split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith("settlement: "))
    units = [int(u) for u in lines[at][12:].split()]
    lines[at] = "settlement: " + " ".join(f"{u:+d}" if u else "0" for u in [units[1], units[0], *units[2:]])
    if [units[1], units[0], *units[2:]] == units:
        lines[at] = "settlement: +1 -1 0"
    path.write_text("\n".join(lines), encoding="utf-8")
    done = run("replay", str(path))
    assert done.returncode == 2
    assert f"vncards replay: error: hand 1, line {at + 1}: " in done.stderr


def test_replay_bad_arguments(tmp_path: Path) -> None:
    done = run("replay", str(tmp_path / "none.txt"))
    assert done.returncode == 2 and "cannot read" in done.stderr
    path = written(tmp_path, games=2)
    done = run("replay", str(path), "--seat", "7")
    assert done.returncode == 2 and "--seat must be 0..2" in done.stderr
    done = run("replay", str(path), "--hand", "9")
    assert done.returncode == 2 and "no such hand" in done.stderr


def test_play_a_match_of_hands() -> None:
    """``--hands 3``: the winner of each hand leads the next (Tiến Lên), totals run on."""
    done = run("play", "tienlen", "--bots", "greedy", "--seed", "5", "--hands", "3", stdin="1\n" * 900)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert [int(n) for n in re.findall(r"hand (\d) of 3", out)] == [1, 2, 3]
    assert "you lead, with 3♠" in out or re.search(r"seat \d leads, with 3♠", out)
    winners = re.findall(r"hand over: (you|seat \d) won", out)
    leads = re.findall(r"\n  (you|seat \d) leads?\b(?!, with)", out)
    assert len(winners) == 3 and leads[:2] == winners[:2]  # hands 2 and 3: the winner leads
    totals = [list(map(int, re.findall(r"[+-]\d+", line))) for line in re.findall(r"totals: .*", out)]
    assert len(totals) == 3 and all(sum(t) == 0 for t in totals)
    assert out.count("Enter: the next hand") == 2  # asked between hands, not after the last
    assert run("play", "tienlen", "--hands", "0").returncode == 2


def test_replay_refuses_a_deeply_nested_line(tmp_path: Path) -> None:
    """A 2.4 KB ``rules:`` line nested 1,200 deep is a usage error naming the line, not a
    RecursionError traceback (issue 37.2)."""
    path = written(tmp_path, games=1)
    lines = path.read_text(encoding="utf-8").split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith("rules: "))
    lines[at] = "rules: " + "[" * 1200 + "]" * 1200
    path.write_text("\n".join(lines), encoding="utf-8")
    done = run("replay", str(path))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"vncards replay: error: line {at + 1}: nested deeper than 32 levels" in done.stderr


def test_each_hand_of_a_match_is_dealt_under_its_number(tmp_path: Path) -> None:
    """``play --hands 2`` and ``replay`` of a session's third hand say the hand's own number
    when it is dealt (issue 35: every hand said "hand 1")."""
    done = run("play", "tienlen", "--bots", "greedy", "--seed", "5", "--hands", "2", stdin="1\n" * 900)
    assert done.returncode == 0, done.stderr
    assert re.findall(r"cards dealt \(chia bài\), hand (\d)", done.stdout) == ["1", "2"]
    from vncards.session import Session

    s = Session("samloc", players=3, seed=4)
    for _ in range(3):
        while not s.game.is_over:
            s.game.auto_play(s.game.pending_seats[0])
        s.next_hand()
    path = tmp_path / "match.txt"
    path.write_text(history.dumps(s), encoding="utf-8")
    done = run("replay", str(path), "--hand", "3", "--all")
    assert done.returncode == 0, done.stderr
    assert "hand 3, 3 seats" in done.stdout and "cards dealt (chia bài), hand 3" in done.stdout
