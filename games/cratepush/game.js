// Crate Push: a warehouse puzzle. The worker pushes crates (never pulls) onto the marked spots; a level is
// solved when every crate sits on a spot, and the next, bigger room is drawn. There is no undo: a crate
// pushed where it can never reach a spot (a corner, along a wall with no spot, frozen against other crates)
// ends the run, and so does running out of the level's moves.
// Platform rules kept: logic in fixed 1/60 s ticks from the rAF clock, chance only from Math.random (levels
// are drawn in levels.js in a fixed order), no drawing while window.__gameworld.rendering is false, the first
// frame drawn before actionable and reset() redraws, integer state.
(function () {
  "use strict";

  var W = 480, H = 440, HUD_H = 64, TILE = 44;
  var TICK_MS = 1000 / 60, MAX_CATCH_UP = 600;
  var LEVELS = 5;
  var SLIDE_TICKS = 6;
  var L = window.CratePushLevels;

  var canvas = document.getElementById("game");
  var ctx = canvas.getContext("2d");
  var g = null;
  var lastTs = null, acc = 0;
  var pending = [];              // the arrows pressed since the last tick, in order: each one a step
  var KEYS = { ArrowUp: 0, ArrowDown: 1, ArrowLeft: 2, ArrowRight: 3 };

  function allowance(best) { return best + 3; }

  function startLevel(index) {
    var lv = L.makeLevel(index);
    g.lv = lv;
    g.level = index;
    g.crates = lv.crates.slice();
    g.worker = lv.worker;
    g.moves = 0;
    g.movesMax = allowance(lv.best);
    g.levelTick = g.tick;
    g.slide = null;
    g.facing = 1;
    g.bursts = [];
  }

  function newGame() {
    g = { tick: 0, solved: 0, placedBefore: 0, pushes: 0, over: false, won: false, reason: null,
          stuck: -1, bursts: [], bump: null, banner: null };
    startLevel(0);
  }

  function onSpots() {
    var n = 0;
    for (var i = 0; i < g.crates.length; i++) if (g.lv.spot[g.crates[i]]) n++;
    return n;
  }

  function cellXY(i) { var x = i % g.lv.W; return { x: x, y: (i - x) / g.lv.W }; }

  function move(dir) {
    var lv = g.lv, steps = [-lv.W, lv.W, -1, 1];
    g.facing = dir;
    var to = g.worker + steps[dir];
    if (lv.wall[to]) { g.bump = { tick: g.tick, dir: dir }; return; }
    var ci = g.crates.indexOf(to);
    var pushed = -1;
    if (ci >= 0) {
      var beyond = to + steps[dir];
      if (lv.wall[beyond] || g.crates.indexOf(beyond) >= 0) { g.bump = { tick: g.tick, dir: dir }; return; }
      var wasOn = lv.spot[to];
      g.crates[ci] = beyond;
      g.pushes++;
      pushed = ci;
      if (lv.spot[beyond] && !wasOn) g.bursts.push({ tick: g.tick, cell: beyond });
    }
    g.slide = { tick: g.tick, from: g.worker, dir: dir, crate: pushed };
    g.worker = to;
    g.moves++;
    if (onSpots() === g.crates.length) {
      g.solved++;
      g.placedBefore += g.crates.length;
      if (g.solved >= LEVELS) {
        g.over = true; g.won = true; g.reason = "all rooms cleared";
        return;
      }
      g.banner = { tick: g.tick, level: g.level + 1 };
      startLevel(g.level + 1);
      return;
    }
    if (pushed >= 0) {
      var stuck = L.stuckCrate(lv, g.crates);
      if (stuck >= 0) { g.over = true; g.stuck = g.crates[stuck]; g.reason = "crate stuck"; return; }
    }
    if (g.moves >= g.movesMax) { g.over = true; g.reason = "out of moves"; }
  }

  function step() {
    g.tick++;
    var queue = pending;
    pending = [];
    for (var i = 0; i < queue.length && !g.over; i++) move(queue[i]);
  }

  // ------------------------------------------------------------------ drawing
  function boardOrigin() {
    return { x: Math.floor((W - g.lv.W * TILE) / 2), y: HUD_H + Math.floor((H - HUD_H - g.lv.H * TILE) / 2) };
  }

  function roundRect(x, y, w, h, r) {
    ctx.beginPath();
    ctx.moveTo(x + r, y);
    ctx.arcTo(x + w, y, x + w, y + h, r);
    ctx.arcTo(x + w, y + h, x, y + h, r);
    ctx.arcTo(x, y + h, x, y, r);
    ctx.arcTo(x, y, x + w, y, r);
    ctx.closePath();
  }

  function drawFloor(px, py, i) {
    ctx.fillStyle = (i % 2) ? "#3b3f4a" : "#383c46";
    ctx.fillRect(px, py, TILE, TILE);
    ctx.strokeStyle = "rgba(0,0,0,0.25)";
    ctx.lineWidth = 1;
    ctx.strokeRect(px + 0.5, py + 0.5, TILE - 1, TILE - 1);
    ctx.fillStyle = "rgba(255,255,255,0.03)";
    ctx.fillRect(px + 3, py + 3, TILE - 6, 2);
  }

  function drawWall(px, py) {
    ctx.fillStyle = "#7a3f2b";
    ctx.fillRect(px, py, TILE, TILE);
    ctx.fillStyle = "#9a5236";
    var bh = TILE / 4;
    for (var r = 0; r < 4; r++) {
      var off = (r % 2) ? TILE / 4 : 0;
      for (var c = -1; c < 3; c++) {
        var bx = px + off + c * TILE / 2 + 1, by = py + r * bh + 1;
        var x0 = Math.max(px, bx), x1 = Math.min(px + TILE, bx + TILE / 2 - 2);
        if (x1 > x0) ctx.fillRect(x0, by, x1 - x0, bh - 2);
      }
    }
    ctx.fillStyle = "rgba(255,255,255,0.08)";
    ctx.fillRect(px, py, TILE, 2);
    ctx.fillStyle = "rgba(0,0,0,0.25)";
    ctx.fillRect(px, py + TILE - 2, TILE, 2);
  }

  function drawSpot(px, py, t) {
    var cx = px + TILE / 2, cy = py + TILE / 2;
    var glow = 0.55 + 0.25 * Math.sin(t / 9);
    ctx.strokeStyle = "rgba(255,210,63," + glow.toFixed(3) + ")";
    ctx.lineWidth = 3;
    ctx.beginPath(); ctx.arc(cx, cy, TILE * 0.3, 0, Math.PI * 2); ctx.stroke();
    ctx.fillStyle = "rgba(255,210,63,0.25)";
    ctx.beginPath(); ctx.arc(cx, cy, TILE * 0.18, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = "#ffd23f";
    ctx.fillRect(cx - 2, cy - 8, 4, 16);
    ctx.fillRect(cx - 8, cy - 2, 16, 4);
  }

  function drawCrate(px, py, onSpot, stuck) {
    var m = 4, s = TILE - 2 * m;
    ctx.fillStyle = "rgba(0,0,0,0.3)";
    ctx.fillRect(px + m + 3, py + m + 4, s, s);
    ctx.fillStyle = stuck ? "#b83a3a" : onSpot ? "#5fae4a" : "#c08a3e";
    ctx.fillRect(px + m, py + m, s, s);
    ctx.strokeStyle = stuck ? "#6e1c1c" : onSpot ? "#2f6a22" : "#7a5220";
    ctx.lineWidth = 3;
    ctx.strokeRect(px + m + 1.5, py + m + 1.5, s - 3, s - 3);
    ctx.beginPath();
    ctx.moveTo(px + m + 3, py + m + 3); ctx.lineTo(px + TILE - m - 3, py + TILE - m - 3);
    ctx.moveTo(px + TILE - m - 3, py + m + 3); ctx.lineTo(px + m + 3, py + TILE - m - 3);
    ctx.stroke();
    ctx.fillStyle = "rgba(255,255,255,0.18)";
    ctx.fillRect(px + m + 3, py + m + 3, s - 6, 3);
    if (onSpot) {
      ctx.fillStyle = "#ffd23f";
      ctx.beginPath(); ctx.arc(px + TILE / 2, py + TILE / 2, 5, 0, Math.PI * 2); ctx.fill();
    }
  }

  function drawWorker(cx, cy, facing, t) {
    var bob = Math.sin(t / 4) * 1.2;
    ctx.fillStyle = "rgba(0,0,0,0.3)";
    ctx.beginPath(); ctx.ellipse(cx, cy + 15, 12, 4, 0, 0, Math.PI * 2); ctx.fill();
    // body (overalls)
    ctx.fillStyle = "#2f6fd6";
    roundRect(cx - 10, cy - 2 + bob, 20, 16, 5); ctx.fill();
    ctx.fillStyle = "#f2c14e";
    ctx.fillRect(cx - 10, cy + 2 + bob, 20, 3);
    // head
    ctx.fillStyle = "#f0c39a";
    ctx.beginPath(); ctx.arc(cx, cy - 8 + bob, 8, 0, Math.PI * 2); ctx.fill();
    // hard hat
    ctx.fillStyle = "#ffcf2e";
    ctx.beginPath(); ctx.arc(cx, cy - 10 + bob, 8.5, Math.PI, 0); ctx.fill();
    ctx.fillRect(cx - 10, cy - 11 + bob, 20, 3);
    // eyes look where the worker faces
    var ex = [0, 0, -3, 3][facing], ey = [-2, 1, 0, 0][facing];
    ctx.fillStyle = "#1a1a1a";
    if (facing !== 0) {
      ctx.fillRect(cx - 4 + ex, cy - 7 + ey + bob, 2, 3);
      ctx.fillRect(cx + 2 + ex, cy - 7 + ey + bob, 2, 3);
    }
  }

  function drawHud() {
    ctx.fillStyle = "#141824";
    ctx.fillRect(0, 0, W, HUD_H);
    ctx.fillStyle = "#ffd23f";
    ctx.fillRect(0, HUD_H - 3, W, 3);
    var boxes = [
      ["ROOM", (g.level + 1) + "/" + LEVELS],
      ["CRATES", String(g.placedBefore + onSpots())],
      ["SOLVED", String(g.solved)],
      ["ON SPOTS", onSpots() + "/" + g.crates.length],
      ["MOVES LEFT", String(g.movesMax - g.moves)]
    ];
    var bw = W / boxes.length;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    for (var i = 0; i < boxes.length; i++) {
      var x = i * bw;
      ctx.fillStyle = "#1f2536";
      roundRect(x + 4, 6, bw - 8, HUD_H - 15, 6); ctx.fill();
      ctx.fillStyle = "#8f9bb8";
      ctx.font = "bold 10px monospace";
      ctx.fillText(boxes[i][0], x + bw / 2, 17);
      var warn = i === 4 && g.movesMax - g.moves <= 5;
      ctx.fillStyle = warn ? "#ff6b6b" : "#ffffff";
      ctx.font = "bold 20px monospace";
      ctx.fillText(boxes[i][1], x + bw / 2, 38);
    }
  }

  function draw() {
    var t = g.tick;
    var bg = ctx.createLinearGradient(0, HUD_H, 0, H);
    bg.addColorStop(0, "#22262f");
    bg.addColorStop(1, "#14161c");
    ctx.fillStyle = bg;
    ctx.fillRect(0, 0, W, H);
    // warning stripes along the bottom
    ctx.fillStyle = "#2a2d36";
    ctx.fillRect(0, H - 10, W, 10);
    ctx.fillStyle = "#d6a425";
    for (var sx = -20; sx < W; sx += 24) {
      ctx.beginPath();
      ctx.moveTo(sx, H); ctx.lineTo(sx + 12, H - 10); ctx.lineTo(sx + 22, H - 10); ctx.lineTo(sx + 10, H);
      ctx.fill();
    }
    var lv = g.lv, o = boardOrigin(), n = lv.W * lv.H, i, p;
    for (i = 0; i < n; i++) {
      p = cellXY(i);
      var px = o.x + p.x * TILE, py = o.y + p.y * TILE;
      if (lv.wall[i]) drawWall(px, py);
      else { drawFloor(px, py, p.x + p.y); if (lv.spot[i]) drawSpot(px, py, t); }
    }
    // slide animation: the last move eases in over SLIDE_TICKS
    var sl = g.slide, frac = 1;
    if (sl && t - sl.tick < SLIDE_TICKS) frac = (t - sl.tick) / SLIDE_TICKS;
    var back = (1 - frac) * TILE, bdx = 0, bdy = 0;
    if (sl && frac < 1) { bdx = -L.DX[sl.dir] * back; bdy = -L.DY[sl.dir] * back; }
    for (i = 0; i < g.crates.length; i++) {
      p = cellXY(g.crates[i]);
      var ox = (sl && sl.crate === i) ? bdx : 0, oy = (sl && sl.crate === i) ? bdy : 0;
      drawCrate(o.x + p.x * TILE + ox, o.y + p.y * TILE + oy, lv.spot[g.crates[i]], g.crates[i] === g.stuck);
    }
    // bursts when a crate lands on a spot
    for (i = 0; i < g.bursts.length; i++) {
      var b = g.bursts[i], age = t - b.tick;
      if (age > 30 || age < 0) continue;
      p = cellXY(b.cell);
      var cx = o.x + p.x * TILE + TILE / 2, cy = o.y + p.y * TILE + TILE / 2;
      ctx.strokeStyle = "rgba(255,230,120," + (1 - age / 30).toFixed(3) + ")";
      ctx.lineWidth = 3;
      ctx.beginPath(); ctx.arc(cx, cy, 10 + age * 1.2, 0, Math.PI * 2); ctx.stroke();
      for (var k = 0; k < 8; k++) {
        var a = k * Math.PI / 4, r = 14 + age * 1.4;
        ctx.fillStyle = "rgba(255,210,63," + (1 - age / 30).toFixed(3) + ")";
        ctx.fillRect(cx + Math.cos(a) * r - 2, cy + Math.sin(a) * r - 2, 4, 4);
      }
    }
    p = cellXY(g.worker);
    var wx = o.x + p.x * TILE + TILE / 2 + bdx, wy = o.y + p.y * TILE + TILE / 2 + bdy;
    if (g.bump && t - g.bump.tick < 8) {
      var bb = (8 - (t - g.bump.tick)) / 8 * 4;
      wx += L.DX[g.bump.dir] * bb; wy += L.DY[g.bump.dir] * bb;
    }
    drawWorker(wx, wy, g.facing, t);
    drawHud();
    if (g.banner && t - g.banner.tick < 50 && !g.over) {
      ctx.fillStyle = "rgba(20,24,36,0.85)";
      ctx.fillRect(0, HUD_H + 8, W, 34);
      ctx.fillStyle = "#7ee07e";
      ctx.font = "bold 18px monospace";
      ctx.textAlign = "center";
      ctx.fillText("ROOM " + g.banner.level + " CLEAR!  ON TO ROOM " + (g.level + 1), W / 2, HUD_H + 25);
    }
    if (g.over) {
      // the panel sits clear of the stuck crate: below it when the crate is in the upper half, else above
      var cy0 = H / 2, sp = null;
      if (g.stuck >= 0) {
        sp = cellXY(g.stuck);
        var crateY = o.y + sp.y * TILE + TILE / 2;
        cy0 = crateY < (HUD_H + H) / 2 ? crateY + TILE + 60 : crateY - TILE - 60;
        cy0 = Math.max(HUD_H + 60, Math.min(H - 60, cy0));
      }
      ctx.fillStyle = "rgba(8,10,16,0.82)";
      ctx.fillRect(0, cy0 - 56, W, 112);
      ctx.textAlign = "center";
      ctx.fillStyle = g.won ? "#7ee07e" : "#ff6b6b";
      ctx.font = "bold 30px monospace";
      ctx.fillText(g.won ? "WAREHOUSE CLEAR!" : g.reason === "crate stuck" ? "CRATE STUCK!" : "OUT OF MOVES!",
                   W / 2, cy0 - 22);
      ctx.fillStyle = "#ffffff";
      ctx.font = "bold 15px monospace";
      ctx.fillText(g.won ? "Every room solved." : g.reason === "crate stuck"
                   ? "That crate can never reach a spot." : "This room's moves are used up.", W / 2, cy0 + 8);
      ctx.fillText("CRATES " + (g.placedBefore + (g.won ? 0 : onSpots())) + "   ROOMS SOLVED " + g.solved,
                   W / 2, cy0 + 34);
      if (sp) {                        // the stuck crate, ringed in red
        var sx0 = o.x + sp.x * TILE, sy0 = o.y + sp.y * TILE;
        ctx.strokeStyle = "#ff6b6b";
        ctx.lineWidth = 3;
        ctx.beginPath(); ctx.arc(sx0 + TILE / 2, sy0 + TILE / 2, TILE * 0.62, 0, Math.PI * 2); ctx.stroke();
      }
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

  // Every arrow pressed is one step, taken at the next tick in the order pressed (two arrows pressed together
  // are two steps).
  window.addEventListener("keydown", function (e) {
    if (!(e.code in KEYS)) return;
    e.preventDefault();
    if (e.repeat) return;
    pending.push(KEYS[e.code]);
  });

  function gridRows() {
    var lv = g.lv, rows = [];
    for (var y = 0; y < lv.H; y++) {
      var r = "";
      for (var x = 0; x < lv.W; x++) {
        var i = y * lv.W + x, crate = g.crates.indexOf(i) >= 0;
        if (lv.wall[i]) r += "#";
        else if (i === g.worker) r += lv.spot[i] ? "+" : "@";
        else if (crate) r += lv.spot[i] ? "*" : "$";
        else r += lv.spot[i] ? "." : "-";
      }
      rows.push(r);
    }
    return rows;
  }

  window.gameAPI = {
    getState: function () {
      var w = cellXY(g.worker);
      return {
        status: g.over ? "terminal" : "playing",
        actionable: true,
        terminal: { is_terminal: g.over, outcome: g.over ? (g.won ? "win" : "lose") : null,
                    reason: g.over ? g.reason : null },
        score: g.placedBefore + (g.won ? 0 : onSpots()),
        crates_placed: g.placedBefore + (g.won ? 0 : onSpots()),
        levels_solved: g.solved,
        level: g.level + 1,
        crates_on_spots: g.won ? 0 : onSpots(),
        crates_total: g.crates.length,
        moves: g.moves,
        moves_left: g.movesMax - g.moves,
        pushes: g.pushes,
        worker_x: w.x,
        worker_y: w.y,
        grid: gridRows()
      };
    },
    reset: function () {
      pending = [];
      newGame();
      acc = 0;
      draw();
    }
  };

  newGame();
  draw();
  requestAnimationFrame(frame);
})();
