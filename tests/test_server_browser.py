"""A real browser at the table: ``vncards serve`` on 127.0.0.1 and Debian's Chromium driven
headless through Selenium. Each test starts where a person starts, at the lobby: it fills and
clicks the create form for every game, joins the seat it opened, plays one whole hand by
clicking against bots, and saves screenshots of the table at a phone's size (390×844) and a
desktop's (1400×1000) under ``test-output/``. Every test fails on any SEVERE entry of the
browser console (a script error, a failed load). One browser serves every test of the module.

The default run opens a table of every game from the lobby form and plays whole hands of the
two games whose pages differ most (Tiến Lên: cards clicked into a play; Mậu Binh: rows and the
showdown); the whole hands of the other three are marked ``slow`` (``make test-slow``)."""

from __future__ import annotations

import contextlib
import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
webdriver = pytest.importorskip("selenium.webdriver")
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

from support.server_proc import Server, running_server  # noqa: E402


def _program(variable: str, *names: str) -> str:
    """A browser program: ``$variable`` if set, else the first of ``names`` on the PATH."""
    return os.environ.get(variable) or next(filter(None, map(shutil.which, names)), f"/usr/bin/{names[0]}")


# Debian's chromium and chromium-driver by default; any Chromium or Chrome with its matching
# chromedriver through VNCARDS_CHROMIUM and VNCARDS_CHROMEDRIVER (see the README).
CHROMIUM = _program("VNCARDS_CHROMIUM", "chromium", "chromium-browser", "google-chrome")
CHROMEDRIVER = _program("VNCARDS_CHROMEDRIVER", "chromedriver")
OUTPUT = Path(__file__).resolve().parent.parent / "test-output"
GAMES = ["tienlen", "tienlen-north", "samloc", "maubinh", "tusac"]
#: Whole hands in the default run; the others' under the slow marker.
QUICK = ("tienlen", "maubinh")
#: (width, height): a phone and a desktop.
SIZES = ((390, 844), (1400, 1000))

pytestmark = pytest.mark.skipif(
    not (shutil.which(CHROMIUM) and shutil.which(CHROMEDRIVER)),
    reason="needs Chromium and its chromedriver (Debian: chromium, chromium-driver; see the README)",
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    # Bots at once, forced moves after a short pause (the page shows them, nobody clicks); one
    # person opens a table a test, faster than the public default allows one address.
    db = tmp_path_factory.mktemp("browser") / "tables.sqlite"
    limits = ("--tables-per-minute", "600")
    with running_server(db, "--bot-delay", "0", "--forced-delay", "0.02", *limits) as s:
        yield s


@pytest.fixture(scope="module")
def browser() -> Any:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=1400,1000",
    ):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()


def severe_entries(driver: Any) -> list[str]:
    """The SEVERE entries of the browser console since the last call (reading drains it)."""
    return [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]


@pytest.fixture(autouse=True)
def console_clean(browser: Any) -> Any:
    """Every browser test fails on a SEVERE console entry (uncaught errors, failed loads)."""
    severe_entries(browser)
    yield
    assert severe_entries(browser) == [], "the browser console reported errors"


def screenshots(driver: Any, name: str) -> None:
    """``test-output/<name>-<w>x<h>.png`` at each of ``SIZES`` (the viewport set exactly, a
    phone's as a mobile one), back to the window's own size after; the page must fit the
    width (no sideways scrolling on a phone)."""
    OUTPUT.mkdir(exist_ok=True)
    for width, height in SIZES:
        metrics = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600}
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
        wide = driver.execute_script("return document.documentElement.scrollWidth")  # laid out anew
        driver.save_screenshot(str(OUTPUT / f"{name}-{width}x{height}.png"))
        assert wide <= width, f"{name}: the page is {wide} px wide in a {width} px window"
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def _seq(driver: Any) -> str:
    return str(driver.find_element(By.TAG_NAME, "body").get_attribute("data-seq") or "")


def _wait(driver: Any, cond: Any, timeout: float = 15.0) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            got = cond()
        except (StaleElementReferenceException, WebDriverException):
            got = None
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError("the page did not get there in time")


def _page(driver: Any, script: str) -> Any:
    """What the page holds (``S``: its last state frame): the test reads it to decide what to
    click, as a person reads the highlighted cards and the offered buttons."""
    return driver.execute_script("return " + script)


def _legal(driver: Any) -> list[dict[str, Any]]:
    """The moves the page offers now: none while a forced move is pending or the hand is over."""
    return list(
        _page(driver, "S.frame && !S.frame.forced && !S.frame.table.is_over ? S.frame.legal_actions : []")
        or []
    )


def _click_cards(driver: Any, cards: list[str]) -> None:
    for text in cards:
        driver.find_element(By.CSS_SELECTOR, f'#hand [data-card="{text}"]:not(.selected)').click()


