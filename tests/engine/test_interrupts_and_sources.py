"""Issue 29, items 1, 2, 3, 6, 9 and 11: no game lost to a closed terminal (SIGHUP, SIGTERM), no
traceback on Ctrl-C (from the first imports to the workers of a pool), no hang on an unreachable Ray
cluster, any character in a game folder's path, a log's rules found where they came from, and no
temporary file of a killed save left behind."""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

import paths
import pytest
from support import invoke, mason_process

from mason.session import saves
from mason.session.game import Game, Settings

ROOT = paths.ROOT
MINI = paths.FIXTURES / "mini"
TIMEOUT = 120  # only keeps a hung child from hanging the suite


def popen(*args, cwd, **streams):
    """``mason ARGS`` as a real process, its streams pipes unless given."""
    streams = {"stdin": subprocess.PIPE, "stdout": subprocess.PIPE, "stderr": subprocess.PIPE, **streams}
    proc = subprocess.Popen([sys.executable, "-m", "mason.cli.main", *map(str, args)], cwd=cwd, text=True, **streams)
    killer = threading.Timer(TIMEOUT, proc.kill)
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


def final_table(out: str) -> str:
    return out[out.index("Final scores:") :]


def one_line(result) -> str:
    """The single stderr line of a failed command run in process (no traceback)."""
    assert result.exit_code != 0, result.output
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    err = result.stderr.strip().splitlines()
    assert len(err) == 1 and "Traceback" not in result.output, result.stderr
    return err[0]


# ============================================================ item 6: a newline in the game's path
def test_item6_a_newline_in_the_game_folders_path_plays_logs_and_replays(tmp_path):
    folder = tmp_path / "two\nlines" / "mini"
    shutil.copytree(MINI, folder)
    log = tmp_path / "g.jsonl"
    run = invoke("play", folder, "--bots", "random", "--seed", 3, "--quiet", "--log", log, cwd=tmp_path)
    assert run.exit_code == 0, run.output
    assert "error[internal]" not in run.output and "Final scores" in run.output
    replay = invoke("replay", log, "--quiet", cwd=tmp_path)
    assert replay.exit_code == 0, replay.output
    assert replay.output.startswith("replay OK:")


# ============================================================ item 9: a log's rules found where they came from
def shadowing_folder(tmp_path):
    """A directory holding folders named like a shipped game (``citadels``) and its expansion
    (``dark-city``), each with other rules than Mason's own (two more gold at the start, a district
    more expensive)."""
    here = tmp_path / "here"
    shutil.copytree(paths.GAMES / "citadels", here / "citadels", ignore=shutil.ignore_patterns("expansions"))
    game = here / "citadels" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("start_gold: 2 ", "start_gold: 4 "), encoding="utf-8")
    shutil.copytree(paths.GAMES / "citadels" / "expansions" / "dark-city", here / "dark-city")
    districts = here / "dark-city" / "districts.yaml"
    text = districts.read_text(encoding="utf-8")
    changed = re.sub(r"cost: (\d+)", lambda m: f"cost: {int(m.group(1)) + 1}", text, count=1)
    assert changed != text
    districts.write_text(changed, encoding="utf-8")
    return here


