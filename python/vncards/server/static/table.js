// The browser table: one WebSocket, one state frame per change; every move is one "act" frame.
// Seats sit around the felt with the viewer at the bottom; the felt shows the current round's
// plays; game words come from the server (cards.js: term, cardName, WORDS).
"use strict";
const TABLE_ID = location.pathname.split("/").pop();
const S = { token: localStorage.getItem("vncards:" + TABLE_ID), creator: localStorage.getItem("vncards:creator:" + TABLE_ID),
            seat: null, ws: null, frame: null, hand: null, events: [], history: [], logSeen: 0, bots: [],
            selected: new Set(), rows: [[], [], []], target: 0, rowsFor: null, nextId: 1, received: 0, retries: 0,
            why: "", whyFor: "", wasForced: null, closed: false, spectators: 0 };

function seatName(i) {
  const t = S.frame && S.frame.table;
  if (!t || !t.seats[i]) return "#" + i;
  return t.seats[i].kind === "player" ? t.seats[i].name : t.seats[i].name + " #" + i; // bots by seat
}
function who(i) { return i === S.seat ? "bạn (you)" : seatName(i); }

// -- joining and the connection ---------------------------------------------------------------

async function join(seat) {
  const field = document.getElementById("join-name");
  if (field && field.value.trim()) localStorage.setItem("vncards:name", field.value.trim());
  const r = await fetch("/api/tables/" + TABLE_ID + "/join", { method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ seat, name: localStorage.getItem("vncards:name") || null }) });
  const data = await r.json();
  if (!r.ok) { showJoin(data.message); return; }
  S.token = data.token;
  localStorage.setItem("vncards:" + TABLE_ID, data.token);
  history.replaceState(null, "", "/t/" + TABLE_ID);
  document.getElementById("joinbox").hidden = true;
  connect();
}

async function showJoin(message, wanted) {
  const box = document.getElementById("joinbox");
  box.hidden = false;
  box.replaceChildren(el("h2", {}, ...both(["Chọn ghế", "pick a seat"])));
  if (message) box.append(el("div", { class: "error", text: message }));
  const r = await fetch("/api/tables/" + TABLE_ID);
  if (!r.ok) { box.append(el("p", { text: "Không có bàn này (no such table)." })); return; }
  const t = await r.json();
  box.append(el("label", {}, "Tên của bạn ", el("span", { class: "hint", text: "(your name) " }),
    el("input", { id: "join-name", maxlength: "32", value: localStorage.getItem("vncards:name") || "" })), " ");
  for (const s of t.seats) {
    if (s.kind === "player") continue;
    box.append(el("button", { class: "join" + (s.seat === wanted ? " primary" : ""), "data-seat": s.seat, onclick: () => join(s.seat) },
      "Ngồi ghế #" + s.seat + " ", el("span", { class: "hint", text: "(sit" + (s.kind === "bot" ? ", in place of the bot " + s.bot : "") + ")" })), " ");
  }
  box.append(el("button", { id: "watch", onclick: () => { box.hidden = true; S.token = null; connect(); } }, ...both(["Xem", "watch"])));
}

function connect() {
  if (S.ws) { S.ws.onclose = null; S.ws.close(); }
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws/" + TABLE_ID);
  S.ws = ws;
  ws.onopen = () => { S.retries = 0; ws.send(JSON.stringify({ type: "hello", token: S.token, id: S.nextId++ })); };
  ws.onmessage = (m) => onFrame(JSON.parse(m.data));
  ws.onclose = (e) => {
    if (e.code === 4410) { showClosed(); return; }
    if (S.closed) return;
    setStatus("mất kết nối (disconnected) — đang nối lại (reconnecting)…");
    setTimeout(connect, Math.min(8000, 500 * 2 ** S.retries++));
  };
}

function send(msg) {
  msg.id = S.nextId++;
  showError("");
  S.ws.send(JSON.stringify(msg));
  return msg.id;
}

function act(action) { S.why = ""; S.foulArmed = false; send({ type: "act", action }); }

function showError(text) { document.getElementById("err").textContent = text; }

function showClosed() {
  S.closed = true;
  if (S.ws) S.ws.onclose = null;
  document.body.dataset.closed = "1";
  const banner = document.getElementById("closed");
  banner.hidden = false;
  banner.replaceChildren(el("b", { text: "Bàn đã đóng " }), el("span", { class: "hint", text: "(this table is closed: it was idle, or its creator closed it; its results are kept)" }), " ",
    el("a", { href: "/", text: "← Sảnh (lobby)" }));
  setStatus("Bàn đã đóng (table closed)");
  if (S.frame) render();
}

