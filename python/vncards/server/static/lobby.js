// The lobby: list tables, create one (game, players, bots per seat, rules options from the schema).
"use strict";
let GAMES = [];

async function loadGames() {
  GAMES = await (await fetch("/api/games")).json();
  const sel = document.getElementById("game");
  for (const g of GAMES) sel.append(el("option", { value: g.name, text: g.title }));
  sel.addEventListener("change", showGame);
  document.getElementById("players").addEventListener("change", showSeats);
  showGame();
}

function current() { return GAMES.find((g) => g.name === document.getElementById("game").value); }

function showGame() {
  const g = current();
  const p = document.getElementById("players");
  p.min = g.min_players; p.max = g.max_players;
  p.value = Math.min(Math.max(4, g.min_players), g.max_players);
  const box = document.getElementById("options");
  box.replaceChildren();
  for (const o of g.rules) {
    let input;
    const id = "opt-" + o.name;
    if (o.type === "bool") input = el("input", { type: "checkbox", id, checked: o.default ? true : null });
    else if (o.values && o.values.length) {
      input = el("select", { id });
      for (const v of o.values) input.append(el("option", { value: JSON.stringify(v), text: String(v), selected: v === o.default ? true : null }));
    } else if (o.type === "int") { // the schema's range is the field's: the form refuses what the server would
      input = el("input", { id, type: "number", step: "1", min: o.min === null ? null : String(o.min),
        max: o.max === null ? null : String(o.max), required: true, value: String(o.default), style: "width:6em" });
    } else input = el("input", { id, type: "text", value: String(o.default), style: "width:6em" });
    input.dataset.name = o.name; input.dataset.type = o.type; input.dataset.default = JSON.stringify(o.default);
    box.append(el("label", { title: o.description || "" }, input, " " + o.name + " ", el("span", { class: "hint", text: o.description || "" })));
  }
  showSeats();
}

function showSeats() {
  const g = current();
  const n = Number(document.getElementById("players").value);
  const box = document.getElementById("seatchoices");
  box.replaceChildren(el("span", { text: "Ghế " }), el("span", { class: "hint", text: "(seats: a player or a bot) " }));
  for (let i = 0; i < n; i++) {
    const s = el("select", { id: "seat-" + i, "data-seat": i });
    s.append(el("option", { value: "", text: "người chơi (player)" }));
    for (const b of g.bots) s.append(el("option", { value: b, text: "máy: " + b + " (bot)", selected: i > 0 && b === (g.bots.includes("greedy") ? "greedy" : g.bots[0]) ? true : null }));
    box.append(el("label", {}, "#" + i + " ", s));
  }
}

function ruleOverrides() {
  const out = {};
  for (const input of document.querySelectorAll("#options [data-name]")) {
    let v;
    if (input.type === "checkbox") v = input.checked;
    else if (input.tagName === "SELECT") v = JSON.parse(input.value);
    else if (input.dataset.type === "int") v = Number(input.value);
    else v = input.value;
    if (JSON.stringify(v) !== input.dataset.default) out[input.dataset.name] = v;
  }
  return out;
}

async function createTable(ev) {
  ev.preventDefault();
  const n = Number(document.getElementById("players").value);
  const seats = [];
  for (let i = 0; i < n; i++) seats.push(document.getElementById("seat-" + i).value || null);
  const body = { game: current().name, players: n, seats, rules: ruleOverrides() };
  const turn = document.getElementById("turn").value;
  if (turn) body.turn_seconds = Number(turn);
  const headers = { "content-type": "application/json" };
  const operator = document.getElementById("create-token").value.trim();
  if (operator) headers.authorization = "Bearer " + operator;
  const r = await fetch("/api/tables", { method: "POST", headers, body: JSON.stringify(body) });
  const data = await r.json();
  if (!r.ok) { document.getElementById("err").textContent = data.message; return; }
  localStorage.setItem("vncards:creator:" + data.id, data.creator_token);
  const name = document.getElementById("name").value.trim();
  if (name) localStorage.setItem("vncards:name", name);
  const open = seats.indexOf(null);
  location.href = "/t/" + data.id + (open >= 0 ? "?seat=" + open : "");
}

// The name in "Tên của bạn" is the one a seat's link joins with; with the field empty the
// table asks for a name before it seats the player.
function keepName() {
  const name = document.getElementById("name").value.trim();
  if (name) localStorage.setItem("vncards:name", name);
  else localStorage.removeItem("vncards:name");
}

async function listTables() {
  const tables = await (await fetch("/api/tables")).json();
  const body = document.querySelector("#tables tbody");
  body.replaceChildren();
  for (const t of tables) {
    if (t.broken) { // a stored table this server cannot serve: listed, not linked
      body.append(el("tr", { class: "broken", "data-table": t.id }, el("td", { text: t.id }), el("td", { text: t.game || "?" }),
        el("td", { colspan: "3", text: "không dùng được (unavailable): " + t.broken })));
      continue;
    }
    const seats = el("span");
    for (const s of t.seats) {
      const label = s.kind === "player" ? s.name : s.kind === "bot" ? "máy " + s.bot : "trống (open)";
      seats.append(s.kind === "player" ? nameNode(label) : el("a", { href: "/t/" + t.id + "?seat=" + s.seat, class: "sit", text: label, onclick: keepName }), " · ");
    }
    body.append(el("tr", { "data-table": t.id }, el("td", {}, el("a", { href: "/t/" + t.id, text: t.id }), " ", el("a", { class: "watch", href: "/t/" + t.id + "?watch", text: "xem (watch)" })),
      el("td", { text: t.title }), el("td", {}, seats),
      el("td", { text: String(t.hand_number) + (t.is_over ? " ✓" : "") }), el("td", { text: t.totals.join(" / ") })));
  }
}

document.getElementById("create").addEventListener("submit", createTable);
document.getElementById("name").value = localStorage.getItem("vncards:name") || "";
fetch("/api/server").then((r) => r.json()).then((info) => { document.getElementById("operator").hidden = !info.create_token_required; });
loadGames();
listTables();
setInterval(listTables, 5000);
