// Dot Dodge: a World's Hardest Game-style puzzle. Steer a square through lines of moving dots, pick up
// every coin of the level, then step into the green goal zone. A dot sends the square back to the level's
// start (the level's coins come back too) and costs a life; with no lives left the run is over.
// Platform rules kept here (games/README.md):
// - time only from the virtual clock: logic runs in fixed 1/60 s ticks; the tick count is computed from the
//   clock in whole numbers (tick = floor((now - base) * 3 / 50)), caught up on every animation frame and on
//   every key event, so a key held for 200 ms always covers exactly 12 ticks (24 px, one cell);
// - chance only from Math.random, drawn in a fixed order when a level starts: the level's dot timing offset,
//   then, in level 1 only, where its coin lies (one of COIN_SPOTS_1) and each of its dots' own phase;
// - no drawing while window.__gameworld.rendering is false, and no logic in drawing code;
// - the first frame is drawn before the game reports actionable, and reset() redraws;
// - integer state, no transcendental maths in the logic (drawing may use any).
(function () {
  "use strict";

  var W = 480, H = 360, HUD_H = 40, CELL = 24, COLS = 20, ROWS = 13;
  var SPEED = 2;                  // px per tick while an arrow is held: 24 px (one cell) per 200 ms step
  var WALL_HALF = 12;             // the square's box against walls: a whole cell, so it stays on the grid
  var HIT_HALF = 9;               // the square's box against dots (drawn 18 px wide)
  var DOT_R = 6;
  var LIVES = 5;
  var MAX_CATCH_UP = 3600;        // ticks; a longer gap (a hidden tab) is skipped, not replayed

  // Levels: 20 x 13 cells. '#' wall, '.' floor, 'S' start zone, 'G' goal zone, 'P' the start (in the
  // start zone), 'c' a coin. Dots run round closed loops of cell centres at `speed` px a tick, starting
  // `phase` px along the loop; a level's period is a whole number of ticks after which every dot is back.
  var LEVELS = [
    { name: "Warm-up", period: 72,
      map: [
        "####################",
        "####################",
        "####################",
        "###............#####",
        "#SS............GG###",
        "#SS............GG###",
        "#PS............GG###",
        "#SS............GG###",
        "#SS............GG###",
        "###............#####",
        "####################",
        "####################",
        "####################"],
      dots: [
        { pts: [[4, 3], [4, 9]], speed: 4, phase: 0 },
        { pts: [[6, 3], [6, 9]], speed: 4, phase: 144 },
        { pts: [[8, 3], [8, 9]], speed: 4, phase: 0 },
        { pts: [[10, 3], [10, 9]], speed: 4, phase: 144 },
        { pts: [[12, 3], [12, 9]], speed: 4, phase: 0 },
        { pts: [[14, 3], [14, 9]], speed: 4, phase: 144 }] },
    { name: "The Ladder", period: 108,
      map: [
        "########GGGG########",
        "########GGGG########",
        "#####..........#####",
        "#####..........#####",
        "#####.c........#####",
        "#####..........#####",
        "#####..........#####",
        "#####..........#####",
        "#####......c...#####",
        "#####..........#####",
        "#####..........#####",
        "########SSSS########",
        "########SPSS########"],
      dots: [
        { pts: [[5, 2], [14, 2]], speed: 4, phase: 100 },
        { pts: [[5, 4], [14, 4]], speed: 4, phase: 0 },
        { pts: [[5, 5], [14, 5]], speed: 4, phase: 216 },
        { pts: [[5, 7], [14, 7]], speed: 4, phase: 60 },
        { pts: [[5, 9], [14, 9]], speed: 4, phase: 300 },
        { pts: [[5, 10], [14, 10]], speed: 4, phase: 150 }] },
    { name: "The Ring", period: 288,
      map: [
        "####################",
        "####################",
        "###.............####",
        "###.............####",
        "#SS.............GG##",
        "#SS.............GG##",
        "#PS......c......GG##",
        "#SS.............GG##",
        "#SS.............GG##",
        "###.............####",
        "###.............####",
        "####################",
        "####################"],
      dots: [
        { pts: [[6, 3], [12, 3], [12, 9], [6, 9]], speed: 4, phase: 0 },
        { pts: [[6, 3], [12, 3], [12, 9], [6, 9]], speed: 4, phase: 144 },
        { pts: [[6, 3], [12, 3], [12, 9], [6, 9]], speed: 4, phase: 288 },
        { pts: [[6, 3], [12, 3], [12, 9], [6, 9]], speed: 4, phase: 432 },
        { pts: [[4, 2], [4, 10]], speed: 4, phase: 0 },
        { pts: [[14, 2], [14, 10]], speed: 4, phase: 96 }] },
    { name: "Crossfire", period: 96,
      map: [
        "####################",
        "####################",
        "##c...............##",
        "#SS...............G#",
        "#SS...............G#",
        "#PS...............G#",
        "#SS...............G#",
        "#SS...............G#",
        "##...............c##",
        "####################",
        "####################",
        "####################",
        "####################"],
      dots: [
        { pts: [[5, 2], [5, 8]], speed: 3, phase: 0 },
        { pts: [[8, 2], [8, 8]], speed: 3, phase: 72 },
        { pts: [[11, 2], [11, 8]], speed: 3, phase: 144 },
        { pts: [[14, 2], [14, 8]], speed: 3, phase: 216 },
        { pts: [[3, 5], [17, 5]], speed: 7, phase: 0 },
        { pts: [[3, 3], [17, 3]], speed: 7, phase: 336 },
        { pts: [[3, 7], [17, 7]], speed: 7, phase: 168 }] }
  ];
  var TOTAL_COINS = 0;
  var DIRS8 = [[4, 0], [3, 3], [0, 4], [-3, 3], [-4, 0], [-3, -3], [0, -4], [3, -3]];

  var canvas = document.getElementById("game");
  var ctx = canvas.getContext("2d");
  var held = { ArrowLeft: false, ArrowRight: false, ArrowUp: false, ArrowDown: false };
  var g = null;                   // the game state
  var base = 0;                   // clock time (ms) of the attempt's tick 0
  var bgCache = {};               // level index -> pre-drawn floor and walls

  function cx(c) { return c * CELL + CELL / 2; }
  function cy(r) { return HUD_H + r * CELL + CELL / 2; }

  // ---- level data -------------------------------------------------------------------------------
  LEVELS.forEach(function (lv) {
    lv.coins = [];
    lv.map.forEach(function (row, r) {
      for (var c = 0; c < COLS; c++) {
        if (row[c] === "c") lv.coins.push([c, r]);
        if (row[c] === "P") lv.start = [c, r];
      }
    });
    TOTAL_COINS += lv.coins.length;
    lv.loops = lv.dots.map(function (d) {
      var pts = d.pts.map(function (p) { return [cx(p[0]), cy(p[1])]; });
      if (pts.length === 2) pts = [pts[0], pts[1]];
      var segs = [], len = 0;
      for (var i = 0; i < pts.length; i++) {
        var a = pts[i], b = pts[(i + 1) % pts.length];
        var n = Math.max(Math.abs(b[0] - a[0]), Math.abs(b[1] - a[1]));
        segs.push({ x: a[0], y: a[1], dx: Math.sign(b[0] - a[0]), dy: Math.sign(b[1] - a[1]), at: len, n: n });
        len += n;
      }
      return { segs: segs, len: len, speed: d.speed, phase: d.phase };
    });
  });

  // level 1's coin: one of these cells (past three to five columns of dots), drawn from the seed; none lies on
  // the start row or along the top or bottom wall, so no held arrow or pair of arrows slides onto it
  var COIN_SPOTS_1 = [[9, 4], [11, 4], [13, 4], [9, 8], [11, 8], [13, 8]];
  LEVELS[0].coins = [[11, 4]];            // level 1 has one coin; the seed moves it
  TOTAL_COINS += 1;

  function cellAt(lv, c, r) {
    if (c < 0 || r < 0 || c >= COLS || r >= ROWS) return "#";
    return lv.map[r][c];
  }

  function dotPos(loop, phase, t) {
    var d = (phase + loop.speed * t) % loop.len;
    for (var i = loop.segs.length - 1; i >= 0; i--) {
      var s = loop.segs[i];
      if (d >= s.at) return [s.x + s.dx * (d - s.at), s.y + s.dy * (d - s.at)];
    }
    return [loop.segs[0].x, loop.segs[0].y];
  }

  // ---- game state --------------------------------------------------------------------------------
  function newGame() {
    g = { tick: 0, coins: 0, levelsDone: 0, lives: LIVES, deaths: 0, over: false, won: false,
          level: 0, lt: 0, taken: [], px: 0, py: 0, dots: [], burst: null, banner: 0, coinFlash: 0,
          };
    startLevel(0);
  }

  function startLevel(i) {
    var lv = LEVELS[i];
    g.level = i;
    g.lt = Math.floor(Math.random() * lv.period);   // the seed's timing of this level's dots
    g.coinsAt = lv.coins.map(function (p) { return [p[0], p[1]]; });
    g.phases = lv.loops.map(function (l) { return l.phase; });
    if (i === 0) {                  // level 1: the seed places its coin and each dot's phase
      var spot = COIN_SPOTS_1[Math.floor(Math.random() * COIN_SPOTS_1.length)];
      g.coinsAt = [[spot[0], spot[1]]];
      g.phases = lv.loops.map(function (l) { return Math.floor(Math.random() * l.len); });
    }
    g.taken = g.coinsAt.map(function () { return false; });
    g.px = cx(lv.start[0]); g.py = cy(lv.start[1]);
    placeDots();
  }

  function placeDots() {
    var loops = LEVELS[g.level].loops;
    g.dots = loops.map(function (l, k) { return dotPos(l, g.phases[k], g.lt); });
  }

  function blocked(x, y) {        // the square's wall box (a whole cell) overlaps a wall
    var lv = LEVELS[g.level];
    var c0 = Math.floor((x - WALL_HALF) / CELL), c1 = Math.floor((x + WALL_HALF - 1) / CELL);
    var r0 = Math.floor((y - WALL_HALF - HUD_H) / CELL), r1 = Math.floor((y + WALL_HALF - 1 - HUD_H) / CELL);
    for (var r = r0; r <= r1; r++) for (var c = c0; c <= c1; c++) if (cellAt(lv, c, r) === "#") return true;
    return false;
  }

  function hit(d) {
    var nx = Math.max(g.px - HIT_HALF, Math.min(g.px + HIT_HALF, d[0]));
    var ny = Math.max(g.py - HIT_HALF, Math.min(g.py + HIT_HALF, d[1]));
    var ex = nx - d[0], ey = ny - d[1];
    return ex * ex + ey * ey < DOT_R * DOT_R;
  }

  function levelCoins() {
    var n = 0;
    g.taken.forEach(function (t) { if (t) n++; });
    return n;
  }

  function step() {                // one logic tick
    g.tick++;
    if (g.banner > 0) g.banner--;
    if (g.coinFlash > 0) g.coinFlash--;
    if (g.burst) { g.burst.t++; if (g.burst.t > 45) g.burst = null; }
    if (g.over) return;
    g.lt++;
    placeDots();
    var dx = (held.ArrowRight ? 1 : 0) - (held.ArrowLeft ? 1 : 0);
    var dy = (held.ArrowDown ? 1 : 0) - (held.ArrowUp ? 1 : 0);
    if (dx && !blocked(g.px + SPEED * dx, g.py)) g.px += SPEED * dx;
    if (dy && !blocked(g.px, g.py + SPEED * dy)) g.py += SPEED * dy;
    var lv = LEVELS[g.level];
    for (var i = 0; i < g.coinsAt.length; i++) {
      if (g.taken[i]) continue;
      if (Math.abs(g.px - cx(g.coinsAt[i][0])) < 16 && Math.abs(g.py - cy(g.coinsAt[i][1])) < 16) {
        g.taken[i] = true; g.coins++; g.coinFlash = 18;
      }
    }
    for (var k = 0; k < g.dots.length; k++) {
      if (hit(g.dots[k])) { die(); return; }
    }
    var c = Math.floor(g.px / CELL), r = Math.floor((g.py - HUD_H) / CELL);
    if (cellAt(lv, c, r) === "G" && levelCoins() === g.coinsAt.length) {
      g.levelsDone++;
      releaseKeys();
      if (g.level + 1 >= LEVELS.length) { g.over = true; g.won = true; return; }
      startLevel(g.level + 1);
      g.banner = 50;
    }
  }

  function releaseKeys() { for (var key in held) held[key] = false; }

  function die() {
    g.burst = { x: g.px, y: g.py, t: 0 };
    g.deaths++;
    g.lives--;
    g.coins -= levelCoins();
    g.taken = g.taken.map(function () { return false; });
    releaseKeys();                // the square stops: press again to move on
    if (g.lives <= 0) { g.over = true; return; }
    var lv = LEVELS[g.level];
    g.px = cx(lv.start[0]); g.py = cy(lv.start[1]);
  }

  // ---- clock -------------------------------------------------------------------------------------
  function catchUp(now) {
    var target = Math.floor((now - base) * 3 / 50);
    var n = 0;
    while (g.tick < target) {
      if (n++ >= MAX_CATCH_UP) { g.tick = target; break; }
      step();
    }
  }

  // ---- drawing -----------------------------------------------------------------------------------
  function levelBackground(i) {
    if (bgCache[i]) return bgCache[i];
    var lv = LEVELS[i];
    var off = document.createElement("canvas");
    off.width = W; off.height = H;
    var o = off.getContext("2d");
    var bg = o.createLinearGradient(0, HUD_H, 0, H);
    bg.addColorStop(0, "#2b2f6e");
    bg.addColorStop(1, "#14173a");
    o.fillStyle = bg;
    o.fillRect(0, HUD_H, W, H - HUD_H);
    o.strokeStyle = "rgba(255,255,255,0.04)";
    for (var gx = 0; gx <= W; gx += 12) { o.beginPath(); o.moveTo(gx + 0.5, HUD_H); o.lineTo(gx + 0.5, H); o.stroke(); }
    for (var gy = HUD_H; gy <= H; gy += 12) { o.beginPath(); o.moveTo(0, gy + 0.5); o.lineTo(W, gy + 0.5); o.stroke(); }
    for (var r = 0; r < ROWS; r++) {
      for (var c = 0; c < COLS; c++) {
        var ch = lv.map[r][c], x = c * CELL, y = HUD_H + r * CELL;
        if (ch === "#") continue;
        if (ch === "S" || ch === "P" || ch === "G") {
          o.fillStyle = ((r + c) % 2) ? "#9be8a8" : "#8ad998";
        } else {
          o.fillStyle = ((r + c) % 2) ? "#eef0ff" : "#d9dcf7";
        }
        o.fillRect(x, y, CELL, CELL);
      }
    }
    // outline of the floor: a thick dark edge wherever floor meets wall
    o.fillStyle = "#0b0d24";
    for (r = 0; r < ROWS; r++) {
      for (c = 0; c < COLS; c++) {
        if (lv.map[r][c] === "#") continue;
        x = c * CELL; y = HUD_H + r * CELL;
        if (cellAt(lv, c - 1, r) === "#") o.fillRect(x - 3, y - 3, 3, CELL + 6);
        if (cellAt(lv, c + 1, r) === "#") o.fillRect(x + CELL, y - 3, 3, CELL + 6);
        if (cellAt(lv, c, r - 1) === "#") o.fillRect(x - 3, y - 3, CELL + 6, 3);
        if (cellAt(lv, c, r + 1) === "#") o.fillRect(x - 3, y + CELL, CELL + 6, 3);
      }
    }
    // the dots' tracks, faint
    o.strokeStyle = "rgba(31,98,224,0.22)";
    o.lineWidth = 4;
    o.lineCap = "round";
    o.lineJoin = "round";
    lv.loops.forEach(function (l) {
      o.beginPath();
      l.segs.forEach(function (sg, k) { if (k === 0) o.moveTo(sg.x, sg.y); else o.lineTo(sg.x, sg.y); });
      o.closePath();
      o.stroke();
    });
    o.lineWidth = 1;
    // zone labels
    o.font = "bold 9px monospace";
    o.textAlign = "center";
    o.textBaseline = "middle";
    o.fillStyle = "rgba(20,80,40,0.55)";
    var sx = 0, sy = 0, sn = 0, gxs = 0, gys = 0, gn = 0;
    for (r = 0; r < ROWS; r++) for (c = 0; c < COLS; c++) {
      ch = lv.map[r][c];
      if (ch === "S" || ch === "P") { sx += cx(c); sy += cy(r); sn++; }
      if (ch === "G") { gxs += cx(c); gys += cy(r); gn++; }
    }
    if (sn) o.fillText("START", sx / sn, sy / sn + (lv.start[1] === 12 ? -14 : 22));
    if (gn) o.fillText("GOAL", gxs / gn, gys / gn);
    bgCache[i] = off;
    return off;
  }

  function drawDot(d) {
    ctx.fillStyle = "#0b0d24";
    ctx.beginPath(); ctx.arc(d[0], d[1], DOT_R + 1.5, 0, Math.PI * 2); ctx.fill();
    var gr = ctx.createRadialGradient(d[0] - 2, d[1] - 2, 1, d[0], d[1], DOT_R);
    gr.addColorStop(0, "#9fd3ff");
    gr.addColorStop(1, "#1f62e0");
    ctx.fillStyle = gr;
    ctx.beginPath(); ctx.arc(d[0], d[1], DOT_R, 0, Math.PI * 2); ctx.fill();
  }

  function drawCoin(x, y, t) {
    var wobble = 0.75 + 0.25 * Math.abs(Math.cos(t / 14));
    ctx.fillStyle = "#5a4300";
    ctx.beginPath(); ctx.ellipse(x, y, 8 * wobble, 8, 0, 0, Math.PI * 2); ctx.fill();
    var gr = ctx.createLinearGradient(x, y - 7, x, y + 7);
    gr.addColorStop(0, "#fff3a0");
    gr.addColorStop(1, "#f2b200");
    ctx.fillStyle = gr;
    ctx.beginPath(); ctx.ellipse(x, y, 6.5 * wobble, 6.5, 0, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = "rgba(255,255,255,0.8)";
    ctx.fillRect(x - 1.5 * wobble, y - 4, 2, 5);
  }

  function drawPlayer(x, y) {
    ctx.fillStyle = "#3a0a0a";
    ctx.fillRect(x - HIT_HALF - 2, y - HIT_HALF - 2, HIT_HALF * 2 + 4, HIT_HALF * 2 + 4);
    var gr = ctx.createLinearGradient(x, y - HIT_HALF, x, y + HIT_HALF);
    gr.addColorStop(0, "#ff7a5c");
    gr.addColorStop(1, "#d8262f");
    ctx.fillStyle = gr;
    ctx.fillRect(x - HIT_HALF, y - HIT_HALF, HIT_HALF * 2, HIT_HALF * 2);
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(x - 6, y - 5, 5, 5);
    ctx.fillRect(x + 1, y - 5, 5, 5);
    ctx.fillStyle = "#1a0505";
    var lx = (held.ArrowRight ? 1 : 0) - (held.ArrowLeft ? 1 : 0);
    var ly = (held.ArrowDown ? 1 : 0) - (held.ArrowUp ? 1 : 0);
    ctx.fillRect(x - 5 + lx + 1, y - 4 + ly + 1, 2, 2);
    ctx.fillRect(x + 2 + lx + 1, y - 4 + ly + 1, 2, 2);
  }

  function heart(x, y, full) {
    ctx.fillStyle = full ? "#ff4d6d" : "#3b3f6b";
    ctx.beginPath();
    ctx.arc(x - 3, y - 2, 3.6, 0, Math.PI * 2);
    ctx.arc(x + 3, y - 2, 3.6, 0, Math.PI * 2);
    ctx.fill();
    ctx.beginPath();
    ctx.moveTo(x - 6.5, y - 1); ctx.lineTo(x + 6.5, y - 1); ctx.lineTo(x, y + 6); ctx.closePath();
    ctx.fill();
  }

  function panel(title, color, lines) {
    ctx.fillStyle = "rgba(8,10,30,0.78)";
    ctx.fillRect(0, HUD_H, W, H - HUD_H);
    ctx.fillStyle = "#1b1f4d";
    ctx.fillRect(90, 130, 300, 130);
    ctx.strokeStyle = color;
    ctx.lineWidth = 3;
    ctx.strokeRect(90.5, 130.5, 299, 129);
    ctx.textAlign = "center";
    ctx.fillStyle = color;
    ctx.font = "bold 30px monospace";
    ctx.fillText(title, W / 2, 170);
    ctx.fillStyle = "#ffffff";
    ctx.font = "bold 15px monospace";
    lines.forEach(function (s, i) { ctx.fillText(s, W / 2, 208 + 24 * i); });
  }

  function draw() {
    var lv = LEVELS[g.level];
    ctx.drawImage(levelBackground(g.level), 0, 0);
    if (g.banner > 0 && !g.over) {
      var a = Math.min(1, g.banner / 20);
      ctx.fillStyle = "rgba(10,12,40," + 0.55 * a + ")";
      ctx.fillRect(0, 176, W, 44);
      ctx.textAlign = "center";
      ctx.fillStyle = "rgba(255,226,90," + 0.85 * a + ")";
      ctx.font = "bold 20px monospace";
      ctx.fillText("LEVEL " + (g.level + 1) + ": " + lv.name.toUpperCase(), W / 2, 198);
    }
    for (var i = 0; i < g.coinsAt.length; i++) {
      if (!g.taken[i]) drawCoin(cx(g.coinsAt[i][0]), cy(g.coinsAt[i][1]), g.tick + i * 20);
    }
    if (!g.over || g.won) drawPlayer(g.px, g.py);
    for (i = 0; i < g.dots.length; i++) drawDot(g.dots[i]);
    if (g.burst) {
      var b = g.burst, k = b.t, fade = 1 - k / 46;
      ctx.strokeStyle = "rgba(255,80,80," + fade + ")";
      ctx.lineWidth = 3;
      ctx.beginPath(); ctx.arc(b.x, b.y, 6 + k * 0.9, 0, Math.PI * 2); ctx.stroke();
      ctx.lineWidth = 1;
      ctx.fillStyle = "rgba(216,38,47," + fade + ")";
      DIRS8.forEach(function (d) { ctx.fillRect(b.x + d[0] * k * 0.6 - 4, b.y + d[1] * k * 0.6 - 4, 8, 8); });
    }
    // HUD
    var hud = ctx.createLinearGradient(0, 0, 0, HUD_H);
    hud.addColorStop(0, "#262a63");
    hud.addColorStop(1, "#111433");
    ctx.fillStyle = hud;
    ctx.fillRect(0, 0, W, HUD_H);
    ctx.fillStyle = g.coinFlash > 0 ? "#ffd23f" : "#4b55b0";
    ctx.fillRect(0, HUD_H - 3, W, 3);
    ctx.textBaseline = "middle";
    ctx.textAlign = "left";
    ctx.font = "bold 15px monospace";
    ctx.fillStyle = "#ffffff";
    ctx.fillText("LEVEL " + (g.level + 1) + "/" + LEVELS.length, 10, 13);
    ctx.font = "bold 11px monospace";
    ctx.fillStyle = "#a9b2ff";
    ctx.fillText(lv.name.toUpperCase(), 10, 29);
    drawCoin(176, 19, 0);
    ctx.font = "bold 15px monospace";
    ctx.fillStyle = g.coinFlash > 0 ? "#ffd23f" : "#ffffff";
    ctx.fillText(g.coins + "/" + TOTAL_COINS, 190, 14);
    ctx.font = "bold 10px monospace";
    ctx.fillStyle = "#a9b2ff";
    ctx.fillText("LEVEL " + levelCoins() + "/" + g.coinsAt.length, 190, 30);
    ctx.font = "bold 11px monospace";
    ctx.fillText("DEATHS " + g.deaths, 268, 20);
    for (i = 0; i < LIVES; i++) heart(W - 86 + i * 17, 20, i < g.lives);
    if (g.over && g.won) {
      panel("ALL CLEAR!", "#8ad998", ["Levels " + g.levelsDone + "   Coins " + g.coins, "Deaths " + g.deaths]);
    } else if (g.over) {
      panel("GAME OVER", "#ff5c7a", ["Level " + (g.level + 1) + " - " + lv.name, "Levels cleared " + g.levelsDone + "   Coins " + g.coins]);
    }
  }

  function rendering() {          // a plain browser has no __gameworld: always draw
    var gw = window.__gameworld;
    return !(gw && gw.rendering === false);
  }

  function frame(ts) {
    catchUp(ts);
    if (rendering()) draw();
    requestAnimationFrame(frame);
  }

  window.addEventListener("keydown", function (e) {
    if (e.code in held) {
      e.preventDefault();
      catchUp(performance.now());
      held[e.code] = true;
    }
  });
  window.addEventListener("keyup", function (e) {
    if (e.code in held) {
      catchUp(performance.now());
      held[e.code] = false;
    }
  });

  window.gameAPI = {
    getState: function () {        // cheap, deterministic, integers only
      var lv = LEVELS[g.level];
      var remaining = [];
      g.coinsAt.forEach(function (p, i) { if (!g.taken[i]) remaining.push([p[0], p[1]]); });
      return {
        status: g.over ? "terminal" : "playing",
        actionable: true,
        terminal: { is_terminal: g.over, outcome: g.over ? (g.won ? "win" : "lose") : null,
                    reason: g.over ? (g.won ? "all levels cleared" : "out of lives") : null },
        score: g.coins,
        coins: g.coins,
        levels_completed: g.levelsDone,
        level: g.level + 1,
        level_coins_left: remaining.length,
        lives: g.lives,
        deaths: g.deaths,
        player_col: Math.floor(g.px / CELL),
        player_row: Math.floor((g.py - HUD_H) / CELL),
        player_x: g.px,
        player_y: g.py,
        tick: g.lt,
        coins_left: remaining,
        dots: g.dots.map(function (d) { return [d[0], d[1]]; }),
        dot_paths: lv.dots.map(function (d, k) { return { pts: d.pts, speed: d.speed, phase: g.phases[k] }; }),
        period: lv.period,
        grid: lv.map
      };
    },
    reset: function () {            // Math.random was already re-seeded by the sandbox
      releaseKeys();
      base = performance.now();
      newGame();
      draw();                       // the frame after a reset shows the new game at once
    }
  };

  base = performance.now();
  newGame();
  draw();                           // the first frame is drawn before the game reports actionable
  requestAnimationFrame(frame);
})();
