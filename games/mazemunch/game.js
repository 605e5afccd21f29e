// Maze Munch: a maze-chase arcade game (Pac-Man-style). The muncher runs through a maze eating pellets;
// arrows turn it (a turn waits for the next opening) and it keeps running until a wall stops it. Four
// ghosts chase by different rules: Blaze (red) heads for the muncher's tile, Pinky (pink) for the tile
// four ahead of it, Frost (cyan) patrols the top-right corner, Tumble (orange) wanders at random.
// A power pellet makes the ghosts edible for 5 seconds. Three lives.
// Each game (each reset) draws from Math.random: one of four hand-made mazes, maybe flipped upside down, the
// muncher's start tile and heading, one power pellet's place in each quarter, and the order and times at which
// the three penned ghosts come out; every life of the game starts the same way.
// Platform rules (games/README.md): logic in fixed 1/60 s ticks from the rAF clock, chance only from
// Math.random in a fixed order, integer maths in the logic, no drawing while __gameworld.rendering is
// false, first frame drawn before the game is actionable, reset() redraws.
(function () {
  "use strict";

  var W = 480, H = 360, HUD_H = 36;
  var TILE = 20, OX = 10, OY = 40;
  var TICK_MS = 1000 / 60;
  var MAX_CATCH_UP = 600;
  var LIVES = 3;
  var POWER_TICKS = 300;             // 5 s of edible ghosts
  var DEATH_TICKS = 48;              // the caught muncher's animation before the next life
  var EATEN_PEN_TICKS = 150;         // an eaten ghost waits this long in the pen
  // Four hand-made mazes (the left half, columns 0-11; the right half mirrors it). Each game draws one and
  // may flip it upside down (the pen's door then faces down). The ghost pen sits in the middle (rows 6-8).
  var HALVES = [
    ["############", "#..........#", "#.###.####.#", "#...........", "#.###.#.####", "#.....#.....",
     "#####.#.###-", "#.......#GGG", "#.###.#.####", "#...#.#.....", "###.#.#.###.", "#.....#...#.",
     "#.###.###.#.", "#...........", "############"],
    ["############", "#.....#.....", "#.###.#.###.", "#...........", "#.#.###.####", "#.#...#.....",
     "#.###.#.###-", "#.......#GGG", "#.#.#.#.####", "#.#.#.#.....", "#...#.#.#.#.", "#.#.#...#...",
     "#.#.###.#.#.", "#...........", "############"],
    ["############", "#....#......", "#.##.#.####.", "#...........", "#.#.##.#.###", "#.#....#....",
     "#.#.##.####-", "#...#...#GGG", "#.#.#.#.####", "#.#...#.....", "#.###.#.###.", "#.....#.#...",
     "#.###...#.#.", "#.....#.....", "############"],
    ["############", "#...........", "#.##.###.##.", "#.##.#...#..", "#....#.#.#.#", "##.#........",
     "##.#.##.###-", "#.......#GGG", "#.##.##.####", "#....#......", "#.##.#.###.#", "#.##.......#",
     "#.##.#.###.#", "#....#......", "############"]
  ];
  var COLS = 23, ROWS = 15, MID_COL = 11, MID_ROW = 7;
  var MAZE = null;                   // the current game's maze, one string a row
  var EXIT = { col: 11, row: 5 };    // the tile outside the pen's door (row 9 when the maze is flipped)
  var START = { col: 11, row: 13 };  // the muncher's start tile, drawn each game
  var START_DIR = 1;
  var MAZE_NO = 0, FLIPPED = false;
  var DX = [0, -1, 0, 1], DY = [-1, 0, 1, 0];     // 0 up, 1 left, 2 down, 3 right
  var KEYDIR = { ArrowUp: 0, ArrowLeft: 1, ArrowDown: 2, ArrowRight: 3 };
  var GHOSTS = [
    { name: "blaze", color: "#ff4a4a" },
    { name: "pinky", color: "#ff9ad6" },
    { name: "frost", color: "#47e6ff" },
    { name: "tumble", color: "#ffae3c" }
  ];
  var SEATS = [];                    // per ghost: its start tile and release tick (drawn each game)
  var TOTAL = 0;
  var QUAD_TOTAL = [0, 0, 0, 0];

  // The quarter of a tile: 0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right; the centre column and the
  // pen's row belong to none.
  function quad(c, r) { return c === MID_COL || r === MID_ROW ? -1 : (c > MID_COL ? 1 : 0) + (r > MID_ROW ? 2 : 0); }
  function ring(c, r) { return c >= 8 && c <= 14 && r >= 5 && r <= 9; }   // around the pen: no pellets
  // The content's draws: the sum of two Math.random draws, modulo 1 (still uniform; nearby seeds' first
  // draws of the platform's generator are alike, and this keeps seeds 1, 2 and 3 from sharing a maze).
  function mixed() { var v = Math.random() + Math.random(); return v >= 1 ? v - 1 : v; }
  function randInt(n) { return Math.min(n - 1, Math.floor(mixed() * n)); }
  function openAt(c, r) { var ch = MAZE[r][c]; return ch === "." || ch === " "; }

  // Draws the game's content from Math.random, always in this order: maze, flip, start tile and heading,
  // one power pellet a quarter, the penned ghosts' seats and release order, Blaze's first heading, the
  // release times (the first after 30-90 ticks, then one every 60-120).
  function drawContent() {
    MAZE_NO = randInt(HALVES.length);
    FLIPPED = mixed() < 0.5;
    var half = HALVES[MAZE_NO], rows = [];
    for (var r = 0; r < ROWS; r++) {
      var h = half[FLIPPED ? ROWS - 1 - r : r];
      var line = h;
      for (var c = MID_COL - 1; c >= 0; c--) line += h[c];
      rows.push(line);
    }
    MAZE = rows;
    EXIT = { col: MID_COL, row: FLIPPED ? 9 : 5 };
    var starts = [];
    for (var r2 = 11; r2 <= 13; r2++) for (var c2 = 2; c2 <= 20; c2++) {
      var sr = FLIPPED ? ROWS - 1 - r2 : r2;
      if (openAt(c2, sr)) starts.push({ col: c2, row: sr });
    }
    START = starts[randInt(starts.length)];
    var dirs = [];
    for (var d = 0; d < 4; d++) if (openAt(START.col + DX[d], START.row + DY[d])) dirs.push(d);
    START_DIR = dirs[randInt(dirs.length)];
    var power = [];
    for (var q = 0; q < 4; q++) {
      var cands = [];
      for (var r3 = 1; r3 < ROWS - 1; r3++) for (var c3 = 1; c3 < COLS - 1; c3++) {
        var outer = (r3 <= 3 || r3 >= 11) && (c3 <= 6 || c3 >= 16);
        if (outer && openAt(c3, r3) && quad(c3, r3) === q && !(c3 === START.col && r3 === START.row)) cands.push([c3, r3]);
      }
      power.push(cands[randInt(cands.length)]);
    }
    var seats = [10, 11, 12];
    for (var i = seats.length - 1; i > 0; i--) { var j = randInt(i + 1), t = seats[i]; seats[i] = seats[j]; seats[j] = t; }
    var order = [1, 2, 3];
    for (var i2 = order.length - 1; i2 > 0; i2--) { var j2 = randInt(i2 + 1), t2 = order[i2]; order[i2] = order[j2]; order[j2] = t2; }
    SEATS = [{ col: EXIT.col, row: EXIT.row, pen: false, release: 0, dir: mixed() < 0.5 ? 1 : 3 }];
    var at = 30 + randInt(61);
    for (var k = 0; k < 3; k++) {
      SEATS[order[k]] = { col: seats[order[k] - 1], row: MID_ROW, pen: true, release: at, dir: 1 };
      at += 60 + randInt(61);
    }
    return power;
  }

  function countPellets(power) {
    TOTAL = 0;
    QUAD_TOTAL = [0, 0, 0, 0];
    var grid = [];
    for (var r = 0; r < ROWS; r++) {
      var line = [];
      for (var c = 0; c < COLS; c++) {
        var v = 0;
        if (openAt(c, r) && !ring(c, r) && !(c === START.col && r === START.row)) v = 1;
        line.push(v);
      }
      grid.push(line);
    }
    for (var p = 0; p < power.length; p++) grid[power[p][1]][power[p][0]] = 2;
    for (var r1 = 0; r1 < ROWS; r1++) for (var c1 = 0; c1 < COLS; c1++) {
      if (!grid[r1][c1]) continue;
      TOTAL++;
      if (quad(c1, r1) >= 0) QUAD_TOTAL[quad(c1, r1)]++;
    }
    return grid;
  }

  var canvas = document.getElementById("game");
  var ctx = canvas.getContext("2d");
  var g = null;
  var lastTs = null, acc = 0;
  var wallCanvas = null;

  function wall(col, row) {
    if (col < 0 || row < 0 || col >= COLS || row >= ROWS) return true;
    var ch = MAZE[row][col];
    return ch === "#" || ch === "-" || ch === "G";
  }
  function center(n) { return n * TILE + TILE / 2; }
  function atCenter(e) { return (e.x - TILE / 2) % TILE === 0 && (e.y - TILE / 2) % TILE === 0; }
  function col(e) { return Math.floor(e.x / TILE); }
  function row(e) { return Math.floor(e.y / TILE); }

  function placeActors() {
    g.p = { x: center(START.col), y: center(START.row), dir: START_DIR, want: START_DIR, moving: true };
    g.ghosts = [];
    for (var i = 0; i < GHOSTS.length; i++) {
      var d = GHOSTS[i], s = SEATS[i];
      g.ghosts.push({ name: d.name, color: d.color, kind: i, x: center(s.col), y: center(s.row),
                      dir: s.dir, mode: s.pen ? "pen" : "active", release: g.lifeTick + s.release,
                      scared: false });
    }
    g.power = 0;
    g.chain = 0;
  }

  function newGame() {
    var pellets = countPellets(drawContent());
    wallCanvas = null;
    g = { tick: 0, lifeTick: 0, score: 0, lives: LIVES, over: false, won: false, dying: 0,
          eaten: 0, lifePellets: 0, quadLeft: QUAD_TOTAL.slice(), quarters: 0, ghostsEaten: 0, flash: 0, popups: [],
          pellets: pellets };
    placeActors();
  }

  function eat() {
    var c = col(g.p), r = row(g.p), v = g.pellets[r][c];
    if (!v) return;
    g.pellets[r][c] = 0;
    g.eaten++;
    g.lifePellets++;
    var q = quad(c, r);
    if (q >= 0 && --g.quadLeft[q] === 0) { g.quarters++; g.flash = 30; g.popups.push({ x: g.p.x, y: g.p.y, text: "QUARTER CLEAR!", t: 60 }); }
    if (v === 1) { g.score += 10; }
    else {
      g.score += 50;
      g.power = POWER_TICKS;
      g.chain = 0;
      g.flash = 12;
      for (var i = 0; i < g.ghosts.length; i++) {
        var gh = g.ghosts[i];
        if (gh.mode === "active") { gh.scared = true; gh.dir = (gh.dir + 2) % 4; }
      }
    }
    if (g.eaten >= TOTAL) { g.won = true; g.over = true; }
  }

  function movePlayer(n) {
    var p = g.p;
    for (var i = 0; i < n; i++) {
      if (atCenter(p)) {
        eat();
        if (g.over) return;
        var c = col(p), r = row(p);
        if (p.want !== p.dir && !wall(c + DX[p.want], r + DY[p.want])) p.dir = p.want;
        if (wall(c + DX[p.dir], r + DY[p.dir])) { p.moving = false; return; }
      }
      p.moving = true;
      p.x += DX[p.dir];
      p.y += DY[p.dir];
    }
  }

  function ghostTarget(gh) {
    var pc = col(g.p), pr = row(g.p);
    if (gh.kind === 0) return [pc, pr];
    if (gh.kind === 1) return [pc + 4 * DX[g.p.dir], pr + 4 * DY[g.p.dir]];
    if (gh.kind === 2) return [COLS - 2, 1];
    return null;
  }

  function chooseDir(gh) {
    var c = col(gh), r = row(gh), options = [];
    for (var d = 0; d < 4; d++) {
      if (d === (gh.dir + 2) % 4) continue;
      if (!wall(c + DX[d], r + DY[d])) options.push(d);
    }
    if (!options.length) return (gh.dir + 2) % 4;
    if (options.length === 1) return options[0];
    var flee = gh.scared ? 1 : 0;               // a blue ghost runs from the muncher's tile
    var target = flee ? [col(g.p), row(g.p)] : ghostTarget(gh);
    if (!target) return options[Math.floor(Math.random() * options.length)];
    var best = options[0], bestD = flee ? -1 : 1e9;
    for (var k = 0; k < options.length; k++) {
      var nc = c + DX[options[k]], nr = r + DY[options[k]];
      var dd = (nc - target[0]) * (nc - target[0]) + (nr - target[1]) * (nr - target[1]);
      if (flee ? dd > bestD : dd < bestD) { bestD = dd; best = options[k]; }
    }
    return best;
  }

  function moveGhost(gh) {
    if (gh.mode === "pen") {
      if (g.lifeTick >= gh.release) gh.mode = "exit";
      return;
    }
    if (gh.mode === "exit") {                    // out through the door, one px a tick
      var ex = center(EXIT.col), ey = center(EXIT.row);
      if (gh.x !== ex) gh.x += gh.x < ex ? 1 : -1;
      else if (gh.y !== ey) gh.y += gh.y < ey ? 1 : -1;
      else { gh.mode = "active"; gh.dir = gh.kind % 2 ? 1 : 3; }
      return;
    }
    var n = gh.scared ? 1 : 2;   // 2 px a tick (the muncher runs 2.5)
    for (var i = 0; i < n; i++) {
      if (atCenter(gh)) gh.dir = chooseDir(gh);
      gh.x += DX[gh.dir];
      gh.y += DY[gh.dir];
    }
  }

  function collide() {
    for (var i = 0; i < g.ghosts.length; i++) {
      var gh = g.ghosts[i];
      if (gh.mode !== "active") continue;
      if (Math.abs(gh.x - g.p.x) + Math.abs(gh.y - g.p.y) >= 12) continue;
      if (gh.scared) {
        g.chain++;
        var pts = 100 << g.chain;
        g.score += pts;
        g.ghostsEaten++;
        g.popups.push({ x: gh.x, y: gh.y, text: String(pts), t: 45 });
        gh.mode = "pen"; gh.scared = false; gh.x = center(MID_COL); gh.y = center(MID_ROW);
        gh.release = g.lifeTick + EATEN_PEN_TICKS;
      } else {
        g.lives--;
        g.dying = DEATH_TICKS;
        return;
      }
    }
  }

  function step() {
    g.tick++;
    if (g.flash > 0) g.flash--;
    for (var i = g.popups.length - 1; i >= 0; i--) if (--g.popups[i].t <= 0) g.popups.splice(i, 1);
    if (g.over) return;
    if (g.dying > 0) {
      if (--g.dying === 0) {
        if (g.lives <= 0) { g.over = true; return; }
        g.lifeTick = 0;
        g.lifePellets = 0;
        placeActors();
      }
      return;
    }
    g.lifeTick++;
    if (g.power > 0 && --g.power === 0) {
      for (var k = 0; k < g.ghosts.length; k++) g.ghosts[k].scared = false;
    }
    movePlayer(g.tick % 2 ? 2 : 3);          // 2.5 px a tick: 1.5 tiles a 200 ms step
    if (g.over) return;
    collide();
    if (g.dying) return;
    for (var j = 0; j < g.ghosts.length; j++) moveGhost(g.ghosts[j]);
    collide();
  }

  // ---------------------------------------------------------------- drawing
  function buildWalls() {
    wallCanvas = document.createElement("canvas");
    wallCanvas.width = W; wallCanvas.height = H;
    var w = wallCanvas.getContext("2d");
    var bg = w.createLinearGradient(0, 0, 0, H);
    bg.addColorStop(0, "#070b1e"); bg.addColorStop(1, "#0b0420");
    w.fillStyle = bg; w.fillRect(0, 0, W, H);
    for (var r = 0; r < ROWS; r++) for (var c = 0; c < COLS; c++) {
      var ch = MAZE[r][c], x = OX + c * TILE, y = OY + r * TILE;
      if (ch === "#") {
        var gr = w.createLinearGradient(x, y, x, y + TILE);
        gr.addColorStop(0, "#1d2f8a"); gr.addColorStop(1, "#111c5c");
        w.fillStyle = gr; w.fillRect(x, y, TILE, TILE);
        w.strokeStyle = "#5d8bff"; w.lineWidth = 2;
        w.beginPath();
        if (!wall(c, r - 1)) { w.moveTo(x, y + 1); w.lineTo(x + TILE, y + 1); }
        if (!wall(c, r + 1)) { w.moveTo(x, y + TILE - 1); w.lineTo(x + TILE, y + TILE - 1); }
        if (!wall(c - 1, r)) { w.moveTo(x + 1, y); w.lineTo(x + 1, y + TILE); }
        if (!wall(c + 1, r)) { w.moveTo(x + TILE - 1, y); w.lineTo(x + TILE - 1, y + TILE); }
        w.stroke();
      } else if (ch === "G") {
        w.fillStyle = "#140a2a"; w.fillRect(x, y, TILE, TILE);
      } else if (ch === "-") {
        w.fillStyle = "#ff9ad6"; w.fillRect(x, y + 8, TILE, 4);
      }
    }
    // the quarters' borders: notches in the outer wall at the centre column and the pen's row
    w.fillStyle = "#b8c8ff";
    w.fillRect(OX + MID_COL * TILE + 8, OY + 2, 4, 12);
    w.fillRect(OX + MID_COL * TILE + 8, OY + (ROWS - 1) * TILE + 6, 4, 12);
    w.fillRect(OX + 2, OY + MID_ROW * TILE + 8, 12, 4);
    w.fillRect(OX + (COLS - 1) * TILE + 6, OY + MID_ROW * TILE + 8, 12, 4);
  }

  // Each quarter's pellets left, on a badge in its outer corner.
  function drawQuarterBadges() {
    var spots = [[0, 0], [COLS - 1, 0], [0, ROWS - 1], [COLS - 1, ROWS - 1]];
    ctx.font = "bold 10px monospace"; ctx.textAlign = "center"; ctx.textBaseline = "middle";
    for (var q = 0; q < 4; q++) {
      var x = OX + spots[q][0] * TILE, y = OY + spots[q][1] * TILE, left = g.quadLeft[q];
      ctx.fillStyle = left ? "#0c0826" : "#1d6b2c";
      ctx.fillRect(x + 1, y + 3, TILE - 2, TILE - 6);
      ctx.fillStyle = left ? "#ffd9b8" : "#7dff8a";
      ctx.fillText(left ? String(left) : "OK", x + TILE / 2, y + TILE / 2 + 1);
    }
  }

  function drawGhost(gh) {
    var x = OX + gh.x, y = OY + gh.y, body = gh.color;
    var wob = Math.floor(g.tick / 8) % 2;
    if (gh.scared) {
      body = (g.power < 90 && Math.floor(g.tick / 10) % 2) ? "#f2f2ff" : "#2a36d8";
    }
    ctx.fillStyle = body;
    ctx.beginPath();
    ctx.arc(x, y - 1, 8, Math.PI, 0);
    ctx.lineTo(x + 8, y + 8);
    for (var k = 0; k < 4; k++) {
      var sx = x + 8 - k * 4;
      ctx.lineTo(sx - 2, y + (wob ? 5 : 6) + ((k + wob) % 2 ? -2 : 0));
      ctx.lineTo(sx - 4, y + 8);
    }
    ctx.closePath();
    ctx.fill();
    if (gh.scared) {
      ctx.fillStyle = body === "#f2f2ff" ? "#d8202a" : "#ffd0d0";
      ctx.fillRect(x - 4, y - 3, 2, 3); ctx.fillRect(x + 2, y - 3, 2, 3);
      ctx.fillRect(x - 5, y + 3, 10, 1);
      return;
    }
    var ex = DX[gh.dir] * 2, ey = DY[gh.dir] * 2;
    ctx.fillStyle = "#ffffff";
    ctx.beginPath(); ctx.arc(x - 3, y - 2, 3, 0, Math.PI * 2); ctx.arc(x + 3, y - 2, 3, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = "#1a2a8a";
    ctx.beginPath(); ctx.arc(x - 3 + ex, y - 2 + ey, 1.5, 0, Math.PI * 2);
    ctx.arc(x + 3 + ex, y - 2 + ey, 1.5, 0, Math.PI * 2); ctx.fill();
  }

  function drawMuncher() {
    var p = g.p, x = OX + p.x, y = OY + p.y;
    var open = p.moving ? (Math.abs((g.tick % 16) - 8) / 8) * 0.8 + 0.05 : 0.35;
    if (g.dying) open = Math.min(Math.PI - 0.05, 0.3 + (DEATH_TICKS - g.dying) * 0.07);
    var ang = [-Math.PI / 2, Math.PI, Math.PI / 2, 0][p.dir];
    var grad = ctx.createRadialGradient(x - 3, y - 3, 1, x, y, 9);
    grad.addColorStop(0, "#fff7a0"); grad.addColorStop(1, "#ffc400");
    ctx.fillStyle = grad;
    ctx.beginPath();
    ctx.moveTo(x, y);
    ctx.arc(x, y, 9, ang + open, ang + Math.PI * 2 - open);
    ctx.closePath();
    ctx.fill();
  }

  function drawHud() {
    var hg = ctx.createLinearGradient(0, 0, 0, HUD_H);
    hg.addColorStop(0, "#1a1040"); hg.addColorStop(1, "#0c0826");
    ctx.fillStyle = hg; ctx.fillRect(0, 0, W, HUD_H);
    ctx.fillStyle = g.flash > 0 ? "#ffe14a" : "#5d8bff";
    ctx.fillRect(0, HUD_H - 2, W, 2);
    ctx.textBaseline = "middle";
    ctx.font = "bold 9px monospace";
    ctx.fillStyle = "#9fb2ff";
    ctx.textAlign = "left";
    ctx.fillText("SCORE", 10, 10);
    ctx.fillText("PELLETS", 100, 10);
    ctx.fillText("CLEARED  QTRS", 190, 10);
    ctx.fillText("GHOSTS", 280, 10);
    ctx.fillText("LIVES", 380, 10);
    ctx.font = "bold 15px monospace";
    ctx.fillStyle = "#ffffff";
    ctx.fillText(String(g.score), 10, 24);
    ctx.fillText(String(g.lifePellets), 100, 24);
    ctx.fillText(Math.floor(g.eaten * 100 / TOTAL) + "% Q" + g.quarters, 190, 24);
    ctx.fillText(String(g.ghostsEaten), 280, 24);
    for (var i = 0; i < g.lives; i++) {
      var lx = 388 + i * 20, ly = 24;
      ctx.fillStyle = "#ffc400";
      ctx.beginPath(); ctx.moveTo(lx, ly); ctx.arc(lx, ly, 7, 0.5, Math.PI * 2 - 0.5); ctx.closePath(); ctx.fill();
    }
    if (g.power > 0) {
      ctx.fillStyle = "#2a36d8";
      ctx.fillRect(100, 31, Math.round(g.power * 280 / POWER_TICKS), 3);
    }
  }

  function draw() {
    if (!wallCanvas) buildWalls();
    ctx.drawImage(wallCanvas, 0, 0);
    var pulse = Math.floor(g.tick / 12) % 2;
    for (var r = 0; r < ROWS; r++) for (var c = 0; c < COLS; c++) {
      var v = g.pellets[r][c];
      if (!v) continue;
      var x = OX + center(c), y = OY + center(r);
      if (v === 1) { ctx.fillStyle = "#ffd9b8"; ctx.fillRect(x - 2, y - 2, 4, 4); }
      else {
        ctx.fillStyle = pulse ? "#fff0d8" : "#ffb070";
        ctx.beginPath(); ctx.arc(x, y, pulse ? 6 : 5, 0, Math.PI * 2); ctx.fill();
      }
    }
    for (var i = 0; i < g.ghosts.length; i++) {
      if (g.dying && g.dying < DEATH_TICKS - 12) continue;
      drawGhost(g.ghosts[i]);
    }
    drawMuncher();
    drawQuarterBadges();
    ctx.font = "bold 12px monospace"; ctx.textAlign = "center"; ctx.textBaseline = "middle";
    for (var k = 0; k < g.popups.length; k++) {
      var pp = g.popups[k];
      ctx.fillStyle = "#7ff9ff";
      ctx.fillText(pp.text, OX + pp.x, OY + pp.y - (45 - pp.t) / 3);
    }
    drawHud();
    if (g.over || (g.dying && g.lives > 0)) {
      var msg = g.won ? "MAZE CLEARED!" : g.over ? "GAME OVER" : "CAUGHT!";
      ctx.fillStyle = "rgba(5,4,20,0.72)";
      ctx.fillRect(0, 150, W, g.over ? 76 : 44);
      ctx.textAlign = "center"; ctx.textBaseline = "middle";
      ctx.font = "bold 28px monospace";
      ctx.fillStyle = g.won ? "#7dff8a" : g.over ? "#ff5a5a" : "#ffe14a";
      ctx.fillText(msg, W / 2, 172);
      if (g.over) {
        ctx.font = "bold 14px monospace"; ctx.fillStyle = "#ffffff";
        ctx.fillText("SCORE " + g.score + "   CLEARED " + Math.floor(g.eaten * 100 / TOTAL) + "%", W / 2, 206);
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

  window.addEventListener("keydown", function (e) {
    if (!(e.code in KEYDIR)) return;
    e.preventDefault();
    if (g.over || g.dying) return;
    var d = KEYDIR[e.code];
    g.p.want = d;
    if (d === (g.p.dir + 2) % 4) g.p.dir = d;    // a reversal turns at once
  });

  function pelletMap() {
    var out = [];
    for (var r = 0; r < ROWS; r++) {
      var s = "";
      for (var c = 0; c < COLS; c++) {
        var v = g.pellets[r][c];
        s += v === 1 ? "." : v === 2 ? "o" : wall(c, r) ? "#" : " ";
      }
      out.push(s);
    }
    return out;
  }

  window.gameAPI = {
    getState: function () {
      var ghosts = [];
      for (var i = 0; i < g.ghosts.length; i++) {
        var gh = g.ghosts[i];
        ghosts.push({ name: gh.name, x: gh.x, y: gh.y, col: col(gh), row: row(gh), dir: gh.dir,
                      mode: gh.mode === "active" ? (gh.scared ? "scared" : "chase") : gh.mode,
                      release_in: gh.mode === "pen" ? Math.max(0, gh.release - g.lifeTick) : 0 });
      }
      return {
        status: g.over ? "terminal" : "playing",
        actionable: true,
        terminal: { is_terminal: g.over, outcome: g.over ? (g.won ? "win" : "lose") : null,
                    reason: g.over ? (g.won ? "maze cleared" : "caught with no lives left") : null },
        score: g.score,
        lives: g.lives,
        maze: MAZE_NO + 1,
        flipped: FLIPPED,
        start_col: START.col,
        start_row: START.row,
        ghost_exit: [EXIT.col, EXIT.row],
        pellets_life: g.lifePellets,
        pellets_eaten: g.eaten,
        pellets_total: TOTAL,
        cleared_pct: Math.floor(g.eaten * 100 / TOTAL),
        ghosts_eaten: g.ghostsEaten,
        quarters_cleared: g.quarters,
        quarter_left: g.quadLeft.slice(),
        power_ticks: g.power,
        dying: g.dying > 0,
        player_col: col(g.p),
        player_row: row(g.p),
        player_x: g.p.x,
        player_y: g.p.y,
        player_dir: g.p.dir,
        player_want: g.p.want,
        ghosts: ghosts,
        pellet_map: pelletMap()
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
