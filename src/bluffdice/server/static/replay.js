// A finished game, step by step, with every die shown.
import { t } from "./i18n.js";
import { api, clear, h } from "./dom.js";
import { eventText, figureLabel, gameTitle, miaValue, moveText, phrase, revealedHands, dieFaces } from "./describe.js";

// The review's figures that are true or false, sent as 1.0 or 0.0 (bluffdice.review's
// mia and common_hand ratings).
const FLAGS = new Set(["truthful", "model_believes", "claim_true"]);

export async function showReplay(root, gameId) {
  let data;
  try {
    data = await api(`/api/replays/${gameId}`);
  } catch (e) {
    clear(root, h("p", {class: "error", role: "alert"}, t("error", {reason: e.message})));
    return;
  }
  document.title = `bluffdice · ${t("replay.title")}`;
  const steps = data.steps;
  let at = steps.length - 1;
  const counter = h("p", {id: "replay-step", "aria-live": "polite"});
  const body = h("section", {class: "replay-step"});
  const state = h("section", {class: "replay-state"});
  const rating = h("section", {class: "rating", id: "rating", "aria-live": "polite"});
  const models = h("section", {class: "models", id: "models"});
  let review = null;  // step -> rating, once /review answered
  const name = (seat) => (seat >= 0 ? data.names[seat] : seat === -3 ? t("replay.table") : "🎲");

  function chanceText(chance) {
    if (!chance) return null;
    if (chance.type === "mia.dice") return t("replay.chance", {text: `${dieFaces([Math.floor(chance.value / 10), chance.value % 10])} (${miaValue(chance.value, data.rules)})`});
    if (chance.type === "liars-dice.dice" || chance.type === "common-hand.dice") {
      return t("replay.chance", {text: dieFaces(chance.dice, data.game)});
    }
    return t("replay.chance", {text: steps[at].text});
  }

  function show() {
    const step = steps[at];
    const update = step.update;
    counter.textContent = t("replay.step", {n: at + 1, total: steps.length});
    const lines = update.events.map((e) => eventText(e, {names: data.names, rules: data.rules, game: data.game, viewer: null})).filter(Boolean);
    const hands = update.events.flatMap((e) => revealedHands(e, data.names, data.rules));
    clear(body,
      h("p", {class: "move"}, step.actor === -1 ? chanceText(update.chance) : t("replay.move", {player: name(step.actor), text: moveText(step.text)})),
      hands.length ? h("ul", {class: "hands"}, hands.map(([n, faces]) => h("li", {}, h("span", {class: "name"}, n), ": ", faces))) : null,
      h("ul", {}, lines.map((l) => h("li", {}, l))));
    const v = update.view;
    const out = (i) => (v.out ? Boolean(v.out[i]) : v.game === "liars-dice" && v.dice && v.dice[i] === 0);
    const meter = (i) => (out(i) ? t("table.out") : v.lives ? t("table.lives", {n: v.lives[i]}) : v.dice ? t("table.dice", {n: v.dice[i]}) : "");
    showRating(at);
    clear(state, h("ul", {class: "players"}, data.names.map((n, i) =>
      h("li", {class: `player${v.turn === i ? " to-move" : ""}${out(i) ? " out" : ""}`}, h("span", {class: "name"}, n), h("span", {class: "meter"}, meter(i))))));
  }

  // The review's rating of this step's decision, for the player who made it: its sentences
  // are the review's templates (r.said) filled in from the catalogue.
  function showRating(n) {
    const r = review && review.get(n);
    if (!r) { clear(rating); return; }
    const said = (field) => phrase(r.said && r.said[field], r[field]);
    // flags as yes or no, chances (p_..., the equilibrium's frequencies) as percentages,
    // other figures (expected losses) as numbers
    const figure = (k, x) => (FLAGS.has(k) ? t(x ? "review.yes" : "review.no")
      : k.startsWith("p_") || k.startsWith("equilibrium_") ? `${Math.round(x * 1000) / 10}%`
        : String(Math.round(x * 1000) / 1000));
    const mark = r.mark || (r.cost === null ? "" : "✓");
    clear(rating,
      h("h2", {}, t("review.title", {player: name(r.seat)}), " ", h("span", {class: `mark${r.mark ? " bad" : ""}`, id: "rating-mark"}, mark)),
      h("p", {}, said("situation"), " → ", h("strong", {}, moveText(r.choice)), ` (${said("knew")})`),
      r.cost !== null ? h("p", {id: "rating-cost"}, r.cost > 0
        ? t("review.cost", {cost: r.cost.toFixed(2), best: moveText(r.best)})
        : t("review.best")) : h("p", {id: "rating-cost"}, t("review.notRated")),
      Object.keys(r.figures).length ? h("ul", {class: "figures"}, Object.entries(r.figures).map(([k, v]) =>
        h("li", {}, `${figureLabel(k)}: ${figure(k, v)}`))) : null,
      r.equilibrium ? h("p", {}, t("review.equilibrium", {moves: Object.entries(r.equilibrium).map(([k, v]) => `${moveText(k)} ${Math.round(v * 100)}%`).join(", ")})) : null,
      r.truth ? h("p", {}, t("review.truth", {truth: said("truth")})) : null,
      r.note ? h("p", {class: "hint-line"}, said("note")) : null,
      h("p", {class: "hint-line", id: "rating-model"}, t("review.model", {model: said("model")})));
  }

  async function loadReview() {
    let data;
    try { data = await api(`/api/replays/${gameId}/review`); } catch { return; }
    if (data.reason) { clear(models, h("p", {class: "hint-line"}, t("review.none", {reason: phrase(data.reason_said, data.reason)}))); return; }
    review = new Map(data.ratings.map((r) => [r.step, r]));
    const marks = data.ratings.filter((r) => r.mark);
    clear(models, h("h2", {}, t("review.models")),
      h("p", {}, t("review.summary", {n: data.ratings.length, marked: marks.length})),
      h("dl", {}, Object.entries(data.models).flatMap(([model, about]) => {
        const words = (data.models_said || {})[model] || {};
        return [h("dt", {}, phrase(words.name, model)), h("dd", {}, phrase(words.about, about))];
      })));
    show();
  }

  const go = (n) => { at = Math.max(0, Math.min(steps.length - 1, n)); show(); };
  const button = (label, id, fn) => h("button", {type: "button", id, onclick: fn}, label);
  clear(root,
    h("h1", {}, `${t("replay.title")} · ${gameTitle(data.game)}`),
    h("p", {}, t("table.rules", {rules: data.rules})),
    h("div", {class: "buttons"},
      button(t("replay.first"), "replay-first", () => go(0)),
      button(t("replay.prev"), "replay-prev", () => go(at - 1)),
      button(t("replay.next"), "replay-next", () => go(at + 1)),
      button(t("replay.last"), "replay-last", () => go(steps.length - 1))),
    h("p", {class: "hint-line"}, t("replay.keys")),
    counter, body, rating, state, models,
    h("p", {}, h("a", {href: "/", class: "button"}, t("table.lobby"))));
  document.addEventListener("keydown", (event) => {
    if (event.key === "ArrowRight") go(at + 1);
    else if (event.key === "ArrowLeft") go(at - 1);
    else if (event.key === "Home") go(0);
    else if (event.key === "End") go(steps.length - 1);
  });
  go(0);
  loadReview();
}
