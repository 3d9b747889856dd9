"""Words for players: the engine's snake_case codes (combination kinds, hand categories,
payment reasons, events, melds) as English with the Vietnamese term.

The engine keeps short codes in its data (servers switch on them); anything shown to a person
goes through :func:`term`, which never shows an underscore.

>>> term("four_of_a_kind")
'four of a kind / tứ quý'
>>> term("thoi_2")
'thối 2 (a 2 left in hand)'
>>> term("back:straight_flush")
'back hand (chi 1, chi đầu), straight flush / thùng phá sảnh'
>>> term("some_new_code")
'some new code'
"""

from __future__ import annotations

__all__ = [
    "TERMS",
    "EVENT_WORDS",
    "MOVE_WORDS",
    "ROWS",
    "PAGE_WORDS",
    "GLOSSARY",
    "term",
    "glossary",
    "payment_text",
]

#: code -> words. One table for every game: the same code means the same thing everywhere.
TERMS: dict[str, str] = {
    # combinations (Tiến Lên, Sâm Lốc) and Mậu Binh hand categories
    "single": "single / lẻ",
    "pair": "pair / đôi",
    "triple": "triple / sám cô",
    "straight": "straight / sảnh",
    "pair_sequence": "consecutive pairs / đôi thông",
    "three_pair_sequence": "three consecutive pairs / 3 đôi thông",
    "four_pair_sequence": "four consecutive pairs / 4 đôi thông",
    "four_of_a_kind": "four of a kind / tứ quý",
    "high_card": "high card / mậu thầu",
    "two_pair": "two pairs / thú",
    "three_of_a_kind": "three of a kind / sám cô",
    "flush": "flush / thùng",
    "full_house": "full house / cù lũ",
    "straight_flush": "straight flush / thùng phá sảnh",
    # instant wins (tới trắng, mậu binh trắng)
    "dragon": "dragon straight / sảnh rồng",
    "dragon_flush": "dragon flush / rồng cuốn",
    "six_pair_sequence": "six consecutive pairs / 6 đôi thông",
    "five_pair_sequence": "five consecutive pairs / 5 đôi thông",
    "four_triples": "four triples / 4 sám",
    "three_triples": "three triples / 3 sám",
    "two_quads": "two four-of-a-kinds / 2 tứ quý",
    "twelve_same_suit": "twelve of one suit / 12 lá đồng chất",
    "same_colour": "one colour / đồng màu",
    "four_twos": "four 2s / tứ quý heo",
    "four_threes": "four 3s / tứ quý 3",
    "six_pairs": "six pairs / lục phé bôn",
    "five_pairs": "five pairs / 5 đôi",
    "five_pairs_triple": "five pairs and a triple / năm đôi một sám",
    "three_flushes": "three flushes / ba thùng",
    "three_straights": "three straights / ba sảnh",
    # payments
    "cards_left": "cards left in hand / tiền lá",
    "thoi_rac": "cards left in hand / thối rác",
    "thoi_2": "thối 2 (a 2 left in hand)",
    "thoi_black_two": "thối 2 (a black 2 left in hand)",
    "thoi_red_two": "thối 2 (a red 2 left in hand)",
    "thoi_tu_quy": "thối tứ quý (four of a kind left in hand)",
    "thoi_four_of_a_kind": "thối tứ quý (four of a kind left in hand)",
    "thoi_three_pair_sequence": "thối 3 đôi thông (left in hand)",
    "thoi_four_pair_sequence": "thối 4 đôi thông (left in hand)",
    "cong": "no card played / cóng",
    "ket_3_bich": "went out on the 3♠ / kết 3 bích",
    "chan_ket_3_bich": "blocked the 3♠ finish / chặn kết 3 bích",
    "instant_win": "instant win / tới trắng",
    "an_trang": "instant win / ăn trắng",
    "rank": "finishing place / về nhất, nhì, ba, bét",
    "chat": "bomb / chặt",
    "cut": "bomb / chặt",
    "sam": "Sâm made / báo Sâm thành công",
    "den_sam": "blocked Sâm / đền Sâm",
    "den_lang": "pays for the whole table / đền làng",
    "finish_on_two": "went out on a 2 / về 2",
    "toi": "win / tới",
    "back": "back hand (chi 1, chi đầu)",
    "middle": "middle hand (chi 2, chi giữa)",
    "front": "front hand (chi 3, chi cuối)",
    "scoop": "won all three hands / sập hầm",
    "scoop_all": "scooped every player / sập làng",
    "foul": "fouled arrangement / binh lủng",
    "instant": "instant win / mậu binh trắng",
    # events
    "deal": "deal / chia bài",
    "lead": "lead / đi đầu",
    "play": "play / đánh",
    "pass": "pass / bỏ lượt",
    "new_round": "new round / vòng mới",
    "out": "out of cards / về",
    "hand_end": "hand over / hết ván",
    "declare_sam": "declares Sâm / báo Sâm",
    "decline_sam": "no Sâm / không báo",
    "sam_success": "Sâm made / Sâm thành công",
    "sam_blocked": "Sâm blocked / chặn Sâm",
    "bao_mot": "one card left / báo 1",
    "bao_mot_single": "a single played while a seat has one card left (báo 1)",
    "bao_mot_violation": "did not play the highest card against one card left / báo 1",
    "one_card_seats": "seats with one card left",
    "violation": "lower than the highest single (báo 1 broken)",
    "arranged": "arranged / xếp bài",
    "confirmed": "confirmed / báo xong",
    "forfeited": "left the table (fouled) / bỏ cuộc",
    "reveal": "reveal / so bài",
    "settle": "settlement / tính tiền",
    "discard": "discard / đánh",
    "turn_up": "turned up from the stock / lật nọc",
    "dead": "nobody claimed / bài chết",
    "draw": "hand drawn / hòa",
    "quan": "four identical cards / quằn",
    "win": "win / tới",
    "claim": "claim / ăn",
    # Tứ Sắc melds
    "general": "a lone general / Tướng",
    "general_set": "general, advisor, elephant / Tướng Sĩ Tượng",
    "chariot_set": "chariot, cannon, horse / Xe Pháo Mã",
    "three_soldiers": "three soldiers / 3 Chốt",
    "four_soldiers": "four soldiers / 4 Chốt",
    "claimed_triple": "claimed triple / 3 con khui",
    "claimed_quad": "claimed four / khui",
    "quad": "four identical cards / quằn",
}


