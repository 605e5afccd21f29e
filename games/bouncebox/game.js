// Bounce Box: a one-screen-room platformer for the GameWorld platform. A small cube runs and jumps through
// twelve rooms; springs in the floor launch it high, spikes and spiked balls break it (it comes back at the
// room's start, three lives an attempt), and a portal at the end of each room opens the next one.
// Logic runs in fixed 60 Hz ticks counted from the (virtual) clock; chance comes only from Math.random (the
// room order inside each difficulty tier, the springs' strength, which rooms are mirrored, the warm-up rooms'
// layouts and where each spiked ball starts). No
// transcendental maths in logic: every speed is a multiple of 1/2 px, so positions are exact.
(function () {
  "use strict";

  var TILE = 16, COLS = 30, ROWS = 20, VIEW_W = 480, HUD_H = 40, WORLD_H = 320;
  var RUN = 4, JUMP_V = 7.5, GRAV = 0.5, MAX_FALL = 9;
  var PAD_POWERS = [11, 11.5, 12];       // spring launch speed, drawn once a game
  var CW = 14, CH = 14;                  // the cube
  var JUMP_BUFFER = 6, COYOTE = 5, DYING = 30, LIVES = 3;

  // Rooms: '#' block, '^' 'v' '<' '>' spikes (pointing that way), '=' spring (a block that launches you),
  // 'S' start, 'P' portal (its lower tile), '*' star. Movers are spiked balls patrolling a line of tiles
  // (ax "x": along row r from column lo to hi; ax "y": along column c from row lo to hi; sp px a tick).
  // tiers: the rooms of a tier are played in a random order, tier after tier.
  var ROOMS = /*ROOMS-BEGIN*/[
    {"name": "First Hop", "tier": 0, "gen": "hop", "movers": [], "map": [
      "##############################",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#.S.......................P..#",
      "##############################",
      "##############################"]},
    {"name": "Stairs", "tier": 0, "gen": "steps", "movers": [], "map": [
      "##############################",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#.S.......................P..#",
      "##############################",
      "##############################"]},
    {"name": "Spring Wall", "tier": 1, "movers": [], "map": [
      "##############################",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#...........*................#",
      "#............................#",
      "#............................#",
      "#.............##.............#",
      "#.............##.............#",
      "#.............##.............#",
      "#.............##.............#",
      "#.S...........##^^^.......P..#",
      "###########=##################",
      "##############################"]},
    {"name": "Open Floor", "tier": 1, "movers": [], "map": [
      "##############################",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#................*...........#",
      "#............................#",
      "#............................#",
      "#.S.......^.........^.....P..#",
      "#######...#####.....##########",
      "#######...#####.....##########"]},
    {"name": "Pillars", "tier": 1, "movers": [], "map": [
      "##############################",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#..................*.........#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#.................##.........#",
      "#...........##....##.........#",
      "#.....##....##....##...##....#",
      "#.S...##^^^^##^^^^##^^^##..P.#",
      "##############################",
      "##############################"]},
    {"name": "Sweeper", "tier": 2,
     "movers": [{"ax": "x", "r": 17, "lo": 6, "hi": 16, "sp": 2}, {"ax": "y", "c": 23, "lo": 11, "hi": 17, "sp": 2}],
     "map": [
      "##############################",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#...........*................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#.S................^^......P.#",
      "##############################",
      "##############################"]},
    {"name": "High Road", "tier": 2, "movers": [], "map": [
      "##############################",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#................*...........#",
      "#............................#",
      "#............................#",
      "#.............^..............#",
      "#.......##############.......#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#.S....^^^^^^^^^^^^^^^^^^..P.#",
      "#####=########################",
      "##############################"]},
    {"name": "Chimney", "tier": 2,
     "movers": [{"ax": "y", "c": 23, "lo": 2, "hi": 8, "sp": 3}],
     "map": [
      "##############################",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#..........................P.#",
      "#........................#####",
      "#............................#",
      "#............................#",
      "#.................####.......#",
      "#............................#",
      "#............................#",
      "#..........#####.............#",
      "#............................#",
      "#........*...................#",
      "#............................#",
      "#............................#",
      "#.S.........^^^^^^^^^^^^^^^^^#",
      "########=#####################",
      "##############################"]},
    {"name": "Springboard", "tier": 3, "movers": [], "map": [
      "##############################",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#........*...................#",
      "#............................#",
      "#..........................P.#",
      "#.......................######",
      "#............................#",
      "#............##..............#",
      "#............##..............#",
      "#............##..............#",
      "#.S...^^^^^^^##^^^..^^^^^^^^^#",
      "#####=############==##########",
      "##############################"]},
    {"name": "Gauntlet", "tier": 3,
     "movers": [{"ax": "x", "r": 17, "lo": 4, "hi": 12, "sp": 3}, {"ax": "x", "r": 17, "lo": 15, "hi": 26, "sp": 3},
                {"ax": "y", "c": 20, "lo": 9, "hi": 14, "sp": 2}],
     "map": [
      "##############################",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#...................*........#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#.S..........^^............P.#",
      "##############################",
      "##############################"]},
    {"name": "Zigzag", "tier": 3,
     "movers": [{"ax": "x", "r": 10, "lo": 13, "hi": 18, "sp": 1}],
     "map": [
      "##############################",
      "#............................#",
      "#............................#",
      "#..............P.............#",
      "#.........#######............#",
      "#............................#",
      "#...................*........#",
      "#............................#",
      "#....=####...................#",
      "#............................#",
      "#............................#",
      "#............######..........#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#.S.......^^^^^^^^^^^^^^^^^^^#",
      "#########=####################",
      "##############################"]},
    {"name": "Last Leap", "tier": 3,
     "movers": [{"ax": "y", "c": 19, "lo": 7, "hi": 13, "sp": 2}, {"ax": "x", "r": 7, "lo": 22, "hi": 25, "sp": 1}],
     "map": [
      "##############################",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#.........................P..#",
      "#.....................########",
      "#............................#",
      "#...........*................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#........##....==............#",
      "#........##....##............#",
      "#.S......##....##............#",
      "######...##....##............#",
      "######...##....##............#"]}
  ]/*ROOMS-END*/;
  var TIER_NAMES = ["WARM-UP", "LEAPS", "HAZARDS", "MASTER"];
  var SOLID = { "#": 1, "=": 1 };
  var SPIKE_BOX = { "^": [2, 7, 12, 9], "v": [2, 0, 12, 9], ">": [0, 2, 9, 12], "<": [7, 2, 9, 12] };
  // death burst: fixed fragment velocities (px a tick, times 1/2)
  var BURST = [[-6, -9], [-3, -11], [0, -12], [3, -11], [6, -9], [-8, -5], [8, -5], [-5, -3], [5, -3], [-2, -7], [2, -7], [0, -4]];

  // ---------------------------------------------------------------- game state
  var G = null;
  var keys = { left: false, right: false };
  var shownSince = 0;

  function shuffle(a) {
    for (var i = a.length - 1; i > 0; i--) {
      var j = Math.floor(Math.random() * (i + 1));
      var t = a[i]; a[i] = a[j]; a[j] = t;
    }
    return a;
  }

  function newGame() {
    var order = [];
    for (var tier = 3; tier >= 0; tier--) {   // the last tier is shuffled first, the springs drawn last
      var ids = [];
      for (var i = 0; i < ROOMS.length; i++) if (ROOMS[i].tier === tier) ids.push(i);
      order = shuffle(ids).concat(order);
    }
    G = { t: 0, order: order, padV: PAD_POWERS[Math.floor(Math.random() * PAD_POWERS.length)],
          score: 0, cleared: 0, stars: 0, lives: LIVES, deaths: 0, bounces: 0, jumps: 0,
          over: false, outcome: null, reason: null, overT: 0, fx: [], trail: [] };
    loadRoom(0);
    shownSince = performance.now();
  }

  // The two warm-up rooms are built from the seed: a low gap under a wall (spikes on its underside: walk
  // through, do not jump), spike pits and a step, in a random order with random widths and spacing.
  function rnd(n) { return Math.floor(Math.random() * n); }
  function generate(grid, kind) {
    var segs = shuffle(kind === "hop" ? ["wall", "pit", "pit"] : ["wall", "step", "pit"]);
    var x = 5, gaps = [0, 3, 3], stars = [], widths = [], i;
    for (i = 0; i < 3; i++) widths.push(segs[i] === "wall" ? 3 + rnd(2) : segs[i] === "pit" ? 2 + rnd(2) : 4 + rnd(2));
    var used = widths[0] + widths[1] + widths[2] + 6, slack = 20 - used;
    for (i = 0; i < slack; i++) { var k = rnd(4); if (k < 3) gaps[k]++; }
    // now build for real with the drawn widths
    for (i = 0; i < 3; i++) {
      x += gaps[i];
      var w = widths[i], c, r;
      if (segs[i] === "wall") {
        for (c = x; c < x + w; c++) { for (r = 1; r <= 15; r++) grid[r][c] = "#"; grid[16][c] = "v"; }
      } else if (segs[i] === "pit") {
        for (c = x; c < x + w; c++) grid[17][c] = "^";
        stars.push([x + (w >> 1), 15]);
      } else {
        for (c = x; c < x + 2; c++) { grid[16][c] = "#"; grid[17][c] = "#"; }
        for (c = x + 2; c < x + w; c++) grid[17][c] = "^";
        stars.push([x + 2 + ((w - 2) >> 1), 13]);
      }
      x += w;
    }
    var st = stars[rnd(stars.length)];
    grid[st[1]][st[0]] = "*";
  }

  function loadRoom(n) {
    var R = ROOMS[G.order[n]], grid = [], r, c;
    G.room = n; G.roomId = G.order[n]; G.roomT = 0; G.deathsAtRoom = G.deaths;
    G.mirror = Math.random() < 0.5;
    for (r = 0; r < ROWS; r++) grid.push(R.map[r].split(""));
    if (R.gen) generate(grid, R.gen);
    if (G.mirror) for (r = 0; r < ROWS; r++) {
      grid[r].reverse();
      for (c = 0; c < COLS; c++) grid[r][c] = grid[r][c] === "<" ? ">" : grid[r][c] === ">" ? "<" : grid[r][c];
    }
    for (r = 0; r < ROWS; r++) for (c = 0; c < COLS; c++) {
      var ch = grid[r][c];
      if (ch === "S") { G.startX = c * TILE + 1; G.startY = (r + 1) * TILE - CH; grid[r][c] = "."; }
      else if (ch === "P") { G.portalC = c; G.portalR = r; grid[r][c] = "."; }
    }
    G.grid = grid;
    G.movers = R.movers.map(function (m) {
      var lo = m.lo, hi = m.hi;
      if (G.mirror && m.ax === "x") { lo = COLS - 1 - m.hi; hi = COLS - 1 - m.lo; }
      var a = lo * TILE, b = hi * TILE;
      var pos = a + Math.floor(Math.random() * ((b - a) / m.sp + 1)) * m.sp;
      var dir = Math.random() < 0.5 ? -1 : 1;
      var fixed = (m.ax === "x" ? m.r : (G.mirror ? COLS - 1 - m.c : m.c)) * TILE;
      return { ax: m.ax, a: a, b: b, sp: m.sp, pos: pos, dir: dir, fixed: fixed };
    });
    G.trail = [];
    spawn();
  }

  function spawn() {
    G.px = G.startX; G.py = G.startY; G.vy = 0; G.onGround = true; G.face = G.mirror ? -1 : 1;
    G.jumpBuf = 0; G.coyote = COYOTE; G.dying = 0; G.land = 0;
  }

  function moverXY(m) { return m.ax === "x" ? [m.pos, m.fixed] : [m.fixed, m.pos]; }

  function tileAt(c, r) {
    if (c < 0 || c >= COLS) return "#";
    if (r < 0) return "#";
    if (r >= ROWS) return ".";
    return G.grid[r][c];
  }
  function isSolid(ch) { return SOLID[ch] === 1; }

  function overlap(ax, ay, aw, ah, bx, by, bw, bh) {
    return ax < bx + bw && ax + aw > bx && ay < by + bh && ay + ah > by;
  }

  function die(reason) {
    G.lives--; G.deaths++;
    G.reason = reason;
    for (var i = 0; i < BURST.length; i++)
      G.fx.push({ kind: "frag", x: G.px + CW / 2, y: G.py + CH / 2, vx: BURST[i][0] / 2, vy: BURST[i][1] / 2, t: 0 });
    G.dying = DYING; G.deathX = G.px; G.deathY = G.py;
    if (G.lives <= 0) { G.over = true; G.outcome = "lose"; }
  }

  function tick() {
    var i;
    for (i = G.fx.length - 1; i >= 0; i--) {
      var f = G.fx[i];
      f.t++;
      if (f.kind === "frag") { f.x += f.vx; f.y += f.vy; f.vy += 0.25; }
      if (f.t > 40) G.fx.splice(i, 1);
    }
    if (G.over) { G.overT++; return; }
    G.t++; G.roomT++;
    for (i = 0; i < G.movers.length; i++) {
      var m = G.movers[i];
      m.pos += m.dir * m.sp;
      if (m.pos <= m.a) { m.pos = m.a; m.dir = 1; } else if (m.pos >= m.b) { m.pos = m.b; m.dir = -1; }
    }
    if (G.dying > 0) {
      G.dying--;
      if (G.dying === 0) { spawn(); G.trail = []; }
      return;
    }
    if (G.land > 0) G.land--;
    var dir = (keys.right ? 1 : 0) - (keys.left ? 1 : 0);
    var vx = dir * RUN;
    if (dir) G.face = dir;
    if (G.jumpBuf > 0) {
      if (G.onGround || G.coyote > 0) { G.vy = -JUMP_V; G.onGround = false; G.coyote = 0; G.jumpBuf = 0; G.jumps++; }
      else G.jumpBuf--;
    }
    // horizontal move: the room's walls and its screen edges stop the cube
    G.px += vx;
    var r0 = Math.floor(G.py / TILE), r1 = Math.floor((G.py + CH - 1) / TILE), r, c;
    if (vx > 0) {
      c = Math.floor((G.px + CW - 1) / TILE);
      for (r = r0; r <= r1; r++) if (isSolid(tileAt(c, r))) { G.px = c * TILE - CW; break; }
    } else if (vx < 0) {
      c = Math.floor(G.px / TILE);
      for (r = r0; r <= r1; r++) if (isSolid(tileAt(c, r))) { G.px = (c + 1) * TILE; break; }
    }
    // vertical move: landing on a spring launches the cube
    var wasGround = G.onGround, fallV = G.vy;
    G.vy = Math.min(G.vy + GRAV, MAX_FALL);
    G.py += G.vy;
    var c0 = Math.floor(G.px / TILE), c1 = Math.floor((G.px + CW - 1) / TILE);
    G.onGround = false;
    if (G.vy > 0) {
      r = Math.floor((G.py + CH - 0.125) / TILE);
      var hit = false, pad = -1;
      for (c = c0; c <= c1; c++) {
        var ch = tileAt(c, r);
        if (isSolid(ch)) { hit = true; if (ch === "=") pad = c; }
      }
      if (hit) {
        G.py = r * TILE - CH;
        if (pad >= 0) {
          G.vy = -G.padV; G.bounces++; G.jumpBuf = 0; G.coyote = 0;
          G.fx.push({ kind: "pad", c: pad, r: r, t: 0 });
        } else {
          G.vy = 0; G.onGround = true;
          if (!wasGround && fallV > 3) G.land = 8;
        }
      }
    } else if (G.vy < 0) {
      r = Math.floor(G.py / TILE);
      for (c = c0; c <= c1; c++) if (isSolid(tileAt(c, r))) { G.py = (r + 1) * TILE; G.vy = 0; break; }
    }
    G.coyote = G.onGround ? COYOTE : Math.max(0, G.coyote - 1);
    G.trail.push([G.px, G.py]);
    if (G.trail.length > 6) G.trail.shift();
    // stars, spikes and the portal
    r0 = Math.floor(G.py / TILE); r1 = Math.floor((G.py + CH - 1) / TILE);
    c0 = Math.floor(G.px / TILE); c1 = Math.floor((G.px + CW - 1) / TILE);
    for (r = r0; r <= r1; r++) for (c = c0; c <= c1; c++) {
      var t = tileAt(c, r);
      if (t === "*" && overlap(G.px, G.py, CW, CH, c * TILE + 2, r * TILE + 2, 12, 12)) {
        G.grid[r][c] = "."; G.stars++; G.score += 50;
        G.fx.push({ kind: "star", x: c * TILE + 8, y: r * TILE + 8, t: 0 });
      } else if (SPIKE_BOX[t]) {
        var bx = SPIKE_BOX[t];
        if (overlap(G.px, G.py, CW, CH, c * TILE + bx[0], r * TILE + bx[1], bx[2], bx[3])) { die("spikes"); return; }
      }
    }
    for (i = 0; i < G.movers.length; i++) {
      var p = moverXY(G.movers[i]);
      if (overlap(G.px, G.py, CW, CH, p[0] + 3, p[1] + 3, 10, 10)) { die("spiked ball"); return; }
    }
    if (G.py > WORLD_H) { die("fell"); return; }
    if (overlap(G.px, G.py, CW, CH, G.portalC * TILE + 2, G.portalR * TILE - 14, 12, 30)) {
      G.cleared++; G.score += 100;
      G.fx.push({ kind: "warp", x: G.portalC * TILE + 8, y: G.portalR * TILE, t: 0 });
      if (G.room === ROOMS.length - 1) { G.over = true; G.outcome = "win"; G.reason = "cleared every room"; return; }
      loadRoom(G.room + 1);
    }
  }

  function listOf(ch) {
    var out = [];
    for (var r = 0; r < ROWS; r++) for (var c = 0; c < COLS; c++) if (G.grid[r][c] === ch) out.push([c, r]);
    return out;
  }

  // ---------------------------------------------------------------- API
  window.gameAPI = {
    getState: function () {
      catchUp();
      return {
        status: G.over ? "terminal" : "playing",
        actionable: !G.over,
        terminal: { is_terminal: G.over, outcome: G.outcome, reason: G.over ? G.reason : null },
        score: G.score,
        rooms_cleared: G.cleared,
        room: G.room + 1,
        room_name: ROOMS[G.roomId].name,
        room_id: G.roomId,
        stars: G.stars,
        lives: G.lives,
        deaths: G.deaths,
        bounces: G.bounces,
        pad_power: G.padV * 2,
        player_x: Math.round(G.px + CW / 2),
        player_y: Math.round(G.py + CH / 2),
        on_ground: G.onGround,
        portal_x: G.portalC * TILE + 8,
        portal_y: G.portalR * TILE,
        stars_left: listOf("*"),
        mirrored: G.mirror,
        tiles: G.grid.map(function (row) { return row.join(""); }),
        movers: G.movers.map(function (m) { var p = moverXY(m); return { x: p[0], y: p[1], ax: m.ax, a: m.a, b: m.b, sp: m.sp, dir: m.dir }; }),
        tick: G.t,
        cube: { px: G.px, py: G.py, vy: G.vy, on_ground: G.onGround, jump_buf: G.jumpBuf, coyote: G.coyote,
                dying: G.dying, pad_v: G.padV }
      };
    },
    reset: function () { keys.left = keys.right = false; newGame(); draw(); }
  };

  // ---------------------------------------------------------------- input
  window.addEventListener("keydown", function (e) {
    catchUp();
    var code = e.code;
    if (code === "ArrowLeft" || code === "ArrowRight" || code === "ArrowUp" || code === "Space") e.preventDefault();
    if (code === "ArrowLeft") keys.left = true;
    else if (code === "ArrowRight") keys.right = true;
    else if ((code === "ArrowUp" || code === "Space") && !e.repeat) {
      if (!G.over && G.dying === 0) G.jumpBuf = JUMP_BUFFER;
    } else if (code === "Enter" && G.over && !window.__gameworld) { newGame(); }
  });
  window.addEventListener("keyup", function (e) {
    catchUp();
    if (e.code === "ArrowLeft") keys.left = false;
    else if (e.code === "ArrowRight") keys.right = false;
  });

  // ---------------------------------------------------------------- drawing
  var canvas = document.getElementById("game");
  var ctx = canvas.getContext("2d");
  var THEMES = [
    { sky: ["#1b2a5c", "#3a4f9a"], block: ["#4f6bd8", "#2c3f8f", "#8aa2ff"], glow: "#9fd0ff" },
    { sky: ["#163c3a", "#2d7a6a"], block: ["#2fae84", "#176a50", "#7cf0c4"], glow: "#b0ffd8" },
    { sky: ["#3a1d4a", "#7a3c7a"], block: ["#b04fc0", "#64236e", "#f09cff"], glow: "#ffc0ff" },
    { sky: ["#3a160e", "#8a3a1e"], block: ["#d8683a", "#7a2e14", "#ffb088"], glow: "#ffd0a0" }
  ];

  function hash(a, b) {
    var h = (a * 374761393 + b * 668265263) | 0;
    h = (h ^ (h >>> 13)) * 1274126177 | 0;
    return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
  }

  function theme() { return THEMES[ROOMS[G.roomId].tier]; }

  function drawBackdrop(time) {
    var T = theme();
    var g = ctx.createLinearGradient(0, HUD_H, 0, HUD_H + WORLD_H);
    g.addColorStop(0, T.sky[0]); g.addColorStop(1, T.sky[1]);
    ctx.fillStyle = g; ctx.fillRect(0, HUD_H, VIEW_W, WORLD_H);
    // faint grid and floating squares
    ctx.strokeStyle = "rgba(255,255,255,0.04)"; ctx.lineWidth = 1;
    for (var x = 0; x <= VIEW_W; x += 32) { ctx.beginPath(); ctx.moveTo(x + 0.5, HUD_H); ctx.lineTo(x + 0.5, HUD_H + WORLD_H); ctx.stroke(); }
    for (var y = HUD_H; y <= HUD_H + WORLD_H; y += 32) { ctx.beginPath(); ctx.moveTo(0, y + 0.5); ctx.lineTo(VIEW_W, y + 0.5); ctx.stroke(); }
    for (var o = 0; o < 3; o++) {
      var ox = 80 + o * 160 + Math.sin(time * 0.0003 + o * 2) * 30, oy = HUD_H + 90 + (o % 2) * 110;
      var og = ctx.createRadialGradient(ox, oy, 4, ox, oy, 110);
      og.addColorStop(0, "rgba(255,255,255,0.07)"); og.addColorStop(1, "rgba(255,255,255,0)");
      ctx.fillStyle = og; ctx.fillRect(ox - 110, oy - 110, 220, 220);
    }
    for (var i = 0; i < 14; i++) {
      var s = 6 + hash(i, 3) * 18;
      var fx = hash(i, 1) * VIEW_W, fy = HUD_H + ((hash(i, 2) * WORLD_H - time * (0.006 + hash(i, 4) * 0.01)) % WORLD_H + WORLD_H) % WORLD_H;
      ctx.save(); ctx.translate(fx, fy); ctx.rotate(time * 0.0004 * (i % 2 ? 1 : -1) + i);
      ctx.fillStyle = "rgba(255,255,255," + (0.03 + hash(i, 5) * 0.05) + ")"; ctx.fillRect(-s / 2, -s / 2, s, s);
      ctx.restore();
    }
  }

  function drawHurt() {
    if (G.dying <= 0 && !(G.over && G.outcome === "lose")) return;
    var k = G.over ? 0.3 : 0.35 * G.dying / DYING;
    ctx.fillStyle = "rgba(255,40,60," + k + ")"; ctx.fillRect(0, HUD_H, VIEW_W, WORLD_H);
    if (G.dying > 6 && !G.over) {
      ctx.fillStyle = "rgba(255,230,230," + Math.min(1, G.dying / 12) + ")"; ctx.font = "bold 14px monospace"; ctx.textAlign = "center";
      ctx.fillText("-1 LIFE", G.deathX + CW / 2, HUD_H + G.deathY - 12 - (DYING - G.dying) * 0.6);
    }
  }

  function drawVignette() {
    var v = ctx.createRadialGradient(240, HUD_H + 160, 120, 240, HUD_H + 160, 320);
    v.addColorStop(0, "rgba(0,0,0,0)"); v.addColorStop(1, "rgba(0,0,0,0.35)");
    ctx.fillStyle = v; ctx.fillRect(0, HUD_H, VIEW_W, WORLD_H);
  }

  function padLift(c, r) {
    for (var i = 0; i < G.fx.length; i++) {
      var f = G.fx[i];
      if (f.kind === "pad" && f.c === c && f.r === r && f.t < 12) return f.t < 3 ? -f.t * 2 : (f.t < 8 ? 4 : 12 - f.t) ;
    }
    return 0;
  }

  function drawTiles(time) {
    var T = theme();
    for (var r = 0; r < ROWS; r++) for (var c = 0; c < COLS; c++) {
      var t = G.grid[r][c];
      if (t === ".") continue;
      var X = c * TILE, Y = HUD_H + r * TILE;
      if (t === "#") {
        ctx.fillStyle = T.block[1]; ctx.fillRect(X, Y, TILE, TILE);
        ctx.fillStyle = T.block[0]; ctx.fillRect(X + 1, Y + 1, TILE - 2, TILE - 2);
        var open = tileAt(c, r - 1);
        if (!isSolid(open)) { ctx.fillStyle = T.block[2]; ctx.fillRect(X, Y, TILE, 3); }
        ctx.fillStyle = "rgba(0,0,0,0.18)"; ctx.fillRect(X + 1, Y + TILE - 3, TILE - 2, 2);
        if (hash(c, r) < 0.25) { ctx.fillStyle = "rgba(255,255,255,0.12)"; ctx.fillRect(X + 4 + Math.floor(hash(r, c) * 6), Y + 6, 3, 3); }
      } else if (t === "=") {
        var lift = padLift(c, r);
        ctx.fillStyle = T.block[1]; ctx.fillRect(X, Y, TILE, TILE);
        ctx.fillStyle = "#1a1a28"; ctx.fillRect(X + 1, Y + 2, TILE - 2, TILE - 3);
        var top = Y + 4 + lift;
        ctx.strokeStyle = "#d8dce8"; ctx.lineWidth = 2; ctx.beginPath(); ctx.moveTo(X + 8, Y + TILE - 1);
        for (var k = 0; k < 4; k++) ctx.lineTo(X + (k % 2 ? 12 : 4), Y + TILE - 2 - (k + 1) * (Y + TILE - 2 - top) / 4);
        ctx.stroke();
        var glow = 0.35 + 0.25 * Math.sin(time * 0.008 + c);
        var gg = ctx.createLinearGradient(0, top - 14, 0, top);
        gg.addColorStop(0, "rgba(255,230,90,0)"); gg.addColorStop(1, "rgba(255,230,90," + glow + ")");
        ctx.fillStyle = gg; ctx.fillRect(X - 1, top - 14, TILE + 2, 14);
        var pg = ctx.createLinearGradient(0, top - 4, 0, top + 2);
        pg.addColorStop(0, "#fff6a0"); pg.addColorStop(1, "#ff8a10");
        ctx.fillStyle = pg; ctx.fillRect(X - 1, top - 4, TILE + 2, 5);
        ctx.fillStyle = "#b05000"; ctx.fillRect(X - 1, top + 1, TILE + 2, 1);
        ctx.strokeStyle = "rgba(255,250,200," + (glow + 0.2) + ")"; ctx.lineWidth = 1.5; ctx.beginPath();
        ctx.moveTo(X + 4, top - 8); ctx.lineTo(X + 8, top - 12); ctx.lineTo(X + 12, top - 8); ctx.stroke();
      } else if (SPIKE_BOX[t]) {
        drawSpike(t, X, Y);
      } else if (t === "*") {
        drawStar(X + 8, Y + 8 + Math.sin(time * 0.005 + c) * 2, 7, time * 0.002 + c, true);
      }
    }
  }

  function drawSpike(t, X, Y) {
    ctx.fillStyle = "#e8ecf4"; ctx.strokeStyle = "#5a1020"; ctx.lineWidth = 1;
    for (var k = 0; k < 2; k++) {
      ctx.beginPath();
      if (t === "^") { ctx.moveTo(X + k * 8, Y + 16); ctx.lineTo(X + k * 8 + 4, Y + 5); ctx.lineTo(X + k * 8 + 8, Y + 16); }
      else if (t === "v") { ctx.moveTo(X + k * 8, Y); ctx.lineTo(X + k * 8 + 4, Y + 11); ctx.lineTo(X + k * 8 + 8, Y); }
      else if (t === ">") { ctx.moveTo(X, Y + k * 8); ctx.lineTo(X + 11, Y + k * 8 + 4); ctx.lineTo(X, Y + k * 8 + 8); }
      else { ctx.moveTo(X + 16, Y + k * 8); ctx.lineTo(X + 5, Y + k * 8 + 4); ctx.lineTo(X + 16, Y + k * 8 + 8); }
      ctx.closePath(); ctx.fill(); ctx.stroke();
    }
    ctx.fillStyle = "#ff3a5a";
    if (t === "^") { ctx.fillRect(X + 3, Y + 5, 2, 2); ctx.fillRect(X + 11, Y + 5, 2, 2); }
    else if (t === "v") { ctx.fillRect(X + 3, Y + 9, 2, 2); ctx.fillRect(X + 11, Y + 9, 2, 2); }
  }

  function drawStar(x, y, rad, rot, halo) {
    ctx.save(); ctx.translate(x, y);
    if (halo) {
      var hg = ctx.createRadialGradient(0, 0, 1, 0, 0, rad + 9);
      hg.addColorStop(0, "rgba(255,240,150,0.55)"); hg.addColorStop(1, "rgba(255,220,100,0)");
      ctx.fillStyle = hg; ctx.beginPath(); ctx.arc(0, 0, rad + 9, 0, 6.283); ctx.fill();
    }
    ctx.rotate(rot * 0.3);
    ctx.beginPath();
    for (var i = 0; i < 10; i++) {
      var a = -1.5708 + i * 0.6283, rr = i % 2 ? rad * 0.45 : rad;
      ctx.lineTo(Math.cos(a) * rr, Math.sin(a) * rr);
    }
    ctx.closePath();
    ctx.fillStyle = "#ffd23a"; ctx.fill(); ctx.strokeStyle = "#a86a00"; ctx.lineWidth = 1; ctx.stroke();
    ctx.restore();
  }

  function drawPortal(time) {
    var x = G.portalC * TILE + 8, y = HUD_H + G.portalR * TILE;
    var T = theme();
    ctx.save();
    var g = ctx.createRadialGradient(x, y, 2, x, y, 22);
    g.addColorStop(0, "rgba(255,255,255,0.9)"); g.addColorStop(0.4, T.glow); g.addColorStop(1, "rgba(0,0,0,0)");
    ctx.fillStyle = g; ctx.beginPath(); ctx.ellipse(x, y, 16, 24, 0, 0, 6.283); ctx.fill();
    for (var k = 0; k < 3; k++) {
      ctx.strokeStyle = k === 1 ? "#ffffff" : T.glow; ctx.lineWidth = 2;
      ctx.beginPath(); ctx.ellipse(x, y, 9 + k * 3, 14 + k * 4, 0, time * 0.004 * (k % 2 ? 1 : -1) + k, time * 0.004 * (k % 2 ? 1 : -1) + k + 4.2); ctx.stroke();
    }
    ctx.restore();
  }

  function drawMovers(time) {
    G.movers.forEach(function (m, idx) {
      var p = moverXY(m), x = p[0] + 8, y = HUD_H + p[1] + 8;
      if (m.ax === "x") { ctx.strokeStyle = "rgba(255,255,255,0.12)"; ctx.lineWidth = 2; ctx.beginPath(); ctx.moveTo(m.a + 8, y); ctx.lineTo(m.b + 8, y); ctx.stroke(); }
      else { ctx.strokeStyle = "rgba(255,255,255,0.12)"; ctx.lineWidth = 2; ctx.beginPath(); ctx.moveTo(x, HUD_H + m.a + 8); ctx.lineTo(x, HUD_H + m.b + 8); ctx.stroke(); }
      ctx.save(); ctx.translate(x, y); ctx.rotate(time * 0.01 * (idx % 2 ? -1 : 1));
      ctx.fillStyle = "#d8dce8";
      for (var i = 0; i < 8; i++) {
        ctx.rotate(0.7854); ctx.beginPath(); ctx.moveTo(-3, -5); ctx.lineTo(0, -10); ctx.lineTo(3, -5); ctx.fill();
      }
      var bg = ctx.createRadialGradient(-2, -2, 1, 0, 0, 7);
      bg.addColorStop(0, "#ff8a9a"); bg.addColorStop(1, "#a01030");
      ctx.fillStyle = bg; ctx.beginPath(); ctx.arc(0, 0, 6.5, 0, 6.283); ctx.fill();
      ctx.restore();
    });
  }

  function drawCube(time) {
    if (G.dying > 0 || (G.over && G.outcome === "lose")) return;
    var T = theme();
    for (var i = 0; i < G.trail.length - 1; i++) {
      var tp = G.trail[i];
      ctx.fillStyle = "rgba(255,255,255," + (0.05 + i * 0.03) + ")";
      ctx.fillRect(tp[0] + 3, HUD_H + tp[1] + 3, CW - 6, CH - 6);
    }
    var sx = 1, sy = 1;
    if (!G.onGround) { var st = Math.min(0.25, Math.abs(G.vy) * 0.025); sx = 1 - st; sy = 1 + st; }
    else if (G.land > 0) { sx = 1 + G.land * 0.03; sy = 1 - G.land * 0.03; }
    var cx = G.px + CW / 2, by = HUD_H + G.py + CH;
    if (G.roomT < 24 && G.deaths === G.deathsAtRoom) {
      ctx.strokeStyle = "rgba(255,255,255," + (1 - G.roomT / 24) + ")"; ctx.lineWidth = 2;
      ctx.beginPath(); ctx.arc(cx, by - 7, 6 + G.roomT * 1.5, 0, 6.283); ctx.stroke();
    }
    ctx.save(); ctx.translate(cx, by); ctx.scale(sx, sy);
    ctx.fillStyle = "rgba(255,230,150,0.25)"; ctx.fillRect(-9, -16, 18, 18);
    ctx.fillStyle = "rgba(0,0,0,0.35)"; ctx.fillRect(-7, -14, 15, 15);
    var g = ctx.createLinearGradient(0, -14, 0, 0);
    g.addColorStop(0, "#fff3a8"); g.addColorStop(1, "#ffb21a");
    ctx.fillStyle = g; ctx.fillRect(-7, -14, 14, 14);
    ctx.strokeStyle = "#7a4a00"; ctx.lineWidth = 1.5; ctx.strokeRect(-6.5, -13.5, 13, 13);
    var look = G.face * 1.5;
    ctx.fillStyle = "#2a1a08"; ctx.fillRect(-4 + look, -10, 2.5, 4); ctx.fillRect(1.5 + look, -10, 2.5, 4);
    ctx.fillStyle = "#fff"; ctx.fillRect(-3.5 + look, -10, 1, 1); ctx.fillRect(2 + look, -10, 1, 1);
    ctx.fillStyle = "rgba(255,120,60,0.6)"; ctx.fillRect(-6, -5, 2, 2); ctx.fillRect(4, -5, 2, 2);
    ctx.restore();
    void T;
  }

  function drawFx() {
    G.fx.forEach(function (f) {
      if (f.kind === "frag") {
        ctx.fillStyle = "rgba(255,200,60," + Math.max(0, 1 - f.t / 40) + ")";
        ctx.fillRect(f.x - 2, HUD_H + f.y - 2, 4, 4);
      } else if (f.kind === "star") {
        ctx.strokeStyle = "rgba(255,230,120," + Math.max(0, 1 - f.t / 24) + ")"; ctx.lineWidth = 2;
        ctx.beginPath(); ctx.arc(f.x, HUD_H + f.y, 4 + f.t, 0, 6.283); ctx.stroke();
        ctx.fillStyle = "rgba(255,240,170," + Math.max(0, 1 - f.t / 40) + ")"; ctx.font = "bold 11px monospace"; ctx.textAlign = "center";
        ctx.fillText("+STAR", f.x, HUD_H + f.y - 10 - f.t * 0.5);
      }
    });
  }

  function drawHUD() {
    var g = ctx.createLinearGradient(0, 0, 0, HUD_H);
    g.addColorStop(0, "#191c34"); g.addColorStop(1, "#0c0e1e");
    ctx.fillStyle = g; ctx.fillRect(0, 0, VIEW_W, HUD_H);
    ctx.fillStyle = "#ffb21a"; ctx.fillRect(0, HUD_H - 2, VIEW_W, 2);
    ctx.textAlign = "left"; ctx.font = "bold 9px monospace"; ctx.fillStyle = "#9aa4d8";
    ctx.fillText("ROOM", 10, 14); ctx.fillText(TIER_NAMES[ROOMS[G.roomId].tier], 62, 14);
    ctx.fillText("CLEARED", 222, 14); ctx.fillText("STARS", 292, 14); ctx.fillText("SPRING", 346, 14); ctx.fillText("LIVES", 404, 14);
    ctx.font = "bold 15px monospace"; ctx.fillStyle = "#fff";
    ctx.fillText((G.room + 1) + "/" + ROOMS.length, 10, 32);
    ctx.font = "bold 12px monospace"; ctx.fillStyle = "#ffe7a0";
    ctx.fillText(ROOMS[G.roomId].name.toUpperCase(), 62, 31);
    ctx.font = "bold 15px monospace"; ctx.fillStyle = "#fff";
    ctx.fillText(String(G.cleared), 232, 32);
    drawStar(298, 27, 6, 0, false); ctx.fillStyle = "#fff"; ctx.fillText("\u00d7" + G.stars, 306, 32);
    ctx.fillText((G.padV * 2 === 22 ? "LOW" : G.padV * 2 === 23 ? "MID" : "HIGH"), 346, 32);
    for (var i = 0; i < LIVES; i++) {
      var on = i < G.lives;
      ctx.fillStyle = on ? "#ffb21a" : "#343a5e"; ctx.fillRect(406 + i * 22, 20, 14, 14);
      ctx.strokeStyle = on ? "#7a4a00" : "#22264a"; ctx.lineWidth = 1.5; ctx.strokeRect(406.5 + i * 22, 20.5, 13, 13);
      if (on) { ctx.fillStyle = "#2a1a08"; ctx.fillRect(409 + i * 22, 24, 2, 3); ctx.fillRect(414 + i * 22, 24, 2, 3); }
    }
  }

  function drawBanners() {
    if (!G.over && G.roomT < 48) {
      var a = Math.min(1, (48 - G.roomT) / 16);
      ctx.fillStyle = "rgba(8,10,24," + 0.65 * a + ")"; ctx.fillRect(130, HUD_H + 40, 220, 40);
      ctx.fillStyle = "rgba(255,226,140," + a + ")"; ctx.font = "bold 16px monospace"; ctx.textAlign = "center";
      ctx.fillText("ROOM " + (G.room + 1) + ": " + ROOMS[G.roomId].name.toUpperCase(), 240, HUD_H + 65);
    }
    if (!G.over) return;
    var win = G.outcome === "win";
    ctx.fillStyle = "rgba(6,8,20,0.6)"; ctx.fillRect(0, HUD_H, VIEW_W, WORLD_H);
    ctx.fillStyle = win ? "#1f4a2c" : "#4a1f26"; ctx.fillRect(100, 140, 280, 92);
    ctx.strokeStyle = win ? "#7dff9a" : "#ff6f6f"; ctx.lineWidth = 3; ctx.strokeRect(100, 140, 280, 92);
    ctx.textAlign = "center"; ctx.fillStyle = "#fff"; ctx.font = "bold 24px monospace";
    ctx.fillText(win ? "ALL ROOMS CLEAR!" : "BOX BROKEN", 240, 172);
    ctx.font = "12px monospace"; ctx.fillStyle = "#e8def8";
    ctx.fillText("Rooms " + G.cleared + "/" + ROOMS.length + "   Stars " + G.stars + "   Score " + G.score, 240, 196);
    ctx.fillStyle = "#b0a8d0"; ctx.fillText(win ? "What a bouncy run!" : "Out of lives", 240, 216);
  }

  function draw() {
    var time = performance.now() - shownSince;
    drawBackdrop(time);
    drawPortal(time);
    drawTiles(time);
    drawMovers(time);
    drawCube(time);
    drawFx();
    drawVignette();
    drawHurt();
    drawHUD();
    drawBanners();
  }

  function rendering() {
    var gw = window.__gameworld;
    return !(gw && gw.rendering === false);
  }

  // ---------------------------------------------------------------- main loop (fixed 60 Hz ticks)
  // catchUp() runs every tick due by now; it is called on each frame, before each key event and before
  // each state read, so a key held for 200 ms acts for exactly 12 ticks.
  var base = null, done = 0;
  function catchUp() {
    var now = Date.now();
    if (base === null) base = now;
    var due = Math.floor((now - base) * 60 / 1000);
    if (due - done > 120) done = due - 120;
    while (done < due) { tick(); done++; }
  }
  function frame() {
    catchUp();
    if (rendering()) draw();
    requestAnimationFrame(frame);
  }

  newGame();
  draw();
  requestAnimationFrame(frame);
})();
