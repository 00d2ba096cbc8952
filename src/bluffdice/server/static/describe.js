// Words for actions, values and events of each game, from the message catalogue.
import { t } from "./i18n.js";

const PIPS = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];

export function miaValue(value) {
  return value === 21 ? t("value.mia") : String(value);
}

export function dieFaces(dice) {
  return dice.map((d) => (d >= 1 && d <= 6 ? PIPS[d] : String(d))).join(" ");
}

export function bidText(quantity, face) {
  return `${quantity}× ${face}`;
}

// The label of one action (a button, an entry of a picker).
export function actionLabel(action, view) {
  switch (action.type) {
    case "mia.roll": return view && view.announced != null ? t("act.believe") : t("act.roll");
    case "mia.look": return t("act.look");
    case "mia.announce": return miaValue(action.value);
    case "mia.pass": return t("act.pass.value", {value: miaValue(action.value)});
    case "mia.challenge": return t("act.challenge");
    case "mia.give-up": return t("act.giveUp");
    case "mia.beat": return t("act.beat");
    case "mia.cheers": return t("act.cheers");
    case "liars-dice.bid": return bidText(action.quantity, action.face);
    case "liars-dice.liar": return t("act.liar");
    case "liars-dice.calza": return t("act.calza");
    case "common-hand.liar": return t("act.liar");
    default: return actionText(action);
  }
}

// Action kinds that come in many values get a picker; the picker's button says this.
export const PICKED = {
  "mia.announce": "act.announce",
  "mia.pass": "act.pass",
  "liars-dice.bid": "act.bid",
  "common-hand.claim": "act.claim",
  "common-hand.reroll": "act.reroll",
};

function actionText(action) {
  const fields = Object.entries(action).filter(([k]) => k !== "type").map(([, v]) => v);
  return [action.type.split(".").pop(), ...fields.map((v) => (Array.isArray(v) ? v.join("") : v))].join(" ");
}

// One line for one event, or null for events the log need not show.
export function eventText(event, names, rules) {
  const n = (seat) => names[seat] ?? `#${seat + 1}`;
  switch (event.type) {
    case "round_started":
    case "liars-dice.round_started":
      return t("ev.round_started", {round: event.round, starter: n(event.starter)});
    case "mia.rolled": return t("ev.rolled", {player: n(event.player)});
    case "mia.looked": return t("ev.looked", {value: miaValue(event.value)});
    case "mia.announced": return t("ev.announced", {player: n(event.player), value: miaValue(event.value)});
    case "mia.passed": return t("ev.passed", {player: n(event.player), value: miaValue(event.value)});
    case "mia.challenged":
      return t("ev.challenged", {player: n(event.player), announcer: n(event.announcer), value: miaValue(event.announced)});
    case "mia.gave_up": return t("ev.gaveUp", {player: n(event.player)});
    case "mia.revealed":
      if (event.announced == null) return t("ev.revealedOpen", {value: miaValue(event.value)});
      return t("ev.revealed", {
        value: miaValue(event.value), announced: miaValue(event.announced),
        verdict: event.truthful ? t("ev.truthful") : t("ev.lie"),
      });
    case "mia.mia_attempt": return t("ev.miaAttempt", {player: n(event.player), value: miaValue(event.value)});
    case "mia.cheers_shown": return t("ev.cheers", {player: n(event.player)});
    case "mia.penalty":
      return event.stiff ? t("ev.penaltyStiff", {player: n(event.player)})
        : t("ev.penalty", {player: n(event.player), amount: event.amount});
    case "eliminated": return t("ev.eliminated", {player: n(event.player)});
    case "game_over": return t("ev.gameOver", {winners: event.winners.map(n).join(", ")});
    case "timed_out": return t("ev.timedOut", {player: n(event.player), action: event.action});
    case "liars-dice.rolled": return t("ev.ld.rolled", {player: n(event.player), count: event.count});
    case "liars-dice.your_dice": return t("ev.ld.yourDice", {dice: dieFaces(event.dice)});
    case "liars-dice.bid_made":
      return t("ev.ld.bid", {player: n(event.player), bid: bidText(event.quantity, event.face)});
    case "liars-dice.challenged":
      return t("ev.ld.challenged", {player: n(event.player), bidder: n(event.bidder), bid: bidText(event.quantity, event.face)});
    case "liars-dice.calza_called":
      return t("ev.ld.calza", {player: n(event.player), bidder: n(event.bidder), bid: bidText(event.quantity, event.face)});
    case "liars-dice.revealed":
      return t("ev.ld.revealed", {count: event.count, bid: bidText(event.quantity, event.face)});
    case "liars-dice.dice_changed":
      if (event.change < 0) return t("ev.ld.lost", {player: n(event.player), dice: event.dice});
      if (event.change > 0) return t("ev.ld.won", {player: n(event.player), dice: event.dice});
      return null;
    default:
      return t("ev.other", {type: actionText(event)});
  }
}

// Revealed dice of every player (Liar's Dice reveal), as [name, faces] pairs.
export function revealedHands(event, names) {
  if (event.type !== "liars-dice.revealed" && event.type !== "common-hand.revealed") return [];
  return (event.hands || []).map((hand, seat) => [names[seat] ?? `#${seat + 1}`, dieFaces(hand)]);
}
