# Type stubs for the Rust extension `vncards._core`; checked by `python -m mypy.stubtest`.
# One section per Rust binding file in src/python/; keep each game's names in its own section.

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Literal, TypeVar, final, overload

import numpy as np
import numpy.typing as npt

_T = TypeVar("_T")

__version__: str

# ---- guard (src/python/guard.rs) ------------------------------------------------------------

def debug_panic(message: str, in_threads: bool = False) -> None: ...

# ---- cards (src/python/cards.rs) -------------------------------------------------------------

@final
class Card:
    def __new__(cls, card: str | int | Card) -> Card: ...
    @property
    def rank(self) -> str: ...
    @property
    def suit(self) -> str: ...
    @property
    def index(self) -> int: ...
    @property
    def rank_index(self) -> int: ...
    @property
    def suit_index(self) -> int: ...
    @property
    def ascii(self) -> str: ...
    @property
    def is_red(self) -> bool: ...
    def __lt__(self, value: Card, /) -> bool: ...
    def __le__(self, value: Card, /) -> bool: ...
    def __gt__(self, value: Card, /) -> bool: ...
    def __ge__(self, value: Card, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[type[Card], tuple[int]]: ...

def parse_card(text: str) -> Card: ...
def parse_cards(text: str) -> list[Card]: ...
def cards_to_mask(cards: str | Card | Iterable[str | Card]) -> int: ...
def mask_to_cards(mask: int) -> list[Card]: ...
def mask_to_text(mask: int, ascii: bool = False) -> str: ...
def encode_card_rows(groups: Iterable[Any], deck: str = "52") -> npt.NDArray[np.uint8]: ...
def encode_shedding_view(
    groups: list[Any],
    counts: list[int],
    passed: int,
    out: int,
    to_act: int,
    owner: int,
    playing: bool | None = None,
) -> npt.NDArray[np.float32]: ...
def encode_maubinh_view(
    groups: list[Any], players: int, arranged: int, confirmed: int, pending: int, fouled: bool
) -> npt.NDArray[np.float32]: ...
def encode_tusac_view(
    groups: list[Any], counts: list[int], pending: int, offered_by: int, stock: int, claim: bool
) -> npt.NDArray[np.float32]: ...

# ---- rng (src/python/rng.rs) -----------------------------------------------------------------

@final
class Rng:
    def __new__(cls, seed: int | bytes | None = None) -> Rng: ...
    @staticmethod
    def restore(key: bytes, position: int) -> Rng: ...
    @property
    def key(self) -> bytes: ...
    @property
    def position(self) -> int: ...
    def below(self, n: int) -> int: ...
    def permutation(self, n: int) -> list[int]: ...
    def choice(self, seq: Sequence[_T]) -> _T: ...
    def __reduce__(self) -> tuple[type[Rng], tuple[bytes], int]: ...
    def __setstate__(self, position: int) -> None: ...

# ---- shedding / tienlen / samloc (src/python/shedding.rs) ------------------------------------

_CardsArg = int | str | Card | "SheddingCombo" | Iterable[str | Card]

@final
class SheddingRules:
    def __new__(
        cls,
        *,
        suit_order: bool,
        same_colour_pairs: bool,
        same_suit_straights: bool,
        single_follows_suit: bool,
        triple_follows_suits: bool,
        pair_sequences: bool,
        min_straight: int,
        max_straight: int,
        low_straights: bool,
        quad_beats_pair_of_twos: bool,
        hand_size: int,
        min_players: int,
        max_players: int,
    ) -> SheddingRules: ...
    @staticmethod
    def tienlen_south() -> SheddingRules: ...
    @staticmethod
    def tienlen_north() -> SheddingRules: ...
    @property
    def hand_size(self) -> int: ...
    @property
    def min_players(self) -> int: ...
    @property
    def max_players(self) -> int: ...
    def __hash__(self) -> int: ...

@final
class SheddingCombo:
    @property
    def kind(self) -> str: ...
    @property
    def cards(self) -> tuple[Card, ...]: ...
    @property
    def mask(self) -> int: ...
    @property
    def top(self) -> int: ...
    @property
    def top_card(self) -> Card: ...
    @property
    def is_bomb(self) -> bool: ...
    @property
    def is_twos(self) -> bool: ...
    def __len__(self) -> int: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[Any, tuple[int, int, int]]: ...

@final
class PlayList(Sequence[SheddingCombo]):
    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, key: int, /) -> SheddingCombo: ...
    @overload
    def __getitem__(self, key: slice, /) -> list[SheddingCombo]: ...
    def __contains__(self, key: object, /) -> bool: ...
    def __eq__(self, value: object, /) -> bool: ...
    @property
    def masks(self) -> list[int]: ...
    def __reduce__(self) -> tuple[Any, tuple[list[SheddingCombo]]]: ...

