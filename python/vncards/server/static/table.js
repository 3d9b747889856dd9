// The browser table: one WebSocket, one state frame per change; every move is one "act" frame.
"use strict";
const TABLE_ID = location.pathname.split("/").pop();
const S = { token: localStorage.getItem("vncards:" + TABLE_ID), seat: null, ws: null, frame: null, events: [], log: [],
            generation: null, selected: new Set(), rows: [[], [], []], target: 0, rowsFor: null, nextId: 1, received: 0, retries: 0 };

function seatName(i) {
  const t = S.frame && S.frame.table;
  return t ? "#" + i + " " + t.seats[i].name : "#" + i;
}

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
  connect();
}

async function showJoin(message) {
  const box = document.getElementById("joinbox");
  box.hidden = false;
  box.replaceChildren(el("h2", {}, ...both(["Chọn ghế", "pick a seat"])));
  if (message) box.append(el("div", { class: "error", text: message }));
  const tables = await (await fetch("/api/tables")).json();
  const t = tables.find((x) => x.id === TABLE_ID);
  if (!t) { box.append(el("p", { text: "Không có bàn này (no such table)." })); return; }
  box.append(el("label", {}, "Tên của bạn ", el("span", { class: "hint", text: "(your name) " }),
    el("input", { id: "join-name", maxlength: "32", value: localStorage.getItem("vncards:name") || "" })), " ");
  for (const s of t.seats) {
    if (s.kind === "player") continue;
    box.append(el("button", { class: "join", "data-seat": s.seat, onclick: () => join(s.seat) },
      "Ngồi ghế #" + s.seat + " ", el("span", { class: "hint", text: "(sit" + (s.kind === "bot" ? ", replacing bot " + s.bot : "") + ")" })), " ");
  }
  box.append(el("button", { id: "watch", onclick: () => { box.hidden = true; S.token = null; connect(); } }, ...both(["Xem", "watch"])));
}

function connect() {
  if (S.ws) { S.ws.onclose = null; S.ws.close(); }
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws/" + TABLE_ID);
  S.ws = ws;
  ws.onopen = () => { S.retries = 0; ws.send(JSON.stringify({ type: "hello", token: S.token, id: S.nextId++ })); };
  ws.onmessage = (m) => onFrame(JSON.parse(m.data));
  ws.onclose = () => { setStatus("mất kết nối (disconnected) — đang nối lại (reconnecting)…"); setTimeout(connect, Math.min(8000, 500 * 2 ** S.retries++)); };
}

function send(msg) {
  msg.id = S.nextId++;
  document.getElementById("err").textContent = "";
  S.ws.send(JSON.stringify(msg));
}

function act(action) { send({ type: "act", action }); }

function onFrame(f) {
  if (f.type === "error") {
    document.getElementById("err").textContent = "Lỗi (error) " + f.code + ": " + f.message;
    if (f.code === "bad_token") { localStorage.removeItem("vncards:" + TABLE_ID); S.token = null; showJoin(); }
    if (["table_closed", "table_broken", "replaced", "no_table"].includes(f.code) && S.ws) S.ws.onclose = null; // no reconnecting
    return;
  }
  if (f.type === "presence") {
    if (S.frame) { S.frame.table.spectators = f.spectators; f.connected.forEach((c, i) => { S.frame.table.seats[i].connected = c; }); render(); }
    return;
  }
  if (f.type !== "state") return;
  if (f.generation !== S.generation || f.events_from === 0) { S.events = []; S.generation = f.generation; }
  S.events = S.events.slice(0, f.events_from).concat(f.events);
  for (const e of f.log) if (!S.log.length || e.n > S.log[S.log.length - 1].n) S.log.push(e);
  S.frame = f; S.seat = f.seat; S.received = Date.now();
  render();
}

function setStatus(text) { document.getElementById("status").textContent = text; }

// -- rendering --------------------------------------------------------------------------------

