"""Many bot games of one setting, summarised (``mason analyze``), and two settings compared
(``mason compare``). The report is plain JSON data; ``report.py`` draws it as an HTML page.

A game is played by :func:`play_one` (a module-level function: the worker processes of
``parallel.map_games`` call it by name). Besides the result it records, per seat, which component
types the seat **held or played**: a card counts for a seat when it lay in one of the seat's zones
(``name/seat``) or was owned by it (``o``) at the start of a round or at the end of the game, or
when the seat took a turn as that card. Nothing here names a game: the families and types come from
the program, the seats' zones from the state.

Ties: a game won by ``k`` seats together gives each ``1/k`` of a win (``stats.py``).
"""

from __future__ import annotations

import statistics
import time
import traceback
from dataclasses import replace
from pathlib import Path
from typing import Any

from mason.errors import MasonError, RoundCapReached
from mason.play import stats
from mason.play.session import make_bot, play_game
from mason.play.sprt import Several
from mason.runtime.state import names_at
from mason.runtime.values import split_zone_key
from mason.session.game import Game, Settings, load_program, resolved_fast

REPORT_FORMAT = 1


# ------------------------------------------------------------------------------------------ one game
def play_one(job: tuple) -> dict:
    """One bot game. ``job`` = (settings as JSON, bot kind, {seat: kind} overrides, count rule firings,
    fast forms on or off): ``Settings.fast`` is not in the settings' JSON (a record leaves it out), so
    it travels beside them, decided by the caller (``run_games``), not by the worker's environment."""
    settings_json, bots, seat_bots, coverage, fast = job
    settings = replace(Settings.from_json(settings_json), fast=fast)
    t = time.perf_counter()
    out: dict[str, Any] = {"seed": settings.seed}
    try:
        game = Game.new(settings, narrate=False)
        if coverage:
            game.rt.stats = {}
        held: list[set] = [set() for _ in range(game.state["n"])]
        last_round = [None]

        def look(g):
            st = g.state
            cards = st["cards"]
            ti = st["ti"]
            if ti >= 0:
                frame = st["stack"][ti]
                if frame.get("card") is not None and frame.get("seat") is not None:
                    held[frame["seat"]].add(cards[frame["card"]]["t"])
            if st["round"] != last_round[0] or g.over:
                last_round[0] = st["round"]
                _holdings(st, held)

        look(game)
        agents = {s: make_bot(seat_bots.get(s, bots), settings.seed, s) for s in range(settings.players)}
        play_game(game, agents, on_answer=look)
        look(game)
        r = game.result
        assert r is not None  # played to its end
        out.update(
            {
                "scores": r["scores"],
                "winners": r["winners"],
                "rounds": r["rounds"],
                "decisions": game.state["decisions"],
                "held": [sorted(h) for h in held],
            }
        )
        if coverage:
            out["coverage"] = game.rt.stats
    except RoundCapReached as exc:  # the rules never ended it: a stalled game, left out of the statistics
        out["stalled"] = f"{exc.place}: {exc.message}" if exc.place else exc.message
    except MasonError as exc:
        out["error"] = exc.line()
    except Exception as exc:  # a bug in Mason itself: report it, with where, and go on
        tb = traceback.extract_tb(exc.__traceback__)[-1]
        out["error"] = f"internal error {type(exc).__name__}: {exc} ({Path(tb.filename).name}:{tb.lineno})"
    out["seconds"] = round(time.perf_counter() - t, 4)
    return out


def ended(r: dict) -> bool:
    """Whether a game's result counts in the statistics: it ended by the rules (no error, not stalled at
    the round cap)."""
    return "error" not in r and "stalled" not in r


def _holdings(state: dict, held: list) -> None:
    cards = state["cards"]
    for key, ids in state["zones"].items():
        seat = split_zone_key(key)[1]
        if seat is not None and ids:
            for c in ids:
                held[seat].add(cards[c]["t"])
    for card in cards:
        if card["o"] is not None and 0 <= card["o"] < len(held):
            held[card["o"]].add(card["t"])


def run_games(
    base: Settings,
    games: int,
    bots: str = "random",
    seat_bots: dict | None = None,
    workers: int = 1,
    coverage: bool = False,
    on_done=None,
    ray: str | bool | None = None,
) -> list:
    """Play ``games`` games with seeds base.seed, base.seed + 1, ...; results in seed order (locally,
    on ``workers`` processes or as Ray tasks: the results are the same). The games run with fast forms
    as ``base.fast`` says (None: as ``MASON_FAST`` says here, in the calling process)."""
    from mason.play.parallel import map_games

    seed0 = int(base.seed)
    fast = resolved_fast(base)
    jobs = [
        (
            Settings(base.game, base.players, seed0 + i, base.variants, base.expansions, base.options).to_json(),
            bots,
            dict(seat_bots or {}),
            coverage,
            fast,
        )
        for i in range(games)
    ]
    return map_games(play_one, jobs, workers=workers, on_done=on_done, ray=ray)