def shedding_combo_from_parts(mask: int, kind: int, top: int) -> SheddingCombo: ...
def shedding_classify(cards: _CardsArg, rules: SheddingRules) -> SheddingCombo | None: ...
def shedding_beats(play: _CardsArg, table: _CardsArg, rules: SheddingRules) -> bool: ...
def shedding_is_cut(play: SheddingCombo, table: SheddingCombo, rules: SheddingRules) -> bool: ...
def shedding_legal_plays(
    hand: _CardsArg,
    table: _CardsArg | None,
    rules: SheddingRules,
    must_include: int = 0,
    filter: str = "all",
) -> PlayList: ...
def shedding_legal_play_masks(
    hand: _CardsArg,
    table: _CardsArg | None,
    rules: SheddingRules,
    must_include: int = 0,
    filter: str = "all",
) -> npt.NDArray[np.uint64]: ...
def shedding_has_play(
    hand: int, table: SheddingCombo | None, rules: SheddingRules, filter: str = "all"
) -> bool: ...
def shedding_check_play(
    hand: int,
    cards: _CardsArg,
    table: SheddingCombo | None,
    rules: SheddingRules,
    must_include: int = 0,
) -> SheddingCombo: ...
def shedding_legal_plays_loop(
    hand: _CardsArg, table: _CardsArg | None, rules: SheddingRules, iterations: int
) -> int: ...
def shedding_count_leads_batch(hands: list[int], rules: SheddingRules) -> list[int]: ...
def tienlen_instant_win(
    hand: _CardsArg,
    rules: SheddingRules,
    same_colour: bool = False,
    first_hand_extras: bool = False,
) -> tuple[str, int, int] | None: ...

# ---- the shedding flow (src/python/flow.rs) ---------------------------------------------------

SAMLOC_SAM_UNITS: int
SAMLOC_CONG_UNITS: int
SAMLOC_TWO_UNITS: int

_PenaltyUnits = tuple[int, int, int, int, int]
_Effects = list[tuple[Any, ...]]
_Draw = Any  # an Rng, or an object with its permutation(n) and below(n)

@final
class SheddingFlowRules:
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...

def tienlen_flow_rules(
    combos: SheddingRules,
    *,
    ending: str,
    scoring: str,
    first_lead: str,
    bomb_after_pass: str,
    ket_3_bich: bool,
    finish_on_two: str,
    thoi_to: str,
    same_colour_instant_win: bool,
    first_hand_extras: bool,
    penalties: _PenaltyUnits,
) -> SheddingFlowRules: ...
def samloc_flow_rules(
    combos: SheddingRules,
    *,
    sam_block_pays: str,
    bao_mot_scope: str,
    bao_mot_mode: str,
    bao_mot_den: str,
    finish_on_two: str,
    sam_may_finish_on_two: bool,
) -> SheddingFlowRules: ...