function onFrame(f) {
  if (f.type === "error") {
    if (f.code === "table_closed") { showClosed(); return; }
    showError("Lỗi (error): " + f.message);
    if (f.code === "bad_token") { localStorage.removeItem("vncards:" + TABLE_ID); S.token = null; showJoin(f.message); }
    if (["table_broken", "replaced", "no_table"].includes(f.code) && S.ws) S.ws.onclose = null; // no reconnecting
    return;
  }
  if (f.type === "categories") {
    if (f.ack === S.catAsk) { S.cats = f; if (S.frame) renderMine(S.frame); }
    return;
  }
  if (f.type === "explanation") {
    if (f.ack === S.whyAsk) { S.why = f.message || ""; renderWhy(); }
    return;
  }
  if (f.type === "presence") {
    if (S.frame) { S.frame.table.spectators = f.spectators; f.connected.forEach((c, i) => { S.frame.table.seats[i].connected = c; }); render(); }
    return;
  }
  if (f.type !== "state") return;
  const key = f.generation;
  if (S.hand !== key) { S.hand = key; S.events = []; }
  // The log in time order: each entry stamped with the change (seq) that brought it; the
  // table's notes of a change before its game events ("hand begins", "joined"), "hand over" after.
  const fresh = f.events.filter((e, k) => f.events_from + k >= S.events.length); // each event once
  // The table made this seat's forced move in this change: its note goes right after the
  // seat's own move (before what followed it: a new round, the next seat's turn), or before
  // the change's events when the move left none.
  const made = (e) => e.seat === S.seat && e.type === S.wasForced.type; // the forced move's own event, if it has one
  const forcedDone = S.wasForced && S.frame && f.seq !== S.frame.seq && (!f.forced || fresh.some(made));
  const forcedNote = forcedDone && { seq: f.seq, rank: 1, text: "Bàn đi thay bạn nước bắt buộc (the table made your forced move): " + actionText(S.wasForced), cls: "forced-done" };
  const after = forcedDone ? fresh.findIndex(made) : -1;
  if (forcedNote && after < 0) S.history.push(forcedNote);
  fresh.forEach((e, k) => {
    S.events.push(e);
    S.history.push({ seq: f.seq, rank: 1, event: e, cls: "ev-" + e.type });
    if (k === after) S.history.push(forcedNote);
  });
  for (const e of f.log) if (e.n > S.logSeen) {
    S.logSeen = e.n;
    S.history.push({ seq: e.seq, rank: e.type === "hand_over" ? 2 : 0, note: e, cls: "log-" + e.type });
  }
  S.wasForced = f.forced ? f.forced.action : null;
  S.frame = f; S.seat = f.seat; S.received = Date.now();
  render();
}

function setStatus(text) { document.getElementById("status").textContent = text; }

// -- words for events ---------------------------------------------------------------------------

function fill(template, e) { // vncards.words.EVENT_WORDS: {who}, {s}, {card}, {cards}, {combo}, …
  return template.replace(/\{(\w+)\}/g, (_, k) => {
    if (k === "who") return who(e.seat);
    if (k === "s") return e.seat === S.seat ? "" : "s";
    if (k === "card") return cardName(e.card);
    if (k === "cards") return Array.isArray(e.cards) ? e.cards.map(cardName).join(" ") : String(e.cards);
    if (k === "combo") return term(e.combo);
    if (k === "meld") return term(e.meld);
    if (k === "win") return term(e.win || e.kind || "");
    if (k === "term") return term(e.type);
    if (k === "victim" || k === "leader") return who(e[k]);
    return e[k] === undefined ? "" : String(e[k]);
  });
}

function describeEvent(e) {
  if (WORDS.events[e.type]) return fill(WORDS.events[e.type], e);
  switch (e.type) {
    case "deal": return term("deal") + (e.hand_number ? " — ván (hand) " + e.hand_number : "");
    case "lead": return who(e.seat) + ": " + term("lead") + (e.must_include ? " (" + e.must_include + ")" : "");
    case "hand_end": return term("hand_end") + (e.winner !== null && e.winner !== undefined ? ": " + who(e.winner) : "");
    case "settle": return term("settle") + ": " + (e.totals || e.settlement || []).join(" / ");
    case "win": return who(e.seat) + ": " + term("win") + (e.score !== undefined ? ", " + e.score + " lệnh" : "");
    default: return (e.seat !== undefined ? who(e.seat) + ": " : "") + term(e.type);
  }
}

function describeLog(e) {
  switch (e.type) {
    case "join": return seatName(e.seat) + " vào bàn (joined), ghế #" + e.seat;
    case "timeout": return "Hết giờ (time out): máy " + e.bot + " đi thay " + seatName(e.seat) + " (a bot acted: " + term(e.action) + ")";
    case "hand_start": return "Bắt đầu ván " + e.hand + " (hand " + e.hand + " begins)";
    case "hand_over": return "Kết thúc ván " + e.hand + " (hand over): " + e.result.map((r) => (r > 0 ? "+" : "") + r).join(" / ");
    case "leave": return "Ghế #" + e.seat + ": người chơi rời bàn, máy " + e.bot + " ngồi thay (the player left; a bot sits)";
    case "replace": return "Ghế #" + e.seat + ": chủ bàn " + (e.bot ? "cho máy " + e.bot + " ngồi" : "mở ghế") + " (the creator " + (e.bot ? "handed it to a bot" : "opened it") + ")";
    default: return term(e.type);
  }
}

function actionText(a) {
  if (a.type === "claim") return term("claim") + ": " + term(a.meld);
  return term(a.type) + (a.cards ? " " + a.cards : "") + (a.card ? " " + cardName(a.card) : "");
}

// -- rendering ----------------------------------------------------------------------------------

