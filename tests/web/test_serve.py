"""``mason serve`` (issue 33): the served-payload leak check and the restart test for every shipped
game, refusals that change nothing, export and import, the WebSocket (Starlette's TestClient; the
restart test runs the real server in a process and kills it with SIGKILL)."""

from __future__ import annotations

import json
import random
import re
import signal
import time

import httpx
import pytest
from serve_support import free_port, start_server
from starlette.testclient import TestClient

from mason.model.expansions import list_expansions
from mason.model.loader import find_game, list_games
from mason.session.determinize import determinize
from mason.session.game import Game, Settings, load_program
from mason.web import hub as hub_module
from mason.web.app import create_app
from mason.web.hub import Hub
from mason.web.store import Store

GAMES = list_games()


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(str(tmp_path / "games.sqlite"))) as c:
        yield c


def _create(client, game, players, seats=None, seed=3, **extra):
    r = client.post(
        "/api/games",
        json={"game": game, "players": players, "seed": seed, "seats": seats or ["human"] * players, **extra},
    )
    assert r.status_code == 200, r.text
    made = r.json()
    seats_tokens = {lk["seat"]: lk["token"] for lk in made["links"] if lk["role"] == "seat"}
    role = {lk["role"]: lk["token"] for lk in made["links"] if lk["role"] != "seat"}
    return made["id"], seats_tokens, role


def _answer_for(rng, decision):
    n = len(decision["options"])
    if decision["subset"]:
        return sorted(rng.sample(range(n), rng.randint(0, min(n, decision["subset"]))))
    return rng.randrange(n)


def _decider(client, tokens):
    """The seat deciding now and its payload (None when the game is over or a bot decides)."""
    for seat, token in tokens.items():
        p = client.get(f"/api/play/{token}").json()
        if p["decision"]:
            return seat, p
    return None, p


# ---------------------------------------------------------------------------- the leak check
def _served(client, token) -> str:
    return json.dumps(client.get(f"/api/play/{token}").json(), sort_keys=True)


def served_leak(client, live, token, seat, tag) -> str | None:
    """What the link of ``seat`` receives differently when what it cannot see is resampled (None: nothing)."""
    real = live.game
    seen = _served(client, token)
    try:
        for i in range(3):
            state = determinize(real.program, real.state, seat, random.Random(f"{tag}/{i}"))
            live.game = Game(real.program, real.settings, state, list(real.log))
            live.game.answered = list(real.answered or [])
            live.forget()  # nothing built from the real game is reused
            if _served(client, token) != seen:
                return f"the payload of P{seat + 1} depends on what it cannot see"
    finally:
        live.game = real
        live.forget()
    return None


LEAK_SETUPS = [(g, ()) for g in GAMES] + [
    (g, (e,)) for g in GAMES for e in list_expansions(find_game(g))
]  # every shipped game, and each with each of its expansions


@pytest.mark.parametrize(
    "game_id,expansions", LEAK_SETUPS, ids=[g + "".join("+" + e for e in x) for g, x in LEAK_SETUPS]
)
def test_issue33_served_payloads_leak_nothing(client, game_id, expansions):
    """Every shipped game (and expansion), all seats human: at decisions along a random game, resampling
    what a seat cannot see changes nothing in the payload its link receives (the deciding seat and another)."""
    players = max(2, load_program(game_id, (), expansions).min_players)
    gid, tokens, _ = _create(client, game_id, players, seed=11, expansions=list(expansions))
    hub = client.app.state.hub
    live = hub.games[gid]
    moves, picks = random.Random(f"moves/{game_id}"), random.Random(f"picks/{game_id}")
    checked = 0
    for k in range(160):
        seat, p = _decider(client, tokens)
        if seat is None:
            break
        if k == 0 or picks.randrange(8) == 0:
            for s in {seat, (seat + 1) % players}:
                found = served_leak(client, live, tokens[s], s, f"{game_id}/{k}")
                assert found is None, f"{game_id} decision {k}: {found}"
            checked += 1
        d = p["decision"]
        r = client.post(f"/api/play/{tokens[seat]}/answer", json={"decision": d["id"], "answer": _answer_for(moves, d)})
        assert r.status_code == 200, r.text
    assert checked >= 5


