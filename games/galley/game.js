// Galley Rush: a point-and-click kitchen. Customers at the hatch order burgers, salads, fries and soup;
// the cook fetches from the crates, chops at the board, cooks on the grill, in the pot and in the fryer,
// assembles on the two plates of the pass and hands the dish over before the customer's patience runs out.
// Every failed order costs a star; with the third star gone the shift is over.
// Rules of the platform: logic in fixed 1/60 s ticks from the rAF clock, chance only from Math.random
// (all drawn at the start of a shift, in a fixed order), integer state, no drawing while
// window.__gameworld.rendering is false, first frame drawn before actionable, reset() redraws.
(function () {
  "use strict";

  var W = 480, H = 360;
  var TICK_MS = 1000 / 60;
  var MAX_CATCH_UP = 600;

  // ---- layout (canvas pixels) ----
  var HUD_H = 26;
  var SLOT_X = 62, SLOT_DX = 118, SLOT_Y = 63, SLOT_W = 110, SLOT_TOP = 30, SLOT_BOT = 98;
  var COL_X = 40, COL_DX = 80, BOX_W = 72;
  var TOP_Y = 132, TOP_T = 106, TOP_B = 160;       // back counter: crates and the bin
  var BOT_Y = 324, BOT_T = 294, BOT_B = 356;       // front counter: board, grill, pot, fryer, plates
  var STAND_TOP = 186, STAND_BOT = 266;
  var SPEED = 16;                                   // cook px per tick on each axis
  var QUEUE_MAX = 3;

  // ---- rules ----
  var CRATES = ["bun", "patty", "lettuce", "tomato", "potato"];   // col 5 of the back counter is the bin
  var STATIONS = ["board", "grill", "pot", "fryer", "plate", "plate"];
  var CHOP_TICKS = 18;
  var GRILL_COOK = 180, GRILL_BURN = 300;
  var POT_COOK = 240, POT_BURN = 360;
  var FRY_COOK = 150, FRY_BURN = 300;
  var DISHES = ["burger", "salad", "fries", "soup"];
  var RECIPE = { burger: ["bun", "patty_cooked"], salad: ["lettuce_chopped", "tomato_chopped"],
                 fries: ["fries"], soup: ["soup"] };
  var PRICE = { burger: 10, salad: 8, fries: 6, soup: 12 };
  var PATIENCE = { burger: 780, salad: 780, fries: 720, soup: 900 };
  var LABEL = { burger: "Burger", salad: "Salad", fries: "Fries", soup: "Soup" };
  var STARS = 3, SLOTS = 4, ORDERS_PLANNED = 40;
  var FIRST_ORDER = 20, GAP_MIN = 100, GAP_SPREAD = 91;
  var CHOPPED = { lettuce: "lettuce_chopped", tomato: "tomato_chopped", potato: "potato_chopped" };

  var canvas = document.getElementById("game");
  var ctx = canvas.getContext("2d");
  var g = null;
  var lastTs = null, acc = 0;

  function randomInt(lo, hi) { return lo + Math.floor(Math.random() * (hi - lo + 1)); }

  function newGame() {
    var plan = [], i, prev = null;
    for (i = 0; i < ORDERS_PLANNED; i++) {
      var d = DISHES[randomInt(0, 3)];
      if (d === prev && d === "soup") d = DISHES[randomInt(0, 2)];
      // the seat is drawn too: a memorised run carries its plates to places where nobody waits
      plan.push({ dish: d, gap: GAP_MIN + randomInt(0, GAP_SPREAD - 1), seat: randomInt(0, SLOTS - 1) });
      prev = d;
    }
    g = {
      tick: 0, over: false, coins: 0, served: 0, tips: 0, failed: 0, stars: STARS, streak: 0, best_streak: 0,
      plan: plan, nextOrder: 0, nextAt: FIRST_ORDER, orderId: 0,
      orders: [null, null, null, null],
      cook: { x: 240, y: 226, busy: 0, chopping: null, queue: [], face: 1 },
      hold: "none", holdPlate: -1,
      plates: [{ items: [], where: "pass" }, { items: [], where: "pass" }],
      grill: { item: "none", t: 0 }, pot: { count: 0, t: 0, state: "empty" }, fryer: { item: "none", t: 0 },
      msg: "", msgT: 0, pops: [], flash: 0, hurt: 0
    };
  }

  function say(text) { g.msg = text; g.msgT = 90; }
  function pop(text, x, y, color) { g.pops.push({ text: text, x: x, y: y, t: 40, color: color }); }

  // ---- plates and recipes ----
  function fits(items, c) {
    for (var d in RECIPE) {
      var r = RECIPE[d], ok = r.indexOf(c) >= 0 && items.indexOf(c) < 0;
      for (var i = 0; ok && i < items.length; i++) if (r.indexOf(items[i]) < 0) ok = false;
      if (ok) return true;
    }
    return false;
  }
  function dishOf(items) {
    for (var d in RECIPE) {
      var r = RECIPE[d];
      if (r.length !== items.length) continue;
      var ok = true;
      for (var i = 0; i < r.length; i++) if (items.indexOf(r[i]) < 0) ok = false;
      if (ok) return d;
    }
    return null;
  }
  function cookState(t, cook, burn) { return t < cook ? "cooking" : (t < cook + burn ? "done" : "burnt"); }

  // ---- where the cook stands for a target ----
  function standPoint(tg) {
    if (tg.kind === "crate") return { x: COL_X + COL_DX * tg.i, y: STAND_TOP };
    if (tg.kind === "station") return { x: COL_X + COL_DX * tg.i, y: STAND_BOT };
    return { x: SLOT_X + SLOT_DX * tg.i, y: STAND_TOP };   // serve at a hatch slot
  }

  function enqueue(tg) {
    if (g.over || g.cook.queue.length >= QUEUE_MAX) return;
    g.cook.queue.push(tg);
  }

  // ---- interactions (run when the cook arrives) ----
  function takeFrom(st, name, cook, burn) {   // grill and fryer: empty hand takes, plate takes a done item
    var s = g[name];
    if (s.item === "none") return false;
    var state = cookState(s.t, cook, burn);
    var out = state === "done" ? (name === "grill" ? "patty_cooked" : "fries") : (state === "burnt" ? "burnt" : s.item);
    if (g.hold === "none") { g.hold = out; s.item = "none"; s.t = 0; say("Took " + nice(out)); return true; }
    if (g.hold === "plate" && state === "done") {
      var p = g.plates[g.holdPlate];
      if (fits(p.items, out)) { p.items.push(out); s.item = "none"; s.t = 0; say("Plated " + nice(out)); return true; }
      say("That does not go on this plate"); return true;
    }
    if (g.hold === "plate") { say(state === "burnt" ? "Burnt! Clear it with empty hands" : "Not ready yet"); return true; }
    say("Hands full"); return true;
  }

  function interact(tg) {
    var c = g.cook, p;
    if (tg.kind === "crate") {
      if (tg.i === 5) { trash(); return; }
      var raw = CRATES[tg.i];
      if (g.hold === "none") { g.hold = raw; say("Took " + nice(raw)); return; }
      if (g.hold === "plate" && fits(g.plates[g.holdPlate].items, raw)) {
        g.plates[g.holdPlate].items.push(raw); say("Plated " + nice(raw)); return;
      }
      say("Hands full"); return;
    }
    if (tg.kind === "serve") { serve(tg.i); return; }
    var name = STATIONS[tg.i];
    if (name === "board") {
      if (CHOPPED[g.hold]) { c.busy = CHOP_TICKS; c.chopping = g.hold; g.hold = "none"; say("Chop chop!"); return; }
      say(g.hold === "none" ? "Bring lettuce, a tomato or a potato to chop" : "Cannot chop that");
      return;
    }
    if (name === "grill") {
      if (g.grill.item === "none") {
        if (g.hold === "patty") { g.grill.item = "patty"; g.grill.t = 0; g.hold = "none"; say("Patty on the grill"); return; }
        say(g.hold === "none" ? "Grill is empty" : "Only raw patties go on the grill"); return;
      }
      takeFrom(tg, "grill", GRILL_COOK, GRILL_BURN); return;
    }
    if (name === "fryer") {
      if (g.fryer.item === "none") {
        if (g.hold === "potato_chopped") { g.fryer.item = "potato_chopped"; g.fryer.t = 0; g.hold = "none"; say("Into the fryer"); return; }
        say(g.hold === "potato" ? "Chop the potato first" : (g.hold === "none" ? "Fryer is empty" : "Only chopped potato goes in the fryer")); return;
      }
      takeFrom(tg, "fryer", FRY_COOK, FRY_BURN); return;
    }
    if (name === "pot") {
      var pot = g.pot;
      if (pot.state === "empty" || pot.state === "filling") {
        if (g.hold === "tomato") {
          pot.count++; g.hold = "none";
          if (pot.count === 3) { pot.state = "cooking"; pot.t = 0; say("Soup is on"); }
          else { pot.state = "filling"; say("Tomato in the pot (" + pot.count + "/3)"); }
          return;
        }
        say("The pot needs 3 whole tomatoes"); return;
      }
      if (pot.state === "cooking") { say("Soup is not ready yet"); return; }
      if (pot.state === "done") {
        if (g.hold === "none") { g.hold = "soup"; potEmpty(); say("Took a bowl of soup"); return; }
        if (g.hold === "plate") {
          p = g.plates[g.holdPlate];
          if (fits(p.items, "soup")) { p.items.push("soup"); potEmpty(); say("Plated soup"); return; }
          say("That does not go on this plate"); return;
        }
        say("Hands full"); return;
      }
      if (g.hold === "none") { g.hold = "burnt"; potEmpty(); say("Took the burnt soup"); return; }
      say("Burnt! Clear it with empty hands"); return;
    }
    // a plate spot of the pass
    var k = tg.i - 4;
    p = g.plates[k];
    if (p.where === "hand") {      // its spot is empty: only this plate goes back here
      if (g.hold === "plate" && g.holdPlate === k) { p.where = "pass"; g.hold = "none"; g.holdPlate = -1; say("Plate down"); }
      else say("Hands full");
      return;
    }
    if (g.hold === "none") { p.where = "hand"; g.hold = "plate"; g.holdPlate = k; say("Picked up a plate"); return; }
    if (g.hold === "plate") { say("Already carrying a plate"); return; }
    if (fits(p.items, g.hold)) { p.items.push(g.hold); say("Plated " + nice(g.hold)); g.hold = "none"; return; }
    say(nice(g.hold) + " does not go on this plate");
  }

  function potEmpty() { g.pot.count = 0; g.pot.t = 0; g.pot.state = "empty"; }

  function trash() {
    if (g.hold === "none") { say("Nothing to throw away"); return; }
    if (g.hold === "plate") {
      var p = g.plates[g.holdPlate];
      if (p.items.length) { p.items = []; say("Scraped the plate"); } else say("The plate is already clean");
      return;
    }
    say("Binned " + nice(g.hold)); g.hold = "none";
  }

  function serve(slot) {
    var o = g.orders[slot];
    if (!o) { say("Nobody at that window"); return; }
    if (g.hold !== "plate") { say("Bring a plated " + LABEL[o.dish]); return; }
    var p = g.plates[g.holdPlate], d = dishOf(p.items);
    if (d !== o.dish) { say(d ? "Wrong order: they want " + LABEL[o.dish] : "The dish is not finished"); return; }
    var tip = Math.min(5, Math.floor(o.patience * 6 / o.max));
    g.coins += PRICE[d] + tip; g.tips += tip; g.served++; g.streak++;
    if (g.streak > g.best_streak) g.best_streak = g.streak;
    p.items = []; p.where = "pass"; g.hold = "none"; g.holdPlate = -1;
    g.orders[slot] = null; g.flash = 20;
    pop("+" + (PRICE[d] + tip), SLOT_X + SLOT_DX * slot, SLOT_Y, "#ffd54a");
    say(LABEL[d] + " served! +" + PRICE[d] + (tip ? " and a " + tip + " tip" : ""));
  }

  function nice(item) {
    return ({ bun: "a bun", patty: "a raw patty", lettuce: "lettuce", tomato: "a tomato", potato: "a potato",
              lettuce_chopped: "chopped lettuce", tomato_chopped: "chopped tomato", potato_chopped: "chopped potato",
              patty_cooked: "a grilled patty", fries: "fries", soup: "soup", burnt: "burnt food" })[item] || item;
  }

  // ---- one logic tick ----
  function step() {
    g.tick++;
    if (g.msgT > 0) g.msgT--;
    if (g.flash > 0) g.flash--;
    if (g.hurt > 0) g.hurt--;
    for (var i = g.pops.length - 1; i >= 0; i--) { g.pops[i].t--; g.pops[i].y -= 1; if (g.pops[i].t <= 0) g.pops.splice(i, 1); }
    if (g.over) return;
    // customers arrive
    if (g.tick >= g.nextAt && g.nextOrder < g.plan.length) {
      var pl = g.plan[g.nextOrder], free = -1;
      for (var k = 0; k < SLOTS && free < 0; k++) {   // the drawn seat, or the next free one after it
        if (!g.orders[(pl.seat + k) % SLOTS]) free = (pl.seat + k) % SLOTS;
      }
      if (free >= 0) {
        g.nextOrder++;
        g.orders[free] = { id: ++g.orderId, dish: pl.dish, patience: PATIENCE[pl.dish], max: PATIENCE[pl.dish] };
        g.nextAt = g.tick + pl.gap;
      }
    }
    // patience
    for (var s = 0; s < SLOTS; s++) {
      var o = g.orders[s];
      if (!o) continue;
      o.patience--;
      if (o.patience <= 0) {
        g.orders[s] = null; g.failed++; g.stars--; g.streak = 0; g.hurt = 30;
        pop("-1 star", SLOT_X + SLOT_DX * s, SLOT_Y, "#ff5c5c");
        say("A customer left hungry!");
        if (g.stars <= 0) { g.over = true; g.cook.queue = []; say("Shift over"); return; }
      }
    }
    // stations
    if (g.grill.item === "patty") g.grill.t++;
    if (g.fryer.item === "potato_chopped") g.fryer.t++;
    if (g.pot.state === "cooking" || g.pot.state === "done") {
      g.pot.t++;
      g.pot.state = cookState(g.pot.t, POT_COOK, POT_BURN) === "cooking" ? "cooking"
        : (cookState(g.pot.t, POT_COOK, POT_BURN) === "done" ? "done" : "burnt");
    }
    // the cook
    var c = g.cook;
    if (c.busy > 0) {
      c.busy--;
      if (c.busy === 0) { g.hold = CHOPPED[c.chopping]; c.chopping = null; say("Chopped " + nice(g.hold).replace("chopped ", "")); }
      return;
    }
    if (!c.queue.length) return;
    var sp = standPoint(c.queue[0]);
    var dx = sp.x - c.x, dy = sp.y - c.y;
    if (dx) c.face = dx > 0 ? 1 : -1;
    c.x += Math.max(-SPEED, Math.min(SPEED, dx));
    c.y += Math.max(-SPEED, Math.min(SPEED, dy));
    if (c.x === sp.x && c.y === sp.y) interact(c.queue.shift());
  }

  // ---- input ----
  function hit(x, y) {
    var i;
    if (y >= SLOT_TOP && y <= SLOT_BOT) {
      for (i = 0; i < SLOTS; i++) if (Math.abs(x - (SLOT_X + SLOT_DX * i)) <= SLOT_W / 2) return { kind: "serve", i: i };
    }
    if (y >= TOP_T && y <= TOP_B) {
      for (i = 0; i < 6; i++) if (Math.abs(x - (COL_X + COL_DX * i)) <= BOX_W / 2) return { kind: "crate", i: i };
    }
    if (y >= BOT_T && y <= BOT_B) {
      for (i = 0; i < 6; i++) if (Math.abs(x - (COL_X + COL_DX * i)) <= BOX_W / 2) return { kind: "station", i: i };
    }
    return null;
  }
  canvas.addEventListener("mousedown", function (e) {
    if (!g || g.over) return;
    var r = canvas.getBoundingClientRect();
    var tg = hit(Math.round(e.clientX - r.left), Math.round(e.clientY - r.top));
    if (tg) enqueue(tg);
  });
  window.addEventListener("keydown", function (e) {
    if (e.code === "KeyX") { e.preventDefault(); if (g && !g.over) enqueue({ kind: "crate", i: 5 }); }
  });

  // ---- drawing ----
  function rr(x, y, w, h, r) {
    ctx.beginPath();
    ctx.moveTo(x + r, y); ctx.lineTo(x + w - r, y); ctx.quadraticCurveTo(x + w, y, x + w, y + r);
    ctx.lineTo(x + w, y + h - r); ctx.quadraticCurveTo(x + w, y + h, x + w - r, y + h);
    ctx.lineTo(x + r, y + h); ctx.quadraticCurveTo(x, y + h, x, y + h - r);
    ctx.lineTo(x, y + r); ctx.quadraticCurveTo(x, y, x + r, y); ctx.closePath();
  }
  function circle(x, y, r, color) { ctx.fillStyle = color; ctx.beginPath(); ctx.arc(x, y, r, 0, Math.PI * 2); ctx.fill(); }
  function ellipse(x, y, rx, ry, color) { ctx.fillStyle = color; ctx.beginPath(); ctx.ellipse(x, y, rx, ry, 0, 0, Math.PI * 2); ctx.fill(); }

  function drawItem(item, x, y, s) {    // s: scale, 1 = about 24 px wide
    switch (item) {
      case "bun":
        ellipse(x, y + 2 * s, 11 * s, 4 * s, "#d9913f");
        ctx.fillStyle = "#e8a54f"; ctx.beginPath(); ctx.ellipse(x, y, 11 * s, 8 * s, 0, Math.PI, 0); ctx.fill();
        circle(x - 4 * s, y - 4 * s, 1 * s, "#fff3d0"); circle(x + 3 * s, y - 5 * s, 1 * s, "#fff3d0"); break;
      case "patty": ellipse(x, y, 10 * s, 5 * s, "#e0707a"); ellipse(x - 2 * s, y - 1 * s, 5 * s, 2 * s, "#f2a0a6"); break;
      case "patty_cooked": ellipse(x, y, 10 * s, 5 * s, "#6b3b1f");
        ctx.strokeStyle = "#3a1e0c"; ctx.lineWidth = 1.5 * s;
        ctx.beginPath(); ctx.moveTo(x - 6 * s, y - 2 * s); ctx.lineTo(x + 2 * s, y + 3 * s);
        ctx.moveTo(x - 1 * s, y - 3 * s); ctx.lineTo(x + 6 * s, y + 2 * s); ctx.stroke(); break;
      case "burnt": ellipse(x, y, 10 * s, 5 * s, "#1d1a18"); circle(x + 3 * s, y - 7 * s, 3 * s, "rgba(120,120,120,0.7)");
        circle(x - 2 * s, y - 11 * s, 4 * s, "rgba(150,150,150,0.5)"); break;
      case "lettuce": circle(x, y, 9 * s, "#5cbf3a"); circle(x - 3 * s, y - 2 * s, 5 * s, "#8be05f"); circle(x + 4 * s, y + 2 * s, 4 * s, "#3f9a29"); break;
      case "lettuce_chopped":
        for (var i = 0; i < 5; i++) circle(x - 8 * s + i * 4 * s, y + ((i % 2) ? 2 : -2) * s, 3.5 * s, i % 2 ? "#5cbf3a" : "#8be05f"); break;
      case "tomato": circle(x, y + 1 * s, 9 * s, "#e53b2c"); circle(x - 3 * s, y - 2 * s, 3 * s, "#ff8a7a");
        ctx.fillStyle = "#3d8f2a"; ctx.fillRect(x - 1.5 * s, y - 10 * s, 3 * s, 4 * s); break;
      case "tomato_chopped":
        for (var j = 0; j < 3; j++) { circle(x - 7 * s + j * 7 * s, y, 4.5 * s, "#e53b2c"); circle(x - 7 * s + j * 7 * s, y, 2 * s, "#ffb0a0"); } break;
      case "potato": ellipse(x, y, 10 * s, 7 * s, "#c9a06a"); circle(x - 3 * s, y - 1 * s, 1 * s, "#8a6a3e"); circle(x + 4 * s, y + 2 * s, 1 * s, "#8a6a3e"); break;
      case "potato_chopped": ctx.fillStyle = "#f1dca4";
        for (var k = 0; k < 4; k++) ctx.fillRect(x - 9 * s + k * 5 * s, y - 6 * s + (k % 2) * 3 * s, 3 * s, 10 * s); break;
      case "fries":
        ctx.fillStyle = "#ffd23f"; for (var m = 0; m < 5; m++) ctx.fillRect(x - 8 * s + m * 3.5 * s, y - 10 * s + (m % 2) * 2 * s, 2.5 * s, 10 * s);
        ctx.fillStyle = "#d8312b"; ctx.beginPath(); ctx.moveTo(x - 9 * s, y - 2 * s); ctx.lineTo(x + 9 * s, y - 2 * s);
        ctx.lineTo(x + 7 * s, y + 8 * s); ctx.lineTo(x - 7 * s, y + 8 * s); ctx.fill(); break;
      case "soup":
        ctx.fillStyle = "#4f7fc4"; ctx.beginPath(); ctx.ellipse(x, y, 11 * s, 9 * s, 0, 0, Math.PI); ctx.fill();
        ctx.fillStyle = "#8fb4e8"; ctx.fillRect(x - 7 * s, y + 3 * s, 14 * s, 1.5 * s);
        ellipse(x, y, 11 * s, 3.5 * s, "#d8432c"); circle(x - 3 * s, y, 1.2 * s, "#ffe0a0"); break;
      case "plate": ellipse(x, y, 13 * s, 6 * s, "#e9eef2"); ellipse(x, y, 9 * s, 4 * s, "#ffffff"); break;
    }
  }

  function drawPlate(items, x, y, s) {
    drawItem("plate", x, y + 4 * s, s);
    var d = dishOf(items);
    if (d === "burger") { drawBurger(x, y - 2 * s, s); return; }
    var order = ["bun", "patty_cooked", "lettuce_chopped", "tomato_chopped", "fries", "soup"];
    var dy = 0;
    for (var i = 0; i < order.length; i++) if (items.indexOf(order[i]) >= 0) { drawItem(order[i], x, y - dy, s * 0.8); dy += 5 * s; }
  }
  function drawBurger(x, y, s) {
    ellipse(x, y + 4 * s, 11 * s, 3 * s, "#d9913f");
    ellipse(x, y + 1 * s, 11 * s, 3.5 * s, "#6b3b1f");
    ctx.fillStyle = "#5cbf3a"; ctx.fillRect(x - 11 * s, y - 2 * s, 22 * s, 2 * s);
    ctx.fillStyle = "#e8a54f"; ctx.beginPath(); ctx.ellipse(x, y - 2 * s, 11 * s, 8 * s, 0, Math.PI, 0); ctx.fill();
    circle(x - 4 * s, y - 6 * s, 1 * s, "#fff3d0"); circle(x + 3 * s, y - 7 * s, 1 * s, "#fff3d0");
  }
  function drawDish(d, x, y, s) {
    if (d === "burger") drawBurger(x, y, s);
    else if (d === "salad") { ellipse(x, y + 3 * s, 12 * s, 5 * s, "#cfe6f2"); drawItem("lettuce_chopped", x, y, s * 0.9); drawItem("tomato_chopped", x, y - 3 * s, s * 0.7); }
    else drawItem(d, x, y, s);
  }

  function bar(x, y, w, h, frac, color) {
    ctx.fillStyle = "rgba(0,0,0,0.45)"; ctx.fillRect(x, y, w, h);
    ctx.fillStyle = color; ctx.fillRect(x + 1, y + 1, Math.max(0, Math.round((w - 2) * frac)), h - 2);
  }

  var FACES = ["#f1c29b", "#c98b5f", "#8d5a3b", "#f6d5b8", "#e0a878"];
  var SHIRTS = ["#4a78c9", "#c94a7a", "#3fa37a", "#a35ec9", "#d9893a"];

  function drawHatch() {
    var grd = ctx.createLinearGradient(0, HUD_H, 0, 104);
    grd.addColorStop(0, "#2c3e63"); grd.addColorStop(1, "#3c5582");
    ctx.fillStyle = grd; ctx.fillRect(0, HUD_H, W, 104 - HUD_H);
    for (var s = 0; s < SLOTS; s++) {
      var cx = SLOT_X + SLOT_DX * s, x0 = cx - SLOT_W / 2;
      rr(x0, SLOT_TOP, SLOT_W, SLOT_BOT - SLOT_TOP, 6); ctx.fillStyle = "#1d2a45"; ctx.fill();
      var o = g.orders[s];
      if (!o) {
        ctx.fillStyle = "#5c6f96"; ctx.font = "bold 10px sans-serif"; ctx.textAlign = "center";
        ctx.fillText("window " + (s + 1), cx, SLOT_Y + 4);
        continue;
      }
      var frac = o.patience / o.max;
      var bob = (Math.floor((g.tick + o.id * 7) / 20) % 2);
      // customer
      var fx = x0 + 24, fy = SLOT_Y + 6 + bob;
      ctx.fillStyle = SHIRTS[o.id % 5]; rr(fx - 15, fy + 10, 30, 24, 8); ctx.fill();
      circle(fx, fy, 12, FACES[(o.id * 3) % 5]);
      ctx.fillStyle = "#2a1a10"; ctx.beginPath(); ctx.ellipse(fx, fy - 7, 12, 6, 0, Math.PI, 0); ctx.fill();
      circle(fx - 4, fy - 1, 1.6, "#1a1a1a"); circle(fx + 4, fy - 1, 1.6, "#1a1a1a");
      ctx.strokeStyle = "#1a1a1a"; ctx.lineWidth = 1.5; ctx.beginPath();
      if (frac > 0.5) ctx.arc(fx, fy + 3, 4, 0.2 * Math.PI, 0.8 * Math.PI);
      else if (frac > 0.25) { ctx.moveTo(fx - 4, fy + 5); ctx.lineTo(fx + 4, fy + 5); }
      else ctx.arc(fx, fy + 8, 4, 1.2 * Math.PI, 1.8 * Math.PI);
      ctx.stroke();
      if (frac <= 0.25) { ctx.fillStyle = "#ff5c5c"; ctx.font = "bold 12px sans-serif"; ctx.fillText("!", fx + 14, fy - 8); }
      // ticket
      rr(x0 + 46, SLOT_TOP + 5, 58, 44, 4); ctx.fillStyle = "#fffbe8"; ctx.fill();
      drawDish(o.dish, x0 + 75, SLOT_TOP + 30, 0.95);
      ctx.fillStyle = "#3a3a3a"; ctx.font = "bold 9px sans-serif"; ctx.textAlign = "center";
      ctx.fillText(LABEL[o.dish] + " $" + PRICE[o.dish], x0 + 75, SLOT_TOP + 14);
      bar(x0 + 6, SLOT_BOT - 11, SLOT_W - 12, 7, frac, frac > 0.5 ? "#54d66b" : (frac > 0.25 ? "#f2c13a" : "#ff5c5c"));
    }
  }

  function drawCounter(y0, y1, color, edge) {
    ctx.fillStyle = color; ctx.fillRect(0, y0, W, y1 - y0);
    ctx.fillStyle = edge; ctx.fillRect(0, y0, W, 4);
  }

  function drawCrates() {
    drawCounter(104, 164, "#8a5a34", "#a8744a");
    for (var i = 0; i < 6; i++) {
      var cx = COL_X + COL_DX * i, x0 = cx - BOX_W / 2;
      if (i < 5) {
        rr(x0 + 4, TOP_T + 2, BOX_W - 8, TOP_B - TOP_T - 4, 4); ctx.fillStyle = "#c48a4c"; ctx.fill();
        ctx.strokeStyle = "#6b4423"; ctx.lineWidth = 2; ctx.stroke();
        ctx.fillStyle = "#a9743c"; ctx.fillRect(x0 + 6, TOP_T + 24, BOX_W - 12, 3);
        drawItem(CRATES[i], cx - 12, TOP_Y - 6, 0.8); drawItem(CRATES[i], cx + 12, TOP_Y - 4, 0.8); drawItem(CRATES[i], cx, TOP_Y + 6, 0.9);
        ctx.fillStyle = "#3a2412"; ctx.font = "bold 9px sans-serif"; ctx.textAlign = "center";
        ctx.fillText(CRATES[i].toUpperCase(), cx, TOP_B - 4);
      } else {
        ctx.fillStyle = "#59636e"; ctx.beginPath(); ctx.moveTo(cx - 20, TOP_T + 10); ctx.lineTo(cx + 20, TOP_T + 10);
        ctx.lineTo(cx + 16, TOP_B - 4); ctx.lineTo(cx - 16, TOP_B - 4); ctx.fill();
        ctx.fillStyle = "#7d8894"; ctx.fillRect(cx - 23, TOP_T + 5, 46, 7);
        ctx.fillStyle = "#3b434c"; for (var k = -1; k <= 1; k++) ctx.fillRect(cx + k * 9 - 1, TOP_T + 17, 3, 28);
        ctx.fillStyle = "#ffffff"; ctx.font = "bold 9px sans-serif"; ctx.textAlign = "center"; ctx.fillText("BIN (X)", cx, TOP_B + 1);
      }
    }
  }

  function drawStations() {
    drawCounter(288, H, "#8d99a6", "#b8c3cf");
    for (var i = 0; i < 6; i++) {
      var cx = COL_X + COL_DX * i, x0 = cx - BOX_W / 2, y0 = BOT_T + 2, h = BOT_B - BOT_T - 4;
      var name = STATIONS[i], label = name.toUpperCase(), frac = -1, col = "#54d66b";
      if (name === "board") {
        rr(x0 + 6, y0 + 8, BOX_W - 12, h - 18, 5); ctx.fillStyle = "#d9a766"; ctx.fill();
        ctx.fillStyle = "#b8854a"; ctx.fillRect(x0 + 10, y0 + 12, BOX_W - 20, 2);
        if (g.cook.chopping) {
          drawItem((g.cook.busy % 8 < 4) ? g.cook.chopping : CHOPPED[g.cook.chopping], cx, y0 + 26, 1);
          frac = 1 - g.cook.busy / CHOP_TICKS; col = "#7fc8ff";
        }
        ctx.fillStyle = "#c8ccd2"; ctx.fillRect(x0 + 48, y0 + 30, 16, 5); ctx.fillStyle = "#333"; ctx.fillRect(x0 + 58, y0 + 30, 8, 5);
      } else if (name === "grill") {
        rr(x0 + 4, y0 + 4, BOX_W - 8, h - 8, 4); ctx.fillStyle = "#2b2b2e"; ctx.fill();
        ctx.strokeStyle = "#55555a"; ctx.lineWidth = 2;
        for (var b = 0; b < 5; b++) { ctx.beginPath(); ctx.moveTo(x0 + 10, y0 + 12 + b * 8); ctx.lineTo(x0 + BOX_W - 10, y0 + 12 + b * 8); ctx.stroke(); }
        if (g.grill.item !== "none") {
          var gs = cookState(g.grill.t, GRILL_COOK, GRILL_BURN);
          drawItem(gs === "cooking" ? "patty" : (gs === "done" ? "patty_cooked" : "burnt"), cx, y0 + 28, 1.2);
          if (gs === "cooking") frac = g.grill.t / GRILL_COOK;
          else if (gs === "done") { frac = 1 - (g.grill.t - GRILL_COOK) / GRILL_BURN; col = frac < 0.4 ? "#ff5c5c" : "#ffb13a"; }
          flames(cx, y0 + h - 6);
        }
      } else if (name === "pot") {
        circle(cx, y0 + 30, 24, "#3b3f45"); circle(cx, y0 + 30, 20, "#6c737c");
        var pot = g.pot;
        if (pot.state === "filling") for (var t = 0; t < pot.count; t++) drawItem("tomato", cx - 8 + t * 8, y0 + 30 - (t % 2) * 4, 0.7);
        if (pot.state === "cooking" || pot.state === "done") {
          circle(cx, y0 + 30, 17, pot.state === "done" ? "#d8432c" : "#e86a52");
          for (var q = 0; q < 3; q++) circle(cx - 8 + q * 8, y0 + 30 + ((Math.floor(g.tick / 10) + q) % 3) * 3 - 3, 2.5, "#ffb0a0");
          if (pot.state === "cooking") frac = pot.t / POT_COOK;
          else { frac = 1 - (pot.t - POT_COOK) / POT_BURN; col = frac < 0.4 ? "#ff5c5c" : "#ffb13a"; }
        }
        if (pot.state === "burnt") { circle(cx, y0 + 30, 17, "#262220"); circle(cx + 5, y0 + 12, 6, "rgba(140,140,140,0.6)"); }
        if (pot.state === "filling" || pot.state === "empty") label = "POT " + pot.count + "/3";
      } else if (name === "fryer") {
        rr(x0 + 6, y0 + 6, BOX_W - 12, h - 10, 4); ctx.fillStyle = "#55606b"; ctx.fill();
        ctx.fillStyle = "#d9b24a"; ctx.fillRect(x0 + 10, y0 + 16, BOX_W - 20, h - 26);
        if (g.fryer.item !== "none") {
          var fs = cookState(g.fryer.t, FRY_COOK, FRY_BURN);
          drawItem(fs === "cooking" ? "potato_chopped" : (fs === "done" ? "fries" : "burnt"), cx, y0 + 30, 1.1);
          if (fs === "cooking") frac = g.fryer.t / FRY_COOK;
          else if (fs === "done") { frac = 1 - (g.fryer.t - FRY_COOK) / FRY_BURN; col = frac < 0.4 ? "#ff5c5c" : "#ffb13a"; }
        }
      } else {
        var k = i - 4, p = g.plates[k];
        rr(x0 + 4, y0 + 4, BOX_W - 8, h - 8, 4); ctx.fillStyle = "#c9d3dc"; ctx.fill();
        label = "PLATE " + "AB"[k];
        if (p.where === "pass") drawPlate(p.items, cx, y0 + 28, 1.15);
        else { ctx.strokeStyle = "#9aa6b2"; ctx.setLineDash([4, 3]); ctx.beginPath(); ctx.ellipse(cx, y0 + 32, 14, 7, 0, 0, Math.PI * 2); ctx.stroke(); ctx.setLineDash([]); }
      }
      if (frac >= 0) bar(x0 + 8, y0 + 2, BOX_W - 16, 6, Math.min(1, frac), col);
      ctx.fillStyle = "#1e2630"; ctx.font = "bold 9px sans-serif"; ctx.textAlign = "center";
      ctx.fillText(label, cx, BOT_B);
    }
  }

  function flames(x, y) {
    for (var f = -2; f <= 2; f++) {
      var hgt = 5 + ((Math.floor(g.tick / 4) + f * 3 + 9) % 4);
      ctx.fillStyle = "#ff8a2a"; ctx.beginPath(); ctx.moveTo(x + f * 10 - 4, y); ctx.lineTo(x + f * 10, y - hgt); ctx.lineTo(x + f * 10 + 4, y); ctx.fill();
    }
  }

  function drawCook() {
    var c = g.cook, x = c.x, y = c.y;
    var walk = c.queue.length && !c.busy ? (Math.floor(g.tick / 5) % 2) : 0;
    ellipse(x, y + 22, 16, 5, "rgba(0,0,0,0.25)");
    ctx.fillStyle = "#2d3440"; ctx.fillRect(x - 9, y + 10 + walk, 7, 12 - walk); ctx.fillRect(x + 2, y + 10 + (1 - walk), 7, 12 - (1 - walk));
    rr(x - 14, y - 8, 28, 22, 8); ctx.fillStyle = "#ffffff"; ctx.fill();
    ctx.strokeStyle = "#cfd6de"; ctx.lineWidth = 1; ctx.stroke();
    circle(x - 3, y, 1.5, "#333"); circle(x - 3, y + 6, 1.5, "#333");
    circle(x, y - 16, 10, "#f1c29b");
    circle(x + 4 * c.face, y - 17, 1.6, "#222");
    ctx.fillStyle = "#8a4a2a"; ctx.fillRect(x + 1 * c.face - 3, y - 12, 7, 2);
    // chef hat
    circle(x - 6, y - 29, 6, "#ffffff"); circle(x + 6, y - 29, 6, "#ffffff"); circle(x, y - 32, 7, "#ffffff");
    ctx.fillStyle = "#ffffff"; ctx.fillRect(x - 9, y - 29, 18, 6);
    ctx.strokeStyle = "#d5dbe2"; ctx.strokeRect(x - 9, y - 25, 18, 2);
    // what the cook carries
    if (g.hold !== "none") {
      var hx = x + 18 * c.face, hy = y - 2;
      if (g.hold === "plate") drawPlate(g.plates[g.holdPlate].items, hx, hy, 0.9);
      else drawItem(g.hold, hx, hy, 0.9);
    }
    if (c.busy) { ctx.fillStyle = "#ffffff"; ctx.font = "bold 10px sans-serif"; ctx.textAlign = "center"; ctx.fillText("chop!", x, y - 42); }
  }

  function drawHud() {
    ctx.fillStyle = "#141a26"; ctx.fillRect(0, 0, W, HUD_H);
    ctx.fillStyle = g.flash ? "#ffd54a" : (g.hurt ? "#ff5c5c" : "#33415c"); ctx.fillRect(0, HUD_H - 2, W, 2);
    ctx.font = "bold 13px sans-serif"; ctx.textBaseline = "middle"; ctx.textAlign = "left";
    circle(14, 13, 7, "#ffd54a"); ctx.fillStyle = "#b8860b"; ctx.fillText("$", 10, 14);
    ctx.fillStyle = "#ffffff"; ctx.fillText(String(g.coins), 26, 14);
    ctx.fillText("SERVED " + g.served, 84, 14);
    ctx.fillText("STREAK " + g.streak, 186, 14);
    ctx.textAlign = "right"; ctx.fillStyle = "#aab4c8"; ctx.font = "bold 10px sans-serif";
    ctx.fillText("GALLEY RUSH", 392, 14);
    for (var i = 0; i < STARS; i++) star(414 + i * 22, 13, 8, i < g.stars ? "#ffd54a" : "#3a4255");
    ctx.textBaseline = "alphabetic";
  }
  function star(x, y, r, color) {
    ctx.fillStyle = color; ctx.beginPath();
    for (var i = 0; i < 10; i++) {
      var a = Math.PI / 2 + i * Math.PI / 5, rad = i % 2 ? r * 0.45 : r;
      ctx.lineTo(x + rad * Math.cos(a) * (i ? 1 : 1), y - rad * Math.sin(a));
    }
    ctx.fill();
  }

  function draw() {
    // floor
    ctx.fillStyle = "#e7dcc8"; ctx.fillRect(0, 164, W, 124);
    ctx.fillStyle = "#d6c9b1";
    for (var ty = 0; ty < 4; ty++) for (var tx = 0; tx < 16; tx++) if ((tx + ty) % 2) ctx.fillRect(tx * 30, 164 + ty * 31, 30, 31);
    drawHatch();
    drawCrates();
    drawStations();
    // a queue marker on each target the cook is heading for
    for (var q = 0; q < g.cook.queue.length; q++) {
      var sp = standPoint(g.cook.queue[q]);
      var ty2 = g.cook.queue[q].kind === "station" ? BOT_T - 4 : (g.cook.queue[q].kind === "crate" ? TOP_B + 10 : SLOT_BOT + 2);
      circle(sp.x, ty2, 7, q ? "rgba(255,255,255,0.7)" : "#ffd54a");
      ctx.fillStyle = "#1e2630"; ctx.font = "bold 9px sans-serif"; ctx.textAlign = "center"; ctx.fillText(String(q + 1), sp.x, ty2 + 3);
    }
    drawCook();
    for (var i = 0; i < g.pops.length; i++) {
      var pp = g.pops[i];
      ctx.font = "bold 15px sans-serif"; ctx.textAlign = "center"; ctx.fillStyle = "#1a1a1a"; ctx.fillText(pp.text, pp.x + 1, pp.y + 1);
      ctx.fillStyle = pp.color; ctx.fillText(pp.text, pp.x, pp.y);
    }
    if (g.msgT > 0 && !g.over) {
      ctx.font = "bold 11px sans-serif"; var tw = ctx.measureText(g.msg).width + 16;
      rr(W / 2 - tw / 2, 268, tw, 18, 8); ctx.fillStyle = "rgba(20,26,38,0.8)"; ctx.fill();
      ctx.fillStyle = "#ffffff"; ctx.textAlign = "center"; ctx.fillText(g.msg, W / 2, 281);
    }
    drawHud();
    if (g.over) {
      ctx.fillStyle = "rgba(10,12,20,0.72)"; ctx.fillRect(0, 0, W, H);
      rr(90, 100, 300, 150, 12); ctx.fillStyle = "#1d2638"; ctx.fill(); ctx.strokeStyle = "#ff5c5c"; ctx.lineWidth = 3; ctx.stroke();
      ctx.textAlign = "center"; ctx.fillStyle = "#ff5c5c"; ctx.font = "bold 28px sans-serif"; ctx.fillText("SHIFT OVER", W / 2, 140);
      ctx.fillStyle = "#ffffff"; ctx.font = "bold 14px sans-serif";
      ctx.fillText("Three customers left hungry.", W / 2, 170);
      ctx.fillText("Served " + g.served + "   Coins " + g.coins + "   Tips " + g.tips, W / 2, 196);
      ctx.fillStyle = "#aab4c8"; ctx.font = "12px sans-serif"; ctx.fillText("Best streak " + g.best_streak, W / 2, 222);
    }
  }

  function rendering() { var gw = window.__gameworld; return !(gw && gw.rendering === false); }

  function frame(ts) {
    if (lastTs !== null) {
      acc += ts - lastTs;
      var n = 0;
      while (acc >= TICK_MS) { acc -= TICK_MS; if (n++ < MAX_CATCH_UP) step(); }
    }
    lastTs = ts;
    if (rendering()) draw();
    requestAnimationFrame(frame);
  }

  function stationState(name, cook, burn) {
    var s = g[name];
    if (s.item === "none") return { item: "none", state: "empty", progress: 0, ready_in: 0, burns_in: 0 };
    var st = cookState(s.t, cook, burn);
    return { item: s.item, state: st, progress: s.t, ready_in: Math.max(0, cook - s.t), burns_in: Math.max(0, cook + burn - s.t) };
  }

  window.gameAPI = {
    getState: function () {
      var orders = [];
      for (var s = 0; s < SLOTS; s++) {
        var o = g.orders[s];
        if (o) orders.push({ slot: s, id: o.id, dish: o.dish, patience: o.patience, patience_max: o.max });
      }
      var pot = g.pot;
      return {
        status: g.over ? "terminal" : "playing",
        actionable: true,
        terminal: { is_terminal: g.over, outcome: g.over ? "lose" : null, reason: g.over ? "three orders failed: shift over" : null },
        score: g.coins,
        coins: g.coins, served: g.served, tips: g.tips, failed: g.failed, stars: g.stars,
        streak: g.streak, best_streak: g.best_streak,
        orders: orders,
        holding: g.hold,
        holding_plate: g.hold === "plate" ? "AB"[g.holdPlate] : null,
        plates: g.plates.map(function (p, k) { return { plate: "AB"[k], where: p.where, items: p.items.slice(), dish: dishOf(p.items) }; }),
        stations: {
          board: { chopping: g.cook.chopping || "none", busy: g.cook.busy },
          grill: stationState("grill", GRILL_COOK, GRILL_BURN),
          pot: { tomatoes: pot.count, state: pot.state, progress: pot.t,
                 ready_in: pot.state === "cooking" ? POT_COOK - pot.t : 0,
                 burns_in: (pot.state === "cooking" || pot.state === "done") ? POT_COOK + POT_BURN - pot.t : 0 },
          fryer: stationState("fryer", FRY_COOK, FRY_BURN)
        },
        cook: { x: g.cook.x, y: g.cook.y, queue: g.cook.queue.map(function (t) { return t.kind + ":" + t.i; }), busy: g.cook.busy },
        next_order_in: g.nextOrder < g.plan.length ? Math.max(0, g.nextAt - g.tick) : null,
        message: g.msgT > 0 ? g.msg : "",
        tick: g.tick
      };
    },
    reset: function () {
      newGame();
      acc = 0;
      draw();
    }
  };

  newGame();
  draw();
  requestAnimationFrame(frame);
})();
