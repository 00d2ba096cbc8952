// The live scoreboard: long-polls /api/scoreboard?after=VERSION and redraws.
// The server answers when the board changed (once per batch of rounds) or after a
// while without change; on an error the page waits a little and asks again. Its words
// come from the page's message catalogue (board.*), in the browser's language.
import { language, loadLanguage, t, tElse } from "./i18n.js";

const $ = (id) => document.getElementById(id);

function cell(row, text, cls) {
  const td = row.insertCell();
  td.textContent = text;
  if (cls) td.className = cls;
  return td;
}

function pct(x) {
  return (100 * x).toFixed(1);
}

function drawStandings(lines) {
  const body = $("standings").tBodies[0];
  body.replaceChildren();
  $("empty").hidden = lines.length > 0;
  if (!lines.length) return;
  // One scale for every interval bar, so the bars compare across rows.
  const low = Math.min(...lines.map((l) => l.low));
  const high = Math.max(...lines.map((l) => l.high));
  const span = Math.max(high - low, 1e-9);
  const at = (x) => `${(100 * (x - low)) / span}%`;
  lines.forEach((line, i) => {
    const row = body.insertRow();
    cell(row, String(i + 1));
    cell(row, line.name, "name");
    cell(row, String(line.score));
    cell(row, String(line.rounds));
    const lost = cell(row, `${pct(line.loss_rate)} `);
    const ci = document.createElement("span");
    ci.className = "ci";
    ci.textContent = `${pct(line.loss_low)}–${pct(line.loss_high)}`;
    lost.append(ci);
    const rating = cell(row, "", "rating");
    const label = document.createElement("div");
    label.textContent = `${line.mu.toFixed(1)} `;
    const range = document.createElement("span");
    range.className = "ci";
    range.textContent = `${line.low.toFixed(1)}–${line.high.toFixed(1)}`;
    label.append(range);
    const bar = document.createElement("div");
    bar.className = "interval";
    bar.setAttribute("aria-hidden", "true");
    const band = document.createElement("span");
    band.style.left = at(line.low);
    band.style.width = `${(100 * (line.high - line.low)) / span}%`;
    const mu = document.createElement("b");
    mu.style.left = at(line.mu);
    bar.append(band, mu);
    rating.append(label, bar);
  });
}

function drawRounds(rounds) {
  const list = $("rounds");
  list.replaceChildren();
  for (const r of rounds.slice(0, 8)) {
    const item = document.createElement("li");
    const lost = new Set(r.losers);
    item.append(`#${r.number} `);
    r.order.forEach((name, i) => {
      if (i) item.append(", ");
      const who = document.createElement("span");
      who.textContent = name;
      if (lost.has(name)) who.className = "lost";
      item.append(who);
    });
    const why = document.createElement("span");
    why.className = "reason";
    why.textContent = ` · ${tElse(`board.reason.${r.reason}`, r.reason)}`;
    item.append(why);
    list.append(item);
  }
}

function draw(board) {
  $("title").textContent = board.contest ? t("board.titleNumber", {contest: board.contest}) : t("board.title");
  document.title = $("title").textContent;
  // whether names are safe from takeover: the organiser's --require-secret, said to all
  $("where").textContent = `${t("board.where", {address: board.address})} · ${t(board.secret ? "board.secret" : "board.noSecret")}`;
  $("pace").textContent = t("board.pace", {
    rounds: board.rounds.toLocaleString(document.documentElement.lang),
    speed: board.rounds_per_second,
  });
  drawStandings(board.standings);
  drawRounds(board.last_rounds);
  const fair = $("fair");
  fair.hidden = !board.fair;
  if (board.fair && board.commitment) {
    const c = board.commitment;
    const contest = board.contest ? `${board.contest}:` : "";
    fair.textContent = t("board.fair", {round: c.round, hex: c.hex, command: `bluffdice verify maexchen:${contest}ROUND`});
  }
}

async function follow() {
  let version = -1;
  for (;;) {
    try {
      const url = version < 0 ? "/api/scoreboard" : `/api/scoreboard?after=${version}`;
      const answer = await fetch(url, { cache: "no-store" });
      if (!answer.ok) throw new Error(`HTTP ${answer.status}`);
      const board = await answer.json();
      if (board.version !== version) {
        version = board.version;
        draw(board);
      }
      $("status").textContent = t("board.live", {time: new Date().toLocaleTimeString(document.documentElement.lang)});
    } catch (error) {
      $("status").textContent = t("board.reconnecting", {reason: error.message});
      await new Promise((done) => setTimeout(done, 2000));
    }
  }
}

async function start() {
  await loadLanguage(language());
  for (const el of document.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t);
  follow();
}

start();
