"""The ``vncards`` command: play against bots, simulate bot games, solve Mậu Binh hands, list a
game's rules.

Every error in the arguments is one line on stderr and exit code 2; inside ``play`` a typing
mistake is explained and asked again. Text is for people: card categories, payments and events
in English with the Vietnamese term (``thối 2 (a 2 left in hand): 15``), never an engine code.
``--ascii`` (or a terminal that cannot show ♠♥♦♣) writes plain ASCII: ``10h`` for 10♥, and
Vietnamese without its accents.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import time
import unicodedata
from collections.abc import Sequence
from concurrent.futures import Executor
from contextlib import AbstractContextManager, nullcontext
from typing import Any, NoReturn, TextIO

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from . import __version__
from .bots import bot_names, make_bot
from .cards import cards_text, to_mask
from .errors import InvalidCardError, VncardsError
from .games import GAMES, new_game, parse_rule_options, rules_schema, spec
from .simulate import simulate
from .words import payment_text, term

__all__ = ["main", "colour_cards", "to_ascii"]

#: Styles that read on light and dark backgrounds alike (no white, no pale yellow).
_RED = "bold red3"
_TUSAC_COLOURS = {"W": "bold", "Y": "bold dark_goldenrod", "R": _RED, "G": "bold green4"}
_TUSAC_COLOUR_WORDS = {"Y": "vàng", "R": "đỏ", "G": "xanh", "W": "trắng"}


def colour_cards(text: str) -> str:
    """Rich markup drawing ♦ and ♥ cards red (and Tứ Sắc codes in their colour; white cards
    in the terminal's own colour, so they show on light and dark backgrounds):

    >>> colour_cards("10♥ 3♠")
    '[bold red3]10♥[/bold red3] 3♠'
    >>> colour_cards("PW KG")
    '[bold]PW[/bold] [bold green4]KG[/bold green4]'
    """
    out = []
    for token in text.split(" "):
        style = None
        if token[-1:] in ("♦", "♥"):
            style = _RED
        elif len(token) == 2 and token.isupper() and token[-1] in _TUSAC_COLOURS:
            style = _TUSAC_COLOURS[token[-1]]
        out.append(f"[{style}]{escape(token)}[/{style}]" if style else escape(token))
    return " ".join(out)


def _tusac_names(codes: Sequence[str]) -> str:
    """Tứ Sắc cards by name in their colour: ``["KR", "PW"]`` -> ``Tướng đỏ, Chốt trắng``."""
    from ._core import TuSacCard

    out = []
    for code in codes:
        style = _TUSAC_COLOURS.get(code[-1:], "")
        name = escape(TuSacCard(code).name)
        out.append(f"[{style}]{name}[/{style}]" if style else name)
    return ", ".join(out)


# -- ASCII output -------------------------------------------------------------------------------

_ASCII = str.maketrans(
    {
        "♠": "s",
        "♣": "c",
        "♦": "d",
        "♥": "h",
        "đ": "d",
        "Đ": "D",
        "→": ">",
        "±": "~",
        "×": "x",
        "–": "-",
        "—": "-",
        "…": ".",
        "·": ".",
        "≥": ">",
        "≤": "<",
        "−": "-",
    }
)


def to_ascii(text: str) -> str:
    """Text a plain ASCII terminal shows: suits as letters (``10h``, which every card argument
    accepts), Vietnamese without accents; one character for one, so tables stay aligned.

    >>> to_ascii("thối 2: 10♥ 3♠ — Tướng đỏ")
    'thoi 2: 10h 3s - Tuong do'
    """
    text = unicodedata.normalize("NFKD", text.translate(_ASCII))
    text = "".join(c for c in text if not unicodedata.combining(c))
    return text.translate(_ASCII).encode("ascii", "replace").decode("ascii")


class _AsciiFile(io.TextIOBase):
    """A text stream that writes everything through :func:`to_ascii`; it reports an ASCII
    encoding, so rich draws its tables with ``+-|``."""

    encoding = "ascii"

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(to_ascii(text))
        return len(text)

    def flush(self) -> None:
        self._stream.flush()

    def isatty(self) -> bool:
        return self._stream.isatty()

    def fileno(self) -> int:
        return self._stream.fileno()


def _cannot_show_suits(stream: TextIO) -> bool:
    try:
        "♠♥♦♣ố".encode(getattr(stream, "encoding", None) or "ascii")
    except (UnicodeEncodeError, LookupError):
        return True
    return False


# -- arguments ----------------------------------------------------------------------------------


class _Parser(argparse.ArgumentParser):
    """argparse with errors on one line (``vncards: error: ...``) and exit code 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def _bots_help() -> str:
    lines = []
    for name in GAMES:
        try:
            lines.append(f"{name}: {', '.join(bot_names(name))}")
        except VncardsError:
            continue
    return "; ".join(lines)


def _parser() -> argparse.ArgumentParser:
    common = _Parser(add_help=False)
    common.add_argument(
        "--ascii",
        action="store_true",
        default=argparse.SUPPRESS,
        help="plain ASCII output (10h for 10♥); automatic when the terminal cannot show ♠♥♦♣",
    )
    p = _Parser(
        prog="vncards",
        description="Rules engines for Vietnamese card games: play, simulate, arrange, list rules.",
        epilog="Games: " + ", ".join(f"{n} ({g.title})" for n, g in GAMES.items()),
        parents=[common],
    )
    p.add_argument("--version", action="version", version=f"vncards {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    d = sub.add_parser(
        "deal", parents=[common], help="shuffle and deal a 52-card game's hands (a quick demo)"
    )
    d.add_argument("--players", type=int, default=4, help="seats to deal, 2-5 (default 4)")
    d.add_argument(
        "--cards", type=int, default=None, help="cards per seat (default 13, or as many as 52 cards allow)"
    )
    d.add_argument("--seed", type=int, default=None, help="deterministic deal (default: OS random)")

    pl = sub.add_parser(
        "play",
        parents=[common],
        help="play a hand in the terminal against bots",
        description="Play one hand against bots. Your legal moves are numbered: type a number, "
        "or type the cards themselves (3s 3c, 3♠3♣, or a Tứ Sắc card by name); a Mậu Binh "
        "arrangement is typed as back | middle | front. h shows the table and the moves "
        "again, q quits. A move that is forced (only a pass is legal) is made for you and "
        "shown. Sâm declarations and Tứ Sắc claim windows are moves like any other.",
        epilog="example: vncards play samloc --players 3 --bots montecarlo",
    )
    pl.add_argument("game", choices=list(GAMES), help="the game")
    pl.add_argument("--players", type=int, default=None, help="number of seats (default 4)")
    pl.add_argument("--seat", type=int, default=0, help="your seat (0 = first)")
    pl.add_argument(
        "--bots",
        default=None,
        help="bot for the other seats, or a,b,c for each seat in turn "
        "(default: the game's solver, else greedy). Bots per game: " + _bots_help(),
    )
    pl.add_argument("--seed", type=int, default=None, help="deterministic deal (default: random)")
    pl.add_argument(
        "--rules", nargs="*", default=[], metavar="K=V", help="rule options (see vncards rules GAME)"
    )

    s = sub.add_parser(
        "simulate",
        parents=[common],
        help="bot-vs-bot games on all cores, with a progress bar and a summary",
        description="Play GAMES games between bots, one bot name per seat (rotated between "
        "games so no bot keeps a seat), and print per bot position: win rate with its 95% "
        "Wilson score interval, mean units per game with a 95% confidence interval, and its "
        "instant wins, bombs, cóng, Sâm... With --duplicate each deal is played once per "
        "rotation of the bots through the seats, which cancels most of the luck of the cards. "
        "Bots per game: " + _bots_help() + ".",
        epilog="example: vncards simulate tienlen --games 2000 --bots montecarlo,greedy,greedy,greedy",
    )
    s.add_argument("game", choices=list(GAMES), help="the game")
    s.add_argument("--games", type=int, default=1000, help="number of games (default %(default)s)")
    s.add_argument(
        "--bots",
        default="random",
        help="comma-separated bot per seat, e.g. greedy,random,greedy,random; one name fills "
        "every seat (default: %(default)s)",
    )
    s.add_argument(
        "--players",
        type=int,
        default=None,
        help="seats (default: one per bot named; must match a list of bots)",
    )
    s.add_argument("--seed", type=int, default=0, help="seed of the run (default %(default)s)")
    s.add_argument(
        "--rules", nargs="*", default=[], metavar="K=V", help="rule options (see vncards rules GAME)"
    )
    s.add_argument("--jobs", type=int, default=None, help="processes (default: all cores)")
    s.add_argument(
        "--ray",
        nargs="?",
        const="",
        default=None,
        metavar="ADDRESS",
        help="run on a Ray cluster (extra 'ray'): auto, ray://host:port, or none to start a local one",
    )
    s.add_argument(
        "--duplicate",
        action="store_true",
        help="duplicate mode: every deal is replayed with the bots rotated through the seats "
        "(--games is rounded up to a multiple of the seat count)",
    )
    s.add_argument("--json", action="store_true", help="print the summary as JSON, keyed by bot position")

    a = sub.add_parser(
        "arrange",
        parents=[common],
        help="best Mậu Binh arrangement of 13 cards",
        description="The best Mậu Binh arrangement of 13 cards (back | middle | front), the "
        "instant win to declare if the hand has one, and runner-up arrangements.",
    )
    a.add_argument("cards", help='13 cards, e.g. "AS KS QS JS TS 9h 9d 4c 4d 7s 7h 2c 3d"')
    a.add_argument(
        "--objective",
        choices=["expected", "strongest"],
        default="expected",
        help="expected: the most units expected against opponents who arrange well (default); "
        "strongest: the strongest back, then middle, then front that is not fouled",
    )
    a.add_argument("--alternatives", type=int, default=3, help="runner-up arrangements to show (default 3)")

    r = sub.add_parser(
        "rules",
        parents=[common],
        help="every rule option of a game, with its values and default",
        description="Every rule option of GAME: its values, its default, where the default "
        "comes from (seed: the original documents; house: a common house rule) and what it "
        "means. Change one with --rules NAME=VALUE in play and simulate.",
    )
    r.add_argument("game", choices=list(GAMES), help="the game")
    r.add_argument("--json", action="store_true", help="print the options as JSON")
    _add_serve_parser(sub)
    return p


def _add_serve_parser(sub: Any) -> None:
    sv = sub.add_parser(
        "serve",
        help="run the game server and browser table (needs the 'server' extra)",
        description="Run the reference game server: a lobby and browser tables for every game at "
        "http://HOST:PORT, bots in empty seats, tables kept in a SQLite file across restarts.",
        epilog="example: vncards serve --port 8000 --db tables.sqlite",
    )
    sv.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    sv.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    sv.add_argument("--db", default="tables.sqlite", help="SQLite file of the tables (default tables.sqlite)")
    sv.add_argument("--bot-delay", type=float, default=0.6, help="seconds a bot waits before it acts")
    sv.add_argument("--turn-seconds", type=float, default=None, help="turn timer (default 30; Mậu Binh 45)")
    sv.add_argument(
        "--create-token",
        default=None,
        help="an operator token that creating a table needs (Authorization: Bearer TOKEN); "
        "default: the VNCARDS_CREATE_TOKEN environment variable, else anyone may create tables",
    )
    sv.add_argument(
        "--idle-close",
        type=float,
        default=None,
        help="seconds a finished table may sit idle before it closes",
    )
    sv.add_argument("--max-tables", type=int, default=None, help="open tables on the server (default 1000)")
    sv.add_argument(
        "--tables-per-client", type=int, default=None, help="open tables one client may create (default 20)"
    )
    sv.add_argument(
        "--seat-rate",
        type=float,
        default=None,
        help="moves per second one seat may send (default 4, bursts of 8)",
    )


def _serve(args: argparse.Namespace, console: Console) -> int:
    try:
        from .server import serve
    except ImportError as e:
        raise VncardsError(f"the server needs its extra: pip install 'vncards[server]' ({e})") from None
    serve(
        args.host,
        args.port,
        args.db,
        bot_delay=args.bot_delay,
        turn_seconds=args.turn_seconds,
        create_token=args.create_token or os.environ.get("VNCARDS_CREATE_TOKEN") or None,
        idle_close=args.idle_close,
        max_tables=args.max_tables,
        tables_per_client=args.tables_per_client,
        seat_rate=args.seat_rate,
    )
    return 0


# -- deal ---------------------------------------------------------------------------------------


def _deal(args: argparse.Namespace, console: Console) -> int:
    from ._core import Rng

    if not 2 <= args.players <= 5:
        raise VncardsError(f"deal needs 2-5 players, not {args.players}")
    cards = args.cards if args.cards is not None else min(13, 52 // args.players)
    if cards < 1:
        raise VncardsError(f"--cards must be at least 1, not {cards}")
    if args.players * cards > 52:
        raise VncardsError(
            f"{args.players} players × {cards} cards = {args.players * cards} cards, but the deck has 52: "
            f"use --cards {52 // args.players} or fewer"
        )
    rng = Rng(args.seed)
    order = rng.permutation(52)
    for seat in range(args.players):
        mask = sum(1 << c for c in order[seat * cards : (seat + 1) * cards])
        console.print(f"seat {seat}: {colour_cards(cards_text(mask))}")
    return 0


# -- play ---------------------------------------------------------------------------------------


def _default_bot(game: str) -> str:
    """The strongest cheap bot of ``game``: its solver, else greedy, else random."""
    names = bot_names(game)
    return next((n for n in ("solver", "greedy") if n in names), "random")


def _bots_for(game: str, text: str | None, seats: int, seed: int | None, rules: Any) -> list[Any]:
    names = [n.strip() for n in (text or "").split(",") if n.strip()] or [_default_bot(game)]
    return [
        make_bot(names[s % len(names)], game, seed=None if seed is None else seed + s, rules=rules)
        for s in range(seats)
    ]


def _cards_markup(game: Any, cards: Any) -> str:
    """Cards in colour: Tứ Sắc by name, the others as card text."""
    codes = cards.split() if isinstance(cards, str) else [str(c) for c in cards]
    if game.GAME == "tusac":
        return _tusac_names(codes)
    return colour_cards(" ".join(codes))


def _combo_kind(game: Any, cards: Any) -> str | None:
    from ._core import shedding_classify

    core = getattr(game.rules, "core", None)
    if core is None:
        return None
    combo = shedding_classify(to_mask(cards), core)
    return None if combo is None else str(combo.kind)


def _action_text(game: Any, action: dict[str, Any]) -> str:
    """One action in words (markup), e.g. ``play pair / đôi: 3♠ 3♣``."""
    kind = action.get("type")
    if kind == "play":
        what = _combo_kind(game, action["cards"])
        return f"play {term(what) if what else 'cards'}: {_cards_markup(game, action['cards'])}"
    if kind == "pass":
        return "pass (bỏ lượt)" if game.GAME != "tusac" else "pass: do not claim (bỏ)"
    if kind == "declare_sam":
        return "declare Sâm (báo Sâm): play out all ten cards unbeaten"
    if kind == "decline_sam":
        return "do not declare Sâm (không báo)"
    if kind == "discard":
        return f"discard {_cards_markup(game, [action['card']])}"
    if kind == "claim":
        return f"claim it with your {_cards_markup(game, action['cards'])}: {term(str(action.get('meld')))}"
    if kind == "win":
        return "win (tới)"
    if kind == "arrange":
        from .maubinh import hand_category

        parts = [
            f"{_cards_markup(game, action[p])} ({term(hand_category(action[p]))})"
            for p in ("back", "middle", "front")
        ]
        return "arrange " + " | ".join(parts)
    if kind == "confirm":
        return "confirm the arrangement (báo xong)"
    if kind == "forfeit":
        return "forfeit: leave the hand, counted as fouled (binh lủng)"
    return escape(term(str(kind)))


def _seat_name(seat: Any, you: int | None) -> str:
    return "you" if seat == you else f"seat {seat}"


#: Events in words: ``{who}`` (the event's seat, or "you"), ``{s}`` (a verb's -s),
#: ``{card}``/``{cards}`` in colour, ``{combo}``/``{meld}``/``{win}``/``{term}`` as words, and
#: any other field of the event as it is.
_EVENT_WORDS = {
    "play": "{who}: {combo}: {cards}",
    "pass": "{who}: pass (bỏ lượt)",
    "cut": "{who} bombs (chặt) {victim}: {units} units",
    "new_round": "new round (vòng mới): {leader} to lead",
    "out": "{who} out of cards (về), place {place}",
    "instant_win": "{who}: instant win (tới trắng), {win}: {cards}",
    "declare_sam": "{who}: {term}",
    "decline_sam": "{who}: {term}",
    "sam_success": "{who}: {term}",
    "sam_blocked": "{who}: {term}",
    "cong": "{who}: {term}",
    "finish_on_two": "{who}: {term}",
    "forfeited": "{who}: {term}",
    "bao_mot_violation": "{who} did not play the highest single while a seat had one card left (báo 1)",
    "confirmed": "{who} confirmed (báo xong)",
    "discard": "{who} discard{s} {card}",
    "claim": "{who} claim{s} {card} (ăn): {meld}: {cards}",
    "turn_up": "{who} turn{s} up {card} from the stock (nọc), {stock} left",
    "dead": "nobody claims {card} (bài chết)",
    "draw": "hand drawn (hòa): the stock is down to {stock} cards",
    "quan": "{who} holds four {card} (quằn)",
}


class _Blank(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return ""


def _event_text(game: Any, e: dict[str, Any], you: int | None) -> str | None:
    """One event in words (markup), or None for bookkeeping the player does not need."""
    kind = str(e.get("type"))
    who = _seat_name(e.get("seat"), you)
    fields = _Blank({k: escape(str(v)) for k, v in e.items()})
    fields.update(who=who, s="" if who == "you" else "s", term=term(kind))
    for key in ("combo", "meld", "win"):
        if key in e:
            fields[key] = term(str(e[key]))
    for key in ("victim", "leader"):
        if key in e:
            fields[key] = _seat_name(e[key], you)
    if isinstance(e.get("card"), str):
        fields["card"] = _cards_markup(game, [e["card"]])
    if isinstance(e.get("cards"), (str, list)):
        fields["cards"] = _cards_markup(game, e["cards"])
    if kind == "win" and "score" in e:  # Tứ Sắc: the winning hand
        taken = f" on {fields['card']}" if e.get("card") else " with the dealt cards"
        return f"{who} win{fields['s']} (tới){taken}: {e['score']} lệnh; hand {_cards_markup(game, e.get('hand') or [])}"
    if kind in _EVENT_WORDS:
        return _EVENT_WORDS[kind].format_map(fields)
    if kind == "deal":
        return "cards dealt (chia bài)" + (f", hand {e['hand_number']}" if "hand_number" in e else "")
    if kind == "lead":
        must = e.get("must_include")
        return f"{who} lead{fields['s']}" + (f", with {_cards_markup(game, must)}" if must else "")
    if kind == "hand_end":
        winner = e.get("winner")
        return "hand over: " + ("nobody won" if winner is None else f"{_seat_name(winner, you)} won")
    if kind == "arranged":
        return f"{who} arranged" if e.get("seat") != you else None
    if kind == "reveal":
        return _reveal_text(game, e, you)
    if kind == "settle":
        return None
    rest = ", ".join(f"{term(k)} {fields[k]}" for k in e if k not in ("type", "seat"))
    return f"{who if 'seat' in e else ''} {term(kind)}{': ' + rest if rest else ''}".strip()


def _reveal_text(game: Any, e: dict[str, Any], you: int | None) -> str:
    lines = ["hands revealed (so bài):"]
    instants = e.get("instants") or []
    fouled = e.get("fouled") or []
    for seat, arr in enumerate(e.get("arrangements") or []):
        shown = "left the table" if arr is None else " | ".join(_cards_markup(game, h) for h in arr)
        if seat < len(instants) and instants[seat]:
            shown += f"  instant win: {term(instants[seat])}"
        elif seat < len(fouled) and fouled[seat]:
            shown += "  fouled (binh lủng)"
        lines.append(f"    {_seat_name(seat, you)}: {shown}")
    return "\n".join(lines)


def _show_table(game: Any, view: dict[str, Any], console: Console) -> None:
    """The public state the human needs: the table or offer, and each seat's card count."""
    counts = view.get("hand_counts")
    if counts:
        console.print("cards held: " + ", ".join(f"seat {s}: {c}" for s, c in enumerate(counts)))
    table = view.get("table")
    if isinstance(table, dict):
        console.print(
            f"to beat: {term(table['kind'])}: {_cards_markup(game, table['cards'])} (seat {table['seat']})"
        )
    offer = view.get("offer")
    if isinstance(offer, dict):
        source = "discarded by" if offer["source"] == "discard" else "turned up by"
        console.print(f"on offer: {_cards_markup(game, [offer['card']])} ({source} seat {offer['seat']})")
    for s, melds in enumerate(view.get("exposed") or []):
        if melds:
            shown = "; ".join(f"{term(m['meld'])}: {_cards_markup(game, m['cards'])}" for m in melds)
            console.print(f"seat {s} melds: {shown}")
    if view.get("fouled"):
        console.print(f"[yellow]{escape(str(view.get('warning')))}[/yellow]")
    hand = view.get("hand")
    if hand:
        console.print(f"[bold]your hand:[/bold] {_cards_markup(game, hand)}")


def _show_moves(game: Any, legal: list[dict[str, Any]], console: Console) -> None:
    for i, action in enumerate(legal, 1):
        console.print(f"  {i:>3}. {_action_text(game, action)}")
    if game.GAME == "maubinh":
        console.print("  (or type your own arrangement: back | middle | front)")
    elif any("card" in a or "cards" in a for a in legal):
        console.print(
            "  (or type the cards, e.g. " + ("Chốt trắng or PW" if game.GAME == "tusac" else "3s 3c") + ")"
        )


def _typed_action(game: Any, seat: int, answer: str, legal: list[dict[str, Any]]) -> dict[str, Any]:
    """A move typed out instead of picked by number: the legal action with these cards, a
    Mậu Binh arrangement ``back | middle | front``, or (for the engine to explain) a play of
    these cards. Bad card text raises InvalidCardError."""
    if game.GAME == "maubinh":
        from .maubinh import Arrangement

        back, middle, front = Arrangement.parse(answer).to_text()
        return {"type": "arrange", "seat": seat, "back": back, "middle": middle, "front": front}
    if game.GAME == "tusac":
        from .tusac import parse_cards as tusac_cards

        typed = sorted(str(c) for c in tusac_cards(answer))
        for action in legal:
            held = [action["card"]] if "card" in action else action.get("cards")
            if held is not None and sorted(held) == typed:
                return action
        if len(typed) == 1:
            return {"type": "discard", "seat": seat, "card": typed[0]}
        return {"type": "claim", "seat": seat, "cards": typed}
    mask = to_mask(answer)
    for action in legal:
        if "cards" in action and to_mask(action["cards"]) == mask:
            return action
    return {"type": "play", "seat": seat, "cards": cards_text(mask)}


def _refusal(error: Exception) -> str:
    return f"not a card: {error}" if isinstance(error, InvalidCardError) else str(error)


def _ask(console: Console, game: Any, seat: int, legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The human's choice among ``legal`` (or a typed move the engine accepts); None: quit."""
    view = game.view(seat)
    _show_table(game, view, console)
    _show_moves(game, legal, console)
    while True:
        answer = console.input("your move> ").strip()
        if answer.lower() in ("q", "quit", "exit"):
            return None
        if answer.lower() in ("h", "?", "help"):
            _show_table(game, view, console)
            _show_moves(game, legal, console)
            continue
        if answer.isdigit():
            if 1 <= int(answer) <= len(legal):
                return legal[int(answer) - 1]
            console.print(f"[yellow]{answer} is not a move: type a number from 1 to {len(legal)}[/yellow]")
            continue
        if not answer:
            continue
        try:
            action = _typed_action(game, seat, answer, legal)
            game.verify(action)
            return action
        except VncardsError as refused:
            console.print(
                f"[yellow]not allowed: {escape(_refusal(refused))}[/yellow] "
                f"(type a number from 1 to {len(legal)}, the cards, h to show the moves again, or q to quit)"
            )


def _play(args: argparse.Namespace, console: Console) -> int:
    game = new_game(args.game, args.players, parse_rule_options(args.rules), seed=args.seed)
    if not 0 <= args.seat < game.players:
        raise VncardsError(f"--seat must be 0..{game.players - 1}")
    you = args.seat
    bots = _bots_for(args.game, args.bots, game.players, args.seed, game.rules)
    console.print(
        f"[bold]{spec(args.game).title}[/bold], {game.players} seats: you are seat {you}; "
        "type a move number or the cards, h to show the moves again, q to quit."
    )
    shown = 0

    def show_events() -> None:
        nonlocal shown
        for e in game.events[shown:]:
            text = _event_text(game, e, you)
            if text:
                console.print(f"  {text}")
        shown = len(game.events)

    while not game.is_over:
        show_events()
        pending = game.pending_seats
        seat = you if you in pending else pending[0]
        legal = game.legal_actions(seat)
        if seat != you:
            game.apply(bots[seat].choose(game.view(seat), legal))
            continue
        if len(legal) == 1 and legal[0]["type"] == "pass":
            why = "nothing to claim" if game.GAME == "tusac" else "no play beats the table"
            console.print(f"  [dim]{why}: you pass (forced)[/dim]")
            game.apply(legal[0])
            continue
        choice = _ask(console, game, seat, legal)
        if choice is None:
            console.print("game abandoned")
            return 0
        try:
            game.apply(choice)
        except VncardsError as refused:
            console.print(f"[yellow]not allowed: {escape(_refusal(refused))}[/yellow]")
    show_events()
    _show_result(game, you, bots, console)
    return 0


def _show_result(game: Any, you: int, bots: list[Any], console: Console) -> None:
    result = getattr(game, "result", None)
    if isinstance(result, dict) and result.get("draw"):
        console.print("[bold]hand drawn (hòa)[/bold]: nobody wins, nobody pays")
    table = Table(title="Settlement")
    table.add_column("seat")
    table.add_column("player")
    table.add_column("units", justify="right")
    for s, units in enumerate(game.settlement or []):
        table.add_row(str(s), "you" if s == you else bots[s].name, f"{units:+d}")
    console.print(table)
    if game.ledger:
        console.print("[bold]Payments[/bold]")
        for item in game.ledger:
            console.print(f"  {escape(payment_text(item, you))}")


# -- simulate -----------------------------------------------------------------------------------


#: Per-bot event columns of the simulate summary (shown when they occurred in the run).
_NOTABLE = (
    "instant_win",
    "cut",
    "cong",
    "declare_sam",
    "sam_success",
    "sam_blocked",
    "finish_on_two",
    "win",
    "draw",
)


def _executor(args: argparse.Namespace) -> AbstractContextManager[Executor | None]:
    """Where ``simulate`` runs its batches: ``--ray [ADDRESS]`` a Ray cluster (a new local one
    of ``--jobs`` CPUs without an address), else local processes (None)."""
    if args.ray is None:
        return nullcontext()
    if args.ray and args.jobs is not None:
        raise VncardsError("--jobs sizes a local Ray cluster; a running cluster uses all its CPUs")
    from .ray_executor import RayExecutor

    return RayExecutor(args.ray or None, num_cpus=args.jobs)


def _simulate(args: argparse.Namespace, console: Console) -> int:
    if args.games < 1:
        raise VncardsError("--games must be at least 1")
    if args.jobs is not None and args.jobs < 1:
        raise VncardsError("--jobs must be at least 1")
    names = [n.strip() for n in args.bots.split(",") if n.strip()]
    if not names:
        raise VncardsError("--bots names no bot")
    if args.players is not None and len(names) > 1 and len(names) != args.players:
        raise VncardsError(
            f"--bots names {len(names)} bots for {args.players} seats: name one bot per seat, or a single bot for every seat"
        )
    start = time.perf_counter()
    with (
        _executor(args) as executor,
        Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            disable=args.json or not sys.stderr.isatty(),
        ) as bar,
    ):
        task = bar.add_task(f"{args.game}", total=args.games)
        summary = simulate(
            args.game,
            args.games,
            names,
            players=args.players,
            options=parse_rule_options(args.rules),
            seed=args.seed,
            jobs=args.jobs,
            duplicate=args.duplicate,
            progress=lambda n: bar.advance(task, n),
            executor=executor,
        )
    elapsed = time.perf_counter() - start
    positions = summary.positions
    if args.json:
        import json

        print(json.dumps({**summary.to_dict(), "seconds": round(elapsed, 3)}, ensure_ascii=False))
        return 0
    mode = ", duplicate deals" if args.duplicate else ""
    table = Table(
        title=f"{spec(args.game).title}: {summary.games} games{mode} in {elapsed:.1f}s "
        f"({summary.games / elapsed:,.0f} games/s)"
    )
    for col in ("#", "bot", "seats", "wins", "win rate (95% Wilson)", "units/game (95% CI)"):
        table.add_column(col, justify="left" if col == "bot" else "right")
    for pos, st in positions.items():
        low, high = st.win_wilson95
        table.add_row(
            str(pos),
            st.name,
            str(st.seats_played),
            str(st.wins),
            f"{st.win_rate:.1%} ({low:.1%}–{high:.1%})",
            f"{st.mean:+.2f} ({st.mean - st.ci95:+.2f} to {st.mean + st.ci95:+.2f})",
        )
    console.print(table)
    notable = [k for k in _NOTABLE if any(st.events.get(k) for st in positions.values())]
    if notable:
        per_bot = Table(title="Per bot (events of its seats)")
        per_bot.add_column("event")
        for pos, st in positions.items():
            per_bot.add_column(f"{pos}: {st.name}", justify="right")
        for k in notable:
            per_bot.add_row(term(k), *(str(st.events.get(k, 0)) for st in positions.values()))
        console.print(per_bot)
    events = Table(title="Events")
    events.add_column("event")
    events.add_column("count", justify="right")
    events.add_column("per game", justify="right")
    for kind, count in sorted(summary.events.items()):
        events.add_row(term(kind), str(count), f"{count / summary.games:.2f}")
    console.print(events)
    return 0


# -- arrange and rules --------------------------------------------------------------------------


def _arrange(args: argparse.Namespace, console: Console) -> int:
    mb = spec("maubinh").load()
    report = mb.arrangement_report(args.cards, objective=args.objective, alternatives=args.alternatives)
    console.print(escape(report))
    return 0


def _rules(args: argparse.Namespace, console: Console) -> int:
    schema = rules_schema(args.game)
    if args.json:
        import json

        print(json.dumps(schema, ensure_ascii=False))
        return 0

    def shown(v: Any) -> str:
        return str(v).lower() if isinstance(v, bool) else str(v)

    console.print(f"[bold]{spec(args.game).title}[/bold]: rule options (change one with --rules NAME=VALUE)")
    for o in schema:
        values = "a whole number" if o["values"] is None else " | ".join(shown(v) for v in o["values"])
        source = "from the seed documents" if o["source"] == "seed" else "house rule"
        console.print(
            f"\n[bold]{o['name']}[/bold] = {escape(shown(o['default']))}   ({escape(values)}; {source})"
        )
        console.print(f"    {escape(o['description'])}")
    return 0


COMMANDS = {
    "deal": _deal,
    "play": _play,
    "simulate": _simulate,
    "arrange": _arrange,
    "rules": _rules,
    "serve": _serve,
}


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the ``vncards`` command with ``argv`` (default: the process arguments); returns the exit code."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    real_out, real_err = sys.stdout, sys.stderr
    # --ascii anywhere (or a terminal that cannot show suits) turns every output to ASCII,
    # argparse's help and errors included.
    if "--ascii" in args_list or _cannot_show_suits(real_out):
        sys.stdout = _AsciiFile(real_out)
    if "--ascii" in args_list or _cannot_show_suits(real_err):
        sys.stderr = _AsciiFile(real_err)
    try:
        return _run(args_list)
    finally:
        sys.stdout, sys.stderr = real_out, real_err


def _run(argv: list[str]) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    console = Console(highlight=False, file=sys.stdout, soft_wrap=True)
    try:
        return COMMANDS[args.command](args, console)
    except (VncardsError, ValueError) as e:
        print(f"vncards {args.command}: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except EOFError:
        print(f"vncards {args.command}: error: input ended before the game did", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
