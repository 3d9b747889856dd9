"""A real browser at the table: ``vncards serve`` on 127.0.0.1 and Debian's Chromium driven
headless through Selenium. Each test starts where a person starts, at the lobby: it fills and
clicks the create form for every game, joins the seat it opened, plays one whole hand by
clicking against bots, and saves a screenshot of the finished table under ``test-output/``.
Every test fails on any SEVERE entry of the browser console (a script error, a failed load)."""

from __future__ import annotations

import os
import shutil
import time
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

pytestmark = pytest.mark.skipif(
    not (shutil.which(CHROMIUM) and shutil.which(CHROMEDRIVER)),
    reason="needs Chromium and its chromedriver (Debian: chromium, chromium-driver; see the README)",
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    # Bots at once, forced moves after a short pause (the page shows them, nobody clicks).
    db = tmp_path_factory.mktemp("browser") / "tables.sqlite"
    with running_server(db, "--bot-delay", "0", "--forced-delay", "0.1") as s:
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
        "--window-size=1280,1400",
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


def _buttons(driver: Any) -> list[Any]:
    return driver.find_elements(By.CSS_SELECTOR, "#actions button.act")


def _my_move(driver: Any, game: str) -> bool:
    """One move made the way a player makes it: cards clicked in the hand where the game
    plays cards, rows filled by the solver's suggestion in Mậu Binh, buttons otherwise.
    False if the page had no move to offer after all (a frame redrew it)."""
    buttons = _buttons(driver)
    types = [b.get_attribute("data-type") for b in buttons]
    if not buttons:
        return False
    if game == "maubinh":
        if "confirm" in types:
            buttons[types.index("confirm")].click()
            return True
        driver.find_element(By.ID, "suggest").click()
        rows = driver.find_elements(By.CSS_SELECTOR, ".rows .row .card")
        assert len(rows) == 13, "the suggestion fills the three rows"
        driver.find_element(By.ID, "arrange").click()
        return True
    if "play" in types:
        # Select the cards of the first legal play in the hand, then play the selection.
        cards = buttons[types.index("play")].find_elements(By.CSS_SELECTOR, ".card")
        texts = [c.get_attribute("data-card") for c in cards]
        driver.find_element(By.ID, "clear-selection").click()
        for text in texts:
            driver.find_element(By.CSS_SELECTOR, f'#hand .card[data-card="{text}"]').click()
        driver.find_element(By.ID, "play-selected").click()
        return True
    if "discard" in types:
        card = (
            buttons[types.index("discard")].find_element(By.CSS_SELECTOR, ".piece").get_attribute("data-card")
        )
        pieces = driver.find_elements(By.CSS_SELECTOR, f'#hand .piece.legal[data-card="{card}"]')
        if not pieces:
            return False
        pieces[0].click()
        return True
    preferred = [t for t in ("win", "claim", "decline_sam", "pass") if t in types]
    buttons[types.index(preferred[0]) if preferred else 0].click()
    return True


def create_from_lobby(driver: Any, server: Server, game: str, name: str = "Lan") -> str:
    """Open the lobby, fill the create form for ``game`` (seat 0 a player, the others the
    lobby's default bots, a long turn), click create, and land seated at the new table: its id."""
    driver.get(server.url + "/")
    _wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, f'#game option[value="{game}"]'))
    Select(driver.find_element(By.ID, "game")).select_by_value(game)
    _wait(driver, lambda: driver.find_elements(By.ID, "seat-3"))
    players = driver.find_element(By.ID, "players")
    assert players.get_attribute("value") == "4"
    Select(driver.find_element(By.ID, "seat-0")).select_by_value("")
    for seat in (1, 2, 3):
        assert Select(driver.find_element(By.ID, f"seat-{seat}")).first_selected_option.get_attribute("value")
    driver.find_element(By.ID, "turn").send_keys("600")
    field = driver.find_element(By.ID, "name")
    field.clear()
    field.send_keys(name)
    driver.find_element(By.ID, "create-btn").click()
    _wait(driver, lambda: "/t/" in driver.current_url)
    _wait(driver, lambda: _seq(driver) != "")
    assert driver.find_element(By.ID, "err").text == ""
    table = driver.current_url.split("/t/")[1].split("?")[0]
    me = driver.find_element(By.CSS_SELECTOR, '.seat[data-seat="0"] .name').text
    assert name in me, me
    return table


def _play_hand(driver: Any, server: Server, game: str) -> None:
    table = {"id": create_from_lobby(driver, server, game)}
    for _ in range(400):
        if driver.find_element(By.TAG_NAME, "body").get_attribute("data-over") == "1":
            break
        buttons = _buttons(driver)
        if not buttons:
            time.sleep(0.05)
            continue
        # A lone legal action is forced: the table makes it, the page never asks for it.
        assert len(buttons) > 1, [b.get_attribute("data-type") for b in buttons]
        before = _seq(driver)
        try:
            if not _my_move(driver, game):
                continue
        except StaleElementReferenceException:
            continue  # a bot's move redrew the page under the click: look again
        assert not driver.find_element(By.ID, "err").text, driver.find_element(By.ID, "err").text
        _wait(driver, lambda before=before: _seq(driver) != before)
    else:
        raise AssertionError(f"{game}: the hand did not end")
    settlement = _wait(driver, lambda: driver.find_element(By.ID, "settlement-table"))
    assert len(settlement.find_elements(By.CSS_SELECTOR, "tr[data-seat]")) == 4
    assert driver.find_element(By.ID, "next-hand").is_displayed()
    OUTPUT.mkdir(exist_ok=True)
    driver.save_screenshot(str(OUTPUT / f"table-{game}.png"))
    stored = server.get("/api/tables")
    row = next(t for t in stored if t["id"] == table["id"])
    assert row["is_over"] and sum(row["totals"]) == 0
    assert row["seats"][0]["kind"] == "player" and row["seats"][0]["name"] == "Lan"
    # Back in the lobby, the table is listed.
    driver.get(server.url + "/")
    _wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, f'#tables a[href="/t/{table["id"]}"]'))


@pytest.mark.parametrize("game", GAMES)
def test_lobby_create_join_and_play_a_hand(browser: Any, server: Server, game: str) -> None:
    _play_hand(browser, server, game)


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