// Where each seat sits, counted from the viewer (at the bottom) in playing order.
const PLACES = { 1: ["me"], 2: ["me", "top"], 3: ["me", "right", "left"], 4: ["me", "right", "top", "left"],
                 5: ["me", "right", "tr", "tl", "left"], 6: ["me", "right", "tr", "top", "tl", "left"] };

function render() {
  const f = S.frame, v = f.view, t = f.table;
  document.title = t.title + " — vncards";
  document.getElementById("title").textContent = t.title;
  document.getElementById("handno").replaceChildren("Ván (hand) " + t.hand_number + " · ",
    el("span", { id: "spectators", "data-count": String(t.spectators || 0), text: "người xem (spectators): " + (t.spectators || 0) }));
  const pending = v.pending_seats || [];
  if (!S.closed) setStatus(t.is_over ? "Hết ván (hand over)" : S.seat !== null && pending.includes(S.seat) ? "Đến lượt bạn (your turn)" :
    "Chờ (waiting for) " + pending.map(seatName).join(", "));
  document.body.dataset.over = t.is_over ? "1" : "0";
  document.body.dataset.game = t.game;
  document.body.dataset.seq = String(f.seq);
  document.body.dataset.phase = v.phase || "";
  renderSeats(f);
  renderCenter(f);
  renderMine(f);
  renderSettlement(f);
  renderCreator(f);
  renderLog();
}

function seatBox(f, i, place) {
  const v = f.view, t = f.table, s = t.seats[i];
  const kind = s.kind === "bot" ? "máy (bot) " + s.bot : s.kind === "open" ? "trống (open)" : s.connected ? "người (player)" : "người (player, offline)";
  const me = i === f.seat;
  const d = el("div", { class: "seat place-" + place + ((v.pending_seats || []).includes(i) && !v.is_over ? " turn" : "") + (me ? " me" : ""), "data-seat": i },
    el("div", { class: "name" }, nameNode(seatName(i)), me ? el("span", { class: "you", text: " Bạn (you)" }) : null,
      v.dealer === i ? el("span", { class: "badge", title: "người cầm cái (the dealer)", text: "cái" }) : null),
    el("div", { class: "meta", text: kind + " · tổng (total): " + t.totals[i] }));
  const left = t.time_left[String(i)];
  if (left !== undefined && !v.is_over) {
    const c = clockNode(left, t.turn_seconds); // the table's turn (Mậu Binh: the whole arrangement)
    c.dataset.deadline = String(S.received + left * 1000); c.dataset.total = String(t.turn_seconds);
    d.append(c);
  }
  const count = (v.hand_counts || [])[i];
  const shown = v.is_over && v.revealed && v.revealed[i];
  if (!me && count !== undefined && !shown && !(v.game === "maubinh" && v.reveal)) d.append(cardBacks(count));
  if (v.game === "tusac" && v.exposed && v.exposed[i].length) {
    const melds = el("div", { class: "melds" });
    for (const m of v.exposed[i]) melds.append(el("span", { class: "meld", title: term(m.meld) }, drawCards(m.cards, { small: true, fan: true })));
    d.append(melds);
  }
  if (v.game === "maubinh") {
    const st = v.forfeited && v.forfeited[i] ? term("forfeited") : v.confirmed[i] ? term("confirmed") : v.arranged[i] ? term("arranged") : "đang xếp (arranging)";
    if (!v.reveal) d.append(el("div", { class: "meta", text: st }));
  }
  if (v.out && v.out.includes(i)) d.append(el("div", { class: "pos", text: term("out") }));
  return d;
}

function renderSeats(f) {
  const t = f.table, n = t.players, base = f.seat === null ? 0 : f.seat;
  const felt = document.getElementById("felt");
  for (const old of felt.querySelectorAll(".seat")) old.remove();
  const places = PLACES[n] || PLACES[6];
  for (let k = 0; k < n; k++) {
    const i = (base + k) % n;
    felt.append(seatBox(f, i, places[k] || "top"));
  }
}

function roundPlays() { // the plays since the round began (Tiến Lên, Sâm Lốc)
  const out = [];
  for (const e of S.events) {
    if (e.type === "new_round" || e.type === "deal") out.length = 0;
    else if (e.type === "play" || e.type === "pass") out.push(e);
  }
  return out;
}