function render() {
  const f = S.frame, v = f.view, t = f.table;
  const names = VN.games[t.game] || [t.title, t.game];
  document.title = names[0] + " — vncards";
  document.getElementById("title").replaceChildren(...both(names));
  document.getElementById("handno").textContent = "Ván (hand) " + t.hand_number + " · người xem (spectators) " + (t.spectators || 0);
  const pending = v.pending_seats || [];
  setStatus(t.is_over ? "Hết ván (hand over)" : S.seat !== null && pending.includes(S.seat) ? "Đến lượt bạn (your turn)" :
    "Chờ (waiting for) " + pending.map(seatName).join(", "));
  document.body.dataset.over = t.is_over ? "1" : "0";
  document.body.dataset.game = t.game;
  document.body.dataset.seq = String(f.seq);
  renderSeats(f);
  renderCenter(f);
  renderMine(f);
  renderSettlement(f);
  renderLog(f);
}

function renderSeats(f) {
  const v = f.view, t = f.table, box = document.getElementById("seats");
  box.replaceChildren();
  for (let i = 0; i < t.players; i++) {
    const s = t.seats[i];
    const kind = s.kind === "bot" ? "máy (bot) " + s.bot : s.kind === "open" ? "trống (open)" : "người (player)";
    const d = el("div", { class: "seat" + ((v.pending_seats || []).includes(i) ? " turn" : "") + (i === f.seat ? " me" : ""), "data-seat": i },
      el("div", { class: "name", text: seatName(i) + (i === f.seat ? " — bạn (you)" : "") }),
      el("div", { class: "meta", text: kind + " · tổng (total): " + t.totals[i] }));
    const left = t.time_left[String(i)];
    if (left !== undefined) d.append(el("div", { class: "timer", "data-deadline": String(S.received + left * 1000), text: "⏱ " + Math.ceil(left) + " s" }));
    const count = (v.hand_counts || [])[i];
    if (count !== undefined && i !== f.seat) d.append(el("div", { class: "meta", text: "còn (cards) " + count }), cardBacks(count));
    if (v.game === "tusac" && v.exposed) {
      const melds = el("div", { class: "melds" });
      for (const m of v.exposed[i]) melds.append(el("span", { class: "meld", title: (VN.melds[m.meld] || [m.meld])[0] }, drawCards(m.cards, { small: true })));
      d.append(melds);
    }
    if (v.game === "maubinh") {
      const st = v.forfeited && v.forfeited[i] ? "chịu thua (forfeited)" : v.confirmed[i] ? "đã xác nhận (confirmed)" : v.arranged[i] ? "đã xếp (arranged)" : "đang xếp (arranging)";
      d.append(el("div", { class: "meta", text: st }));
      if (v.reveal) for (const row of v.reveal.arrangements[i]) d.append(el("div", {}, drawCards(splitCards(row), { small: true })));
      if (v.reveal && v.reveal.fouled[i]) d.append(el("div", { class: "neg", text: "binh lủng (fouled)" }));
      if (v.reveal && v.reveal.instants[i]) d.append(el("div", { class: "pos", text: "mậu binh trắng (instant win): " + v.reveal.instants[i] }));
    }
    if (v.played && v.out && v.out.includes(i)) d.append(el("div", { class: "pos", text: "đã về (out)" }));
    box.append(d);
  }
}

