// Words for actions, values and events of each game, from the message catalogue.
import { t, tElse } from "./i18n.js";

// A game's title, a preset's and a bot's description in the page's language: the
// catalogue's game.NAME, preset.GAME.NAME and bot.GAME.NAME (their English is the Python
// registry's own text, which the server sends; tests/test_web_i18n.py keeps them equal).
export function gameTitle(name, english = name) {
  return tElse(`game.${name}`, english);
}

export function presetText(game, preset) {
  return tElse(`preset.${game}.${preset.name}`, preset.description);
}

export function botText(game, bot) {
  return tElse(`bot.${game}.${bot.name}`, bot.description);
}

const PIPS = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];

// An option of a rule string as the server writes it (only options off their default
// appear: "mia(little_mia=on,mode=score)").
export function ruleOption(rules, key, fallback) {
  const found = (rules || "").match(new RegExp(`[(,]${key}=([^,)]+)`));
  return found ? found[1] : fallback;
}

// A Mia value as a player says it (as bluffdice.games.mia.values names it): 21 (Mia),
// 31 (little Mia), 42 (Halbmeier), 62 (8 pips).
export function miaValue(value, rules = "") {
  const high = Math.floor(value / 10); const low = value % 10;
  const on = (option) => ruleOption(rules, option, "off") === "on";
  if (value === 21) return namedValue(value, "mia");
  if (value === 31 && on("little_mia")) return namedValue(value, "littleMia");
  if (value === 42 && on("halbmeier")) return namedValue(value, "halbmeier");
  if (high !== low && on("pips")) return namedValue(value, "pips");
  return String(value);
}

// A Mia value under the name its rules give it (Ranking.named: mia, littleMia, halbmeier,
// pips; none: the plain number).
function namedValue(value, named) {
  if (!named) return String(value);
  return t(`value.${named}`, {value, pips: Math.floor(value / 10) + (value % 10)});
}

// "1 life", "2 lives": the catalogue's plural forms (n.WORD.one/few/many/other) by the
// language's plural rules.
export function counted(word, n) {
  const form = new Intl.PluralRules(document.documentElement.lang || "en").select(n);
  const key = `n.${word}.${form}`;
  const text = t(key, {n});
  return text === key ? t(`n.${word}.other`, {n}) : text;
}

// Dice as drawn on the page: pips, or poker dice's 9 10 J Q K A (faces 1 to 6).
export function dieFaces(dice, game = "") {
  if (game === "common-hand") return dice.map((d) => POKER[d] ?? String(d)).join(" ");
  return dice.map((d) => (d >= 1 && d <= 6 ? PIPS[d] : String(d))).join(" ");
}

const POKER = ["", "9", "10", "J", "Q", "K", "A"];
const CATEGORIES = ["nothing", "pair", "two-pair", "three", "straight", "full-house", "four", "five"];

// A poker-dice hand or claim in words (as bluffdice.games.common_hand.hands.describe_key
// says it): hand.KIND with the faces' plurals (pface.N) or, for a straight, its ends.
export function handName(kind, high, low = 0) {
  const faces = (f) => t(`pface.${f}`);
  if (kind === "straight") return t("hand.straight", {from: POKER[high - 4], to: POKER[high]});
  return t(`hand.${kind}`, {faces: faces(high), high: faces(high), low: faces(low)});
}

// The best hand five poker dice make (hand_key's order of checks).
export function bestHand(dice, rules = "") {
  const counts = new Map();
  for (const d of dice) counts.set(d, (counts.get(d) || 0) + 1);
  const byCount = [...counts].sort((a, b) => b[1] - a[1] || b[0] - a[0]);
  const [top, n1] = byCount[0];
  const [second, n2] = byCount[1] ?? [0, 0];
  const straights = ruleOption(rules, "straights", "on") === "on";
  const kind = n1 === 5 ? "five" : n1 === 4 ? "four" : n1 === 3 && n2 === 2 ? "full-house"
    : n1 === 1 && straights && Math.max(...dice) - Math.min(...dice) === 4 ? "straight"
      : n1 === 3 ? "three" : n1 === 2 && n2 === 2 ? "two-pair" : n1 === 2 ? "pair" : "nothing";
  if (kind === "straight" || kind === "nothing") return handName(kind, Math.max(...dice));
  return handName(kind, top, second);
}

// A bid as said aloud: "3 sixes" (one of a face: "1 4", as the terminal says it).
export function bidText(quantity, face) {
  if (quantity === 1) return t("bid.one", {quantity, face});
  const faces = t(`face.${face}`);
  return t("bid", {quantity, face, faces: faces === `face.${face}` ? `${face}s` : faces});
}

