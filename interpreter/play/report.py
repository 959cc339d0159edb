"""The HTML report of ``mason analyze`` / ``mason compare``: one self-contained page.

Plots are drawn by matplotlib (Agg backend, no display) as inline SVG with the text as paths: the page
loads nothing (no script, no font, no image from anywhere). matplotlib is imported here only, when a
page is asked for. The output is deterministic for the same report (fixed SVG ids, no date).
"""

from __future__ import annotations

import html
import io
import json
import re

from mason.play.stats import significant
from mason.runtime.values import plural

TOP_TYPES = 15
COLOURS = ("#4c72b0", "#dd8452")


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    matplotlib.rcParams.update(
        {
            "svg.fonttype": "path",
            "svg.hashsalt": "mason-report",
            "font.size": 9,
            "axes.spines.top": False,
            "axes.spines.right": False,
        }
    )
    return plt


def _svg(fig) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None, "Creator": None})
    _plt().close(fig)
    text = buf.getvalue()
    text = text[text.index("<svg") :]
    return re.sub(r"\s*<metadata>.*?</metadata>", "", text, flags=re.DOTALL)  # no RDF block


def _e(x) -> str:
    return html.escape(str(x))


# ------------------------------------------------------------------------------------------ plots
def plot_win_rates(reports: list, labels: list) -> str:
    """Win rate by seat with 95% Wilson intervals, one bar a side; the dashed line is the equal share."""
    plt = _plt()
    seats = reports[0]["seats"]
    fig, ax = plt.subplots(figsize=(6, 3))
    width = 0.8 / len(reports)
    for k, (rep, label) in enumerate(zip(reports, labels)):
        xs = [i + (k - (len(reports) - 1) / 2) * width for i in range(len(rep["seats"]))]
        rates = [s["win_rate"] or 0 for s in rep["seats"]]
        lo = [r - (s["ci95"] or [r, r])[0] for r, s in zip(rates, rep["seats"])]
        hi = [(s["ci95"] or [r, r])[1] - r for r, s in zip(rates, rep["seats"])]
        ax.bar(xs, rates, width, yerr=[lo, hi], capsize=3, color=COLOURS[k % 2], label=label)
    ax.axhline(1 / len(seats), color="grey", linestyle="--", linewidth=1)
    ax.set_xticks(range(len(seats)), [s["name"] for s in seats])
    _percent_axis(ax.yaxis)
    ax.set_ylabel("win rate")
    ax.set_title("Win rate by seat (95% Wilson intervals; dashed: equal share)")
    if len(reports) > 1:
        ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return _svg(fig)


def plot_scores(reports: list, labels: list) -> str:
    """Score histograms, one panel a seat (sides overlaid)."""
    plt = _plt()
    seats = reports[0]["seats"]
    fig, axes = plt.subplots(1, len(seats), figsize=(2.4 * len(seats) + 0.5, 2.6), sharey=True, squeeze=False)
    every = [sc for rep in reports for r in rep["results"] for sc in r["scores"]]
    lo, hi = (min(every), max(every)) if every else (0, 1)
    bins = _bins(lo, hi)
    for s, ax in enumerate(axes[0]):
        for k, rep in enumerate(reports):
            vals = [r["scores"][s] for r in rep["results"] if len(r["scores"]) > s]
            ax.hist(
                vals,
                bins=bins,
                histtype="stepfilled" if len(reports) == 1 else "step",
                linewidth=1.5,
                color=COLOURS[k % 2],
                label=labels[k],
            )
        ax.set_title(seats[s]["name"])
        ax.set_xlabel("score")
    axes[0][0].set_ylabel("games")
    if len(reports) > 1:  # beside the last panel, never over a histogram
        axes[0][-1].legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.suptitle("Final scores by seat", y=1.06)
    return _svg(fig)