def _my_move(driver: Any, game: str, legal: list[dict[str, Any]]) -> bool:
    """One move made the way a player makes it: cards clicked in the hand and "play" where the
    game plays cards, rows filled by the solver's suggestion in Mậu Binh, a piece clicked to
    discard it in Tứ Sắc, buttons otherwise. False if the page had no move to offer after all."""
    types = [a["type"] for a in legal]
    if game == "maubinh":
        if "confirm" in types:
            driver.find_element(By.CSS_SELECTOR, '#actions button[data-type="confirm"]').click()
            return True
        driver.find_element(By.ID, "suggest").click()
        rows = driver.find_elements(By.CSS_SELECTOR, ".rows .row .card")
        assert len(rows) == 13, "the suggestion fills the three rows"
        driver.find_element(By.ID, "arrange").click()
        return True
    if "play" in types:
        play = next(a for a in legal if a["type"] == "play")
        driver.find_element(By.ID, "clear-selection").click()
        _click_cards(driver, play["cards"].split())
        driver.find_element(By.ID, "play-selected").click()
        return True
    if "discard" in types:  # a click selects the piece, the button discards it
        card = next(a for a in legal if a["type"] == "discard")["card"]
        pieces = driver.find_elements(By.CSS_SELECTOR, f'#hand .piece.legal[data-card="{card}"]')
        if not pieces:
            return False
        pieces[0].click()
        driver.find_element(By.ID, "discard-selected").click()
        return True
    preferred = [t for t in ("win", "claim", "decline_sam", "pass") if t in types]
    pick = preferred[0] if preferred else types[0]
    driver.find_element(By.CSS_SELECTOR, f'#actions button[data-type="{pick}"]').click()
    return True


def _explains_an_illegal_selection(driver: Any, legal: list[dict[str, Any]]) -> bool:
    """Select two cards that are no legal play: the page says why, in the engine's words."""
    hand = list(_page(driver, "S.frame.view.hand"))
    plays = {" ".join(sorted(a["cards"].split())) for a in legal if a["type"] == "play"}
    pair = next(
        ([a, b] for a in hand for b in hand if a[:-1] != b[:-1] and " ".join(sorted([a, b])) not in plays),
        None,
    )
    if pair is None:
        return False
    driver.find_element(By.ID, "clear-selection").click()
    _click_cards(driver, pair)
    why = _wait(driver, lambda: driver.find_element(By.ID, "why").text)
    assert "not a combination" in why or "must" in why, why
    assert driver.find_element(By.ID, "play-selected").get_attribute("disabled") is not None
    driver.find_element(By.ID, "clear-selection").click()
    assert driver.find_element(By.ID, "why").text == ""
    return True


def _shows_the_end_of_the_hand(driver: Any, game: str) -> None:
    """The cards each seat still held, the hand's result and running totals, the payments in
    words; Mậu Binh's showdown: every seat's three hands with their categories, hand by hand
    against each opponent, and no card back on the felt."""
    table, view = _page(driver, "S.frame.table"), _page(driver, "S.frame.view")
    for seat, cards in enumerate(view.get("revealed") or []):
        cell = driver.find_element(By.CSS_SELECTOR, f'#settlement-table tr[data-seat="{seat}"] td.held')
        shown = [c.get_attribute("data-card") for c in cell.find_elements(By.CSS_SELECTOR, "[data-card]")]
        assert shown == (cards or (view["hand"] if seat == 0 else [])), seat  # seat 0: the viewer
    for seat in range(4):
        row = driver.find_element(By.CSS_SELECTOR, f'#settlement-table tr[data-seat="{seat}"]')
        assert str(table["totals"][seat]) == row.find_elements(By.TAG_NAME, "td")[-1].text
    lines = [
        e.get_attribute("textContent") for e in driver.find_elements(By.CSS_SELECTOR, "#payments .payment")
    ]
    assert len(lines) == len(table["payments"] or [])
    assert all("_" not in line and ": " in line for line in lines), lines
    if game == "maubinh":
        seats = driver.find_elements(By.CSS_SELECTOR, "#showdown .sd-seat")
        assert len(seats) == 4
        for seat in seats:
            rows = seat.find_elements(By.CSS_SELECTOR, ".sd-row")
            assert [r.find_element(By.CSS_SELECTOR, ".rowname").text.split(" (")[0] for r in rows] == [
                "chi 1, chi đầu",
                "chi 2, chi giữa",
                "chi 3, chi cuối",
            ]
            assert all(r.find_element(By.CSS_SELECTOR, ".category").text for r in rows)
        assert len(driver.find_elements(By.CSS_SELECTOR, "#versus .vs")) == 3
        assert not driver.find_elements(By.CSS_SELECTOR, "#felt .back")


