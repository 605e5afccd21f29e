// Coil: a snake game with portals and walls (our own take on the modern browser snake).
// Platform rules (games/README.md): game time only from requestAnimationFrame timestamps; chance only
// from Math.random in a fixed order; no drawing while window.__gameworld.rendering is false and no logic
// in drawing code; the first frame is drawn before the game is actionable and reset() redraws at once;
// integer state, no transcendental maths in the logic.
//
// Movement: the snake steps one cell at fixed game times, three cells every 400 ms, at 20, 150 and 285 ms
// of each 400 ms cycle (7.5 cells a second). With 200 ms actions that is 2 cells, then 1 cell, then 2...,
// and every move is well away from an action's edges, so an arrow pressed at an action's start always
// applies from that action's first move.
(function () {
  "use strict";

  var W = 480, H = 360;
  var COLS = 17, ROWS = 15, CELL = 20;
  var BX = (W - COLS * CELL) >> 1, BY = 50;
  var CYCLE = 400, MOVE_AT = [20, 150, 285];
  var MAX_GAP = 1000;              // ms; a longer gap between frames (a hidden tab) is skipped
  var START_LEN = 4, START_X = 4, START_Y = 7;
  var DX = [0, 1, 0, -1], DY = [-1, 0, 1, 0];   // 0 up, 1 right, 2 down, 3 left
  var DIR_NAMES = ["up", "right", "down", "left"];
  var KEY_DIR = { ArrowUp: 0, ArrowRight: 1, ArrowDown: 2, ArrowLeft: 3 };
  var PAIR_COLORS = [["#ff8a1f", "#ffd39a"], ["#18b6e8", "#a8ecff"]];

  var canvas = document.getElementById("game");
  var ctx = canvas.getContext("2d");
  var g = null;
  var lastTs = null;

  function rnd(n) { return Math.floor(Math.random() * n); }
  function key(x, y) { return y * COLS + x; }

  function newGame() {
    g = { ms: 0, moves: 0, over: false, reason: null, score: 0, apples: 0, trips: 0, warped: false, portalApples: 0,
          dir: 1, pending: -1, body: [], blocks: [], portals: [], apple: null,
          flash: 0, popAt: -1000, warpAt: -1000, parts: [], deadAt: 0 };
    for (var i = 0; i < START_LEN; i++) g.body.push([START_X - i, START_Y]);
    placePortals();
    placeApple();
  }

  function portalAt(x, y) {
    for (var i = 0; i < g.portals.length; i++) {
      var p = g.portals[i];
      if (p[0] === x && p[1] === y) return i;
    }
    return -1;
  }

  function placePortals() {     // two pairs, off the start row, 3+ cells apart, partners 6+ apart
    while (g.portals.length < 4) {
      var x = 2 + rnd(COLS - 4), y = 2 + rnd(ROWS - 4);
      if (y === START_Y) continue;
      var ok = true;
      for (var i = 0; i < g.portals.length; i++) {
        var p = g.portals[i];
        if (Math.max(Math.abs(p[0] - x), Math.abs(p[1] - y)) < 3) ok = false;
      }
      if (ok && (g.portals.length & 1)) {
        var q = g.portals[g.portals.length - 1];
        if (Math.abs(q[0] - x) + Math.abs(q[1] - y) < 6) ok = false;
      }
      if (ok) g.portals.push([x, y]);
    }
  }

  function occupiedMap() {      // 1 snake, 2 block, 3 portal
    var m = new Array(COLS * ROWS).fill(0);
    for (var i = 0; i < g.body.length; i++) m[key(g.body[i][0], g.body[i][1])] = 1;
    for (i = 0; i < g.blocks.length; i++) m[key(g.blocks[i][0], g.blocks[i][1])] = 2;
    for (i = 0; i < g.portals.length; i++) m[key(g.portals[i][0], g.portals[i][1])] = 3;
    return m;
  }

  function placeApple() {
    var m = occupiedMap(), free = [];
    for (var y = 0; y < ROWS; y++) for (var x = 0; x < COLS; x++) if (!m[key(x, y)]) free.push([x, y]);
    g.apple = free.length ? free[rnd(free.length)] : null;
  }

  function connected(m) {       // every non-block, non-portal cell reachable from the head
    var seen = new Array(COLS * ROWS).fill(0), h = g.body[0], stack = [key(h[0], h[1])], n = 0, total = 0;
    for (var i = 0; i < m.length; i++) if (m[i] !== 2 && m[i] !== 3) total++;
    seen[stack[0]] = 1;
    while (stack.length) {
      var c = stack.pop(), cx = c % COLS, cy = (c - cx) / COLS;
      n++;
      for (var d = 0; d < 4; d++) {
        var nx = cx + DX[d], ny = cy + DY[d];
        if (nx < 0 || ny < 0 || nx >= COLS || ny >= ROWS) continue;
        var k = key(nx, ny);
        if (seen[k] || m[k] === 2 || m[k] === 3) continue;
        seen[k] = 1; stack.push(k);
      }
    }
    return n === total;
  }

  function placeBlock() {       // a wall block somewhere fair: off the snake's nose and the portal mouths
    var m = occupiedMap(), h = g.body[0], cand = [];
    var near = new Array(COLS * ROWS).fill(0);
    for (var i = 0; i < g.portals.length; i++)
      for (var d = 0; d < 4; d++) {
        var px = g.portals[i][0] + DX[d], py = g.portals[i][1] + DY[d];
        near[key(px, py)] = 1;
      }
    for (var y = 0; y < ROWS; y++) for (var x = 0; x < COLS; x++) {
      var k = key(x, y);
      if (m[k] || near[k]) continue;
      if (Math.abs(x - h[0]) + Math.abs(y - h[1]) < 4) continue;
      if (g.apple && x === g.apple[0] && y === g.apple[1]) continue;
      cand.push([x, y]);
    }
    while (cand.length) {
      var j = rnd(cand.length), c = cand[j];
      m[key(c[0], c[1])] = 2;
      if (connected(m)) { g.blocks.push(c); g.popAt = g.ms; return; }
      m[key(c[0], c[1])] = 0;
      cand.splice(j, 1);
    }
  }

  function die(reason) {
    g.over = true; g.reason = reason; g.deadAt = g.ms; g.flash = 0;
  }

  function move() {
    if (g.pending >= 0) { if (g.pending !== (g.dir + 2) % 4) g.dir = g.pending; g.pending = -1; }
    var h = g.body[0], nx = h[0] + DX[g.dir], ny = h[1] + DY[g.dir];
    var p = (nx >= 0 && ny >= 0 && nx < COLS && ny < ROWS) ? portalAt(nx, ny) : -1;
    if (p >= 0) {                 // through the portal: out of its partner, same heading
      var q = g.portals[p ^ 1];
      nx = q[0] + DX[g.dir]; ny = q[1] + DY[g.dir];
      g.trips++; g.warped = true; g.score += 5; g.warpAt = g.ms; g.warpPair = p >> 1;
    }
    g.moves++;
    if (nx < 0 || ny < 0 || nx >= COLS || ny >= ROWS) return die("Hit the wall");
    for (var i = 0; i < g.blocks.length; i++)
      if (g.blocks[i][0] === nx && g.blocks[i][1] === ny) return die("Hit a block");
    var eat = g.apple && g.apple[0] === nx && g.apple[1] === ny;
    var last = eat ? g.body.length : g.body.length - 1;     // the tail moves away unless growing
    for (i = 0; i < last; i++)
      if (g.body[i][0] === nx && g.body[i][1] === ny) return die("Bit itself");
    if (portalAt(nx, ny) >= 0) return die("Hit a portal's rim");
    g.body.unshift([nx, ny]);
    if (!eat) { g.body.pop(); return; }
    g.apples++; g.score += 10; g.flash = 240;
    if (g.warped) { g.portalApples++; g.score += 10; g.warped = false; g.bonus = true; } else g.bonus = false;
    for (i = 0; i < 8; i++)
      g.parts.push({ x: nx * 20 + 10, y: ny * 20 + 10, vx: DX[i & 3] * (2 + (i >> 2)) + DY[i & 3] * (i >> 2),
                     vy: DY[i & 3] * (2 + (i >> 2)) - DX[i & 3] * (i >> 2), life: 24 });
    g.apple = null;
    placeBlock();
    placeApple();
  }

  function advance(dt) {        // logic: dt ms of game time
    var before = g.ms;
    g.ms += dt;
    if (g.flash > 0) g.flash = Math.max(0, g.flash - dt);
    for (var i = g.parts.length - 1; i >= 0; i--) {
      var p = g.parts[i];
      p.x += p.vx; p.y += p.vy; p.life--;
      if (p.life <= 0) g.parts.splice(i, 1);
    }
    if (g.over) return;
    // every move time in (before, g.ms]
    var base = before - (before % CYCLE);
    for (var t = base; t <= g.ms && !g.over; t += CYCLE)
      for (var k = 0; k < 3 && !g.over; k++) {
        var at = t + MOVE_AT[k];
        if (at > before && at <= g.ms) move();
      }
  }

  // ---------- drawing (no logic here) ----------
  function roundRect(x, y, w, h, r) {
    ctx.beginPath();
    ctx.moveTo(x + r, y); ctx.lineTo(x + w - r, y); ctx.quadraticCurveTo(x + w, y, x + w, y + r);
    ctx.lineTo(x + w, y + h - r); ctx.quadraticCurveTo(x + w, y + h, x + w - r, y + h);
    ctx.lineTo(x + r, y + h); ctx.quadraticCurveTo(x, y + h, x, y + h - r);
    ctx.lineTo(x, y + r); ctx.quadraticCurveTo(x, y, x + r, y);
    ctx.closePath();
  }

  function drawApple(cx, cy, s) {
    ctx.fillStyle = "rgba(0,0,0,0.15)";
    ctx.beginPath(); ctx.ellipse(cx + 1, cy + 7 * s, 6 * s, 2.5 * s, 0, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = "#e8382f";
    ctx.beginPath(); ctx.arc(cx - 2.5 * s, cy + 1, 5.5 * s, 0, Math.PI * 2); ctx.arc(cx + 2.5 * s, cy + 1, 5.5 * s, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = "#ff7b6b";
    ctx.beginPath(); ctx.arc(cx - 3.5 * s, cy - 1 * s, 1.8 * s, 0, Math.PI * 2); ctx.fill();
    ctx.strokeStyle = "#6b3d1e"; ctx.lineWidth = 1.6 * s;
    ctx.beginPath(); ctx.moveTo(cx, cy - 3 * s); ctx.lineTo(cx + 1 * s, cy - 8 * s); ctx.stroke();
    ctx.fillStyle = "#3fa535";
    ctx.beginPath(); ctx.ellipse(cx + 4 * s, cy - 7 * s, 3.5 * s, 1.8 * s, -0.5, 0, Math.PI * 2); ctx.fill();
  }

  function drawPortal(x, y, pair, t) {
    var cx = BX + x * CELL + 10, cy = BY + y * CELL + 10, c = PAIR_COLORS[pair];
    ctx.fillStyle = "rgba(10,20,40,0.85)";
    ctx.beginPath(); ctx.arc(cx, cy, 9, 0, Math.PI * 2); ctx.fill();
    ctx.strokeStyle = c[0]; ctx.lineWidth = 3;
    ctx.beginPath(); ctx.arc(cx, cy, 8.5, 0, Math.PI * 2); ctx.stroke();
    ctx.strokeStyle = c[1]; ctx.lineWidth = 1.5;
    var a = t / 300;
    for (var i = 0; i < 3; i++) {
      ctx.beginPath(); ctx.arc(cx, cy, 5 - i * 1.5, a + i * 2.1, a + i * 2.1 + 2.4); ctx.stroke();
    }
  }

  function drawBlock(x, y, s) {
    var px = BX + x * CELL, py = BY + y * CELL, m = (1 - s) * 10;
    ctx.fillStyle = "#5b6470";
    roundRect(px + 1 + m, py + 1 + m, 18 - 2 * m, 18 - 2 * m, 3); ctx.fill();
    ctx.fillStyle = "#7d8894";
    roundRect(px + 2 + m, py + 2 + m, 16 - 2 * m, 12 - 2 * m, 2); ctx.fill();
    ctx.fillStyle = "#939fab";
    ctx.fillRect(px + 4 + m, py + 4 + m, Math.max(0, 5 - m), 2);
    ctx.strokeStyle = "#48505a"; ctx.lineWidth = 1;
    ctx.beginPath(); ctx.moveTo(px + 10, py + 3 + m); ctx.lineTo(px + 10, py + 9); ctx.moveTo(px + 5 + m, py + 9);
    ctx.lineTo(px + 15 - m, py + 9); ctx.stroke();
  }

  function cellCenter(c) { return [BX + c[0] * CELL + 10, BY + c[1] * CELL + 10]; }

  function drawSnake() {
    var b = g.body, n = b.length;
    ctx.lineCap = "round"; ctx.lineJoin = "round";
    for (var pass = 0; pass < 2; pass++) {
      ctx.strokeStyle = pass ? (g.over ? "#7b87a8" : "#5a6cf0") : (g.over ? "#4b5470" : "#3243b8");
      ctx.lineWidth = pass ? 12 : 16;
      ctx.beginPath();
      for (var i = 0; i < n; i++) {
        var c = cellCenter(b[i]);
        var jump = i > 0 && Math.abs(b[i][0] - b[i - 1][0]) + Math.abs(b[i][1] - b[i - 1][1]) !== 1;
        if (i === 0 || jump) ctx.moveTo(c[0], c[1]); else ctx.lineTo(c[0], c[1]);
        if (n === 1 || (i < n - 1 && Math.abs(b[i + 1][0] - b[i][0]) + Math.abs(b[i + 1][1] - b[i][1]) !== 1 && (i === 0 || jump)))
          ctx.lineTo(c[0] + 0.1, c[1]);
      }
      ctx.stroke();
    }
    // stripes
    ctx.fillStyle = g.over ? "#9aa3bd" : "#8d9bff";
    for (i = 2; i < n; i += 2) { var s = cellCenter(b[i]); ctx.beginPath(); ctx.arc(s[0], s[1], 2.2, 0, Math.PI * 2); ctx.fill(); }
    // head
    var h = cellCenter(b[0]), d = g.dir;
    ctx.fillStyle = g.over ? "#5e6886" : "#4455e0";
    ctx.beginPath(); ctx.arc(h[0], h[1], 9, 0, Math.PI * 2); ctx.fill();
    var fx = DX[d], fy = DY[d], sx = -fy, sy = fx;
    for (var e = -1; e <= 1; e += 2) {
      var ex = h[0] + fx * 2 + sx * 4 * e, ey = h[1] + fy * 2 + sy * 4 * e;
      ctx.fillStyle = "#ffffff"; ctx.beginPath(); ctx.arc(ex, ey, 3.3, 0, Math.PI * 2); ctx.fill();
      if (g.over) {
        ctx.strokeStyle = "#222"; ctx.lineWidth = 1.3;
        ctx.beginPath(); ctx.moveTo(ex - 2, ey - 2); ctx.lineTo(ex + 2, ey + 2); ctx.moveTo(ex + 2, ey - 2); ctx.lineTo(ex - 2, ey + 2); ctx.stroke();
      } else {
        ctx.fillStyle = "#111a3a"; ctx.beginPath(); ctx.arc(ex + fx * 1.3, ey + fy * 1.3, 1.7, 0, Math.PI * 2); ctx.fill();
      }
    }
    if (!g.over && (g.ms % 1200) < 240) {      // tongue flick
      ctx.strokeStyle = "#e8384f"; ctx.lineWidth = 1.5;
      ctx.beginPath(); ctx.moveTo(h[0] + fx * 9, h[1] + fy * 9); ctx.lineTo(h[0] + fx * 13, h[1] + fy * 13); ctx.stroke();
    }
  }

  function hudIcon(kind, x, y) {
    if (kind === "apple") drawApple(x, y + 1, 0.9);
    else if (kind === "portal") {
      ctx.strokeStyle = PAIR_COLORS[0][0]; ctx.lineWidth = 3;
      ctx.beginPath(); ctx.arc(x, y, 7, 0, Math.PI * 2); ctx.stroke();
      ctx.strokeStyle = PAIR_COLORS[1][0]; ctx.lineWidth = 2;
      ctx.beginPath(); ctx.arc(x, y, 3, 0, Math.PI * 2); ctx.stroke();
    } else {
      ctx.fillStyle = "#7d8894"; roundRect(x - 7, y - 7, 14, 14, 3); ctx.fill();
      ctx.fillStyle = "#939fab"; ctx.fillRect(x - 5, y - 5, 4, 2);
    }
  }

  function draw() {
    ctx.setTransform(1, 0, 0, 1, 0, 0);   // the same canvas state on every frame
    ctx.globalAlpha = 1; ctx.lineCap = "butt"; ctx.lineJoin = "miter"; ctx.lineWidth = 1;
    ctx.fillStyle = "#4a7a2c"; ctx.fillRect(0, 0, W, H);
    // HUD
    ctx.fillStyle = "#3d6824"; ctx.fillRect(0, 0, W, 40);
    ctx.font = "bold 18px sans-serif"; ctx.textBaseline = "middle"; ctx.textAlign = "left";
    hudIcon("apple", 24, 20);
    ctx.fillStyle = g.flash > 0 ? "#fff59a" : "#ffffff"; ctx.fillText(String(g.apples), 40, 21);
    hudIcon("portal", 104, 20);
    ctx.fillStyle = "#ffffff"; ctx.fillText(g.trips + (g.portalApples ? " (" + g.portalApples + ")" : ""), 118, 21);
    hudIcon("block", 206, 20);
    ctx.fillStyle = "#ffffff"; ctx.fillText(String(g.blocks.length), 221, 21);
    ctx.textAlign = "center"; ctx.font = "bold 20px sans-serif"; ctx.fillStyle = "#d9f7a6";
    ctx.fillText("COIL", 300, 21);
    ctx.textAlign = "right"; ctx.font = "bold 16px sans-serif"; ctx.fillStyle = "#ffffff";
    ctx.fillText("SCORE " + g.score, W - 14, 21);
    // board frame and checkers
    ctx.fillStyle = "#2f5519"; roundRect(BX - 6, BY - 6, COLS * CELL + 12, ROWS * CELL + 12, 6); ctx.fill();
    for (var y = 0; y < ROWS; y++) for (var x = 0; x < COLS; x++) {
      ctx.fillStyle = (x + y) & 1 ? "#a6d35a" : "#b3dd66";
      ctx.fillRect(BX + x * CELL, BY + y * CELL, CELL, CELL);
    }
    for (var i = 0; i < g.blocks.length; i++) {
      var s = i === g.blocks.length - 1 ? Math.min(1, (g.ms - g.popAt) / 200) : 1;
      drawBlock(g.blocks[i][0], g.blocks[i][1], s);
    }
    for (i = 0; i < g.portals.length; i++) drawPortal(g.portals[i][0], g.portals[i][1], i >> 1, g.ms);
    if (g.ms - g.warpAt < 250) {
      var pr = PAIR_COLORS[g.warpPair][1];
      ctx.strokeStyle = pr; ctx.lineWidth = 2;
      for (i = 0; i < 2; i++) {
        var pc = cellCenter(g.portals[g.warpPair * 2 + i]);
        ctx.beginPath(); ctx.arc(pc[0], pc[1], 10 + (g.ms - g.warpAt) / 25, 0, Math.PI * 2); ctx.stroke();
      }
    }
    if (g.apple) {
      var bob = ((g.ms / 100) | 0) % 8 < 4 ? 0 : 0.6;
      drawApple(BX + g.apple[0] * CELL + 10, BY + g.apple[1] * CELL + 10 - bob, 1);
    }
    ctx.save(); drawSnake(); ctx.restore();
    ctx.fillStyle = "#ffe066";
    for (i = 0; i < g.parts.length; i++) {
      var p = g.parts[i];
      ctx.globalAlpha = p.life / 24; ctx.fillRect(BX + p.x - 2, BY + p.y - 2, 4, 4);
    }
    ctx.globalAlpha = 1;
    if (g.flash > 120) {
      ctx.textAlign = "center"; ctx.font = "bold 14px sans-serif"; ctx.fillStyle = "#ffffff";
      var hc = cellCenter(g.body[0]);
      var lx = Math.min(Math.max(hc[0], BX + 44), BX + COLS * CELL - 44);
      var ly = Math.max(hc[1] - 16 - (240 - g.flash) / 20, BY + 10);
      ctx.lineWidth = 3; ctx.strokeStyle = "rgba(40,70,20,0.7)";
      ctx.strokeText(g.bonus ? "+20 WARP!" : "+10", lx, ly);
      ctx.fillText(g.bonus ? "+20 WARP!" : "+10", lx, ly);
    }
    if (g.over) {
      ctx.fillStyle = "rgba(20,30,15,0.55)"; ctx.fillRect(BX, BY, COLS * CELL, ROWS * CELL);
      ctx.fillStyle = "#fdfdf5"; roundRect(W / 2 - 120, 130, 240, 120, 12); ctx.fill();
      ctx.strokeStyle = "#3d6824"; ctx.lineWidth = 3; roundRect(W / 2 - 120, 130, 240, 120, 12); ctx.stroke();
      ctx.textAlign = "center"; ctx.fillStyle = "#d0342c"; ctx.font = "bold 28px sans-serif";
      ctx.fillText("GAME OVER", W / 2, 160);
      ctx.fillStyle = "#444"; ctx.font = "15px sans-serif";
      ctx.fillText(g.reason, W / 2, 188);
      ctx.fillStyle = "#222"; ctx.font = "bold 16px sans-serif";
      ctx.fillText("Apples " + g.apples + "   Portals " + g.trips, W / 2, 214);
      ctx.fillText("Score " + g.score, W / 2, 236);
    }
  }

  function rendering() {
    var gw = window.__gameworld;
    return !(gw && gw.rendering === false);
  }

  function frame(ts) {
    if (lastTs !== null) {
      var dt = ts - lastTs;
      if (dt > 0 && dt <= MAX_GAP) advance(dt);
    }
    lastTs = ts;
    if (rendering()) draw();
    requestAnimationFrame(frame);
  }

  window.addEventListener("keydown", function (e) {
    if (!(e.code in KEY_DIR)) return;
    e.preventDefault();
    if (!g.over) g.pending = KEY_DIR[e.code];
  });

  window.gameAPI = {
    getState: function () {
      var h = g.body[0];
      return {
        status: g.over ? "terminal" : "playing",
        actionable: true,
        terminal: { is_terminal: g.over, outcome: g.over ? "lose" : null, reason: g.over ? g.reason : null },
        phase: g.over ? "dead" : "alive",
        score: g.score,
        apples: g.apples,
        length: g.body.length,
        head_x: h[0],
        head_y: h[1],
        direction: DIR_NAMES[g.dir],
        portals_used: g.trips,
        portal_apples: g.portalApples,
        warped: g.warped,
        blocks: g.blocks.length,
        moves: g.moves,
        apple: g.apple ? [g.apple[0], g.apple[1]] : null,
        block_cells: g.blocks.map(function (b) { return [b[0], b[1]]; }),
        portals: [[g.portals[0], g.portals[1]], [g.portals[2], g.portals[3]]].map(function (pr) {
          return pr.map(function (c) { return [c[0], c[1]]; });
        }),
        body: g.body.map(function (c) { return [c[0], c[1]]; })
      };
    },
    reset: function () {
      newGame();
      draw();
    }
  };

  newGame();
  draw();
  requestAnimationFrame(frame);
})();
