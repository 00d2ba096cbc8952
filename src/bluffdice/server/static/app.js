// The page: reads its path and shows the lobby, a table or a replay.
import { language, loadLanguage, setLanguage, t } from "./i18n.js";
import { botText, gameTitle, presetText } from "./describe.js";
import { api, clear, h, keepHost, keepToken } from "./dom.js";
import { showTable } from "./table.js";
import { showReplay } from "./replay.js";

const main = document.getElementById("main");

async function start() {
  const lang = language();
  await loadLanguage(lang);
  const picker = document.getElementById("lang");
  picker.value = lang;
  picker.addEventListener("change", () => { setLanguage(picker.value); location.reload(); });
  for (const el of document.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t);
  const path = location.pathname;
  let match;
  if ((match = path.match(/^\/t\/([\w-]+)$/))) showTable(main, match[1]);
  else if ((match = path.match(/^\/replay\/([\w-]+)$/))) showReplay(main, match[1]);
  else showLobby(main);
}

export function playerName() {
  return localStorage.getItem("bluffdice.name") || "";
}

export function keepName(name) {
  localStorage.setItem("bluffdice.name", name);
}

async function showLobby(root) {
  document.title = "bluffdice";
  const {games} = await api("/api/games");
  const errorLine = h("p", {class: "error", role: "alert"});
  const nameInput = h("input", {id: "name", maxlength: 24, autocomplete: "nickname", value: playerName()});
  const gameSelect = h("select", {id: "game"}, games.map((g) => h("option", {value: g.name}, gameTitle(g.name, g.title))));
  const presetSelect = h("select", {id: "preset"});
  const options = h("div", {class: "options"});
  const ruleString = h("code", {id: "rule-string"});
  const seatCount = h("select", {id: "seat-count"});
  const seatList = h("ol", {class: "seats-form"});
  const limitSelect = h("select", {id: "limit"},
    h("option", {value: ""}, t("lobby.noLimit")),
    [15, 30, 60, 120].map((n) => h("option", {value: n}, t("lobby.seconds", {n}))));
  limitSelect.value = "60";
  const fairBox = h("input", {type: "checkbox", id: "fair"});
  // off by default: a table is private, reached by the link its creator sends
  const listedBox = h("input", {type: "checkbox", id: "listed"});
  let current = null;  // the chosen game
  let optionValues = {};
  let presetValues = {};

  const game = () => games.find((g) => g.name === gameSelect.value);

  function ruleText() {
    const changed = current.options.filter((o) => optionValues[o.key] !== presetValues[o.key]);
    const base = presetSelect.value;
    if (!changed.length) return base;
    const show = (v) => (v === true ? "on" : v === false ? "off" : String(v));
    return `${base}(${changed.map((o) => `${o.key}=${show(optionValues[o.key])}`).join(",")})`;
  }

  async function refreshRules() {
    try {
      const entry = await api(`/api/rules?rules=${encodeURIComponent(ruleText())}`);
      ruleString.textContent = entry.rules;
      errorLine.textContent = "";
    } catch (e) {
      errorLine.textContent = t("error", {reason: e.message});
    }
  }

  // An option's words from the catalogue (opt.GAME.KEY, opt.GAME.KEY.CHOICE); a test keeps
  // the English ones equal to the rules' own documentation, which the API also sends.
  const optionText = (o, choice) => {
    const key = choice === undefined ? `opt.${current.name}.${o.key}` : `opt.${current.name}.${o.key}.${choice}`;
    const text = t(key);
    return text === key ? (choice === undefined ? o.meaning : o.choices[choice]) : text;
  };

  function optionInput(o) {
    const id = `opt-${o.key}`;
    let input;
    if (typeof o.default === "boolean") {
      input = h("input", {type: "checkbox", id});
      input.checked = optionValues[o.key];
      input.addEventListener("change", () => { optionValues[o.key] = input.checked; refreshRules(); });
    } else if (Object.keys(o.choices).length) {
      input = h("select", {id}, Object.keys(o.choices).map((k) => h("option", {value: k, title: optionText(o, k)}, `${k}: ${optionText(o, k)}`)));
      input.value = String(optionValues[o.key]);
      input.addEventListener("change", () => { optionValues[o.key] = input.value; refreshRules(); });
    } else if (typeof o.default === "number") {
      input = h("input", {type: "number", id, min: o.minimum, max: o.maximum, value: optionValues[o.key], inputmode: "numeric"});
      input.addEventListener("change", () => { optionValues[o.key] = Number(input.value); refreshRules(); });
    } else {
      input = h("input", {id, value: String(optionValues[o.key])});
      input.addEventListener("change", () => { optionValues[o.key] = input.value; refreshRules(); });
    }
    return h("div", {class: "option"}, h("label", {for: id}, h("strong", {}, o.key), " — ", optionText(o)), input);
  }

  async function choosePreset() {
    const entry = await api(`/api/rules?rules=${encodeURIComponent(presetSelect.value)}`);
    presetValues = Object.fromEntries(entry.options.map((o) => [o.key, o.value]));
    optionValues = {...presetValues};
    clear(options, current.options.map(optionInput));
    ruleString.textContent = entry.rules;
  }

  function seatRow(i) {
    if (i === 0) return h("li", {}, t("lobby.you"));
    const select = h("select", {"aria-label": t("lobby.seat", {n: i + 1}), class: "seat-kind"},
      h("option", {value: ""}, t("lobby.person")),
      current.bots.map((b) => h("option", {value: b.name, title: botText(current.name, b)}, t("lobby.bot", {name: b.name}))));
    select.value = i === 1 ? "" : (current.bots.find((b) => b.name === "honest") || current.bots[0] || {name: ""}).name;
    const about = h("small", {class: "about"});
    const describe = () => {
      const bot = current.bots.find((b) => b.name === select.value);
      about.textContent = bot ? ` ${botText(current.name, bot)}` : "";
    };
    select.addEventListener("change", describe);
    describe();
    return h("li", {}, select, about);
  }

  function chooseSeats() {
    clear(seatList, Array.from({length: Number(seatCount.value)}, (_, i) => seatRow(i)));
  }

  async function chooseGame() {
    current = game();
    clear(presetSelect, current.presets.map((p) => h("option", {value: p.name, title: presetText(current.name, p)}, `${p.name} — ${presetText(current.name, p)}`)));
    const [low, high] = current.players;
    clear(seatCount, Array.from({length: Math.min(high, 8) - low + 1}, (_, k) => h("option", {value: low + k}, low + k)));
    seatCount.value = String(Math.min(Math.max(low, 4), high));
    chooseSeats();
    await choosePreset();
  }

  gameSelect.addEventListener("change", chooseGame);
  presetSelect.addEventListener("change", choosePreset);
  seatCount.addEventListener("change", chooseSeats);

  async function create(event) {
    event.preventDefault();
    const name = nameInput.value.trim();
    if (!name) { errorLine.textContent = t("lobby.needName"); nameInput.focus(); return; }
    keepName(name);
    const seats = [{kind: "human"}, ...[...seatList.querySelectorAll("select")].map((s) =>
      (s.value ? {kind: "bot", bot: s.value} : {kind: "human"}))];
    try {
      const made = await api("/api/tables", {
        rules: ruleString.textContent || ruleText(), seats, name,
        limit: limitSelect.value ? Number(limitSelect.value) : null,
        dice: fairBox.checked ? "fair" : "system",
        listed: listedBox.checked,
      });
      keepToken(made.id, made.token);
      keepHost(made.id, made.host);
      location.assign(`/t/${made.id}`);
    } catch (e) {
      errorLine.textContent = t("error", {reason: e.message});
    }
  }

  const tablesList = h("ul", {class: "tables", id: "tables"});
  const pager = h("div", {class: "buttons pager", id: "pager"});
  const PAGE = 20;
  let offset = 0;
  const finishedList = h("ul", {class: "tables", id: "finished"});
  const field = (label, id, input) => h("div", {class: "field"}, h("label", {for: id}, label), input);

  clear(root,
    h("h1", {}, t("lobby.title")),
    h("p", {}, t("lobby.intro")),
    field(t("lobby.name"), "name", nameInput),
    h("form", {class: "create", onsubmit: create},
      h("h2", {}, t("lobby.create")),
      field(t("lobby.game"), "game", gameSelect),
      field(t("lobby.preset"), "preset", presetSelect),
      h("details", {}, h("summary", {}, t("lobby.houseRules")), options),
      h("p", {class: "rule-string"}, t("lobby.ruleString"), ": ", ruleString),
      field(t("lobby.seats"), "seat-count", seatCount),
      seatList,
      field(t("lobby.limit"), "limit", limitSelect),
      h("div", {class: "option"}, h("label", {for: "fair"}, h("strong", {}, t("lobby.fair")), " — ", t("lobby.fairAbout")), fairBox),
      h("div", {class: "option"}, h("label", {for: "listed"}, h("strong", {}, t("lobby.listed")), " — ", t("lobby.listedAbout")), listedBox),
      errorLine,
      h("button", {type: "submit", class: "primary", id: "create"}, t("lobby.createButton"))),
    h("section", {}, h("h2", {}, t("lobby.open")), tablesList, pager),
    h("section", {}, h("h2", {}, t("lobby.finished")), finishedList));

  await chooseGame();

  async function refreshTables() {
    let listing;
    try { listing = await api(`/api/tables?offset=${offset}&limit=${PAGE}`); } catch { return; }
    if (offset > 0 && offset >= listing.total) {  // the last page emptied meanwhile
      offset = Math.max(0, Math.floor((listing.total - 1) / PAGE) * PAGE);
      return refreshTables();
    }
    clear(tablesList, listing.tables.length ? listing.tables.map((tb) => h("li", {},
      h("span", {}, `${gameTitle(tb.game)} · ${tb.rules} · ${t(`status.${tb.status}`)} · `),
      h("span", {class: "names"}, tb.seats.map((s) => s.name || t("table.free")).join(", ")), " ",
      h("a", {href: `/t/${tb.id}`, class: "button"}, tb.status === "open" ? t("lobby.join") : t("lobby.watch"))))
      : h("li", {class: "none"}, t("lobby.none")));
    const turn = (to) => () => { offset = to; refreshTables(); };
    clear(pager, listing.total > PAGE ? [
      h("button", {type: "button", id: "tables-newer", disabled: offset === 0, onclick: turn(Math.max(0, offset - PAGE))}, t("lobby.newer")),
      h("span", {}, t("lobby.page", {from: offset + 1, to: Math.min(offset + PAGE, listing.total), total: listing.total})),
      h("button", {type: "button", id: "tables-older", disabled: offset + PAGE >= listing.total, onclick: turn(offset + PAGE)}, t("lobby.older")),
    ] : []);
    clear(finishedList, listing.finished.length ? listing.finished.map((g) => h("li", {},
      h("span", {}, `${gameTitle(g.game)} · ${g.rules} · `),
      h("span", {class: "names"}, g.names.join(", ")), " · ",
      h("span", {}, t("lobby.won", {names: g.winners.map((w) => g.names[w]).join(", ")})), " ",
      h("a", {href: `/replay/${g.id}`, class: "button"}, t("lobby.replay"))))
      : h("li", {class: "none"}, t("lobby.noneFinished")));
  }
  await refreshTables();
  setInterval(refreshTables, 3000);
}

start();
