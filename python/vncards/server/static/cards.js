// Drawing cards and naming things, shared by the lobby and the table (no build step).
"use strict";
const VN = {
  games: {
    "tienlen": ["Tiến Lên Miền Nam", "Southern Tiến Lên"], "tienlen-north": ["Tiến Lên Miền Bắc", "Northern Tiến Lên"],
    "samloc": ["Sâm Lốc", "Sâm"], "maubinh": ["Mậu Binh", "Chinese poker"], "tusac": ["Tứ Sắc", "four colours"],
  },
  combos: {
    single: ["rác", "single"], pair: ["đôi", "pair"], triple: ["sám cô", "triple"], straight: ["sảnh", "straight"],
    pair_sequence: ["đôi thông", "pair sequence"], four_of_a_kind: ["tứ quý", "four of a kind"],
  },
  melds: {
    pair: ["đôi", "pair"], general: ["tướng lẻ", "lone general"], general_set: ["Tướng–Sĩ–Tượng", "general set"],
    chariot_set: ["Xe–Pháo–Mã", "chariot set"], three_soldiers: ["ba chốt", "three soldiers"], four_soldiers: ["bốn chốt", "four soldiers"],
    claimed_triple: ["3 con khui", "claimed triple"], triple: ["khạp", "triple"], claimed_quad: ["4 con khui", "claimed quad"],
    quad: ["quằn", "quad"], single: ["rác", "single"],
  },
  pieces: { K: "Tướng", A: "Sĩ", E: "Tượng", R: "Xe", C: "Pháo", H: "Mã", P: "Chốt" },
  colours: { Y: "vàng", R: "đỏ", G: "xanh", W: "trắng" },
  rows: [["Chi 1 (cuối)", "back, 5 cards"], ["Chi 2 (giữa)", "middle, 5 cards"], ["Chi 3 (đầu)", "front, 3 cards"]],
};

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

function isPiece(code) { return /^[KAERCHP][YRGW]$/.test(code); }

function pieceName(code) { return VN.pieces[code[0]] + " " + VN.colours[code[1]]; }

function drawCard(text, opts) { // "10♥" -> a CSS card; Tứ Sắc codes -> a piece by name and colour
  opts = opts || {};
  if (isPiece(text)) {
    return el("span", { class: "piece c-" + text[1] + (opts.small ? " small" : ""), "data-card": text, title: pieceName(text) + " (" + text + ")" },
      VN.pieces[text[0]], el("small", { text: VN.colours[text[1]] }));
  }
  const suit = text.slice(-1), rank = text.slice(0, -1);
  const red = suit === "♥" || suit === "♦";
  return el("span", { class: "card" + (red ? " red" : "") + (opts.small ? " small" : ""), "data-card": text },
    el("b", { text: rank }), el("i", { text: suit }));
}

function drawCards(list, opts) {
  const box = el("span", { class: "cards" });
  for (const c of list) box.append(drawCard(c, opts));
  return box;
}

function splitCards(text) { return (text || "").split(/\s+/).filter(Boolean); }

function cardBacks(n) {
  const box = el("span", { class: "cards" });
  for (let i = 0; i < Math.min(n, 13); i++) box.append(el("span", { class: "card small back" }));
  return box;
}

// The engine's codes in words (English / Vietnamese), from the server's vncards.words table.
let WORDS = {};
fetch("/api/words").then((r) => r.json()).then((w) => { WORDS = w; });
function term(code) { return WORDS[code] || String(code).replace(/_/g, " "); }