// The label of one action (a button, an entry of a picker).
export function actionLabel(action, view) {
  switch (action.type) {
    case "mia.roll": return view && view.announced != null ? t("act.believe") : t("act.roll");
    case "mia.look": return t("act.look");
    case "mia.announce": return miaValue(action.value, view && view.rules);
    case "mia.pass": return t("act.pass.value", {value: miaValue(action.value, view && view.rules)});
    case "mia.challenge": return t("act.challenge");
    case "mia.give-up": return t("act.giveUp");
    case "mia.beat": return t("act.beat");
    case "mia.cheers": return t("act.cheers");
    case "liars-dice.bid": return bidText(action.quantity, action.face);
    case "liars-dice.liar": return t("act.liar");
    case "liars-dice.calza": return t("act.calza");
    case "common-hand.liar": return t("act.liar");
    case "common-hand.claim": return handName(action.kind, action.high, action.low);
    case "common-hand.reroll": return dieFaces(action.dice, "common-hand");
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

// One line for one event as `viewer` (a seat, or null for a spectator or a replay) may
// read it, or null where the log says nothing. The English words are those of
// bluffdice.narration (tests/test_web_narration.py runs this against it for every event
// type); dice a narration line shows as [4] the page draws as pips.
export function eventText(event, ctx) {
  const {names, rules = "", viewer = null} = ctx;
  const n = (seat) => names[seat] ?? `#${seat + 1}`;
  const value = (v) => miaValue(v, rules);
  switch (event.type) {
    case "round_started": {
      if (ctx.game === "common-hand") return t("ev.ch.round", {round: event.round, starter: n(event.starter)});
      const mode = ruleOption(rules, "mode", "lives");
      const of = mode === "lives" ? "" : t("ev.roundOf", {rounds: ruleOption(rules, "rounds", "10")});
      return t("ev.round_started", {round: event.round, of, starter: n(event.starter)});
    }
    case "liars-dice.round_started": {
      const said = t("ev.ld.round", {round: event.round, dice: counted("die", event.dice.reduce((a, b) => a + b, 0)), starter: n(event.starter)});
      return event.palifico ? `${said}\n${t("ev.ld.palifico")}` : said;
    }
    case "mia.rolled": return t("ev.rolled", {player: n(event.player)});
    case "mia.looked": return event.player === viewer ? t("ev.looked", {value: value(event.value)}) : null;
    case "mia.announced": return t("ev.announced", {player: n(event.player), value: value(event.value)});
    case "mia.passed": return t("ev.passed", {player: n(event.player), value: value(event.value)});
    case "mia.challenged":
      if (event.announced === 21) return t("ev.challengedMia", {player: n(event.player), announcer: n(event.announcer)});
      return t("ev.challenged", {player: n(event.player), announcer: n(event.announcer), value: value(event.announced)});
    case "mia.gave_up": return t("ev.gaveUp", {player: n(event.player)});
    case "mia.revealed":
      if (event.announced == null || event.truthful == null) return null;
      return t("ev.revealed", {value: value(event.value), verdict: event.truthful ? t("ev.truthful") : t("ev.lie")});
    case "mia.mia_attempt":
      return event.value === 21 ? t("ev.miaBeaten") : t("ev.miaAttempt", {value: value(event.value)});
    case "mia.cheers_shown": return t("ev.cheers", {player: n(event.player)});
    case "mia.penalty": {
      const why = reason(event.reason);
      const mode = ruleOption(rules, "mode", "lives");
      if (mode === "score") return t("ev.penaltyScore", {player: n(event.player), why});
      if (mode === "drinking") {
        const drink = event.stiff ? t("ev.stiff") : counted("sip", event.amount);
        return t("ev.penaltyDrink", {player: n(event.player), drink, why});
      }
      return t("ev.penalty", {player: n(event.player), lost: counted("life", event.amount), why});
    }
    case "eliminated":
      return t(ctx.game === "liars-dice" ? "ev.ld.eliminated" : "ev.eliminated", {player: n(event.player)});
    // The end and a timeout: the narration leaves them to the result screen and the
    // turn line; the page's log says them too.
    case "game_over": return t("ev.gameOver", {winners: event.winners.map(n).join(", ")});
    case "timed_out": return t("ev.timedOut", {player: n(event.player), action: moveText(event.action)});
    case "liars-dice.rolled": return null;
    case "common-hand.rolled":
      return event.count < 5 ? t("ev.ch.rerolled", {player: n(event.player), dice: counted("die", event.count)}) : null;
    case "common-hand.your_dice": {
      // a player reads their own cup as theirs; a replay shows every cup, each by its owner
      const params = {dice: dieFaces(event.dice, "common-hand"), hand: bestHand(event.dice, rules), player: n(event.player)};
      return t(event.player === viewer ? "ev.ch.yourDice" : "ev.ch.playerDice", params);
    }
    case "common-hand.claimed": return t("ev.ch.claimed", {player: n(event.player), claim: claimName(event.claim)});
    case "common-hand.challenged":
      return t("ev.ch.challenged", {player: n(event.player), claimer: n(event.claimer), claim: claimName(event.claim)});
    case "common-hand.revealed":
      return t("ev.ch.revealed", {claim: claimName(event.claim), verdict: event.held ? t("ev.ch.holds") : t("ev.ch.bluff")});
    case "common-hand.life_lost": {
      const why = t(`reason.ch.${event.reason}`) === `reason.ch.${event.reason}` ? event.reason.replaceAll("_", " ") : t(`reason.ch.${event.reason}`);
      return t("ev.ch.lifeLost", {player: n(event.player), why, left: counted("life", event.lives)});
    }
    case "liars-dice.your_dice":
      return t(event.player === viewer ? "ev.ld.yourDice" : "ev.ld.playerDice", {dice: dieFaces(event.dice), player: n(event.player)});
    case "liars-dice.bid_made":
      return t("ev.ld.bid", {player: n(event.player), bid: bidText(event.quantity, event.face)});
    case "liars-dice.challenged":
      return t("ev.ld.challenged", {player: n(event.player), bidder: n(event.bidder), bid: bidText(event.quantity, event.face)});
    case "liars-dice.calza_called":
      return t("ev.ld.calza", {player: n(event.player), bid: bidText(event.quantity, event.face)});
    case "liars-dice.revealed": {
      const faces = (f) => (t(`face.${f}`) === `face.${f}` ? `${f}s` : t(`face.${f}`));
      const wild = event.wild && event.wild !== event.face ? t("ev.ld.withWild", {faces: faces(event.wild)}) : "";
      const verdict = event.count >= event.quantity ? t("ev.ld.holds") : t("ev.ld.bluff");
      return t("ev.ld.revealed", {count: event.count, faces: faces(event.face), wild, quantity: event.quantity, verdict});
    }
    case "liars-dice.dice_changed": {
      const why = t(`reason.ld.${event.reason}`) === `reason.ld.${event.reason}` ? event.reason.replaceAll("_", " ") : t(`reason.ld.${event.reason}`);
      if (event.change < 0) return t("ev.ld.lost", {player: n(event.player), why, dice: counted("die", event.dice)});
      if (event.change > 0) return t("ev.ld.won", {player: n(event.player), why, dice: counted("die", event.dice)});
      return t("ev.ld.full", {player: n(event.player), why});
    }
    default:
      return t("ev.other", {type: actionText(event)});
  }
}

function reason(code) {
  const key = `reason.${code}`;
  const text = t(key);
  return text === key ? code.replaceAll("_", " ") : text;
}

// Revealed dice of every player still in the game (Liar's Dice reveal), as [name, faces]
// pairs: a player who is out has an empty cup, and the reveal leaves them out.
// (Poker dice: each cup's faces with the hand they make.)
export function revealedHands(event, names, rules = "") {
  if (event.type !== "liars-dice.revealed" && event.type !== "common-hand.revealed") return [];
  const faces = event.type === "common-hand.revealed"
    ? (hand) => `${dieFaces(hand, "common-hand")} (${bestHand(hand, rules)})`
    : (hand) => dieFaces(hand);
  return (event.hands || []).flatMap((hand, seat) => (hand.length ? [[names[seat] ?? `#${seat + 1}`, faces(hand)]] : []));
}

function claimName(claim) {
  return handName(claim.kind, claim.high, claim.low);
}

// A sentence of a move's review in the page's language: the catalogue's template
// `said.key` (rv.*; its English is bluffdice.review.words.TEMPLATES) with the review's
// parameters, which may be such sentences themselves; `english` when no template came.
export function phrase(said, english = "") {
  if (!said || typeof said !== "object") return english;
  const params = Object.fromEntries(Object.entries(said.params || {}).map(
    ([k, v]) => [k, v !== null && typeof v === "object" ? ("term" in v ? termText(v) : phrase(v)) : v]));
  return tElse(said.key, english, params);
}

// A value a review sentence names, sent as what it is ({term: KIND, ...fields}; see
// bluffdice.review.words.Term) and worded here like the table page words it.
export function termText(term) {
  switch (term.term) {
    case "mia.value": return namedValue(term.value, term.named);
    case "ld.bid": return bidText(term.quantity, term.face);
    case "ch.hand": return handName(term.hand, term.high, term.low);
    case "game": return gameTitle(term.name);
    default: return String(term.value ?? term.term);
  }
}

// A move as the record and the review name it ("challenge", "pass 42", "give up", "3x5"):
// its word from the catalogue (rv.move.WORD), the values after it as they are.
export function moveText(text) {
  if (text === null || text === undefined) return "";
  const whole = t(`rv.move.${text}`);
  if (whole !== `rv.move.${text}`) return whole;
  const [word, ...rest] = String(text).split(" ");
  const said = t(`rv.move.${word}`);
  return said === `rv.move.${word}` ? String(text) : [said, ...rest].join(" ");
}

// A figure's label in a review (p_challenge_wins: the catalogue's rv.figure.p_challenge_wins).
export function figureLabel(key) {
  return tElse(`rv.figure.${key}`, key.replaceAll("_", " "));
}