function renderCenter(f) {
  const v = f.view, box = document.getElementById("center");
  box.replaceChildren();
  document.getElementById("felt").dataset.showdown = v.game === "maubinh" && v.reveal ? "1" : "0";
  if (v.game === "tusac") {
    if (v.offer) {
      const src = v.offer.source === "stock" ? term("turn_up") : term("discard");
      box.append(el("div", { class: "offer", id: "offer" }, el("div", { class: "label" }, nameNode(seatName(v.offer.seat)), ": " + src), drawCard(v.offer.card)));
      if (v.phase === "claim") box.append(el("div", { class: "label", text: "Cửa ăn (claim window): " + (v.pending_seats || []).map(seatName).join(", ") }));
    }
    box.append(el("div", { class: "label", text: "Nọc (stock): " + v.stock + " lá" }));
    if (v.dead.length) box.append(el("div", { class: "label", text: term("dead") }), drawCards(v.dead.slice(-12), { small: true, fan: true }));
    return;
  }
  if (v.game === "maubinh") {
    if (!v.reveal) box.append(el("div", { class: "label", text: "Xếp 13 lá thành 3 chi trong " + f.table.turn_seconds + " giây (arrange 13 cards into three hands)" }));
    else renderShowdown(f, box);
    return;
  }
  if (v.phase === "bao_sam") { // Sâm Lốc's declaration, alone while it is open
    box.append(el("div", { class: "sam-question", id: "sam-question" }, el("b", { text: "Báo Sâm? " }),
      el("span", { class: "hint", text: "(declare Sâm: promise to play out all ten cards unbeaten)" })));
    return;
  }
  if (v.sam_declarer !== null && v.sam_declarer !== undefined) box.append(el("div", { class: "label sam" }, nameNode(seatName(v.sam_declarer)), ": " + term("declare_sam")));
  const plays = roundPlays();
  const pile = el("div", { class: "pile", id: "round" });
  plays.forEach((e, k) => {
    const last = k === plays.length - 1 || plays.slice(k + 1).every((x) => x.type === "pass");
    if (e.type === "pass") { pile.append(el("div", { class: "play passed" }, nameNode(seatName(e.seat)), el("span", { text: " " + term("pass") }))); return; }
    pile.append(el("div", { class: "play" + (last ? " top" : ""), "data-seat": e.seat },
      el("div", { class: "label" }, nameNode(seatName(e.seat)), " · " + term(e.combo)), drawCards(splitCards(e.cards), { small: !last })));
  });
  if (plays.length) box.append(pile);
  else if (!v.is_over) box.append(el("div", { class: "label", text: "Bàn trống — đi tự do (empty table: lead anything)" }));
  if (v.must_include && v.must_include.length) box.append(el("div", { class: "label", text: "Phải đánh kèm (must include): " + v.must_include.join(" ") }));
}

function rowName(r) { const row = WORDS.rows[r] || ["", "row " + r, ""]; return [row[2], row[1]]; }

function renderShowdown(f, box) { // every seat's three hands and categories; per opponent, hand by hand
  const v = f.view, t = f.table, rv = v.reveal, cats = (t.showdown && t.showdown.categories) || [];
  const grid = el("div", { class: "showdown", id: "showdown" });
  rv.arrangements.forEach((rows, i) => {
    const col = el("div", { class: "sd-seat", "data-seat": i }, el("div", { class: "name" }, nameNode(seatName(i)), i === f.seat ? el("span", { class: "you", text: " Bạn (you)" }) : null));
    if (rv.instants[i]) col.append(el("div", { class: "pos", text: term("instant") + ": " + term(rv.instants[i]) }));
    if (rv.fouled[i]) col.append(el("div", { class: "neg", text: term("foul") }));
    (rows || []).forEach((row, r) => col.append(el("div", { class: "sd-row", "data-row": r },
      el("span", { class: "rowname" }, ...both(rowName(r))), drawCards(splitCards(row), { small: true, fan: true }),
      el("span", { class: "category", text: cats[i] ? term(cats[i][r]) : "" }))));
    grid.append(col);
  });
  box.append(grid);
  const me = f.seat === null ? 0 : f.seat;
  const vs = el("div", { class: "versus", id: "versus" }, el("div", { class: "label", text: "Từng chi với mỗi nhà (hand by hand against each player), " + seatName(me) + ":" }));
  for (let j = 0; j < t.players; j++) {
    if (j === me) continue;
    const lines = (t.payments || []).filter((p) => (p.from === me && p.to === j) || (p.from === j && p.to === me));
    const sum = lines.reduce((a, p) => a + (p.to === me ? p.units : -p.units), 0);
    const line = el("div", { class: "vs", "data-against": j }, nameNode(seatName(j)), ": ");
    lines.forEach((p, k) => {
      const u = p.to === me ? p.units : -p.units;
      line.append(k ? " · " : "", el("span", { class: u > 0 ? "pos" : "neg", text: term(p.reason) + " " + (u > 0 ? "+" : "") + u }));
    });
    line.append(" ", el("b", { class: sum > 0 ? "pos" : sum < 0 ? "neg" : "", text: "= " + (sum > 0 ? "+" : "") + sum }));
    vs.append(line);
  }
  box.append(vs);
}

function renderWhy() { document.getElementById("why").textContent = S.why ? "Chưa đánh được (not a legal play): " + S.why : ""; }

function sameCards(a, b) { return a.length === b.length && [...a].sort().join(" ") === [...b].sort().join(" "); }

