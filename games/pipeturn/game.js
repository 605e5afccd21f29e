// Pipe Turn: a timed rotating-pipe puzzle for the GameWorld sandbox.
// A 6x6 grid of pipe tiles (straight, bend, tee, cross). Water waits at a tap on the left edge; after a
// countdown it starts to flow, one tile every 30 ticks (half a second), along the pipes. Turn the tiles (a
// quarter turn clockwise a click) so that the pipes lead from the tap to the drain(s) with no open end: the
// moment they do, the water rushes through and the puzzle is solved, and the next one is dealt. Water that
// meets an open end or a tile that does not connect spills: the game is lost.
// Puzzles come from Math.random (seeded by the sandbox): a random path from the tap to a drain (from puzzle 3
// a branch to a second drain), the other tiles random, then the path's tiles turned at random.
// Time: fixed 1/60 s ticks from the requestAnimationFrame clock; a step of 400 ms is 24 ticks.
(function () {
  "use strict";

  var N = 6, CELL = 64, BX = 48, BY = 116, W = 480, H = 560;
  var TICK_MS = 1000 / 60, MAX_CATCH_UP = 600;
  var COUNTDOWN = 144;        // ticks before the water starts (6 steps of 400 ms)
  var FLOW = 30;              // ticks for the water to pass one tile
  var MARGIN = 12;            // ticks of slack a puzzle leaves a player who turns its tiles in the water's order
  var STEP_TICKS = 24;
  // [least, most clicks needed, shortest path, longest path, with a branch] for puzzles 1, 2, ...
  var BANDS = [[10, 12, 9, 13, 0], [10, 12, 9, 13, 0], [11, 13, 9, 14, 1], [11, 13, 10, 14, 1],
               [12, 14, 10, 15, 1], [12, 14, 10, 15, 1]];
  var DX = [0, 1, 0, -1], DY = [-1, 0, 1, 0];       // N E S W
  var KINDS = "ILTX";                                 // straight, bend, tee, cross
  var BASE = { I: 5, L: 3, T: 7, X: 15 };            // openings at rotation 0: bits N=1 E=2 S=4 W=8

  var canvas = document.getElementById("game");
  var ctx = canvas.getContext("2d");
  var g = null, lastTs = null, acc = 0;

  function rnd(n) { return Math.floor(Math.random() * n); }
  function rot(m, k) { k = ((k % 4) + 4) % 4; while (k--) m = ((m << 1) | (m >> 3)) & 15; return m; }
  function opp(d) { return (d + 2) % 4; }
  function id(c, r) { return r * N + c; }
  function inside(c, r) { return c >= 0 && c < N && r >= 0 && r < N; }
  function dirTo(a, b) {
    var dc = (b % N) - (a % N), dr = ((b / N) | 0) - ((a / N) | 0);
    return dr === -1 ? 0 : dc === 1 ? 1 : dr === 1 ? 2 : 3;
  }
  function kindOf(m) {
    var n = (m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1) + ((m >> 3) & 1);
    return n === 4 ? "X" : n === 3 ? "T" : (m === 5 || m === 10) ? "I" : "L";
  }
  function clicksTo(kind, r, m) { for (var k = 0; k < 4; k++) if (rot(BASE[kind], r + k) === m) return k; return 9; }
  function maskAt(i) { return rot(BASE[g.kind[i]], g.rot[i]); }

  // ------------------------------------------------------------------ puzzles
  function walk(start, end, lmin, lmax) {        // a self-avoiding random walk from start to end, or null
    for (var tries = 0; tries < 400; tries++) {
      var p = [start], seen = {}; seen[start] = 1;
      while (p.length < lmax) {
        var cur = p[p.length - 1];
        if (cur === end) break;
        var opts = [], c = cur % N, r = (cur / N) | 0;
        for (var d = 0; d < 4; d++) {
          var nc = c + DX[d], nr = r + DY[d];
          if (inside(nc, nr) && !seen[id(nc, nr)]) opts.push(id(nc, nr));
        }
        if (!opts.length) break;
        var nx = opts[rnd(opts.length)]; p.push(nx); seen[nx] = 1;
      }
      if (p[p.length - 1] === end && p.length >= lmin && p.length <= lmax) return p;
    }
    return null;
  }

  function walkToEdge(start, avoid, toRow) {     // a branch from start to a cell on row toRow, or null
    for (var tries = 0; tries < 50; tries++) {
      var p = [], cur = start, seen = {};
      for (var a in avoid) seen[a] = 1;
      for (var k = 0; k < 7; k++) {
        var opts = [], c = cur % N, r = (cur / N) | 0;
        for (var d = 0; d < 4; d++) {
          var nc = c + DX[d], nr = r + DY[d];
          if (inside(nc, nr) && !seen[id(nc, nr)]) opts.push(id(nc, nr));
        }
        if (!opts.length) break;
        cur = opts[rnd(opts.length)]; p.push(cur); seen[cur] = 1;
        if (((cur / N) | 0) === toRow && p.length >= 2) return p;
      }
    }
    return null;
  }

  // Can a player who turns the network's tiles in the water's order (nearest the tap first) keep ahead of it?
  function timingOk(need, kind, r0, src) {
    var dist = {}, q = [src], order = [];
    dist[src] = 0;
    for (var h = 0; h < q.length; h++) {
      var c = q[h]; order.push(c);
      for (var d = 0; d < 4; d++) if ((need[c] >> d) & 1) {
        var nc = c % N + DX[d], nr = ((c / N) | 0) + DY[d];
        if (!inside(nc, nr)) continue;
        var n = id(nc, nr);
        if (need[n] !== undefined && dist[n] === undefined) { dist[n] = dist[c] + 1; q.push(n); }
      }
    }
    order.sort(function (a, b) { return dist[a] - dist[b] || a - b; });
    var s = 0;
    for (var j = 0; j < order.length; j++) {
      var t = order[j];
      s += clicksTo(kind[t], r0[t], need[t]);
      if (s * STEP_TICKS + MARGIN > COUNTDOWN + FLOW * dist[t]) return false;
    }
    return true;
  }

  function dealPuzzle(index) {
    var band = BANDS[Math.min(index, BANDS.length) - 1];
    for (;;) {
      var rs = rnd(N), rd = rnd(N);
      var src = id(0, rs), path = walk(src, id(N - 1, rd), band[2], band[3]);
      if (!path) continue;
      var need = {}, i, j;
      for (i = 0; i < path.length; i++) {
        var m = 0;
        if (i === 0) m |= 8; else m |= 1 << dirTo(path[i], path[i - 1]);
        if (i === path.length - 1) m |= 2; else m |= 1 << dirTo(path[i], path[i + 1]);
        need[path[i]] = m;
      }
      var drains = [{ cell: id(N - 1, rd), d: 1 }];
      if (band[4]) {
        var branch = null, from = -1, toRow = 0;
        var avoid = {};
        for (i = 0; i < path.length; i++) avoid[path[i]] = 1;
        for (var t = 0; t < 50 && !branch; t++) {
          from = path[2 + rnd(path.length - 4)];
          toRow = rnd(2) ? N - 1 : 0;
          branch = walkToEdge(from, avoid, toRow);
        }
        if (!branch) continue;
        var prev = from;
        for (j = 0; j < branch.length; j++) {
          need[prev] |= 1 << dirTo(prev, branch[j]);
          need[branch[j]] = 1 << dirTo(branch[j], prev);
          prev = branch[j];
        }
        var out = toRow === 0 ? 0 : 2;
        need[prev] |= 1 << out;
        drains.push({ cell: prev, d: out });
      }
      var kind = [], r0 = [], cells = [];
      for (i = 0; i < N * N; i++) {
        if (need[i] !== undefined) { kind.push(kindOf(need[i])); r0.push(0); cells.push(i); }
        else {
          var x = rnd(100);
          kind.push(x < 30 ? "I" : x < 65 ? "L" : x < 90 ? "T" : "X");
          r0.push(rnd(4));
        }
      }
      var ok = false;
      for (var tries = 0; tries < 200 && !ok; tries++) {
        var total = 0;
        for (j = 0; j < cells.length; j++) {
          r0[cells[j]] = rnd(4);
          total += clicksTo(kind[cells[j]], r0[cells[j]], need[cells[j]]);
        }
        ok = total >= band[0] && total <= band[1] && timingOk(need, kind, r0, src);
      }
      if (!ok) continue;
      return { kind: kind, rot: r0, rs: rs, drains: drains, designed: total, pathLen: cells.length };
    }
  }

  function startPuzzle() {
    var p = dealPuzzle(g.puzzle);
    g.kind = p.kind; g.rot = p.rot; g.rs = p.rs; g.drains = p.drains; g.netSize = p.pathLen;
    g.turnTick = new Int32Array(N * N).fill(-100);
    g.wet = new Int32Array(N * N).fill(-1);          // tick the water reached each tile, -1 dry
    g.front = []; g.count = COUNTDOWN; g.flowing = false; g.flowT = 0; g.wetCount = 0;
    g.puzzleTick = g.tick;
  }

  function newGame() {
    g = { tick: 0, puzzle: 1, solved: 0, score: 0, turns: 0, lockedClicks: 0, over: false, overTick: 0,
          leak: null, cur: id(2, 2), banner: null, lockFlash: null, hover: null };
    startPuzzle();
  }

  function isPort(cell, d) {
    if (cell === id(0, g.rs) && d === 3) return true;
    for (var k = 0; k < g.drains.length; k++) if (g.drains[k].cell === cell && g.drains[k].d === d) return true;
    return false;
  }

  // The pipes joined to the tap: {cells, closed (no open end), drains reached}.
  function network() {
    var src = id(0, g.rs), seen = {}, list = [], reached = 0;
    if (!(maskAt(src) & 8)) return { cells: list, closed: false, reached: 0 };
    var st = [src]; seen[src] = 1;
    var closed = true;
    while (st.length) {
      var c = st.pop(); list.push(c);
      var m = maskAt(c);
      for (var d = 0; d < 4; d++) if ((m >> d) & 1) {
        var nc = c % N + DX[d], nr = ((c / N) | 0) + DY[d];
        if (!inside(nc, nr)) {
          if (isPort(c, d)) { if (d !== 3 || c !== src) reached++; } else closed = false;
          continue;
        }
        var n = id(nc, nr);
        if (!((maskAt(n) >> opp(d)) & 1)) { closed = false; continue; }
        if (!seen[n]) { seen[n] = 1; st.push(n); }
      }
    }
    return { cells: list, closed: closed, reached: reached };
  }

  function checkSolved() {
    var net = network();
    if (!net.closed || net.reached !== g.drains.length) return false;
    g.solved++;
    var bonus = g.flowing ? 0 : Math.ceil(g.count / STEP_TICKS) * 10;
    var points = 100 + 10 * net.cells.length + bonus;
    g.score += points;
    g.banner = { t: g.tick, n: g.solved, points: points };
    g.puzzle++;
    startPuzzle();
    return true;
  }

  function lose(cell, d) {
    g.over = true; g.overTick = g.tick; g.leak = { cell: cell, d: d };
  }

  function turn(i) {
    if (g.over) return;
    if (g.wet[i] >= 0) { g.lockedClicks++; g.lockFlash = { cell: i, t: g.tick }; return; }
    g.rot[i] = (g.rot[i] + 1) % 4; g.turns++; g.turnTick[i] = g.tick;
    checkSolved();
  }

  function flowStep() {
    var next = [];
    for (var k = 0; k < g.front.length; k++) {
      var c = g.front[k], m = maskAt(c);
      for (var d = 0; d < 4; d++) if ((m >> d) & 1) {
        var nc = c % N + DX[d], nr = ((c / N) | 0) + DY[d];
        if (!inside(nc, nr)) { if (!isPort(c, d)) { lose(c, d); return; } continue; }
        var n = id(nc, nr);
        if (!((maskAt(n) >> opp(d)) & 1)) { lose(c, d); return; }
        if (g.wet[n] < 0) { g.wet[n] = g.tick; g.wetCount++; next.push(n); }
      }
    }
    g.front = next;
    if (!next.length && !checkSolved()) lose(g.front.length ? g.front[0] : id(0, g.rs), -1);
  }

  function step() {
    g.tick++;
    if (g.over) return;
    if (!g.flowing) {
      g.count--;
      if (g.count <= 0) {
        g.flowing = true; g.flowT = FLOW;
        var src = id(0, g.rs);
        if (!(maskAt(src) & 8)) { lose(src, 3); return; }
        g.wet[src] = g.tick; g.wetCount = 1; g.front = [src];
      }
      return;
    }
    if (--g.flowT > 0) return;
    g.flowT = FLOW;
    flowStep();
  }

  // ------------------------------------------------------------------ input
  function cellAt(x, y) {
    var lx = x - BX, ly = y - BY;
    if (lx < 0 || ly < 0 || lx >= N * CELL || ly >= N * CELL) return -1;
    return id(Math.floor(lx / CELL), Math.floor(ly / CELL));
  }
  function canvasXY(e) {
    var rect = canvas.getBoundingClientRect();
    return [(e.clientX - rect.left) * canvas.width / rect.width, (e.clientY - rect.top) * canvas.height / rect.height];
  }
  canvas.addEventListener("mousedown", function (e) {
    e.preventDefault();
    if (e.button !== 0 || g.over) return;
    var p = canvasXY(e), i = cellAt(p[0], p[1]);
    if (i >= 0) { g.cur = i; turn(i); }
  });
  canvas.addEventListener("mousemove", function (e) { var p = canvasXY(e); g.hover = cellAt(p[0], p[1]); });
  canvas.addEventListener("mouseleave", function () { g.hover = null; });
  window.addEventListener("keydown", function (e) {
    var c = g.cur % N, r = (g.cur / N) | 0;
    if (e.code === "ArrowLeft") c = Math.max(0, c - 1);
    else if (e.code === "ArrowRight") c = Math.min(N - 1, c + 1);
    else if (e.code === "ArrowUp") r = Math.max(0, r - 1);
    else if (e.code === "ArrowDown") r = Math.min(N - 1, r + 1);
    else if (e.code !== "Space") return;
    e.preventDefault();
    if (e.repeat || g.over) return;
    if (e.code === "Space") turn(g.cur); else g.cur = id(c, r);
  });

  // ------------------------------------------------------------------ drawing
  function rrect(x, y, w, h, rad) {
    ctx.beginPath();
    ctx.moveTo(x + rad, y); ctx.lineTo(x + w - rad, y); ctx.quadraticCurveTo(x + w, y, x + w, y + rad);
    ctx.lineTo(x + w, y + h - rad); ctx.quadraticCurveTo(x + w, y + h, x + w - rad, y + h);
    ctx.lineTo(x + rad, y + h); ctx.quadraticCurveTo(x, y + h, x, y + h - rad);
    ctx.lineTo(x, y + rad); ctx.quadraticCurveTo(x, y, x + rad, y);
    ctx.closePath();
  }

  // One tile's pipes, drawn around its centre at angle `ang` (radians) from its rotation-0 shape.
  function drawPipes(kind, cx, cy, ang, wetLevel, hot) {
    var base = BASE[kind], half = CELL / 2;
    ctx.save();
    ctx.translate(cx, cy); ctx.rotate(ang);
    var arms = [];
    for (var d = 0; d < 4; d++) if ((base >> d) & 1) arms.push(d);
    function armsPath() {
      ctx.beginPath();
      for (var k = 0; k < arms.length; k++) {
        ctx.moveTo(0, 0); ctx.lineTo(DX[arms[k]] * half, DY[arms[k]] * half);
      }
    }
    ctx.lineCap = "butt";
    // pipe wall
    ctx.strokeStyle = "#2b2f3a"; ctx.lineWidth = 24; armsPath(); ctx.stroke();
    ctx.strokeStyle = hot ? "#d9dee8" : "#aab2c0"; ctx.lineWidth = 20; armsPath(); ctx.stroke();
    ctx.strokeStyle = "rgba(255,255,255,0.45)"; ctx.lineWidth = 4;
    ctx.save(); ctx.translate(-4, -4); armsPath(); ctx.stroke(); ctx.restore();
    // bore: dark when dry, blue when wet
    ctx.strokeStyle = "#3a3f4c"; ctx.lineWidth = 10; armsPath(); ctx.stroke();
    if (wetLevel > 0) {
      ctx.globalAlpha = Math.min(1, wetLevel);
      ctx.strokeStyle = "#2f9bff"; ctx.lineWidth = 10; armsPath(); ctx.stroke();
      ctx.strokeStyle = "rgba(190,235,255,0.8)"; ctx.lineWidth = 3; armsPath(); ctx.stroke();
      ctx.globalAlpha = 1;
    }
    // hub and flanges
    ctx.fillStyle = "#8e97a8"; ctx.beginPath(); ctx.arc(0, 0, 12, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = wetLevel > 0 ? "#2f9bff" : "#3a3f4c"; ctx.beginPath(); ctx.arc(0, 0, 6, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = "#6f7889";
    for (var k = 0; k < arms.length; k++) {
      var a = arms[k];
      if (DX[a]) ctx.fillRect(DX[a] * (half - 5) - 3, -14, 6, 28);
      else ctx.fillRect(-14, DY[a] * (half - 5) - 3, 28, 6);
    }
    ctx.restore();
  }

  function drawTap(y) {
    var x = BX - 6;
    ctx.fillStyle = "#8b5a2b"; ctx.fillRect(4, y - 26, 10, 52);
    ctx.fillStyle = "#c0c7d4"; rrect(10, y - 12, x - 10, 24, 5); ctx.fill();
    ctx.strokeStyle = "#4b5263"; ctx.lineWidth = 2; rrect(10, y - 12, x - 10, 24, 5); ctx.stroke();
    ctx.fillStyle = g.flowing ? "#2f9bff" : "#3a3f4c"; ctx.fillRect(14, y - 5, x - 14, 10);
    // the valve wheel
    ctx.strokeStyle = "#d23c3c"; ctx.lineWidth = 4;
    ctx.beginPath(); ctx.arc(24, y - 20, 9, 0, Math.PI * 2); ctx.stroke();
    ctx.beginPath(); ctx.moveTo(15, y - 20); ctx.lineTo(33, y - 20); ctx.moveTo(24, y - 29); ctx.lineTo(24, y - 11); ctx.stroke();
  }

  function drawDrain(cell, d) {
    var c = cell % N, r = (cell / N) | 0;
    var cx = BX + c * CELL + CELL / 2 + DX[d] * (CELL / 2 + 12), cy = BY + r * CELL + CELL / 2 + DY[d] * (CELL / 2 + 12);
    ctx.save(); ctx.translate(cx, cy);
    ctx.fillStyle = "#1b2230"; ctx.strokeStyle = "#9fe870"; ctx.lineWidth = 3;
    ctx.beginPath(); ctx.arc(0, 0, 12, 0, Math.PI * 2); ctx.fill(); ctx.stroke();
    ctx.strokeStyle = "#9fe870"; ctx.lineWidth = 2;
    for (var k = -1; k <= 1; k++) { ctx.beginPath(); ctx.moveTo(-7, k * 5); ctx.lineTo(7, k * 5); ctx.stroke(); }
    ctx.restore();
  }

  function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }

  function drawHUD() {
    ctx.textBaseline = "middle"; ctx.textAlign = "left";
    ctx.fillStyle = "#7fd3ff"; ctx.font = "bold 21px 'DejaVu Sans', sans-serif";
    ctx.fillText("PIPE TURN", 18, 22);
    ctx.textAlign = "right"; ctx.fillStyle = "#c9d6ea"; ctx.font = "bold 13px 'DejaVu Sans', sans-serif";
    ctx.fillText("PUZZLE " + g.puzzle + "   \u2022   SCORE " + g.score, W - 18, 22);
    var boxes = [
      ["SOLVED", String(g.solved), "#9fe870"],
      [g.flowing ? "WATER" : "WATER IN", g.flowing ? "FLOWING" : plural(Math.ceil(g.count / STEP_TICKS), "step"), g.flowing ? "#2f9bff" : (g.count <= 48 ? "#ff7a59" : "#5d6b85")],
      ["CONNECTED", plural(network().cells.length, "tile"), "#5d6b85"],
      ["TURNS", String(g.turns), "#5d6b85"]
    ];
    var x = 18, widths = [84, 130, 124, 74];
    for (var k = 0; k < boxes.length; k++) {
      var w = widths[k];
      ctx.fillStyle = "rgba(0,0,0,0.35)"; rrect(x, 40, w, 50, 8); ctx.fill();
      ctx.strokeStyle = boxes[k][2]; ctx.lineWidth = 2; rrect(x, 40, w, 50, 8); ctx.stroke();
      ctx.textAlign = "center"; ctx.fillStyle = "#93a3bf"; ctx.font = "bold 10px 'DejaVu Sans', sans-serif";
      ctx.fillText(boxes[k][0], x + w / 2, 51);
      ctx.fillStyle = "#ffffff"; ctx.font = "bold 18px 'DejaVu Sans', sans-serif";
      ctx.fillText(boxes[k][1], x + w / 2, 73);
      x += w + 8;
    }
  }

  function drawBoard() {
    ctx.fillStyle = "#121826"; rrect(BX - 6, BY - 6, N * CELL + 12, N * CELL + 12, 10); ctx.fill();
    var net = network(), inNet = {};
    for (var k = 0; k < net.cells.length; k++) inNet[net.cells[k]] = 1;
    for (var i = 0; i < N * N; i++) {
      var c = i % N, r = (i / N) | 0, x = BX + c * CELL, y = BY + r * CELL;
      ctx.fillStyle = (c + r) % 2 ? "#1e2636" : "#232c3e"; ctx.fillRect(x, y, CELL, CELL);
      ctx.strokeStyle = "rgba(255,255,255,0.05)"; ctx.lineWidth = 1; ctx.strokeRect(x + 0.5, y + 0.5, CELL - 1, CELL - 1);
      if (inNet[i] && g.wet[i] < 0) { ctx.fillStyle = "rgba(127,211,255,0.07)"; ctx.fillRect(x, y, CELL, CELL); }
      var p = Math.min(1, (g.tick - g.turnTick[i]) / 8), ang = (g.rot[i] - 1 + p) * Math.PI / 2;
      var wl = g.wet[i] >= 0 ? Math.min(1, (g.tick - g.wet[i] + 4) / FLOW) : 0;
      drawPipes(g.kind[i], x + CELL / 2, y + CELL / 2, ang, wl, i === g.hover);
      if (g.wet[i] >= 0) {            // a small lock: wet tiles cannot turn
        ctx.fillStyle = "rgba(47,155,255,0.9)"; ctx.fillRect(x + CELL - 13, y + 5, 8, 7);
        ctx.strokeStyle = "rgba(47,155,255,0.9)"; ctx.lineWidth = 1.5;
        ctx.beginPath(); ctx.arc(x + CELL - 9, y + 5, 3, Math.PI, 0); ctx.stroke();
      }
    }
    if (g.lockFlash && g.tick - g.lockFlash.t < 20) {
      var lc = g.lockFlash.cell;
      ctx.strokeStyle = "#ff7a59"; ctx.lineWidth = 3;
      ctx.strokeRect(BX + (lc % N) * CELL + 2, BY + ((lc / N) | 0) * CELL + 2, CELL - 4, CELL - 4);
    }
    ctx.strokeStyle = "rgba(255,255,255,0.6)"; ctx.lineWidth = 1.5; ctx.setLineDash([5, 4]);
    ctx.strokeRect(BX + (g.cur % N) * CELL + 4, BY + ((g.cur / N) | 0) * CELL + 4, CELL - 8, CELL - 8);
    ctx.setLineDash([]);
    drawTap(BY + g.rs * CELL + CELL / 2);
    for (k = 0; k < g.drains.length; k++) drawDrain(g.drains[k].cell, g.drains[k].d);
  }

  function drawLeak() {
    if (!g.over || !g.leak) return;
    var c = g.leak.cell % N, r = (g.leak.cell / N) | 0, d = g.leak.d < 0 ? 1 : g.leak.d;
    var cx = BX + c * CELL + CELL / 2 + DX[d] * CELL / 2, cy = BY + r * CELL + CELL / 2 + DY[d] * CELL / 2;
    var age = Math.min(40, g.tick - g.overTick);
    ctx.fillStyle = "rgba(47,155,255,0.55)";
    ctx.beginPath(); ctx.arc(cx, cy, 10 + age * 0.8, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = "#bfe6ff";
    for (var k = 0; k < 8; k++) {
      var a = k * Math.PI / 4 + 0.3, rr = 8 + age * 1.1;
      ctx.beginPath(); ctx.arc(cx + Math.cos(a) * rr, cy + Math.sin(a) * rr, 3, 0, Math.PI * 2); ctx.fill();
    }
    ctx.fillStyle = "rgba(8,12,22,0.72)"; ctx.fillRect(BX - 6, BY + 120, N * CELL + 12, 140);
    ctx.textAlign = "center"; ctx.textBaseline = "middle";
    ctx.fillStyle = "#ff7a59"; ctx.font = "bold 38px 'DejaVu Sans', sans-serif";
    ctx.fillText("LEAK!", BX + N * CELL / 2, BY + 162);
    ctx.fillStyle = "#ffffff"; ctx.font = "bold 15px 'DejaVu Sans', sans-serif";
    ctx.fillText("The water spilled on puzzle " + g.puzzle + ".", BX + N * CELL / 2, BY + 200);
    ctx.fillText("Puzzles solved " + g.solved + "   \u2022   Score " + g.score, BX + N * CELL / 2, BY + 226);
  }

  function bannerOn() { return g.banner && !g.over && g.tick - g.banner.t <= 90; }

  // After a puzzle is solved: a strip under the board (the board itself stays in view).
  function drawBanner() {
    if (!bannerOn()) return;
    var b = g.banner, age = g.tick - b.t;
    ctx.globalAlpha = age < 75 ? 1 : (90 - age) / 15;
    ctx.fillStyle = "rgba(18,46,30,0.95)"; rrect(BX - 6, H - 33, N * CELL + 12, 28, 9); ctx.fill();
    ctx.strokeStyle = "#9fe870"; ctx.lineWidth = 2; rrect(BX - 6, H - 33, N * CELL + 12, 28, 9); ctx.stroke();
    ctx.textAlign = "center"; ctx.textBaseline = "middle";
    ctx.fillStyle = "#9fe870"; ctx.font = "bold 12px 'DejaVu Sans', sans-serif";
    ctx.fillText("PUZZLE " + b.n + " FLOWS! +" + b.points + "   \u2022   Next: puzzle " + g.puzzle +
                 (g.drains.length > 1 ? " (two drains)" : ""), W / 2, H - 19);
    ctx.globalAlpha = 1;
  }

  function drawFooter() {
    if (bannerOn()) return;
    ctx.textAlign = "center"; ctx.textBaseline = "middle";
    ctx.fillStyle = "#7f8ba3"; ctx.font = "11px 'DejaVu Sans', sans-serif";
    ctx.fillText("Click a tile to turn it a quarter turn clockwise. Join the tap to every drain.", W / 2, H - 18);
  }

  function draw() {
    var bg = ctx.createLinearGradient(0, 0, 0, H);
    bg.addColorStop(0, "#16263a"); bg.addColorStop(1, "#0a111c");
    ctx.fillStyle = bg; ctx.fillRect(0, 0, W, H);
    drawHUD();
    drawBoard();
    drawFooter();
    drawBanner();
    drawLeak();
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

  function rows(fn) {
    var out = [];
    for (var r = 0; r < N; r++) { var s = ""; for (var c = 0; c < N; c++) s += fn(id(c, r)); out.push(s); }
    return out;
  }

  window.gameAPI = {
    getState: function () {
      var net = network();
      return {
        status: g.over ? "terminal" : "playing",
        actionable: !g.over,
        terminal: { is_terminal: g.over, outcome: g.over ? "lose" : null, reason: g.over ? "the water leaked" : null },
        score: g.score,
        puzzle: g.puzzle,
        puzzles_solved: g.solved,
        tiles_connected: net.cells.length,
        drains_reached: net.reached,
        drains: g.drains.length,
        water_tiles: g.wetCount,
        steps_until_flow: g.flowing ? 0 : Math.ceil(g.count / STEP_TICKS),
        flowing: g.flowing ? 1 : 0,
        turns: g.turns,
        source_row: g.rs,
        drain_ports: g.drains.map(function (dr) { return [dr.cell % N, (dr.cell / N) | 0, "NESW".charAt(dr.d)]; }),
        pipes: rows(function (i) { return maskAt(i).toString(16); }),
        kinds: rows(function (i) { return g.kind[i]; }),
        wet: rows(function (i) { return g.wet[i] >= 0 ? "1" : "0"; }),
        cursor: g.cur
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
