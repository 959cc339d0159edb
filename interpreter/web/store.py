"""The games of ``mason serve`` in one SQLite file (WAL): settings, seat kinds, links and answers.

A game is stored as what reproduces it byte for byte: its settings (with the seed), who plays each
seat (``human`` or a bot kind) and the list of answers from the start. The row is written after every
decision, in one transaction, before anyone is told of the decision; a restarted server replays the
answers and is where it was.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time

SCHEMA = """
create table if not exists games (
    id text primary key,
    created real not null,
    settings text not null,
    seats text not null,
    answers text not null,
    over integer not null default 0
);
create table if not exists links (
    token text primary key,
    game text not null references games(id),
    seat integer,
    role text not null
);
"""


class Store:
    """The SQLite file of a server: one connection shared under a lock (writes are small and few)."""

    def __init__(self, path: str):
        self.path = str(path)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("pragma journal_mode=wal")
        self._db.execute("pragma synchronous=normal")  # WAL: a process killed loses no committed row
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        """Close the connection (the WAL is checkpointed into the file)."""
        with self._lock:
            self._db.close()

    def create(self, gid: str, settings: dict, seats: list, answers: list, links: list) -> None:
        """A new game and its links (``[(token, seat or None, role)]``), in one transaction."""
        with self._lock:
            db = self._db
            db.execute("begin")
            db.execute(
                "insert into games (id, created, settings, seats, answers) values (?, ?, ?, ?, ?)",
                (gid, time.time(), json.dumps(settings), json.dumps(seats), json.dumps(answers)),
            )
            db.executemany(
                "insert into links (token, game, seat, role) values (?, ?, ?, ?)",
                [(token, gid, seat, role) for token, seat, role in links],
            )
            db.execute("commit")

    def save_answers(self, gid: str, answers: list, over: bool) -> None:
        """Write a game's answers (after every decision and every undo)."""
        with self._lock:
            self._db.execute(
                "update games set answers = ?, over = ? where id = ?", (json.dumps(answers), int(over), gid)
            )

    def link(self, token: str):
        """``(game id, seat or None, role)`` for a link's token, None for an unknown one."""
        with self._lock:
            row = self._db.execute("select game, seat, role from links where token = ?", (token,)).fetchone()
        return None if row is None else (row[0], row[1], row[2])

    def links(self, gid: str) -> list:
        """Every link of a game: ``[(token, seat, role)]``."""
        with self._lock:
            return self._db.execute("select token, seat, role from links where game = ?", (gid,)).fetchall()

    def game(self, gid: str):
        """A stored game: ``{settings, seats, answers, over}``, None when there is none."""
        with self._lock:
            row = self._db.execute("select settings, seats, answers, over from games where id = ?", (gid,)).fetchone()
        if row is None:
            return None
        return {
            "settings": json.loads(row[0]),
            "seats": json.loads(row[1]),
            "answers": json.loads(row[2]),
            "over": bool(row[3]),
        }

    def unfinished(self) -> list[str]:
        """The ids of the games not over (a restarted server rebuilds them first)."""
        with self._lock:
            return [r[0] for r in self._db.execute("select id from games where over = 0 order by created")]
