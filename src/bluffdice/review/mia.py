"""Rating Mia decisions: the odds model for every game, the solved round where it covers.

Two sources, never mixed up in the report:
- the odds model of `bluffdice.odds.mia_model` (exact chances and expected losses under
  its stated assumptions about how players announce and answer): every answer to a
  fresh announcement and every announcement over dice the player looked at;
- the solved heads-up round (a shipped CFR+ policy, with its exploitability), when
  exactly two players are left and a shipped policy matches the rules: what the
  equilibrium does at the same spot, and how often it makes the player's move.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from bluffdice.games.mia.actions import Announce, BeatMia, Challenge, GiveUp, Pass, Revealed, Roll
from bluffdice.games.mia.rules import MiaRules
from bluffdice.games.mia.values import MIA
from bluffdice.odds.mia import (
    BEAT,
    BELIEVE,
    CHALLENGE,
    GIVE_UP,
    LOOK,
    announcer_loss,
    decide,
    p_beat,
    roll_distribution,
)
from bluffdice.review.rating import Rater, Rating
from bluffdice.review.words import Phrase, Term, mia_value

ODDS_MODEL = Phrase("rv.model.odds")
ODDS_MODEL_TEXT = Phrase("rv.model.odds.about")


def _float(x: Fraction) -> float:
    return round(float(x), 4)


class MiaRater(Rater):
    def __init__(self, rules: MiaRules, players: int) -> None:
        super().__init__(rules, players)
        self.rules: MiaRules = rules
        self.policy, self.policy_name = _shipped_policy(rules)
        self.models = {ODDS_MODEL: ODDS_MODEL_TEXT}
        if self.policy is not None:
            from bluffdice.solve.problems import mia_spec_from_json

            self.models[Phrase("rv.model.equilibrium", name=self.policy_name)] = Phrase(
                "rv.model.equilibrium.about",
                title=policy_title(mia_spec_from_json(self.policy.spec)),
                exploitability=f"{self.policy.exploitability:.2g}",
            )

    def _value(self, value: int) -> Term:
        return mia_value(value, self.rules.ranking)

    # --- the walk's calls ------------------------------------------------------------

    def rate(self, number: int, step: int, before: Any, seat: int, action: Any) -> Rating | None:
        view = before.view(seat)
        if view.phase in ("respond", "mia") and not isinstance(action, Announce):
            return self._answer(number, step, view, action)
        if view.phase == "hold" and isinstance(action, Announce):
            return self._announce(number, step, view, seat, action)
        return None  # rolling, looking, cheers: no choice worth rating

    def truth(self, before: Any, rating: Rating, events: Sequence[Any]) -> None:
        for event in events:
            if isinstance(event, Revealed):
                value = self._value(event.value)
                if event.announced is None:
                    rating.truth = Phrase("rv.mia.truth.dice", value=value)
                else:
                    key = "rv.mia.truth.held" if event.truthful else "rv.mia.truth.lie"
                    announced = self._value(event.announced)
                    rating.truth = Phrase(key, value=value, announced=announced)
                return

    def summary(self, ratings: list[Rating]) -> dict[str, Any]:
        answers = [r for r in ratings if r.kind == "answer"]
        claims = [r for r in ratings if r.kind == "announce" and "truthful" in r.figures]
        out: dict[str, Any] = {}
        if answers:
            challenged = [r for r in answers if r.choice == "challenge"]
            out["challenge_rate"] = round(len(challenged) / len(answers), 4)
            eq = [r.equilibrium for r in answers if r.equilibrium]
            if eq:
                out["equilibrium_challenge_rate"] = round(
                    sum(d.get("challenge", 0.0) for d in eq) / len(eq), 4
                )
                out["equilibrium_spots_answers"] = len(eq)
        if claims:
            honest = [r for r in claims if r.figures.get("truthful") == 1.0]
            out["honesty_rate"] = round(len(honest) / len(claims), 4)
            eq_honest = [
                r.figures["equilibrium_truthful"]
                for r in claims
                if "equilibrium_truthful" in r.figures
            ]
            if eq_honest:
                out["equilibrium_honesty_rate"] = round(sum(eq_honest) / len(eq_honest), 4)
                out["equilibrium_spots_announcements"] = len(eq_honest)
        return out

    # --- answers -----------------------------------------------------------------------

    def _answer(self, number: int, step: int, view: Any, action: Any) -> Rating:
        calls = view.calls
        last = calls[-1]
        previous = calls[-2].value if len(calls) >= 2 else None
        said = "rv.mia.answer.passed" if last.kind == "pass" else "rv.mia.answer.announced"
        player, value = self.names[last.player], self._value(last.value)
        rating = Rating(
            number=number,
            step=step,
            round=view.round,
            kind="answer",
            situation=Phrase(said, player=player, value=value, previous=self._value(previous))
            if previous is not None
            else Phrase(f"{said}.open", player=player, value=value),
            choice=str(action),
            knew=self.said("rv.mia.knew.unseen"),
        )
        known = view.my_dice
        ranking = self.rules.ranking
        if known is not None:
            short = ranking.rank(known) < ranking.rank(last.value)
            rating.knew = self.said("rv.mia.knew.seen", dice=self._value(known))
            rating.figures["p_challenge_wins"] = 1.0 if short else 0.0
            rating.model = Phrase("rv.model.exact")
            rating.note = Phrase("rv.mia.note.short" if short else "rv.mia.note.hold")
        elif last.kind == "pass":
            rating.note = Phrase("rv.mia.note.passOver")
        else:
            self._answer_odds(rating, previous, last.value, action)
        self._answer_equilibrium(rating, view, action)
        return rating

    def _answer_odds(
        self, rating: Rating, previous: int | None, announced: int, action: Any
    ) -> None:
        try:
            decision = decide(self.rules, previous, announced)
        except ValueError as exc:
            rating.note = Phrase("rv.note.outside", reason=self._outside(exc, previous, announced))
            return
        rating.model = ODDS_MODEL
        rating.figures["p_announcement_true"] = _float(decision.p_true)
        rating.figures["p_challenge_wins"] = _float(1 - decision.p_true)
        rating.options = {o: _float(loss) for o, loss in decision.options.items()}
        rating.best = decision.best
        chosen = _answer_option(action, announced)
        if chosen is None or chosen not in decision.options:
            rating.note = Phrase("rv.mia.note.passing")
            return
        rating.cost = _float(decision.options[chosen] - decision.options[decision.best])

    def _answer_equilibrium(self, rating: Rating, view: Any, action: Any) -> None:
        if self.policy is None or not self._heads_up(view):
            return
        from bluffdice.solve import mia

        calls = [(c.player, c.kind, c.value) for c in view.calls]
        try:
            info = mia.answer_info(self.rules.ranking, calls, calls[0][0])
        except (ValueError, IndexError):
            return
        hand = str(view.my_dice) if view.my_dice is not None else None
        dist = self._distribution(info, hand)
        if dist:
            rating.equilibrium = dist
            rating.equilibrium_choice = round(dist.get(str(action), 0.0), 4)

    # --- announcements -----------------------------------------------------------------

    def _announce(self, number: int, step: int, view: Any, seat: int, action: Announce) -> Rating:
        calls = view.calls
        previous = calls[-1].value if calls else None
        dice = view.my_dice
        shown = {"dice": self._value(dice)} if dice is not None else {}
        situation = "rv.mia.announce" if dice is not None else "rv.mia.announce.unseen"
        rating = Rating(
            number=number,
            step=step,
            round=view.round,
            kind="announce",
            situation=self.said(situation, **shown, previous=self._value(previous))
            if previous is not None
            else self.said(f"{situation}.open", **shown),
            choice=str(action),
            knew=self.said("rv.knew.dice", **shown) if shown else self.said("rv.mia.knew.blind"),
        )
        rolls = {dice: Fraction(1)} if dice is not None else roll_distribution(self.rules)
        ranking = self.rules.ranking
        if dice is not None:
            truthful = ranking.rank(dice) >= ranking.rank(action.value)
            rating.figures["truthful"] = 1.0 if truthful else 0.0
            rating.truth = self.said("rv.mia.truth.told" if truthful else "rv.mia.truth.lied")
        else:
            rating.note = Phrase("rv.mia.note.blind")
        if action.value != MIA:
            rating.figures["p_fresh_roll_beats"] = _float(p_beat(self.rules, action.value))
        try:
            losses: dict[str, Fraction] = {}
            answers: dict[str, str] = {}
            for legal in view.legal_actions:
                if isinstance(legal, Announce):
                    total = Fraction(0)
                    for held, p in rolls.items():
                        answer, loss = announcer_loss(self.rules, previous, legal.value, held)
                        total += p * loss
                    losses[str(legal.value)], answers[str(legal.value)] = total, answer
        except ValueError as exc:
            rating.note = Phrase("rv.note.outside", reason=self._outside(exc, previous, None))
            losses = {}
        if losses:
            rating.model = ODDS_MODEL
            truth = str(dice)
            best = min(losses, key=lambda v: (losses[v], v != truth, ranking.rank(int(v))))
            rating.options = {v: _float(loss) for v, loss in losses.items()}
            rating.best = best
            rating.cost = _float(losses[str(action.value)] - losses[best])
            believed = answers[str(action.value)] == BELIEVE
            rating.figures["model_believes"] = 1.0 if believed else 0.0
            if dice is not None and str(dice) in losses:
                rating.figures["truth_loss"] = _float(losses[str(dice)])
        if dice is None:
            return rating
        self._announce_equilibrium(rating, view, seat, action, dice)
        return rating

    def _announce_equilibrium(
        self, rating: Rating, view: Any, seat: int, action: Announce, dice: int
    ) -> None:
        if self.policy is None or not self._heads_up(view):
            return
        from bluffdice.solve import mia

        calls = [(c.player, c.kind, c.value) for c in view.calls]
        opener = calls[0][0] if calls else seat
        ranking = self.rules.ranking
        try:
            info = mia.hold_info(ranking, calls, seat, opener)
        except (ValueError, IndexError):
            return
        dist = self._distribution(info, str(dice))
        if not dist:
            return
        rating.equilibrium = dist
        rating.equilibrium_choice = round(dist.get(str(action), 0.0), 4)
        rating.figures["equilibrium_truthful"] = round(
            sum(
                p
                for a, p in dist.items()
                if a.isdigit() and ranking.rank(dice) >= ranking.rank(int(a))
            ),
            4,
        )
        try:
            answer = mia.answer_info(ranking, [*calls, (seat, "announce", action.value)], opener)
        except (ValueError, IndexError):
            return
        reply = self._distribution(answer, None)
        if reply:
            rating.figures["equilibrium_believes"] = round(1.0 - reply.get("challenge", 0.0), 4)

    def _outside(self, exc: ValueError, previous: int | None, announced: int | None) -> Any:
        """Why the odds model does not cover a spot, in words the page can translate where
        the spot is one the model refuses on purpose (see odds.mia_model._check); any
        other refusal as the model's own English."""
        if previous == MIA:
            return Phrase("rv.mia.outside.afterMia")
        if announced is not None and previous is not None and "may not follow" in str(exc):
            key = "rv.mia.outside.equal" if self.rules.relaxed_raise else "rv.mia.outside.beat"
            return Phrase(key, announced=self._value(announced), previous=self._value(previous))
        return exc

    # --- the solved policy -------------------------------------------------------------

    def _heads_up(self, view: Any) -> bool:
        return sum(1 for gone in view.out if not gone) == 2

    def _distribution(self, info: Any, hand: str | None) -> dict[str, float] | None:
        from bluffdice.solve import mia

        assert self.policy is not None
        dist = self.policy.distribution(mia.key_text(info), hand)
        if not dist and len(info[2]) > 1:
            cap = int(self.policy.spec.get("pass_cap") or 0)
            dist = self.policy.distribution(mia.key_text(mia.fold(info, cap)), hand)
        if not dist:
            return None
        return {
            a: round(p, 4) for a, p in sorted(dist.items(), key=lambda kv: -kv[1]) if p >= 0.0005
        }