def test_issue33_the_served_leak_check_finds_a_planted_leak(client, monkeypatch):
    """A payload that carries the hidden zones (the seat's opponent's hand): the check says so."""
    gid, tokens, _ = _create(client, "citadels", 2, seed=4)
    live = client.app.state.hub.games[gid]
    real = hub_module.build_payload

    def leaky(live, seat, role):
        out = real(live, seat, role)
        out["zones"] = live.game.state["zones"]
        return out

    monkeypatch.setattr(hub_module, "build_payload", leaky)
    assert served_leak(client, live, tokens[0], 0, "planted") is not None


def test_issue33_spectator_gets_the_public_view_only(client):
    gid, tokens, role = _create(client, "citadels", 2, seed=4)
    live = client.app.state.hub.games[gid]
    p = client.get(f"/api/play/{role['spectator']}").json()
    assert p["seat"] is None and p["decision"] is None and p["role"] == "spectator"
    assert all(not z["cards"] for s in p["table"]["seats"] for z in s["zones"] if z["hidden"])
    assert served_leak(client, live, role["spectator"], 0, "spectator") is None


# ---------------------------------------------------------------------------- refusals
def test_issue33_refusals_change_nothing(client):
    gid, tokens, role = _create(client, "citadels", 2, seed=4)
    seat, p = _decider(client, tokens)
    other = tokens[1 - seat]
    before = _served(client, tokens[seat])
    d = p["decision"]
    cases = [
        (other, {"decision": d["id"], "answer": 0}, 403, "not your decision"),
        (tokens[seat], {"decision": d["id"] + 1, "answer": 0}, 409, "stale decision"),
        (tokens[seat], {"decision": d["id"], "answer": 99}, 422, "not accepted"),
        (tokens[seat], {"decision": d["id"], "answer": {"x": 1}}, 422, "an answer is"),
        (tokens[seat], {"answer_": 0}, 400, "expected"),
        (role["spectator"], {"decision": d["id"], "answer": 0}, 403, "only watches"),
    ]
    for token, body, status, words in cases:
        r = client.post(f"/api/play/{token}/answer", json=body)
        assert r.status_code == status, (body, r.text)
        assert words in r.json()["error"] and "\n" not in r.json()["error"]
    r = client.post(f"/api/play/{tokens[seat]}/answer", content=b"{not json")
    assert r.status_code == 400 and "not JSON" in r.json()["error"]
    r = client.post(f"/api/play/{tokens[seat]}/answer", content=b"[" + b"0," * 40000 + b"0]")
    assert r.status_code == 413 and "too large" in r.json()["error"]
    assert client.get("/api/play/not-a-token-at-all-xx").status_code == 404
    assert client.get("/api/play/../../etc/passwd").status_code == 404
    assert _served(client, tokens[seat]) == before


