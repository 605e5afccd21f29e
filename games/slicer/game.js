// Moon Slice: fruit is tossed up over a moonlit bamboo garden in seeded waves; a drag of the mouse is a blade stroke
// that cuts every fruit (and every bomb) its path crosses. A fruit that falls back uncut costs a life, and so does a
// bomb that is cut; 3 lives. Each wave throws more fruit and, from wave 2, bombs among it.
// Platform rules (games/README.md): fixed 1/60 s ticks from the rAF clock, chance only from Math.random (drawn when a
// wave starts, in a fixed order), integer fixed-point motion (1/16 px), no drawing while
// window.__gameworld.rendering is false, the first frame drawn before the game is actionable and again at the end
// of reset(). A stroke (mousedown, moves, mouseup) is read as one path at one instant of the game clock.
(function () {
  "use strict";

  var W = 480, H = 360, HUD_H = 26;
  var TICK_MS = 1000 / 60;
  var MAX_CATCH_UP = 600;
  var FP = 16;
  var GRAVITY = 2;                // 1/16 px per tick per tick
  var LIVES = 3;
  var BLADE = 3;                  // a stroke cuts whatever it passes within radius + 3 px of
  var MIN_STROKE = 12;            // a stroke shorter than this (px) is a tap and cuts nothing
  var WAVE_GAP = 24;              // ticks between a wave's end and the next wave's first toss
  var START_Y = H + 24;

  var KINDS = {
    plum:   { r: 10, body: "#7b3fa0", dark: "#4e2368", flesh: "#f2c14e", pts: 10 },
    apple:  { r: 12, body: "#d83a34", dark: "#8f1f1c", flesh: "#fbeec1", pts: 10 },
    orange: { r: 12, body: "#f08a1c", dark: "#b0560a", flesh: "#ffc766", pts: 10 },
    lime:   { r: 11, body: "#7cc43a", dark: "#46801c", flesh: "#d9f59a", pts: 10 },
    melon:  { r: 16, body: "#2f8f3a", dark: "#1b5a22", flesh: "#ff5a6a", pts: 20 }
  };
  var FRUITS = ["plum", "apple", "orange", "lime", "melon"];
  var BOMB_R = 14;

  var canvas = document.getElementById("game");
  var ctx = canvas.getContext("2d");
  var g = null;
  var lastTs = null, acc = 0;
  var stroke = null;

  function randomInt(low, high) { return low + Math.floor(Math.random() * (high - low + 1)); }

  function waveFruit(w) { return Math.min(6, 2 + Math.floor(w / 2)); }
  function waveBombs(w) { return Math.min(3, 1 + Math.floor(w / 3)); }

  function newWave() {
    var w = g.wave, nf = waveFruit(w), nb = waveBombs(w);
    var kinds = [];
    for (var i = 0; i < nf; i++) kinds.push(FRUITS[randomInt(0, FRUITS.length - 1)]);
    for (var b = 0; b < nb; b++) kinds.splice(randomInt(0, kinds.length), 0, "bomb");
    var t = 6;
    var tosses = [];
    for (var k = 0; k < kinds.length; k++) {
      var x0 = randomInt(50, 430);
      var vx = randomInt(2, 18) * (x0 < W / 2 ? 1 : -1);
      var vy = -randomInt(118, 138);
      tosses.push({ t: t, kind: kinds[k], x: x0 * FP, vx: vx, vy: vy });
      t += randomInt(0, 2) * 12;
    }
    g.tosses = tosses;
    g.waveTick = 0;
    g.waveCut = 0;
    g.waveSize = nf;
  }

  function newGame() {
    g = { tick: 0, wave: 1, sliced: 0, dropped: 0, bombsHit: 0, lives: LIVES, score: 0, over: false,
          items: [], tosses: [], waveTick: 0, gap: 0, perfect: 0, bestCombo: 0, strokes: 0,
          boomOver: false, halves: [], drops: [], marks: [], trails: [], hurt: 0, boom: 0, nextId: 1, waveCut: 0, waveSize: 0 };
    newWave();
  }

  function loseLife() {
    g.lives -= 1;
    g.hurt = 24;
    if (g.lives <= 0) { g.over = true; g.items = []; g.tosses = []; }
  }

  function segDist2(px, py, ax, ay, bx, by) {
    var dx = bx - ax, dy = by - ay;
    var len2 = dx * dx + dy * dy;
    var t = len2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0;
    if (t < 0) t = 0; else if (t > 1) t = 1;
    var cx = ax + t * dx - px, cy = ay + t * dy - py;
    return cx * cx + cy * cy;
  }

  function cut(points) {
    if (g.over || points.length < 2) return;
    var length = 0;
    for (var i = 1; i < points.length; i++) {
      var sx = points[i].x - points[i - 1].x, sy = points[i].y - points[i - 1].y;
      length += Math.sqrt(sx * sx + sy * sy);
    }
    g.trails.push({ pts: points, t: 0 });
    if (length < MIN_STROKE) return;
    g.strokes += 1;
    var fruit = 0, bombs = 0, sumX = 0, sumY = 0;
    for (var j = g.items.length - 1; j >= 0; j--) {
      var it = g.items[j];
      var px = Math.floor(it.x / FP), py = Math.floor(it.y / FP);
      if (py - it.r >= H) continue;               // still below the frame
      var reach = it.r + BLADE, hit = false;
      for (var s = 1; s < points.length && !hit; s++) {
        if (segDist2(px, py, points[s - 1].x, points[s - 1].y, points[s].x, points[s].y) <= reach * reach) hit = true;
      }
      if (!hit) continue;
      g.items.splice(j, 1);
      var dir = points[points.length - 1].x >= points[0].x ? 1 : -1;
      if (it.kind === "bomb") {
        bombs += 1;
        g.bombsHit += 1;
        g.boom = 30;
        for (var f = 0; f < 16; f++) g.drops.push({ x: px, y: py, vx: ((f * 7) % 11) - 5, vy: ((f * 5) % 9) - 6, t: 0, c: f % 2 ? "#ffcf4a" : "#ff6a2a" });
        g.marks.push({ x: px, y: py, t: 0, text: "BOOM!", c: "#ff5a4a", big: true });
      } else {
        fruit += 1;
        sumX += px; sumY += py;
        g.sliced += 1;
        g.waveCut += 1;
        g.score += KINDS[it.kind].pts;
        g.halves.push({ kind: it.kind, x: px * FP, y: py * FP, vx: it.vx - 24 * dir, vy: it.vy - 8, side: -1, t: 0 });
        g.halves.push({ kind: it.kind, x: px * FP, y: py * FP, vx: it.vx + 24 * dir, vy: it.vy - 2, side: 1, t: 0 });
        for (var d = 0; d < 8; d++) g.drops.push({ x: px, y: py, vx: ((d * 5) % 7) - 3, vy: -2 - (d % 3), t: 0, c: KINDS[it.kind].flesh });
        g.marks.push({ x: px, y: py, t: 0, text: "+" + KINDS[it.kind].pts, c: "#fff3a8" });
      }
    }
    if (fruit >= 3) {
      var bonus = 10 * fruit;
      g.score += bonus;
      g.marks.push({ x: Math.floor(sumX / fruit), y: Math.floor(sumY / fruit) - 18, t: 0, text: "COMBO x" + fruit + " +" + bonus, c: "#7fe8ff", big: true });
    }
    if (fruit > g.bestCombo) g.bestCombo = fruit;
    if (bombs > 0) { g.over = true; g.boomOver = true; g.hurt = 40; g.items = []; g.tosses = []; }
  }

  function step() {
    g.tick++;
    if (g.hurt > 0) g.hurt--;
    if (g.boom > 0) g.boom--;
    for (var m = g.marks.length - 1; m >= 0; m--) if (++g.marks[m].t > 40) g.marks.splice(m, 1);
    for (var tr = g.trails.length - 1; tr >= 0; tr--) if (++g.trails[tr].t > 26) g.trails.splice(tr, 1);
    for (var d = g.drops.length - 1; d >= 0; d--) {
      var dp = g.drops[d]; dp.t++; dp.x += dp.vx; dp.y += dp.vy; if (dp.t % 3 === 0) dp.vy += 1;
      if (dp.t > 30) g.drops.splice(d, 1);
    }
    for (var h = g.halves.length - 1; h >= 0; h--) {
      var hv = g.halves[h]; hv.t++; hv.vy += GRAVITY; hv.x += hv.vx; hv.y += hv.vy;
      if (Math.floor(hv.y / FP) > H + 30) g.halves.splice(h, 1);
    }
    if (g.over) return;
    if (g.gap > 0) {
      if (--g.gap === 0) { g.wave += 1; newWave(); }
    } else {
      g.waveTick++;
      while (g.tosses.length && g.tosses[0].t <= g.waveTick) {
        var ts = g.tosses.shift();
        var r = ts.kind === "bomb" ? BOMB_R : KINDS[ts.kind].r;
        g.items.push({ id: g.nextId++, kind: ts.kind, x: ts.x, y: START_Y * FP, vx: ts.vx, vy: ts.vy, r: r, age: 0 });
      }
    }
    for (var i = g.items.length - 1; i >= 0; i--) {
      var it = g.items[i];
      it.age++;
      it.vy += GRAVITY;
      it.x += it.vx; it.y += it.vy;
      if (it.vy > 0 && Math.floor(it.y / FP) - it.r > H) {
        g.items.splice(i, 1);
        if (it.kind !== "bomb") {
          g.dropped += 1;
          g.marks.push({ x: Math.max(60, Math.min(W - 60, Math.floor(it.x / FP))), y: H - 24, t: 0, text: "DROPPED! -1 LIFE", c: "#ff7a6a" });
          loseLife();
          if (g.over) return;
        }
      }
    }
    if (g.gap > 0) return;
    var fruitLeft = 0;
    for (var c = 0; c < g.items.length; c++) if (g.items[c].kind !== "bomb") fruitLeft++;
    for (var c2 = 0; c2 < g.tosses.length; c2++) if (g.tosses[c2].kind !== "bomb") fruitLeft++;
    if (!fruitLeft) {                 // the wave's fruit is all cut or dropped (its bombs may still be falling)
      if (g.waveCut === g.waveSize) {
        g.perfect += 1;
        g.marks.push({ x: W / 2, y: 120, t: 0, text: "PERFECT WAVE", c: "#9bf08a", big: true });
      }
      g.tosses = [];
      g.gap = WAVE_GAP;
    }
  }

  // ---------- drawing ----------

  function draw() {
    var sky = ctx.createLinearGradient(0, 0, 0, H);
    sky.addColorStop(0, "#0c1030");
    sky.addColorStop(0.6, "#23284f");
    sky.addColorStop(1, "#3b2f4f");
    ctx.fillStyle = sky;
    ctx.fillRect(0, 0, W, H);
    // moon and stars
    ctx.fillStyle = "rgba(255,246,214,0.12)";
    ctx.beginPath(); ctx.arc(372, 96, 52, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = "#fff4d2";
    ctx.beginPath(); ctx.arc(372, 96, 38, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = "rgba(210,200,170,0.55)";
    ctx.beginPath(); ctx.arc(360, 88, 7, 0, Math.PI * 2); ctx.arc(386, 108, 5, 0, Math.PI * 2); ctx.arc(379, 80, 3, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = "rgba(255,255,255,0.7)";
    for (var s = 0; s < 26; s++) ctx.fillRect((s * 97 + 13) % W, HUD_H + (s * 53) % 150, 2, 2);
    // bamboo
    for (var b = 0; b < 9; b++) {
      var bx = (b * 61 + 17) % W, bw = 9 + (b % 3) * 2;
      ctx.fillStyle = b % 2 ? "#1f4a33" : "#173a28";
      ctx.fillRect(bx, HUD_H, bw, H - HUD_H);
      ctx.fillStyle = "#0f2a1c";
      for (var n = 0; n < 6; n++) ctx.fillRect(bx - 1, HUD_H + 30 + n * 56 + (b * 13) % 30, bw + 2, 3);
      ctx.fillStyle = "#2d6b45";
      ctx.beginPath(); ctx.ellipse(bx + bw + 10, HUD_H + 60 + (b * 37) % 160, 14, 3, -0.5, 0, Math.PI * 2); ctx.fill();
    }
    // wooden floor
    ctx.fillStyle = "#4a3224"; ctx.fillRect(0, H - 22, W, 22);
    ctx.fillStyle = "#5e402d";
    for (var p = 0; p < 8; p++) ctx.fillRect(p * 60, H - 22, 58, 3);
    // halves, items, drops
    for (var h = 0; h < g.halves.length; h++) half(g.halves[h]);
    for (var i = 0; i < g.items.length; i++) {
      var it = g.items[i], ix = Math.floor(it.x / FP), iy = Math.floor(it.y / FP);
      if (it.kind === "bomb") bomb(ix, iy, it.age); else fruit(it.kind, ix, iy, it.age);
    }
    for (var d = 0; d < g.drops.length; d++) {
      var dp = g.drops[d];
      ctx.globalAlpha = 1 - dp.t / 31; ctx.fillStyle = dp.c; ctx.fillRect(dp.x - 2, dp.y - 2, 4, 4);
    }
    ctx.globalAlpha = 1;
    for (var t = 0; t < g.trails.length; t++) trail(g.trails[t]);
    for (var m = 0; m < g.marks.length; m++) mark(g.marks[m]);
    if (g.boom > 0) { ctx.fillStyle = "rgba(255,240,200," + (g.boom / 60) + ")"; ctx.fillRect(0, 0, W, H); }
    if (g.hurt > 0) { ctx.fillStyle = "rgba(200,20,30," + (g.hurt / 70) + ")"; ctx.fillRect(0, 0, W, H); }
    hud();
    if (g.gap > 0 && !g.over) banner("WAVE " + (g.wave + 1), waveFruit(g.wave + 1) + " fruit, " + waveBombs(g.wave + 1) + " bomb" + (waveBombs(g.wave + 1) === 1 ? "" : "s"), "#ffe08a", true);
    if (g.over) banner(g.boomOver ? "BOOM! YOU CUT A BOMB" : "GAME OVER", g.sliced + " fruit sliced  -  wave " + g.wave + "  -  score " + g.score, "#ff6b5e", false);
  }

  function fruit(kind, x, y, age) {
    var k = KINDS[kind], r = k.r;
    ctx.fillStyle = "rgba(0,0,0,0.25)";
    ctx.beginPath(); ctx.arc(x + 2, y + 3, r, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = "rgba(255,250,230,0.55)";
    ctx.beginPath(); ctx.arc(x, y, r + 1.5, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = k.dark;
    ctx.beginPath(); ctx.arc(x, y, r, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = k.body;
    ctx.beginPath(); ctx.arc(x - 1, y - 1, r - 1.5, 0, Math.PI * 2); ctx.fill();
    if (kind === "melon") {
      ctx.strokeStyle = "#1b5a22"; ctx.lineWidth = 2.5;
      for (var s = -1; s <= 1; s++) { ctx.beginPath(); ctx.ellipse(x + s * 6, y, 3, r - 2, 0, 0, Math.PI * 2); ctx.stroke(); }
    }
    if (kind === "orange" || kind === "lime") {
      ctx.fillStyle = "rgba(0,0,0,0.12)";
      for (var p = 0; p < 5; p++) ctx.fillRect(x - 6 + p * 3, y - 3 + (p % 2) * 5, 1.5, 1.5);
    }
    ctx.fillStyle = "rgba(255,255,255,0.45)";
    ctx.beginPath(); ctx.ellipse(x - r * 0.4, y - r * 0.45, r * 0.3, r * 0.18, -0.6, 0, Math.PI * 2); ctx.fill();
    if (kind === "apple" || kind === "plum") {
      var sway = Math.sin(age / 6) * 2;
      ctx.strokeStyle = "#4a2a12"; ctx.lineWidth = 2;
      ctx.beginPath(); ctx.moveTo(x, y - r + 2); ctx.lineTo(x + sway, y - r - 5); ctx.stroke();
      ctx.fillStyle = "#4caf50";
      ctx.beginPath(); ctx.ellipse(x + 4 + sway, y - r - 3, 4, 2, -0.5, 0, Math.PI * 2); ctx.fill();
    }
  }

  function half(hv) {
    var k = KINDS[hv.kind], x = Math.floor(hv.x / FP), y = Math.floor(hv.y / FP), r = k.r;
    var a = hv.side * hv.t * 0.08;
    ctx.save(); ctx.translate(x, y); ctx.rotate(a);
    ctx.fillStyle = k.body;
    ctx.beginPath(); ctx.arc(0, 0, r, hv.side < 0 ? Math.PI / 2 : -Math.PI / 2, hv.side < 0 ? Math.PI * 1.5 : Math.PI / 2); ctx.fill();
    ctx.fillStyle = k.flesh;
    ctx.beginPath(); ctx.ellipse(0, 0, 3, r - 2, 0, 0, Math.PI * 2); ctx.fill();
    ctx.restore();
  }

  function bomb(x, y, age) {
    ctx.fillStyle = "rgba(0,0,0,0.3)";
    ctx.beginPath(); ctx.arc(x + 2, y + 3, BOMB_R, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = "rgba(255,60,50,0.28)";
    ctx.beginPath(); ctx.arc(x, y, BOMB_R + 5, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = "#2e2f3c";
    ctx.beginPath(); ctx.arc(x, y, BOMB_R, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = "rgba(255,255,255,0.25)";
    ctx.beginPath(); ctx.arc(x - 4, y - 5, 4, 0, Math.PI * 2); ctx.fill();
    ctx.strokeStyle = "#ff4a4a"; ctx.lineWidth = 2.5;
    ctx.beginPath(); ctx.arc(x, y, BOMB_R - 1, 0, Math.PI * 2); ctx.stroke();
    ctx.fillStyle = "#ffdddd";
    ctx.font = "bold 13px monospace"; ctx.textAlign = "center"; ctx.textBaseline = "middle";
    ctx.fillText("X", x, y + 1);
    ctx.fillStyle = "#555a66"; ctx.fillRect(x - 3, y - BOMB_R - 4, 6, 5);
    ctx.strokeStyle = "#b08a50"; ctx.lineWidth = 1.5;
    ctx.beginPath(); ctx.moveTo(x, y - BOMB_R - 4); ctx.quadraticCurveTo(x + 5, y - BOMB_R - 10, x + 8, y - BOMB_R - 7); ctx.stroke();
    var fl = (age % 8) < 4;
    ctx.fillStyle = fl ? "#ffe066" : "#ff7a1a";
    ctx.beginPath(); ctx.arc(x + 8, y - BOMB_R - 7, fl ? 3.5 : 2.5, 0, Math.PI * 2); ctx.fill();
  }

  function trail(tr) {
    var a = 1 - tr.t / 27;
    ctx.lineCap = "round"; ctx.lineJoin = "round";
    ctx.strokeStyle = "rgba(140,220,255," + (0.45 * a) + ")"; ctx.lineWidth = 9;
    ctx.beginPath(); ctx.moveTo(tr.pts[0].x, tr.pts[0].y);
    for (var i = 1; i < tr.pts.length; i++) ctx.lineTo(tr.pts[i].x, tr.pts[i].y);
    ctx.stroke();
    ctx.strokeStyle = "rgba(255,255,255," + a + ")"; ctx.lineWidth = 3;
    ctx.stroke();
    ctx.lineCap = "butt";
  }

  function mark(mk) {
    var a = 1 - mk.t / 41;
    ctx.font = mk.big ? "bold 18px monospace" : "bold 13px monospace";
    ctx.textAlign = "center"; ctx.textBaseline = "middle";
    var x = Math.max(70, Math.min(W - 70, mk.x)), y = Math.max(HUD_H + 14, mk.y - 16 - Math.floor(mk.t / 2));
    ctx.globalAlpha = a;
    ctx.lineWidth = 3; ctx.strokeStyle = "#120c18"; ctx.strokeText(mk.text, x, y);
    ctx.fillStyle = mk.c; ctx.fillText(mk.text, x, y);
    ctx.globalAlpha = 1;
  }

  function hud() {
    ctx.fillStyle = "#141226"; ctx.fillRect(0, 0, W, HUD_H);
    ctx.fillStyle = "#c9a45c"; ctx.fillRect(0, HUD_H - 2, W, 2);
    ctx.font = "bold 13px monospace"; ctx.textBaseline = "middle"; ctx.textAlign = "left"; ctx.fillStyle = "#fff";
    ctx.fillText("WAVE " + g.wave, 8, 13);
    ctx.fillStyle = "#ffe08a";
    ctx.fillText("SLICED " + g.sliced, 82, 13);
    for (var l = 0; l < LIVES; l++) {
      var hx = 190 + l * 17;
      ctx.fillStyle = l < g.lives ? "#ff5a5a" : "#4a4f5a";
      ctx.beginPath(); ctx.arc(hx - 3, 11, 3.5, 0, Math.PI * 2); ctx.arc(hx + 3, 11, 3.5, 0, Math.PI * 2); ctx.fill();
      ctx.beginPath(); ctx.moveTo(hx - 6.5, 12); ctx.lineTo(hx, 19); ctx.lineTo(hx + 6.5, 12); ctx.fill();
    }
    ctx.fillStyle = "#9bf08a";
    ctx.fillText("PERFECT " + g.perfect, 250, 13);
    ctx.textAlign = "right"; ctx.fillStyle = "#fff";
    ctx.fillText("SCORE " + g.score, W - 8, 13);
  }

  function banner(title, sub, color, small) {
    var hgt = small ? 56 : 84;
    ctx.fillStyle = "rgba(14,12,30,0.8)"; ctx.fillRect(0, H / 2 - hgt / 2, W, hgt);
    ctx.textAlign = "center"; ctx.textBaseline = "middle";
    ctx.fillStyle = color; ctx.font = small ? "bold 22px monospace" : "bold 30px monospace";
    ctx.fillText(title, W / 2, H / 2 - (small ? 8 : 12));
    ctx.fillStyle = "#fff"; ctx.font = "bold 13px monospace"; ctx.fillText(sub, W / 2, H / 2 + (small ? 15 : 22));
  }

  function rendering() {
    var gw = window.__gameworld;
    return !(gw && gw.rendering === false);
  }

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

  function point(e) {
    var r = canvas.getBoundingClientRect();
    return { x: Math.round(e.clientX - r.left), y: Math.round(e.clientY - r.top) };
  }

  canvas.addEventListener("mousedown", function (e) {
    stroke = [point(e)];
    e.preventDefault();
  });
  canvas.addEventListener("mousemove", function (e) {
    if (stroke && (e.buttons & 1)) stroke.push(point(e));
  });
  window.addEventListener("mouseup", function (e) {
    if (!stroke) return;
    if (e.target === canvas) stroke.push(point(e));
    var pts = stroke;
    stroke = null;
    cut(pts);
  });

  window.gameAPI = {
    getState: function () {
      var fruitList = [], bombs = [];
      for (var i = 0; i < g.items.length; i++) {
        var it = g.items[i];
        var item = { x: Math.floor(it.x / FP), y: Math.floor(it.y / FP), vx: it.vx, vy: it.vy, r: it.r };
        if (it.kind === "bomb") bombs.push(item); else { item.kind = it.kind; fruitList.push(item); }
      }
      return {
        status: g.over ? "terminal" : "playing",
        actionable: true,
        terminal: { is_terminal: g.over, outcome: g.over ? "lose" : null, reason: g.over ? (g.boomOver ? "cut a bomb" : "out of lives") : null },
        score: g.score,
        fruit_sliced: g.sliced,
        fruit_dropped: g.dropped,
        bombs_cut: g.bombsHit,
        lives: g.lives,
        wave: g.wave,
        perfect_waves: g.perfect,
        best_combo: g.bestCombo,
        to_come: g.tosses.length,
        phase: g.over ? "over" : g.gap > 0 ? "between" : "wave",
        fruit: fruitList,
        bombs: bombs
      };
    },
    reset: function () {
      stroke = null;
      newGame();
      acc = 0;
      draw();
    }
  };

  newGame();
  draw();
  requestAnimationFrame(frame);
})();