def create_from_lobby(
    driver: Any, server: Server, game: str, name: str = "Lan", open_seats: tuple[int, ...] = (0,)
) -> str:
    """Open the lobby, fill the create form for ``game`` (seat 0 a player, the others the
    lobby's default bots, a long turn), click create, and land seated at the new table: its id."""
    driver.get(server.url + "/")
    _wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, f'#game option[value="{game}"]'))
    Select(driver.find_element(By.ID, "game")).select_by_value(game)
    _wait(driver, lambda: driver.find_elements(By.ID, "seat-3"))
    players = driver.find_element(By.ID, "players")
    assert players.get_attribute("value") == "4"
    for seat in range(4):
        choice = Select(driver.find_element(By.ID, f"seat-{seat}"))
        if seat in open_seats:
            choice.select_by_value("")  # a player's seat
        else:
            assert choice.first_selected_option.get_attribute("value"), "the lobby's default bot"
    driver.find_element(By.ID, "turn").send_keys("600")
    options = _set_an_int_option(driver)
    field = driver.find_element(By.ID, "name")
    field.clear()
    field.send_keys(name)
    driver.find_element(By.ID, "create-btn").click()
    _wait(driver, lambda: "/t/" in driver.current_url)
    _wait(driver, lambda: _seq(driver) != "")
    assert driver.find_element(By.ID, "err").text == ""
    table: str = driver.current_url.split("/t/")[1].split("?")[0]
    me = driver.find_element(By.CSS_SELECTOR, '.seat[data-seat="0"] .name').text
    assert name in me, me
    rules = server.get(f"/api/tables/{table}")["table"]["rules"]
    for option, value in options.items():
        assert rules[option] == value, (option, rules[option])
    return table


def _set_an_int_option(driver: Any) -> dict[str, int]:
    """The form's integer rules options carry the schema's range (``games.rules_schema``); set
    the first one to an end of its range other than the default through the form (opening the options), as a person would."""
    fields = driver.find_elements(By.CSS_SELECTOR, '#options input[data-type="int"]')
    if not fields:
        return {}
    driver.find_element(By.CSS_SELECTOR, "#create details summary").click()
    field = fields[0]
    schema = next(
        o for g in game_list(driver) for o in g["rules"] if o["name"] == field.get_attribute("data-name")
    )
    assert (field.get_attribute("min"), field.get_attribute("max")) == (
        str(schema["min"]),
        str(schema["max"]),
    )
    value = schema["max"] if schema["max"] != schema["default"] else schema["min"]
    field.clear()
    field.send_keys(str(value))
    return {schema["name"]: value}


def game_list(driver: Any) -> list[dict[str, Any]]:
    """What the lobby read from ``GET /api/games``."""
    return list(driver.execute_script("return GAMES"))


Move = Callable[[Any, str, list[dict[str, Any]]], bool]


def _play_hand(driver: Any, server: Server, game: str) -> int:
    """A whole hand from the lobby: the number of clicks it asked for (every prompt a real
    decision: a forced move is made by the table, never offered)."""
    table = {"id": create_from_lobby(driver, server, game)}
    decisions = _play_to_the_end(driver, game)
    if game == "tusac":  # claim windows that offered only a pass: made by the table, and said so
        assert driver.find_elements(By.CSS_SELECTOR, "#log .forced-done")
    settlement = _wait(driver, lambda: driver.find_element(By.ID, "settlement-table"))
    assert len(settlement.find_elements(By.CSS_SELECTOR, "tr[data-seat]")) == 4
    assert driver.find_element(By.ID, "next-hand").is_displayed()
    _shows_the_end_of_the_hand(driver, game)
    screenshots(driver, f"{game}-over")
    stored = server.get("/api/tables")
    row = next(t for t in stored if t["id"] == table["id"])
    assert row["is_over"] and sum(row["totals"]) == 0
    assert row["seats"][0]["kind"] == "player" and row["seats"][0]["name"] == "Lan"
    # Back in the lobby, the table is listed.
    driver.get(server.url + "/")
    _wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, f'#tables a[href="/t/{table["id"]}"]'))
    screenshots(driver, "lobby")
    return decisions


def _play_to_the_end(
    driver: Any, game: str, move: Move = _my_move, explain: bool = True, until: Any = None
) -> int:
    """Click through the hand at the page until it is over (or ``until()`` holds), each
    decision made by ``move`` (once, with ``explain``, an illegal selection explained first):
    the number of decisions."""
    decisions, explained = 0, not explain or game not in ("tienlen", "tienlen-north", "samloc")
    dealt_over = 0
    for _ in range(600):
        if until is not None and until():
            return decisions
        if driver.find_element(By.TAG_NAME, "body").get_attribute("data-over") == "1":
            if decisions:
                break
            # Over before the player was asked anything: a dealt instant win (one Tiến Lên
            # deal of four seats in 30), settled at the deal. The player reads the end of the
            # hand and deals the next one, as a person would.
            dealt_over += 1
            assert dealt_over < 5, "five hands over at the deal, or no next hand dealt"
            before = _seq(driver)
            try:
                _shows_the_end_of_the_hand(driver, game)
                driver.find_element(By.ID, "next-hand").click()
            except (StaleElementReferenceException, WebDriverException):
                continue  # redrawn under the click: look again
            _wait(driver, lambda before=before: _seq(driver) != before)
            continue
        legal = _legal(driver)
        if not legal:
            time.sleep(0.03)
            continue
        # A lone legal action is forced: the table makes it, the page never asks for it.
        assert len(legal) > 1, legal
        before = _seq(driver)
        try:
            if not explained and "play" in {a["type"] for a in legal}:
                explained = _explains_an_illegal_selection(driver, legal)
            if not move(driver, game, legal):
                continue
            decisions += 1
        except (StaleElementReferenceException, WebDriverException):
            continue  # a bot's move redrew the page under the click: look again
        assert not driver.find_element(By.ID, "err").text, driver.find_element(By.ID, "err").text
        _wait(driver, lambda before=before: _seq(driver) != before)
    else:
        raise AssertionError(f"{game}: the hand did not end")
    assert explained, "an illegal selection was explained"
    return decisions


