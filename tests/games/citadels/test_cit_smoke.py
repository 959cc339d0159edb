from support import *


def test_cit_x1_warlord_costs_and_keep():
    g = new_game(players=4, seed=2)
    open_draft(g)
    pick(g, {0: "Warlord", 1: "Bishop", 2: "King", 3: "Merchant"})
    # P2 holds the Bishop (rank 5) ... play until the Warlord's turn
    for t in ("watchtower", "church", "cathedral", "keep"):
        give(g, 2, t, "city")
    set_gold(g, 0, 6)
    while not (g.pending and g.pending["prompt"].startswith("Destroy")):
        p = g.pending
        if p["kind"] == "action":
            act(g, "End turn") if "End turn" in p["labels"] else act(g, "Take 2 gold")
        else:
            g.answer(0)
    labels_ = labels(g)
    assert not any(l.startswith("Keep") for l in labels_)
    # each with what the Warlord pays: cost - 1 (shown since issue 30)
    assert "Watchtower (P3's city) (pay 0 gold)" in labels_ and "Cathedral (P3's city) (pay 4 gold)" in labels_