def test_issue33_client_names_never_reach_the_file_system(client, tmp_path, monkeypatch):
    """A game named by a path (even one holding a valid game folder) is refused: games only by installed id."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine").mkdir()
    for name in ["../games/citadels", "/etc/passwd", "mine", "citadels/../prague", str(tmp_path / "mine"), 3, None]:
        r = client.post("/api/games", json={"game": name, "players": 2})
        assert r.status_code == 404 and "no installed game" in r.json()["error"], name
    r = client.post("/api/games", json={"game": "citadels", "players": 2, "expansions": ["../../x"]})
    assert r.status_code == 400 and "unknown expansion" in r.json()["error"]
    r = client.post("/api/games", json={"game": "citadels", "players": 9})
    assert r.status_code == 400 and "players" in r.json()["error"]
    r = client.post("/api/games", json={"game": "citadels", "players": 2, "seats": ["human", "mcts:99999"]})
    assert r.status_code == 400 and "iterations" in r.json()["error"]
    r = client.post("/api/games", json={"game": "citadels", "players": 2, "seats": ["human", "mcts:257"]})
    assert r.status_code == 400 and "1 to 256" in r.json()["error"]  # the cap, for the slower search


def test_issue33_tokens_are_long_and_distinct(client):
    _, tokens, role = _create(client, "citadels", 3)
    all_tokens = list(tokens.values()) + list(role.values())
    assert len(set(all_tokens)) == 5
    assert all(len(t) >= 32 for t in all_tokens)  # token_urlsafe(24): 192 bits


def test_issue33_websocket_pushes_and_refuses(client):
    gid, tokens, _ = _create(client, "citadels", 2, seed=4)
    seat, p = _decider(client, tokens)
    with (
        client.websocket_connect(f"/ws/{tokens[1 - seat]}") as watcher,
        client.websocket_connect(f"/ws/{tokens[seat]}") as ws,
    ):
        first = ws.receive_json()
        assert first["type"] == "state" and first["state"]["decision"]["id"] == p["decision"]["id"]
        assert watcher.receive_json()["state"]["waiting"]["seat"] == seat
        ws.send_text("x" * 20000)
        assert "too large" in ws.receive_json()["error"]
        ws.send_text("{oops")
        assert "not JSON" in ws.receive_json()["error"]
        ws.send_json({"type": "answer", "decision": p["decision"]["id"] + 5, "answer": 0})
        assert "stale decision" in ws.receive_json()["error"]
        ws.send_json({"type": "answer", "decision": p["decision"]["id"], "answer": 0})
        pushed = watcher.receive_json()  # the other seat hears of the change
        assert pushed["type"] == "state" and pushed["state"]["version"] == 1
        assert served_leak(client, client.app.state.hub.games[gid], tokens[1 - seat], 1 - seat, "ws") is None


def test_issue33_undo_follows_the_terminal_rules(client):
    """Undo of one's own last decision is allowed when nothing else happened; refused once another decided."""
    gid, tokens, _ = _create(client, "citadels", 2, seed=4)
    seat, p = _decider(client, tokens)
    r = client.post(f"/api/play/{tokens[seat]}/undo")
    assert r.status_code == 409 and "no earlier decision" in r.json()["error"]
    hub = client.app.state.hub
    live = hub.games[gid]
    for _ in range(40):  # until a seat decides twice in a row (the first draft picks are one each)
        seat, p = _decider(client, tokens)
        client.post(f"/api/play/{tokens[seat]}/answer", json={"decision": p["decision"]["id"], "answer": 0})
        now, q = _decider(client, tokens)
        if now == seat:
            before = live.game.state["decisions"]
            r = client.post(f"/api/play/{tokens[seat]}/undo")
            if r.status_code == 200:
                assert live.game.state["decisions"] == before - 1
                assert r.json()["decision"]["id"] == p["decision"]["id"]
                return
            assert "cannot undo" in r.json()["error"]
        elif now is not None:
            r = client.post(f"/api/play/{tokens[seat]}/undo")
            assert r.status_code == 409 and "cannot undo" in r.json()["error"]
    pytest.fail("no undo was allowed in 40 decisions")


