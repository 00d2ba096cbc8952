// The table page: seats, your dice, the round's calls, whose turn with a countdown, your
// legal moves, odds on request, the reveal, the result and the rematch. Everything shown
// comes from the server's messages for this seat; nothing secret ever reaches the page.
import { percent, t, tElse } from "./i18n.js";
import { api, clear, h, keepToken, tokenFor } from "./dom.js";
import { PICKED, actionLabel, bidText, dieFaces, eventText, gameTitle, miaValue, revealedHands } from "./describe.js";
import { checkFair, newSeed } from "./fair.js";

const REVEALS = new Set(["mia.revealed", "mia.mia_attempt", "liars-dice.revealed", "common-hand.revealed"]);

export function showTable(root, tableId) {
  const s = {
    info: null, names: [], view: null, promptState: null, log: [], reveal: null,
    turn: null, deadline: null, hint: null, notice: "", noticeState: null, socket: null, wantRematch: false,
    closedOnPurpose: false, actionsKey: "", seedSent: false, commitment: null, verdict: null,
  };
  const parts = {
    status: h("p", {class: "status", role: "status", "aria-live": "polite"}),
    share: h("section", {class: "share"}),
    fair: h("section", {class: "fair", id: "fair"}),
    seats: h("ul", {class: "players", id: "players"}),
    turn: h("p", {class: "turn", id: "turn"}),
    dice: h("section", {class: "my-dice", id: "my-dice"}),
    calls: h("section", {class: "calls", id: "calls"}),
    actions: h("section", {class: "actions", id: "actions", "aria-label": t("table.moves")}),
    hint: h("section", {class: "hint", id: "hint"}),
    reveal: h("section", {class: "reveal", id: "reveal", "aria-live": "polite"}),
    result: h("section", {class: "result", id: "result"}),
    log: h("ol", {class: "log", id: "log", "aria-live": "polite"}),
  };
  clear(root,
    h("h1", {id: "table-title"}, t("loading")),
    parts.status, parts.share, parts.fair, parts.seats, parts.result, parts.turn,
    h("div", {class: "play"}, parts.dice, parts.actions),
    parts.hint, parts.reveal, parts.calls,
    h("details", {class: "log-box", open: true}, h("summary", {}, t("table.log")), parts.log));

  function send(message) {
    if (s.socket && s.socket.readyState === WebSocket.OPEN) s.socket.send(JSON.stringify(message));
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws/${tableId}`);
    s.socket = socket;
    parts.status.textContent = t("table.connecting");
    socket.addEventListener("open", () => {
      socket.send(JSON.stringify({type: "hello", token: tokenFor(tableId)}));
      parts.status.textContent = "";
    });
    socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
    socket.addEventListener("close", (event) => {
      if (s.closedOnPurpose || event.code === 4404) return;
      parts.status.textContent = t("table.reconnecting");
      setTimeout(connect, 1500);
    });
  }

  function receive(m) {
    switch (m.type) {
      case "table":
        s.info = m;
        if (m.fair) {
          // the commitment as first shown: the check at the end compares the record with it
          if (s.commitment === null) s.commitment = m.fair.commitment;
          giveSeed(m);
        }
        if (m.rematch && s.wantRematch) { goRematch(); return; }
        break;
      case "welcome":
        s.names = m.names; s.rules = m.rules; s.game = m.game; s.view = m.view; s.log = []; s.reveal = null;
        for (const update of m.history) absorb(update);
        s.view = m.view;
        break;
      case "update": absorb(m); s.hint = null; break;
      case "prompt": s.view = m.view; s.promptState = m.state_id; break;
      case "turn":
        // a refusal answers one state: once the table has moved on it is old news
        if (s.notice && m.state_id !== s.noticeState) s.notice = "";
        s.turn = m;
        s.deadline = m.time_left == null ? null : Date.now() + m.time_left * 1000;
        break;
      // the catalogue's words for the code (ws.refused.CODE, ws.error.CODE), else the server's
      case "refused": s.notice = t("table.refused", {reason: tElse(`ws.refused.${m.code}`, m.reason)}); s.noticeState = m.state_id; break;
      case "error":
        s.notice = t("error", {reason: tElse(`ws.error.${m.code}`, m.reason)});
        s.noticeState = s.turn ? s.turn.state_id : null;
        if (m.code === "no_table") s.closedOnPurpose = true;
        break;
      case "hint": s.hint = m; break;
      default: return;
    }
    render();
  }

  function absorb(update) {
    s.view = update.view;
    const lines = [];
    let revealed = false;
    const hands = [];
    for (const event of update.events) {
      const text = eventText(event, {names: s.names, rules: s.rules, game: s.game, viewer: update.recipient ?? null});
      if (text) lines.push(text);
      if (REVEALS.has(event.type)) { revealed = true; hands.push(...revealedHands(event, s.names, s.rules)); }
    }
    for (const text of lines) s.log.push(text);
    if (s.log.length > 300) s.log.splice(0, s.log.length - 300);
    if (revealed) s.reveal = {lines, hands};
  }

  function seatName(seat) {
    return s.names[seat] ?? (s.info && s.info.seats[seat] ? s.info.seats[seat].name : `#${seat + 1}`);
  }

  function render() {
    const info = s.info;
    if (!info) return;
    const title = document.getElementById("table-title");
    title.textContent = `${gameTitle(info.game)} · ${t(`status.${info.status}`)}`;
    document.title = `bluffdice · ${gameTitle(info.game)}`;
    renderShare(info);
    renderFair(info);
    renderSeats(info);
    renderTurn();
    renderDice();
    renderCalls();
    renderActions();
    renderHint();
    renderReveal();
    renderResult(info);
    clear(parts.log, s.log.slice(-60).reverse().map((line) => h("li", {}, line)));
  }

  // Fair dice: this browser's own seed, sent once its seat is taken and before the game
  // starts (the server waits for every person's seed; seeds close when the game starts).
  async function giveSeed(info) {
    const token = tokenFor(tableId);
    if (s.seedSent || !token || info.you === null || info.status !== "open" || info.fair.seed !== null) return;
    s.seedSent = true;
    try {
      await api(`/api/tables/${info.id}/seed`, {token, seed: newSeed()});
    } catch (e) { s.seedSent = false; s.notice = t("error", {reason: e.message}); render(); }
  }

  function renderFair(info) {
    if (!info.fair) { clear(parts.fair); return; }
    const f = info.fair;
    const waiting = f.waiting.map((seat) => seatName(seat));
    clear(parts.fair, h("h2", {}, t("fair.title")),
      h("p", {}, t("fair.commitment"), " ", h("code", {id: "commitment", class: "hash"}, s.commitment || f.commitment)),
      info.you !== null ? h("p", {}, f.seed !== null ? t("fair.yourSeed", {seed: f.seed}) : t("fair.noSeed")) : null,
      info.status === "open" && waiting.length ? h("p", {}, t("fair.waiting", {names: waiting.join(", ")})) : null,
      info.status !== "finished" ? h("p", {class: "hint-line"}, t("fair.about")) : null);
  }

  function renderVerify(info) {
    if (!info.fair || info.status !== "finished") return null;
    const url = `${location.origin}/api/tables/${info.id}/fair`;
    if (s.verdict === null) {
      s.verdict = {text: t("fair.checking"), ok: null};
      verifyHere(info, url);
    }
    return h("section", {class: "verify", id: "verify"}, h("h2", {}, t("fair.verifyTitle")),
      h("p", {id: "fair-verdict", class: s.verdict.ok === true ? "good" : s.verdict.ok === false ? "error" : "", role: "status"}, s.verdict.text),
      h("p", {}, h("a", {href: url, id: "fair-export", download: `${info.id}.json`}, t("fair.export"))),
      h("p", {}, t("fair.command"), " ", h("code", {}, `bluffdice verify ${url}`)),
      info.fair.digest ? h("p", {class: "hint-line"}, t("fair.digest", {digest: info.fair.digest})) : null);
  }

  async function verifyHere(info, url) {
    let text; let ok;
    try {
      if (!globalThis.crypto || !crypto.subtle) throw new Error(t("fair.noCrypto"));
      const fair = await api(url);
      const seed = info.you !== null ? info.fair.seed : null;
      const result = await checkFair(fair, s.commitment, info.you, seed);
      ok = result.ok;
      text = ok ? t("fair.verified", {n: result.rolls}) : t("fair.failed", {problem: t(result.problem.key, result.problem.params)});
    } catch (e) { ok = false; text = t("fair.failed", {problem: e.message}); }
    s.verdict = {text, ok};
    render();
  }

  function renderShare(info) {
    if (info.status !== "open") { clear(parts.share); return; }
    const link = `${location.origin}/t/${info.id}`;
    const copy = h("button", {type: "button", onclick: async () => {
      try { await navigator.clipboard.writeText(link); copy.textContent = t("table.copied"); } catch { /* no clipboard */ }
    }}, t("table.copy"));
    const items = [h("p", {}, t("table.share")), h("p", {}, h("code", {id: "share-link"}, link), " ", copy),
      h("p", {}, t("table.rules", {rules: info.rules})), h("p", {}, t("table.waiting"))];
    if (info.you === null && info.seats.some((seat) => !seat.taken)) {
      const name = h("input", {id: "join-name", maxlength: 24, value: localStorage.getItem("bluffdice.name") || ""});
      const join = async (event) => {
        event.preventDefault();
        if (!name.value.trim()) { s.notice = t("lobby.needName"); render(); return; }
        localStorage.setItem("bluffdice.name", name.value.trim());
        try {
          const seat = await api(`/api/tables/${info.id}/join`, {name: name.value});
          keepToken(info.id, seat.token);
          s.socket.close();
        } catch (e) { s.notice = t("error", {reason: e.message}); render(); }
      };
      items.push(h("form", {class: "join", onsubmit: join},
        h("label", {for: "join-name"}, t("table.joinAs")), name,
        h("button", {type: "submit", class: "primary", id: "join"}, t("table.joinButton"))));
    }
    clear(parts.share, items);
  }

  function meter(seat) {
    const v = s.view;
    if (!v) return "";
    if (v.game === "mia") {
      if (v.rules.includes("mode=drinking")) return t("table.drinks", {n: v.drinks[seat]});
      if (v.rules.includes("mode=score")) return t("table.score", {n: v.score[seat]});
      return t("table.lives", {n: v.lives[seat]});
    }
    if (v.dice) return t("table.dice", {n: v.dice[seat]});
    return "";
  }

  function renderSeats(info) {
    const v = s.view;
    clear(parts.seats, info.seats.map((seat, i) => {
      const out = v && v.out && v.out[i];
      const turn = s.turn && s.turn.seat === i && info.status === "running";
      return h("li", {class: ["player", turn ? "to-move" : "", out ? "out" : "", i === info.you ? "me" : ""].join(" ")},
        h("span", {class: "name"}, seat.taken ? (s.names[i] ?? seat.name ?? "") : t("table.free")),
        i === info.you ? h("span", {class: "tag"}, t("table.you")) : null,
        seat.kind === "bot" ? h("span", {class: "tag"}, t("table.bot")) : null,
        seat.kind === "human" && seat.taken && !seat.online ? h("span", {class: "tag off"}, t("table.offline")) : null,
        h("span", {class: "meter"}, out ? t("table.out") : meter(i)));
    }));
    if (info.you === null && info.status !== "open") parts.status.textContent = t("table.spectating");
  }

  function renderTurn() {
    const info = s.info;
    if (!s.turn || info.status !== "running") { parts.turn.textContent = ""; return; }
    const who = s.turn.seat === info.you ? t("table.yourTurn") : t("table.turn", {name: seatName(s.turn.seat)});
    const left = s.deadline == null ? "" : ` · ${t("table.timeLeft", {n: Math.max(0, Math.ceil((s.deadline - Date.now()) / 1000))})}`;
    parts.turn.textContent = who + left;
  }

  function renderDice() {
    const v = s.view;
    if (!v || s.info.you === null || s.info.status === "finished") { clear(parts.dice); return; }
    let shown;
    if (v.game === "mia") {
      if (v.my_dice != null) shown = h("span", {class: "dice"}, dieFaces([Math.floor(v.my_dice / 10), v.my_dice % 10]), " ", h("small", {}, miaValue(v.my_dice, s.rules)));
      else if (v.phase === "hold" && v.turn === v.player) shown = t("table.notLooked");
      else shown = t("table.noDice");
    } else if (v.my_dice) {
      shown = h("span", {class: "dice"}, dieFaces(v.my_dice, v.game));
    } else {
      shown = t("table.noDice");
    }
    clear(parts.dice, h("h2", {}, t("table.yourDice")), h("p", {}, shown));
  }

  function renderCalls() {
    const v = s.view;
    if (!v) { clear(parts.calls); return; }
    const calls = v.game === "mia"
      ? (v.calls || []).map((c) => `${seatName(c.player)}: ${c.kind === "pass" ? t("act.pass.value", {value: miaValue(c.value, s.rules)}) : miaValue(c.value, s.rules)}`)
      : (v.bids || []).map((b) => `${seatName(b.player)}: ${bidText(b.quantity, b.face)}`);
    clear(parts.calls, h("h2", {}, `${t("table.history")} (${t("table.round", {n: v.round})})`),
      h("p", {class: "call-list"}, calls.length ? calls.join(" → ") : t("table.nothingYet")));
  }

  function renderActions() {
    const v = s.view;
    const legal = v && s.info.status === "running" && v.player !== null && v.turn === v.player ? v.legal_actions : [];
    const key = `${v ? v.state_id : ""}|${JSON.stringify(legal)}|${s.notice}|${s.info.status}`;
    if (key === s.actionsKey) return;
    s.actionsKey = key;
    if (s.info.status === "finished") { clear(parts.actions); return; }
    const stateId = v ? v.state_id : 0;
    const move = (action) => { s.notice = ""; send({type: "move", state_id: stateId, action}); };
    const items = [h("h2", {}, t("table.moves"))];
    if (!legal.length) {
      items.push(h("p", {}, t("table.wait")));
    } else {
      const groups = new Map();
      for (const action of legal) {
        if (!groups.has(action.type)) groups.set(action.type, []);
        groups.get(action.type).push(action);
      }
      const row = h("div", {class: "buttons"});
      for (const [type, actions] of groups) {
        if (PICKED[type]) {
          const id = `pick-${type.replace(/\W/g, "-")}`;
          const select = h("select", {id, "aria-label": t(PICKED[type])},
            actions.map((a, i) => h("option", {value: i}, actionLabel(a, v))));
          row.append(h("span", {class: "picker"}, select,
            h("button", {type: "button", class: "primary", "data-action": type, onclick: () => move(actions[Number(select.value)])}, t(PICKED[type]))));
        } else {
          row.append(h("button", {type: "button", "data-action": type, onclick: () => move(actions[0])}, actionLabel(actions[0], v)));
        }
      }
      items.push(row);
      items.push(h("button", {type: "button", class: "link", id: "hint-button",
        onclick: () => { if (s.hint) { s.hint = null; render(); } else send({type: "hint"}); }}, t("table.hint")));
    }
    if (s.notice) items.push(h("p", {class: "error", role: "alert"}, s.notice));
    clear(parts.actions, items);
    const first = parts.actions.querySelector("button.primary, .buttons button");
    if (first && legal.length && !parts.actions.contains(document.activeElement)) first.focus({preventScroll: true});
  }

  function renderHint() {
    const hint = s.hint;
    if (!hint) { clear(parts.hint); return; }
    const lines = [];
    if (hint.game === "mia") {
      if (hint.beat != null) lines.push(t("hint.beat", {value: miaValue(hint.announced), p: percent(hint.beat)}));
      for (const row of hint.rows) lines.push(t("hint.valueBeat", {value: miaValue(row.value), p: percent(row.beat)}));
    } else if (hint.game === "liars-dice") {
      if (hint.holds != null) lines.push(t("hint.holds", {bid: bidText(hint.bid.quantity, hint.bid.face), p: percent(hint.holds)}));
      for (const row of hint.rows) lines.push(t("hint.bidHolds", {bid: bidText(row.quantity, row.face), p: percent(row.holds)}));
    }
    if (!lines.length) lines.push(t("hint.none"));
    clear(parts.hint, h("h2", {}, t("table.hint")), h("ul", {}, lines.map((l) => h("li", {}, l))));
  }

  function renderReveal() {
    if (!s.reveal) { clear(parts.reveal); return; }
    clear(parts.reveal, h("h2", {}, t("table.reveal")),
      s.reveal.hands.length ? h("ul", {class: "hands"}, s.reveal.hands.map(([name, faces]) =>
        h("li", {}, h("span", {class: "name"}, name), ": ", h("span", {class: "dice"}, faces)))) : null,
      h("ul", {}, s.reveal.lines.map((l) => h("li", {}, l))));
  }

  function renderResult(info) {
    const v = s.view;
    if (info.status !== "finished" || !v || !v.result) { clear(parts.result); return; }
    const standings = v.result.standings || [];
    const buttons = [h("a", {href: `/replay/${info.id}`, class: "button", id: "replay-link"}, t("table.replay")),
      h("a", {href: "/", class: "button"}, t("table.lobby"))];
    if (info.rematch) buttons.unshift(h("button", {type: "button", class: "primary", id: "to-rematch", onclick: goRematch}, t("table.toRematch")));
    else if (info.you !== null) buttons.unshift(h("button", {type: "button", class: "primary", id: "rematch",
      onclick: () => { s.wantRematch = true; send({type: "rematch"}); }}, t("table.rematch")));
    clear(parts.result, h("h2", {}, t("table.result")),
      h("ol", {class: "standings"}, standings.map((seat) => h("li", {}, seatName(seat)))),
      h("div", {class: "buttons"}, buttons), renderVerify(info));
  }

  function goRematch() {
    const token = tokenFor(tableId);
    if (token) keepToken(s.info.rematch, token);
    s.closedOnPurpose = true;
    location.assign(`/t/${s.info.rematch}`);
  }

  setInterval(renderTurn, 250);
  connect();
}