function actionButton(a, i) {
  let label;
  switch (a.type) {
    case "pass": label = both(["Bỏ lượt", "pass"]); break;
    case "declare_sam": label = both(["Báo Sâm", "declare Sâm"]); break;
    case "decline_sam": label = both(["Không báo", "no Sâm"]); break;
    case "confirm": label = both(["Báo xong", "confirm these hands"]); break;
    case "forfeit": label = both(["Chịu thua", "forfeit"]); break;
    case "auto_arrange": label = both(["Máy xếp", "auto arrange"]); break;
    case "win": label = both(["Tới", "win"]); break;
    case "claim": label = ["Ăn (claim) ", el("span", { class: "hint", text: term(a.meld) + " " }), drawCards(a.cards, { small: true })]; break;
    case "discard": label = [term("discard") + " ", drawCard(a.card, { small: true })]; break;
    case "play": label = [term("play") + " ", drawCards(splitCards(a.cards), { small: true })]; break;
    default: label = [term(a.type)];
  }
  const fouled = a.type === "confirm" && S.frame.view.fouled; // a fouled hand is confirmed by a second click
  if (fouled && S.foulArmed) label = say("confirm_fouled");
  const click = () => { if (fouled && !S.foulArmed) { S.foulArmed = true; renderMine(S.frame); } else act(a); };
  return el("button", { class: "act" + (a.type === "pass" ? "" : " strong") + (fouled ? " fouled" : ""), "data-action": i, "data-type": a.type,
    "data-armed": fouled && S.foulArmed ? "1" : null, onclick: click }, ...label);
}

function renderMine(f) {
  const v = f.view, legal = f.legal_actions;
  const mine = document.getElementById("mine");
  mine.hidden = f.seat === null;
  if (f.seat === null) return;
  const hand = document.getElementById("hand"), extra = document.getElementById("extra"), acts = document.getElementById("actions");
  hand.replaceChildren(); extra.replaceChildren(); acts.replaceChildren();
  if (f.forced) // the table makes a forced move itself after a short pause: nothing to click
    acts.append(el("div", { class: "forced", id: "forced" }, "Nước bắt buộc ", el("span", { class: "hint", text: "(forced: the table makes it for you in " + f.forced.in + " s) " }), actionText(f.forced.action)));
  else if (v.phase === "bao_sam") legal.forEach((a, i) => acts.append(actionButton(a, i)));
  else legal.forEach((a, i) => { if (a.type !== "play" && a.type !== "discard" && a.type !== "arrange") acts.append(actionButton(a, i)); });
  if (f.table.is_over && !S.closed) {
    acts.append(el("button", { class: "primary", id: "next-hand", onclick: () => send({ type: "next_hand" }) }, ...both(["Ván mới", "next hand"])));
    if (S.token) acts.append(el("button", { id: "leave", onclick: leave }, ...both(["Rời ghế", "leave the seat to a bot"])));
  }
  if (v.game === "maubinh") return renderArrange(f, hand, extra);
  const playable = new Set();
  for (const a of legal) {
    if (a.type === "play") splitCards(a.cards).forEach((c) => playable.add(c));
    if (a.type === "discard") playable.add(a.card);
  }
  const canPlay = !f.forced && legal.some((a) => a.type === "play");
  const discards = f.forced ? [] : legal.filter((a) => a.type === "discard"); // Tứ Sắc: a click selects, a button discards
  for (const c of S.selected) if (!v.hand.includes(c)) S.selected.delete(c);
  if (!canPlay) S.selected.clear();
  if (!discards.some((a) => a.card === S.pick)) S.pick = null;
  let picked = false;
  v.hand.forEach((c, k) => {
    const node = drawCard(c);
    if (playable.size && !f.forced) node.classList.add(playable.has(c) ? "legal" : "dim"); // lit only when it is yours to play
    if (S.selected.has(c) || (c === S.pick && !picked)) node.classList.add("selected"); // one of two identical pieces
    if (c === S.pick) picked = true;
    node.dataset.index = String(k);
    node.addEventListener("click", () => {
      if (discards.length) {
        S.pick = S.pick !== c && discards.some((a) => a.card === c) ? c : null;
        renderMine(S.frame);
        return;
      }
      if (!canPlay) return;
      if (S.selected.has(c)) S.selected.delete(c); else S.selected.add(c);
      renderMine(S.frame);
    });
    hand.append(node);
  });
  if (canPlay) {
    const chosen = [...S.selected];
    const match = legal.find((a) => a.type === "play" && sameCards(splitCards(a.cards), chosen));
    const key = chosen.slice().sort().join(" ");
    if (!chosen.length || match) { S.why = ""; S.whyFor = ""; }
    else if (S.whyFor !== key + "@" + f.seq) { // ask the engine why (explain), once per selection
      S.whyFor = key + "@" + f.seq; S.why = "";
      S.whyAsk = send({ type: "explain", action: { type: "play", cards: v.hand.filter((x) => S.selected.has(x)).join(" ") } });
    }
    extra.append(el("button", { class: "primary", id: "play-selected", disabled: match ? null : true, onclick: () => { S.selected.clear(); act(match); } },
      ...both(["Đánh", "play the selected cards"])), " ",
      el("button", { id: "clear-selection", onclick: () => { S.selected.clear(); renderMine(S.frame); } }, ...both(["Bỏ chọn", "clear"])), " ",
      el("button", { id: "hint", onclick: () => { // cycle through the legal plays, the engine's order
        const plays = legal.filter((a) => a.type === "play");
        const at = plays.findIndex((a) => sameCards(splitCards(a.cards), chosen));
        S.selected = new Set(splitCards(plays[(at + 1) % plays.length].cards)); renderMine(S.frame); } }, ...both(["Gợi ý", "suggest a play"])));
  }
  if (discards.length) {
    const chosen = discards.find((a) => a.card === S.pick);
    extra.append(el("div", { class: "help", id: "discard-help", text: sayText("select_to_discard") }),
      el("button", { class: "primary", id: "discard-selected", disabled: chosen ? null : true, onclick: () => { S.pick = null; act(chosen); } },
        ...say("discard_selected"), chosen ? " " : null, chosen ? drawCard(chosen.card, { small: true }) : null));
  }
  extra.append(el("div", { class: "why", id: "why" }));
  renderWhy();
}

