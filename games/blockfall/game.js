// Blockfall: falling four-cell blocks on a 10x20 well, written for the GameWorld sandbox.
// Platform rules kept here:
// - time only from the virtual clock: logic advances in fixed 1/60 s ticks counted from the
//   requestAnimationFrame timestamps, so a step of N ms always does the same work;
// - chance only from Math.random (a 7-bag shuffle; the sandbox seeds it and re-seeds it before reset);
// - no drawing while window.__gameworld.rendering is false, and no logic in drawing code;
// - the first frame is drawn before the game reports actionable, and reset() redraws;
// - integer state and no transcendental maths in the logic.
(function () {
  "use strict";

  var W = 480, H = 360;
  var COLS = 10, ROWS = 20, CELL = 17;
  var FX = 155, FY = 10;                          // the well's top-left corner on the canvas
  var TICK_MS = 1000 / 60;
  var MAX_CATCH_UP = 600;
  var LINES_PER_LEVEL = 4;
  // ticks a piece waits before falling one row, by level (1, 2, ...)
  var GRAVITY = [48, 38, 30, 24, 19, 15, 12, 9, 7, 5, 4, 3, 2];
  var SOFT_TICKS = 2;                             // a row every 2 ticks while the soft-drop key is held
  var LINE_POINTS = [0, 100, 300, 500, 800];      // times the level
  var FONT = "'DejaVu Sans', 'Liberation Sans', Arial, sans-serif";

  // Piece shapes in their spawn orientation, (x, y) cells in an n x n box; turning clockwise maps
  // (x, y) to (n - 1 - y, x). The O does not turn.
  var SHAPES = {
    I: { n: 4, cells: [[0, 1], [1, 1], [2, 1], [3, 1]] },
    O: { n: 4, cells: [[1, 0], [2, 0], [1, 1], [2, 1]] },
    T: { n: 3, cells: [[1, 0], [0, 1], [1, 1], [2, 1]] },
    S: { n: 3, cells: [[1, 0], [2, 0], [0, 1], [1, 1]] },
    Z: { n: 3, cells: [[0, 0], [1, 0], [1, 1], [2, 1]] },
    J: { n: 3, cells: [[0, 0], [0, 1], [1, 1], [2, 1]] },
    L: { n: 3, cells: [[2, 0], [0, 1], [1, 1], [2, 1]] }
  };
  var ORDER = ["I", "O", "T", "S", "Z", "J", "L"];
  var COLORS = {
    I: ["#5ee7ff", "#1aa6d6", "#0b5f86"], O: ["#ffe36b", "#f2be1d", "#9a7406"],
    T: ["#d18cff", "#9b4fe0", "#5c2392"], S: ["#7cf29a", "#2fc15a", "#17733a"],
    Z: ["#ff8a8a", "#e84545", "#8e1d24"], J: ["#7fa6ff", "#3a66e8", "#1d3590"],
    L: ["#ffbf73", "#f08a1c", "#98500a"], X: ["#9aa3b8", "#6b7488", "#3c4354"]
  };
  // wall kicks tried in this order after a turn that collides
  var KICKS = [[0, 0], [-1, 0], [1, 0], [-2, 0], [2, 0], [0, -1]];

  var ROT = {};
  ORDER.forEach(function (k) {
    var s = SHAPES[k], states = [s.cells];
    for (var r = 1; r < 4; r++) {
      states.push(k === "O" ? s.cells : states[r - 1].map(function (c) { return [s.n - 1 - c[1], c[0]]; }));
    }
    ROT[k] = states;
  });

  var canvas = document.getElementById("game");
  var ctx = canvas.getContext("2d");
  var g = null;
  var lastTs = null, acc = 0;
  var presses = [];                               // keys pressed since the last tick, in order
  var softHeld = false;

  // ---------------------------------------------------------------- logic
  function refillBag() {
    var bag = ORDER.slice();
    for (var i = bag.length - 1; i > 0; i--) {
      var j = Math.floor(Math.random() * (i + 1));
      var t = bag[i]; bag[i] = bag[j]; bag[j] = t;
    }
    for (var k = 0; k < bag.length; k++) g.queue.push(bag[k]);
  }

  function newGame() {
    g = { tick: 0, board: [], queue: [], score: 0, lines: 0, level: 1, pieces: 0, bestClear: 0,
          quads: 0, over: false, cur: null, fall: 0, flashes: [], banner: null, locked: null };
    for (var y = 0; y < ROWS; y++) g.board.push(new Array(COLS).fill(""));
    refillBag();
    spawn();
  }

  function cellsOf(p, rot, x, y) {
    return ROT[p.type][rot].map(function (c) { return [x + c[0], y + c[1]]; });
  }

  function fits(type, rot, x, y) {
    var cs = ROT[type][rot];
    for (var i = 0; i < 4; i++) {
      var cx = x + cs[i][0], cy = y + cs[i][1];
      if (cx < 0 || cx >= COLS || cy >= ROWS) return false;
      if (cy >= 0 && g.board[cy][cx]) return false;
    }
    return true;
  }

  function spawn() {
    if (g.queue.length < 8) refillBag();
    var type = g.queue.shift();
    var p = { type: type, rot: 0, x: 3, y: type === "I" ? -1 : 0 };
    g.fall = 0;
    if (!fits(p.type, p.rot, p.x, p.y)) {
      g.cur = p;
      g.over = true;
      return;
    }
    g.cur = p;
  }

  function gravityTicks() { return GRAVITY[Math.min(g.level, GRAVITY.length) - 1]; }

  function tryMove(dx, dy) {
    var p = g.cur;
    if (fits(p.type, p.rot, p.x + dx, p.y + dy)) { p.x += dx; p.y += dy; return true; }
    return false;
  }

  function tryRotate(dir) {
    var p = g.cur, nr = (p.rot + dir + 4) % 4;
    for (var i = 0; i < KICKS.length; i++) {
      if (fits(p.type, nr, p.x + KICKS[i][0], p.y + KICKS[i][1])) {
        p.rot = nr; p.x += KICKS[i][0]; p.y += KICKS[i][1];
        return true;
      }
    }
    return false;
  }

  function lock() {
    var p = g.cur, cs = cellsOf(p, p.rot, p.x, p.y), above = false;
    for (var i = 0; i < 4; i++) {
      if (cs[i][1] < 0) above = true;
      else g.board[cs[i][1]][cs[i][0]] = p.type;
    }
    g.pieces++;
    g.locked = { cells: cs, tick: g.tick };
    var full = [];
    for (var y = 0; y < ROWS; y++) {
      var n = 0;
      for (var x = 0; x < COLS; x++) if (g.board[y][x]) n++;
      if (n === COLS) full.push(y);
    }
    if (full.length) {
      g.flashes = full.map(function (row) { return { row: row, tick: g.tick }; });
      for (var k = 0; k < full.length; k++) {
        g.board.splice(full[k], 1);
        g.board.unshift(new Array(COLS).fill(""));
      }
      g.score += LINE_POINTS[full.length] * g.level;
      g.lines += full.length;
      if (full.length > g.bestClear) g.bestClear = full.length;
      if (full.length === 4) g.quads++;
      g.banner = { text: ["", "SINGLE", "DOUBLE", "TRIPLE", "QUAD!"][full.length],
                   pts: LINE_POINTS[full.length] * g.level, tick: g.tick, big: full.length === 4 };
      g.level = 1 + Math.floor(g.lines / LINES_PER_LEVEL);
    }
    g.cur = null;
    if (above) { g.over = true; return; }
    spawn();
  }

  function press(code) {
    if (!g.cur || g.over) return;
    if (code === "ArrowLeft") tryMove(-1, 0);
    else if (code === "ArrowRight") tryMove(1, 0);
    else if (code === "ArrowUp") tryRotate(1);
    else if (code === "KeyZ") tryRotate(-1);
    else if (code === "Space") {
      var d = 0;
      while (tryMove(0, 1)) d++;
      g.score += 2 * d;
      lock();
    }
  }

  function step() {
    g.tick++;
    var list = presses; presses = [];
    for (var i = 0; i < list.length; i++) press(list[i]);
    if (g.over || !g.cur) return;
    g.fall++;
    var need = softHeld ? Math.min(SOFT_TICKS, gravityTicks()) : gravityTicks();
    if (g.fall >= need) {
      g.fall = 0;
      if (tryMove(0, 1)) { if (softHeld) g.score += 1; }
      else lock();
    }
  }

  function landingY() {
    var p = g.cur, y = p.y;
    while (fits(p.type, p.rot, p.x, y + 1)) y++;
    return y;
  }

  function stackHeight() {
    for (var y = 0; y < ROWS; y++) for (var x = 0; x < COLS; x++) if (g.board[y][x]) return ROWS - y;
    return 0;
  }

  function holes() {
    var n = 0;
    for (var x = 0; x < COLS; x++) {
      var roof = false;
      for (var y = 0; y < ROWS; y++) {
        if (g.board[y][x]) roof = true;
        else if (roof) n++;
      }
    }
    return n;
  }

  // ---------------------------------------------------------------- drawing
  function roundRect(x, y, w, h, r) {
    ctx.beginPath();
    ctx.moveTo(x + r, y);
    ctx.arcTo(x + w, y, x + w, y + h, r);
    ctx.arcTo(x + w, y + h, x, y + h, r);
    ctx.arcTo(x, y + h, x, y, r);
    ctx.arcTo(x, y, x + w, y, r);
    ctx.closePath();
  }

  function block(px, py, size, type, alpha) {
    var c = COLORS[type];
    ctx.globalAlpha = alpha === undefined ? 1 : alpha;
    var gr = ctx.createLinearGradient(px, py, px + size, py + size);
    gr.addColorStop(0, c[0]);
    gr.addColorStop(1, c[1]);
    ctx.fillStyle = c[2];
    ctx.fillRect(px, py, size, size);
    ctx.fillStyle = gr;
    ctx.fillRect(px + 1, py + 1, size - 3, size - 3);
    ctx.fillStyle = "rgba(255,255,255,0.45)";
    ctx.fillRect(px + 2, py + 2, size - 6, 2);
    ctx.fillRect(px + 2, py + 2, 2, size - 6);
    ctx.globalAlpha = 1;
  }

  function panel(x, y, w, h) {
    ctx.fillStyle = "rgba(18,24,48,0.88)";
    roundRect(x, y, w, h, 8);
    ctx.fill();
    ctx.strokeStyle = "#2f3c6e";
    ctx.lineWidth = 1.5;
    ctx.stroke();
  }

  function stat(x, y, w, label, value, color) {
    panel(x, y, w, 46);
    ctx.textAlign = "center";
    ctx.textBaseline = "alphabetic";
    ctx.fillStyle = "#8f9fd0";
    ctx.font = "bold 11px " + FONT;
    ctx.fillText(label, x + w / 2, y + 16);
    ctx.fillStyle = color || "#ffffff";
    ctx.font = "bold 21px " + FONT;
    ctx.fillText(String(value), x + w / 2, y + 39);
  }

  function drawPreview(type, cx, cy, size) {
    var cs = ROT[type][0], minx = 9, maxx = -9, miny = 9, maxy = -9;
    cs.forEach(function (c) {
      minx = Math.min(minx, c[0]); maxx = Math.max(maxx, c[0]);
      miny = Math.min(miny, c[1]); maxy = Math.max(maxy, c[1]);
    });
    var ox = cx - (maxx - minx + 1) * size / 2, oy = cy - (maxy - miny + 1) * size / 2;
    cs.forEach(function (c) { block(ox + (c[0] - minx) * size, oy + (c[1] - miny) * size, size, type); });
  }

  function draw() {
    var t = g.tick;
    var bg = ctx.createLinearGradient(0, 0, 0, H);
    bg.addColorStop(0, "#1a1f4a");
    bg.addColorStop(1, "#090c1c");
    ctx.fillStyle = bg;
    ctx.fillRect(0, 0, W, H);
    // faint diagonal stripes in the background
    ctx.strokeStyle = "rgba(120,140,255,0.05)";
    ctx.lineWidth = 10;
    for (var s = -H; s < W; s += 34) {
      ctx.beginPath(); ctx.moveTo(s, H); ctx.lineTo(s + H, 0); ctx.stroke();
    }

    // the well
    ctx.fillStyle = "#3c4a8a";
    roundRect(FX - 5, FY - 5, COLS * CELL + 10, ROWS * CELL + 10, 6);
    ctx.fill();
    ctx.fillStyle = "#070a18";
    ctx.fillRect(FX, FY, COLS * CELL, ROWS * CELL);
    ctx.strokeStyle = "rgba(90,110,190,0.16)";
    ctx.lineWidth = 1;
    for (var gx = 1; gx < COLS; gx++) {
      ctx.beginPath(); ctx.moveTo(FX + gx * CELL + 0.5, FY); ctx.lineTo(FX + gx * CELL + 0.5, FY + ROWS * CELL); ctx.stroke();
    }
    for (var gy = 1; gy < ROWS; gy++) {
      ctx.beginPath(); ctx.moveTo(FX, FY + gy * CELL + 0.5); ctx.lineTo(FX + COLS * CELL, FY + gy * CELL + 0.5); ctx.stroke();
    }
    for (var y = 0; y < ROWS; y++)
      for (var x = 0; x < COLS; x++)
        if (g.board[y][x]) block(FX + x * CELL, FY + y * CELL, CELL, g.board[y][x]);

    // the piece last locked glows for a moment
    if (g.locked && t - g.locked.tick < 12) {
      ctx.fillStyle = "rgba(255,255,255," + (0.35 * (1 - (t - g.locked.tick) / 12)).toFixed(3) + ")";
      g.locked.cells.forEach(function (c) {
        if (c[1] >= 0 && g.board[c[1]][c[0]]) ctx.fillRect(FX + c[0] * CELL, FY + c[1] * CELL, CELL, CELL);
      });
    }

    // ghost and falling piece
    if (g.cur && !g.over) {
      var p = g.cur, gyL = landingY();
      ctx.strokeStyle = COLORS[p.type][0];
      ctx.globalAlpha = 0.55;
      ctx.lineWidth = 1.5;
      cellsOf(p, p.rot, p.x, gyL).forEach(function (c) {
        if (c[1] >= 0) ctx.strokeRect(FX + c[0] * CELL + 1.5, FY + c[1] * CELL + 1.5, CELL - 3, CELL - 3);
      });
      ctx.globalAlpha = 1;
      cellsOf(p, p.rot, p.x, p.y).forEach(function (c) {
        if (c[1] >= 0) block(FX + c[0] * CELL, FY + c[1] * CELL, CELL, p.type);
      });
    }

    // cleared rows flash white and fade
    g.flashes.forEach(function (f) {
      var age = t - f.tick;
      if (age < 20) {
        var a = 1 - age / 20;
        ctx.fillStyle = "rgba(255,255,255," + (0.85 * a).toFixed(3) + ")";
        var grow = (1 - a) * 6;
        ctx.fillRect(FX - grow, FY + f.row * CELL + grow / 2, COLS * CELL + 2 * grow, CELL - grow);
      }
    });

    // left column: name and numbers
    panel(10, 10, 130, 62);
    ctx.textAlign = "center";
    ctx.textBaseline = "alphabetic";
    var lg = ctx.createLinearGradient(0, 22, 0, 50);
    lg.addColorStop(0, "#ffe36b");
    lg.addColorStop(1, "#f08a1c");
    ctx.fillStyle = lg;
    ctx.font = "bold 23px " + FONT;
    ctx.fillText("BLOCKFALL", 75, 42);
    ctx.fillStyle = "#8f9fd0";
    ctx.font = "bold 10px " + FONT;
    ctx.fillText("stack \u00b7 fill \u00b7 clear", 75, 60);
    stat(10, 82, 130, "SCORE", g.score);
    stat(10, 136, 130, "LINES", g.lines, "#7cf29a");
    stat(10, 190, 62, "LEVEL", g.level, "#ffbf73");
    stat(78, 190, 62, "QUADS", g.quads, "#5ee7ff");
    panel(10, 244, 130, 106);
    ctx.textAlign = "left";
    ctx.font = "11px " + FONT;
    ctx.fillStyle = "#aab6e0";
    var help = [["\u2190 \u2192", "move"], ["\u2191 / Z", "turn"], ["\u2193", "soft drop"], ["Space", "hard drop"]];
    help.forEach(function (h, i) {
      ctx.fillStyle = "#ffe36b";
      ctx.fillText(h[0], 20, 266 + i * 21);
      ctx.fillStyle = "#aab6e0";
      ctx.fillText(h[1], 70, 266 + i * 21);
    });

    // right column: next piece and piece count
    panel(340, 10, 130, 100);
    ctx.textAlign = "center";
    ctx.fillStyle = "#8f9fd0";
    ctx.font = "bold 11px " + FONT;
    ctx.fillText("NEXT", 405, 27);
    drawPreview(g.queue[0], 405, 68, 18);
    stat(340, 120, 130, "PIECES", g.pieces);
    stat(340, 174, 130, "BEST CLEAR", ["-", "SINGLE", "DOUBLE", "TRIPLE", "QUAD"][g.bestClear], "#d18cff");
    panel(340, 228, 130, 122);
    ctx.fillStyle = "#8f9fd0";
    ctx.font = "bold 11px " + FONT;
    ctx.fillText("POINTS \u00d7 LEVEL", 405, 246);
    ctx.font = "12px " + FONT;
    [["1 line", 100], ["2 lines", 300], ["3 lines", 500], ["QUAD", 800]].forEach(function (r, i) {
      ctx.textAlign = "left";
      ctx.fillStyle = i === 3 ? "#5ee7ff" : "#aab6e0";
      ctx.fillText(r[0], 354, 270 + i * 21);
      ctx.textAlign = "right";
      ctx.fillText(String(r[1]), 456, 270 + i * 21);
    });

    // banner after a clear
    if (g.banner && t - g.banner.tick < 60 && !g.over) {
      var age = t - g.banner.tick, a = age < 45 ? 1 : (60 - age) / 15;
      ctx.globalAlpha = a;
      ctx.textAlign = "center";
      ctx.textBaseline = "middle";
      var by = FY + 120 - age / 3;
      ctx.fillStyle = "rgba(7,10,24,0.7)";
      roundRect(FX + 12, by - 24, COLS * CELL - 24, 46, 8);
      ctx.fill();
      ctx.fillStyle = g.banner.big ? "#5ee7ff" : "#ffe36b";
      ctx.font = "bold " + (g.banner.big ? 26 : 20) + "px " + FONT;
      ctx.fillText(g.banner.text, FX + COLS * CELL / 2, by - 6);
      ctx.fillStyle = "#ffffff";
      ctx.font = "bold 12px " + FONT;
      ctx.fillText("+" + g.banner.pts, FX + COLS * CELL / 2, by + 13);
      ctx.globalAlpha = 1;
      ctx.textBaseline = "alphabetic";
    }

    if (g.over) {
      ctx.fillStyle = "rgba(5,8,20,0.72)";
      ctx.fillRect(FX, FY, COLS * CELL, ROWS * CELL);
      ctx.textAlign = "center";
      ctx.textBaseline = "middle";
      ctx.fillStyle = "#ff6b6b";
      ctx.font = "bold 26px " + FONT;
      ctx.fillText("TOPPED", FX + COLS * CELL / 2, FY + 140);
      ctx.fillText("OUT", FX + COLS * CELL / 2, FY + 170);
      ctx.fillStyle = "#ffffff";
      ctx.font = "bold 13px " + FONT;
      ctx.fillText("Score " + g.score + "  \u00b7  Lines " + g.lines, FX + COLS * CELL / 2, FY + 205);
      ctx.textBaseline = "alphabetic";
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

  var KEYS = { ArrowLeft: 1, ArrowRight: 1, ArrowUp: 1, ArrowDown: 1, Space: 1, KeyZ: 1 };
  window.addEventListener("keydown", function (e) {
    if (!(e.code in KEYS)) return;
    e.preventDefault();
    if (e.code === "ArrowDown") softHeld = true;
    if (e.repeat) return;
    presses.push(e.code);
  });
  window.addEventListener("keyup", function (e) {
    if (e.code === "ArrowDown") softHeld = false;
  });

  window.gameAPI = {
    getState: function () {
      var p = g.cur;
      return {
        status: g.over ? "terminal" : "playing",
        actionable: !g.over,
        terminal: { is_terminal: g.over, outcome: g.over ? "lose" : null,
                    reason: g.over ? "the stack reached the top: a new piece had no room" : null },
        score: g.score,
        lines: g.lines,
        level: g.level,
        pieces: g.pieces,
        best_clear: g.bestClear,
        quads: g.quads,
        piece: p ? p.type : null,
        piece_x: p ? p.x : null,
        piece_y: p ? p.y : null,
        rotation: p ? p.rot : null,
        next: g.queue[0],
        stack_height: stackHeight(),
        holes: holes(),
        board: g.board.map(function (row) {
          return row.map(function (c) { return c || "."; }).join("");
        })
      };
    },
    reset: function () {
      presses = [];
      softHeld = false;
      newGame();
      acc = 0;
      draw();
    }
  };

  newGame();
  draw();
  requestAnimationFrame(frame);
})();