# ------------------------------------------------------------------------------------------ summary
def summarize(
    base: Settings,
    bots: str,
    seat_bots: dict | None,
    results: list,
    seconds: float | None = None,
    coverage: bool = True,
) -> dict:
    """The report of one setting's games (the structure is documented in docs/designers.md)."""
    program = load_program(base.game, base.variants, base.expansions)
    names = names_at(program, base.players)
    done = [r for r in results if ended(r)]
    seats = len(names)
    wins = [0.0] * seats
    for r in done:
        for w in r["winners"]:
            wins[w] += 1 / len(r["winners"])
    n = len(done)
    seat_rows = []
    for s in range(seats):
        row = {
            "seat": s,
            "name": names[s],
            "bot": _seat_kind(s, base.players, bots, seat_bots),
            "wins": wins[s],
            "win_rate": wins[s] / n if n else None,
            "ci95": stats.wilson(wins[s], n),
            "score": stats.describe([r["scores"][s] for r in done]),
        }
        seat_rows.append(row)
    report: dict[str, Any] = {
        "report_format": REPORT_FORMAT,
        "settings": {
            **base.to_json(),
            "bots": bots,
            "seat_bots": {str(s + 1): k for s, k in sorted((seat_bots or {}).items())},
        },
        "games": len(results),
        "completed": n,
        "errors": [{"seed": r["seed"], "message": r["error"]} for r in results if "error" in r],
        "stalled": [{"seed": r["seed"], "message": r["stalled"]} for r in results if "stalled" in r],
        "seconds": None if seconds is None else round(seconds, 3),
        "ties": "a game won by k seats together gives each of them 1/k of a win",
        "seats": seat_rows,
        "balance": stats.seat_balance(wins),
        "length": {
            "rounds": stats.describe([r["rounds"] for r in done]),
            "decisions": stats.describe([r["decisions"] for r in done]),
        },
        "components": component_impact(program, done, base.players),
        "results": [{k: r[k] for k in ("seed", "scores", "winners", "rounds", "decisions")} for r in done],
    }
    report["component_notes"] = component_notes(report["components"])
    report["fdr"] = fdr_note(report["components"])
    if coverage:
        report["coverage"] = rule_coverage(program, done)
    return report


def _seat_kind(seat: int, players: int, bots: str, seat_bots: dict | None) -> str:
    if seat >= players:
        return "automated"
    return (seat_bots or {}).get(seat, bots)


def component_impact(program, done: list, seats: int) -> dict:
    """Per family, per component type: the seats that held or played it vs those that did not, over the
    first ``seats`` seats (the players': an automated seat plays by the rules' policy and is left out).

    One observation is one (game, seat) pair; the pairs of one game are not independent (one seat's
    win is the others' loss), so read the intervals as indicative."""
    pairs = []  # (held set, win share, score)
    for r in done:
        share = 1 / len(r["winners"]) if r["winners"] else 0
        for s in range(min(seats, len(r["scores"]))):
            pairs.append((set(r["held"][s]), share if s in r["winners"] else 0.0, r["scores"][s]))
    out: dict = {}
    for fam in program.families:
        rows = []
        for tid in program.type_order:
            if program.family_of[tid] != fam:
                continue
            with_ = [(w, sc) for h, w, sc in pairs if tid in h]
            without = [(w, sc) for h, w, sc in pairs if tid not in h]
            rows.append(
                {
                    "type": tid,
                    "name": program.types[tid]["name"],
                    "held": _group(with_),
                    "not_held": _group(without),
                    "win_rate_diff": stats.two_proportions(
                        sum(w for w, _ in without), len(without), sum(w for w, _ in with_), len(with_)
                    ),
                    "score_diff": _score_diff([sc for _, sc in without], [sc for _, sc in with_]),
                }
            )
        out[fam] = rows
    adjust_family([t for rows in out.values() for r in rows for t in (r["win_rate_diff"], r["score_diff"])])
    return out


def adjust_family(tests: list) -> int:
    """Benjamini-Hochberg over a family of tests (dicts with ``p``): each gets its adjusted ``q`` beside
    ``p`` (and ``significant`` from ``q`` when it had one). Returns how many tests the family holds."""
    qs = stats.bh_adjust([t.get("p") for t in tests])
    for t, q in zip(tests, qs):
        t["q"] = q
        if "significant" in t:
            t["significant"] = stats.significant(q)
    return sum(1 for t in tests if t.get("p") is not None)