function renderCenter(f) {
  const v = f.view, box = document.getElementById("center");
  box.replaceChildren();
  if (v.game === "tusac") {
    if (v.offer) {
      const src = v.offer.source === "stock" ? "lật từ nọc (turned up from the stock)" : "đánh ra (discarded)";
      box.append(el("div", { class: "offer", id: "offer" }, el("div", { class: "label", text: seatName(v.offer.seat) + " " + src }),
        drawCard(v.offer.card)));
      if (v.phase === "claim") box.append(el("div", { class: "label", text: "Cửa ăn (claim window): " + (v.pending_seats || []).map(seatName).join(", ") }));
    }
    box.append(el("div", { class: "label", text: "Nọc (stock): " + v.stock + " lá" }));
    if (v.dead.length) box.append(el("div", { class: "label", text: "Bài chết (dead cards):" }), drawCards(v.dead.slice(-16), { small: true }));
    return;
  }
  if (v.game === "maubinh") {
    box.append(el("div", { class: "label", text: v.is_over ? "So bài (showdown)" : "Xếp 13 lá thành 3 chi trong " + v.time_limit + " giây (arrange 13 cards into three rows)" }));
    return;
  }
  if (v.phase === "bao_sam") box.append(el("div", { class: "label", text: "Báo Sâm? (declare Sâm: promise to go out without being beaten)" }));
  if (v.sam_declarer !== null && v.sam_declarer !== undefined) box.append(el("div", { class: "label", text: seatName(v.sam_declarer) + " báo Sâm (declared Sâm)" }));
  if (v.table) {
    const kind = VN.combos[v.table.kind] || [v.table.kind, v.table.kind];
    box.append(el("div", { class: "label" }, seatName(v.table.seat) + " — " + kind[0] + " ", el("span", { class: "hint", text: "(" + kind[1] + ")" })),
      el("div", { id: "tablecards" }, drawCards(v.table.cards)));
  } else if (!v.is_over) box.append(el("div", { class: "label", text: "Bàn trống — đi tự do (empty table: lead anything)" }));
  if (v.must_include && v.must_include.length) box.append(el("div", { class: "label", text: "Phải đánh kèm (must include): " + v.must_include.join(" ") }));
}

function actionLabel(a) {
  switch (a.type) {
    case "play": return ["Đánh (play) ", drawCards(splitCards(a.cards), { small: true })];
    case "pass": return both(["Bỏ lượt", "pass"]);
    case "declare_sam": return both(["Báo Sâm", "declare Sâm"]);
    case "decline_sam": return both(["Không báo", "no Sâm"]);
    case "arrange": return both(["Xếp như gợi ý", "arrange as the solver suggests"]);
    case "confirm": return both(["Xác nhận", "confirm"]);
    case "forfeit": return both(["Chịu thua", "forfeit"]);
    case "auto_arrange": return both(["Máy xếp", "auto arrange"]);
    case "discard": return ["Đánh ra (discard) ", drawCard(a.card, { small: true })];
    case "claim": {
      const m = VN.melds[a.meld] || [a.meld, a.meld];
      return ["Ăn (claim) " + m[0] + " ", el("span", { class: "hint", text: "(" + m[1] + ") " }), drawCards(a.cards, { small: true })];
    }
    case "win": return both(["Ù", "win"]);
    default: return [JSON.stringify(a)];
  }
}

function sameCards(a, b) { return a.length === b.length && [...a].sort().join(" ") === [...b].sort().join(" "); }

function renderMine(f) {
  const v = f.view, legal = f.legal_actions;
  const mine = document.getElementById("mine");
  mine.hidden = f.seat === null;
  if (f.seat === null) return;
  const hand = document.getElementById("hand"), extra = document.getElementById("extra"), acts = document.getElementById("actions");
  hand.replaceChildren(); extra.replaceChildren(); acts.replaceChildren();
  if (f.forced) // the table makes a forced move itself after a short pause: nothing to click
    acts.append(el("div", { class: "forced", id: "forced" }, "Nước bắt buộc ", el("span", { class: "hint", text: "(forced move, made for you) " }), ...actionLabel(f.forced.action)));
  else legal.forEach((a, i) => acts.append(el("button", { class: "act", "data-action": i, "data-type": a.type, onclick: () => act(a) }, ...actionLabel(a))));
  if (f.table.is_over) acts.append(el("button", { class: "primary", id: "next-hand", onclick: () => send({ type: "next_hand" }) }, ...both(["Ván mới", "next hand"])));
  if (v.game === "maubinh") return renderArrange(f, hand, extra);
  const playable = new Set();
  for (const a of legal) {
    if (a.type === "play") splitCards(a.cards).forEach((c) => playable.add(c));
    if (a.type === "discard") playable.add(a.card);
  }
  for (const c of S.selected) if (!v.hand.includes(c)) S.selected.delete(c);
  for (const c of v.hand) {
    const node = drawCard(c);
    node.classList.add(playable.has(c) ? "legal" : "dim");
    if (S.selected.has(c)) node.classList.add("selected");
    node.addEventListener("click", () => {
      const discard = legal.find((a) => a.type === "discard" && a.card === c);
      if (discard) { act(discard); return; }
      if (S.selected.has(c)) S.selected.delete(c); else S.selected.add(c);
      renderMine(S.frame);
    });
    hand.append(node);
  }
  if (legal.some((a) => a.type === "play")) {
    const match = legal.find((a) => a.type === "play" && sameCards(splitCards(a.cards), [...S.selected]));
    extra.append(el("button", { class: "primary", id: "play-selected", disabled: match ? null : true, onclick: () => { S.selected.clear(); act(match); } },
      ...both(["Đánh bài đã chọn", "play the selected cards"])), " ",
      el("button", { id: "clear-selection", onclick: () => { S.selected.clear(); renderMine(S.frame); } }, ...both(["Bỏ chọn", "clear"])));
  }
}

