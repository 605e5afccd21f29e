// Hex Spin: a hexagon in the middle, coloured blocks fall toward it along six lanes and stack on its
// sides. Turn the hexagon (Left/Right, 60 degrees a press) so that each block lands where three or more
// blocks of one colour touch (along a side's stack, or side by side at the same layer): they clear.
// Platform rules (games/README.md): fixed 1/60 s logic ticks from the animation-frame clock, chance only
// from Math.random in a fixed order, integer logic (no transcendental maths outside drawing), no drawing
// while window.__gameworld.rendering is false, a first frame drawn before actionable, reset() redraws.
(function () {
  "use strict";

  var W = 480, H = 360, HUD_H = 34;
  var CX = 240, CY = 198;             // centre of the hexagon on the canvas
  var PX = 0.085;                     // drawn px per logic unit
  var TICK_MS = 1000 / 60;
  var MAX_CATCH_UP = 600;
  // logic distances are tenths of a pixel, measured from the centre along a lane (apothem direction)
  var HEX_AP = 300;                   // the hexagon's apothem
  var BH = 200;                       // one block's thickness
  var LIMIT = 3;                      // a stack of this many blocks reaches the rim: game over
  var SPAWN_D = 1580;                 // where a block appears
  var LEVEL_TICKS = 600;              // speed rises every 10 s
  var COLORS = 4;
  var COMBO_TICKS = 90;            // a clear within 1.5 s of the last one adds to the combo
  var ROT_ANIM = 6, POP_TTL = 20;

  var canvas = document.getElementById("game");
  var ctx = canvas.getContext("2d");
  var g = null;
  var lastTs = null, acc = 0;

  function rnd(n) { return Math.floor(Math.random() * n); }
  function mod6(v) { return ((v % 6) + 6) % 6; }

  var MAX_FALLING = 3;                // blocks in flight at once
  function fallSpeed() { return 3 + 2 * g.level; }                 // tenths of px a tick
  function spawnEvery() { return Math.max(10, 22 - 3 * g.level); }   // ticks between blocks

  function spawn() {
    var lane = rnd(6), color = rnd(COLORS);
    for (var k = 0; k < 6; k++) {    // not on top of a block that has just appeared in that lane
      var busy = false;
      for (var i = 0; i < g.falling.length; i++) {
        if (g.falling[i].lane === lane && g.falling[i].d > SPAWN_D - 2 * BH) busy = true;
      }
      if (!busy) break;
      lane = (lane + 1) % 6;
    }
    g.falling.push({ lane: lane, color: color, d: SPAWN_D, id: g.spawned++ });
  }

  function newGame() {
    g = { tick: 0, over: false, reason: null, score: 0, cleared: 0, clears: 0, combo: 0, comboT: 0, bestCombo: 0,
          bestChain: 0, landed: 0, rotation: 0, level: 1, spawned: 0, rotAnim: 0, rotDir: 0,
          stacks: [[], [], [], [], [], []], falling: [], pops: [], flash: 0, lastGain: 0, shake: 0 };
    spawn();
    g.spawnT = spawnEvery();
  }

  function sideOf(lane) { return mod6(lane - g.rotation); }
  function surface(lane) { return HEX_AP + g.stacks[sideOf(lane)].length * BH; }

  // every cell in a group of 3+ same-coloured touching cells (stack neighbours, and same layer on
  // neighbouring sides)
  function findGroups() {
    var seen = [], marked = [], s, i;
    for (s = 0; s < 6; s++) { seen.push([]); marked.push([]); }
    for (s = 0; s < 6; s++) {
      for (i = 0; i < g.stacks[s].length; i++) {
        if (seen[s][i]) continue;
        var color = g.stacks[s][i], group = [[s, i]], todo = [[s, i]];
        seen[s][i] = true;
        while (todo.length) {
          var c = todo.pop(), cs = c[0], ci = c[1];
          var nb = [[cs, ci - 1], [cs, ci + 1], [mod6(cs - 1), ci], [mod6(cs + 1), ci]];
          for (var k = 0; k < 4; k++) {
            var ns = nb[k][0], ni = nb[k][1];
            if (ni < 0 || ni >= g.stacks[ns].length || seen[ns][ni] || g.stacks[ns][ni] !== color) continue;
            seen[ns][ni] = true;
            group.push([ns, ni]);
            todo.push([ns, ni]);
          }
        }
        if (group.length >= 3) {
          for (var m = 0; m < group.length; m++) marked[group[m][0]][group[m][1]] = true;
        }
      }
    }
    return marked;
  }

  function resolve() {               // clear groups, let the blocks above settle, repeat (chains)
    var wave = 0, total = 0, points = 0;
    for (;;) {
      var marked = findGroups(), n = 0;
      for (var s = 0; s < 6; s++) {
        var kept = [];
        for (var i = 0; i < g.stacks[s].length; i++) {
          if (marked[s][i]) {
            n++;
            g.pops.push({ side: s, layer: i, color: g.stacks[s][i], ttl: POP_TTL + 4 * wave });
          } else kept.push(g.stacks[s][i]);
        }
        g.stacks[s] = kept;
      }
      if (!n) break;
      wave++;
      total += n;
      points += 10 * n * wave;
    }
    return { total: total, waves: wave, points: points };
  }

  function land(b) {
    var s = sideOf(b.lane);
    g.stacks[s].push(b.color);
    g.landed++;
    var r = resolve();
    if (r.total > 0) {
      g.combo = g.comboT > 0 ? g.combo + 1 : 1;
      g.comboT = COMBO_TICKS;
      if (g.combo > g.bestCombo) g.bestCombo = g.combo;
      if (r.waves > g.bestChain) g.bestChain = r.waves;
      g.cleared += r.total;
      g.clears++;
      g.lastGain = r.points * g.combo;
      g.score += g.lastGain;
      g.flash = 24;
    } else {
      g.shake = 4;
    }
    for (var k = 0; k < 6; k++) {
      if (g.stacks[k].length >= LIMIT) { g.over = true; g.reason = "a stack reached the rim"; }
    }
  }

  function removeFalling(b) {
    var i = g.falling.indexOf(b);
    if (i >= 0) g.falling.splice(i, 1);
  }

  function byDist(a, b) { return a.d - b.d || a.id - b.id; }   // nearest the centre first

  function nearest() {
    var best = null;
    for (var i = 0; i < g.falling.length; i++) {
      var b = g.falling[i];
      if (!best || byDist(b, best) < 0) best = b;
    }
    return best;
  }

  function step() {                  // one logic tick
    g.tick++;
    if (g.rotAnim > 0) g.rotAnim--;
    if (g.flash > 0) g.flash--;
    if (g.shake > 0) g.shake--;
    for (var p = g.pops.length - 1; p >= 0; p--) { if (--g.pops[p].ttl <= 0) g.pops.splice(p, 1); }
    if (g.over) return;
    if (g.comboT > 0 && --g.comboT === 0) g.combo = 0;
    g.level = Math.min(9, 1 + Math.floor(g.tick / LEVEL_TICKS));
    if (g.spawnT > 0) g.spawnT--;
    if (g.spawnT <= 0 && g.falling.length < MAX_FALLING) { spawn(); g.spawnT = spawnEvery(); }
    var sp = fallSpeed();
    var order = g.falling.slice().sort(byDist);
    for (var i = 0; i < order.length && !g.over; i++) {
      var b = order[i];
      b.d -= sp;
      var top = surface(b.lane);
      if (b.d <= top) { b.d = top; removeFalling(b); land(b); }
    }
  }

  function turn(dir) {
    g.rotation = mod6(g.rotation + dir);
    g.rotAnim = ROT_ANIM;
    g.rotDir = dir;
  }

  function drop() {                  // the nearest block lands at once on the side facing its lane
    var b = nearest();
    if (!b) return;
    removeFalling(b);
    land(b);
  }

  // ---------------------------------------------------------------- drawing (no logic below)
  var PALETTE = [
    { fill: "#ff5d73", light: "#ff9aa8", dark: "#b52b45" },   // coral
    { fill: "#ffc94a", light: "#ffe294", dark: "#b98516" },   // amber
    { fill: "#2fd6b5", light: "#8cf0dc", dark: "#138a73" },   // teal
    { fill: "#8f7bff", light: "#c2b6ff", dark: "#5641c4" }    // violet
  ];
  var T30 = 0.5773502691896258;

  function laneAngle(k) { return (-90 + 60 * k) * Math.PI / 180; }

  // a band of a hexagon's side between apothems a and b (px), for the side facing angle th
  function band(th, a, b, inset) {
    var nx = Math.cos(th), ny = Math.sin(th), tx = -ny, ty = nx;
    var ia = a * T30 - inset, ib = b * T30 - inset;
    ctx.beginPath();
    ctx.moveTo(CX + nx * a + tx * ia, CY + ny * a + ty * ia);
    ctx.lineTo(CX + nx * a - tx * ia, CY + ny * a - ty * ia);
    ctx.lineTo(CX + nx * b - tx * ib, CY + ny * b - ty * ib);
    ctx.lineTo(CX + nx * b + tx * ib, CY + ny * b + ty * ib);
    ctx.closePath();
  }

  function hexPath(ap, rot) {
    var rr = ap / Math.cos(Math.PI / 6);
    ctx.beginPath();
    for (var k = 0; k < 6; k++) {
      var a = rot + (-60 + 60 * k) * Math.PI / 180;
      var x = CX + rr * Math.cos(a), y = CY + rr * Math.sin(a);
      if (k) ctx.lineTo(x, y); else ctx.moveTo(x, y);
    }
    ctx.closePath();
  }

  function drawBlock(th, d, color, alpha, pop) {
    var a = d * PX, b = (d + BH) * PX - 1.5;
    var pal = PALETTE[color];
    ctx.globalAlpha = alpha;
    band(th, a, b, 1.5);
    ctx.fillStyle = pop ? pal.light : pal.fill;
    ctx.fill();
    ctx.lineWidth = 1.5;
    ctx.strokeStyle = pal.dark;
    ctx.stroke();
    band(th, b - 3, b, 3);
    ctx.fillStyle = pal.light;
    ctx.fill();
    ctx.globalAlpha = 1;
  }

  function visualRotation() {
    var r = g.rotation - g.rotDir * (g.rotAnim / ROT_ANIM);
    return r * Math.PI / 3;
  }

  function draw() {
    var bg = ctx.createRadialGradient(CX, CY, 20, CX, CY, 320);
    bg.addColorStop(0, "#1f2552");
    bg.addColorStop(1, "#070914");
    ctx.fillStyle = bg;
    ctx.fillRect(0, 0, W, H);
    // lane wedges (fixed: the lanes never turn)
    for (var k = 0; k < 6; k++) {
      var th = laneAngle(k);
      band(th, HEX_AP * PX, 240, 0);
      ctx.fillStyle = k % 2 ? "rgba(255,255,255,0.035)" : "rgba(120,140,255,0.06)";
      ctx.fill();
    }
    // the rim: a stack reaching it ends the game
    var rim = (HEX_AP + LIMIT * BH) * PX;
    hexPath(rim, 0);
    ctx.setLineDash([6, 5]);
    ctx.lineWidth = 2;
    ctx.strokeStyle = g.over ? "rgba(255,93,115,0.9)" : "rgba(255,120,140,0.45)";
    ctx.stroke();
    ctx.setLineDash([]);
    // falling blocks, in their lanes
    for (var i = 0; i < g.falling.length; i++) {
      var fb = g.falling[i];
      drawBlock(laneAngle(fb.lane), fb.d, fb.color, 1);
    }
    // the hexagon and its stacks, turned
    var rot = visualRotation();
    var jig = g.shake > 0 ? (g.shake % 2 ? 1.2 : -1.2) : 0;
    ctx.save();
    ctx.translate(jig, 0);
    for (var s = 0; s < 6; s++) {
      var sth = laneAngle(s) + rot;
      var st = g.stacks[s];
      for (var j = 0; j < st.length; j++) drawBlock(sth, HEX_AP + j * BH, st[j], 1);
    }
    for (var p = 0; p < g.pops.length; p++) {
      var pp = g.pops[p];
      var f = pp.ttl / (POP_TTL + 8);
      var grow = (1 - f) * 60;
      drawBlock(laneAngle(pp.side) + rot, HEX_AP + pp.layer * BH + grow, pp.color, Math.max(0, Math.min(1, f)), true);
    }
    hexPath(HEX_AP * PX - 1, rot);
    var hg = ctx.createRadialGradient(CX, CY - 8, 2, CX, CY, 32);
    hg.addColorStop(0, g.flash > 0 ? "#fff6c8" : "#5b67c9");
    hg.addColorStop(1, g.flash > 0 ? "#ffb347" : "#2a3170");
    ctx.fillStyle = hg;
    ctx.fill();
    ctx.lineWidth = 2;
    ctx.strokeStyle = "#c9d0ff";
    ctx.stroke();
    // a marker on side 0 so the turn is visible
    var mth = laneAngle(0) + rot;
    ctx.fillStyle = "#ffffff";
    ctx.beginPath();
    ctx.arc(CX + Math.cos(mth) * 20, CY + Math.sin(mth) * 20, 3, 0, Math.PI * 2);
    ctx.fill();
    ctx.restore();
    ctx.font = "bold 13px monospace";
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillStyle = "#ffffff";
    ctx.fillText(g.combo > 1 ? "x" + g.combo : "" + g.cleared, CX, CY + 1);
    // HUD
    ctx.fillStyle = "#0c1030";
    ctx.fillRect(0, 0, W, HUD_H);
    ctx.fillStyle = g.flash > 0 ? "#ffc94a" : "#3a4590";
    ctx.fillRect(0, HUD_H - 2, W, 2);
    ctx.font = "bold 14px monospace";
    ctx.textAlign = "left";
    ctx.fillStyle = "#ffffff";
    ctx.fillText("SCORE " + g.score, 10, 17);
    ctx.fillStyle = "#8cf0dc";
    ctx.fillText("CLEARED " + g.cleared, 138, 17);
    ctx.fillStyle = "#ffe294";
    ctx.fillText("BEST COMBO " + g.bestCombo, 262, 17);
    ctx.textAlign = "right";
    ctx.fillStyle = "#c2b6ff";
    ctx.fillText("SPEED " + g.level, W - 10, 17);
    // side help
    ctx.font = "11px monospace";
    ctx.textAlign = "left";
    ctx.fillStyle = "rgba(200,210,255,0.55)";
    ctx.fillText("\u2190 \u2192 turn", 8, H - 26);
    ctx.fillText("SPACE drop", 8, H - 12);
    ctx.textAlign = "right";
    ctx.fillText("3+ same colour", W - 8, H - 26);
    ctx.fillText("touching clear", W - 8, H - 12);
    if (g.combo > 0 && g.comboT > 0) {   // the combo's time left
      var cw = 110 * g.comboT / COMBO_TICKS;
      ctx.fillStyle = "rgba(255,226,148,0.25)";
      ctx.fillRect(10, HUD_H + 24, 110, 6);
      ctx.fillStyle = "#ffe294";
      ctx.fillRect(10, HUD_H + 24, cw, 6);
      ctx.font = "bold 13px monospace";
      ctx.textAlign = "left";
      ctx.fillText("COMBO x" + g.combo, 10, HUD_H + 13);
    }
    if (g.flash > 0 && g.lastGain > 0) {
      ctx.globalAlpha = Math.min(1, g.flash / 12);
      ctx.font = "bold 18px monospace";
      ctx.textAlign = "right";
      ctx.fillStyle = "#ffe294";
      ctx.fillText("+" + g.lastGain, W - 10, HUD_H + 16);
      ctx.globalAlpha = 1;
    }
    if (g.over) {
      ctx.fillStyle = "rgba(5,7,20,0.78)";
      ctx.fillRect(0, CY - 44, W, 88);
      ctx.textAlign = "center";
      ctx.fillStyle = "#ff5d73";
      ctx.font = "bold 30px monospace";
      ctx.fillText("GAME OVER", CX, CY - 12);
      ctx.fillStyle = "#ffffff";
      ctx.font = "bold 14px monospace";
      ctx.fillText("a stack reached the rim  \u00b7  score " + g.score, CX, CY + 22);
    }
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

  window.addEventListener("keydown", function (e) {
    if (e.code !== "ArrowLeft" && e.code !== "ArrowRight" && e.code !== "Space") return;
    e.preventDefault();
    if (e.repeat || g.over) return;
    if (e.code === "ArrowLeft") turn(-1);
    else if (e.code === "ArrowRight") turn(1);
    else drop();
  });

  window.gameAPI = {
    getState: function () {
      var tallest = 0, stacks = [], falling = [];
      for (var s = 0; s < 6; s++) {
        stacks.push(g.stacks[s].slice());
        if (g.stacks[s].length > tallest) tallest = g.stacks[s].length;
      }
      var order = g.falling.slice().sort(byDist);
      for (var i = 0; i < order.length; i++) {
        falling.push([order[i].lane, order[i].color, Math.round((order[i].d - surface(order[i].lane)) / 10)]);
      }
      return {
        status: g.over ? "terminal" : "playing",
        actionable: true,
        terminal: { is_terminal: g.over, outcome: g.over ? "lose" : null, reason: g.over ? g.reason : null },
        score: g.score,
        cleared: g.cleared,
        clears: g.clears,
        combo: g.combo,
        best_combo: g.bestCombo,
        best_chain: g.bestChain,
        rotation: g.rotation,
        tallest: tallest,
        blocks_landed: g.landed,
        speed_level: g.level,
        stacks: stacks,
        falling: falling
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