def fdr_note(components: dict) -> str:
    """How the component tests are adjusted, in words (the report says so beside the p values)."""
    m = sum(
        1
        for rows in components.values()
        for r in rows
        for k in ("win_rate_diff", "score_diff")
        if r[k]["p"] is not None
    )
    return (
        f"{m} component tests at once (win and score differences of every type): q is the {stats.FDR} "
        f"adjusted p value (false discovery rate), shown beside the raw p; a difference counts when q < {stats.ALPHA}"
    )


FEW_NOT_HELD = 0.2  # below this median share of seat-games without a type, a family gets a caution


def component_notes(components: dict) -> dict:
    """Family -> a caution when most seats held each of its types at some point (the median share of
    seat-games without a type is under ``FEW_NOT_HELD``, as with characters taken in turn every round):
    then the not-held groups are small and unlike the others, and a difference says little."""
    out = {}
    for fam, rows in components.items():
        shares = [
            r["not_held"]["n"] / (r["held"]["n"] + r["not_held"]["n"])
            for r in rows
            if r["held"]["n"] and r["not_held"]["n"]
        ]
        if not shares:
            continue
        median = statistics.median(shares)
        if median < FEW_NOT_HELD:
            out[fam] = (
                f"most seats held each {fam} type at some point (a median of {median:.0%} of seat-games did not): "
                "the not-held groups are small and unlike the others (fewer rounds give fewer chances to hold a "
                "type), so read these differences as hints, not effects"
            )
    return out


def _group(pairs: list) -> dict:
    n = len(pairs)
    wins = sum(w for w, _ in pairs)
    scores = [sc for _, sc in pairs]
    return {
        "n": n,
        "win_rate": wins / n if n else None,
        "ci95": stats.wilson(wins, n),
        "mean_score": sum(scores) / n if n else None,
        "score_ci95": stats.mean_interval(scores),
    }


def _score_diff(a: list, b: list) -> dict:
    d = stats.two_means(a, b, rank_test=False)
    return {k: d[k] for k in ("test", "diff", "ci95", "p")}


def rule_items(program) -> list:
    """(key, place) of every action, ability, trigger and modifier: what ``--coverage`` counts."""
    items = [(f"game.{a.key}", a.place) for a in program.actions]
    for tid, lst in program.abilities.items():
        items += [(f"{tid}.{a.key}", a.place) for a in lst]
    for lst in program.triggers.values():
        items += [(t.key, t.place) for t in lst]
    items += [(m.key, m.place) for m in program.modifiers]
    return items


def rule_coverage(program, done: list) -> dict:
    """Which rules fired in the finished games (with counts) and which never did, with their places."""
    counts: dict = {}
    for r in done:
        for k, v in (r.get("coverage") or {}).items():
            counts[k] = counts.get(k, 0) + v
    items = rule_items(program)
    return {
        "fired": {k: counts[k] for k, _ in items if counts.get(k)},
        "never": [{"key": k, "at": f"{p.file}:{p.line}"} for k, p in items if not counts.get(k)],
    }


# ------------------------------------------------------------------------------------------ compare
def compare(a: dict, b: dict, results_a: list, results_b: list) -> dict:
    """B - A for every metric of two reports played on the same seeds, each with its test and the games
    per side needed to detect the observed difference (power 0.8, alpha 0.05, two-sided)."""
    done_a = {r["seed"]: r for r in results_a if ended(r)}
    done_b = {r["seed"]: r for r in results_b if ended(r)}
    ra, rb = list(done_a.values()), list(done_b.values())
    both = [s for s in done_a if s in done_b]  # the seeds both sides completed: paired tests
    metrics = []
    for sa, sb in zip(a["seats"], b["seats"]):
        na, nb = a["completed"], b["completed"]
        t = stats.two_proportions(sa["wins"], na, sb["wins"], nb)
        metrics.append(
            {"metric": f"win rate {sa['name']}", "kind": "rate", "a": sa["win_rate"], "b": sb["win_rate"], **_test(t)}
        )
    for s, (sa, sb) in enumerate(zip(a["seats"], b["seats"])):
        t = stats.two_means([r["scores"][s] for r in ra], [r["scores"][s] for r in rb])
        metrics.append({"metric": f"score {sa['name']}", "kind": "mean", **_test(t), "a": t["a"], "b": t["b"]})
    for key in ("rounds", "decisions"):
        t = stats.two_means([done_a[s][key] for s in both], [done_b[s][key] for s in both], paired=True)
        metrics.append(
            {"metric": key, "kind": "mean", **_test(t), "a": t["a"], "b": t["b"], "paired_t_p": t.get("paired_t_p")}
        )
    m = adjust_family(metrics)
    return {
        "report_format": REPORT_FORMAT,
        "a": a,
        "b": b,
        "fdr": f"{m} tests at once: q is the {stats.FDR} adjusted p value (false discovery rate), shown "
        f"beside the raw p; significant: q < {stats.ALPHA}",
        "paired_seeds": len(both),
        "alpha": stats.ALPHA,
        "power": stats.POWER,
        "tests": {
            "rate": "two-proportion z (pooled), Newcombe (Wilson score) interval of the difference",
            "mean": "Welch t (Mann-Whitney U p value alongside; rounds and decisions also a paired "
            "t over the seeds both sides completed)",
        },
        "metrics": metrics,
    }