# ---------------------------------------------------------------------------- export and import
def test_issue33_export_and_import_as_save_and_log(client):
    gid, tokens, role = _create(client, "prague", 2, seed=6)
    rng = random.Random(6)
    for _ in range(12):
        seat, p = _decider(client, tokens)
        client.post(
            f"/api/play/{tokens[seat]}/answer",
            json={"decision": p["decision"]["id"], "answer": _answer_for(rng, p["decision"])},
        )
    r = client.get(f"/api/play/{tokens[0]}/export?format=save")
    assert r.status_code == 403 and "host" in r.json()["error"]  # a save shows every hidden card
    original = client.get(f"/api/play/{tokens[0]}").json()
    for fmt in ("save", "log"):
        r = client.get(f"/api/play/{role['host']}/export?format={fmt}")
        assert r.status_code == 200
        made = client.post("/api/import", content=r.content).json()
        token = next(lk["token"] for lk in made["links"] if lk["seat"] == 0)
        again = client.get(f"/api/play/{token}").json()
        for key in ("table", "decision", "log", "since", "waiting"):
            assert again[key] == original[key], (fmt, key)
    r = client.post("/api/import", content=b'{"mason": 2, "settings": {"game": "../x", "players": 2}}')
    assert r.status_code == 404 and "no installed game" in r.json()["error"]
    r = client.post("/api/import", content=b"hello")
    assert r.status_code == 400 and "cannot import" in r.json()["error"]


# ---------------------------------------------------------------------------- restart (SIGKILL)
def _human_answers(get, post, token, rng, count):
    """Answer ``count`` decisions of the human seat (waiting while the bots play); the payload after."""
    done = 0
    for _ in range(20000):
        p = get(f"/api/play/{token}")
        if p["over"]:
            return p, done
        if p["decision"] and done == count:
            return p, done
        if p["decision"]:
            r = post(
                f"/api/play/{token}/answer",
                {"decision": p["decision"]["id"], "answer": _answer_for(rng, p["decision"])},
            )
            assert "error" not in r, r
            done += 1
        else:
            time.sleep(0.01)
    raise AssertionError("the bots did not hand back the decision")


RESTART = [(g, 1 if load_program(g).min_players == 1 else 2) for g in GAMES]


@pytest.mark.parametrize("game_id,players", RESTART, ids=[g for g, _ in RESTART])
def test_issue33_a_server_killed_mid_game_continues_exactly(tmp_path, game_id, players):
    """Every shipped game, P1 human and the other seat a random bot: a server killed with SIGKILL after
    12 of P1's answers and restarted on the same file plays on to P1's 24th answer; the game (log and
    state) is the one an undisturbed server reaches with the same answers."""
    seats = ["human"] + ["random"] * (players - 1)
    settings = {"game": game_id, "players": players, "seed": 21, "seats": seats}
    db, port = tmp_path / "games.sqlite", free_port()
    proc, base = start_server(db, port)
    get = lambda path: httpx.get(base + path, timeout=30).json()
    post = lambda path, body: httpx.post(base + path, json=body, timeout=30).json()
    try:
        made = post("/api/games", settings)
        token = next(lk["token"] for lk in made["links"] if lk["seat"] == 0)
        host = next(lk["token"] for lk in made["links"] if lk["role"] == "host")
        rng = random.Random(5)
        _, done = _human_answers(get, post, token, rng, 12)
        assert done == 12, "the game ended before the restart"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    proc, base = start_server(db, port)
    try:
        _, done = _human_answers(get, post, token, rng, 12)
        served = httpx.get(f"{base}/api/play/{host}/export?format=save", timeout=30).json()
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    # the same game on a server never stopped (the hub in this process)
    hub = Hub(Store(str(tmp_path / "again.sqlite")))
    live = hub.games[hub.create(settings)["id"]]
    rng = random.Random(5)
    for _ in range(24):
        hub.advance(live)
        p = hub.payload(live, 0)
        if p["over"]:
            break
        hub.answer(live, 0, p["decision"]["id"], _answer_for(rng, p["decision"]))
    hub.advance(live)
    assert served["log"] == live.game.log
    assert served["state"] == json.loads(json.dumps(live.game.state))
    assert Settings.from_json(served["settings"]) == live.game.settings