def _answer_option(action: Any, announced: int) -> str | None:
    if isinstance(action, Roll):
        return BELIEVE
    if isinstance(action, Challenge):
        return LOOK if announced == MIA else CHALLENGE
    if isinstance(action, GiveUp):
        return GIVE_UP
    if isinstance(action, BeatMia):
        return BEAT
    if isinstance(action, Pass):
        return None
    return None


def _shipped_policy(rules: MiaRules) -> tuple[Any, str]:
    """The shipped policy solved for this rule set's round, or (None, "")."""
    from bluffdice.errors import BluffdiceError
    from bluffdice.solve import mia, problems
    from bluffdice.solve.policy import shipped, shipped_index

    try:
        wanted = problems.spec_json(mia.spec_from_rules(rules))
    except BluffdiceError:
        return None, ""
    keys = ("ranking", "pass_allowed", "mia_end", "beat_mia")
    for name, entry in shipped_index().items():
        if entry["game"] == "mia" and all(entry["spec"].get(k) == wanted.get(k) for k in keys):
            return shipped(name), name
    return None, ""


def policy_title(spec: Any) -> Phrase:
    """A solved round's title (a MiaRoundSpec) as the review's templates say it; its
    English is `spec.describe()`, word for word (tests/test_web_review.py checks it)."""
    parts = [Phrase("rv.policy.round")]
    ranking = spec.ranking
    for name in ("doubles_ascending", "little_mia", "halbmeier", "pips"):
        if getattr(ranking, name):
            parts.append(Phrase(f"rv.policy.{name}"))
    if spec.pass_allowed:
        end = "draw" if spec.at_cap == "draw" else "forced"
        parts.append(Phrase(f"rv.policy.pass.{end}", cap=spec.pass_cap))
    else:
        parts.append(Phrase("rv.policy.noPass"))
    end_by = "instant" if spec.mia_end == "instant" else "look"
    parts.append(Phrase(f"rv.policy.mia.{end_by}"))
    if spec.beat_mia:
        parts.append(Phrase("rv.policy.beatMia"))
    title = parts[-1]
    for part in reversed(parts[:-1]):
        title = Phrase("rv.policy.and", first=part, second=title)
    return title
