#!/usr/bin/env node
// A bluffdice bot program for Mia and Liar's Dice in Node.js, no packages needed. It
// speaks the protocol of docs/protocol.md: one JSON message per line on stdin, one JSON
// move per line on stdout.
//
//     bluffdice tournament --game mia --bots "cmd:node examples/bot.js,odds,honest"
"use strict";
const readline = require("readline");

// Mia values from lowest to highest (classic ranking: 31 ... 65, doubles, then Mia 21).
const RANKING = [31, 32, 41, 42, 43, 51, 52, 53, 54, 61, 62, 63, 64, 65, 11, 22, 33, 44, 55, 66, 21];

function chanceToBeat(value) {
  const at = RANKING.indexOf(value);
  const higher = at < 0 ? [] : RANKING.slice(at + 1);
  return higher.reduce((sum, v) => sum + (v % 11 === 0 ? 1 : 2), 0) / 36;
}

function miaMove(view, legal) {
  const kinds = new Map(legal.map((a) => [a.type, a]));
  if (kinds.has("mia.look") && !view.looked) return kinds.get("mia.look");
  const values = legal.filter((a) => a.type === "mia.announce").map((a) => a.value);
  if (values.length > 0) {
    // The truth when it is allowed, else the smallest lie the rules let us tell.
    const value = values.includes(view.my_dice) ? view.my_dice : values[0];
    return { type: "mia.announce", value };
  }
  const claim = view.announced;
  if (claim === 21 && kinds.has("mia.give-up")) return kinds.get("mia.give-up");
  if (claim !== null && kinds.has("mia.challenge") && chanceToBeat(claim) < 0.4) {
    return kinds.get("mia.challenge");
  }
  for (const kind of ["mia.roll", "mia.challenge"]) if (kinds.has(kind)) return kinds.get(kind);
  return legal[0];
}

// How many dice on the table we expect show `face` (wild ones count for it).
function expected(view, face) {
  const mine = view.my_dice || [];
  const wild = view.wild;
  const count = mine.filter((d) => d === face || (wild && d === wild && face !== wild)).length;
  const p = !wild || face === wild ? 1 / 6 : 2 / 6;
  return count + (view.total - mine.length) * p;
}

function liarsDiceMove(view, legal) {
  const bids = legal.filter((a) => a.type === "liars-dice.bid");
  const call = legal.find((a) => a.type === "liars-dice.liar");
  const bid = view.bid;
  if (call && bid && bid.quantity > expected(view, bid.face) + 0.5) return call;
  if (bids.length === 0) return call || legal[0];
  // The raise most likely to hold: the largest margin of expected count over quantity.
  const margin = (b) => expected(view, b.face) - b.quantity;
  let best = bids[0];
  for (const b of bids) {
    if (margin(b) > margin(best) || (margin(b) === margin(best) && b.quantity < best.quantity)) {
      best = b;
    }
  }
  if (call && margin(best) < -0.5) return call;
  return best;
}

function choose(view) {
  const legal = view.legal_actions;
  if (view.type === "mia.view") return miaMove(view, legal);
  if (view.type === "liars-dice.view") return liarsDiceMove(view, legal);
  return legal[0];
}

function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

send({ type: "hello", v: 1, name: "example-js", games: ["mia", "liars-dice"] });
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "prompt") {
    send({ type: "move", v: 1, state_id: message.state_id, action: choose(message.view) });
  } else if (message.type === "refused") {
    process.stderr.write(`refused: ${message.reason}\n`);
  }
});
