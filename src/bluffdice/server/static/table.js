// The table page: seats, your dice, the round's calls, whose turn with a countdown, your
// legal moves, odds on request, the reveal, the result and the rematch. Everything shown
// comes from the server's messages for this seat; nothing secret ever reaches the page.
import { percent, t, tElse } from "./i18n.js";
import { api, clear, forgetToken, h, hostFor, keepHost, keepToken, tokenFor } from "./dom.js";
import { PICKED, actionLabel, bidText, dieFaces, eventText, gameTitle, miaValue, revealedHands } from "./describe.js";
import { checkFair, newSeed } from "./fair.js";

const REVEALS = new Set(["mia.revealed", "mia.mia_attempt", "liars-dice.revealed", "common-hand.revealed"]);

export function showTable(root, tableId) {
  const s = {
    info: null, names: [], view: null, promptState: null, log: [], reveal: null,
    turn: null, deadline: null, hint: null, notice: "", noticeState: null, socket: null, wantRematch: false,
    closedOnPurpose: false, actionsKey: "", seedSent: false, commitment: null, verdict: null,
    tableNotice: "", leaving: false, seatKey: "", handKey: "", joinKey: "", shareKey: "", bots: null, handBot: {},
  };
  const parts = {
    status: h("p", {class: "status", role: "status", "aria-live": "polite"}),
    share: h("section", {class: "share"}),
    fair: h("section", {class: "fair", id: "fair"}),
    seats: h("ul", {class: "players", id: "players"}),
    mine: h("div", {class: "buttons mine", id: "mine"}),
    hand: h("section", {class: "hand-over", id: "hand-over"}),
    join: h("section", {class: "join-box", id: "join-box"}),
    notice: h("p", {class: "error", id: "notice", role: "alert"}),
    turn: h("p", {class: "turn", id: "turn"}),
    dice: h("section", {class: "my-dice", id: "my-dice"}),
    calls: h("section", {class: "calls", id: "calls"}),
    actions: h("section", {class: "actions", id: "actions", "aria-label": t("table.moves")}),
    hint: h("section", {class: "hint", id: "hint"}),
    reveal: h("section", {class: "reveal", id: "reveal", "aria-live": "polite"}),
    result: h("section", {class: "result", id: "result"}),
    // newest first, unnumbered: a numbered list read top down would count backwards
    log: h("ul", {class: "log", id: "log", "aria-live": "polite"}),
  };
  clear(root,
    h("h1", {id: "table-title"}, t("loading")),
    parts.status, parts.share, parts.join, parts.fair, parts.seats, parts.mine, parts.hand, parts.notice,
    parts.result, parts.turn,
    h("div", {class: "play"}, parts.dice, parts.actions),
    parts.calls, parts.hint, parts.reveal,
    h("details", {class: "log-box", open: true}, h("summary", {}, t("table.log")), parts.log));
  // the game's bots, for the creator's "hand to a bot"
  api("/api/games").then(({games}) => { s.bots = games; render(); }, () => { s.bots = []; });

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
    // a frame holds everything one turn of the server sent us: absorb it all, draw once
    socket.addEventListener("message", (event) => {
      let draw = false;
      for (const m of JSON.parse(event.data)) draw = receive(m) || draw;
      if (draw) render();
    });
    socket.addEventListener("close", (event) => {
      if (s.closedOnPurpose || event.code === 4404) return;
      parts.status.textContent = t("table.reconnecting");
      setTimeout(connect, 1500);
    });
  }

  // one message into the state; true if the page must be drawn again
  function receive(m) {
    switch (m.type) {
      case "table":
        s.info = m;
        if (m.fair) {
          // the commitment as first shown: the check at the end compares the record with it
          if (s.commitment === null) s.commitment = m.fair.commitment;
          giveSeed(m);
        }
        if (m.rematch && s.wantRematch) { goRematch(); return false; }
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
      default: return false;
    }
    return true;
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
    renderJoin(info);
    renderFair(info);
    renderSeats(info);
    renderMine(info);
    renderHandOver(info);
    parts.notice.textContent = s.tableNotice;
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
    const key = info.status === "open" ? info.rules : "";
    if (key === s.shareKey) return;  // drawn once, so "Copied" stays
    s.shareKey = key;
    if (!key) { clear(parts.share); return; }
    const link = `${location.origin}/t/${info.id}`;
    const code = h("code", {id: "share-link"}, link);
    const said = h("span", {id: "copy-said", role: "status"});
    const copy = h("button", {type: "button", id: "copy-link", onclick: () => copyLink(link, code, said)}, t("table.copy"));
    clear(parts.share, h("p", {}, t("table.share")), h("p", {}, code, " ", copy, " ", said),
      h("p", {}, t("table.rules", {rules: info.rules})), h("p", {}, t("table.waiting")));
  }

  // The clipboard API exists only in a secure context (https, localhost): on a plain
  // http LAN address the page selects the link and asks for the older copy command,
  // and where even that is refused the link stays selected for the reader to copy.
  async function copyLink(link, code, said) {
    if (navigator.clipboard && window.isSecureContext) {
      try { await navigator.clipboard.writeText(link); said.textContent = t("table.copied"); return; } catch { /* below */ }
    }
    const range = document.createRange();
    range.selectNodeContents(code);
    const selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    let copied = false;
    try { copied = document.execCommand("copy"); } catch { copied = false; }
    said.textContent = copied ? t("table.copied") : t("table.copyByHand");
  }

  // A free seat may be taken before the game starts, and in a game in play once the
  // creator has freed a seat for a new player.
  function renderJoin(info) {
    const open = info.you === null && ["open", "running"].includes(info.status) && info.seats.some((seat) => !seat.taken);
    const key = open ? `${info.status}` : "";
    if (key === s.joinKey) return;
    s.joinKey = key;
    if (!open) { clear(parts.join); return; }
    const items = [];
    const name = h("input", {id: "join-name", maxlength: 24, value: localStorage.getItem("bluffdice.name") || ""});
    const join = async (event) => {
      event.preventDefault();
      if (!name.value.trim()) { s.tableNotice = t("lobby.needName"); render(); return; }
      localStorage.setItem("bluffdice.name", name.value.trim());
      try {
        const seat = await api(`/api/tables/${info.id}/join`, {name: name.value});
        keepToken(info.id, seat.token);
        s.tableNotice = "";
        s.socket.close();
      } catch (e) { s.tableNotice = t("error", {reason: e.message}); render(); }
    };
    if (info.status === "running") items.push(h("p", {}, t("table.seatFreed")));
    items.push(h("form", {class: "join", onsubmit: join},
      h("label", {for: "join-name"}, t("table.joinAs")), name,
      h("button", {type: "submit", class: "primary", id: "join"}, t("table.joinButton"))));
    clear(parts.join, items);
  }

  // A seated player may leave (asked once more first): the seat's token is forgotten
  // and the page watches on.
  function renderMine(info) {
    const seated = info.you !== null && ["open", "running"].includes(info.status);
    const key = seated ? `${info.status}|${s.leaving}` : "";
    if (key === s.seatKey) return;
    s.seatKey = key;
    if (!seated) { clear(parts.mine); return; }
    if (!s.leaving) {
      clear(parts.mine, h("button", {type: "button", id: "leave", onclick: () => { s.leaving = true; render(); }}, t("table.leave")));
      return;
    }
    const leave = async () => {
      try {
        await api(`/api/tables/${info.id}/leave`, {token: tokenFor(tableId)});
        forgetToken(tableId);
        s.tableNotice = "";
        s.seedSent = false;  // the seat's seed went with it: a seat taken again gives a new one
      } catch (e) { s.tableNotice = t("error", {reason: e.message}); }
      s.leaving = false;
      render();
    };
    clear(parts.mine, h("span", {}, info.status === "running" ? t("table.leaveRunning") : t("table.leaveOpen")),
      h("button", {type: "button", class: "primary", id: "leave-yes", onclick: leave}, t("table.leaveYes")),
      h("button", {type: "button", id: "leave-no", onclick: () => { s.leaving = false; render(); }}, t("table.leaveNo")));
  }

  // The creator's tools for a person's seat whose player left or is offline: hand it to
  // a bot, or free it for a new player. The server decides whether the player has been
  // away long enough; its refusal is the notice line.
  function renderHandOver(info) {
    const host = hostFor(tableId);
    const game = s.bots && s.bots.find((g) => g.name === info.game);
    const seats = host && ["open", "running"].includes(info.status)
      ? info.seats.map((seat, i) => [seat, i]).filter(([seat, i]) =>
        seat.kind === "human" && seat.taken && i !== info.you && (seat.left || !seat.online))
      : [];
    const key = JSON.stringify([seats.map(([seat, i]) => [i, seat.left, seat.name]), Boolean(game)]);
    if (key === s.handKey) return;
    s.handKey = key;
    if (!seats.length) { clear(parts.hand); return; }
    const bots = game ? game.bots : [];
    const hand = async (seat, to) => {
      const body = {host, seat, to};
      if (to === "bot") body.bot = s.handBot[seat] || (bots[0] && bots[0].name);
      try {
        await api(`/api/tables/${info.id}/hand`, body);
        s.tableNotice = "";
      } catch (e) { s.tableNotice = t("error", {reason: e.message}); }
      render();
    };
    clear(parts.hand, h("h2", {}, t("table.handTitle")), h("ul", {}, seats.map(([seat, i]) => {
      const select = h("select", {class: "hand-bot", "aria-label": t("table.handBot")},
        bots.map((b) => h("option", {value: b.name}, t("lobby.bot", {name: b.name}))));
      if (s.handBot[i]) select.value = s.handBot[i];
      select.addEventListener("change", () => { s.handBot[i] = select.value; });
      return h("li", {"data-seat": i},
        h("span", {class: "name"}, seatName(i)), " ",
        h("span", {class: "tag off"}, seat.left ? t("table.left") : t("table.offline")), " ",
        select,
        h("button", {type: "button", class: "hand-to-bot", onclick: () => hand(i, "bot")}, t("table.handToBot")),
        h("button", {type: "button", class: "hand-to-player", onclick: () => hand(i, "player")}, t("table.handToPlayer")));
    })));
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

  // Out of the game: Mia's and poker dice's `out`; in Liar's Dice, no dice left.
  function isOut(seat) {
    const v = s.view;
    if (!v) return false;
    if (v.out) return Boolean(v.out[seat]);
    return v.game === "liars-dice" && Array.isArray(v.dice) && v.dice[seat] === 0;
  }

  function renderSeats(info) {
    const v = s.view;
    clear(parts.seats, info.seats.map((seat, i) => {
      const out = isOut(i);
      const turn = s.turn && s.turn.seat === i && info.status === "running";
      return h("li", {class: ["player", turn ? "to-move" : "", out ? "out" : "", i === info.you ? "me" : ""].join(" ")},
        h("span", {class: "name"}, seat.taken ? (s.names[i] ?? seat.name ?? "") : t("table.free")),
        i === info.you ? h("span", {class: "tag"}, t("table.you")) : null,
        seat.kind === "bot" ? h("span", {class: "tag"}, t("table.bot")) : null,
        seat.left ? h("span", {class: "tag off"}, t("table.left"))
          : seat.kind === "human" && seat.taken && !seat.online ? h("span", {class: "tag off"}, t("table.offline")) : null,
        h("span", {class: "meter"}, out ? t("table.out") : meter(i)));
    }));
    const watching = t("table.spectating");
    if (info.you === null && info.status !== "open") parts.status.textContent = watching;
    else if (parts.status.textContent === watching) parts.status.textContent = "";  // seated again
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
    const key = `${v ? v.state_id : ""}|${JSON.stringify(legal)}|${s.notice}|${s.info.status}|${s.info.you}`;
    if (key === s.actionsKey) return;
    s.actionsKey = key;
    // a spectator has no moves: no panel at all, rather than one headed "Your move"
    if (s.info.status === "finished" || s.info.you === null) { clear(parts.actions); return; }
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
          select.value = String(firstPick(actions, v));
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
    parts.actions.dataset.state = String(stateId);  // which state these moves answer
    const first = parts.actions.querySelector("button.primary, .buttons button");
    if (first && legal.length && !parts.actions.contains(document.activeElement)) first.focus({preventScroll: true});
  }

  // The picker's first choice: in Mia your own roll where announcing it is legal (one
  // careless click must not under-announce a Mia), else the lowest legal value.
  function firstPick(actions, v) {
    const own = actions.findIndex((a) => a.type === "mia.announce" && v && a.value === v.my_dice);
    return own >= 0 ? own : 0;
  }

  function renderHint() {
    const hint = s.hint;
    if (!hint) { clear(parts.hint); return; }
    // the headline (the standing call's chance) stays in view; the rows for each value
    // scroll in a box of bounded height, so the round stays on screen
    const head = [];
    const rows = [];
    if (hint.game === "mia") {
      if (hint.beat != null) head.push(t("hint.beat", {value: miaValue(hint.announced), p: percent(hint.beat)}));
      for (const row of hint.rows) rows.push(t("hint.valueBeat", {value: miaValue(row.value), p: percent(row.beat)}));
    } else if (hint.game === "liars-dice") {
      if (hint.holds != null) head.push(t("hint.holds", {bid: bidText(hint.bid.quantity, hint.bid.face), p: percent(hint.holds)}));
      for (const row of hint.rows) rows.push(t("hint.bidHolds", {bid: bidText(row.quantity, row.face), p: percent(row.holds)}));
    }
    if (!head.length && !rows.length) head.push(t("hint.none"));
    clear(parts.hint, h("h2", {}, t("table.hint")),
      head.map((l) => h("p", {class: "hint-head"}, l)),
      rows.length ? h("ul", {class: "hint-rows", tabindex: 0}, rows.map((l) => h("li", {}, l))) : null);
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
    keepHost(s.info.rematch, hostFor(tableId));  // the rematch keeps its creator
    s.closedOnPurpose = true;
    location.assign(`/t/${s.info.rematch}`);
  }

  setInterval(renderTurn, 250);
  connect();
}
