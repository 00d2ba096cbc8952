#!/usr/bin/env python3
"""A bluffdice bot program for Mia and Liar's Dice, in plain Python (no imports beyond
the standard library). It speaks the protocol of docs/protocol.md: one JSON message
per line on stdin, one JSON move per line on stdout.

    bluffdice tournament --game liars-dice --bots "cmd:python3 examples/bot.py,odds"
"""

import json
import sys

# Mia values from lowest to highest (classic ranking: 31 ... 65, doubles, then Mia 21).
RANKING = [31, 32, 41, 42, 43, 51, 52, 53, 54, 61, 62, 63, 64, 65, 11, 22, 33, 44, 55, 66, 21]


def chance_to_beat(value):
    """The chance a fresh roll of two dice is higher than `value`."""
    higher = RANKING[RANKING.index(value) + 1 :] if value in RANKING else []
    return sum(1 if v % 11 == 0 else 2 for v in higher) / 36


def mia_move(view, legal):
    kinds = {a["type"]: a for a in legal}
    if "mia.look" in kinds and not view["looked"]:
        return kinds["mia.look"]  # always know your own dice
    values = [a["value"] for a in legal if a["type"] == "mia.announce"]
    if values:
        # The truth when it is allowed, else the smallest lie the rules let us tell.
        value = view["my_dice"] if view["my_dice"] in values else values[0]
        return {"type": "mia.announce", "value": value}
    claim = view["announced"]
    if claim == 21 and "mia.give-up" in kinds:
        return kinds["mia.give-up"]  # looking at a true Mia costs more than a life
    if claim is not None and "mia.challenge" in kinds and chance_to_beat(claim) < 0.4:
        return kinds["mia.challenge"]
    for kind in ("mia.roll", "mia.challenge"):
        if kind in kinds:
            return kinds[kind]
    return legal[0]


def expected(view, face):
    """How many dice on the table we expect show `face` (wild ones count for it)."""
    mine = view["my_dice"] or []
    wild = view.get("wild")
    counts = sum(1 for d in mine if d == face or (wild and d == wild and face != wild))
    p = 1 / 6 if not wild or face == wild else 2 / 6
    return counts + (view["total"] - len(mine)) * p


def liars_dice_move(view, legal):
    bids = [a for a in legal if a["type"] == "liars-dice.bid"]
    call = next((a for a in legal if a["type"] == "liars-dice.liar"), None)
    bid = view.get("bid")
    if call and bid and bid["quantity"] > expected(view, bid["face"]) + 0.5:
        return call
    if not bids:
        return call or legal[0]
    # The raise most likely to hold: the largest margin of expected count over quantity.
    best = max(bids, key=lambda b: (expected(view, b["face"]) - b["quantity"], -b["quantity"]))
    if call and expected(view, best["face"]) - best["quantity"] < -0.5:
        return call
    return best


def choose(view):
    legal = view["legal_actions"]
    if view["type"] == "mia.view":
        return mia_move(view, legal)
    if view["type"] == "liars-dice.view":
        return liars_dice_move(view, legal)
    return legal[0]


def main():
    hello = {"type": "hello", "v": 1, "name": "example-py", "games": ["mia", "liars-dice"]}
    print(json.dumps(hello), flush=True)
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "prompt":
            action = choose(message["view"])
            move = {"type": "move", "v": 1, "state_id": message["state_id"], "action": action}
            print(json.dumps(move), flush=True)
        elif message["type"] == "refused":
            print("refused:", message["reason"], file=sys.stderr)


if __name__ == "__main__":
    main()
