"""Reasons in words for the decisions no person takes: an automated seat's policy, a search bot's estimates.

An automated seat's decision is explained by the policy rule that chose and the ``prefer`` keys it
compared (``policy_reason``): "east had the highest site value (3, against north 2, south 1)".
A key is named from its expression as written: ``site_value(option)`` reads "site value",
``option.points`` "points", ``pyramid_info(b, option)['points']`` "points", a leading minus "the
lowest ..."; any other expression is quoted as it is. Only the options still tied when a key is
compared are listed, so the sentence follows the ranking as the policy ran it.

A bot's decision (``bot_reason``) names the question, the option taken and the top options with the
bot's figures (greedy: estimates; mcts: visits and mean score), computed from the bot's own view.
Pure string work on labels and numbers: nothing here reads the state.
"""

from __future__ import annotations

import re

TOP = 4  # options listed beside the chosen one

_CALL = re.compile(r"^([A-Za-z_]\w*)\s*\(.*\)\s*(?:\[\s*['\"](\w+)['\"]\s*\])?$", re.S)
_FIELD = re.compile(r"^option\.(\w+)$")
_NAME = re.compile(r"^[A-Za-z_]\w*$")


def key_words(source: str) -> tuple[str, bool]:
    """(the key in words, whether lower is better) for a ``prefer`` expression as written."""
    text = " ".join(source.split())
    lowest = text.startswith("-")
    body = text[1:].strip() if lowest else text
    if body.startswith("(") and body.endswith(")") and lowest:
        body = body[1:-1].strip()
    m = _FIELD.match(body)
    if m:
        return m.group(1).replace("_", " "), lowest
    m = _CALL.match(body)
    if m and body.count("(") == body.count(")"):
        return (m.group(2) or m.group(1)).replace("_", " "), lowest
    if body == "option":
        return "value", lowest
    if _NAME.match(body):
        return body.replace("_", " "), lowest
    return f"'{text}'", False  # quoted as written: a minus stays in it


def _shown(v, lowest: bool) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if v is None:
        return "none"
    if lowest and isinstance(v, (int, float)):
        v = -v
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)


def _constant(source: str) -> bool:
    return source.strip().lstrip("-").replace(".", "", 1).isdigit()


def _rank(v):
    if v is None:
        return (0, 0)
    return (1, int(v) if isinstance(v, bool) else v)


def _pair(label: str, shown: str) -> str:
    """An option and its value; a value offered as itself (a bid of 2) is said once."""
    return shown if label == shown else f"{label} {shown}"


def _others(items: list[str]) -> str:
    if len(items) > TOP:
        items = items[:TOP] + [f"{len(items) - TOP} more"]
    return ", ".join(items)


def policy_reason(name: str, labels: list[str], sources, values, answer, rule_text: str = "") -> str:
    """One line: what ``name`` chose and why, by the policy keys ``sources`` and each option's
    ``values`` (a tuple a option, as the keys gave them; None: no rule ranked the options)."""
    chosen = answer if isinstance(answer, list) else [answer]
    what = ", ".join(labels[i] for i in chosen) or "nothing"
    head = f"{name} chose {what}"
    n = len(labels)
    keys = [k for k, src in enumerate(sources or ()) if not _constant(src)]
    if values is None or not keys:
        why = "no policy rule ranks these options" if values is None else "its policy ranks these options alike"
        return f"{head}: the first option offered ({why})"
    if isinstance(answer, list):  # up to N: the best N by the keys, listed with their values
        k = keys[0]
        words, lowest = key_words(sources[k])
        rest = [i for i in sorted(range(n), key=lambda i: _rank(values[i][k]), reverse=True) if i not in chosen]
        mine = ", ".join(_pair(labels[i], _shown(values[i][k], lowest)) for i in chosen)
        tail = f"; not {_others([_pair(labels[i], _shown(values[i][k], lowest)) for i in rest])}" if rest else ""
        return f"{head}: the {'lowest' if lowest else 'highest'} {words} ({mine}{tail})"
    pick = answer
    tied = list(range(n))
    parts: list[str] = []
    for k in keys:
        mine = values[pick][k]
        if all(values[i][k] == mine for i in tied):
            continue  # this key separates none of the options still tied
        words, lowest = key_words(sources[k])
        same = [i for i in tied if values[i][k] == mine]
        worse = sorted((i for i in tied if values[i][k] != mine), key=lambda i: _rank(values[i][k]), reverse=True)
        who = " and ".join(labels[i] for i in same) if len(same) <= 3 else f"{len(same)} options"
        verb = "had" if len(same) == 1 else "shared"
        best = "lowest" if lowest else "highest"
        if isinstance(mine, bool):
            phrase = f"{who} {'met' if len(same) == 1 else 'all met'} {words}" if mine else f"{who} {verb} {words} no"
        else:
            phrase = f"{who} {verb} the {best} {words} ({_shown(mine, lowest)}"
            phrase += f", against {_others([_pair(labels[i], _shown(values[i][k], lowest)) for i in worse])})"
        parts.append(phrase if not parts else "of those, " + phrase)
        tied = same
        if len(tied) == 1:
            break
    if len(tied) > 1 and parts:
        parts.append("offered first")
    elif len(tied) > 1:
        words = " and ".join(key_words(sources[k])[0] for k in keys)
        parts.append(
            f"{' and '.join(labels[i] for i in tied) if len(tied) <= 3 else 'the options'} tie on {words}: the first offered"
        )
    return f"{head}: " + "; ".join(parts)