// Mậu Binh: the rows the player is placing, kept by the page across a reload
// (sessionStorage, keyed by table, seat and hand) while the arrangement clock runs on.
function rowsKey(f) { return "vncards:rows:" + TABLE_ID + ":" + f.seat + ":" + f.generation + ":" + f.table.hand_number; }

function setRows(rows, target) {
  S.rows = rows; S.foulArmed = false;
  if (target !== undefined) S.target = target;
  if (S.rowsFor) sessionStorage.setItem(S.rowsFor, JSON.stringify({ rows: S.rows, target: S.target }));
  askCategories();
  renderMine(S.frame);
}

function askCategories() { // each full row's category and whether the rows foul, from the server
  const rows = S.rows.map((r) => r.join(" "));
  S.cats = null;
  if (!S.rows.some((r, k) => r.length === [5, 5, 3][k])) { S.catAsk = null; return; }
  S.catAsk = send({ type: "categorize", rows });
}

function renderArrange(f, hand, extra) {
  const v = f.view, legal = f.legal_actions;
  const key = rowsKey(f);
  if (S.rowsFor !== key) {
    S.rowsFor = key; S.target = 0; S.cats = null; S.foulArmed = false;
    const kept = JSON.parse(sessionStorage.getItem(key) || "null"), held = new Set(v.hand);
    if (kept && kept.rows.flat().every((c) => held.has(c))) { S.rows = kept.rows; S.target = kept.target || 0; }
    else S.rows = v.arrangement ? v.arrangement.map(splitCards) : [[], [], []];
    if (!v.reveal) askCategories();
  }
  if (v.reveal) { sessionStorage.removeItem(key); return; } // the showdown on the felt shows every seat's hands
  const placed = new Set(S.rows.flat());
  for (const c of v.hand) if (!placed.has(c)) {
    const node = drawCard(c);
    node.classList.add("legal");
    node.addEventListener("click", () => {
      const sizes = [5, 5, 3];
      let r = S.target;
      if (S.rows[r].length >= sizes[r]) r = [0, 1, 2].find((k) => S.rows[k].length < sizes[k]);
      if (r === undefined) return;
      setRows(S.rows.map((row, k) => (k === r ? [...row, c] : row)));
    });
    hand.append(node);
  }
  const cats = S.cats || {};
  const rows = el("div", { class: "rows" + (cats.fouled ? " fouled" : ""), id: "rows" });
  rows.append(el("div", { class: "hint", text: sayText("placing") }));
  [0, 1, 2].forEach((r) => {
    const category = cats.categories && cats.categories[r];
    const row = el("div", { class: "row" + (r === S.target ? " target" : ""), "data-row": r },
      el("span", { class: "rowname", onclick: () => setRows(S.rows, r) }, ...both(rowName(r))));
    for (const c of S.rows[r]) {
      const node = drawCard(c);
      node.addEventListener("click", () => setRows(S.rows.map((x, k) => (k === r ? x.filter((y) => y !== c) : x))));
      row.append(node);
    }
    row.append(el("span", { class: "category", "data-category": category || "", text: category ? term(category) : "" }));
    rows.append(row);
  });
  if (cats.fouled) rows.append(el("div", { class: "foul-warning", id: "foul-warning" }, ...say("fouled_now")));
  extra.append(rows);
  const suggestion = legal.find((a) => a.type === "arrange");
  const ready = S.rows[0].length === 5 && S.rows[1].length === 5 && S.rows[2].length === 3;
  const open = legal.length > 0;
  extra.append(
    el("button", { id: "suggest", disabled: suggestion ? null : true, onclick: () =>
      setRows([splitCards(suggestion.back), splitCards(suggestion.middle), splitCards(suggestion.front)]) },
      ...both(["Gợi ý", "the solver's arrangement"])), " ",
    el("button", { id: "clear-rows", disabled: open ? null : true, onclick: () => setRows([[], [], []], 0) }, ...both(["Xếp lại", "start over"])), " ",
    el("button", { class: "primary", id: "arrange", disabled: ready && open ? null : true, onclick: () =>
      act({ type: "arrange", back: S.rows[0].join(" "), middle: S.rows[1].join(" "), front: S.rows[2].join(" ") }) },
      ...both(["Xếp bài", "arrange these hands"])));
  if (v.arrangement) extra.append(el("div", { class: "label", text: "Đã gửi (sent): " + v.arrangement.join(" | ") + (v.fouled ? " — " + term("foul") + "!" : "") }));
}

