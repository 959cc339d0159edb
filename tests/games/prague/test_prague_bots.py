"""Praga Caput Regni: what the bots' estimate sees (``bot_estimate`` in game.yaml; README, "Bots").

Academics (PCR-R120) are technology x the University multiplier, 0 below University space 3: scored
as the final scoring scores them, a book or a cap there is worth nothing, and greedy, which looks one
move ahead, never set out on either track in solo (issue 32). These pin the estimate's answer.
"""

from __future__ import annotations

from pr_support import evaluate, plain, ready, run, set_track, set_var

from mason.agents.greedy import limits
from mason.play.session import make_bot


def worth(g, seat=0):
    return g.value("bot_estimate", seat)


def test_pcr_r120_bot_estimate_values_a_cap_below_the_multiplier_threshold():
    g = plain(ready(1))
    set_track(g, 0, "technology", 4)
    set_track(g, 0, "university", 0)
    before = worth(g)
    set_track(g, 0, "university", 1)
    assert evaluate(g, "academics(0)") == 0  # the final scoring would still give nothing
    assert worth(g) > before


def test_pcr_r120_bot_estimate_values_a_book_while_the_university_is_at_zero():
    g = plain(ready(1))
    before = worth(g)
    set_track(g, 0, "technology", 1)
    assert evaluate(g, "academics(0)") == 0
    assert worth(g) > before


def test_pcr_r120_bot_estimate_is_the_academics_with_a_linear_multiplier_when_no_turn_is_left():
    g = plain(ready(1))
    set_var(g, "turns_played", 32)  # 16 turns a seat, the dummy's included (PCR-R130)
    assert evaluate(g, "bot_turns_left") == 0
    for tech, uni in ((10, 8), (4, 0), (8, 3)):
        set_track(g, 0, "technology", tech)
        set_track(g, 0, "university", uni)
        # 128ths of a third of a point: 384 a point, the multiplier 3/8 a University space
        assert evaluate(g, "9 * bot_academics(0)") == 384 * tech * 3 * uni // 8
    set_track(g, 0, "university", 8)
    set_track(g, 0, "technology", 10)
    assert evaluate(g, "9 * bot_academics(0)") == 384 * evaluate(g, "academics(0)")  # exact at the top


def test_pcr_r120_greedy_takes_a_cap_over_a_gold_below_the_multiplier_threshold():
    g = plain(ready(1))
    set_track(g, 0, "technology", 4)
    run(
        g,
        'choose one by 0 saying "Cap or gold?":\n'
        '    option "a cap":\n'
        '        emit gain_icon(who=0, icon="cap")\n'
        '    option "1 gold":\n'
        "        gain 1 gold to 0\n",
    )
    assert g.pending["prompt"] == "Cap or gold?"
    answer = make_bot("greedy", 1, 0).decide(g, 0)
    assert g.pending["labels"][answer] == "a cap"


def test_pcr_r131_solo_greedy_looks_five_questions_deep_in_200_trials():
    assert limits(ready(1), 0) == (5, 200)
    assert limits(ready(2), 0) == (3, 48)