#: Events as sentences for a player (the ``vncards play`` log): ``{who}`` is the event's seat
#: ("you" or "seat 2"), ``{s}`` a verb's -s (empty after "you"), ``{card}``/``{cards}`` the
#: cards, ``{combo}``/``{meld}``/``{win}``/``{term}`` codes in words (:func:`term`), ``{victim}``
#: and ``{leader}`` seats, and any other field of the event as it is.
EVENT_WORDS: dict[str, str] = {
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
    "bao_mot": "{who}: one card left (báo 1)",
    "bao_mot_violation": "{who} did not play the highest single while a seat had one card left (báo 1)",
    "confirmed": "{who} confirmed (báo xong)",
    "discard": "{who} discard{s} {card}",
    "claim": "{who} claim{s} {card} (ăn): {meld}: {cards}",
    "turn_up": "{who} turn{s} up {card} from the stock (nọc), {stock} left",
    "dead": "nobody claims {card} (bài chết)",
    "draw": "hand drawn (hòa): the stock is down to {stock} cards",
    "quan": "{who} holds four {card} (quằn)",
}


#: What a player may type instead of a move's number, by action type; the first is the one a
#: prompt shows. Matched without case or accents (``bo`` is ``bỏ``); one word may name moves of
#: several games (``y``: declare Sâm, or confirm a Mậu Binh arrangement).
MOVE_WORDS: dict[str, tuple[str, ...]] = {
    "pass": ("p", "pass", "bỏ", "bỏ lượt", "qua", "bỏ qua", "skip"),
    "declare_sam": ("y", "yes", "có", "báo", "báo sâm"),
    "decline_sam": ("n", "no", "không", "không báo"),
    "confirm": ("y", "yes", "ok", "confirm", "báo xong"),
    "win": ("tới", "win"),
}

#: The three Mậu Binh hands, back to front, by their short names: ``(code, English, Vietnamese)``.
ROWS: tuple[tuple[str, str, str], ...] = (
    ("back", "back", "chi 1, chi đầu"),
    ("middle", "middle", "chi 2, chi giữa"),
    ("front", "front", "chi 3, chi cuối"),
)