@final
class SheddingFlow:
    def __new__(cls, rules: SheddingFlowRules, players: int) -> SheddingFlow: ...
    def start(self, rng: _Draw, leader: int | None = None, hand_number: int = 1) -> _Effects: ...
    def next_hand(self, rng: _Draw) -> _Effects: ...
    def check_next_hand(self) -> None: ...
    def check_turn(self, seat: int) -> None: ...
    def check_play(self, seat: int, cards: _CardsArg) -> SheddingCombo: ...
    def play(self, seat: int, cards: int) -> _Effects: ...
    def check_pass(self, seat: int) -> None: ...
    def pass_turn(self, seat: int) -> _Effects: ...
    def check_declaration(self, seat: int) -> None: ...
    def declare_sam(self, seat: int, rng: _Draw) -> _Effects: ...
    def decline_sam(self, seat: int, rng: _Draw) -> _Effects: ...
    def legal_plays(self, seat: int) -> PlayList: ...
    @property
    def after_pass_filter(self) -> str | None: ...
    @property
    def players(self) -> int: ...
    @property
    def hand_number(self) -> int: ...
    @property
    def winner(self) -> int | None: ...
    @property
    def next_first(self) -> bool: ...
    @property
    def first_rule(self) -> bool: ...
    @property
    def hands(self) -> list[int]: ...
    @hands.setter
    def hands(self, value: list[int]) -> None: ...
    def hand(self, seat: int) -> int: ...
    @property
    def played(self) -> list[int]: ...
    @property
    def dealt(self) -> int: ...
    @property
    def turn(self) -> int | None: ...
    @property
    def table(self) -> SheddingCombo | None: ...
    @property
    def table_seat(self) -> int: ...
    @property
    def passed(self) -> int: ...
    @property
    def round_seats(self) -> int: ...
    @property
    def must(self) -> int: ...
    @property
    def lead_card(self) -> int: ...
    @property
    def out(self) -> int: ...
    @property
    def order(self) -> list[int]: ...
    @property
    def cong(self) -> list[int]: ...
    @property
    def chain(self) -> list[int] | None: ...
    @property
    def over(self) -> bool: ...
    @property
    def hand_totals(self) -> list[int]: ...
    @property
    def nominal(self) -> int: ...
    @property
    def sam_phase(self) -> bool: ...
    @property
    def declined(self) -> int: ...
    @property
    def declarer(self) -> int | None: ...
    @property
    def violations(self) -> list[tuple[int, int]]: ...
    def set_state(
        self,
        *,
        hand_number: int,
        first_rule: bool,
        hands: list[int],
        played: list[int],
        dealt: int,
        turn: int | None,
        table: int | None,
        table_seat: int,
        passed: int,
        round_seats: int,
        must: int,
        out: int,
        order: list[int],
        cong: list[int],
        chain: tuple[int, int, int] | None,
        over: bool,
        winner: int | None,
        next_first: bool,
        hand_totals: list[int],
    ) -> None: ...
    def set_sam(
        self,
        nominal: int,
        phase: bool,
        declined: int,
        declarer: int | None,
        violations: list[tuple[int, int]],
    ) -> None: ...
    def __copy__(self) -> SheddingFlow: ...
    def __deepcopy__(self, memo: dict[int, Any], /) -> SheddingFlow: ...

def shedding_penalty_items(
    hand: int, table: _PenaltyUnits, card_units: int
) -> list[tuple[str, int, int]]: ...
def shedding_cut_value(cards: int, kind: str, table: _PenaltyUnits) -> int: ...
def shedding_twos_value(cards: int, table: _PenaltyUnits) -> int: ...

# ---- the Tứ Sắc flow (src/python/tusac_flow.rs) ------------------------------------------------

_Answer = tuple[Any, ...]

@final
class TuSacFlowRules:
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...

def tusac_flow_rules(
    *,
    triple_optional: bool,
    forbidden_triple: str,
    discard_rule: str,
    bung_rule: str,
    odd_total: str,
    set_lenh: int,
    tuong_as_ty: bool,
    draw_at_stock: int,
    payment: str,
    claim_window: str,
) -> TuSacFlowRules: ...

