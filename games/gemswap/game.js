// Gem Swap: an 8x8 swap-to-match puzzle for the GameWorld sandbox.
// Swap two neighbouring gems to line up three or more of a kind; lines clear, the gems above fall and new
// ones drop in (from Math.random, which the sandbox seeds), and every cascade scores more. Each level asks
// for a number of gems of one kind within a number of moves; a swap that makes no line is refused and costs
// 2 moves. Running out of moves ends the game.
// Logic is event driven (one click or key = one move, resolved at once); time only drives the drawing
// (falling gems, bursts, banners), counted in fixed 1/60 s ticks from the requestAnimationFrame clock.
(function () {
  "use strict";

  var N = 8, KINDS = 6, CELL = 50, BX = 20, BY = 110;
  var W = 440, H = 540;
  var SEAM = 9;                 // px either side of the line between two gems: a click there swaps them
  var REFUSED_COST = 3;         // moves a refused swap costs
  var GOAL_WEIGHT = 1;          // extra weight of the level's goal kind among the gems that drop in
  // [gems of the goal kind to clear, moves] for each level; past the end, the last one again.
  var LEVELS = [[16, 16]];
  var TICK_MS = 1000 / 60, MAX_CATCH_UP = 600;
  var FALL_TICKS = 16;

  var NAMES = ["ruby", "topaz", "emerald", "sapphire", "amethyst", "pearl"];
  var LETTERS = ["R", "Y", "G", "B", "P", "W"];
  var BASE = ["#e0334f", "#f2b627", "#27b865", "#2f7fe6", "#9b4ee0", "#e9eef5"];
  var LIGHT = ["#ff8fa0", "#ffe08a", "#8ff0b5", "#9cc8ff", "#d3a6ff", "#ffffff"];
  var DARK = ["#8c1026", "#a8700a", "#0f6b38", "#153f8a", "#55208a", "#8b97aa"];

  var canvas = document.getElementById("game");
  var ctx = canvas.getContext("2d");

  var g = null;
  var lastTs = null, acc = 0;

  // ------------------------------------------------------------------ rules
  function idx(c, r) { return r * N + c; }

  function lineAt(b, c, r) {      // would the gem at (c, r) be the third of a line with the two before it?
    var k = b[idx(c, r)];
    if (c >= 2 && b[idx(c - 1, r)] === k && b[idx(c - 2, r)] === k) return true;
    if (r >= 2 && b[idx(c, r - 1)] === k && b[idx(c, r - 2)] === k) return true;
    return false;
  }

  function findMatches(b) {       // the cells in a line of 3+ (rows and columns), as a 0/1 array
    var m = new Uint8Array(N * N), any = false, c, r, e, k, x;
    for (r = 0; r < N; r++) {
      c = 0;
      while (c < N) {
        k = b[idx(c, r)]; e = c;
        while (e + 1 < N && b[idx(e + 1, r)] === k) e++;
        if (k >= 0 && e - c >= 2) { for (x = c; x <= e; x++) m[idx(x, r)] = 1; any = true; }
        c = e + 1;
      }
    }
    for (c = 0; c < N; c++) {
      r = 0;
      while (r < N) {
        k = b[idx(c, r)]; e = r;
        while (e + 1 < N && b[idx(c, e + 1)] === k) e++;
        if (k >= 0 && e - r >= 2) { for (x = r; x <= e; x++) m[idx(c, x)] = 1; any = true; }
        r = e + 1;
      }
    }
    return any ? m : null;
  }

  function swapMakesLine(b, a, z) {
    var t = b[a]; b[a] = b[z]; b[z] = t;
    var ok = findMatches(b) !== null;
    t = b[a]; b[a] = b[z]; b[z] = t;
    return ok;
  }

  function hasMove(b) {
    for (var r = 0; r < N; r++) for (var c = 0; c < N; c++) {
      if (c < N - 1 && swapMakesLine(b, idx(c, r), idx(c + 1, r))) return true;
      if (r < N - 1 && swapMakesLine(b, idx(c, r), idx(c, r + 1))) return true;
    }
    return false;
  }

  function dealBoard() {          // a board with no line on it and at least one swap that makes one
    var b = new Int8Array(N * N);
    for (;;) {
      for (var r = 0; r < N; r++) for (var c = 0; c < N; c++) {
        do { b[idx(c, r)] = Math.floor(Math.random() * KINDS); } while (lineAt(b, c, r));
      }
      if (hasMove(b)) return b;
    }
  }

  function dropGem() {            // the goal kind weighs GOAL_WEIGHT more than the others
    var k = Math.floor(Math.random() * (KINDS + GOAL_WEIGHT));
    return k >= KINDS ? g.goalKind : k;
  }

  function levelSpec(level) { return LEVELS[Math.min(level, LEVELS.length) - 1]; }

  function startLevel(level) {
    var spec = levelSpec(level), k;
    do { k = Math.floor(Math.random() * KINDS); } while (level > 1 && k === g.goalKind);
    g.level = level; g.goalKind = k; g.goalNeed = spec[0]; g.goalGot = 0; g.moves = spec[1];
  }

  function newGame() {
    g = {
      tick: 0, board: null, level: 1, goalKind: 0, goalNeed: 0, goalGot: 0, moves: 0,
      score: 0, goalsMet: 0, collected: 0, cascades: 0, matches: 0, refused: 0, bestChain: 0,
      over: false, overTick: 0, sel: -1, cur: idx(3, 4), pressed: -1, pickedNow: false,
      drop: new Int8Array(N * N), dropTick: -100,        // rows each gem fell in the last move (drawing)
      bursts: [], floats: [], shake: null, banner: null, shuffledTick: -100
    };
    startLevel(1);
    g.board = dealBoard();
  }

  // Clear every line, let the gems fall, drop new ones, again while lines form; returns nothing.
  function resolve(firstA, firstB) {
    var b = g.board, chain = 0, c, r, i, k;
    g.drop.fill(0);
    for (;;) {
      var m = findMatches(b);
      if (!m) break;
      chain++;
      var cleared = 0, goalHere = 0, sx = 0, sy = 0;
      for (i = 0; i < N * N; i++) if (m[i]) {
        cleared++;
        if (b[i] === g.goalKind) goalHere++;
        sx += i % N; sy += (i / N) | 0;
        g.bursts.push({ c: i % N, r: (i / N) | 0, k: b[i], t: g.tick + (chain - 1) * 6 });
      }
      var pts = 10 * cleared * chain;
      g.score += pts;
      var counted = Math.min(goalHere, g.goalNeed - g.goalGot);
      g.goalGot += counted; g.collected += counted;
      if (chain >= 2) g.cascades++;
      g.floats.push({ x: BX + (sx / cleared + 0.5) * CELL, y: BY + (sy / cleared + 0.5) * CELL,
                      text: "+" + pts + (chain >= 2 ? "  x" + chain : ""), t: g.tick + (chain - 1) * 6 });
      // gravity, column by column; new gems drop from the top
      for (c = 0; c < N; c++) {
        var write = N - 1;
        for (r = N - 1; r >= 0; r--) {
          i = idx(c, r);
          if (!m[i]) {
            if (write !== r) {
              b[idx(c, write)] = b[i];
              g.drop[idx(c, write)] = g.drop[i] + (write - r);
            }
            write--;
          }
        }
        var fresh = write + 1;            // new gems start above the board, in the order they land
        for (r = write; r >= 0; r--) {
          b[idx(c, r)] = dropGem();
          g.drop[idx(c, r)] = fresh;
        }
      }
    }
    if (chain > g.bestChain) g.bestChain = chain;
    g.dropTick = g.tick;
    if (!hasMove(b)) { g.board = dealBoard(); g.drop.fill(N); g.shuffledTick = g.tick; }
  }

  function endOfMove() {
    if (g.goalGot >= g.goalNeed) {
      g.goalsMet++;
      var bonus = 10 * g.moves;
      g.score += bonus;
      g.banner = { text: "GOAL MET!", sub: bonus ? "+" + bonus + " for moves left" : "", t: g.tick, good: true };
      startLevel(g.level + 1);
    } else if (g.moves <= 0) {
      g.moves = 0;
      g.over = true; g.overTick = g.tick; g.sel = -1;
    }
  }

  function trySwap(a, z) {
    if (g.over) return;
    g.sel = -1;
    var b = g.board;
    if (!swapMakesLine(b, a, z)) {
      g.moves -= REFUSED_COST; g.refused++;
      g.shake = { a: a, z: z, t: g.tick };
      g.floats.push({ x: BX + ((a % N + z % N) / 2 + 0.5) * CELL, y: BY + (((a / N) | 0) + ((z / N) | 0)) / 2 * CELL + CELL / 2,
                      text: "NO LINE  -" + REFUSED_COST + " MOVES", t: g.tick, bad: true });
      endOfMove();
      return;
    }
    var t = b[a]; b[a] = b[z]; b[z] = t;
    g.moves -= 1; g.matches++;
    g.swapAnim = { a: a, z: z, t: g.tick };
    resolve(a, z);
    endOfMove();
  }

  function neighbours(a, z) {
    var ca = a % N, ra = (a / N) | 0, cz = z % N, rz = (z / N) | 0;
    return Math.abs(ca - cz) + Math.abs(ra - rz) === 1;
  }

  function clickAt(x, y) {
    if (g.over) return;
    var lx = x - BX, ly = y - BY;
    if (lx < 0 || ly < 0 || lx >= N * CELL || ly >= N * CELL) { g.sel = -1; return; }
    var c = Math.floor(lx / CELL), r = Math.floor(ly / CELL);
    var fx = lx - c * CELL, fy = ly - r * CELL;
    var nearL = fx < SEAM, nearR = fx >= CELL - SEAM, nearT = fy < SEAM, nearB = fy >= CELL - SEAM;
    var i = idx(c, r);
    if ((nearL || nearR) && (nearT || nearB)) return;      // a corner where four gems meet: nothing
    if (nearL && c > 0) { trySwap(idx(c - 1, r), i); return; }
    if (nearR && c < N - 1) { trySwap(i, idx(c + 1, r)); return; }
    if (nearT && r > 0) { trySwap(idx(c, r - 1), i); return; }
    if (nearB && r < N - 1) { trySwap(i, idx(c, r + 1)); return; }
    g.cur = i;
    if (g.sel === i) { g.pressed = i; return; }      // a second click on it lets it go (on release)
    if (g.sel >= 0 && neighbours(g.sel, i)) { trySwap(g.sel, i); return; }
    g.sel = i; g.pressed = i; g.pickedNow = true;
  }

  // Releasing the button: over a neighbour of the gem pressed, a drag swaps them; over the gem itself, a click on
  // a gem that was already picked lets it go.
  function releaseAt(x, y) {
    var from = g.pressed, picked = g.pickedNow;
    g.pressed = -1; g.pickedNow = false;
    if (g.over || from < 0) return;
    var lx = x - BX, ly = y - BY;
    if (lx < 0 || ly < 0 || lx >= N * CELL || ly >= N * CELL) return;
    var to = idx(Math.floor(lx / CELL), Math.floor(ly / CELL));
    if (to === from) { if (!picked && g.sel === from) g.sel = -1; return; }
    if (neighbours(from, to)) { g.cur = to; trySwap(from, to); }
  }

  function keyAt(code) {
    if (g.over) return;
    var c = g.cur % N, r = (g.cur / N) | 0, dc = 0, dr = 0;
    if (code === "ArrowLeft") dc = -1; else if (code === "ArrowRight") dc = 1;
    else if (code === "ArrowUp") dr = -1; else if (code === "ArrowDown") dr = 1;
    if (code === "Space") { g.sel = g.sel === g.cur ? -1 : g.cur; return; }
    var nc = c + dc, nr = r + dr;
    if (nc < 0 || nc >= N || nr < 0 || nr >= N) return;
    var to = idx(nc, nr);
    if (g.sel >= 0) { var from = g.sel; g.cur = to; trySwap(from, to); }
    else g.cur = to;
  }

  function canvasXY(e) {
    var rect = canvas.getBoundingClientRect();
    return [(e.clientX - rect.left) * canvas.width / rect.width, (e.clientY - rect.top) * canvas.height / rect.height];
  }

  canvas.addEventListener("mousedown", function (e) {
    e.preventDefault();
    if (e.button !== 0) return;
    var p = canvasXY(e);
    clickAt(p[0], p[1]);
  });
  window.addEventListener("mouseup", function (e) {
    if (e.button !== 0) return;
    var p = canvasXY(e);
    releaseAt(p[0], p[1]);
  });
  canvas.addEventListener("mousemove", function (e) {
    var p = canvasXY(e);
    g.hover = [p[0], p[1]];
  });
  canvas.addEventListener("mouseleave", function () { g.hover = null; });
  window.addEventListener("keydown", function (e) {
    if (e.code === "ArrowLeft" || e.code === "ArrowRight" || e.code === "ArrowUp" || e.code === "ArrowDown" ||
        e.code === "Space") {
      e.preventDefault();
      if (!e.repeat) keyAt(e.code);
    }
  });

  function step() {
    g.tick++;
    if (g.bursts.length && g.bursts[0].t < g.tick - 60) g.bursts = g.bursts.filter(function (p) { return p.t >= g.tick - 60; });
    if (g.floats.length && g.floats[0].t < g.tick - 70) g.floats = g.floats.filter(function (p) { return p.t >= g.tick - 70; });
  }

  // ------------------------------------------------------------------ drawing
  function rrect(x, y, w, h, rad) {
    ctx.beginPath();
    ctx.moveTo(x + rad, y); ctx.lineTo(x + w - rad, y); ctx.quadraticCurveTo(x + w, y, x + w, y + rad);
    ctx.lineTo(x + w, y + h - rad); ctx.quadraticCurveTo(x + w, y + h, x + w - rad, y + h);
    ctx.lineTo(x + rad, y + h); ctx.quadraticCurveTo(x, y + h, x, y + h - rad);
    ctx.lineTo(x, y + rad); ctx.quadraticCurveTo(x, y, x + rad, y);
    ctx.closePath();
  }

  function polygon(cx, cy, rad, n, rot) {
    ctx.beginPath();
    for (var k = 0; k < n; k++) {
      var a = rot + k * Math.PI * 2 / n;
      var px = cx + Math.cos(a) * rad, py = cy + Math.sin(a) * rad;
      if (k) ctx.lineTo(px, py); else ctx.moveTo(px, py);
    }
    ctx.closePath();
  }

  function star(cx, cy, ro, ri, n) {
    ctx.beginPath();
    for (var k = 0; k < 2 * n; k++) {
      var a = -Math.PI / 2 + k * Math.PI / n, rad = k % 2 ? ri : ro;
      var px = cx + Math.cos(a) * rad, py = cy + Math.sin(a) * rad;
      if (k) ctx.lineTo(px, py); else ctx.moveTo(px, py);
    }
    ctx.closePath();
  }

  function gemPath(k, cx, cy, s) {
    if (k === 0) {                       // ruby: a tall rhombus
      ctx.beginPath(); ctx.moveTo(cx, cy - 20 * s); ctx.lineTo(cx + 16 * s, cy); ctx.lineTo(cx, cy + 20 * s);
      ctx.lineTo(cx - 16 * s, cy); ctx.closePath();
    } else if (k === 1) {                // topaz: a triangle
      ctx.beginPath(); ctx.moveTo(cx, cy - 19 * s); ctx.lineTo(cx + 19 * s, cy + 15 * s);
      ctx.lineTo(cx - 19 * s, cy + 15 * s); ctx.closePath();
    } else if (k === 2) {                // emerald: a cut square (octagon-cornered)
      var a = 16 * s, b = 9 * s;
      ctx.beginPath(); ctx.moveTo(cx - b, cy - a); ctx.lineTo(cx + b, cy - a); ctx.lineTo(cx + a, cy - b);
      ctx.lineTo(cx + a, cy + b); ctx.lineTo(cx + b, cy + a); ctx.lineTo(cx - b, cy + a);
      ctx.lineTo(cx - a, cy + b); ctx.lineTo(cx - a, cy - b); ctx.closePath();
    } else if (k === 3) {                // sapphire: a round stone
      ctx.beginPath(); ctx.arc(cx, cy, 17 * s, 0, Math.PI * 2); ctx.closePath();
    } else if (k === 4) {                // amethyst: a hexagon
      polygon(cx, cy, 18 * s, 6, 0);
    } else {                             // pearl: a star
      star(cx, cy, 20 * s, 9 * s, 5);
    }
  }

  function drawGem(k, cx, cy, s, alpha) {
    if (s <= 0.02) return;
    ctx.save();
    if (alpha !== undefined) ctx.globalAlpha = alpha;
    ctx.fillStyle = "rgba(0,0,0,0.25)";
    gemPath(k, cx + 2, cy + 3, s); ctx.fill();
    var grd = ctx.createLinearGradient(cx - 18 * s, cy - 18 * s, cx + 18 * s, cy + 18 * s);
    grd.addColorStop(0, LIGHT[k]); grd.addColorStop(0.45, BASE[k]); grd.addColorStop(1, DARK[k]);
    ctx.fillStyle = grd;
    gemPath(k, cx, cy, s); ctx.fill();
    ctx.lineWidth = 1.5; ctx.strokeStyle = DARK[k]; ctx.stroke();
    // facet: the same shape, smaller and lighter
    ctx.fillStyle = "rgba(255,255,255,0.22)";
    gemPath(k, cx - 1.5 * s, cy - 2 * s, s * 0.55); ctx.fill();
    ctx.fillStyle = "rgba(255,255,255,0.85)";
    ctx.beginPath(); ctx.arc(cx - 6 * s, cy - 7 * s, 2.6 * s, 0, Math.PI * 2); ctx.fill();
    ctx.restore();
  }

  function drawBackground() {
    var bg = ctx.createLinearGradient(0, 0, 0, H);
    bg.addColorStop(0, "#1d1436"); bg.addColorStop(1, "#0c0a1c");
    ctx.fillStyle = bg; ctx.fillRect(0, 0, W, H);
  }

  function panel(x, y, w, h, label, value, accent) {
    ctx.fillStyle = "rgba(0,0,0,0.35)"; rrect(x, y, w, h, 8); ctx.fill();
    ctx.strokeStyle = accent || "#4b3f7a"; ctx.lineWidth = 1.5; rrect(x, y, w, h, 8); ctx.stroke();
    ctx.textAlign = "center"; ctx.textBaseline = "middle";
    ctx.fillStyle = "#a99fd0"; ctx.font = "bold 10px 'DejaVu Sans', sans-serif";
    ctx.fillText(label, x + w / 2, y + 11);
    ctx.fillStyle = "#ffffff"; ctx.font = "bold 19px 'DejaVu Sans', sans-serif";
    ctx.fillText(value, x + w / 2, y + h - 15);
  }

  function drawHUD() {
    ctx.textBaseline = "middle";
    ctx.textAlign = "left";
    ctx.fillStyle = "#ffd86b"; ctx.font = "bold 20px 'DejaVu Sans', sans-serif";
    ctx.fillText("GEM SWAP", 20, 20);
    ctx.textAlign = "right"; ctx.fillStyle = "#cfc6f5"; ctx.font = "bold 13px 'DejaVu Sans', sans-serif";
    ctx.fillText("LEVEL " + g.level + "   \u2022   SCORE " + g.score, W - 20, 20);

    // goal panel
    var gx = 20, gy = 38, gw = 170, gh = 62;
    var pulse = g.banner && g.tick - g.banner.t < 40;
    ctx.fillStyle = "rgba(0,0,0,0.35)"; rrect(gx, gy, gw, gh, 8); ctx.fill();
    ctx.strokeStyle = pulse ? "#ffd86b" : BASE[g.goalKind]; ctx.lineWidth = 2; rrect(gx, gy, gw, gh, 8); ctx.stroke();
    drawGem(g.goalKind, gx + 30, gy + 31, 0.95);
    ctx.textAlign = "left";
    ctx.fillStyle = "#a99fd0"; ctx.font = "bold 10px 'DejaVu Sans', sans-serif";
    ctx.fillText("GOAL: " + NAMES[g.goalKind].toUpperCase(), gx + 58, gy + 13);
    ctx.fillStyle = "#ffffff"; ctx.font = "bold 22px 'DejaVu Sans', sans-serif";
    ctx.fillText(g.goalGot + "/" + g.goalNeed, gx + 58, gy + 36);
    ctx.fillStyle = "#1a1330"; ctx.fillRect(gx + 58, gy + 50, 100, 5);
    ctx.fillStyle = BASE[g.goalKind]; ctx.fillRect(gx + 58, gy + 50, Math.round(100 * g.goalGot / g.goalNeed), 5);

    var low = g.moves <= 4;
    panel(198, gy, 70, gh, "MOVES", String(g.moves), low ? "#e0334f" : null);
    panel(276, gy, 70, gh, "GOALS MET", String(g.goalsMet), "#ffd86b");
    panel(354, gy, 66, gh, "CASCADES", String(g.cascades));
    if (low && !g.over && (g.tick >> 4) % 2 === 0) {
      ctx.strokeStyle = "#ff6b81"; ctx.lineWidth = 2; rrect(198, gy, 70, gh, 8); ctx.stroke();
    }
  }

  function drawBoard() {
    ctx.fillStyle = "rgba(10,6,24,0.8)"; rrect(BX - 8, BY - 8, N * CELL + 16, N * CELL + 16, 12); ctx.fill();
    ctx.strokeStyle = "#5a4a94"; ctx.lineWidth = 2; rrect(BX - 8, BY - 8, N * CELL + 16, N * CELL + 16, 12); ctx.stroke();
    for (var r = 0; r < N; r++) for (var c = 0; c < N; c++) {
      ctx.fillStyle = (r + c) % 2 ? "#261c45" : "#2e2352";
      ctx.fillRect(BX + c * CELL, BY + r * CELL, CELL, CELL);
    }
    // hover hint: the seam or gem under the pointer
    if (g.hover && !g.over) {
      var lx = g.hover[0] - BX, ly = g.hover[1] - BY;
      if (lx >= 0 && ly >= 0 && lx < N * CELL && ly < N * CELL) {
        var hc = Math.floor(lx / CELL), hr = Math.floor(ly / CELL);
        ctx.fillStyle = "rgba(255,255,255,0.07)"; ctx.fillRect(BX + hc * CELL, BY + hr * CELL, CELL, CELL);
      }
    }
    ctx.save();
    ctx.beginPath(); ctx.rect(BX, BY, N * CELL, N * CELL); ctx.clip();
    var p = Math.min(1, (g.tick - g.dropTick) / FALL_TICKS);
    var ease = 1 - (1 - p) * (1 - p);
    for (r = 0; r < N; r++) for (c = 0; c < N; c++) {
      var i = idx(c, r), k = g.board[i];
      var cx = BX + c * CELL + CELL / 2, cy = BY + r * CELL + CELL / 2;
      cy -= g.drop[i] * CELL * (1 - ease);
      if (g.shake && g.tick - g.shake.t < 18 && (i === g.shake.a || i === g.shake.z)) {
        var q = g.tick - g.shake.t;
        cx += ((q >> 1) % 2 ? 1 : -1) * (18 - q) * 0.35;
      }
      if (i === g.sel) {
        ctx.fillStyle = "rgba(255,216,107,0.28)"; ctx.fillRect(BX + c * CELL + 2, BY + r * CELL + 2, CELL - 4, CELL - 4);
      }
      var s = 1;
      if (i === g.sel) s = 1.08 + 0.04 * Math.sin(g.tick / 5);
      drawGem(k, cx, cy, s);
    }
    // bursts: a ring and sparks where gems cleared
    for (var j = 0; j < g.bursts.length; j++) {
      var bu = g.bursts[j], age = g.tick - bu.t;
      if (age < 0 || age > 26) continue;
      var bx = BX + bu.c * CELL + CELL / 2, by = BY + bu.r * CELL + CELL / 2, f = age / 26;
      ctx.strokeStyle = LIGHT[bu.k]; ctx.globalAlpha = 1 - f; ctx.lineWidth = 3 * (1 - f) + 1;
      ctx.beginPath(); ctx.arc(bx, by, 6 + 22 * f, 0, Math.PI * 2); ctx.stroke();
      ctx.fillStyle = LIGHT[bu.k];
      for (var q2 = 0; q2 < 6; q2++) {
        var a = q2 * Math.PI / 3 + 0.4;
        ctx.fillRect(bx + Math.cos(a) * 26 * f - 2, by + Math.sin(a) * 26 * f - 2, 4, 4);
      }
      ctx.globalAlpha = 1;
    }
    ctx.restore();
    // selection and keyboard cursor
    if (g.sel >= 0) {
      ctx.strokeStyle = "#ffd86b"; ctx.lineWidth = 3;
      rrect(BX + (g.sel % N) * CELL + 2, BY + ((g.sel / N) | 0) * CELL + 2, CELL - 4, CELL - 4, 6); ctx.stroke();
    }
    ctx.strokeStyle = "rgba(255,255,255,0.55)"; ctx.lineWidth = 1.5; ctx.setLineDash([5, 4]);
    rrect(BX + (g.cur % N) * CELL + 4, BY + ((g.cur / N) | 0) * CELL + 4, CELL - 8, CELL - 8, 6); ctx.stroke();
    ctx.setLineDash([]);
  }

  function drawFloats() {
    ctx.textAlign = "center"; ctx.textBaseline = "middle";
    for (var j = 0; j < g.floats.length; j++) {
      var f = g.floats[j], age = g.tick - f.t;
      if (age < 0 || age > 70) continue;
      ctx.globalAlpha = age < 50 ? 1 : (70 - age) / 20;
      ctx.font = "bold " + (f.bad ? 15 : 17) + "px 'DejaVu Sans', sans-serif";
      ctx.lineWidth = 4; ctx.strokeStyle = "#120b24";
      var y = f.y - age * 0.5;
      ctx.strokeText(f.text, f.x < 90 ? 90 : f.x > W - 90 ? W - 90 : f.x, y);
      ctx.fillStyle = f.bad ? "#ff6b81" : "#ffe9a0";
      ctx.fillText(f.text, f.x < 90 ? 90 : f.x > W - 90 ? W - 90 : f.x, y);
      ctx.globalAlpha = 1;
    }
  }

  function drawFooter() {
    ctx.textAlign = "center"; ctx.textBaseline = "middle";
    ctx.fillStyle = "#8f85bb"; ctx.font = "11px 'DejaVu Sans', sans-serif";
    ctx.fillText("Swap: click the line between two gems, or a gem then its neighbour", W / 2, H - 17);
    if (g.tick - g.shuffledTick < 60) {
      ctx.fillStyle = "#ffd86b"; ctx.font = "bold 16px 'DejaVu Sans', sans-serif";
      ctx.fillText("NO SWAPS LEFT: NEW BOARD", W / 2, BY + N * CELL / 2);
    }
  }

  function drawBanner() {
    var b = g.banner;
    if (!b || g.over) return;
    var age = g.tick - b.t;
    if (age > 55) return;
    var a = age < 45 ? 1 : (55 - age) / 10;
    ctx.globalAlpha = a;
    ctx.fillStyle = "rgba(16,10,36,0.85)"; rrect(70, BY + 150, W - 140, 96, 14); ctx.fill();
    ctx.strokeStyle = "#ffd86b"; ctx.lineWidth = 2; rrect(70, BY + 150, W - 140, 96, 14); ctx.stroke();
    ctx.textAlign = "center"; ctx.textBaseline = "middle";
    ctx.fillStyle = "#ffd86b"; ctx.font = "bold 28px 'DejaVu Sans', sans-serif";
    ctx.fillText(b.text, W / 2, BY + 180);
    ctx.fillStyle = "#ffffff"; ctx.font = "bold 13px 'DejaVu Sans', sans-serif";
    ctx.fillText("Level " + g.level + ": clear " + g.goalNeed + " " + NAMES[g.goalKind] + " in " + g.moves + " moves", W / 2, BY + 208);
    if (b.sub) { ctx.fillStyle = "#cfc6f5"; ctx.font = "12px 'DejaVu Sans', sans-serif"; ctx.fillText(b.sub, W / 2, BY + 228); }
    ctx.globalAlpha = 1;
  }

  function drawGameOver() {
    if (!g.over) return;
    ctx.fillStyle = "rgba(8,4,20,0.78)"; ctx.fillRect(BX - 8, BY - 8, N * CELL + 16, N * CELL + 16);
    ctx.textAlign = "center"; ctx.textBaseline = "middle";
    ctx.fillStyle = "#ff6b81"; ctx.font = "bold 34px 'DejaVu Sans', sans-serif";
    ctx.fillText("OUT OF MOVES", W / 2, BY + 150);
    ctx.fillStyle = "#ffffff"; ctx.font = "bold 16px 'DejaVu Sans', sans-serif";
    ctx.fillText(NAMES[g.goalKind].toUpperCase() + " " + g.goalGot + "/" + g.goalNeed + " on level " + g.level, W / 2, BY + 195);
    ctx.fillText("Goals met " + g.goalsMet + "   \u2022   Score " + g.score, W / 2, BY + 222);
    drawGem(g.goalKind, W / 2, BY + 275, 1.3, 0.9);
  }

  function draw() {
    drawBackground();
    drawHUD();
    drawBoard();
    drawFloats();
    drawFooter();
    drawBanner();
    drawGameOver();
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

  function boardRows() {
    var rows = [];
    for (var r = 0; r < N; r++) {
      var s = "";
      for (var c = 0; c < N; c++) s += LETTERS[g.board[idx(c, r)]];
      rows.push(s);
    }
    return rows;
  }

  window.gameAPI = {
    getState: function () {
      return {
        status: g.over ? "terminal" : "playing",
        actionable: !g.over,
        terminal: { is_terminal: g.over, outcome: g.over ? "lose" : null, reason: g.over ? "out of moves" : null },
        score: g.score,
        level: g.level,
        goals_met: g.goalsMet,
        goal_gem: LETTERS[g.goalKind],
        goal_need: g.goalNeed,
        goal_got: g.goalGot,
        moves_left: g.moves,
        collected: g.collected,
        cascades: g.cascades,
        matches: g.matches,
        refused_swaps: g.refused,
        best_chain: g.bestChain,
        selected: g.sel,
        cursor: g.cur,
        board: boardRows()
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
