// Tilt Maze: roll a marble through wooden mazes by tilting the board (Astray-style), for GameWorld.
// The arrow keys tilt the board while held (two at once tilt it diagonally); the marble speeds up downhill,
// keeps its momentum and bounces softly off the walls. Holes swallow it (the run ends); flags along the
// way are checkpoints; a gold key opens the locked gate; the glowing cup ends each maze.
// Platform rules (games/README.md): logic in fixed 1/60 s ticks counted from the clock time of the
// attempt's start, chance only from Math.random (the mazes are built at each attempt's start), no drawing while
// window.__gameworld.rendering is false, the first frame drawn before actionable, reset() redraws.
(function () {
  "use strict";

  var W = 480, H = 360, T = 24, TOP = 24;     // tiles of 24 px below a 24 px HUD: 20 x 14
  var TICK_MS = 1000 / 60, MAX_CATCH_UP = 600;
  var R = 7;                                  // marble radius (its collision box is 14 x 14)
  var ACC = 0.25, FRICTION = 0.975, VMAX = 6, BOUNCE = 0.3, HOLE_R = 9;
  var CLEAR_TICKS = 40;

  // # wall, . floor, O hole, C checkpoint flag (a touching group of C is one flag), k key, D locked gate
  // (opens with a key), E goal cup, S start.
  // Every attempt builds its three mazes from Math.random (drawn in a fixed order at the attempt's start):
  // each is a switchback of two-tile corridors whose gaps (the flags), holes, start, key, gate and cup move
  // from seed to seed, and the whole maze may face either way.
  var NAMES = ["Switchback", "The Locked Gate", "Pit Garden"];
  var NMAZES = 3;

  function ri(a, b) { return a + Math.floor(Math.random() * (b - a + 1)); }
  function coin() { return Math.random() < 0.5; }

  // holes in the corridor whose top row is r0, between columns lo and hi, at least `gap` columns apart
  function holes(m, r0, lo, hi, n, gap) {
    var cols = [];
    for (var tries = 0; tries < 60 && cols.length < n; tries++) {
      var c = ri(lo, hi), ok = true;
      for (var i = 0; i < cols.length; i++) if (Math.abs(cols[i] - c) < gap) ok = false;
      if (ok) cols.push(c);
    }
    for (var j = 0; j < cols.length; j++) {
      var r = r0 + ri(0, 1);
      if (m[r][cols[j]] === ".") m[r][cols[j]] = "O";
    }
  }

  function genMaze(kind) {                   // 0 switchback, 1 locked gate, 2 pit garden
    var nCorr = kind === 1 ? 4 : 3, m = [];
    for (var r = 0; r < 14; r++) {
      var row = [];
      for (var c = 0; c < 20; c++) row.push(c > 0 && c < 19 && r % 3 !== 0 && r < 3 * nCorr ? "." : "#");
      m.push(row);
    }
    var nHoles = kind === 0 ? 1 : kind === 1 ? 2 : 3, spacing = kind === 2 ? 3 : 4;
    var sc = ri(1, 3), sr = ri(1, 2);
    var g0 = ri(Math.max(sc + 7, 10), 17);    // gap (flag) to corridor 2, far from the start
    var g1 = ri(1, kind === 1 ? Math.min(g0 - 6, 9) : g0 - 6);   // gap to corridor 3, back the other way
    m[3][g0] = m[3][g0 + 1] = "C";
    m[6][g1] = m[6][g1 + 1] = "C";
    holes(m, 1, sc + 3, g0 - 3, nHoles, spacing);
    holes(m, 4, g1 + 4, g0 - 2, nHoles, spacing);
    if (kind !== 1) {
      var ec = ri(g1 + 7, 18);
      m[ri(7, 8)][ec] = "E";
      holes(m, 7, g1 + 4, ec - 2, nHoles, spacing);
    } else {
      var gate = ri(Math.max(g1 + 6, 8), 15), key = ri(gate + 3, 18);
      m[9][gate] = m[9][gate + 1] = "D";
      m[ri(7, 8)][key] = "k";
      holes(m, 7, g1 + 4, gate - 2, 1, spacing);
      var ec2 = ri(1, gate - 7), flag = ri(ec2 + 3, gate - 3);
      m[10][flag] = m[11][flag] = "C";
      m[ri(10, 11)][ec2] = "E";
      if (flag + 2 <= gate - 2) holes(m, 10, flag + 2, gate - 2, 1, spacing);
      if (ec2 + 2 <= flag - 2) holes(m, 10, ec2 + 2, flag - 2, 1, spacing);
    }
    m[sr][sc] = "S";
    var mirror = coin();
    return m.map(function (row) { return (mirror ? row.slice().reverse() : row).join(""); });
  }

  function generateMazes() { return [genMaze(0), genMaze(1), genMaze(2)]; }
  if (typeof window === "undefined" || !window.document || !document.getElementById("game")) {
    if (typeof module !== "undefined") module.exports = { generateMazes: generateMazes };
    return;
  }

  var canvas = document.getElementById("game");
  var ctx = canvas.getContext("2d");
  var held = { ArrowLeft: false, ArrowRight: false, ArrowUp: false, ArrowDown: false };
  var g = null;
  var startMs = 0, ticksDone = 0;

  function loadMaze(i) {
    g.maze = i;
    g.map = g.maps[i].map(function (row) { return row.split(""); });
    for (var r = 0; r < 14; r++) for (var c = 0; c < 20; c++) {
      if (g.map[r][c] === "S") { g.x = c * T + T / 2; g.y = TOP + r * T + T / 2; g.map[r][c] = "."; }
    }
    g.vx = 0; g.vy = 0; g.mazeTick = 0; g.clear = 0; g.keys = 0;
  }

  function newGame() {
    startMs = performance.now(); ticksDone = 0;
    g = { tick: 0, over: false, won: false, reason: null, mazes: 0, checkpoints: 0, keysFound: 0, gates: 0,
          flash: 0, flashColor: "#fff", rings: [], fallT: 0 };
    g.maps = generateMazes();
    loadMaze(0);
  }

  function tileAt(c, r) {
    if (r < 0 || r >= 14 || c < 0 || c >= 20) return "#";
    return g.map[r][c];
  }
  function blocks(ch) { return ch === "#" || ch === "D"; }

  function flood(c, r, ch, to) {             // turn a touching group of ch into `to`
    if (tileAt(c, r) !== ch) return;
    g.map[r][c] = to;
    flood(c + 1, r, ch, to); flood(c - 1, r, ch, to); flood(c, r + 1, ch, to); flood(c, r - 1, ch, to);
  }

  function touchTiles(fn) {                   // every tile the marble's box overlaps
    var c0 = Math.floor((g.x - R) / T), c1 = Math.floor((g.x + R - 0.01) / T);
    var r0 = Math.floor((g.y - TOP - R) / T), r1 = Math.floor((g.y - TOP + R - 0.01) / T);
    for (var r = r0; r <= r1; r++) for (var c = c0; c <= c1; c++) fn(c, r);
  }

  function hitWall() {
    var hit = false;
    touchTiles(function (c, r) {
      var ch = tileAt(c, r);
      if (ch === "D" && g.keys > 0) { g.keys--; g.gates++; flood(c, r, "D", "."); g.flash = 12; g.flashColor = "#ffd84a"; ring(c, r, "#ffd84a"); return; }
      if (blocks(ch)) hit = true;
    });
    return hit;
  }

  function ring(c, r, color) { g.rings.push({ x: c * T + T / 2, y: TOP + r * T + T / 2, t: 0, color: color }); }

  function step() {
    g.tick++;
    if (g.flash > 0) g.flash--;
    for (var i = g.rings.length - 1; i >= 0; i--) { g.rings[i].t++; if (g.rings[i].t > 24) g.rings.splice(i, 1); }
    if (g.over) { if (g.fallT < 20) g.fallT++; return; }
    if (g.won) return;
    if (g.clear > 0) { g.clear--; if (g.clear === 0) loadMaze(g.maze + 1); return; }
    g.mazeTick++;
    var ax = (held.ArrowRight ? 1 : 0) - (held.ArrowLeft ? 1 : 0);
    var ay = (held.ArrowDown ? 1 : 0) - (held.ArrowUp ? 1 : 0);
    g.vx = Math.max(-VMAX, Math.min(VMAX, (g.vx + ax * ACC) * FRICTION));
    g.vy = Math.max(-VMAX, Math.min(VMAX, (g.vy + ay * ACC) * FRICTION));
    g.x += g.vx;
    if (hitWall()) {
      if (g.vx > 0) g.x = (Math.floor((g.x + R) / T)) * T - R - 0.01; else g.x = (Math.floor((g.x - R) / T) + 1) * T + R;
      g.vx = -g.vx * BOUNCE;
    }
    g.y += g.vy;
    if (hitWall()) {
      if (g.vy > 0) g.y = TOP + (Math.floor((g.y - TOP + R) / T)) * T - R - 0.01; else g.y = TOP + (Math.floor((g.y - TOP - R) / T) + 1) * T + R;
      g.vy = -g.vy * BOUNCE;
    }
    var fell = false, goal = false;
    touchTiles(function (c, r) {
      var ch = tileAt(c, r);
      if (ch === "C") { flood(c, r, "C", "c"); g.checkpoints++; g.flash = 10; g.flashColor = "#7df09a"; ring(c, r, "#7df09a"); }
      else if (ch === "k") { g.map[r][c] = "."; g.keys++; g.keysFound++; g.flash = 10; g.flashColor = "#ffd84a"; ring(c, r, "#ffd84a"); }
      else if (ch === "O") {
        var dx = g.x - (c * T + T / 2), dy = g.y - (TOP + r * T + T / 2);
        if (dx * dx + dy * dy < HOLE_R * HOLE_R) { fell = true; g.hole = { x: c * T + T / 2, y: TOP + r * T + T / 2 }; }
      } else if (ch === "E") {
        var ex = g.x - (c * T + T / 2), ey = g.y - (TOP + r * T + T / 2);
        if (ex * ex + ey * ey < 12 * 12) goal = true;
      }
    });
    if (fell) { g.over = true; g.reason = "the marble fell into a hole"; g.flash = 14; g.flashColor = "#ff4a4a"; return; }
    if (goal) {
      g.mazes++; g.flash = 16; g.flashColor = "#fff3a0";
      if (g.maze + 1 >= NMAZES) g.won = true; else g.clear = CLEAR_TICKS;
    }
  }

  // ------------------------------------------------------------------ drawing
  function hash(n) {
    var t = (n * 2654435761) >>> 0;
    t = Math.imul(t ^ (t >>> 15), 2246822507) >>> 0;
    t = Math.imul(t ^ (t >>> 13), 3266489909) >>> 0;
    return ((t ^ (t >>> 16)) >>> 0) / 4294967296;
  }

  function drawBoard() {
    var wood = ctx.createLinearGradient(0, TOP, W, H);
    wood.addColorStop(0, "#e2b877"); wood.addColorStop(1, "#c48f4e");
    ctx.fillStyle = wood; ctx.fillRect(0, TOP, W, H - TOP);
    ctx.strokeStyle = "rgba(120,70,30,0.16)"; ctx.lineWidth = 1;
    for (var i = 0; i < 22; i++) {
      var y = TOP + 8 + i * 15.5 + hash(i) * 6;
      ctx.beginPath(); ctx.moveTo(0, y);
      ctx.bezierCurveTo(160, y + 6 * hash(i + 9) - 3, 320, y - 6 * hash(i + 3) + 3, W, y + 2);
      ctx.stroke();
    }
    // tilt shading: the board looks darker on the side it dips toward
    var ax = (held.ArrowRight ? 1 : 0) - (held.ArrowLeft ? 1 : 0), ay = (held.ArrowDown ? 1 : 0) - (held.ArrowUp ? 1 : 0);
    if (ax || ay) {
      var sh = ctx.createLinearGradient(W / 2 - ax * W / 2, (H + TOP) / 2 - ay * (H - TOP) / 2, W / 2 + ax * W / 2, (H + TOP) / 2 + ay * (H - TOP) / 2);
      sh.addColorStop(0, "rgba(255,255,255,0.08)"); sh.addColorStop(1, "rgba(60,30,10,0.16)");
      ctx.fillStyle = sh; ctx.fillRect(0, TOP, W, H - TOP);
    }
  }

  function drawTile(c, r, ch) {
    var x = c * T, y = TOP + r * T;
    if (ch === "#") {
      ctx.fillStyle = "#7a4c24"; ctx.fillRect(x, y, T, T);
      ctx.fillStyle = "rgba(255,255,255,0.035)";
      if ((c + r) % 2) ctx.fillRect(x, y, T, T);
      ctx.fillStyle = "#a8743e";               // bevelled rims where the wall meets the board
      if (tileAt(c, r - 1) !== "#") ctx.fillRect(x, y, T, 4);
      if (tileAt(c - 1, r) !== "#") ctx.fillRect(x, y, 4, T);
      ctx.fillStyle = "#4a2c12";
      if (tileAt(c, r + 1) !== "#" && r < 13) ctx.fillRect(x, y + T - 4, T, 4);
      if (tileAt(c + 1, r) !== "#" && c < 19) ctx.fillRect(x + T - 4, y, 4, T);
      ctx.fillStyle = "rgba(40,20,5,0.25)";    // the wall's shadow on the board
      if (tileAt(c, r + 1) !== "#" && r < 13) ctx.fillRect(x, y + T, T, 5);
      if (tileAt(c + 1, r) !== "#" && c < 19) ctx.fillRect(x + T, y, 5, T);
    } else if (ch === "D") {
      ctx.fillStyle = "#6a6f7a"; ctx.fillRect(x, y, T, T);
      ctx.fillStyle = "#c9ced8";
      for (var b = 0; b < 3; b++) ctx.fillRect(x + 3 + b * 7, y + 2, 3, T - 4);
      ctx.fillStyle = "#ffd84a"; ctx.beginPath(); ctx.arc(x + T / 2, y + T / 2, 4, 0, Math.PI * 2); ctx.fill();
    } else if (ch === "O") {
      var hg = ctx.createRadialGradient(x + T / 2 - 2, y + T / 2 - 2, 1, x + T / 2, y + T / 2, 11);
      hg.addColorStop(0, "#000"); hg.addColorStop(0.75, "#1a0d04"); hg.addColorStop(1, "#7a4a20");
      ctx.fillStyle = hg; ctx.beginPath(); ctx.arc(x + T / 2, y + T / 2, 11, 0, Math.PI * 2); ctx.fill();
    } else if (ch === "C" || ch === "c") {
      ctx.fillStyle = ch === "C" ? "rgba(60,200,110,0.22)" : "rgba(255,255,255,0.10)";
      ctx.fillRect(x, y, T, T);
      ctx.fillStyle = "#4a3520"; ctx.fillRect(x + 7, y + 3, 2, 18);
      ctx.fillStyle = ch === "C" ? "#35c46a" : "#9aa0a8";
      ctx.beginPath(); ctx.moveTo(x + 9, y + 3); ctx.lineTo(x + 20, y + 7); ctx.lineTo(x + 9, y + 11); ctx.fill();
    } else if (ch === "k") {
      var bob = Math.sin(g.tick * 0.15) * 1.5;
      ctx.fillStyle = "#ffd84a"; ctx.strokeStyle = "#a8820a"; ctx.lineWidth = 1.5;
      ctx.beginPath(); ctx.arc(x + 8, y + 12 + bob, 5, 0, Math.PI * 2); ctx.fill(); ctx.stroke();
      ctx.fillRect(x + 12, y + 11 + bob, 9, 3); ctx.fillRect(x + 17, y + 14 + bob, 2, 4);
    } else if (ch === "E") {
      var pulse = 0.5 + 0.5 * Math.sin(g.tick * 0.12);
      var eg = ctx.createRadialGradient(x + T / 2, y + T / 2, 2, x + T / 2, y + T / 2, 16);
      eg.addColorStop(0, "rgba(255,250,190," + (0.7 + 0.3 * pulse) + ")"); eg.addColorStop(1, "rgba(255,220,80,0)");
      ctx.fillStyle = eg; ctx.fillRect(x - 6, y - 6, T + 12, T + 12);
      ctx.fillStyle = "#3a2a10"; ctx.beginPath(); ctx.arc(x + T / 2, y + T / 2, 9, 0, Math.PI * 2); ctx.fill();
      ctx.strokeStyle = "#ffd84a"; ctx.lineWidth = 2; ctx.stroke();
    }
  }

  function drawMarble() {
    var x = g.x, y = g.y, r = R;
    if (g.over && g.hole) {                   // sinking into the hole
      var k = g.fallT / 20;
      x = g.x + (g.hole.x - g.x) * k; y = g.y + (g.hole.y - g.y) * k; r = R * (1 - 0.7 * k);
    }
    ctx.fillStyle = "rgba(30,15,5,0.35)";
    ctx.beginPath(); ctx.ellipse(x + 3, y + 4, r, r * 0.8, 0, 0, Math.PI * 2); ctx.fill();
    var mg = ctx.createRadialGradient(x - r * 0.4, y - r * 0.4, 1, x, y, r);
    mg.addColorStop(0, "#ffffff"); mg.addColorStop(0.3, "#b8d8ff"); mg.addColorStop(1, "#2a4a9a");
    ctx.fillStyle = mg; ctx.beginPath(); ctx.arc(x, y, r, 0, Math.PI * 2); ctx.fill();
  }

  function drawHud() {
    var hg = ctx.createLinearGradient(0, 0, 0, TOP);
    hg.addColorStop(0, "#3a2412"); hg.addColorStop(1, "#24160a");
    ctx.fillStyle = hg; ctx.fillRect(0, 0, W, TOP);
    ctx.fillStyle = g.flash > 0 ? g.flashColor : "#8a5a2e"; ctx.fillRect(0, TOP - 2, W, 2);
    ctx.font = "bold 13px monospace"; ctx.textBaseline = "middle"; ctx.textAlign = "left";
    ctx.fillStyle = "#ffe9c0"; ctx.fillText("MAZE " + (g.maze + 1) + "/" + NMAZES, 8, 12);
    ctx.fillStyle = "#7df09a"; ctx.fillText("\u2691 " + g.checkpoints, 120, 12);
    ctx.fillStyle = "#ffd84a"; ctx.fillText("KEY " + g.keys, 180, 12);
    ctx.textAlign = "right"; ctx.fillStyle = "#ffe9c0"; ctx.fillText("SOLVED " + g.mazes, W - 8, 12);
    ctx.textAlign = "center"; ctx.fillStyle = "#c8a878"; ctx.fillText(NAMES[g.maze], 330, 12);
  }

  function banner(title, sub, color) {
    ctx.fillStyle = "rgba(20,10,4,0.8)"; ctx.fillRect(0, H / 2 - 44, W, 88);
    ctx.fillStyle = color; ctx.fillRect(0, H / 2 - 44, W, 2); ctx.fillRect(0, H / 2 + 42, W, 2);
    ctx.textAlign = "center"; ctx.textBaseline = "middle";
    ctx.font = "bold 30px monospace"; ctx.fillText(title, W / 2, H / 2 - 10);
    ctx.font = "bold 13px monospace"; ctx.fillStyle = "#fff"; ctx.fillText(sub, W / 2, H / 2 + 22);
  }

  function draw() {
    drawBoard();
    for (var r = 0; r < 14; r++) for (var c = 0; c < 20; c++) if (g.map[r][c] !== ".") drawTile(c, r, g.map[r][c]);
    drawMarble();
    for (var i = 0; i < g.rings.length; i++) {
      var q = g.rings[i];
      ctx.strokeStyle = q.color; ctx.globalAlpha = 1 - q.t / 24; ctx.lineWidth = 3;
      ctx.beginPath(); ctx.arc(q.x, q.y, 6 + q.t, 0, Math.PI * 2); ctx.stroke();
    }
    ctx.globalAlpha = 1;
    drawHud();
    if (g.clear > 0) banner("MAZE SOLVED", "next: " + NAMES[g.maze + 1], "#fff3a0");
    if (g.over) banner("GAME OVER", "The marble fell into a hole", "#ff6a5a");
    if (g.won) banner("ALL MAZES SOLVED", "checkpoints " + g.checkpoints + "  -  " + NMAZES + " mazes", "#ffd84a");
  }

  function rendering() {
    var gw = window.__gameworld;
    return !(gw && gw.rendering === false);
  }

  function catchUp() {
    var due = Math.floor((performance.now() - startMs) / TICK_MS + 1e-6);
    if (due - ticksDone > MAX_CATCH_UP) ticksDone = due - MAX_CATCH_UP;
    if (due <= ticksDone) return false;
    while (ticksDone < due) { ticksDone++; step(); }
    return true;
  }

  function frame() {
    catchUp();
    if (rendering()) draw();
    requestAnimationFrame(frame);
  }

  window.addEventListener("keydown", function (e) {
    catchUp();
    if (e.code in held) { held[e.code] = true; e.preventDefault(); }
  });
  window.addEventListener("keyup", function (e) {
    catchUp();
    if (e.code in held) held[e.code] = false;
  });

  window.gameAPI = {
    getState: function () {
      if (catchUp() && rendering()) draw();
      var term = g.over || g.won;
      return {
        status: term ? "terminal" : "playing",
        actionable: !term,
        terminal: { is_terminal: term, outcome: g.won ? "win" : g.over ? "lose" : null,
                    reason: g.won ? "all mazes solved" : g.over ? g.reason : null },
        score: 10 * g.checkpoints + 100 * g.mazes,
        maze: g.maze + 1,
        mazes_solved: g.mazes,
        checkpoints: g.checkpoints,
        keys_held: g.keys,
        gates_opened: g.gates,
        ball_x: Math.round(g.x),
        ball_y: Math.round(g.y),
        ball_vx: Math.round(g.vx * 100),
        ball_vy: Math.round(g.vy * 100),
        changing_maze: g.clear > 0,
        maze_map: g.maps[g.maze]
      };
    },
    reset: function () {
      for (var key in held) held[key] = false;
      newGame();
      draw();
    }
  };

  newGame();
  draw();
  requestAnimationFrame(frame);
})();