#: The browser table's own phrases (buttons, notes, headings), ``(Vietnamese, English)``: the
#: page shows the Vietnamese with the English as a hint beside it.
PAGE_WORDS: dict[str, tuple[str, str]] = {
    # Mậu Binh: the arrangement and the end of a hand
    "fouled_now": ("Binh lủng!", "fouled: the back must beat the middle and the middle the front"),
    "confirm_fouled": (
        "Báo xong dù binh lủng?",
        "fouled: a fouled hand loses to every opponent; click again to confirm",
    ),
    "placing": (
        "Bấm một lá để xếp vào chi đang chọn",
        "click a card to place it in the marked hand; click a placed card to take it back",
    ),
    "by_opponent": ("Theo từng nhà", "by pair of players, from the first one's side"),
    "pair": ("Hai nhà", "players"),
    "bonuses": ("Thưởng, phạt", "bonuses"),
    "net": ("Cộng", "net"),
    "every_payment": ("Từng khoản", "every payment"),
    # Tứ Sắc: discarding in two steps, the winning hand
    "select_to_discard": ("Bấm một lá để chọn, rồi bấm Đánh", "click a card to select it, then discard it"),
    "discard_selected": ("Đánh lá đã chọn", "discard the selected card"),
    "winning_hand": ("Bài thắng", "the winning hand and its melds"),
    # the lobby
    "name_first": ("Nhập tên của bạn trước khi ngồi", "type your name before you sit"),
}

#: Each rules page's glossary, ``(Vietnamese, English)`` rows, keyed by game name (``cards``:
#: the words every 52-card game uses). The documentation's glossary tables are these rows.
GLOSSARY: dict[str, tuple[tuple[str, str], ...]] = {
    "cards": (
        ("bài, lá bài", "card"),
        ("số, chất", "rank, suit"),
        ("bích, chuồn (tép, nhép), rô, cơ", "spades, clubs, diamonds, hearts"),
        ("heo", 'a 2 (literally "pig")'),
        ("cược, lá", "the bet: one unit of money"),
        ("ván", "a hand (one deal played out)"),
        ("vòng", "a round of play inside a hand"),
        ("nhà", 'a player (literally "house")'),
        ("làng", "the whole table"),
        ("đền làng", "to pay for the whole table"),
        ("tới", "to win, to go out"),
        ("tới trắng, ăn trắng", "an instant win at the deal"),
    ),
    "tienlen": (
        ("Tiến Lên Miền Nam", 'Southern "go forward"'),
        ("rác", 'a single card (literally "rubbish")'),
        ("đôi", "pair"),
        ("sám, bộ ba", "triple"),
        ("sảnh", "straight"),
        ("sảnh rồng", "dragon: the straight 3 to A"),
        ("đôi thông", "pair sequence (consecutive pairs)"),
        ("tứ quý", "four of a kind"),
        ("heo, heo đen, heo đỏ", "a 2, a black 2, a red 2"),
        ("hàng", "bombs as a family"),
        ("chặt, chặt chồng", "to cut with a bomb, cuts on cuts"),
        ("bỏ lượt", "to pass"),
        ("vòng", "round"),
        ("hưởng sái", "the lead passing on when the round's last player has gone out"),
        ("tới, tới trắng", "to go out, an instant win"),
        ("thối", "a penalised item left in hand"),
        ("cóng", "having played no card when the hand ends"),
        ("kết 3 bích, chặn kết 3 bích", "going out on the 3♠; being caught holding only the 3♠"),
        ("nhất, nhì, ba, bét", "first, second, third, last"),
    ),
    "tienlen-north": (
        ("Tiến Lên Miền Bắc", "Northern Tiến Lên"),
        ("đồng màu", "same colour"),
        ("đồng chất", "same suit"),
        ("thối 2", "a 2 left in hand (or played to go out, under `penalized`)"),
        ("tứ quý", "four of a kind, the northern bomb"),
    ),
    "samloc": (
        ("Sâm Lốc", 'the game\'s name (from "sâm", a clean sweep)'),
        ("báo Sâm, hô Sâm", "to declare Sâm: to play out all ten cards unbeaten"),
        ("chặn Sâm, đền Sâm", "to block a Sâm; the declarer's payment when blocked"),
        ("phạt Sâm", "the penalty side of a Sâm"),
        ("báo 1", '"one card left": the duty to play one\'s highest single'),
        ("đền làng", "to pay for the whole table"),
        ("đồng hoa", "all ten cards of one colour"),
        ("3 sám, 5 đôi", "three triples, five pairs"),
        ("thối rác, thối 2, thối tứ quý", "a plain card, a 2, a tứ quý left in hand"),
        ("heo hàng", "2s and bombs (what cóng pays extra for)"),
        ("ăn trắng", "to win at the deal"),
        ("cóng", "having played no card when the hand ends"),
    ),
    "maubinh": (
        ("Mậu Binh, binh xập xám", 'the game ("thirteen-card arrangement")'),
        ("chi", "a hand of the arrangement"),
        ("chi 1, chi đầu", "the back: five cards, the strongest"),
        ("chi 2, chi giữa", "the middle: five cards"),
        ("chi 3, chi cuối", "the front: three cards, the weakest"),
        ("mậu thầu", "high card"),
        ("thú", "two pair"),
        ("sám cô", "three of a kind"),
        ("cù lũ", "full house"),
        ("thùng, sảnh, thùng phá sảnh", "flush, straight, straight flush"),
        ("binh lủng, lủng", "a fouled arrangement"),
        ("mậu binh trắng", "an instant win"),
        ("rồng cuốn, sảnh rồng", "dragon flush, dragon (2 through A)"),
        ("lục phé bôn", "six pairs and a single"),
        ("năm đôi một sám", "five pairs and a triple"),
        ("ba thùng, ba sảnh", "three flushes, three straights"),
        ("sập hầm, sập làng", "scooping one opponent, scooping everyone"),
        ("chia gà", "splitting a tie"),
    ),
    "tusac": (
        ("Tứ Sắc", '"four colours", the game'),
        ("Tướng, Sĩ, Tượng", "general, advisor, elephant"),
        ("Xe, Pháo, Mã, Chốt", "chariot, cannon, horse, soldier"),
        ("vàng, đỏ, xanh, trắng", "yellow, red, green, white"),
        ("cái, người cầm cái", "the dealer"),
        ("nọc", "the stock"),
        ("tỳ", "the dealer's opening discard"),
        ("ăn", 'to claim (literally "eat") a card'),
        ("rác", "a card in no meld"),
        ("đôi, khạp, quằn", "pair, concealed triple, concealed quad"),
        ("3 con khui, 4 con khui, khui", "claimed triple, claimed quad, to claim onto a khạp"),
        ("lệnh", "points"),
        ("tới", "winning, and its 3-lệnh bonus"),
        ("bài bụng", 'the "belly hand" (a doubled Xe–Pháo–Mã piece)'),
        ("tới chẵn", "an even finish, against the rules"),
        ("đền làng", "paying for the whole table"),
        ("hòa", "a drawn hand"),
    ),
}