def test_issue33_a_bot_thinking_blocks_no_page(client, monkeypatch):
    """While a bot of one game is deciding (held here until released), that game's pages and another
    game's answers are served: bots think on a copy, in their own pool, without the game's lock."""
    import threading

    release, thinking = threading.Event(), threading.Event()

    class Slow:
        def decide(self, game, seat):
            thinking.set()
            release.wait(60)  # (a guard: a server that waits for its bots hangs here a minute, then fails)
            return 0

    monkeypatch.setattr(hub_module, "make_bot", lambda kind, seed, seat: Slow())
    gid, tokens, role = _create(client, "citadels", 2, seats=["human", "mcts"], seed=4)
    other, other_tokens, _ = _create(client, "citadels", 2, seed=5)
    try:
        for _ in range(10):  # P1 answers until the bot has a decision to think about
            p = client.get(f"/api/play/{tokens[0]}").json()
            if thinking.is_set():
                break
            if p["decision"]:
                client.post(f"/api/play/{tokens[0]}/answer", json={"decision": p["decision"]["id"], "answer": 0})
            thinking.wait(0.5)
        assert thinking.is_set(), "the bot was never asked"
        seen = {}

        def pages():
            seen["own"] = client.get(f"/api/play/{tokens[0]}").json()  # the thinking bot's own game
            seen["watch"] = client.get(f"/api/play/{role['spectator']}").json()
            seat, q = _decider(client, other_tokens)  # another game is answered meanwhile
            r = client.post(
                f"/api/play/{other_tokens[seat]}/answer", json={"decision": q["decision"]["id"], "answer": 0}
            )
            seen["other"] = r

        served = threading.Thread(target=pages)
        served.start()
        served.join(30)  # a hang guard, not a speed test: while the bot thinks, these wait for nothing
        assert not served.is_alive(), "a page waited for the thinking bot"
        assert seen["own"]["waiting"] == {"seat": 1, "name": "P2", "bot": True}
        assert seen["watch"]["waiting"]["bot"]
        assert seen["other"].status_code == 200 and seen["other"].json()["version"] == 1
    finally:
        release.set()


def test_issue33_why_speaks_in_the_seats_own_line_numbers(client):
    """'why' on a log line: the line and its causes, numbered as the seat's log is (the log's own entry
    numbers would count the entries the seat does not read)."""
    gid, tokens, _ = _create(client, "citadels", 2, seed=4)
    rng = random.Random(4)
    for _ in range(15):
        seat, p = _decider(client, tokens)
        client.post(
            f"/api/play/{tokens[seat]}/answer",
            json={"decision": p["decision"]["id"], "answer": _answer_for(rng, p["decision"])},
        )
    lines = client.get(f"/api/play/{tokens[0]}/log").json()["log"]
    live = client.app.state.hub.games[gid]
    assert len(live.game.visible_log(0)) < len(live.game.log)  # some entries P1 does not read
    said = [client.get(f"/api/play/{tokens[0]}/why/{line['n']}").json()["lines"] for line in lines[-12:]]
    assert all(w[0].startswith(f"line {line['n']} ") for w, line in zip(said, lines[-12:]))
    assert not any(re.search(r"\bentry \d", text) for w in said for text in w)
    assert any("because" in text for w in said for text in w)
    r = client.get(f"/api/play/{tokens[0]}/why/99999")
    assert r.status_code == 404 and "no log line" in r.json()["error"]


def test_issue33_serve_refuses_a_busy_port_and_a_bad_database_in_one_line(tmp_path):
    import socket
    import subprocess
    import sys

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        cases = [
            (["--port", str(port), "--db", str(tmp_path / "g.sqlite")], "error[serve/address]: cannot listen on"),
            (["--port", "0", "--db", str(tmp_path / "no" / "g.sqlite")], "error[serve/db]:"),
        ]
        for args, words in cases:
            r = subprocess.run(
                [sys.executable, "-m", "mason.cli.entry", "serve", *args], capture_output=True, text=True, timeout=120
            )
            assert r.returncode == 1 and r.stderr.startswith(words) and r.stderr.count("\n") == 1, r.stderr
            assert "Traceback" not in r.stderr and r.stdout == ""
