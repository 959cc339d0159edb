"""``mason serve`` in Firefox (issue 33 item 3: "works in current Chromium and Firefox").

Debian's Firefox ESR driven over its own Marionette protocol (tests/web/marionette_client.py; Debian
packages no geckodriver for Selenium): every shipped game's page at the start shows its decision and its
boards and fits a phone's width, and a 2-player Citadels game against a greedy bot is played to its
score table by clicks. Skipped, with the reason, only where Firefox is missing (.ci/run installs
firefox-esr).
"""

from __future__ import annotations

import random
import time

import httpx
import pytest
from marionette_client import FIREFOX, Firefox
from serve_support import free_port, start_server

from mason.model.loader import list_games

pytestmark = pytest.mark.skipif(
    not FIREFOX, reason="Firefox is needed (Debian: apt-get install firefox-esr; .ci/run does)"
)

STATE = (
    "const b = document.body.dataset;"
    " return [b.version || null, b.decision || '', b.over || '', document.querySelectorAll('svg').length];"
)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    proc, base = start_server(tmp_path_factory.mktemp("serve") / "games.sqlite", free_port())
    yield base
    proc.kill()
    proc.wait()


@pytest.fixture(scope="module")
def firefox():
    browser = Firefox(free_port())
    yield browser
    browser.quit()


def _seat_link(base, game, players, seats, seed):
    made = httpx.post(f"{base}/api/games", json={"game": game, "players": players, "seats": seats, "seed": seed})
    token = next(lk["token"] for lk in made.json()["links"] if lk["role"] == "seat" and lk["seat"] == 0)
    return f"{base}/play/{token}"


def _wait(firefox, test, limit=30.0):
    """Poll the page's state until ``test(state)`` holds; the state."""
    deadline = time.monotonic() + limit
    while True:
        state = firefox.run(STATE)
        if test(state) or time.monotonic() > deadline:
            return state
        time.sleep(0.02)


@pytest.mark.parametrize("game", list_games())
def test_issue33_every_game_page_in_firefox(server, firefox, game):
    n = 1 if game == "golden-temple" else 2
    firefox.resize(1280, 800)
    firefox.get(_seat_link(server, game, n, ["human"] + ["greedy"] * (n - 1), seed=1))
    version, decision, over, _ = _wait(firefox, lambda s: bool(s[1]))
    assert decision, "no decision shown"
    assert firefox.run("return document.querySelectorAll('#decision button.option, #decision input').length") > 0
    drawn = firefox.run(
        "return [...document.querySelectorAll('[data-board]')].filter(b => b.getBoundingClientRect().height > 40).length"
    )
    boards = len(
        httpx.get(firefox.run("return location.href").replace("/play/", "/api/play/")).json()["table"]["boards"]
    )
    assert drawn == boards, f"{boards} boards in the table model, {drawn} drawn"
    firefox.resize(390, 844)
    time.sleep(0.2)
    assert firefox.run("return document.documentElement.scrollWidth <= window.innerWidth + 1"), "wider than a phone"


def test_issue33_firefox_plays_a_citadels_game_against_a_greedy_bot_to_the_end(server, firefox):
    firefox.resize(1280, 800)
    firefox.get(_seat_link(server, "citadels", 2, ["human", "greedy"], seed=5))
    rng = random.Random(5)
    clicks = 0
    state = _wait(firefox, lambda s: bool(s[1] or s[2]))
    while not state[2] and clicks < 600:
        version = state[0]
        if firefox.click("#confirm"):
            pass
        else:
            count = firefox.run("return document.querySelectorAll('#decision button.option').length")
            assert count, "a decision with nothing to click"
            firefox.click(f"#decision button.option:nth-of-type({rng.randrange(count) + 1})")
        clicks += 1
        state = _wait(firefox, lambda s, v=version: s[0] != v and bool(s[1] or s[2]))
    assert state[2], f"the game did not end after {clicks} clicks"
    rows = firefox.run("return document.querySelectorAll('#result table.scores tr').length")
    assert rows == 3  # a heading and one row per seat