#: Which glossaries a game's players need, its own first.
_GLOSSARIES = {
    "tienlen": ("tienlen", "cards"),
    "tienlen-north": ("tienlen-north", "tienlen", "cards"),
    "samloc": ("samloc", "tienlen", "cards"),
    "maubinh": ("maubinh", "cards"),
    "tusac": ("tusac",),
}


def glossary(game: str) -> list[tuple[str, str]]:
    """The Vietnamese words a player of ``game`` meets, its own first, each once.

    >>> glossary("tusac")[1]
    ('Tướng, Sĩ, Tượng', 'general, advisor, elephant')
    """
    out: dict[str, str] = {}
    for key in _GLOSSARIES.get(game, (game,)):
        for vietnamese, english in GLOSSARY.get(key, ()):
            out.setdefault(vietnamese, english)
    return list(out.items())


def term(code: str) -> str:
    """Words for an engine code; ``"position:category"`` and ``"instant:kind"`` compound
    codes read as both parts; an unknown code loses its underscores."""
    if code in TERMS:
        return TERMS[code]
    head, sep, tail = code.partition(":")
    if sep:
        return f"{term(head)}, {term(tail)}"
    return code.replace("_", " ")


def payment_text(entry: dict[str, object], you: int | None = None) -> str:
    """One ledger entry in words: ``seat 1 pays seat 0: thối 2 (a 2 left in hand): 15``."""

    def who(seat: object) -> str:
        return "you" if seat == you else f"seat {seat}"

    payer = who(entry["from"])
    verb = "pay" if payer == "you" else "pays"
    return f"{payer} {verb} {who(entry['to'])}: {term(str(entry['reason']))}: {entry['units']}"
