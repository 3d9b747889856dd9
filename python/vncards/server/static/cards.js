// Cards drawn as SVG, the page's game words, and small DOM helpers, shared by the lobby and
// the table (no build step, no external asset). Every game word comes from the server
// (GET /api/words: vncards.words and the engine); the page keeps no word table of its own.
"use strict";

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}

function both(pair) { // "Vietnamese (English)" as nodes
  return [pair[0] + " ", el("span", { class: "hint", text: "(" + pair[1] + ")" })];
}

// A person's name: always text (never markup), isolated for right-to-left scripts, cut with
// an ellipsis when long (the whole name in the tooltip).
function nameNode(text, cls) {
  return el("bdi", { class: "who" + (cls ? " " + cls : ""), title: text, text });
}

// -- words --------------------------------------------------------------------------------------

let WORDS = { terms: {}, events: {}, rows: [], cards: {}, page: {} };
const WORDS_READY = fetch("/api/words").then((r) => r.json()).then((w) => { WORDS = w; });

function term(code) { // vncards.words.term: "position:category" reads as both parts
  code = String(code);
  if (WORDS.terms[code]) return WORDS.terms[code];
  const i = code.indexOf(":");
  if (i > 0) return term(code.slice(0, i)) + ", " + term(code.slice(i + 1));
  return code.replace(/_/g, " ");
}

function phrase(key) { return (WORDS.page || {})[key] || [key, key]; } // vncards.words.PAGE_WORDS: [Vietnamese, English]
function say(key) { return both(phrase(key)); }
function sayText(key) { const p = phrase(key); return p[0] + " (" + p[1] + ")"; }

function isPiece(code) { return /^[KAERCHP][YRGW]$/.test(code); }
function cardName(code) { return isPiece(code) ? (WORDS.cards[code] || code) : code; }

// -- SVG cards ------------------------------------------------------------------------------------

const SVGNS = "http://www.w3.org/2000/svg";
function svg(tag, attrs, ...children) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "text") e.textContent = v;
    else if (v !== null && v !== undefined) e.setAttribute(k, v);
  }
  for (const c of children) if (c) e.append(c);
  return e;
}

// Suit outlines in a 100×100 box.
const SUIT_PATHS = {
  "♦": "M50 2 L92 50 L50 98 L8 50 Z",
  "♥": "M50 94 C22 72 2 54 2 30 C2 12 15 2 29 2 C40 2 47 9 50 19 C53 9 60 2 71 2 C85 2 98 12 98 30 C98 54 78 72 50 94 Z",
  "♠": "M50 2 C78 26 98 42 98 61 C98 77 86 87 72 87 C63 87 56 82 53 75 C54 87 59 94 67 99 L33 99 C41 94 46 87 47 75 C44 82 37 87 28 87 C14 87 2 77 2 61 C2 42 22 26 50 2 Z",
  "♣": "M50 2 A23 23 0 0 1 68 40 A23 23 0 1 1 56 76 C57 87 61 94 68 99 L32 99 C39 94 43 87 44 76 A23 23 0 1 1 32 40 A23 23 0 0 1 50 2 Z",
};

function suitShape(suit, x, y, size, rotate) {
  const s = size / 100;
  const t = "translate(" + x + " " + y + ")" + (rotate ? " rotate(180 " + size / 2 + " " + size / 2 + ")" : "") + " scale(" + s + ")";
  return svg("path", { d: SUIT_PATHS[suit], transform: t, class: "suit" });
}

let backs = 0;
function cardBack(opts) {
  const id = "back" + backs++;
  return svg("svg", { class: "card back" + (opts && opts.small ? " small" : ""), viewBox: "0 0 60 84", role: "img", "aria-label": "card back" },
    svg("defs", {}, svg("pattern", { id, width: "8", height: "8", patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
      svg("rect", { width: "8", height: "8", fill: "#23427e" }), svg("rect", { width: "4", height: "8", fill: "#3461b0" }))),
    svg("rect", { class: "frame", x: "1", y: "1", width: "58", height: "82", rx: "6", fill: "#fff" }),
    svg("rect", { x: "5", y: "5", width: "50", height: "74", rx: "4", fill: "url(#" + id + ")" }));
}

function drawPiece(code, opts) { // a Tứ Sắc card: its piece's name in its colour
  const name = cardName(code), piece = name.split(" ")[0], colour = name.slice(piece.length + 1);
  return svg("svg", { class: "piece c-" + code[1] + (opts.small ? " small" : ""), viewBox: "0 0 44 84", role: "img", "aria-label": name, "data-card": code },
    svg("title", { text: name + " (" + code + ")" }),
    svg("rect", { class: "frame", x: "1", y: "1", width: "42", height: "82", rx: "5" }),
    svg("ellipse", { class: "ring", cx: "22", cy: "34", rx: "19", ry: "15" }),
    svg("text", { class: "pname", x: "22", y: "38.5", "text-anchor": "middle", textLength: piece.length > 3 ? "34" : null, lengthAdjust: "spacingAndGlyphs", text: piece }),
    svg("rect", { class: "band", x: "6", y: "58", width: "32", height: "4", rx: "2" }),
    svg("text", { class: "pcolour", x: "22", y: "75", "text-anchor": "middle", text: colour }));
}

function drawCard(text, opts) { // "10♥" -> an SVG card with rank and suit corners
  opts = opts || {};
  if (isPiece(text)) return drawPiece(text, opts);
  const suit = text.slice(-1), rank = text.slice(0, -1);
  const red = suit === "♥" || suit === "♦";
  const corner = (flip) => svg("g", flip ? { transform: "rotate(180 30 42)" } : {},
    svg("text", { class: "rank", x: "8.5", y: "17", "text-anchor": "middle", text: rank }),
    suitShape(suit, 3, 21, 11));
  return svg("svg", { class: "card" + (red ? " red" : "") + (opts.small ? " small" : ""), viewBox: "0 0 60 84", role: "img", "aria-label": text, "data-card": text },
    svg("title", { text }),
    svg("rect", { class: "frame", x: "1", y: "1", width: "58", height: "82", rx: "6" }),
    corner(false), corner(true), suitShape(suit, 17, 29, 26));
}

function drawCards(list, opts) {
  const box = el("span", { class: "cards" + (opts && opts.fan ? " fan" : "") });
  for (const c of list) box.append(drawCard(c, opts));
  return box;
}

function splitCards(text) { return (text || "").split(/\s+/).filter(Boolean); }

function cardBacks(n) { // a fanned stack of backs and the count
  const box = el("span", { class: "cards fan backs", title: n + " lá (cards)" });
  for (let i = 0; i < Math.min(n, 13); i++) box.append(cardBack({ small: true }));
  box.append(el("span", { class: "count", text: String(n) }));
  return box;
}

// A clock drawn as SVG (a font's ⏱ glyph is a missing-glyph box on a stock Chromium): the
// ring empties as the seconds run out.
function clockNode(left, total) {
  const frac = Math.max(0, Math.min(1, total ? left / total : 1));
  const c = 2 * Math.PI * 8;
  return el("span", { class: "timer" + (left <= 10 ? " low" : "") },
    svg("svg", { viewBox: "0 0 20 20", class: "clock" },
      svg("circle", { cx: "10", cy: "10", r: "8", class: "clock-bg" }),
      svg("circle", { cx: "10", cy: "10", r: "8", class: "clock-fg", "stroke-dasharray": (c * frac).toFixed(1) + " " + c.toFixed(1), transform: "rotate(-90 10 10)" })),
    el("span", { class: "secs", text: Math.ceil(left) + " s" }));
}
