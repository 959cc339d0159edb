"""The agent contract: given the game and the deciding seat, return an answer for the pending decision.

An answer is an option index (0-based) or, for a subset decision, a list of indices. Agents see
only what ``Game.view(seat)`` and ``Game.visible_log(seat)`` give them.

An agent that decides from the state's own bot stream and the options' number alone (no view, no
labels) may also have ``blind_pick(state, seat, n, subset[, ordered])`` returning the same answer as ``decide``: the
engine then asks it in place, without pausing the rules (``mason.runtime.answers``).
"""

from __future__ import annotations


class Agent:
    """The base of every agent: something that answers the pending decision of a seat."""

    name = "agent"

    def decide(self, game, seat: int):
        """The answer for ``seat``'s pending decision: an option index, or a list of them for a subset."""
        raise NotImplementedError


def parse_answer(text: str, pending: dict):
    """Read a typed answer: a number (1-based), a key (``pending['keys']``: an action's letter, or a
    number offered as itself, a previewed rotation), an option's
    label (or its unique start), or for a subset several numbers or labels (labels separated by
    commas); empty or ``none`` for no option. In an action window a number still means the option at
    that place in the list (for scripts), though the window shows letters.

    Returns the 0-based answer, or raises ValueError with a reason a person can act on. Range and
    size are checked by ``check_answer``, which gives its own reasons.
    """
    text = text.strip()
    labels = pending["labels"]
    n = len(labels)
    keys = pending.get("keys")
    if keys and text.lower() in keys:  # an action's letter, or a number offered as itself
        return keys.index(text.lower())
    if keys and all(_is_number(k) for k in keys) and _is_number(text):
        raise ValueError(f"there is no option {text}: the options are the numbers {', '.join(keys)}")
    if pending["subset"]:
        if text.lower() in ("", "none", "0", "-"):
            return []
        tokens = text.replace(",", " ").split()
        if all(t.isdigit() for t in tokens):
            bad = [t for t in tokens if not 1 <= int(t) <= n]
            if bad:
                raise ValueError(f"there is no option {bad[0]}: options are numbered 1 to {n} ({NUMBERING})")
            return [int(t) - 1 for t in tokens]
        out: list[int] = []
        for name in (p.strip() for p in text.split(",")):
            if name:
                out.append(_by_label(name, labels, taken=set(out)))
        return out
    if not text:
        raise ValueError(f"type a number from 1 to {n}")
    if text.startswith("#") and text[1:].isdigit():
        return _numbered(int(text[1:]), n)
    if labels and all(_is_number(l) for l in labels) and _is_number(text):
        # the options are numbers themselves (a bid, a quantity): a typed number means that value;
        # '#3' still picks the third option
        if text in labels:
            return labels.index(text)
        raise ValueError(f"{text} is not one of the values offered ({labels[0]} to {labels[-1]})")
    if text.lstrip("-").isdigit():
        if keys and not 1 <= int(text) <= n:
            raise ValueError(f"there is no option {text}: type an action's letter ({', '.join(keys)}) or its name")
        return _numbered(int(text), n)
    if len(text.replace(",", " ").split()) > 1 and all(t.isdigit() for t in text.replace(",", " ").split()):
        raise ValueError(f"choose one option: a single number from 1 to {n}")
    return _by_label(text, labels)


NUMBERING = "the prompt counts from 1; Game.answer takes the index, from 0"


def _numbered(number: int, n: int) -> int:
    """A typed option number (from 1) as the answer's index (from 0); out of range, a reason naming the convention."""
    if not 1 <= number <= n:
        raise ValueError(f"there is no option {number}: options are numbered 1 to {n} ({NUMBERING})")
    return number - 1


def _is_number(s: str) -> bool:
    return s.lstrip("-").isdigit()


def _by_label(text: str, labels: list[str], taken=frozenset()) -> int:
    """The option whose label equals, else uniquely starts with, ``text``; copies of one label count once."""
    key = text.lower()
    free = [i for i in range(len(labels)) if i not in taken]
    for match in (lambda l: l == key, lambda l: l.startswith(key)):
        hits = [i for i in free if match(labels[i].lower())]
        if hits:
            if len({labels[i] for i in hits}) > 1:
                raise ValueError(f"'{text}' matches several options: " + ", ".join(labels[i] for i in hits))
            return hits[0]
    if any(l.lower() == key for l in labels):
        raise ValueError(f"'{text}' is already chosen")
    raise ValueError(f"no option '{text}'; type a number from 1 to {len(labels)} or an option's name")