function nextHandNote(v) { // what carries to the next hand, in words
  if (v.game === "tusac" && v.result && v.result.next_dealer !== undefined && v.result.next_dealer !== null)
    return "Ván sau " + seatName(v.result.next_dealer) + " cầm cái (next hand: " + seatName(v.result.next_dealer) + " deals)";
  const first = (v.finishing_order && v.finishing_order[0]) ?? (v.out && v.out[0]);
  if ((v.game === "tienlen" || v.game === "tienlen-north" || v.game === "samloc") && first !== undefined && first !== null)
    return "Ván sau " + seatName(first) + " đi trước (next hand: " + seatName(first) + " leads)";
  return "";
}

function renderSettlement(f) {
  const box = document.getElementById("settlement"), t = f.table, v = f.view;
  box.hidden = !t.is_over;
  if (!t.is_over) return;
  const held = v.game !== "maubinh"; // Mậu Binh's showdown on the felt shows every hand
  const th = (pair) => el("th", {}, ...both(pair));
  const head = el("tr", {}, th(["Ghế", "seat"]), held ? th(["Bài còn lại", "cards held"]) : null, th(["Ván này", "this hand"]), th(["Tổng", "running total"]));
  const rows = t.seats.map((s, i) => {
    const r = (t.hand_result || [])[i] || 0;
    const cards = (v.revealed && v.revealed[i]) || (i === f.seat ? v.hand : null);
    return el("tr", { "data-seat": i }, el("td", {}, nameNode(seatName(i)), i === f.seat ? el("span", { class: "you", text: " Bạn" }) : null),
      held ? el("td", { class: "held" }, cards && cards.length ? drawCards(cards, { small: true, fan: true }) : el("span", { class: "hint", text: "—" })) : null,
      el("td", { class: r > 0 ? "pos" : r < 0 ? "neg" : "", text: (r > 0 ? "+" : "") + r }),
      el("td", { text: String(t.totals[i]) }));
  });
  const pay = el("div", { class: "payments", id: "payments" });
  for (const p of t.payments || []) pay.append(el("div", { class: "payment" }, nameNode(seatName(p.from)), " trả (pays) ", nameNode(seatName(p.to)), ": " + term(p.reason) + ": " + p.units));
  if (!(t.payments || []).length) pay.append(el("div", { class: "hint", text: "không ai trả (no payments)" }));
  const note = nextHandNote(v);
  const grouped = v.game === "maubinh" && (t.payments || []).length; // the itemised list folded under the grouped table
  box.replaceChildren(el("h2", {}, ...both(["Kết quả ván " + t.hand_number, "settlement"])), winningHand(f) || "", el("table", { class: "grid", id: "settlement-table" }, head, ...rows),
    el("h3", {}, ...both(["Thanh toán", "payments"])),
    grouped ? groupedPayments(f) : pay);
  if (grouped) box.append(el("details", { id: "payments-all" }, el("summary", {}, ...say("every_payment"), " " + t.payments.length), pay));
  if (note) box.append(el("p", { class: "carry", id: "carry", text: note })); // (replaceChildren writes a null as "null")
}

// Tứ Sắc: how the winner won, readable: the card taken and the score, the melds laid on the
// table and the hand shown at the end, split into its melds (the server's split of it).
function winningHand(f) {
  const v = f.view, t = f.table;
  const win = v.game === "tusac" && S.events.find((e) => e.type === "win" && e.hand);
  if (!win) return null;
  const meld = (m, cls) => el("span", { class: "meld " + cls, "data-meld": m.meld }, el("span", { class: "meldname", text: term(m.meld) }), drawCards(m.cards, { small: true }));
  const shown = (t.showdown && t.showdown.melds) || null;
  return el("div", { class: "winning", id: "winning-hand" }, el("h3", {}, ...say("winning_hand")),
    el("div", { class: "label" }, nameNode(seatName(win.seat)), ": " + term("win") + " ", win.card ? drawCard(win.card, { small: true }) : "",
      win.score !== undefined ? " " + win.score + " lệnh" : ""),
    el("div", { class: "win-melds", id: "win-exposed" }, ...((v.exposed || [])[win.seat] || []).map((m) => meld(m, "exposed"))),
    el("div", { class: "win-melds", id: "win-hand" }, ...(shown ? shown.map((m) => meld(m, "concealed")) : [drawCards(win.hand, { small: true })])));
}

function signed(u) { return (u > 0 ? "+" : "") + u; }

