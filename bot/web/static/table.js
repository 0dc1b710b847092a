// Railyard's web table: the public table, a player's table and the replay (bot/web/server.py).
// No library: the page's words and settings come in #railyard-data, everything else from the
// table's own JSON and images. A player's token stays in the address's fragment and travels
// only in the Authorization header.
"use strict";
(() => {
  const D = JSON.parse(document.getElementById("railyard-data").textContent);
  const W = D.words;
  const root = D.base + "/g/" + D.game;
  const main = document.getElementById("main");
  const turnLine = document.getElementById("turn");
  const statusLine = document.getElementById("status");
  const found = /(?:^#|&)t=([^&]+)/.exec(location.hash);
  const token = found ? decodeURIComponent(found[1]) : null;
  // another link opened in this tab changes only the fragment: start again with its token
  window.addEventListener("hashchange", () => location.reload());
  const SVG = "http://www.w3.org/2000/svg";
  let table = null, picks = [], chosen = [], csrf = null, busy = false, urls = {}, focusNext = false;

  const el = (tag, attrs, ...kids) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "text") node.textContent = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v);
    }
    for (const kid of kids) if (kid) node.append(kid);
    return node;
  };
  const svg = (tag, attrs) => {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    return node;
  };
  const fill = (text, params) => text.replace(/\{(\w+)\}/g, (_, k) => (k in params ? params[k] : ""));
  const say = (text, bad) => { statusLine.textContent = text || ""; statusLine.classList.toggle("bad", !!bad); };
  const q = (extra) => "lang=" + D.lang + (extra || "");

  function headers(more) {
    const h = Object.assign({}, more);
    if (token) h["Authorization"] = "Bearer " + token;
    if (D.page) h["X-Railyard-Page"] = D.page;
    return h;
  }
  async function api(path, options) {
    const response = await fetch(root + path, Object.assign({ headers: headers(), cache: "no-store" }, options));
    const data = await response.json().catch(() => ({}));
    if (!response.ok) { const e = new Error(data.error || response.statusText); e.status = response.status; throw e; }
    return data;
  }
  async function image(img, path, key) {
    if (!token) { img.src = root + path; return; }
    const response = await fetch(root + path, { headers: headers(), cache: "no-store" });
    if (!response.ok) return;
    const url = URL.createObjectURL(await response.blob());
    if (urls[key]) URL.revokeObjectURL(urls[key]);
    urls[key] = url;
    img.src = url;
  }

  // ---------------------------------------------------------------- live updates (server-sent events)
  async function follow(path, onVersion) {
    for (;;) {
      try {
        const response = await fetch(root + path, { headers: headers(), cache: "no-store" });
        if (response.status === 401 || response.status === 403) { say((await response.json()).error, true); return; }
        if (!response.ok || !response.body) throw new Error(response.statusText);
        say(W["table.live"]);
        const reader = response.body.getReader();
        const text = new TextDecoder();
        let buffered = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffered += text.decode(value, { stream: true });
          let end;
          while ((end = buffered.indexOf("\n\n")) >= 0) {
            const block = buffered.slice(0, end);
            buffered = buffered.slice(end + 2);
            const data = /^data: (\d+)$/m.exec(block);
            if (/^event: version$/m.test(block) && data) onVersion(Number(data[1]));
          }
        }
      } catch (e) { /* the connection dropped: say so and come back */ }
      say(W["table.offline"], true);
      await new Promise((r) => setTimeout(r, 2000));
    }
  }

  // ---------------------------------------------------------------- the table
  const boardImg = el("img", { id: "board", alt: W["table.board"] });
  const hand = el("img", { id: "hand", alt: W["table.hand"] });
  const hits = svg("svg", { id: "hits", "aria-hidden": "false" });
  const figure = el("figure", { class: "board" }, boardImg, hits);
  const scores = el("table", { id: "scores" });
  const last = el("p", { id: "last" });
  const log = el("ol", { id: "log", reversed: "" });
  const side = el("aside", {},
    el("h2", { text: W["table.scores"] }), scores,
    el("h2", { text: W["table.last"] }), last,
    el("h2", { text: W["table.log"] }), log);

  // a line of the log with who made it, unless its words already name them
  const said = (line) => (!line.name || line.text.includes(line.name) ? line.text : line.name + ": " + line.text);

  function showTable(data) {
    table = data;
    turnLine.textContent = data.turn;
    boardImg.alt = data.alt || W["table.board"];
    if (data.hand_alt) hand.alt = data.hand_alt;
    document.getElementById("title").textContent = data.title + " · #" + data.game_id;
    scores.replaceChildren(el("tr", {}, el("th", { scope: "col", text: W["table.seat"] }),
      el("th", { scope: "col", text: W["table.score"] })));
    for (const s of data.scores) {
      const mark = data.waiting.includes(s.seat) ? "▶ " : s.rank ? s.rank + ". " : "";
      scores.append(el("tr", { class: "seat-" + s.seat }, el("th", { scope: "row", text: mark + s.name }),
        el("td", { text: String(s.score) })));
    }
    last.textContent = data.last ? said(data.last) : "";
    log.replaceChildren(...data.log.slice().reverse().map((line) =>
      el("li", { class: line.undone ? "undone" : "", text: said(line) +
        (line.undone ? " (" + W["table.undone"] + ")" : "") })));
  }

  // ---------------------------------------------------------------- spectators
  async function watch() {
    main.append(el("div", { class: "layout" }, el("section", { "aria-label": W["table.board"] }, figure), side),
      el("nav", {}, el("a", { href: root + "/replay?" + q(), text: W["table.replay"] })));
    const refresh = async () => {
      const data = await api("/table.json?" + q());
      showTable(data);
      boardImg.src = root + "/board.png?" + q("&v=" + data.version);
    };
    try { await refresh(); } catch (e) { say(e.message, true); return; }
    follow("/events", (v) => { if (!table || v !== table.version) refresh().catch((e) => say(e.message, true)); });
  }

  // ---------------------------------------------------------------- a player
  const panel = el("section", { id: "move", "aria-live": "polite" });

  async function play() {
    if (!token) { say(W["error.no_link"], true); return; }
    side.prepend(panel); // the move beside the board, where the eye is, not below it
    main.append(el("div", { class: "layout" },
      el("section", { "aria-label": W["table.board"] }, figure, el("h2", { text: W["table.hand"] }), hand), side));
    try { await load(); } catch (e) { say(e.message, true); return; }
    follow("/play/events", (v) => { if (!busy && (!table || v !== table.version)) { picks = []; chosen = []; load().catch((e) => say(e.message, true)); } });
  }

  async function load() {
    const data = await api("/play/table.json?" + q(picks.map((p) => "&p=" + encodeURIComponent(p)).join("")));
    if (data.csrf) csrf = data.csrf;
    if (data.step) picks = data.step.picks.slice(); // with the steps the menu took without asking
    const fresh = !table || table.version !== data.version;
    showTable(data);
    if (fresh) {
      await image(boardImg, "/play/board.png?" + q("&v=" + data.version), "board");
      image(hand, "/play/hand.png?" + q("&v=" + data.version), "hand");
    }
    showStep(data);
  }

  function showStep(data) {
    clearHits();
    panel.replaceChildren();
    if (focusNext) { // after a pick, the keyboard carries on in the next step
      focusNext = false;
      setTimeout(() => { const b = panel.querySelector("button, input"); if (b) b.focus(); }, 0);
    }
    if (!data.active || !data.step) {
      panel.append(el("p", { text: data.status === "active" ? W["table.not_your_turn"] : data.turn }));
      return;
    }
    const step = data.step;
    panel.append(el("h2", { text: W["table.your_move"] }));
    if (data.prompt) panel.append(el("p", { class: "prompt", text: data.prompt }));
    if (chosen.length) panel.append(el("p", { class: "trail", text: chosen.join(" → ") }));
    if (step.move) {
      panel.append(el("div", { class: "buttons" },
        el("button", { type: "button", class: "primary", onclick: () => send({ picks: step.picks }), text: W["table.confirm"] }),
        el("button", { type: "button", onclick: back, text: W["table.back"] })));
      panel.querySelector("button").focus();
      return;
    }
    if (step.question) panel.append(el("h3", { text: step.question }));
    const placed = step.options.filter((o) => o.place);
    if (placed.length) { panel.append(el("p", { class: "hint", text: W["table.places"] })); drawHits(step.options); }
    const list = el("ol", { class: "options", "aria-label": W["table.options"] });
    step.options.forEach((o, i) => list.append(el("li", {}, el("button", {
      type: "button", "data-value": o.value, onclick: () => pick(o),
      text: (o.place ? (i + 1) + " · " : "") + o.label + (o.detail ? " — " + o.detail : "") }))));
    if (step.options.length) panel.append(list);
    for (const g of step.groups) panel.append(groupForm(g, step));
    for (const a of step.amounts) panel.append(amountForm(a));
    if (picks.length) panel.append(el("button", { type: "button", onclick: back, text: W["table.back"] }));
  }

  function pick(option) {
    focusNext = true;
    picks.push(option.value);
    chosen.push(option.label);
    load().catch((e) => { picks.pop(); chosen.pop(); say(e.message, true); });
  }
  function back() {
    focusNext = true;
    picks.pop(); chosen.pop();
    load().catch((e) => say(e.message, true));
  }

  function groupForm(group, step) {
    const inputs = group.items.map((item, i) => {
      const id = "g" + group.index + "-" + i;
      return [el("label", { for: id, text: item.label }),
        el("input", { id, type: "number", min: "0", max: String(item.most), value: "0", inputmode: "numeric" })];
    });
    const form = el("form", { class: "group" }, el("h3", { text: group.question }),
      el("p", { class: "hint", text: fill(W["table.group_hint"], { min: group.min, max: group.max }) }),
      ...inputs.map(([label, input]) => el("div", { class: "row" }, label, input)),
      el("button", { type: "submit", class: "primary", text: W["table.send"] }));
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      send({ picks: step.picks, group: { index: group.index, counts: inputs.map(([, input]) => Number(input.value) || 0) } });
    });
    return form;
  }

  function amountForm(amount) {
    const id = "a" + amount.index;
    const input = el("input", { id, type: "number", min: String(amount.min), max: String(amount.max),
      step: String(amount.step), value: String(amount.min), inputmode: "numeric" });
    const form = el("form", { class: "amount" }, el("label", { for: id, text: amount.label || W["table.amount"] }), input,
      el("button", { type: "submit", class: "primary", text: W["table.send"] }));
    form.addEventListener("submit", (ev) => { ev.preventDefault(); send({ amount: { index: amount.index, value: Number(input.value) } }); });
    return form;
  }

  async function send(body) {
    if (busy) return;
    busy = true;
    body.version = table.version;
    try {
      await api("/play/move?" + q(), { method: "POST", body: JSON.stringify(body),
        headers: headers({ "Content-Type": "application/json", "X-Railyard-CSRF": csrf || "" }) });
      say(W["table.moved"]);
    } catch (e) {
      say(e.message, true);
    } finally {
      busy = false;
      picks = []; chosen = [];
      load().catch((e) => say(e.message, true));
    }
  }

  // ---------------------------------------------------------------- places on the board
  function clearHits() { hits.replaceChildren(); hits.classList.remove("on"); }

  function drawHits(options) {
    const width = boardImg.naturalWidth || (table.size && table.size[0]);
    const height = boardImg.naturalHeight || (table.size && table.size[1]);
    if (!width || !height) return;
    hits.setAttribute("viewBox", "0 0 " + width + " " + height);
    hits.classList.add("on");
    hits.classList.toggle("dark", !!table.dark);
    const byPlace = new Map();
    options.forEach((o, i) => {
      if (!o.place) return;
      const at = o.place.at;
      if (!byPlace.has(at)) byPlace.set(at, []);
      byPlace.get(at).push([o, i]);
    });
    // badges as large as the board allows, but never over each other: under half the nearest gap
    const spots = [...byPlace.values()].map((here) => here[0][0].place.spot);
    let gap = Infinity;
    for (let a = 0; a < spots.length; a++)
      for (let b = a + 1; b < spots.length; b++)
        gap = Math.min(gap, Math.hypot(spots[a][0] - spots[b][0], spots[a][1] - spots[b][1]) || Infinity);
    const r = Math.max(6, Math.min(width / 70, gap * 0.45));
    for (const [, here] of byPlace) {
      const place = here[0][0].place;
      const label = here.map(([o]) => o.label).join(" / ");
      const g = svg("g", { class: "hit", tabindex: "0", role: "button", "aria-label": label });
      g.append(svg("title", {})); g.lastChild.textContent = label;
      if (place.outline.length) g.append(svg("polygon", { points: place.outline.map((p) => p.join(",")).join(" "), class: "area" }));
      if (place.line.length) {
        const points = place.line.map((p) => p.join(",")).join(" ");
        g.append(svg("polyline", { points, class: "reach" }), svg("polyline", { points, class: "trace" }));
      }
      const [x, y] = place.spot;
      g.append(svg("circle", { cx: x, cy: y, r, class: "badge" }));
      const number = svg("text", { x, y, class: "number", "font-size": r * 1.1, "text-anchor": "middle", "dominant-baseline": "central" });
      number.textContent = here.map(([, i]) => i + 1).join(",").slice(0, 5);
      g.append(number);
      const open = () => atPlace(here);
      g.addEventListener("click", open);
      g.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); open(); } });
      hits.append(g);
    }
  }

  function atPlace(here) {
    if (here.length === 1) { pick(here[0][0]); return; }
    const box = el("div", { class: "at-place", role: "group", "aria-label": W["table.at_place"] },
      el("h3", { text: W["table.at_place"] }));
    for (const [o, i] of here) box.append(el("button", { type: "button", onclick: () => pick(o),
      text: (i + 1) + " · " + o.label + (o.detail ? " — " + o.detail : "") }));
    const old = panel.querySelector(".at-place");
    if (old) old.remove();
    panel.prepend(box);
    box.querySelector("button").focus();
  }

  // ---------------------------------------------------------------- the replay
  async function replay() {
    let frames = [], timer = null;
    const slider = el("input", { id: "step", type: "range", min: "0", max: "0", value: "0" });
    const caption = el("p", { id: "frame", "aria-live": "polite" });
    const chart = el("img", { id: "chart", alt: W["replay.chart"] });
    chart.addEventListener("error", () => chart.remove());
    const go = (n) => { slider.value = String(Math.max(0, Math.min(frames.length - 1, n))); show(); };
    const show = () => {
      const n = Number(slider.value), f = frames[n];
      caption.textContent = fill(W["replay.step"], { step: n, total: frames.length - 1 }) + " — " + f.text;
      slider.setAttribute("aria-valuetext", caption.textContent);
      clearTimeout(timer);
      say(W["replay.loading"]);
      timer = setTimeout(() => { boardImg.src = root + "/replay/" + n + ".png?" + q(); }, 120);
    };
    boardImg.addEventListener("load", () => say(""));
    slider.addEventListener("input", show);
    const controls = el("div", { class: "controls" },
      el("button", { type: "button", id: "first", onclick: () => go(0), text: "⏮ " + W["replay.first"] }),
      el("button", { type: "button", id: "previous", onclick: () => go(Number(slider.value) - 1), text: "◀ " + W["replay.previous"] }),
      el("label", { for: "step", class: "visually-hidden", text: W["table.replay"] }), slider,
      el("button", { type: "button", id: "next", onclick: () => go(Number(slider.value) + 1), text: W["replay.next"] + " ▶" }),
      el("button", { type: "button", id: "last", onclick: () => go(frames.length - 1), text: W["replay.last"] + " ⏭" }));
    main.append(el("div", { class: "layout" }, el("section", {}, controls, caption, figure),
      el("aside", {}, el("h2", { text: W["replay.chart"] }), chart)),
      el("nav", {}, el("a", { href: root + "?" + q(), text: W["table.watch"] })));
    try {
      const data = await api("/replay.json?" + q());
      frames = data.frames;
      document.getElementById("title").textContent = data.title + " · #" + data.game_id;
      slider.max = String(frames.length - 1);
      chart.src = root + "/chart.png?" + q("&v=" + data.version);
      go(frames.length - 1);
    } catch (e) { say(e.message, true); }
  }

  ({ watch, play, replay })[D.mode]();
})();
