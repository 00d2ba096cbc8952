// Provably fair dice in the page: the player's own seed, and an independent check of a
// finished game's fair record with WebCrypto (SHA-256, HMAC-SHA256), written from the
// scheme in docs/fairness.md, not from the server's code. It recomputes the commitment,
// every die and the digest, and that each roll's step in the record is what those dice
// make; the rules check of the moves is `bluffdice verify`'s.
const SCHEME = "bluffdice-fair-v1";
const enc = new TextEncoder();

// A seed nobody else knows: 16 random bytes from the browser's generator, as hex.
export function newSeed() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return hex(bytes);
}

function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function fromHex(text) {
  if (!/^([0-9a-f]{2})*$/.test(text)) return null;
  return new Uint8Array(text.match(/../g)?.map((b) => parseInt(b, 16)) ?? []);
}

function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

function u32(n) {
  return new Uint8Array([(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
}

function u64(n) {  // counters stay far below 2^53
  const out = new Uint8Array(8);
  let rest = n;
  for (let i = 7; i >= 0; i--) { out[i] = rest % 256; rest = Math.floor(rest / 256); }
  return out;
}

function lengthPrefixed(text) {
  const data = enc.encode(text);
  return concat(u32(data.length), data);
}

async function sha256(bytes) {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}

// The byte stream of one game: HMAC-SHA256(server seed, client message + counter), block after block.
class Stream {
  constructor(key, message) { this.key = key; this.message = message; this.block = new Uint8Array(0); this.pos = 0; this.counter = 0; }

  async die(faces) {
    const limit = 256 - (256 % faces);
    for (;;) {
      if (this.pos === this.block.length) {
        const data = concat(this.message, u64(this.counter));
        this.block = new Uint8Array(await crypto.subtle.sign("HMAC", this.key, data));
        this.counter += 1;
        this.pos = 0;
      }
      const byte = this.block[this.pos++];
      if (byte < limit) return (byte % faces) + 1;
    }
  }
}

const HAND = ["", "9", "T", "J", "Q", "K", "A"];

// The record's text of the chance step a roll makes (docs/fairness.md, "Which dice each chance node rolls").
function outcomeText(game, roll, seatDraw) {
  const dice = roll.dice;
  if (seatDraw) return `first ${dice[0] - 1}`;
  if (game === "mia") return `dice ${Math.max(...dice)}${Math.min(...dice)}`;
  const sorted = [...dice].sort((a, b) => a - b);
  if (game === "common-hand") return `dice ${sorted.map((d) => HAND[d]).join("")}`;
  return `dice ${sorted.join("")}`;
}

// {ok: true, rolls} or {ok: false, problem: {key, params}} (message keys of the catalogue).
export async function checkFair(fair, shownCommitment, mySeat, mySeed) {
  const fail = (key, params = {}) => ({ok: false, problem: {key, params}});
  if (fair.scheme !== SCHEME) return fail("fair.bad.scheme", {scheme: fair.scheme});
  const seed = fromHex(fair.server_seed);
  if (!seed || seed.length !== 32) return fail("fair.bad.seed");
  if (hex(await sha256(seed)) !== fair.commitment) return fail("fair.bad.commitment");
  if (shownCommitment && fair.commitment !== shownCommitment) return fail("fair.bad.shown");
  if (mySeat !== null && mySeed != null && fair.client_seeds[mySeat] !== mySeed) return fail("fair.bad.mySeed");
  const key = await crypto.subtle.importKey("raw", seed, {name: "HMAC", hash: "SHA-256"}, false, ["sign"]);
  const stream = new Stream(key, concat(...fair.client_seeds.map(lengthPrefixed)));
  // every game begins with a seat draw, unless its rules fix the first seat
  const drawsSeat = !/[(,]start=first-seat[,)]/.test(fair.record.rules);
  const chanceSteps = fair.record.steps.filter((s) => s.startsWith("first ") || s.startsWith("dice "));
  for (let i = 0; i < fair.rolls.length; i++) {
    const roll = fair.rolls[i];
    const dice = [];
    for (let k = 0; k < roll.dice.length; k++) dice.push(await stream.die(roll.faces));
    if (dice.join(" ") !== roll.dice.join(" ")) {
      return fail("fair.bad.roll", {n: i + 1, recorded: roll.dice.join(" "), computed: dice.join(" ")});
    }
    if (chanceSteps[i] !== outcomeText(fair.record.game, roll, i === 0 && drawsSeat)) {
      return fail("fair.bad.step", {n: i + 1, step: chanceSteps[i] ?? "—", dice: dice.join(" ")});
    }
  }
  if (chanceSteps.length !== fair.rolls.length) return fail("fair.bad.count", {steps: chanceSteps.length, rolls: fair.rolls.length});
  const r = fair.record;
  const texts = [fair.scheme, r.game, r.rules, String(r.players), fair.commitment, fair.server_seed,
    String(fair.client_seeds.length), ...fair.client_seeds, String(r.steps.length), ...r.steps,
    String(fair.rolls.length), ...fair.rolls.map((roll) => `${roll.faces}:${roll.dice.join(" ")}`)];
  if (hex(await sha256(concat(...texts.map(lengthPrefixed)))) !== fair.digest) return fail("fair.bad.digest");
  return {ok: true, rolls: fair.rolls.length};
}