def test_item9_a_shipped_games_log_replays_from_a_directory_holding_a_folder_of_that_name(tmp_path):
    log, save = tmp_path / "g.jsonl", tmp_path / "s.json"
    made = mason_process(
        "play", "citadels", "-p", 3, "--with", "dark-city", "--bots", "random", "--seed", 2, "--quiet",
        "--log", log, cwd=tmp_path,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    assert json.loads(log.read_text().splitlines()[0])["settings"]["game"] == "citadels"
    here = shadowing_folder(tmp_path)
    replay = mason_process("replay", log, "--quiet", cwd=here)
    assert replay.returncode == 0, replay.stderr
    assert replay.stdout.startswith("replay OK:") and replay.stderr == ""
    explained = mason_process("explain", log, "--seat", 1, cwd=here)
    assert explained.returncode == 0, explained.stderr

    # a save of the shipped game resumes there as the shipped game too
    game = Game.new(Settings("citadels", 3, 5, expansions=("dark-city",)))
    for _ in range(3):
        game.answer(0)
    game.save(save)
    resumed = mason_process("play", "citadels", "--resume", save, "--bots", "random", "--quiet", cwd=here)
    assert resumed.returncode == 0, resumed.stderr
    assert "Winner" in resumed.stdout


def test_item9_a_game_played_from_a_folder_named_like_a_shipped_one_records_the_folder(tmp_path, monkeypatch):
    here = shadowing_folder(tmp_path)
    log = tmp_path / "local.jsonl"
    made = mason_process(
        "play", "citadels", "-p", 3, "--with", "dark-city", "--bots", "random", "--seed", 2, "--quiet",
        "--log", log, cwd=here,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    settings = json.loads(log.read_text().splitlines()[0])["settings"]
    assert settings["game"] == str(here / "citadels") and settings["with"] == [str(here / "dark-city")]
    elsewhere = mason_process("replay", log, "--quiet", cwd=tmp_path)
    assert elsewhere.returncode == 0, elsewhere.stderr

    # the Python API records such a folder by its absolute path too (its log replays from anywhere)
    monkeypatch.chdir(here)
    game = Game.new(Settings("citadels", 3, 5, expansions=("dark-city",)))
    assert game.settings.game == str(here / "citadels")
    assert game.settings.expansions == (str(here / "dark-city"),)
    assert game.log[0]["settings"]["game"] == str(here / "citadels")
    assert game.program.constants["start_gold"] == 4  # the folder's rules, not Mason's own


# ============================================================ item 1: SIGHUP and SIGTERM save as Ctrl-C does
STOPS = {signal.SIGHUP: "hung up", signal.SIGTERM: "terminated"}


@pytest.mark.parametrize("sig", list(STOPS), ids=lambda s: signal.Signals(s).name)
def test_item1_sighup_or_sigterm_at_a_prompt_saves_the_game_and_it_resumes(sig, tmp_path):
    proc = popen("play", "citadels", "-p", 3, "--seed", 5, "--save", "s.json", cwd=tmp_path)
    proc.stdin.write("1\n")
    proc.stdin.flush()
    wait_for_prompt(proc, 2)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=TIMEOUT)
    assert proc.returncode == 128 + sig, (proc.returncode, err)
    assert err == "" and "Traceback" not in out
    assert f"{STOPS[sig]}: game saved to s.json; resume with --resume s.json" in out
    saved = json.loads((tmp_path / "s.json").read_text())
    assert saved["state"]["pending"]["seat"] == 0 and saved["state"]["decisions"] >= 1

    rest = mason_process("play", "citadels", "--resume", "s.json", input="1\n" * 3000, cwd=tmp_path)
    assert rest.returncode == 0, rest.stderr
    whole = mason_process("play", "citadels", "-p", 3, "--seed", 5, input="1\n" * 3001, cwd=tmp_path)
    assert final_table(rest.stdout) == final_table(whole.stdout)


class Terminal:
    """``mason ARGS`` on a real terminal: a pseudo-terminal, the process's controlling one, as its
    stdin and stdout (stderr kept apart, to read it). ``close()`` is the terminal window closed: the
    kernel sends SIGHUP, and reading or writing the terminal fails (EIO) from then on, possibly before
    the signal arrives."""

    def __init__(self, *args, cwd):
        import fcntl
        import pty
        import termios

        self.master, slave = pty.openpty()

        def own_terminal():  # in the child: a session of its own, the pseudo-terminal its controlling one
            os.setsid()
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)

        self.proc = popen(*args, cwd=cwd, stdin=slave, stdout=slave, preexec_fn=own_terminal)
        os.close(slave)
        self.shown = b""

    def read_until(self, done) -> None:
        while not done(self.shown):
            chunk = os.read(self.master, 65536)
            assert chunk, self.shown[-2000:]
            self.shown += chunk

    def close(self) -> tuple[int, str]:
        """Close the terminal; the process's exit status and its stderr."""
        os.close(self.master)
        _, err = self.proc.communicate(timeout=TIMEOUT)
        return self.proc.returncode, err


def test_item1_closing_the_terminal_at_a_prompt_saves_the_game(tmp_path):
    term = Terminal("play", "citadels", "-p", 3, "--seed", 5, "--save", "s.json", cwd=tmp_path)
    term.read_until(lambda shown: shown.count(b"[P1] ") == 1)
    os.write(term.master, b"1\n")
    term.read_until(lambda shown: shown.count(b"[P1] ") == 2)
    # no traceback, no error[internal] for the terminal's failed reads and writes
    assert term.close() == (128 + signal.SIGHUP, "")
    saved = json.loads((tmp_path / "s.json").read_text())
    assert saved["state"]["pending"]["seat"] == 0 and saved["state"]["decisions"] >= 1
    rest = mason_process("play", "citadels", "--resume", "s.json", input="1\n" * 3000, cwd=tmp_path)
    assert rest.returncode == 0, rest.stderr
    assert "Final scores:" in rest.stdout