@final
class TuSacFlow:
    def __new__(cls, rules: TuSacFlowRules, players: int, dealer: int) -> TuSacFlow: ...
    def start(self, rng: _Draw) -> _Effects: ...
    def act(self, seat: int, action: tuple[Any, ...]) -> tuple[_Effects, tuple[str, list[int]] | None]: ...
    def pending(self) -> list[int]: ...
    def discardable(self, seat: int) -> list[int]: ...
    def greedy(self, seat: int) -> int | None: ...
    def opening_win(self) -> int | None: ...
    def answers(self, seat: int) -> list[_Answer]: ...
    def answers_offer(self, seat: int) -> bool: ...
    def compute_options(self, keep: list[int] = ...) -> None: ...
    def winning_totals(self, winner: int) -> list[int]: ...
    def payments(self, winner: int, score: int, covering: int | None) -> list[tuple[int, int, int, str]]: ...
    def exposed_lenh(self, seat: int) -> int: ...
    @property
    def players(self) -> int: ...
    @property
    def dealer(self) -> int: ...
    @property
    def phase(self) -> str: ...
    @property
    def hands(self) -> list[int]: ...
    @hands.setter
    def hands(self, value: list[int]) -> None: ...
    @property
    def exposed(self) -> list[list[tuple[str, list[int]]]]: ...
    @property
    def stock(self) -> list[int]: ...
    @property
    def dead(self) -> list[int]: ...
    @property
    def offer(self) -> tuple[int, str, int, bool] | None: ...
    @property
    def entitled(self) -> int | None: ...
    @property
    def to_discard(self) -> int | None: ...
    @property
    def opening(self) -> bool: ...
    @property
    def responses(self) -> list[_Answer | None]: ...
    @property
    def result(self) -> tuple[int | None, int, bool, int | None, int] | None: ...
    @property
    def totals(self) -> list[int]: ...
    def set_state(
        self,
        *,
        dealer: int,
        phase: str,
        hands: list[int],
        exposed: list[list[tuple[str, list[int]]]],
        stock: list[int],
        dead: list[int],
        offer: tuple[int, str, int, bool] | None,
        to_discard: int | None,
        opening: bool,
        responses: list[_Answer | None],
        result: tuple[int | None, int, bool, int | None, int] | None,
        totals: list[int],
    ) -> None: ...
    def __copy__(self) -> TuSacFlow: ...
    def __deepcopy__(self, memo: dict[int, Any], /) -> TuSacFlow: ...

# ---- the batched environment (src/python/vector.rs) ------------------------------------------

@final
class VectorCore:
    @staticmethod
    def shedding(rules: SheddingFlowRules, players: int, num_envs: int, max_cycles: int) -> VectorCore: ...
    @staticmethod
    def tusac(rules: TuSacFlowRules, players: int, num_envs: int, max_cycles: int) -> VectorCore: ...
    @staticmethod
    def maubinh(
        rules: MauBinhRules,
        players: int,
        num_envs: int,
        max_cycles: int,
    ) -> VectorCore: ...
    @property
    def num_envs(self) -> int: ...
    @property
    def players(self) -> int: ...
    @property
    def observation_size(self) -> int: ...
    @property
    def mask_bytes(self) -> int: ...
    @property
    def arrays(self) -> list[Any]: ...
    def reseed(self, samplers: list[int]) -> None: ...
    def add_seeds(self, i: int, seeds: npt.NDArray[np.int64]) -> None: ...
    def seeds_low(self, low: int) -> list[int]: ...
    def reset(self) -> None: ...
    def step(self, actions: npt.NDArray[np.int64]) -> None: ...
    def finish_resets(self) -> None: ...
    def sample(self) -> npt.NDArray[np.int64]: ...
    def hand(self, i: int) -> tuple[int, list[int]]: ...
    @property
    def table_bytes(self) -> int: ...

# ---- maubinh (src/python/maubinh.rs) ---------------------------------------------------------

MAUBINH_CATEGORIES: list[str]
MAUBINH_INSTANT_WINS: list[tuple[str, int]]

_MbSolution = tuple[int, int, int, float, str | None]

@final
class MauBinhRules:
    """The Mậu Binh options as the core reads them, checked once: what
    :attr:`vncards.maubinh.Rules.core` keeps beside the rules object, and what every
    ``maubinh_*`` function, :func:`maubinh_search` and :meth:`VectorCore.maubinh` take.
    Immutable, keyword-only, the defaults those of :class:`vncards.maubinh.Rules`.

    >>> MauBinhRules(scoring="4-2") == MauBinhRules(scoring="4-2") != MauBinhRules()
    True
    """

    def __new__(
        cls,
        *,
        wheel: str = "second",
        scoop: bool = False,
        scoop_all: bool = False,
        back_straight_flush_units: int = 1,
        scoring: str = "units",
    ) -> MauBinhRules: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...