def bot_reason(who: str, kind: str, prompt: str, labels: list[str], answer, figures: dict) -> str:
    """One line: the question ``who`` (a seat name) answered, the answer and the bot's top figures.

    ``figures`` maps an option's index to what the bot made of it: ``{"estimate": x}`` (greedy, with
    ``outcome`` when the trial ended the game) or ``{"visits": v, "mean": m}`` (mcts); the chosen
    option comes first, then the best others."""
    chosen = answer if isinstance(answer, list) else [answer]
    what = ", ".join(labels[i] for i in chosen) or "nothing"
    order = sorted(figures, key=lambda i: (i not in chosen, _sort_key(figures[i])))
    shown = [f"{labels[i]} {_figure(figures[i])}" for i in order[: TOP + 1] if i < len(labels)]
    more = len(order) - len(shown)
    if not shown:
        return f'{who} ({kind}) answered "{prompt}": {what}'
    title = "visits/mean score" if any("visits" in f for f in figures.values()) else "estimates"
    return f'{who} ({kind}) answered "{prompt}": {what} ({title}: {", ".join(shown)}{f", {more} more" if more > 0 else ""})'


def public_bot_reason(who: str, kind: str, prompt: str, labels, answer, figures: dict) -> str:
    """The line the other seats read: the question and the answer (``labels`` None: an answer they may
    not know), its figure, and the best figure among the other options, which are not named (what a
    seat is offered is its own)."""
    chosen = answer if isinstance(answer, list) else [answer]
    if labels is None:
        return f'{who} ({kind}) answered "{prompt}" with an option you cannot see'
    what = ", ".join(labels[i] for i in chosen) or "nothing"
    total = sum(f.get("visits", 0) for f in figures.values())
    mine = [_figure(figures[i], label=False, total=total) for i in chosen if i in figures]
    others = sorted((f for i, f in figures.items() if i not in chosen), key=_sort_key)
    if not mine:
        return f'{who} ({kind}) answered "{prompt}": {what}'
    head = "; ".join(mine)
    tail = ""
    if len(others) == 1:
        tail = f"; the other option: {_figure(others[0], label=False)}"
    elif others:
        tail = f"; the best of the {len(others)} other options: {_figure(others[0], label=False)}"
    return f'{who} ({kind}) answered "{prompt}": {what} ({head}{tail})'


def _sort_key(f: dict):
    if "visits" in f:
        return (-f["visits"], -(f.get("mean") or 0.0))
    return ({"wins": 0, None: 1, "loses": 2}.get(f.get("outcome"), 3), -f.get("estimate", 0.0))


def _figure(f: dict, label: bool = True, total: int = 0) -> str:
    """A figure after an option's label (``Take 2 gold +1.00``), or on its own (``estimate +1.00``;
    ``26 of 30 visits, mean +1.54`` with the search's ``total``)."""
    if "visits" in f:
        mean = f", mean {f['mean']:+.2f}" if f.get("mean") is not None else ""
        if label:
            return f"{f['visits']}/{f['mean']:+.2f}" if f.get("mean") is not None else str(f["visits"])
        return f"{f['visits']}{f' of {total}' if total else ''} visits{mean}"
    if f.get("outcome"):
        return f"{f['outcome']} ({f['estimate']:+g})"
    return f"{f['estimate']:+.2f}" if label else f"estimate {f['estimate']:+.2f}"