def test_item1_closing_the_terminal_while_bots_play_saves_the_game(tmp_path):
    term = Terminal("play", "prague", "-p", 4, "--bots", "random", "--seed", 2, cwd=tmp_path)
    term.read_until(lambda shown: b"== Round 2" in shown)
    assert term.close() == (128 + signal.SIGHUP, "")  # narration to the closed terminal fails: saved anyway
    rest = mason_process("play", "prague", "--resume", "mason-save.json", "--quiet", cwd=tmp_path)
    whole = mason_process("play", "prague", "-p", 4, "--bots", "random", "--seed", 2, "--quiet", cwd=tmp_path)
    assert rest.returncode == 0 and whole.returncode == 0, rest.stderr + whole.stderr
    assert final_table(rest.stdout) == final_table(whole.stdout)


def test_item1_sigterm_while_bots_play_saves_after_the_decision_in_progress(tmp_path):
    proc = popen("play", "prague", "-p", 4, "--bots", "random", "--seed", 2, cwd=tmp_path)
    while "== Round 2" not in (line := proc.stdout.readline()):
        assert line, "the game ended"
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=TIMEOUT)
    assert proc.returncode == 128 + signal.SIGTERM and err == "", err
    assert "terminated: game saved to mason-save.json" in out
    rest = mason_process("play", "prague", "--resume", "mason-save.json", "--quiet", cwd=tmp_path)
    whole = mason_process("play", "prague", "-p", 4, "--bots", "random", "--seed", 2, "--quiet", cwd=tmp_path)
    assert rest.returncode == 0, rest.stderr
    assert whole.returncode == 0, whole.stderr
    assert final_table(rest.stdout) == final_table(whole.stdout)


# ============================================================ item 2: no traceback on Ctrl-C
# what pip writes as the `mason` command (console_scripts), for the entry point pyproject.toml names;
# the hook sends Ctrl-C to the process while the commands' modules are being imported
CONSOLE_SCRIPT = """
import os, re, signal, sys

class CtrlCWhileImporting:
    def find_spec(self, name, path=None, target=None):
        if name == "mason.model.loader":
            os.kill(os.getpid(), signal.SIGINT)
        return None

sys.meta_path.insert(0, CtrlCWhileImporting())
from {module} import {func}
if __name__ == '__main__':
    sys.argv[0] = re.sub(r'(-script\\.pyw|\\.exe)?$', '', sys.argv[0])
    sys.exit({func}())
"""


def test_item2_ctrl_c_while_the_command_starts_is_one_line(tmp_path):
    import tomllib

    entry = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]["mason"]
    module, func = entry.split(":")
    script = tmp_path / "mason"
    script.write_text(CONSOLE_SCRIPT.format(module=module, func=func))
    run = subprocess.run(
        [sys.executable, script, "games"], capture_output=True, text=True, timeout=TIMEOUT, cwd=tmp_path
    )
    assert (run.returncode, run.stderr, run.stdout) == (130, "interrupted\n", "")


def test_item2_ctrl_c_during_a_command_is_one_line_exit_130(monkeypatch):
    def ctrl_c(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr("mason.cli.main.list_games", ctrl_c)
    result = invoke("games")
    assert result.exit_code == 130
    assert result.stderr == "interrupted\n" and result.stdout == ""


def children(pid) -> list[int]:
    """The processes ``pid`` started (Linux: /proc)."""
    out = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as fh:
            out += [int(c) for c in fh.read().split()]
    return out


@pytest.mark.parametrize(
    "command",
    [
        ("simulate", "citadels", "-n", 20000, "--workers", 2, "--json"),
        ("analyze", "citadels", "-n", 20000, "-p", 4, "--workers", 2, "--json", "--html", "report.html"),
    ],
    ids=["simulate", "analyze"],
)
def test_item2_ctrl_c_to_the_process_group_of_a_pool_is_one_line(command, tmp_path):
    """Ctrl-C in a terminal signals every process of the job: the workers too."""
    proc = popen(*command, cwd=tmp_path, start_new_session=True)
    try:
        while len(children(proc.pid)) < 2:  # the pool's workers have started
            assert proc.poll() is None, proc.communicate()
            time.sleep(0.01)
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=TIMEOUT)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)  # a worker left behind by a failure
    assert (proc.returncode, err, out) == (130, "interrupted\n", "")  # no worker's traceback, no report
    assert not (tmp_path / "report.html").exists()


# ============================================================ item 11: no temporary file of a killed save left
KILLED_WHILE_SAVING = """
import os, signal, sys
from mason.session.game import Game, Settings

game = Game.new(Settings("citadels", 3, 5))
os.fsync = lambda fd: os.kill(os.getpid(), signal.SIGKILL)  # killed after writing, before the rename
game.save(sys.argv[1])
"""