def maubinh_hand_rank(cards: str | Card | Iterable[str | Card], rules: MauBinhRules) -> int: ...
def maubinh_hand_category(cards: str | Card | Iterable[str | Card], rules: MauBinhRules) -> str: ...
def maubinh_hand_ranks(hands: Any, rules: MauBinhRules) -> Any: ...
def maubinh_compare_hands(
    a: str | Card | Iterable[str | Card], b: str | Card | Iterable[str | Card], rules: MauBinhRules
) -> int: ...
def maubinh_is_fouled(back: int, middle: int, front: int, rules: MauBinhRules) -> bool: ...
def maubinh_instant_win(cards: str | Card | Iterable[str | Card], rules: MauBinhRules) -> str | None: ...
def maubinh_best_arrangement(
    cards: str | Card | Iterable[str | Card],
    rules: MauBinhRules,
    objective: str,
) -> _MbSolution: ...
def maubinh_best_arrangements(
    hands: Any,
    rules: MauBinhRules,
    objective: str,
) -> list[_MbSolution]: ...
def maubinh_ranked_arrangements(
    cards: str | Card | Iterable[str | Card],
    rules: MauBinhRules,
    objective: str,
    count: int,
) -> list[tuple[int, int, int, float]]: ...
def maubinh_ranked_candidates(
    cards: str | Card | Iterable[str | Card],
    rules: MauBinhRules,
    count: int,
) -> list[tuple[tuple[int, int, int], float, float, bool]]: ...
def maubinh_expected_value(
    back: int,
    middle: int,
    front: int,
    rules: MauBinhRules,
    objective: str,
) -> float: ...
def maubinh_position_tables(rules: MauBinhRules, objective: str, hand: int) -> dict[str, Any]: ...
def maubinh_removal_entries(
    rules: MauBinhRules,
    objective: str,
    hand: int,
    classes: tuple[int, int, int],
) -> list[list[float]]: ...
def maubinh_settle(
    seats: Sequence[tuple[int, int, int] | None],
    rules: MauBinhRules,
) -> tuple[list[int], list[tuple[int, int, int, str]], list[str | None], list[bool]]: ...
def maubinh_position_histograms(
    deals: int,
    seed: int,
    objective: str,
    histograms: bytes | None = None,
    start: int = 0,
    scoring: str = "units",
    split: bool = False,
    scheme: int = 1,
) -> bytes: ...
def maubinh_tables_header(objective: str = "expected", scoring: str = "units") -> str: ...
def maubinh_joint_cells(
    deals: int, seed: int, start: int = 0, cells: bytes | None = None, play: str = "tables"
) -> bytes: ...
def maubinh_joint_file() -> bytes: ...
def maubinh_tables_file(objective: str = "expected", scoring: str = "units") -> bytes: ...
def maubinh_tables_recode(tables: bytes, *, compact: bool) -> bytes: ...
def maubinh_head_to_head(
    deals: int,
    seed: int,
    players: int,
    a: str,
    b: str,
    rules: MauBinhRules,
) -> tuple[int, int]: ...
def maubinh_exploitability(
    strategy: str | Callable[[int], tuple[int, int, int]],
    players: int,
    deals: int,
    samples: int,
    held_out: int,
    seed: int,
    deck: int,
    rules: MauBinhRules,
    histograms: bytes | None = None,
) -> tuple[
    float,
    float,
    float,
    float,
    float,
    int,
    float,
    str,
    list[tuple[int, int, int, tuple[int, int, int], bool, tuple[int, int, int], bool, float]],
]: ...

# ---- tusac (src/python/tusac.rs) -------------------------------------------------------------

# ---- samloc (src/python/samloc.rs); SheddingRules / SheddingCombo come from the shedding section