function renderArrange(f, hand, extra) {
  const v = f.view, legal = f.legal_actions;
  const key = f.generation + ":" + f.table.hand_number;
  if (S.rowsFor !== key) {
    S.rowsFor = key; S.target = 0;
    S.rows = v.arrangement ? v.arrangement.map(splitCards) : [[], [], []];
  }
  const placed = new Set(S.rows.flat());
  for (const c of v.hand) if (!placed.has(c)) {
    const node = drawCard(c);
    node.classList.add("legal");
    node.addEventListener("click", () => {
      const sizes = [5, 5, 3];
      let r = S.target;
      if (S.rows[r].length >= sizes[r]) r = [0, 1, 2].find((k) => S.rows[k].length < sizes[k]);
      if (r === undefined) return;
      S.rows[r].push(c);
      renderMine(S.frame);
    });
    hand.append(node);
  }
  const rows = el("div", { class: "rows" });
  VN.rows.forEach((name, r) => {
    const row = el("div", { class: "row" + (r === S.target ? " target" : ""), "data-row": r },
      el("span", { class: "rowname", onclick: () => { S.target = r; renderMine(S.frame); } }, ...both(name)));
    for (const c of S.rows[r]) {
      const node = drawCard(c);
      node.addEventListener("click", () => { S.rows[r] = S.rows[r].filter((x) => x !== c); renderMine(S.frame); });
      row.append(node);
    }
    rows.append(row);
  });
  extra.append(rows);
  const suggestion = legal.find((a) => a.type === "arrange");
  const ready = S.rows[0].length === 5 && S.rows[1].length === 5 && S.rows[2].length === 3;
  const open = legal.length > 0;
  extra.append(
    el("button", { id: "suggest", disabled: suggestion ? null : true, onclick: () => {
      S.rows = [splitCards(suggestion.back), splitCards(suggestion.middle), splitCards(suggestion.front)]; renderMine(S.frame); } },
      ...both(["Gợi ý", "the solver's suggestion"])), " ",
    el("button", { id: "clear-rows", disabled: open ? null : true, onclick: () => { S.rows = [[], [], []]; S.target = 0; renderMine(S.frame); } }, ...both(["Xếp lại", "start over"])), " ",
    el("button", { class: "primary", id: "arrange", disabled: ready && open ? null : true, onclick: () =>
      act({ type: "arrange", back: S.rows[0].join(" "), middle: S.rows[1].join(" "), front: S.rows[2].join(" ") }) },
      ...both(["Xếp bài", "arrange these rows"])));
  if (v.arrangement) extra.append(el("div", { class: "label", text: "Đã gửi (sent): " + v.arrangement.join(" | ") + (v.fouled ? " — binh lủng (fouled)!" : "") }));
}

function renderSettlement(f) {
  const box = document.getElementById("settlement"), t = f.table;
  box.hidden = !t.is_over;
  if (!t.is_over) return;
  const head = el("tr", {}, el("th", { text: "Ghế (seat)" }), el("th", { text: "Ván này (this hand)" }), el("th", { text: "Tổng (running total)" }));
  const rows = t.seats.map((s, i) => {
    const r = (t.hand_result || [])[i] || 0;
    return el("tr", { "data-seat": i }, el("td", { text: seatName(i) }), el("td", { class: r > 0 ? "pos" : r < 0 ? "neg" : "", text: (r > 0 ? "+" : "") + r }),
      el("td", { text: String(t.totals[i]) }));
  });
  const pay = el("div", { class: "log" });
  for (const p of t.payments || []) pay.append(el("div", { text: seatName(p.from) + " → " + seatName(p.to) + ": " + p.units + " — " + term(p.reason) }));
  box.replaceChildren(el("h2", {}, ...both(["Kết quả ván " + t.hand_number, "settlement"])), el("table", { class: "grid", id: "settlement-table" }, head, ...rows),
    el("h2", { style: "margin-top:.6rem" }, ...both(["Thanh toán", "payments"])), pay);
}

