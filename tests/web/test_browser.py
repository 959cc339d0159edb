"""``mason serve`` in a browser (issue 33 item 7): Selenium driving Debian's headless chromium.

Two browser sessions play a whole 2-player Citadels game by clicking; solo Golden Temple and
2-player Prague (P2 a greedy bot) are played by clicks to the end of round 2; every game's page is
screenshotted at the start (set MASON_SCREENSHOTS=docs/img to write docs/web.md's pictures) and
must fit a phone-sized screen. Skipped, with the reason, only where chromium or chromedriver is
missing (.ci/run installs both).
"""

from __future__ import annotations

import os
import random
import shutil
import time
from pathlib import Path

import httpx
import pytest
from serve_support import free_port, start_server

from mason.model.loader import list_games

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(
    not (CHROMIUM and DRIVER),
    reason="chromium and chromedriver are needed (Debian: apt-get install chromium chromium-driver; .ci/run does)",
)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    proc, base = start_server(tmp_path_factory.mktemp("serve") / "games.sqlite", free_port())
    yield base
    proc.kill()
    proc.wait()


def _browser(width=1280, height=800):
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    opts = Options()
    opts.binary_location = CHROMIUM
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        f"--window-size={width},{height}",
    ):
        opts.add_argument(arg)
    os.environ.setdefault("SE_AVOID_BROWSER_DOWNLOAD", "1")  # selenium-manager never downloads here
    return webdriver.Chrome(service=Service(DRIVER), options=opts)


@pytest.fixture
def browsers():
    made = []
    yield lambda **kw: made.append(_browser(**kw)) or made[-1]
    for d in made:
        d.quit()


def _create(base, game, players, seats, seed=1):
    made = httpx.post(f"{base}/api/games", json={"game": game, "players": players, "seats": seats, "seed": seed}).json()
    return {lk["seat"]: lk["token"] for lk in made["links"] if lk["role"] == "seat"}


def _state(d):
    return d.execute_script(
        "const b = document.body.dataset; return [b.version || null, b.decision || '', b.over || '', b.round || null];"
    )


def _click_one(d, rng) -> bool:
    """Click an answer on the page of ``d`` if it has a decision: a board place or a card that an option
    names (sometimes), else an option's button; a choice of several is confirmed as it stands. An
    element the page drew again between finding and clicking it (a state the server pushed meanwhile)
    is no click: False, and the caller looks again."""
    from selenium.common.exceptions import StaleElementReferenceException

    try:
        return _click_once(d, rng)
    except StaleElementReferenceException:
        return False


def _click_once(d, rng) -> bool:
    from selenium.webdriver.common.by import By

    version, decision, over, _ = _state(d)
    if not decision or over:
        return False
    confirm = d.find_elements(By.ID, "confirm")
    if confirm:
        confirm[0].click()
    else:
        targets = d.find_elements(By.CSS_SELECTOR, "[data-place] .target, .card.target")
        buttons = d.find_elements(By.CSS_SELECTOR, "#decision button.option")
        if targets and rng.random() < 0.5:
            d.execute_script(
                "arguments[0].closest('[data-place]') ? arguments[0].closest('[data-place]')"
                ".dispatchEvent(new MouseEvent('click', {bubbles: true})) : arguments[0].click();",
                rng.choice(targets),
            )
        else:
            rng.choice(buttons).click()
    for _ in range(400):  # the page shows the next state (or a refusal: then the same decision again)
        now = _state(d)
        if now[0] != version or d.find_elements(By.CSS_SELECTOR, "#message:not([hidden])"):
            break
        time.sleep(0.01)
    hot = d.find_elements(By.CSS_SELECTOR, "#decision button.option.hot")
    if hot and _state(d)[1] == decision:  # a place several options name: pick among them
        hot[0].click()
    return True


def _play(drivers, rng, until, limit=3000):
    """Click in whichever browser has a decision until ``until()`` holds; the number of clicks."""
    clicks, idle = 0, 0
    while not until() and clicks < limit:
        acted = False
        for d in drivers:
            acted = _click_one(d, rng) or acted
        clicks += acted
        idle = 0 if acted else idle + 1
        assert idle < 1500, "no browser got a decision for a long while"
        if not acted:
            time.sleep(0.01)
    return clicks


def test_issue33_two_browsers_play_a_whole_citadels_game_by_clicking(server, browsers):
    from selenium.webdriver.common.by import By

    tokens = _create(server, "citadels", 2, ["human", "human"], seed=3)
    pages = [browsers(), browsers()]
    for seat, d in enumerate(pages):
        d.get(f"{server}/play/{tokens[seat]}")
    rng = random.Random(3)
    clicks = _play(pages, rng, lambda: all(_state(d)[2] for d in pages))
    assert clicks > 20
    for d in pages:
        rows = d.find_elements(By.CSS_SELECTOR, "#result table.scores tr")
        assert len(rows) == 3  # a heading and one row per seat
        assert d.find_elements(By.CSS_SELECTOR, "#result tr.winner")