def temps(folder) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_item11_the_next_save_removes_what_a_killed_save_left(tmp_path):
    save = tmp_path / "s.json"
    killed = subprocess.run([sys.executable, "-c", KILLED_WHILE_SAVING, save], capture_output=True, timeout=TIMEOUT)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    [left] = temps(tmp_path)
    assert left.startswith(".s.json.") and not save.exists()
    # the killed writer is gone and its file no longer changes: the next save to the place removes it
    old = time.time() - saves.STALE_QUIET - 1
    os.utime(tmp_path / left, (old, old))
    game = Game.new(Settings("citadels", 3, 5))
    game.save(save)
    assert temps(tmp_path) == [] and Game.load(save).state == game.state


def test_item11_only_stale_temporary_files_of_mason_for_that_name_are_removed(tmp_path):
    save = tmp_path / "s.json"
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    try:
        hour_ago = time.time() - 3600
        files = {
            f".s.json.{sleeper.pid}.abcd1234.tmp": hour_ago,  # a live writer's (stalled an hour): kept
            f".s.json.{os.getpid()}.abcd1234.tmp": hour_ago,  # this process's own: kept
            f".other.json.{dead_pid()}.abcd1234.tmp": hour_ago,  # another name's: kept
            f".s.json.{dead_pid()}.abcd1234.tmp": time.time(),  # a dead writer's, just changed: kept
            ".s.json.abcd1234.tmp": hour_ago,  # the older form (no writer named), an hour old: kept
            ".s.json.abcd1234.tmp.bak": 0,  # not the pattern: kept
            "s.json.1.abcd1234.tmp": 0,  # not the pattern: kept
            f".s.json.{dead_pid()}.wxyz6789.tmp": hour_ago,  # a dead writer's, an hour old: removed
            ".s.json.zzzz9999.tmp": time.time() - saves.STALE_AGE - 1,  # the older form, a day old: removed
        }
        for name, when in files.items():
            (tmp_path / name).write_text("{")
            os.utime(tmp_path / name, (when, when))
        (tmp_path / ".s.json.qqqq0000.tmp").mkdir()  # not a regular file: kept
        removed = saves.clean_stale_temps(save)
        assert sorted(removed) == sorted([f".s.json.{dead_pid()}.wxyz6789.tmp", ".s.json.zzzz9999.tmp"])
        kept = sorted(set(files) - set(removed)) + [".s.json.qqqq0000.tmp"]
        assert sorted(p.name for p in tmp_path.iterdir()) == sorted(kept)
    finally:
        sleeper.kill()
        sleeper.wait()


@functools.cache
def dead_pid() -> int:
    """The number of a process that ran and is gone."""
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    return int(done.stdout)


# ============================================================ item 3: an unreachable Ray cluster is one line, in bounded time
def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def ray_refusal(address, timeout=5) -> str:
    pytest.importorskip("ray", reason="Ray cannot be installed here: pip install 'mason[ray]' to run this")
    run = mason_process("simulate", "citadels", "-n", 4, "--ray", address, "--ray-timeout", timeout, timeout=TIMEOUT)
    assert run.returncode == 1 and run.stdout == "", run.stderr
    [line] = run.stderr.splitlines()  # one line: no traceback, none of Ray's own warnings
    return line


def test_item3_a_ray_address_that_refuses_is_one_line():
    port = free_port()
    line = ray_refusal(f"127.0.0.1:{port}")
    assert line == f"error[cli/ray]: cannot reach Ray at 127.0.0.1:{port}: connection refused"


def test_item3_a_ray_host_that_does_not_exist_is_one_line():
    line = ray_refusal("ray://no-such-host.invalid:10001", timeout=30)  # a slow resolver has time to say no
    assert (
        line
        == "error[cli/ray]: cannot reach Ray at ray://no-such-host.invalid:10001: no such host 'no-such-host.invalid'"
    )


def test_item3_a_ray_address_that_never_answers_is_given_up_after_ray_timeout():
    """Something listens there, but not Ray: the connection never comes up (Ray would retry for minutes)."""
    import socket

    with socket.socket() as server:
        server.bind(("0.0.0.0", 0))  # Ray may try the machine's own address for 127.0.0.1
        server.listen(16)
        port = server.getsockname()[1]
        line = ray_refusal(f"127.0.0.1:{port}", timeout=2)
    assert line == f"error[cli/ray]: cannot start or join Ray at 127.0.0.1:{port}: no answer within 2 s (--ray-timeout)"


def test_item3_ray_timeout_needs_ray():
    result = invoke("simulate", "citadels", "-n", 1, "--ray-timeout", 5)
    assert one_line(result) == "error[cli/usage]: --ray-timeout is for --ray"
    assert one_line(invoke("simulate", "citadels", "-n", 1, "--ray", "--ray-timeout", 0)).startswith("error[cli/usage]")
