"""Issue 10, items 1-4 and 8: a game is the same across saves (the bots' randomness in the state, the
seats' owners in the save); a game without --seed gets a fresh seed, shown only in the save, the log and
the final summary; saves never lose work (Ctrl-C saves, atomic writes, targets checked first, the log
kept on an error, the default name never replacing another game's save); save files are checked as
data; a log replays from any directory."""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path

import paths
import pytest
from jsonschema import Draft202012Validator
from support import invoke, mason_process, new_game

from mason.agents.human import HumanAgent, QuitRequested
from mason.errors import SaveError
from mason.model.loader import list_games
from mason.play.session import make_bot, play_game
from mason.session.game import Game, Settings, load_program

ROOT = paths.ROOT
MINI = ROOT / "tests" / "fixtures" / "mini"
SCHEMA_FILE = ROOT / "schemas" / "save.schema.json"
TIMEOUT = 120


# ------------------------------------------------------------------ helpers
def mason(*args, input="", cwd=ROOT):
    """``mason ARGS`` as a real process in ``cwd`` (the package found from anywhere)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return mason_process(*args, input=input, cwd=cwd, env=env, timeout=TIMEOUT)


def popen(*args, cwd=ROOT):
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen(
        [sys.executable, "-m", "mason.cli.main", *map(str, args)],
        cwd=cwd,
        env=env,
        text=True,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    killer = threading.Timer(TIMEOUT, proc.kill)  # never hang the suite
    killer.daemon = True
    killer.start()
    return proc


def wait_for_prompt(proc, count=1) -> str:
    """Read the output until the ``count``-th prompt of seat 1 (the process then waits on stdin)."""
    seen, out = 0, []
    while seen < count:
        line = proc.stdout.readline()
        assert line, "the game ended before the prompt: " + "".join(out[-20:])
        out.append(line)
        if line.startswith("[P1] "):
            seen += 1
    return "".join(out)


def one_line_failure(result) -> str:
    assert result.exit_code != 0, result.output
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    err = result.stderr.strip().splitlines()
    assert len(err) == 1 and "Traceback" not in result.output, result.stderr
    assert "error[internal]" not in err[0], err[0]
    return err[0]


def final_table(out: str) -> str:
    return out[out.index("Final scores:") :]


def broken_mini(tmp_path) -> Path:
    """The mini game, where taking gold asks for 100 gold: the game stops with an error."""
    folder = tmp_path / "broken"
    shutil.copytree(MINI, folder)
    text = (folder / "game.yaml").read_text(encoding="utf-8")
    old = "{id: take_gold, label: Take 2 gold, group: action, do: gain 2 gold}"
    assert old in text
    (folder / "game.yaml").write_text(text.replace(old, old.replace("gain 2 gold", "pay 100 gold")), encoding="utf-8")
    return folder


# ================================================================== item 1: determinism across saves
def test_item1_bots_draw_from_the_state_so_a_resumed_game_equals_one_sitting(tmp_path):
    settings = Settings("citadels", 4, 9)
    whole = Game.new(settings)
    play_game(whole, {s: make_bot("random", 9, s) for s in range(4)})

    part = Game.new(settings)
    bots = {s: make_bot("random", 9, s) for s in range(4)}
    for _ in range(25):
        seat = part.pending["seat"]
        part.answer(bots[seat].decide(part, seat))
    assert set(part.state["bots"]) and all(isinstance(v, int) for v in part.state["bots"].values())
    part.save(tmp_path / "s.json")
    resumed = Game.load(tmp_path / "s.json")
    play_game(resumed, {s: make_bot("random", 9, s) for s in range(4)})  # new bots, as a new process has
    assert resumed.log == whole.log and resumed.result == whole.result


@pytest.mark.parametrize("game", ["citadels", "pillars"])
def test_item1_cut_by_end_of_input_and_resumed_alone_ends_as_one_sitting(game, tmp_path):
    cut = mason("play", game, "-p", 4, "--seed", 9, input="1\n" * 25, cwd=tmp_path)
    assert cut.returncode == 0, cut.stderr
    assert "end of input: game saved to mason-save.json" in cut.stdout
    rest = mason(
        "play", game, "--resume", "mason-save.json", "--log", "resumed.jsonl", input="1\n" * 3000, cwd=tmp_path
    )
    assert rest.returncode == 0, rest.stderr
    whole = mason("play", game, "-p", 4, "--seed", 9, "--log", "whole.jsonl", input="1\n" * 3025, cwd=tmp_path)
    assert whole.returncode == 0, whole.stderr
    assert final_table(rest.stdout) == final_table(whole.stdout)
    assert (tmp_path / "resumed.jsonl").read_text() == (tmp_path / "whole.jsonl").read_text()


def test_item1_a_save_records_who_plays_each_seat_and_resume_seats_them_again(tmp_path):
    save = tmp_path / "s.json"
    first = invoke("play", "citadels", "-p", 3, "--seed", 5, "--bot", "2=human", "--save", save, input="quit\n")
    assert first.exit_code == 0, first.output
    assert json.loads(save.read_text())["seats"] == ["human", "human", "random"]

    again = invoke("play", "citadels", "--resume", save, input="1\n" * 60)
    assert again.exit_code == 0, again.output
    assert "[P2] " in again.output and "[P3] " not in again.output  # P2 still a person, P3 a bot
    assert "seats changed" not in again.output

    bots = invoke("play", "citadels", "--resume", save, "--bots", "random")
    assert bots.exit_code == 0, bots.output
    assert "note: seats changed from the save: P1 human -> random, P2 human -> random" in bots.output
    assert "Final scores:" in bots.output and "[P1] " not in bots.output


@pytest.mark.parametrize(
    "flags",
    [["-p", "4"], ["--seed", "3"], ["--variant", "short_game"], ["--with", "dark-city"], ["--option", "start_gold=5"]],
    ids=lambda f: f[0],
)
def test_item1_settings_given_with_resume_are_refused(flags, tmp_path):
    save = tmp_path / "s.json"
    assert invoke("play", "citadels", "-p", 3, "--seed", 5, "--save", save, input="quit\n").exit_code == 0
    err = one_line_failure(invoke("play", "citadels", "--resume", save, *flags))
    assert err.startswith("error[cli/usage]: ") and f"{flags[0]} cannot be given with --resume" in err


# ================================================================== item 2: a fresh seed
def _dealt(log_path) -> list:
    """The private entries before the first decision: the hands dealt."""
    entries = [json.loads(l) for l in Path(log_path).read_text().splitlines()]
    first = next(i for i, e in enumerate(entries) if e.get("type") == "decision")
    return [e["text"] for e in entries[:first] if e.get("to")]


def test_item2_two_games_without_seed_deal_different_hands(tmp_path):
    a = invoke("play", "citadels", "-p", 3, "--bots", "random", "--log", tmp_path / "a.jsonl")
    b = invoke("play", "citadels", "-p", 3, "--bots", "random", "--log", tmp_path / "b.jsonl")
    assert a.exit_code == 0 and b.exit_code == 0, a.output + b.output
    assert _dealt(tmp_path / "a.jsonl") and _dealt(tmp_path / "a.jsonl") != _dealt(tmp_path / "b.jsonl")


def test_item2_a_fresh_seed_is_shown_only_in_the_save_the_log_and_the_final_summary(tmp_path):
    log = tmp_path / "g.jsonl"
    run = invoke("play", "citadels", "-p", 3, "--bots", "random", "--log", log)
    assert run.exit_code == 0, run.output
    seed = json.loads(log.read_text().splitlines()[0])["settings"]["seed"]
    assert isinstance(seed, int)
    head, _, tail = run.output.partition("Game over")
    assert run.output.splitlines()[0] == "citadels with 3 players"
    assert str(seed) not in head and "seed" not in head
    assert tail.startswith(f"; seed {seed} ")

    quit_ = invoke("play", "citadels", "-p", 3, "--save", "s.json", input="quit\n", cwd=tmp_path)
    seed = json.loads((tmp_path / "s.json").read_text())["settings"]["seed"]
    assert str(seed) not in quit_.output and "seed" not in quit_.output
    quiet = invoke("play", "citadels", "-p", 3, "--bots", "random", "--quiet")
    assert quiet.output.startswith("Game over; seed ")  # --quiet still tells a fresh seed
    given = invoke("play", "citadels", "-p", 3, "--bots", "random", "--seed", 4)
    assert given.output.startswith("citadels with 3 players, seed 4")


# ================================================================== item 3: saves never lose work
def test_item3_ctrl_c_at_a_prompt_saves_first_and_resume_goes_on(tmp_path):
    proc = popen("play", "citadels", "-p", 3, "--seed", 5, "--save", "s.json", cwd=tmp_path)
    proc.stdin.write("1\n")
    proc.stdin.flush()
    wait_for_prompt(proc, 2)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=TIMEOUT)
    assert proc.returncode == 130, err
    assert "Traceback" not in out + err and err == ""
    assert "interrupted: game saved to s.json; resume with --resume s.json" in out
    saved = json.loads((tmp_path / "s.json").read_text())
    assert saved["state"]["pending"]["seat"] == 0 and saved["state"]["decisions"] >= 1

    rest = mason("play", "citadels", "--resume", "s.json", input="1\n" * 3000, cwd=tmp_path)
    assert rest.returncode == 0, rest.stderr
    whole = mason("play", "citadels", "-p", 3, "--seed", 5, input="1\n" * 3001, cwd=tmp_path)
    assert final_table(rest.stdout) == final_table(whole.stdout)


def test_item3_ctrl_c_while_bots_play_saves_after_the_decision_in_progress(tmp_path):
    proc = popen("play", "prague", "-p", 4, "--bots", "random", "--seed", 2, cwd=tmp_path)
    while "== Round 2" not in (line := proc.stdout.readline()):
        assert line, "the game ended"
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=TIMEOUT)
    assert proc.returncode == 130 and err == "", err
    assert "interrupted: game saved to mason-save.json" in out
    rest = mason("play", "prague", "--resume", "mason-save.json", "--quiet", cwd=tmp_path)
    whole = mason("play", "prague", "-p", 4, "--bots", "random", "--seed", 2, "--quiet", cwd=tmp_path)
    assert rest.returncode == 0, rest.stderr
    assert whole.returncode == 0, whole.stderr
    assert final_table(rest.stdout) == final_table(whole.stdout)


def test_item3_ctrl_c_at_the_human_agent_saves_as_quit_does(tmp_path):
    game = new_game("citadels", 3, 5)
    out = []

    def interrupted():
        raise KeyboardInterrupt

    agent = HumanAgent(interrupted, out.append, str(tmp_path / "s.json"))
    with pytest.raises(QuitRequested) as stop:
        try:
            agent.decide(game, game.pending["seat"])
        except KeyboardInterrupt:
            pytest.fail("Ctrl-C at the prompt went through without saving")
    assert stop.value.reason == "interrupted" and stop.value.error is None
    assert any(line.startswith(f"interrupted: game saved to {tmp_path / 's.json'}") for line in out)
    assert Game.load(tmp_path / "s.json").state == game.state


class _FullDisk:
    """A file opened for writing whose writes fail, as on a full disk."""

    def __init__(self, real):
        self.real = real

    def write(self, text):
        raise OSError(28, "No space left on device")

    def __getattr__(self, name):
        return getattr(self.real, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.real.close()
        return False


def test_item3_an_interrupted_write_leaves_the_previous_save_whole(tmp_path, monkeypatch):
    import io

    path = tmp_path / "s.json"
    game = new_game("citadels", 3, 5)
    game.save(path)
    before = path.read_text()
    game.answer(0)
    real_open = io.open

    def full_disk(file, mode="r", *args, **kwargs):
        f = real_open(file, mode, *args, **kwargs)
        return _FullDisk(f) if "w" in mode else f

    with monkeypatch.context() as m:
        m.setattr(io, "open", full_disk)
        with pytest.raises((SaveError, OSError)):
            game.save(path)
    assert path.read_text() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.json"]  # no temporary file left

    def cut(*args):
        raise KeyboardInterrupt  # Ctrl-C between the write and the rename

    with monkeypatch.context() as m:
        m.setattr("os.replace", cut)
        with pytest.raises(KeyboardInterrupt):
            game.save(path)
    assert path.read_text() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.json"]
    game.save(path)
    assert Game.load(path).state == game.state


@pytest.mark.parametrize("case", ["log-no-dir", "save-no-dir", "save-under-a-file", "same-file"])
def test_item3_log_and_save_targets_are_checked_before_the_game_starts(case, tmp_path):
    (tmp_path / "afile").write_text("x")
    args = {
        "log-no-dir": ["--log", tmp_path / "nope" / "g.jsonl"],
        "save-no-dir": ["--save", tmp_path / "nope" / "s.json"],
        "save-under-a-file": ["--save", tmp_path / "afile" / "s.json"],
        "same-file": ["--log", tmp_path / "x", "--save", tmp_path / "x"],
    }[case]
    result = invoke("play", "citadels", "-p", 3, "--bots", "random", "--seed", 1, *args)
    err = one_line_failure(result)
    assert err.startswith("error[cli/usage]: ")
    assert result.stdout == ""  # refused before the game started, not after it was played


def test_item3_an_error_stops_the_game_with_its_log_and_what_happened(tmp_path):
    folder = broken_mini(tmp_path)
    log = tmp_path / "g.jsonl"
    result = invoke("play", folder, "--bots", "random", "--seed", 1, "--log", log)
    err = one_line_failure(result)
    assert "error[play/cannot-pay]: P1 cannot pay 100 gold" in err and "game.yaml:" in err
    assert "-- since the last decision --" in result.stdout
    assert "the game stopped: P1 cannot pay 100 gold" in result.stdout
    entries = [json.loads(l) for l in log.read_text().splitlines()]
    assert entries[-1]["type"] == "error" and entries[-1]["code"] == "play/cannot-pay"
    assert entries[-2]["text"].startswith("P1: Take 2 gold")  # what happened before the error is kept
    replayed = invoke("replay", log, "--quiet")
    assert replayed.exit_code == 0, replayed.output
    assert "to the error that stopped the game" in replayed.output

    person = invoke("play", folder, "--seed", 1, "--log", log, input="1\n" * 5)  # a person at the table
    assert "cannot pay 100 gold" in one_line_failure(person)
    assert "the game stopped: P1 cannot pay 100 gold" in person.stdout


def test_item3_the_default_save_name_never_overwrites_another_games_save(tmp_path):
    other = tmp_path / "mason-save.json"
    other.write_text("another game's save", encoding="utf-8")
    first = invoke("play", "citadels", "-p", 3, input="save\nquit\n", cwd=tmp_path)
    assert first.exit_code == 0, first.output
    assert "saved to mason-save-2.json; resume with --resume mason-save-2.json" in first.output
    assert (
        "quit: game saved to mason-save-2.json (mason-save.json holds another game); "
        "resume with --resume mason-save-2.json"
    ) in first.output
    assert other.read_text(encoding="utf-8") == "another game's save"
    second = invoke("play", "citadels", "-p", 3, input="1\n", cwd=tmp_path)
    assert "end of input: game saved to mason-save-3.json" in second.output
    # the resumed game's own save is this game: written over
    third = invoke("play", "citadels", "--resume", "mason-save-2.json", input="quit\n", cwd=tmp_path)
    assert "quit: game saved to mason-save-2.json;" in third.output


def test_item3_an_unwritable_save_at_end_of_input_exits_non_zero(tmp_path):
    folder = tmp_path / "saves"
    folder.mkdir()
    proc = popen("play", "citadels", "-p", 3, "--seed", 5, "--save", folder / "s.json", cwd=tmp_path)
    wait_for_prompt(proc)
    folder.rmdir()  # the place checked at the start is gone by the end
    out, err = proc.communicate(input="", timeout=TIMEOUT)
    assert proc.returncode == 1, out
    assert "end of input: could not save the game" in out
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error[play/save]: end of input: the game could not be saved")


def test_item3_a_quit_that_cannot_save_keeps_the_game_going(tmp_path):
    game = new_game("citadels", 3, 5)
    out = []
    lines = iter(["quit", "1"])
    agent = HumanAgent(lambda: next(lines, None), out.append, str(tmp_path / "gone" / "s.json"))
    assert agent.decide(game, game.pending["seat"]) == 0
    assert any("quit: could not save the game" in line for line in out)
    assert any("the game goes on" in line for line in out)


# ================================================================== item 4: saves checked as data
@pytest.fixture(scope="module")
def citadels_save() -> dict:
    game = new_game("citadels", 4, 1)
    rng = random.Random(1)
    for _ in range(12):
        p = game.pending
        game.answer(
            sorted(rng.sample(range(len(p["options"])), p["subset"]))
            if p["subset"]
            else rng.randrange(len(p["options"]))
        )
    return json.loads(json.dumps(game.to_json()))


def test_item4_the_save_schema_is_a_schema_and_real_saves_meet_it(citadels_save):
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    assert not list(Draft202012Validator(schema).iter_errors(citadels_save))
    assert citadels_save["rules"].startswith("sha256:") and citadels_save["mason"] == 2


def _pending_seat(d):
    return d["state"]["pending"]["seat"]


def _first_in(d, zone):
    return d["state"]["zones"][zone][0]


DAMAGES = {
    "seen-not-a-list": (
        lambda d: d["state"]["cards"][0].__setitem__("seen", "P1"),
        "state.cards[0].seen: expected a list, not a string",
    ),
    "players-a-word": (
        lambda d: d["settings"].__setitem__("players", "four"),
        "settings.players: expected a whole number, not a string",
    ),
    "round-negative": (lambda d: d["state"].__setitem__("round", -2), "state.round: -2 is out of range"),
    "rng-zero": (lambda d: d["state"].__setitem__("rng", 0), "state.rng: 0 is out of range"),
    "rng-text": (lambda d: d["state"].__setitem__("rng", "lucky"), "state.rng: expected a whole number"),
    "rng-too-big": (lambda d: d["state"].__setitem__("rng", 2**64), "state.rng: "),
    "bot-stream": (lambda d: d["state"].__setitem__("bots", {"1": -5}), "state.bots.1: -5 is out of range"),
    "unknown-key": (lambda d: d.__setitem__("cheats", True), "unknown key 'cheats'"),
    "frame-type": (lambda d: d["state"]["stack"][1].__setitem__("next", "two"), "state.stack[1].next: expected"),
    "turn-use-zero": (  # the engine counts a use or a group from 1: a key present means used (turns._window)
        lambda d: d["state"]["stack"][5]["uses"].__setitem__("take_gold", 0),
        "state.stack[5].uses.take_gold: 0 is out of range",
    ),
    "card-in-two-places": (
        lambda d: d["state"]["zones"]["deck"].append(_first_in(d, "hand/0")),
        "is in two places: 'deck' and 'hand/0'",
    ),
    "card-lost": (lambda d: d["state"]["zones"]["hand/0"].pop(0), "is not where it says it is ('hand/0')"),
    "card-out-of-play": (
        lambda d: d["state"]["cards"][_first_in(d, "hand/0")].__setitem__("z", None),
        "is out of play but lies in 'hand/0'",
    ),
    "supply-negative": (
        lambda d: d["state"]["counters"].__setitem__("bank", -3),
        "bank is -3: a supply never goes below 0",
    ),
    "pending-other-seat": (
        lambda d: d["state"]["pending"].__setitem__("seat", (_pending_seat(d) + 1) % 4),
        "but the rule asks P",
    ),
    "pending-options": (
        lambda d: (d["state"]["pending"]["options"].reverse(), d["state"]["pending"]["labels"].reverse()),
        "its options are not the ones the rule offers",
    ),
    "pending-labels": (
        lambda d: d["state"]["pending"]["labels"].__setitem__(0, "Win the game"),
        "its labels are not the ones the rule offers",
    ),
    "rules-changed": (lambda d: d.__setitem__("rules", "sha256:" + "0" * 64), "made with other rules"),
    "constants": (lambda d: d["state"]["constants"].__setitem__("start_gold", 99), "constants do not match"),
    "unknown-option": (lambda d: d["settings"].__setitem__("options", {"free_gold": 5}), "option 'free_gold'"),
    "seat-kind": (
        lambda d: d.__setitem__("seats", ["human", "genius", "random", "random"]),
        "seats[1]: unknown kind 'genius'",
    ),
    "seat-count": (lambda d: d.__setitem__("seats", ["human"]), "1 seats for 4 players"),
    "log-answers": (
        lambda d: d["log"].remove(next(e for e in d["log"] if e.get("type") == "decision")),
        "the save's log holds 11 decisions, its state 12",
    ),
    "over-without-result": (
        lambda d: d["state"].update(over=True, stack=[], pending=None, ti=-1),
        "over without a result",
    ),
}


@pytest.mark.parametrize("damage", list(DAMAGES), ids=list(DAMAGES))
def test_item4_a_damaged_save_gets_one_line_naming_what_is_wrong(damage, citadels_save, tmp_path):
    change, expected = DAMAGES[damage]
    data = json.loads(json.dumps(citadels_save))
    change(data)
    path = tmp_path / "s.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SaveError) as info:
        Game.load(path)
    line = info.value.line()
    assert "\n" not in line and line.startswith(f"error[save/invalid]: {path}: ")
    assert expected in line, line


def test_item4_counters_above_their_cap_are_refused(tmp_path):
    game = new_game(MINI, 2, 1)
    data = json.loads(json.dumps(game.to_json()))
    data["state"]["counters"]["gold"][1] = 7
    with pytest.raises(SaveError, match="P2's gold is 7, above its cap of 6"):
        Game.from_json(data)


@pytest.mark.parametrize(
    "content,expected",
    [
        (b'\xff\xfe{"mason": 1}', "not a Mason save file: not UTF-8 text (byte 0xff at offset 0)"),
        (b"[" * 100_000, "not JSON"),
        (
            b'{"mason": 1, "settings": {"game": "citadels", "players": 3}, "state": {"n": ' + b"9" * 5000 + b"}}",
            "not JSON",
        ),
        (
            b'{"mason": 1, "settings": {"game": "citadels", "players": [3]}, "state": {}}',
            "settings.players: expected a whole number, not a list",
        ),
        (
            b'{"mason": 1, "settings": {"game": "citadels", "players": 3}, "state": {"n": "3"}}',
            "the save is damaged: state: 'round' is missing",
        ),
    ],
    ids=["not-utf8", "nested", "long-number", "players-a-list", "state-incomplete"],
)
def test_item4_bytes_and_wrong_types_are_one_line_at_the_command_line(content, expected, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_bytes(content)
    err = one_line_failure(invoke("play", "citadels", "--resume", bad))
    assert err.startswith(f"error[save/invalid]: {bad}") and expected in err, err


@pytest.mark.parametrize("game", list_games())
def test_real_saves_of_every_game_pass_the_save_checks(game):
    prog = load_program(game)
    g = new_game(game, prog.min_players, 3)
    rng = random.Random(3)
    for k in range(120):
        if k % 8 == 0 or g.over:
            Game.from_json(json.loads(json.dumps(g.to_json())))
        if g.over:
            break
        p = g.pending
        g.answer(
            sorted(rng.sample(range(len(p["options"])), rng.randint(0, p["subset"])))
            if p["subset"]
            else rng.randrange(len(p["options"]))
        )


# ================================================================== item 8: replay from any directory
def test_item8_a_log_replays_from_any_working_directory(tmp_path):
    log = tmp_path / "g.jsonl"
    played = mason(
        "play", "citadels", "-p", 3, "--bots", "random", "--seed", 4, "--log", log, "--quiet", cwd=ROOT / "games"
    )
    assert played.returncode == 0, played.stderr
    for where in (tmp_path, ROOT, ROOT / "games" / "citadels"):
        replay = mason("replay", log, "--quiet", cwd=where)
        assert replay.returncode == 0, (where, replay.stderr)
        assert replay.stdout.startswith("replay OK:")


def test_item8_a_game_given_as_a_folder_replays_from_elsewhere(tmp_path):
    home = tmp_path / "work"
    shutil.copytree(MINI, home / "mini")
    log = tmp_path / "mini.jsonl"
    played = mason("play", "mini", "--bots", "random", "--seed", 2, "--log", log, "--quiet", cwd=home)
    assert played.returncode == 0, played.stderr
    first = json.loads(log.read_text().splitlines()[1])
    assert re.match(r"^/.*/work/mini/game\.yaml:\d+:\d+$", first["at"]), first["at"]
    for where in (tmp_path, home / "mini"):
        replay = mason("replay", log, "--quiet", cwd=where)
        assert replay.returncode == 0, (where, replay.stderr)

    # an expansion given as a folder too
    shutil.copytree(ROOT / "tests" / "fixtures" / "expansions" / "greedy-thief", home / "greedy-thief")
    log = tmp_path / "exp.jsonl"
    played = mason(
        "play", "citadels", "--with", "greedy-thief", "--bots", "random", "--seed", 2, "--log", log, "--quiet", cwd=home
    )
    assert played.returncode == 0, played.stderr
    replay = mason("replay", log, "--quiet", cwd=tmp_path)
    assert replay.returncode == 0, replay.stderr
