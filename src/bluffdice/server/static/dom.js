import { tElse } from "./i18n.js";

// h("p", {class: "x"}, "text", child): elements built with textContent, never innerHTML,
// so a player's name is always shown as text and can never become markup.
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className = value;
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function clear(el, ...children) {
  el.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return el;
}

export async function api(path, body) {
  const options = body === undefined ? {} : {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body),
  };
  const response = await fetch(path, options);
  const data = await response.json();
  // the server's refusal in the page's language where it sent its catalogue key
  if (!response.ok) throw new Error(data.key ? tElse(data.key, data.error, data.params) : data.error || response.statusText);
  return data;
}

export function tokenFor(tableId) {
  return localStorage.getItem(`bluffdice.seat.${tableId}`);
}

export function keepToken(tableId, token) {
  localStorage.setItem(`bluffdice.seat.${tableId}`, token);
}

// A seat's token is forgotten when its player leaves: the page then watches as a spectator.
export function forgetToken(tableId) {
  localStorage.removeItem(`bluffdice.seat.${tableId}`);
}

// The creator's token, which hands seats over. It is kept apart from the seat's token
// because the creator keeps it after leaving their own seat.
export function hostFor(tableId) {
  return localStorage.getItem(`bluffdice.host.${tableId}`);
}

export function keepHost(tableId, host) {
  if (host) localStorage.setItem(`bluffdice.host.${tableId}`, host);
}
