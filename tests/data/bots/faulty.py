"""A bot program that plays the first legal action until its Nth prompt, then fails the
way its argument says: sleep, loop, exit, garbage, crash, illegal, or chatty (which
prints to stderr and plays on)."""

import json
import sys
import time

mode = sys.argv[1]
fail_at = int(sys.argv[2]) if len(sys.argv) > 2 else 1
print(json.dumps({"type": "hello", "v": 1, "name": mode, "games": ["mia", "liars-dice"]}))
sys.stdout.flush()
prompts = 0
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] != "prompt":
        continue
    prompts += 1
    if prompts >= fail_at:
        if mode == "sleep":
            time.sleep(3600)
        elif mode == "loop":
            while True:
                pass
        elif mode == "exit":
            sys.exit(0)
        elif mode == "garbage":
            print("I think I will bid 3 fives", flush=True)
        elif mode == "crash":
            raise RuntimeError("the bot's own bug")
        elif mode == "illegal":
            action = {"type": "liars-dice.bid", "quantity": 0, "face": 9}
            print(json.dumps({"type": "move", "state_id": message["state_id"], "action": action}))
            sys.stdout.flush()
            continue
        elif mode == "chatty":
            print("thinking hard ..." * 20, file=sys.stderr, flush=True)
    action = message["view"]["legal_actions"][0]
    print(json.dumps({"type": "move", "state_id": message["state_id"], "action": action}))
    sys.stdout.flush()