@pytest.mark.parametrize("game", GAMES)
def test_lobby_opens_a_table_of_every_game(browser: Any, server: Server, game: str) -> None:
    create_from_lobby(browser, server, game)
    screenshots(browser, f"{game}-dealt")


@pytest.mark.parametrize(
    "game", [g if g in QUICK else pytest.param(g, marks=pytest.mark.slow) for g in GAMES]
)
def test_lobby_create_join_and_play_a_hand(browser: Any, server: Server, game: str) -> None:
    decisions = _play_hand(browser, server, game)
    print(f"{game}: {decisions} clicks for the hand")


def test_the_lobby_lists_a_table_it_cannot_serve(browser: Any, tmp_path: Path) -> None:
    import sqlite3

    db = tmp_path / "tables.sqlite"
    with running_server(db, "--bot-delay", "0") as first:
        good = first.post("/api/tables", {"game": "tienlen"})["id"]
        bad = first.post("/api/tables", {"game": "maubinh"})["id"]
    with sqlite3.connect(db) as con:
        con.execute("UPDATE tables SET meta = '{not json' WHERE id = ?", (bad,))
    with running_server(db, "--bot-delay", "0") as server:
        browser.get(server.url + "/")
        _wait(
            browser, lambda: browser.find_elements(By.CSS_SELECTOR, f'#tables tr.broken[data-table="{bad}"]')
        )
        assert browser.find_elements(By.CSS_SELECTOR, f'#tables a[href="/t/{good}"]')
        browser.get("about:blank")  # nothing in flight (the favicon, a lobby refresh) when the server stops


def test_names_spectators_seats_and_closing(browser: Any, server: Server) -> None:
    """Names shown as text wherever they appear (markup, a long right-to-left name), "Bạn"
    only on the viewer's own seat, a spectator counted; the creator hands a player's seat to
    a bot during the hand, the player leaves between hands (a bot sits), and the creator
    closes the table: the page says it is closed. The second player joins through the API:
    a person on another device (the test's one browser holds the creator's seat)."""
    markup = '<script>alert("x")</script>'
    table = create_from_lobby(browser, server, "maubinh", name=markup, open_seats=(0, 1))
    rtl = "سلام " * 6 + "!"  # 31 characters, right to left
    server.post(f"/api/tables/{table}/join", {"seat": 1, "name": rtl})
    _wait(
        browser,
        lambda: browser.find_element(By.CSS_SELECTOR, '.seat[data-seat="1"] .name bdi').text == rtl.strip(),
    )
    assert browser.find_element(By.CSS_SELECTOR, '.seat[data-seat="0"] .name bdi').text == markup
    assert _page(browser, "document.querySelectorAll('script').length") == 2, "a name became markup"
    assert len(browser.find_elements(By.CSS_SELECTOR, "#felt .seat .you")) == 1
    assert browser.find_elements(By.CSS_SELECTOR, '#felt .seat.me[data-seat="0"] .you')
    # A spectator in a second tab, from the lobby's watch link: counted at the table.
    first = browser.current_window_handle
    browser.switch_to.new_window("tab")
    browser.get(server.url + "/")
    _wait(
        browser, lambda: browser.find_elements(By.CSS_SELECTOR, f'#tables tr[data-table="{table}"] a.watch')
    )
    browser.find_element(By.CSS_SELECTOR, f'#tables tr[data-table="{table}"] a.watch').click()
    _wait(browser, lambda: _seq(browser) != "")
    assert not browser.find_element(By.ID, "mine").is_displayed()
    assert not browser.find_elements(By.CSS_SELECTOR, "#felt .seat .you"), "a spectator is nobody's you"
    browser.switch_to.window(first)
    _wait(browser, lambda: browser.find_element(By.ID, "spectators").get_attribute("data-count") == "1")
    # The creator hands seat 1 to a bot mid-hand; it arranges for the seat.
    browser.find_element(By.CSS_SELECTOR, "#creator summary").click()
    Select(browser.find_element(By.CSS_SELECTOR, '#creator select[data-seat="1"]')).select_by_value("greedy")
    browser.find_element(By.CSS_SELECTOR, '#creator button.replace[data-seat="1"]').click()
    _wait(browser, lambda: "log-replace" in _page(browser, "S.history.map(h => h.cls).join(' ')"))
    while browser.find_element(By.TAG_NAME, "body").get_attribute("data-over") != "1":
        legal = _wait(
            browser,
            lambda: (
                _legal(browser) or browser.find_element(By.TAG_NAME, "body").get_attribute("data-over") == "1"
            ),
        )
        if legal is not True:
            before = _seq(browser)
            try:
                _my_move(browser, "maubinh", legal)
            except (StaleElementReferenceException, WebDriverException):
                continue  # the bot's arrangement redrew the page under the click: look again
            _wait(browser, lambda before=before: _seq(browser) != before)
    _wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, "#showdown .sd-seat"))
    # Between hands the player leaves: a bot takes the seat and the page watches on.
    browser.find_element(By.ID, "leave").click()
    _wait(browser, lambda: not browser.find_element(By.ID, "mine").is_displayed())
    _wait(browser, lambda: "máy" in browser.find_element(By.CSS_SELECTOR, '.seat[data-seat="0"] .meta').text)
    browser.find_element(By.ID, "close-table").click()
    _wait(browser, lambda: browser.find_element(By.ID, "closed").is_displayed())
    assert browser.find_element(By.TAG_NAME, "body").get_attribute("data-closed") == "1"
    browser.switch_to.window(browser.window_handles[-1])
    _wait(browser, lambda: browser.find_element(By.ID, "closed").is_displayed())  # the spectator is told too
    browser.close()
    browser.switch_to.window(first)


