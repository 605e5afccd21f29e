// Tally Grid: a nonogram. Each row's and column's clue lists the runs of filled cells in that line, in order;
// the player fills the cells the clues force and marks (x) the cells that must stay empty. Every puzzle is
// drawn from Math.random and kept only if the clues alone solve it line by line (so it has one solution and
// never needs a guess). Every fill and every mark is checked: a wrong one costs a life (the cell then shows
// its true state), and the third wrong one ends the run.
// Platform rules kept: logic in fixed 1/60 s ticks from the rAF clock (inputs are queued and applied at the
// next tick), chance only from Math.random, no drawing while window.__gameworld.rendering is false, the first
// frame drawn before actionable and reset() redraws, integer state.
(function () {
  "use strict";

  var W = 480, H = 440, HUD_H = 56;
  var N = 6, CELL = 44, GX = 168, GY = 160;     // the grid: N x N cells, top-left corner at (GX, GY)
  var CORNER = 14;                               // a click in a cell's top-right 14 x 14 px corner marks it
  var PUZZLES = 6, LIVES = 3;
  var MIN_FILL = 17, MAX_FILL = 21;
  var TICK_MS = 1000 / 60, MAX_CATCH_UP = 600;

  var canvas = document.getElementById("game");
  var ctx = canvas.getContext("2d");
  var g = null;
  var lastTs = null, acc = 0;
  var inputs = [];               // queued inputs: {kind: "fill"|"mark"|"move", ...}, applied at the next tick

  // ------------------------------------------------------------------ puzzles
  function runsOf(line) {
    var out = [], n = 0;
    for (var i = 0; i < line.length; i++) {
      if (line[i]) n++;
      else if (n) { out.push(n); n = 0; }
    }
    if (n) out.push(n);
    return out;
  }

  // Every placement of the clue's runs that agrees with `known` (1 filled, 0 empty, -1 unknown): which cells
  // can be filled and which can be empty. Returns [canFill, canEmpty] or null when none agrees.
  function lineOptions(clue, known) {
    var n = known.length, canFill = new Array(n).fill(false), canEmpty = new Array(n).fill(false), any = false;
    var cur = new Array(n).fill(0);
    function place(j, start) {
      var k;
      if (j === clue.length) {
        for (k = start; k < n; k++) if (known[k] === 1) return;
        for (k = 0; k < n; k++) {
          var v = k < start ? cur[k] : 0;
          if (v) canFill[k] = true; else canEmpty[k] = true;
        }
        any = true;
        return;
      }
      var L = clue[j];
      for (var s = start; s + L <= n; s++) {
        var ok = true;
        for (k = start; k < s; k++) if (known[k] === 1) { ok = false; break; }
        if (!ok) break;                       // a filled cell left behind: no later start works either
        for (k = s; k < s + L; k++) if (known[k] === 0) { ok = false; break; }
        if (!ok) continue;
        if (s + L < n && known[s + L] === 1) continue;
        for (k = start; k < s; k++) cur[k] = 0;
        for (k = s; k < s + L; k++) cur[k] = 1;
        if (s + L < n) cur[s + L] = 0;
        place(j + 1, Math.min(n, s + L + 1));
      }
    }
    place(0, 0);
    return any ? [canFill, canEmpty] : null;
  }

  // Line by line deduction from the clues alone; true when it settles every cell.
  function lineSolvable(rows, cols) {
    var b = [], r, c, changed = true;
    for (r = 0; r < N; r++) b.push(new Array(N).fill(-1));
    while (changed) {
      changed = false;
      for (var pass = 0; pass < 2; pass++) {
        for (var i = 0; i < N; i++) {
          var known = [];
          for (var k = 0; k < N; k++) known.push(pass ? b[k][i] : b[i][k]);
          var opt = lineOptions(pass ? cols[i] : rows[i], known);
          if (!opt) return false;
          for (k = 0; k < N; k++) {
            if (known[k] !== -1) continue;
            var v = opt[0][k] && !opt[1][k] ? 1 : (!opt[0][k] && opt[1][k] ? 0 : -1);
            if (v === -1) continue;
            if (pass) b[k][i] = v; else b[i][k] = v;
            changed = true;
          }
        }
      }
    }
    for (r = 0; r < N; r++) for (c = 0; c < N; c++) if (b[r][c] === -1) return false;
    return true;
  }

  function makePuzzle() {
    for (var tries = 0; tries < 20000; tries++) {
      var sol = [], count = 0, r, c;
      for (r = 0; r < N; r++) {
        var row = [];
        for (c = 0; c < N; c++) { var f = Math.random() < 0.56 ? 1 : 0; row.push(f); count += f; }
        sol.push(row);
      }
      if (count < MIN_FILL || count > MAX_FILL) continue;
      var rows = [], cols = [];
      for (r = 0; r < N; r++) rows.push(runsOf(sol[r]));
      for (c = 0; c < N; c++) { var col = []; for (r = 0; r < N; r++) col.push(sol[r][c]); cols.push(runsOf(col)); }
      var empty = false;
      for (r = 0; r < N; r++) if (!rows[r].length || !cols[r].length) empty = true;
      if (empty) continue;                      // every line has at least one run: no blank "0" clues
      if (!lineSolvable(rows, cols)) continue;
      return { sol: sol, rows: rows, cols: cols, count: count };
    }
    throw new Error("no puzzle");
  }

  // ------------------------------------------------------------------ game
  function startPuzzle(index) {
    g.index = index;
    g.pz = makePuzzle();
    g.board = [];                               // 0 unknown, 1 filled, 2 marked, 3 revealed empty, 4 revealed filled
    for (var r = 0; r < N; r++) g.board.push(new Array(N).fill(0));
    g.pops = [];
    g.puzzleTick = g.tick;
  }

  function newGame() {
    g = { tick: 0, cells: 0, solved: 0, lives: LIVES, mistakes: 0, over: false, won: false,
          cx: 0, cy: 0, flash: null, banner: null, shake: -100 };
    startPuzzle(0);
  }

  function cellsLeft() {
    var n = 0;
    for (var r = 0; r < N; r++) for (var c = 0; c < N; c++) if (g.pz.sol[r][c] && g.board[r][c] !== 1 && g.board[r][c] !== 4) n++;
    return n;
  }

  function act(kind, c, r) {
    g.cx = c; g.cy = r;
    if (g.board[r][c] !== 0) return;          // already decided: nothing happens
    var truth = g.pz.sol[r][c];
    if ((kind === "fill") === (truth === 1)) {
      g.board[r][c] = kind === "fill" ? 1 : 2;
      if (kind === "fill") { g.cells++; g.pops.push({ tick: g.tick, c: c, r: r }); }
    } else {
      g.board[r][c] = truth ? 4 : 3;
      g.lives--; g.mistakes++;
      g.flash = { tick: g.tick, c: c, r: r };
      g.shake = g.tick;
      if (g.lives <= 0) { g.over = true; return; }
    }
    if (cellsLeft() === 0) {
      g.solved++;
      if (g.solved >= PUZZLES) { g.over = true; g.won = true; return; }
      g.banner = { tick: g.tick, n: g.index + 1 };
      startPuzzle(g.index + 1);
    }
  }

  function step() {
    g.tick++;
    var queue = inputs;
    inputs = [];
    for (var i = 0; i < queue.length && !g.over; i++) {
      var q = queue[i];
      if (q.kind === "move") {
        g.cx = Math.max(0, Math.min(N - 1, g.cx + q.dx));
        g.cy = Math.max(0, Math.min(N - 1, g.cy + q.dy));
      } else if (q.kind === "here") act(q.what, g.cx, g.cy);
      else act(q.kind, q.c, q.r);
    }
  }

  // ------------------------------------------------------------------ drawing
  function roundRect(x, y, w, h, r) {
    ctx.beginPath();
    ctx.moveTo(x + r, y);
    ctx.arcTo(x + w, y, x + w, y + h, r);
    ctx.arcTo(x + w, y + h, x, y + h, r);
    ctx.arcTo(x, y + h, x, y, r);
    ctx.arcTo(x, y, x + w, y, r);
    ctx.closePath();
  }

  function lineDone(isCol, i) {
    for (var k = 0; k < N; k++) {
      var r = isCol ? k : i, c = isCol ? i : k;
      if (g.pz.sol[r][c] && g.board[r][c] !== 1 && g.board[r][c] !== 4) return false;
    }
    return true;
  }

  function drawHeart(x, y, s, full) {
    ctx.save();
    ctx.translate(x, y);
    ctx.scale(s / 16, s / 16);
    ctx.beginPath();
    ctx.moveTo(0, 5);
    ctx.bezierCurveTo(-8, -2, -5, -9, 0, -4);
    ctx.bezierCurveTo(5, -9, 8, -2, 0, 5);
    ctx.closePath();
    ctx.fillStyle = full ? "#ff5c7a" : "#3a3f55";
    ctx.fill();
    ctx.restore();
  }

  function drawX(cx, cy, s, color, width) {
    ctx.strokeStyle = color;
    ctx.lineWidth = width;
    ctx.beginPath();
    ctx.moveTo(cx - s, cy - s); ctx.lineTo(cx + s, cy + s);
    ctx.moveTo(cx + s, cy - s); ctx.lineTo(cx - s, cy + s);
    ctx.stroke();
  }

  function drawHud() {
    ctx.fillStyle = "#161a2e";
    ctx.fillRect(0, 0, W, HUD_H);
    ctx.fillStyle = "#5ad1c0";
    ctx.fillRect(0, HUD_H - 3, W, 3);
    var boxes = [["PUZZLE", (g.index + 1) + "/" + PUZZLES], ["CELLS", String(g.cells)], ["SOLVED", String(g.solved)],
                 ["LEFT", String(cellsLeft())]];
    var bw = 84;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    for (var i = 0; i < boxes.length; i++) {
      var x = 6 + i * (bw + 4);
      ctx.fillStyle = "#21263f";
      roundRect(x, 6, bw, HUD_H - 15, 6); ctx.fill();
      ctx.fillStyle = "#8f9bc8";
      ctx.font = "bold 10px monospace";
      ctx.fillText(boxes[i][0], x + bw / 2, 16);
      ctx.fillStyle = "#ffffff";
      ctx.font = "bold 19px monospace";
      ctx.fillText(boxes[i][1], x + bw / 2, 35);
    }
    var hx = 6 + 4 * (bw + 4);
    ctx.fillStyle = "#21263f";
    roundRect(hx, 6, W - hx - 6, HUD_H - 15, 6); ctx.fill();
    ctx.fillStyle = "#8f9bc8";
    ctx.font = "bold 10px monospace";
    ctx.fillText("LIVES", hx + (W - hx - 6) / 2, 16);
    for (i = 0; i < LIVES; i++) drawHeart(hx + 22 + i * 32, 36, 22, i < g.lives);
  }

  function draw() {
    var t = g.tick;
    var bg = ctx.createLinearGradient(0, 0, 0, H);
    bg.addColorStop(0, "#1b2140");
    bg.addColorStop(1, "#0c1022");
    ctx.fillStyle = bg;
    ctx.fillRect(0, 0, W, H);
    var shake = t - g.shake < 12 ? Math.sin((t - g.shake) * 1.9) * (12 - (t - g.shake)) * 0.5 : 0;
    ctx.save();
    ctx.translate(shake, 0);
    // the paper
    ctx.fillStyle = "#f3ecd9";
    roundRect(GX - 100, GY - 96, N * CELL + 110, N * CELL + 106, 10); ctx.fill();
    ctx.fillStyle = "#e6dcc2";
    ctx.fillRect(GX - 100, GY - 4, 96, N * CELL + 4);
    ctx.fillRect(GX - 4, GY - 96, N * CELL + 4, 92);
    // cursor row and column
    ctx.fillStyle = "rgba(90,209,192,0.25)";
    ctx.fillRect(GX - 100, GY + g.cy * CELL, 100, CELL);
    ctx.fillRect(GX + g.cx * CELL, GY - 96, CELL, 96);
    // clues
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.font = "bold 17px monospace";
    var i, k;
    for (i = 0; i < N; i++) {
      var rc = g.pz.rows[i], done = lineDone(false, i);
      ctx.fillStyle = done ? "#b3a88c" : "#2b2f45";
      for (k = 0; k < rc.length; k++) ctx.fillText(String(rc[k]), GX - 16 - (rc.length - 1 - k) * 26, GY + i * CELL + CELL / 2 + 1);
      var cc = g.pz.cols[i];
      done = lineDone(true, i);
      ctx.fillStyle = done ? "#b3a88c" : "#2b2f45";
      for (k = 0; k < cc.length; k++) ctx.fillText(String(cc[k]), GX + i * CELL + CELL / 2, GY - 16 - (cc.length - 1 - k) * 26);
    }
    // cells
    for (var r = 0; r < N; r++) {
      for (var c = 0; c < N; c++) {
        var x = GX + c * CELL, y = GY + r * CELL, v = g.board[r][c];
        ctx.fillStyle = "#fffaf0";
        ctx.fillRect(x, y, CELL, CELL);
        if (v === 1 || v === 4) {
          var pop = 0;
          for (k = 0; k < g.pops.length; k++) {
            var p = g.pops[k];
            if (p.c === c && p.r === r && t - p.tick < 10) pop = (10 - (t - p.tick)) / 10;
          }
          var inset = 3 - pop * 3;
          ctx.fillStyle = v === 4 ? "#c0475a" : "#2a5d8f";
          roundRect(x + inset, y + inset, CELL - 2 * inset, CELL - 2 * inset, 5); ctx.fill();
          ctx.fillStyle = "rgba(255,255,255,0.18)";
          ctx.fillRect(x + inset + 3, y + inset + 3, CELL - 2 * inset - 6, 4);
        } else if (v === 2) {
          drawX(x + CELL / 2, y + CELL / 2, 9, "#8a8fa8", 3);
        } else if (v === 3) {
          ctx.fillStyle = "rgba(255,92,122,0.18)";
          ctx.fillRect(x, y, CELL, CELL);
          drawX(x + CELL / 2, y + CELL / 2, 10, "#e04560", 4);
        } else {
          // the corner tab: click it to mark the cell
          ctx.fillStyle = "#eadfc6";
          ctx.beginPath();
          ctx.moveTo(x + CELL - CORNER, y); ctx.lineTo(x + CELL, y); ctx.lineTo(x + CELL, y + CORNER);
          ctx.closePath(); ctx.fill();
        }
      }
    }
    // grid lines (thicker every 3)
    for (i = 0; i <= N; i++) {
      ctx.fillStyle = i % 3 === 0 ? "#3d4260" : "#b9b096";
      var w = i % 3 === 0 ? 3 : 1;
      ctx.fillRect(GX + i * CELL - (w >> 1), GY, w, N * CELL);
      ctx.fillRect(GX, GY + i * CELL - (w >> 1), N * CELL, w);
    }
    // cursor
    ctx.strokeStyle = "#14a896";
    ctx.lineWidth = 3;
    ctx.strokeRect(GX + g.cx * CELL + 2, GY + g.cy * CELL + 2, CELL - 4, CELL - 4);
    // a mistake flashes red
    if (g.flash && t - g.flash.tick < 24) {
      ctx.strokeStyle = "rgba(255,60,90," + ((24 - (t - g.flash.tick)) / 24).toFixed(3) + ")";
      ctx.lineWidth = 5;
      ctx.strokeRect(GX + g.flash.c * CELL - 3, GY + g.flash.r * CELL - 3, CELL + 6, CELL + 6);
    }
    ctx.restore();
    drawHud();
    // the corner box above the row clues: the puzzle number, or a cheer after a solve
    ctx.textAlign = "center";
    if (g.banner && t - g.banner.tick < 90 && !g.over) {
      var glow = (90 - (t - g.banner.tick)) / 90;
      ctx.fillStyle = "rgba(46,160,110," + (0.35 + 0.5 * glow).toFixed(3) + ")";
      roundRect(GX - 94, GY - 90, 84, 80, 8); ctx.fill();
      ctx.fillStyle = "#ffffff";
      ctx.font = "bold 13px monospace";
      ctx.fillText("PUZZLE " + g.banner.n, GX - 52, GY - 66);
      ctx.font = "bold 16px monospace";
      ctx.fillText("SOLVED!", GX - 52, GY - 44);
      ctx.font = "bold 11px monospace";
      ctx.fillText("next one up", GX - 52, GY - 24);
    } else {
      ctx.fillStyle = "#b3a88c";
      ctx.font = "bold 12px monospace";
      ctx.fillText("PUZZLE", GX - 52, GY - 62);
      ctx.fillStyle = "#2b2f45";
      ctx.font = "bold 26px monospace";
      ctx.fillText(String(g.index + 1), GX - 52, GY - 36);
    }
    if (g.over) {
      // the panel covers the column clues and leaves the grid in sight; a lost puzzle shows its picture
      if (!g.won) {
        for (var rr = 0; rr < N; rr++) {
          for (var cc2 = 0; cc2 < N; cc2++) {
            if (!g.pz.sol[rr][cc2] || g.board[rr][cc2] === 1 || g.board[rr][cc2] === 4) continue;
            ctx.strokeStyle = "rgba(42,93,143,0.7)";
            ctx.lineWidth = 2;
            ctx.setLineDash([4, 3]);
            ctx.strokeRect(GX + cc2 * CELL + 5, GY + rr * CELL + 5, CELL - 10, CELL - 10);
            ctx.setLineDash([]);
          }
        }
      }
      ctx.fillStyle = "rgba(12,15,32,0.97)";
      ctx.fillRect(0, HUD_H + 4, W, GY - HUD_H - 10);
      ctx.textAlign = "center";
      ctx.fillStyle = g.won ? "#7ee0a0" : "#ff5c7a";
      ctx.font = "bold 30px monospace";
      ctx.fillText(g.won ? "ALL PUZZLES SOLVED!" : "OUT OF LIVES!", W / 2, HUD_H + 34);
      ctx.fillStyle = "#ffffff";
      ctx.font = "bold 15px monospace";
      ctx.fillText("CELLS " + g.cells + "   PUZZLES SOLVED " + g.solved, W / 2, HUD_H + 66);
      if (!g.won) {
        ctx.fillStyle = "#9fb4d8";
        ctx.font = "12px monospace";
        ctx.fillText("dashed: the cells this puzzle still needed", W / 2, HUD_H + 86);
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

  function canvasXY(e) {
    var rect = canvas.getBoundingClientRect();
    return [(e.clientX - rect.left) * canvas.width / rect.width, (e.clientY - rect.top) * canvas.height / rect.height];
  }

  canvas.addEventListener("mousedown", function (e) {
    e.preventDefault();
    var xy = canvasXY(e), x = xy[0] - GX, y = xy[1] - GY;
    if (x < 0 || y < 0 || x >= N * CELL || y >= N * CELL) return;
    var c = Math.floor(x / CELL), r = Math.floor(y / CELL);
    var inCorner = x - c * CELL >= CELL - CORNER && y - r * CELL < CORNER;
    var kind = e.button === 2 || inCorner ? "mark" : e.button === 0 ? "fill" : null;
    if (kind) inputs.push({ kind: kind, c: c, r: r });
  });
  canvas.addEventListener("contextmenu", function (e) { e.preventDefault(); });

  var MOVES = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  window.addEventListener("keydown", function (e) {
    if (e.repeat) return;
    if (MOVES[e.code]) inputs.push({ kind: "move", dx: MOVES[e.code][0], dy: MOVES[e.code][1] });
    else if (e.code === "Space") inputs.push({ kind: "here", what: "fill" });
    else if (e.code === "KeyX") inputs.push({ kind: "here", what: "mark" });
    else return;
    e.preventDefault();
  });

  function boardRows() {
    var sym = ".#x" + "x#", rows = [];
    for (var r = 0; r < N; r++) {
      var s = "";
      for (var c = 0; c < N; c++) s += sym[g.board[r][c]];
      rows.push(s);
    }
    return rows;
  }

  window.gameAPI = {
    getState: function () {
      return {
        status: g.over ? "terminal" : "playing",
        actionable: true,
        terminal: { is_terminal: g.over, outcome: g.over ? (g.won ? "win" : "lose") : null,
                    reason: g.over ? (g.won ? "all puzzles solved" : "out of lives") : null },
        score: g.cells,
        cells: g.cells,
        puzzles_solved: g.solved,
        puzzle: g.index + 1,
        cells_left: g.won ? 0 : cellsLeft(),
        lives: g.lives,
        mistakes: g.mistakes,
        cursor_x: g.cx,
        cursor_y: g.cy,
        row_clues: g.pz.rows.map(function (a) { return a.slice(); }),
        col_clues: g.pz.cols.map(function (a) { return a.slice(); }),
        board: boardRows()
      };
    },
    reset: function () {
      inputs = [];
      newGame();
      acc = 0;
      draw();
    }
  };

  newGame();
  draw();
  requestAnimationFrame(frame);
})();