def samloc_rules(*, low_straights: bool = False, quad_beats_pair_of_twos: bool = False) -> SheddingRules: ...
def samloc_legal_plays(
    hand: Any, table: Any | None, rules: SheddingRules, bao_mot: bool = False, must_include: int = 0
) -> PlayList: ...
def samloc_has_play(
    hand: int, table: SheddingCombo | None, rules: SheddingRules, bao_mot: bool = False
) -> bool: ...
def samloc_breaks_bao_mot(hand: int, play: SheddingCombo) -> bool: ...
def samloc_instant_win(hand: Any, rules: SheddingRules) -> tuple[str, int] | None: ...
def samloc_instant_winner(
    hands: Sequence[int], leader: int, rules: SheddingRules
) -> tuple[int, str, int] | None: ...
def samloc_legal_plays_loop(
    hand: Any, table: Any | None, rules: SheddingRules, iterations: int, bao_mot: bool = False
) -> int: ...

@final
class TuSacCard:
    def __new__(cls, card: str | int | TuSacCard) -> TuSacCard: ...
    @property
    def index(self) -> int: ...
    @property
    def piece(self) -> str: ...
    @property
    def colour(self) -> str: ...
    @property
    def name(self) -> str: ...
    def __lt__(self, value: TuSacCard, /) -> bool: ...
    def __le__(self, value: TuSacCard, /) -> bool: ...
    def __gt__(self, value: TuSacCard, /) -> bool: ...
    def __ge__(self, value: TuSacCard, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[type[TuSacCard], tuple[int]]: ...

_TuSacCards = str | TuSacCard | Iterable[str | TuSacCard]

def tusac_parse_cards(cards: _TuSacCards) -> list[TuSacCard]: ...
def tusac_pack(cards: _TuSacCards) -> int: ...
def tusac_unpack(packed: int) -> list[TuSacCard]: ...
def tusac_min_rac(cards: _TuSacCards) -> int: ...
def tusac_min_rac_packed(packed: int) -> int: ...
def tusac_win_total(
    hidden: _TuSacCards,
    exposed_lenh: int,
    offer: str | int | TuSacCard | None,
    odd_total: str,
    set_lenh: int,
) -> int | None: ...
def tusac_win_total_packed(
    packed: int, exposed_lenh: int, offer: int | None, odd_total: str, set_lenh: int
) -> int | None: ...
def tusac_complete_lenh(
    hidden: _TuSacCards, offer: str | int | TuSacCard | None = None, set_lenh: int = 1
) -> tuple[int | None, int | None]: ...
def tusac_splits(cards_in: _TuSacCards, limit: int) -> list[list[tuple[str, list[TuSacCard]]]]: ...
def tusac_classify(cards_in: _TuSacCards) -> str | None: ...
def tusac_legal_claims(
    packed: int,
    offer: int,
    entitled: bool,
    triple_optional: bool,
    bung: str,
    forbidden_no_claim: bool = False,
) -> list[tuple[str, list[int]]]: ...
def tusac_check_claim(
    packed: int, offer: int, meld: str, used: list[int], entitled: bool, bung: str
) -> None: ...
def tusac_rac_kinds(packed: int) -> list[int]: ...

# ---- rollout (src/python/rollout.rs): the shedding bots' rollouts ----------------------------
@final
class RolloutSetup:
    def __new__(
        cls,
        rules: SheddingRules,
        players: int,
        *,
        after_pass: str | None = None,
        bao_mot: bool = False,
        finish_on_two: bool = True,
        card: int = 1,
        cong: int = 26,
        black_two: int = 3,
        red_two: int = 6,
        quad: int = 12,
        places: Sequence[int] = ...,
        sam: int = 0,
        sam_block_each: bool = False,
        sam_may_finish_on_two: bool = False,
        bao_previous_seat_only: bool = False,
        bao_penalize: bool = False,
        bao_den_cards: bool = True,
    ) -> RolloutSetup: ...
    @property
    def players(self) -> int: ...

@final
class RolloutPosition:
    """A seat's position in a shedding hand as the rollouts and the searches read it (the
    fields of :class:`vncards.bots.shedding.SheddingView`), built once per decision and checked
    against the table's :class:`RolloutSetup` when read. Card fields are masks, seat sets bit
    sets; immutable, keyword-only.

    >>> p = RolloutPosition(me=0, hand=0b11, unseen=0b1100, counts=[2, 2])
    >>> (p.me, p.hand, p.table, p.sam)
    (0, 3, None, None)
    """

    def __new__(
        cls,
        *,
        me: int,
        hand: int,
        unseen: int,
        counts: Sequence[int],
        played_any: int = 0,
        table: int | None = None,
        table_seat: int = 0,
        passed: int = 0,
        out: int = 0,
        must: int = 0,
        sam: int | None = None,
        played: Sequence[int] = ...,
    ) -> RolloutPosition: ...
    @property
    def me(self) -> int: ...
    @property
    def hand(self) -> int: ...
    @property
    def unseen(self) -> int: ...
    @property
    def counts(self) -> list[int]: ...
    @property
    def played_any(self) -> int: ...
    @property
    def table(self) -> int | None: ...
    @property
    def table_seat(self) -> int: ...
    @property
    def passed(self) -> int: ...
    @property
    def out(self) -> int: ...
    @property
    def must(self) -> int: ...
    @property
    def sam(self) -> int | None: ...
    @property
    def played(self) -> list[int]: ...

def rollout_evaluate(
    setup: RolloutSetup,
    position: RolloutPosition,
    *,
    candidates: Sequence[int | None],
    rollouts: int,
    seed: int,
) -> list[float]: ...
def rollout_sam_success(
    setup: RolloutSetup,
    *,
    me: int,
    hand: int,
    unseen: int,
    counts: Sequence[int],
    samples: int,
    seed: int,
) -> float: ...
def rollout_greedy_choice(
    setup: RolloutSetup,
    hand: int,
    plays: Sequence[int],
    table: int | None,
    min_other: int,
    can_pass: bool,
) -> int | None: ...

# ---- search (src/python/search.rs): the search bots --------------------------------------------
#: (best, means, samples, rollouts)
_SearchResult = tuple[int, list[float], list[int], int]

def search_shedding(
    setup: RolloutSetup,
    position: RolloutPosition,
    *,
    candidates: Sequence[int | None],
    seed: int,
    rollouts: int | None = None,
    think_ms: float | None = None,
    violators: Sequence[tuple[int, int]] = ...,
    observations: Sequence[tuple[int, int | None, int | None, int, int]] = ...,
    known: Sequence[int] | None = None,
    tree: Literal["every_seat", "own_seat"] | None = None,
    policy: PolicyNet | None = None,
    policy_rollouts: bool = False,
    prior: float = 0.0,
    policy_top: int | None = None,
    greedy_seats: Sequence[int] = ...,
    chain: int = 0,
) -> _SearchResult: ...
def shedding_policy_scores(
    setup: RolloutSetup,
    position: RolloutPosition,
    *,
    candidates: Sequence[int | None],
    policy: PolicyNet,
) -> list[float]: ...
def shedding_value(
    setup: RolloutSetup,
    *,
    me: int,
    hand: int,
    unseen: int,
    counts: Sequence[int],
    turn: int,
    rollouts: int,
    seed: int,
    known: Sequence[int] | None = None,
) -> float: ...
def sam_plan(
    setup: RolloutSetup,
    *,
    me: int,
    hand: int,
    unseen: int,
    counts: Sequence[int],
    samples: int,
    seed: int,
    out: int = 0,
    known: Sequence[int] | None = None,
) -> tuple[float, list[tuple[int, float]]]: ...

@final
class TuSacRolloutSetup:
    def __new__(
        cls,
        players: int,
        *,
        odd_total: str = "hand",
        set_lenh: int = 1,
        triple_optional: bool = False,
        bung_rule: str = "seed",
        discard_rule: str = "penalize",
        tuong_as_ty: bool = True,
        draw_at_stock: int = 7,
        payment: str = "per_lenh",
        claim_window: str = "every_seat",
    ) -> TuSacRolloutSetup: ...

#: Another seat's decision for the Tứ Sắc inference: ``(seat, choice, dead, exposed, counts,
#: stock, offer, opening, later)`` (``vncards.bots.tusac_search.observed`` builds them).
_TuSacObserved = tuple[
    int,
    tuple[str, int | None, str | None, Sequence[int]],
    int,
    Sequence[int],
    Sequence[int],
    int,
    tuple[int, bool, int] | None,
    bool,
    int,
]

def tusac_search(
    setup: TuSacRolloutSetup,
    *,
    me: int,
    hand: int,
    counts: Sequence[int],
    exposed_lenh: Sequence[int],
    exposed_quad: Sequence[bool],
    public: int,
    stock: int,
    offer: tuple[int, bool, int] | None,
    opening: bool,
    candidates: Sequence[tuple[str, int | None, str | None, Sequence[int]]],
    seed: int,
    rollouts: int | None = None,
    think_ms: float | None = None,
    single: Sequence[int] | None = None,
    known: Sequence[int] | None = None,
    greedy_only: bool = False,
    exposed: Sequence[int] | None = None,
    policy: PolicyNet | None = None,
    policy_rollouts: bool = False,
    greedy_seats: Sequence[int] = ...,
    keep_first: float | None = None,
    value_after: int | None = None,
    observed: Sequence[_TuSacObserved] = ...,
    chain: int = 0,
) -> _SearchResult: ...
def maubinh_search(
    cards: int,
    players: int,
    candidates: Sequence[tuple[int, int, int]],
    rules: MauBinhRules,
    *,
    seed: int,
    rollouts: int | None = None,
    think_ms: float | None = None,
    known: Sequence[int] | None = None,
) -> _SearchResult: ...

# ---- the learned policy (src/python/policy.rs) ------------------------------------------------

@final
class PolicyNet:
    def __new__(
        cls,
        game: str,
        players: int,
        shapes: Sequence[tuple[int, int]],
        tower: int,
        data: bytes,
        rules: str,
        provenance: str,
    ) -> PolicyNet: ...
    @staticmethod
    def from_bytes(data: bytes) -> PolicyNet: ...
    def to_bytes(self) -> bytes: ...
    def data(self) -> bytes: ...
    @property
    def game(self) -> str: ...
    @property
    def players(self) -> int: ...
    @property
    def encoding(self) -> tuple[str, int, str]: ...
    @property
    def shapes(self) -> list[tuple[int, int]]: ...
    @property
    def tower(self) -> int: ...
    @property
    def rules(self) -> str: ...
    @property
    def provenance(self) -> str: ...
    @property
    def observation_size(self) -> int: ...
    @property
    def action_size(self) -> int: ...
    def scores_shedding(
        self,
        groups: list[Any],
        counts: list[int],
        passed: int,
        out: int,
        to_act: int,
        owner: int,
        playing: bool | None,
        actions: Sequence[tuple[str, Any]],
    ) -> list[float]: ...
    def scores_tusac(
        self,
        groups: list[Any],
        counts: list[int],
        pending: int,
        offered_by: int,
        stock: int,
        claim: bool,
        actions: Sequence[tuple[str, Any]],
    ) -> list[float]: ...
    def scores_batch(
        self, obs: npt.NDArray[np.float32], actions: npt.NDArray[np.float32], offsets: npt.NDArray[np.int64]
    ) -> npt.NDArray[np.float32]: ...
    def selfplay(
        self,
        rules: SheddingFlowRules | TuSacFlowRules,
        seeds: Sequence[int],
        epsilon: float,
        max_steps: int = 2000,
        greedy_seats: Sequence[int] | None = None,
        frozen: PolicyNet | None = None,
        frozen_seats: Sequence[int] | None = None,
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.float32], int, int, int]: ...

def policy_encoding(game: str, players: int) -> tuple[str, int, str, int, int]: ...
def policy_tusac_rows(
    parts: tuple[Sequence[Any], Sequence[int], int, int, int, bool], actions: Sequence[tuple[str, Any]]
) -> list[list[float]]: ...