# -- what players tripped on (issue 35) ------------------------------------------------------------


def _keep_cards(driver: Any, game: str, legal: list[dict[str, Any]]) -> bool:
    """A player who keeps cards: passes whenever the table lets them, else as :func:`_my_move`."""
    if any(a["type"] == "pass" for a in legal):
        driver.find_element(By.CSS_SELECTOR, '#actions button[data-type="pass"]').click()
        return True
    return _my_move(driver, game, legal)


def _next_hand(driver: Any) -> None:
    before = _seq(driver)
    driver.find_element(By.ID, "next-hand").click()
    _wait(driver, lambda: _seq(driver) != before)


def _phone(driver: Any) -> None:
    """The viewport of a phone (390×844) until ``Emulation.clearDeviceMetricsOverride``."""
    metrics = {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True}
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)


def test_a_forced_move_is_logged_before_what_followed_it(browser: Any, server: Server) -> None:
    """The table's note of a forced move made for the player (Tứ Sắc: a claim window that
    offered only a pass, a few in every hand) comes before what that change brought after the
    move (a claim, a dead card, the next turn-up), right after the player's own move if it
    has a line. Played until two notes shared their change with other lines."""
    create_from_lobby(browser, server, "tusac")
    shared = "S.history.filter(h => h.cls === 'forced-done' && S.history.some(x => x.seq === h.seq && x.event)).length >= 2"
    _play_tusac_until(browser, lambda: _page(browser, shared), "two forced moves among other events")
    lines = [
        (e.get_attribute("class"), int(e.get_attribute("data-seq")), e.text)
        for e in browser.find_elements(By.CSS_SELECTOR, "#log > div")
    ]
    for k, (cls, seq, _) in enumerate(lines):
        if cls == "forced-done":
            _, before, text = lines[k - 1]
            assert before < seq or text.startswith("bạn (you)"), lines[k - 2 : k + 2]


def test_a_maubinh_settlement_ends_with_no_null(browser: Any, server: Server) -> None:
    """The end of a Mậu Binh hand (which carries nothing to the next hand) ends with its
    payments, not with the word "null"."""
    create_from_lobby(browser, server, "maubinh")
    _play_to_the_end(browser, "maubinh")
    text = browser.find_element(By.ID, "settlement").text
    assert "null" not in text and "undefined" not in text, text[-200:]


def test_the_settlement_fits_a_phone(browser: Any, server: Server) -> None:
    """At 390 px the settlement table, cards still held included, fits its panel: the running
    totals are on screen without scrolling sideways (a player who kept most cards)."""
    create_from_lobby(browser, server, "tienlen")
    _play_to_the_end(browser, "tienlen", _keep_cards, explain=False)
    held = _page(browser, "Math.max(...S.frame.view.revealed.map(c => (c || []).length))")
    assert held >= 6, held
    _phone(browser)
    try:
        fit = _page(
            browser,
            "(() => { const p = document.getElementById('settlement'), t = document.getElementById('settlement-table');"
            " return [p.scrollWidth, p.clientWidth, t.getBoundingClientRect().right, p.getBoundingClientRect().right]; })()",
        )
        browser.execute_script("document.getElementById('settlement').scrollIntoView()")
        OUTPUT.mkdir(exist_ok=True)
        browser.save_screenshot(str(OUTPUT / "settlement-390x844.png"))
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    assert fit[0] <= fit[1] and fit[2] <= fit[3], fit


#: Every visible hint inside an enabled button, its text and its contrast with the button
#: (WCAG's ratio of relative luminances), from the computed styles.
CONTRAST = """
const rgb = (s) => s.match(/[\\d.]+/g).map(Number);
const lum = (c) => { const [r, g, b] = c.slice(0, 3).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
                     return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
return [...document.querySelectorAll("button:not(:disabled) .hint")].filter((h) => h.getClientRects().length).map((h) => {
  let n = h, bg = [255, 255, 255];
  for (; n; n = n.parentElement) { const c = rgb(getComputedStyle(n).backgroundColor); if (c.length < 4 || c[3] > 0) { bg = c; break; } }
  const a = lum(rgb(getComputedStyle(h).color)), b = lum(bg);
  return [h.closest("button").id || h.closest("button").dataset.type, (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)];
});
"""