def _test(t: dict) -> dict:
    out = {k: t.get(k) for k in ("test", "diff", "ci95", "p", "n_needed")}
    if "mann_whitney_p" in t:
        out["mann_whitney_p"] = t["mann_whitney_p"]
    out["significant"] = stats.significant(t.get("p"))
    return out


# ------------------------------------------------------------------------------------------ until decided
def win_share(result: dict, seat: int) -> float:
    """The seat's share of the game's win: 1/k when it is one of k winners, else 0."""
    winners = result["winners"]
    return 1 / len(winners) if seat in winners else 0.0


def metric_value(result: dict, metric: tuple) -> float:
    """``metric`` = ("win", seat) or ("score", seat): the seat's win share or score in one game."""
    kind, seat = metric
    return win_share(result, seat) if kind == "win" else float(result["scores"][seat])


def _shifted(base: Settings, start: int) -> Settings:
    return replace(base, seed=int(base.seed) + start)


def _batches(max_games: int, batch: int):
    """(start, size) of the fixed batches: the looks never depend on how the games are spread."""
    for start in range(0, max_games, batch):
        yield start, min(batch, max_games - start)


def compare_until_decided(sides: list, metric: tuple, test, batch: int, max_games: int, **run) -> tuple:
    """Play both sides (each ``(settings, bots, seat_bots)``) batch by batch on the same seeds until
    ``test`` (a :class:`mason.play.sprt.Sequential` of B's metric minus A's, seed by seed) decides or
    ``max_games`` games a side are played. Returns (results A, results B); ``run`` goes to
    :func:`run_games` (workers, ray, coverage, on_done)."""
    on_done = run.pop("on_done", None)
    results: list = [[], []]
    pairs: list = []  # (A's value, B's value) of the seeds both sides completed
    for start, size in _batches(max_games, batch):
        for i, (settings, bots, seat_bots) in enumerate(sides):
            results[i] += run_games(_shifted(settings, start), size, bots, seat_bots, on_done=on_done, **run)
            if on_done is not None:
                on_done.next_part(size)
        new = [
            (metric_value(ra, metric), metric_value(rb, metric))
            for ra, rb in zip(results[0][start:], results[1][start:])
            if ended(ra) and ended(rb)
        ]
        pairs += new
        # the variance had the pairing helped nothing: what the paired one is drawn towards at first
        reference = None
        if len(pairs) > 1:
            reference = statistics.variance([a for a, _ in pairs]) + statistics.variance([b for _, b in pairs])
        test.add((b - a for a, b in new), reference)
        if test.decision is not None:
            break
    return results[0], results[1]


def analyze_until_decided(side: tuple, tests: Several, batch: int, max_games: int, **run) -> list:
    """Play one setting batch by batch until the seat-balance tests decide (``tests``: a
    :class:`mason.play.sprt.Several`, one test a seat of each seat's win share minus the equal share)
    or ``max_games`` are played. Returns the results."""
    on_done = run.pop("on_done", None)
    settings, bots, seat_bots = side
    results: list = []
    for start, size in _batches(max_games, batch):
        new = run_games(_shifted(settings, start), size, bots, seat_bots, on_done=on_done, **run)
        if on_done is not None:
            on_done.next_part(size)
        results += new
        done = [r for r in new if ended(r)]
        for seat, test in enumerate(tests.tests):
            test.add(_balance_value(r, seat) for r in done)
        if tests.decision is not None:
            break
    return results


def _balance_value(result: dict, seat: int) -> float:
    seats = len(result["scores"])
    shares = [win_share(result, s) for s in range(seats)]
    return shares[seat] - sum(shares) / seats