function describeEvent(e) {
  const who = (s) => seatName(s);
  switch (e.type) {
    case "deal": return "Chia bài (deal)" + (e.hand_number ? " — ván " + e.hand_number : "");
    case "lead": return who(e.seat) + " đi trước (leads)" + (e.must_include ? " — kèm " + e.must_include : "");
    case "play": return who(e.seat) + " đánh (plays) " + ((VN.combos[e.combo] || [e.combo])[0] || "") + " " + e.cards;
    case "pass": return e.seat === undefined ? "Bỏ qua (pass)" : who(e.seat) + " bỏ lượt (passes)";
    case "new_round": return "Vòng mới (new round): " + who(e.leader);
    case "out": return who(e.seat) + " về thứ " + e.place + " (finishes " + e.place + ")";
    case "hand_end": return "Hết ván (hand over): " + (e.winner !== null && e.winner !== undefined ? who(e.winner) + " thắng (wins)" : "hòa (drawn)");
    case "declare_sam": return who(e.seat) + " báo Sâm (declares Sâm)";
    case "decline_sam": return who(e.seat) + " không báo Sâm (no Sâm)";
    case "arranged": return who(e.seat) + " đã xếp bài (arranged)";
    case "confirmed": return who(e.seat) + " xác nhận (confirmed)";
    case "reveal": return "Lật bài (reveal)";
    case "settle": return "Tính tiền (settle): " + (e.totals || e.settlement || []).join(" / ");
    case "discard": return who(e.seat) + " đánh ra (discards) " + pieceName(e.card);
    case "turn_up": return who(e.seat) + " lật (turns up) " + pieceName(e.card);
    case "claim": return who(e.seat) + " ăn (claims) " + pieceName(e.card) + " — " + (VN.melds[e.meld] || [e.meld])[0];
    case "dead": return "Bài chết (dead): " + pieceName(e.card);
    case "quan": return who(e.seat) + " quằn (quad) " + pieceName(e.card);
    case "win": return who(e.seat) + " ù (wins), " + e.score + " điểm";
    case "draw": return "Hòa (hand drawn)";
    default: return term(e.type) + (e.seat !== undefined ? ": " + who(e.seat) : "") + (e.units !== undefined ? " — " + e.units : "");
  }
}

function describeLog(e) {
  switch (e.type) {
    case "join": return seatName(e.seat) + " vào bàn (joined)";
    case "timeout": return "Hết giờ (time out): " + seatName(e.seat) + " — máy " + e.bot + " đánh thay (a bot acted: " + e.action + ")";
    case "hand_start": return "Bắt đầu ván " + e.hand + " (hand " + e.hand + " begins)";
    case "hand_over": return "Kết thúc ván " + e.hand + " (hand over): " + e.result.join(" / ");
    default: return JSON.stringify(e);
  }
}

function renderLog() {
  const box = document.getElementById("log");
  const items = S.log.map((e) => [e.seq, 0, e.n, el("div", { class: e.type, text: "• " + describeLog(e) })]);
  box.replaceChildren(...S.events.map((e) => el("div", { text: describeEvent(e) })).concat(items.map((x) => x[3])));
  box.scrollTop = box.scrollHeight;
}

setInterval(() => {
  for (const t of document.querySelectorAll(".timer[data-deadline]")) t.textContent = "⏱ " + Math.max(0, Math.ceil((Number(t.dataset.deadline) - Date.now()) / 1000)) + " s";
}, 500);

(function start() {
  const want = new URLSearchParams(location.search).get("seat");
  if (S.token) connect();
  else if (want !== null) join(Number(want));
  else showJoin();
})();