def test_hints_in_buttons_meet_wcag_aa(browser: Any, server: Server) -> None:
    """The small hint words inside buttons (the lobby's, a turn's, the end of a hand's) have a
    contrast of at least 4.5:1 with the button, at a phone's size and a desktop's."""
    seen: dict[str, float] = {}

    def measure() -> None:
        for phone in (False, True):
            if phone:
                _phone(browser)
            for button, ratio in browser.execute_script(CONTRAST):
                seen[button] = min(ratio, seen.get(button, ratio))
            browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})

    browser.get(server.url + "/")
    _wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, "#game option"))
    measure()
    create_from_lobby(browser, server, "tienlen")
    for _ in range(200):
        if {"hint", "next-hand"} <= seen.keys():
            break
        measure()
        legal = _legal(browser)
        over = browser.find_element(By.TAG_NAME, "body").get_attribute("data-over") == "1"
        if over and "hint" not in seen:
            # The hand ended before the seat's turn (an instant win at the deal, on the
            # server's random deal): deal the next one, as a person would.
            with contextlib.suppress(StaleElementReferenceException, WebDriverException):
                _click(browser, "#next-hand")
            time.sleep(0.03)
            continue
        if not over and len(legal) > 1:
            before = _seq(browser)
            with contextlib.suppress(StaleElementReferenceException, WebDriverException):
                _keep_cards(browser, "tienlen", legal)
                _wait(browser, lambda before=before: _seq(browser) != before)
        time.sleep(0.03)
    assert {"create-btn", "hint", "pass", "next-hand", "leave"} <= seen.keys(), seen
    low = {k: round(v, 2) for k, v in seen.items() if v < 4.5}
    assert not low, low


def _click(driver: Any, selector: str) -> None:
    """Click what ``selector`` finds, found again if a frame redrew it under the click."""
    for _ in range(20):
        try:
            driver.find_element(By.CSS_SELECTOR, selector).click()
            return
        except StaleElementReferenceException:
            time.sleep(0.05)
    raise AssertionError(f"{selector}: redrawn under every click")


def _dealt_in_play(driver: Any) -> None:
    """Deal on past hands over at the deal (a dealt instant win): a hand in play."""
    for _ in range(5):
        if driver.find_element(By.TAG_NAME, "body").get_attribute("data-over") != "1":
            return
        _next_hand(driver)
    raise AssertionError("five hands over at the deal")


def _rows(driver: Any) -> list[list[str]]:
    """The Mậu Binh rows on the page, back to front, as their cards."""
    return [
        [c.get_attribute("data-card") for c in row.find_elements(By.CSS_SELECTOR, ".card")]
        for row in driver.find_elements(By.CSS_SELECTOR, ".rows .row")
    ]


def test_a_reload_keeps_the_maubinh_rows_placed(browser: Any, server: Server) -> None:
    """Cards placed in the Mậu Binh rows are back after a reload, while the clock runs on."""
    create_from_lobby(browser, server, "maubinh")
    _dealt_in_play(browser)
    hand = list(_page(browser, "S.frame.view.hand"))
    for card in hand[:3]:
        _click(browser, f'#hand [data-card="{card}"]')
    _click(browser, '.rows .row[data-row="2"] .rowname')
    for card in hand[3:5]:
        _click(browser, f'#hand [data-card="{card}"]')
    placed = _rows(browser)
    assert placed == [hand[:3], [], hand[3:5]], placed
    browser.refresh()
    _wait(browser, lambda: _seq(browser) != "" and _rows(browser) == placed)
    assert _page(browser, "S.target") == 2, "the marked row is kept too"
    assert sorted(
        c.get_attribute("data-card") for c in browser.find_elements(By.CSS_SELECTOR, "#hand .card")
    ) == sorted(hand[5:])


def test_maubinh_payments_are_grouped_by_pair(browser: Any, server: Server) -> None:
    """The end of a Mậu Binh hand groups the payments per pair of players (the viewer's
    pairs first): each hand, the bonuses, the net, as the ledger adds them up; the itemised
    lines are kept, folded; the grouped table fits a phone."""
    create_from_lobby(browser, server, "maubinh")
    _play_to_the_end(browser, "maubinh")
    table = _page(browser, "S.frame.table")
    if not table["payments"]:
        return  # nobody paid (every seat tied or equal instant wins): nothing to group
    pairs = browser.find_elements(By.CSS_SELECTOR, "#payments-grouped tr[data-pair]")
    assert [p.get_attribute("data-pair") for p in pairs] == ["0-1", "0-2", "0-3", "1-2", "1-3", "2-3"]
    for row in pairs:
        a, b = map(int, row.get_attribute("data-pair").split("-"))
        net = sum(
            p["units"] if p["to"] == a else -p["units"]
            for p in table["payments"]
            if {p["from"], p["to"]} == {a, b}
        )
        assert row.find_element(By.CSS_SELECTOR, "td[data-net]").text == f"{net:+d}".replace("+0", "0")
    folded = browser.find_element(By.ID, "payments-all")
    assert folded.get_attribute("open") is None
    assert len(folded.find_elements(By.CSS_SELECTOR, ".payment")) == len(table["payments"])
    folded.find_element(By.TAG_NAME, "summary").click()
    assert all(line.is_displayed() for line in folded.find_elements(By.CSS_SELECTOR, ".payment"))
    _phone(browser)
    try:
        browser.execute_script("document.getElementById('payments-grouped').scrollIntoView()")
        OUTPUT.mkdir(exist_ok=True)
        browser.save_screenshot(str(OUTPUT / "maubinh-payments-390x844.png"))
        fit = _page(
            browser,
            "(() => { const p = document.getElementById('settlement');"
            " return [p.scrollWidth, p.clientWidth]; })()",
        )
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    assert fit[0] <= fit[1], fit


