"""Words for players: the engine's snake_case codes (combination kinds, hand categories,
payment reasons, events, melds) as English with the Vietnamese term.

The engine keeps short codes in its data (servers switch on them); anything shown to a person
goes through :func:`term`, which never shows an underscore.

>>> term("four_of_a_kind")
'four of a kind / tứ quý'
>>> term("thoi_2")
'thối 2 (a 2 left in hand)'
>>> term("back:straight_flush")
'back hand (chi đầu), straight flush / thùng phá sảnh'
>>> term("some_new_code")
'some new code'
"""

from __future__ import annotations

__all__ = ["TERMS", "EVENT_WORDS", "term", "payment_text"]

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
    "back": "back hand (chi đầu)",
    "middle": "middle hand (chi giữa)",
    "front": "front hand (chi cuối)",
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
    "bao_mot_violation": "did not play the highest card against one card left / báo 1",
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
    "bao_mot_violation": "{who} did not play the highest single while a seat had one card left (báo 1)",
    "confirmed": "{who} confirmed (báo xong)",
    "discard": "{who} discard{s} {card}",
    "claim": "{who} claim{s} {card} (ăn): {meld}: {cards}",
    "turn_up": "{who} turn{s} up {card} from the stock (nọc), {stock} left",
    "dead": "nobody claims {card} (bài chết)",
    "draw": "hand drawn (hòa): the stock is down to {stock} cards",
    "quan": "{who} holds four {card} (quằn)",
}


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
