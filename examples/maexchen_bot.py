"""A minimal Mäxchen contest bot, standalone: no bluffdice import.

    python examples/maexchen_bot.py --name simple [--host 127.0.0.1] [--port 9000]

It joins every round, tells the truth when the truth beats the last announcement and
otherwise claims the smallest value that does, and calls SEE when the announcement it
receives is one a fresh roll beats less than a third of the time. `Strategy.reply`
holds all of the protocol; `main` only moves datagrams, so other programs (the tests,
the benchmark) can drive the same strategy over their own sockets.
"""

from __future__ import annotations

import argparse
import random
import socket

# Worst first: 31 lowest ... 65, then the doubles 11 ... 66, then 21 (Mia).
RANKING = (
    [10 * high + low for high in range(3, 7) for low in range(1, high)]
    + [11 * d for d in range(1, 7)]
    + [21]
)


def rank(value: int) -> int:
    return RANKING.index(value)


def chance_to_beat(value: int) -> float:
    """The chance that a fresh roll is strictly higher than `value`."""
    better = RANKING[rank(value) + 1 :]
    return sum(1 if v % 11 == 0 else 2 for v in better) / 36


class Strategy:
    """Reads one server line, returns the answer to send (or None)."""

    def __init__(self, see_below: float = 1 / 3, rng: random.Random | None = None) -> None:
        self.see_below = see_below
        self.rng = rng or random.Random()
        self.last: int | None = None

    def reply(self, line: str) -> str | None:
        fields = line.rstrip("\r\n").split(";")
        command = fields[0]
        if command == "ROUND STARTING":
            return f"JOIN;{fields[1]}"
        if command == "ROUND STARTED":
            self.last = None
        elif command == "ANNOUNCED":
            high, low = sorted(map(int, fields[2].split(",")), reverse=True)
            self.last = 10 * high + low
        elif command == "YOUR TURN":
            if self.last is not None and chance_to_beat(self.last) < self.see_below:
                return f"SEE;{fields[1]}"
            return f"ROLL;{fields[1]}"
        elif command == "ROLLED":
            high, low = sorted(map(int, fields[1].split(",")), reverse=True)
            claim = 10 * high + low
            if self.last is not None and rank(claim) <= rank(self.last):
                claim = RANKING[min(rank(self.last) + 1, len(RANKING) - 1)]
            return f"ANNOUNCE;{claim // 10},{claim % 10};{fields[2]}"
        return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--name", default="simple")
    parser.add_argument("--secret", default=None)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=9000)
    args = parser.parse_args()
    server = (args.host, args.port)
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    register = f"REGISTER;{args.name}" + (f";{args.secret}" if args.secret else "")
    sock.settimeout(1.0)
    for _ in range(60):  # UDP may lose the first try, or the server is not up yet
        sock.sendto(register.encode(), server)
        try:
            data, sender = sock.recvfrom(1024)
        except OSError:
            continue
        if sender == server:
            break
    else:
        raise SystemExit(f"no answer from {args.host}:{args.port}")
    if data.startswith(b"REJECTED"):
        raise SystemExit(f"the server said {data.decode('utf-8', 'replace')}")
    sock.settimeout(None)
    strategy = Strategy()
    while True:
        data, sender = sock.recvfrom(1024)
        if sender != server:
            continue
        line = data.decode("utf-8", "replace")
        answer = strategy.reply(line)
        if answer is not None:
            sock.sendto(answer.encode(), server)


if __name__ == "__main__":
    main()