def _a_fouled_arrangement(hand: list[str]) -> list[list[str]] | None:
    """Rows of ``hand`` that foul (binh lủng), back to front, the first of a fixed sequence
    of shuffles (no luck: the same hand gives the same rows); None if none fouls."""
    import random

    from vncards.maubinh import is_fouled

    shuffle = random.Random(35)
    cards = list(hand)
    for _ in range(2000):
        shuffle.shuffle(cards)
        rows = [cards[:5], cards[5:10], cards[10:]]
        if is_fouled([" ".join(r) for r in rows]):
            return rows
    return None


def test_a_fouled_maubinh_hand_is_shown_and_confirmed_twice(browser: Any, server: Server) -> None:
    """While cards are placed each full row shows its category; a fouled set of rows is marked
    before it is sent; "Báo xong" on a fouled hand asks a second time (as ``vncards play``)."""
    from vncards.maubinh import hand_category

    create_from_lobby(browser, server, "maubinh")
    for _ in range(5):
        _dealt_in_play(browser)
        rows = _a_fouled_arrangement(list(_page(browser, "S.frame.view.hand")))
        if rows:
            break
        _next_hand(browser)  # no fouled rows in these 13 cards: the next deal
    else:
        raise AssertionError("five deals without a fouled arrangement")
    for r, row in enumerate(rows):
        _click(browser, f'.rows .row[data-row="{r}"] .rowname')
        for card in row:
            _click(browser, f'#hand [data-card="{card}"]')
        shown = f'.rows .row[data-row="{r}"] .category'
        want = hand_category(" ".join(row))
        _wait(
            browser,
            lambda shown=shown, want=want: (
                browser.find_element(By.CSS_SELECTOR, shown).get_attribute("data-category") == want
            ),
        )
        assert browser.find_element(By.CSS_SELECTOR, shown).text
        if r < 2:
            assert not browser.find_elements(By.ID, "foul-warning"), "no foul before the rows are full"
    warning = _wait(browser, lambda: browser.find_element(By.ID, "foul-warning"))
    assert "binh lủng" in warning.text.lower()
    assert _page(browser, "S.frame.view.arrangement") is None, "marked before it is sent"
    screenshots(browser, "maubinh-fouled")
    before = _seq(browser)
    _click(browser, "#arrange")
    _wait(
        browser,
        lambda: (
            _seq(browser) != before
            and browser.find_elements(By.CSS_SELECTOR, '#actions button[data-type="confirm"]')
        ),
    )
    _click(browser, '#actions button[data-type="confirm"]')
    armed = _wait(
        browser,
        lambda: browser.find_element(By.CSS_SELECTOR, '#actions button[data-type="confirm"][data-armed]'),
    )
    assert "binh lủng" in armed.text.lower()
    assert _page(browser, "S.frame.view.confirmed[S.seat]") is False, (
        "one click does not confirm a fouled hand"
    )
    _click(browser, '#actions button[data-type="confirm"][data-armed]')
    _wait(browser, lambda: _page(browser, "S.frame.view.confirmed[S.seat] || S.frame.table.is_over"))


def _play_tusac_until(driver: Any, until: Any, what: str) -> None:
    """Play Tứ Sắc hands at the page (as :func:`_my_move`) until ``until()`` holds, a few
    hands at most (the next one dealt when a hand ends first)."""
    for _ in range(4):
        _play_to_the_end(driver, "tusac", until=until)
        if until():
            return
        _next_hand(driver)
    raise AssertionError(f"four Tứ Sắc hands without {what}")


def _visible_widths(driver: Any, selector: str) -> list[float]:
    """Each matching card's visible width: to the next card's left edge on its line, else its own."""
    return list(
        driver.execute_script(
            "const n = [...document.querySelectorAll(arguments[0])].map((e) => e.getBoundingClientRect());"
            "return n.map((r, k) => { const next = n[k + 1];"
            " return next && Math.abs(next.top - r.top) < 2 && next.left > r.left ? Math.min(r.width, next.left - r.left) : r.width; });",
            selector,
        )
    )


def test_tusac_a_click_selects_and_a_button_discards(browser: Any, server: Server) -> None:
    """In Tứ Sắc a click on a piece selects it (the page says so), and only the discard
    button throws it away: a mis-tap discards nothing."""
    create_from_lobby(browser, server, "tusac")
    my_discard = "S.frame && !S.frame.forced && S.frame.legal_actions.some((a) => a.type === 'discard')"
    _play_tusac_until(browser, lambda: _page(browser, my_discard), "a discard to make")
    card = next(a for a in _legal(browser) if a["type"] == "discard")["card"]
    before, held = _seq(browser), len(_page(browser, "S.frame.view.hand"))
    help_text = browser.find_element(By.ID, "discard-help").text
    assert help_text and "_" not in help_text
    assert browser.find_element(By.ID, "discard-selected").get_attribute("disabled") is not None
    _click(browser, f'#hand .piece.legal[data-card="{card}"]')
    assert _seq(browser) == before and len(_page(browser, "S.frame.view.hand")) == held, (
        "a click discards nothing"
    )
    assert browser.find_elements(By.CSS_SELECTOR, f'#hand .piece.selected[data-card="{card}"]')
    _click(browser, "#discard-selected")
    _wait(
        browser,
        lambda: _page(
            browser, f"S.events.some((e) => e.type === 'discard' && e.seat === S.seat && e.card === '{card}')"
        ),
    )


