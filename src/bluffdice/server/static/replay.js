// A finished game, step by step, with every die shown.
import { t } from "./i18n.js";
import { api, clear, h } from "./dom.js";
import { eventText, miaValue, revealedHands, dieFaces } from "./describe.js";

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
  const name = (seat) => (seat >= 0 ? data.names[seat] : seat === -3 ? t("replay.table") : "🎲");

  function chanceText(chance) {
    if (!chance) return null;
    if (chance.type === "mia.dice") return t("replay.chance", {text: `${dieFaces([Math.floor(chance.value / 10), chance.value % 10])} (${miaValue(chance.value)})`});
    if (chance.type === "liars-dice.dice" || chance.type === "common-hand.dice") {
      return t("replay.chance", {text: dieFaces(chance.dice)});
    }
    return t("replay.chance", {text: steps[at].text});
  }

  function show() {
    const step = steps[at];
    const update = step.update;
    counter.textContent = t("replay.step", {n: at + 1, total: steps.length});
    const lines = update.events.map((e) => eventText(e, data.names)).filter(Boolean);
    const hands = update.events.flatMap((e) => revealedHands(e, data.names));
    clear(body,
      h("p", {class: "move"}, step.actor === -1 ? chanceText(update.chance) : t("replay.move", {player: name(step.actor), text: step.text})),
      hands.length ? h("ul", {class: "hands"}, hands.map(([n, faces]) => h("li", {}, h("span", {class: "name"}, n), ": ", faces))) : null,
      h("ul", {}, lines.map((l) => h("li", {}, l))));
    const v = update.view;
    const meter = (i) => (v.lives ? t("table.lives", {n: v.lives[i]}) : v.dice ? t("table.dice", {n: v.dice[i]}) : "");
    clear(state, h("ul", {class: "players"}, data.names.map((n, i) =>
      h("li", {class: `player${v.turn === i ? " to-move" : ""}`}, h("span", {class: "name"}, n), h("span", {class: "meter"}, meter(i))))));
  }

  const go = (n) => { at = Math.max(0, Math.min(steps.length - 1, n)); show(); };
  const button = (label, id, fn) => h("button", {type: "button", id, onclick: fn}, label);
  clear(root,
    h("h1", {}, `${t("replay.title")} · ${data.game}`),
    h("p", {}, t("table.rules", {rules: data.rules})),
    h("div", {class: "buttons"},
      button(t("replay.first"), "replay-first", () => go(0)),
      button(t("replay.prev"), "replay-prev", () => go(at - 1)),
      button(t("replay.next"), "replay-next", () => go(at + 1)),
      button(t("replay.last"), "replay-last", () => go(steps.length - 1))),
    h("p", {class: "hint-line"}, t("replay.keys")),
    counter, body, state,
    h("p", {}, h("a", {href: "/", class: "button"}, t("table.lobby"))));
  document.addEventListener("keydown", (event) => {
    if (event.key === "ArrowRight") go(at + 1);
    else if (event.key === "ArrowLeft") go(at - 1);
    else if (event.key === "Home") go(0);
    else if (event.key === "End") go(steps.length - 1);
  });
  go(0);
}