def _bins(lo, hi, most: int = 30):
    lo, hi = int(lo // 1), int(-(-hi // 1))
    step = max(1, -(-(hi - lo + 1) // most))
    return [x - 0.5 for x in range(lo, hi + step + 1, step)]


def plot_length(reports: list, labels: list) -> str:
    """Histograms of the game length in rounds and in decisions."""
    plt = _plt()
    fig, axes = plt.subplots(1, 2, figsize=(7, 2.6))
    for ax, key in zip(axes, ("rounds", "decisions")):
        every = [r[key] for rep in reports for r in rep["results"]]
        bins = _bins(min(every), max(every)) if every else 10
        for k, rep in enumerate(reports):
            ax.hist(
                [r[key] for r in rep["results"]],
                bins=bins,
                histtype="stepfilled" if len(reports) == 1 else "step",
                linewidth=1.5,
                color=COLOURS[k % 2],
                label=labels[k],
            )
        ax.set_xlabel(key)
        ax.set_ylabel("games")
    if len(reports) > 1:  # beside the last panel, never over a histogram
        axes[1].legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.suptitle("Game length", y=1.06)
    return _svg(fig)


def plot_components(reports: list, labels: list, family: str) -> str:
    """Win rate held minus not held, with 95% intervals, for the types of a family with the largest
    differences (both groups non-empty)."""
    plt = _plt()
    rows0 = {r["type"]: r for r in reports[0]["components"].get(family, [])}
    usable = [t for t, r in rows0.items() if r["win_rate_diff"]["diff"] is not None]
    usable.sort(
        key=lambda t: (
            -max(
                abs(rep["components"][family][i]["win_rate_diff"]["diff"] or 0)
                for rep in reports
                for i, r in enumerate(rep["components"][family])
                if r["type"] == t
            )
        )
    )
    chosen = usable[:TOP_TYPES][::-1]
    fig, ax = plt.subplots(figsize=(6, 0.32 * max(len(chosen), 1) * len(reports) + 1.0))
    height = 0.8 / len(reports)
    for k, rep in enumerate(reports):
        by = {r["type"]: r for r in rep["components"].get(family, [])}
        ys: list[float] = []
        xs: list[float] = []
        err: list[list[float]] = [[], []]
        for i, t in enumerate(chosen):
            d = by[t]["win_rate_diff"]
            if d["diff"] is None:
                continue
            ys.append(i + (k - (len(reports) - 1) / 2) * height)
            xs.append(d["diff"])
            ci = d["ci95"] or [d["diff"], d["diff"]]
            err[0].append(d["diff"] - ci[0])
            err[1].append(ci[1] - d["diff"])
        ax.barh(ys, xs, height, xerr=err, capsize=2, color=COLOURS[k % 2], label=labels[k])
    ax.axvline(0, color="grey", linewidth=1)
    ax.set_yticks(range(len(chosen)), [rows0[t]["name"] for t in chosen])
    _percent_axis(ax.xaxis)
    ax.set_xlabel("win rate held - not held (percentage points)")
    ax.set_title(f"Component impact: {family}")
    if len(reports) > 1:  # beside the chart, never over a bar
        ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return _svg(fig)


def _percent_axis(axis) -> None:
    """Rates on an axis read as percentages, as in the tables (0.25 -> 25%)."""
    from matplotlib.ticker import PercentFormatter

    axis.set_major_formatter(PercentFormatter(xmax=1.0, decimals=0))


# ------------------------------------------------------------------------------------------ page
CSS = """body{font-family:sans-serif;max-width:70em;margin:1em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:.5em 0 1em}td,th{border-bottom:1px solid #ddd;padding:2px 8px;text-align:right}
td:first-child,th:first-child{text-align:left}h2{margin-top:1.5em;border-bottom:1px solid #ccc}
.sig{font-weight:bold}figure{margin:.5em 0}svg{max-width:100%;height:auto}.note{color:#555;font-size:90%}"""


def _page(title: str, body: list) -> str:
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>'
        + _e(title)
        + "</title><style>"
        + CSS
        + "</style></head><body>\n"
        + "\n".join(body)
        + "\n</body></html>\n"
    )


def _table(headers: list, rows: list) -> str:
    head = "".join(f"<th>{_e(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def _pct(x) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _num(x) -> str:
    return "-" if x is None else (f"{x:.2f}" if isinstance(x, float) and not x.is_integer() else str(int(x)))


def _p(p) -> str:
    return "-" if p is None else ("&lt;0.001" if p < 0.001 else f"{p:.3f}")


def _q(test: dict) -> str:
    q = test.get("q")
    return _p(q) + ("*" if significant(q) else "")


def _ci(ci, pct=True) -> str:
    f = _pct if pct else _num
    return "-" if not ci else f"[{f(ci[0])}, {f(ci[1])}]"


def _settings(rep: dict) -> str:
    st = rep["settings"]
    return _e(
        f"{st['game']}, {plural(st['players'], 'player')}, bots {st['bots']}, seeds {st['seed']}.."
        f"{int(st['seed']) + rep['games'] - 1}; variants {', '.join(st.get('variants') or []) or 'none'}; "
        f"expansions {', '.join(st.get('expansions') or []) or 'none'}; options "
        f"{', '.join(f'{k}={json.dumps(v)}' for k, v in sorted((st.get('options') or {}).items())) or 'none'}; "
        f"{rep['completed']}/{rep['games']} games completed"
    )


def _seat_table(rep: dict) -> str:
    return _table(
        ["seat", "bot", "win rate", "95% CI", "mean score", "sd", "min", "q1", "median", "q3", "max"],
        [
            [_e(s["name"]), _e(s["bot"]), _pct(s["win_rate"]), _ci(s["ci95"])]
            + [_num(s["score"][k]) for k in ("mean", "sd", "min", "q1", "median", "q3", "max")]
            for s in rep["seats"]
        ],
    )


def _component_tables(rep: dict) -> list:
    out = []
    for fam, rows in rep["components"].items():
        out.append(f"<h3>{_e(fam)}</h3>")
        if fam in rep.get("component_notes", {}):
            out.append(f'<p class="note">{_e(rep["component_notes"][fam])}</p>')
        out.append(
            _table(
                [
                    "type",
                    "held n",
                    "win",
                    "95% CI",
                    "mean score",
                    "not held n",
                    "win",
                    "95% CI",
                    "mean score",
                    "win diff",
                    "p",
                    "q",
                    "score diff",
                    "p",
                    "q",
                ],
                [
                    [
                        _e(r["name"]),
                        r["held"]["n"],
                        _pct(r["held"]["win_rate"]),
                        _ci(r["held"]["ci95"]),
                        _num(r["held"]["mean_score"]),
                        r["not_held"]["n"],
                        _pct(r["not_held"]["win_rate"]),
                        _ci(r["not_held"]["ci95"]),
                        _num(r["not_held"]["mean_score"]),
                        _pct(r["win_rate_diff"]["diff"]),
                        _p(r["win_rate_diff"]["p"]),
                        _q(r["win_rate_diff"]),
                        _num(r["score_diff"]["diff"]),
                        _p(r["score_diff"]["p"]),
                        _q(r["score_diff"]),
                    ]
                    for r in rows
                ],
            )
        )
    return out


def _component_plots(reports: list, labels: list) -> list:
    out = []
    for fam in reports[0]["components"]:
        if any(r["win_rate_diff"]["diff"] is not None for r in reports[0]["components"][fam]):
            out.append(f"<figure>{plot_components(reports, labels, fam)}</figure>")
            for rep, label in zip(reports, labels) if len(reports) > 1 else ():  # compare: no tables below,
                note = rep.get("component_notes", {}).get(fam)  # so each side's caution goes by the chart
                if note:
                    out.append(f'<p class="note">{_e(label)}: {_e(fam)}: {_e(note)}</p>')
        else:
            out.append(f'<p class="note">{_e(fam)}: no type both held and not held by some seat.</p>')
    return out


def _sequential(report: dict) -> list:
    """--until-decided: the sequential test's verdict and hypotheses (nothing without one)."""
    from mason.play.sprt import verdict

    lines = verdict(report)
    return [f'<h2>Sequential test</h2><p>{_e(lines[0])}.</p><p class="note">{_e(lines[1])}.</p>'] if lines else []


def analyze_html(rep: dict) -> str:
    """The analysis report as one self-contained HTML page (``mason analyze --html``)."""
    bal, labels = rep["balance"], ["games"]
    body = [
        f"<h1>Analysis: {_e(rep['settings']['game'])}</h1>",
        f"<p>{_settings(rep)}</p>",
        "<h2>Win rate by seat</h2>",
        f"<figure>{plot_win_rates([rep], labels)}</figure>",
        _seat_table(rep),
        f"<p>Seat balance ({_e(bal['test'])} against equal shares): chi2 {_num(bal['statistic'])}, "
        f"df {bal['df']}, p {_p(bal['p'])}. Ties: {_e(rep['ties'])}.</p>",
        *_sequential(rep),
        "<h2>Scores</h2>",
        f"<figure>{plot_scores([rep], labels)}</figure>",
        "<h2>Game length</h2>",
        f"<figure>{plot_length([rep], labels)}</figure>",
        _table(
            ["", "mean", "sd", "min", "q1", "median", "q3", "max"],
            [
                [k] + [_num(d[f]) for f in ("mean", "sd", "min", "q1", "median", "q3", "max")]
                for k, d in rep["length"].items()
            ],
        ),
        "<h2>Component impact</h2>",
        '<p class="note">A seat held or played a type when a card of it lay in the seat\'s zones (or was '
        "owned by it) at the start of a round or at the end, or when the seat took a turn as it. One "
        "observation is one game and seat; those of one game are not independent, so read the "
        "intervals as indicative.</p>",
    ]
    if rep.get("fdr"):
        body.append(f'<p class="note">{_e(rep["fdr"])} (marked *).</p>')
    body += _component_plots([rep], labels) + _component_tables(rep)
    cov = rep.get("coverage")
    if cov is not None:
        body.append(f"<h2>Rules never fired</h2><p>{len(cov['fired'])} fired, {len(cov['never'])} never fired.</p>")
        if cov["never"]:  # no empty table when every rule fired
            body.append(_table(["rule", "at"], [[_e(i["key"]), _e(i["at"])] for i in cov["never"]]))
    if rep["errors"]:
        body.append(
            "<h2>Errors</h2>" + _table(["seed", "message"], [[e["seed"], _e(e["message"])] for e in rep["errors"]])
        )
    return _page(f"Mason analysis: {rep['settings']['game']}", body)


def compare_html(cmp: dict) -> str:
    """The comparison report as one self-contained HTML page (``mason compare --html``)."""
    a, b = cmp["a"], cmp["b"]
    labels = [f"A: {a['label']}", f"B: {b['label']}"]
    rows = []
    for m in cmp["metrics"]:
        rate = m["kind"] == "rate"
        f = _pct if rate else _num
        cls = ' class="sig"' if m["significant"] else ""
        rows.append(
            [
                f"<span{cls}>{_e(m['metric'])}</span>",
                f(m["a"]),
                f(m["b"]),
                f(m["diff"]),
                _ci(m["ci95"], rate),
                _e(m["test"]),
                _p(m["p"]),
                _p(m.get("q")),
                "yes" if m["significant"] else "no",
                _num(m["n_needed"]),
            ]
        )
    body = [
        f"<h1>Comparison: {_e(a['settings']['game'])}</h1>",
        f"<p>{_e(labels[0])}: {_settings(a)}</p>",
        f"<p>{_e(labels[1])}: {_settings(b)}</p>",
        f"<p>Both sides play the same seeds ({cmp['paired_seeds']} completed on both). Differences are B - A; "
        f"n/side: the games per side needed to detect the observed "
        f"difference (power {cmp['power']}). Tests: "
        + "; ".join(f"{_e(k)}: {_e(v)}" for k, v in cmp["tests"].items())
        + ".</p>",
        *_sequential(cmp),
        "<h2>Differences</h2>",
        _table(["metric", "A", "B", "B - A", "95% CI", "test", "p", "q", "significant", "n/side"], rows),
        f'<p class="note">{_e(cmp.get("fdr", ""))}.</p>' if cmp.get("fdr") else "",
        "<h2>Win rate by seat</h2>",
        f"<figure>{plot_win_rates([a, b], labels)}</figure>",
        "<h2>Scores</h2>",
        f"<figure>{plot_scores([a, b], labels)}</figure>",
        "<h2>Game length</h2>",
        f"<figure>{plot_length([a, b], labels)}</figure>",
        "<h2>Component impact</h2>",
    ]
    body += _component_plots([a, b], labels)
    for tag, rep in (("A", a), ("B", b)):
        bal = rep["balance"]
        body.append(
            f"<h2>Side {tag}</h2>{_seat_table(rep)}<p>Seat balance: chi2 {_num(bal['statistic'])}, "
            f"df {bal['df']}, p {_p(bal['p'])}.</p>"
        )
        cov = rep.get("coverage")
        if cov is not None:
            body.append(f"<p>Rules never fired: {', '.join(_e(i['key']) for i in cov['never']) or 'none'}.</p>")
    return _page(f"Mason comparison: {a['settings']['game']}", body)