@pytest.mark.parametrize("game,players", [("golden-temple", 1), ("prague", 2)])
def test_issue33_games_played_by_clicks_to_the_end_of_round_two(server, browsers, game, players):
    tokens = _create(server, game, players, ["human"] + ["greedy"] * (players - 1), seed=2)
    d = browsers()
    d.get(f"{server}/play/{tokens[0]}")
    rng = random.Random(2)

    def past_round_two():
        _, _, over, rnd = _state(d)
        return over or (rnd is not None and int(rnd) >= 3)

    clicks = _play([d], rng, past_round_two)
    assert past_round_two() and clicks >= 5
    assert "stopped" not in d.find_element("id", "decision").text


SHOTS = Path(os.environ["MASON_SCREENSHOTS"]) if os.environ.get("MASON_SCREENSHOTS") else None


@pytest.mark.parametrize("game", list_games())
def test_issue33_every_game_page_at_the_start_and_on_a_phone(server, browsers, game, tmp_path):
    """The page draws each game's boards at the start (a screenshot) and fits a phone's width."""
    from selenium.webdriver.common.by import By

    n = 1 if game == "golden-temple" else 2
    tokens = _create(server, game, n, ["human"] + ["greedy"] * (n - 1), seed=1)
    d = browsers()
    d.get(f"{server}/play/{tokens[0]}")
    for _ in range(500):
        if _state(d)[1]:
            break
        time.sleep(0.01)
    assert _state(d)[1], "no decision shown"
    assert d.find_elements(By.CSS_SELECTOR, "#decision button.option, #decision input")
    errors = [e for e in d.get_log("browser") if e["level"] == "SEVERE" and "favicon" not in e["message"]]
    assert not errors, errors
    height = d.execute_script("return document.documentElement.scrollHeight")
    d.set_window_size(1280, min(height + 140, 3000))
    folder = SHOTS or tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    assert d.save_screenshot(str(folder / f"{game}.png"))
    d.set_window_size(390, 844)
    time.sleep(0.2)
    assert d.execute_script("return document.documentElement.scrollWidth <= window.innerWidth + 1"), (
        "wider than a phone"
    )
    if SHOTS:
        d.save_screenshot(str(folder / f"{game}-phone.png"))


def test_issue33_lobby_creates_a_game_and_the_page_explains_and_highlights(server, browsers):
    """From the lobby: Citadels, 2 players, P2 a greedy bot; P1's link plays; after P1's answers the
    log lines since P1's last decision are highlighted and 'why' explains a line."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    d = browsers()
    d.get(server + "/")
    wait = WebDriverWait(d, 30)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#game option[value=citadels]"))
    Select(d.find_element(By.ID, "game")).select_by_value("citadels")
    Select(d.find_element(By.ID, "players")).select_by_value("2")
    Select(d.find_element(By.ID, "seat1")).select_by_value("greedy")
    d.find_element(By.ID, "start").click()
    link = wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#links li[data-role=seat] a"))
    assert len(link) == 1 and len(d.find_elements(By.CSS_SELECTOR, "#links li")) == 3  # P1, spectator, host
    d.get(link[0].get_attribute("href"))
    wait.until(lambda d: _state(d)[1])
    rng = random.Random(4)
    for _ in range(3):  # a few answers: P2 (the bot) moves in between
        _click_one(d, rng)
        wait.until(lambda d: _state(d)[1] or _state(d)[2])
    assert d.find_elements(By.CSS_SELECTOR, "#log li.new"), "nothing highlighted since the last decision"
    line = d.find_elements(By.CSS_SELECTOR, "#log li")[-1]
    line.find_element(By.CSS_SELECTOR, "button.why").click()
    why = wait.until(lambda d: line.find_elements(By.TAG_NAME, "pre"))
    assert why[0].text.startswith("line ")


def test_prague_page_writes_the_crane_and_the_planks_in_words(server, browsers, tmp_path):
    """The crane's stations and slots in the words the table model gives them (as the terminal's `view
    crane` writes them), not their raw values (``red 1 true``); the planks' rewards in words (``3 VP``);
    screenshotted at a laptop's size."""
    made = httpx.post(
        f"{server}/api/games",
        json={
            "game": "prague",
            "players": 2,
            "seats": ["human", "greedy"],
            "seed": 1,
            "variants": ["bridge_sides_fixed"],
        },
    ).json()
    token = next(lk["token"] for lk in made["links"] if lk["seat"] == 0)
    d = browsers(width=1440, height=900)
    d.get(f"{server}/play/{token}")
    for _ in range(500):
        if _state(d)[1]:
            break
        time.sleep(0.01)
    stations, slots, texts, shared = d.execute_script(  # read at once: the page redraws as the game goes on
        "const w = document.querySelector('[data-board=crane] svg.wheel');"
        "const all = (sel) => [...w.querySelectorAll(sel)].map((t) => t.textContent);"
        "return [all('text.station-words'), all('text.slot-words'), all('text'),"
        " document.getElementById('shared').innerText];"
    )
    assert "zone red, cost 1, star" in stations and "zone green, hole" in stations
    assert "notch, bonus an egg" in slots and "for 1 gold" in slots  # one slot's words on two lines
    assert not [t for t in texts if "true" in t.split()], texts
    assert "plank sides: (gold, gold), (silver window), (3 VP), (Hunger Wall sideways move), (gold window)" in shared
    assert d.save_screenshot(str(tmp_path / "prague-laptop.png"))