// Mậu Binh's payments as a player reads a showdown: one line per pair of players (the viewer's
// first), from the first one's side: each hand (chi), the bonuses, the net.
function groupedPayments(f) {
  const t = f.table, n = t.players, me = f.seat === null ? 0 : f.seat;
  const order = [me, ...[...Array(n).keys()].filter((i) => i !== me)];
  const th = (pair) => el("th", {}, ...both(pair));
  const heads = (WORDS.rows.length ? WORDS.rows : [["back"], ["middle"], ["front"]]).map((r) => r[0]);
  const grid = el("table", { class: "grid grouped", id: "payments-grouped" },
    el("tr", {}, th(phrase("pair")), ...[0, 1, 2].map((r) => { const [vi, en] = rowName(r); return th([vi.split(",")[0], en]); }),
      th(phrase("bonuses")), th(phrase("net"))));
  const cell = (u, extra) => el("td", { class: "num " + (u > 0 ? "pos" : u < 0 ? "neg" : ""), ...extra, text: signed(u) });
  for (let x = 0; x < n; x++) for (let y = x + 1; y < n; y++) {
    const a = order[x], b = order[y];
    const per = heads.map(() => 0), bonus = [];
    let net = 0;
    for (const p of t.payments) {
      if (!((p.from === a && p.to === b) || (p.from === b && p.to === a))) continue;
      const u = p.to === a ? p.units : -p.units, row = heads.indexOf(p.reason);
      net += u;
      if (row >= 0) per[row] += u; else bonus.push(term(p.reason) + " " + signed(u));
    }
    grid.append(el("tr", { "data-pair": a + "-" + b },
      el("td", { class: "pair" }, nameNode(seatName(a)), a === f.seat ? el("span", { class: "you", text: " Bạn" }) : null, el("br"), "– ", nameNode(seatName(b))),
      ...per.map((u, r) => cell(u, { "data-row": String(r) })),
      el("td", { class: "bonus", text: bonus.join(" · ") || "—" }), cell(net, { "data-net": "1" })));
  }
  return el("div", { class: "payments", id: "payments-by-pair" }, el("div", { class: "hint", text: sayText("by_opponent") }), grid);
}

async function leave() {
  const r = await fetch("/api/tables/" + TABLE_ID + "/leave", { method: "POST", headers: { authorization: "Bearer " + S.token } });
  const data = await r.json();
  if (!r.ok) { showError(data.message); return; }
  localStorage.removeItem("vncards:" + TABLE_ID);
  S.token = null;
  connect(); // watch on as a spectator
}

async function replaceSeat(seat, bot) {
  const r = await fetch("/api/tables/" + TABLE_ID + "/seats/" + seat, { method: "POST",
    headers: { authorization: "Bearer " + S.creator, "content-type": "application/json" }, body: JSON.stringify({ bot }) });
  const data = await r.json();
  if (!r.ok) showError(data.message);
}

async function closeTable() {
  const r = await fetch("/api/tables/" + TABLE_ID + "/close", { method: "POST", headers: { authorization: "Bearer " + S.creator } });
  if (!r.ok) showError((await r.json()).message);
}

function renderCreator(f) { // the creator's controls: hand a seat to a bot, open it, close the table
  const box = document.getElementById("creator");
  box.hidden = !S.creator || S.closed;
  if (box.hidden || box.dataset.open === "1") return; // not redrawn under an open select
  const t = f.table;
  const list = el("div", { class: "creator-seats" });
  for (const s of t.seats) {
    const sel = el("select", { "data-seat": s.seat, class: "replace-bot" });
    for (const b of S.bots) sel.append(el("option", { value: b, text: "máy " + b, selected: b === "greedy" ? true : null }));
    sel.append(el("option", { value: "", text: "mở ghế (open)" }));
    list.append(el("div", {}, "#" + s.seat + " ", nameNode(s.kind === "bot" ? "máy " + s.bot : s.kind === "open" ? "trống (open)" : s.name), " → ", sel, " ",
      el("button", { class: "replace", "data-seat": s.seat, onclick: () => replaceSeat(s.seat, sel.value || null) }, ...both(["Thay", "replace"]))));
  }
  box.replaceChildren(el("summary", {}, ...both(["Chủ bàn", "creator"])), list,
    el("button", { id: "close-table", onclick: closeTable }, ...both(["Đóng bàn", "close the table"])));
}

function renderLog() {
  const box = document.getElementById("log");
  const items = S.history.map((h, k) => [h.seq, h.rank, k, h]).sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
  const text = (h) => h.text || (h.event ? describeEvent(h.event) : describeLog(h.note));
  box.replaceChildren(...items.map((x) => el("div", { class: x[3].cls, "data-seq": String(x[0]), text: text(x[3]) })));
  box.scrollTop = box.scrollHeight;
}

setInterval(() => { // the clocks count down between frames
  for (const t of document.querySelectorAll(".timer[data-deadline]")) {
    const fresh = clockNode(Math.max(0, (Number(t.dataset.deadline) - Date.now()) / 1000), Number(t.dataset.total));
    t.className = fresh.className;
    t.replaceChildren(...fresh.childNodes);
  }
}, 500);

(async function start() {
  await WORDS_READY;
  if (S.creator) { // the creator's seat controls offer this game's bots
    const [t, games] = await Promise.all([fetch("/api/tables/" + TABLE_ID).then((r) => r.json()), fetch("/api/games").then((r) => r.json())]);
    S.bots = (games.find((g) => g.name === t.game) || { bots: [] }).bots;
  }
  document.getElementById("creator").addEventListener("toggle", (e) => { e.target.dataset.open = e.target.open ? "1" : "0"; });
  const params = new URLSearchParams(location.search), want = params.get("seat");
  if (params.has("watch")) { S.token = null; connect(); } // a spectator, even on a seat's device
  else if (S.token) connect();
  else if (want !== null && localStorage.getItem("vncards:name")) join(Number(want));
  else if (want !== null) showJoin(sayText("name_first"), Number(want)); // no name yet: ask for it
  else showJoin();
})();