def test_tusac_melds_and_the_dead_pile_are_legible_on_a_phone(browser: Any, server: Server) -> None:
    """At 390 px every piece of another seat's melds and of the dead pile shows at least
    24 px of itself (a fan of overlapping pieces left about 15 px)."""
    create_from_lobby(browser, server, "tusac")
    both = "S.frame.view.exposed.some((m, i) => i !== S.seat && m.length) && S.frame.view.dead.length > 0 && !S.frame.table.is_over"
    _play_tusac_until(browser, lambda: _page(browser, both), "a meld laid and a dead card")
    _phone(browser)
    try:
        melds = _visible_widths(browser, ".seat:not(.me) .meld svg.piece")
        dead = _visible_widths(browser, "#center > .cards svg.piece")
        OUTPUT.mkdir(exist_ok=True)
        browser.save_screenshot(str(OUTPUT / "tusac-melds-390x844.png"))
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    assert melds and dead
    assert min(melds) >= 24 and min(dead) >= 24, (melds, dead)


def test_tusac_the_end_of_a_hand_shows_how_the_winner_won(browser: Any, server: Server) -> None:
    """The end of a Tứ Sắc hand won: the winner, the card and score, the melds laid down
    and the hand shown, each meld named, every piece shown whole."""
    create_from_lobby(browser, server, "tusac")
    won = "S.frame.table.is_over && S.events.some((e) => e.type === 'win' && e.hand)"
    _play_tusac_until(browser, lambda: _page(browser, won), "a hand won")
    win = _page(browser, "S.events.find((e) => e.type === 'win' && e.hand)")
    box = _wait(browser, lambda: browser.find_element(By.ID, "winning-hand"))
    assert f"{win['score']} lệnh" in box.text
    names = [m.text for m in box.find_elements(By.CSS_SELECTOR, ".meldname")]
    assert names and all(n and "_" not in n for n in names), names
    exposed = _page(browser, f"S.frame.view.exposed[{win['seat']}]")
    assert len(box.find_elements(By.CSS_SELECTOR, "#win-exposed .meld")) == len(exposed)
    shown = [
        c.get_attribute("data-card") for c in box.find_elements(By.CSS_SELECTOR, "#win-hand [data-card]")
    ]
    assert sorted(shown) == sorted(win["hand"])
    split = _page(browser, "S.frame.table.showdown.melds")  # the server's split of the hand shown
    concealed = box.find_elements(By.CSS_SELECTOR, "#win-hand .meld.concealed")
    assert [m.get_attribute("data-meld") for m in concealed] == [m["meld"] for m in split]
    assert min(_visible_widths(browser, "#winning-hand svg.piece")) >= 20
    browser.execute_script("document.getElementById('winning-hand').scrollIntoView()")
    screenshots(browser, "tusac-won")


def test_a_seat_link_in_the_lobby_joins_with_the_typed_name(browser: Any, server: Server) -> None:
    """The lobby's seat links join with the name typed in "Tên của bạn"; with no name the
    table asks for one before it seats the player."""
    table = server.post("/api/tables", {"game": "tienlen", "seats": [None, None, "greedy", "greedy"]})["id"]
    browser.get(server.url + "/")
    link = f'#tables tr[data-table="{table}"] a.sit[href="/t/{table}?seat=1"]'
    _wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, link))
    field = browser.find_element(By.ID, "name")
    field.clear()
    field.send_keys("Mai")
    browser.find_element(By.CSS_SELECTOR, link).click()
    _wait(browser, lambda: _seq(browser) != "")
    assert "Mai" in browser.find_element(By.CSS_SELECTOR, '.seat[data-seat="1"] .name').text
    # The other seat with the name field cleared: asked for a name, then seated with it.
    browser.execute_script("localStorage.removeItem('vncards:' + TABLE_ID)")
    browser.get(server.url + "/")
    link0 = f'#tables tr[data-table="{table}"] a.sit[href="/t/{table}?seat=0"]'
    _wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, link0))
    browser.find_element(By.ID, "name").clear()
    browser.find_element(By.CSS_SELECTOR, link0).click()
    ask = _wait(browser, lambda: browser.find_element(By.ID, "join-name"))
    assert browser.find_element(By.ID, "joinbox").is_displayed()
    ask.send_keys("Bình")
    browser.find_element(By.CSS_SELECTOR, '#joinbox button.join[data-seat="0"]').click()
    _wait(browser, lambda: _seq(browser) != "")
    assert "Bình" in browser.find_element(By.CSS_SELECTOR, '.seat[data-seat="0"] .name').text
