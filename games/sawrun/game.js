// Saw Run: a precision obstacle course (in the spirit of stick-figure parkour games) for the GameWorld
// platform. A stick-figure runner crosses three short levels of spinning saws (some riding tracks), spike
// strips and narrow wall-jump shafts; flags are checkpoints. Logic runs in fixed 60 Hz ticks counted from
// the (virtual) clock; chance comes only from Math.random, drawn when a level loads: whether the level is
// mirrored (the run goes left), how many flat columns widen each of its stretch points (so the gaps between
// hazards differ from seed to seed), each moving saw's phase and each still saw's nudge. All logic is
// integer: positions are in 1/16 px.
(function () {
  "use strict";

  var TILE = 20, ROWS = 16, VIEW_W = 480, VIEW_H = 360, HUD_H = 40;
  var SUB = 16, T = TILE * SUB;                   // sub-pixels a px, sub-pixels a tile
  var RUN = 40, GRAV = 7, JUMP_V = 120, WJ_V = 112, MAX_FALL = 144, SLIDE = 32;
  var PW = 10 * SUB, PH = 22 * SUB;               // runner hitbox
  var COYOTE = 4, WJ_LOCK = 10, WALL_REACH = 3 * SUB;
  var DEATH_T = 36, LIVES = 5;
  var NAMES = ["THE MILL", "SPIKE WORKS", "THE GRINDER"];

  var LEVELS = [
    { rows: [
      "#.............................................................#",
      "#.............................................................#",
      "#.............................................................#",
      "#.............................................................#",
      "#.............................................................#",
      "#..........................................#..................#",
      "#..........................................#....C.............#",
      "#..........................................#..####............#",
      "#..........................................#..####............#",
      "#..........................................#..####............#",
      "#..........................................#..####...##.......#",
      "#..........................................#..####............#",
      "#...............##............................####............#",
      "#.S....^^.......##.......C....................####..^^^^....E.#",
      "######################################...######################",
      "######################################...######################"
    ],
      saws: [[250, 232, 18, 0, 0, 0, 1], [430, 282, 18, 0, 0, 0], [580, 278, 16, 140, 0, 2], [1150, 170, 14, 0, 100, 1]],
      stretch: [4, 9, 14, 19, 26, 42, 51] },
    { rows: [
      "#.....................#########................................#",
      "#.....................#########................................#",
      "#.....................#########................................#",
      "#.....................#########................................#",
      "#.....................#########..........#.....................#",
      "#.....................#########..........#.....................#",
      "#.....................#########..........#..####...............#",
      "#.....................#########..........#..####...............#",
      "#.....................#########..........#..####...............#",
      "#.....................#########..........#..####....##.........#",
      "#.......................vv...............#..####...............#",
      "#.......##...##..........................#..####...............#",
      "#................................##......#..####...............#",
      "#.S...^^^^^^^^^^^..C.......^^....##..C..^^.^####..^^^^^^....E..#",
      "################################################################",
      "################################################################"
    ],
      saws: [[230, 150, 14, 0, 100, 1], [700, 282, 16, 0, 0, 0], [760, 200, 14, 0, 0, 0], [990, 60, 14, 0, 0, 0], [1050, 200, 14, 140, 0, 2]],
      stretch: [4, 18, 21, 32] },
    { rows: [
      "#..............................................................#",
      "#..............................................................#",
      "#..............................C...............................#",
      "#.........................#######..............................#",
      "#.........................#....................................#",
      "#.........................#....................................#",
      "#......................#..#....................................#",
      "#......................#..#....................................#",
      "#......................#..#.........##.........................#",
      "#......................#..#....................................#",
      "#......................#..#....................................#",
      "#......................#..#....................................#",
      "#.........................#.........................#...#......#",
      "#.S...........^^^...C....^#^^^^^^^^^^^^^^.........^^^^^^^^^..E.#",
      "#####..##..#################################...#################",
      "#####..##..#################################...#################"
    ],
      saws: [[250, 240, 14, 0, 80, 2], [330, 165, 14, 0, 0, 0], [610, 150, 12, 0, 0, 0], [690, 200, 14, 120, 0, 2], [910, 300, 16, 0, -80, 2], [1090, 150, 14, 0, 100, 2]],
      stretch: [3, 19, 42, 59] }
  ];

  var canvas = document.getElementById("game");
  var ctx = canvas.getContext("2d");
  var keys = { left: false, right: false, jump: false };
  var G = null;

  function newGame() {
    G = { t: 0, flags: 0, cleared: 0, deaths: 0, lives: LIVES, score: 0,
          over: false, outcome: null, reason: null, overT: 0, fx: [], bits: [] };
    loadLevel(0);
  }

  function loadLevel(n) {
    var L = LEVELS[n], r, c, i;
    var mirror = Math.random() < 0.5, rows = L.rows.map(function (row) { return row.split(""); });
    var saws = L.saws.map(function (s) { return s.slice(); });
    // widen the level at its stretch points (right to left, so the earlier points keep their columns): each
    // copies a flat column 0-2 times, and what lies right of it moves along
    for (i = L.stretch.length - 1; i >= 0; i--) {
      var at = L.stretch[i], extra = Math.floor(Math.random() * 3);
      for (r = 0; r < ROWS; r++) for (c = 0; c < extra; c++) rows[r].splice(at, 0, rows[r][at]);
      saws.forEach(function (s) { if (s[0] > at * TILE) s[0] += extra * TILE; });
    }
    G.level = n; G.lt = 0; G.cols = rows[0].length; G.mirror = mirror;
    if (mirror) {
      rows.forEach(function (row) { row.reverse(); });
      saws.forEach(function (s) { s[0] = G.cols * TILE - s[0]; s[3] = -s[3]; });
    }
    G.grid = rows; G.flagList = []; G.taken = {};
    for (r = 0; r < ROWS; r++) {
      for (c = 0; c < G.cols; c++) {
        if (rows[r][c] === "S") { G.startC = c; G.startR = r; rows[r][c] = "."; }
        else if (rows[r][c] === "C" || rows[r][c] === "E") G.flagList.push({ c: c, r: r, exit: rows[r][c] === "E" });
      }
    }
    // flags in the order the run meets them, from the start outwards
    G.flagList.sort(function (a, b) { return Math.abs(a.c - G.startC) - Math.abs(b.c - G.startC); });
    G.saws = saws.map(function (s) {
      var len = Math.abs(s[3]) + Math.abs(s[4]), ph = 0, nx = 0;
      if (len > 0) ph = Math.floor(Math.random() * 2 * len);
      else nx = 4 * (Math.floor(Math.random() * 5) - 2);            // a still saw sits up to 8 px aside
      return { x: s[0] + nx, y: s[1], r: s[2], dx: s[3], dy: s[4], sp: s[5], len: len, ph: ph, hang: !!s[6] };
    });
    G.spawnX = G.startC * T + 5 * SUB; G.spawnY = (G.startR + 1) * T - PH;
    G.banner = 100;
    placeHero();
    sawPositions();
  }

  function placeHero() {
    var h = { x: G.spawnX, y: G.spawnY, vy: 0, onGround: true, coyote: COYOTE, armed: false,
              lock: 0, lockDir: 0, face: G.mirror ? -1 : 1, dead: 0, wall: 0, runT: 0 };
    G.hero = h;
  }

  function sawPositions() {
    for (var i = 0; i < G.saws.length; i++) {
      var s = G.saws[i];
      if (s.len === 0) { s.cx = s.x; s.cy = s.y; continue; }
      var d = (s.ph + s.sp * G.lt) % (2 * s.len), p = d <= s.len ? d : 2 * s.len - d;
      s.cx = s.x + (s.dx > 0 ? p : s.dx < 0 ? -p : 0);
      s.cy = s.y + (s.dy > 0 ? p : s.dy < 0 ? -p : 0);
    }
  }

  function tileAt(c, r) {
    if (c < 0 || c >= G.cols) return "#";
    if (r < 0 || r >= ROWS) return ".";
    return G.grid[r][c];
  }
  function solid(c, r) { return tileAt(c, r) === "#"; }

  function wallAt(h, side) {   // a wall within reach on that side (-1 left, 1 right)
    var r0 = Math.floor(h.y / T), r1 = Math.floor((h.y + PH - 1) / T);
    var c = side > 0 ? Math.floor((h.x + PW - 1 + WALL_REACH) / T) : Math.floor((h.x - WALL_REACH) / T);
    for (var r = r0; r <= r1; r++) if (solid(c, r)) return true;
    return false;
  }

  function die(reason) {
    var h = G.hero;
    G.deaths++; G.lives--; G.reason = reason;
    for (var i = 0; i < 14; i++) {   // the runner's bits fly apart (fixed directions: no chance here)
      var a = i * 7 % 14;
      G.bits.push({ x: h.x + PW / 2, y: h.y + PH / 2, vx: (a - 7) * 5, vy: -40 - (i * 13 % 50), t: 0 });
    }
    G.fx.push({ kind: "flash", t: 0 });
    if (G.lives <= 0) { G.over = true; G.outcome = "lose"; h.dead = DEATH_T; return; }
    h.dead = DEATH_T;
  }

  function hitSpikes(h) {
    var x0 = h.x + SUB, x1 = h.x + PW - SUB, y0 = h.y + SUB, y1 = h.y + PH - SUB;
    var c0 = Math.floor(x0 / T), c1 = Math.floor((x1 - 1) / T), r0 = Math.floor(y0 / T), r1 = Math.floor((y1 - 1) / T);
    for (var r = r0; r <= r1; r++) for (var c = c0; c <= c1; c++) {
      var ch = tileAt(c, r), sx0 = c * T + 3 * SUB, sx1 = c * T + 17 * SUB, sy0, sy1;
      if (ch === "^") { sy0 = r * T + 10 * SUB; sy1 = (r + 1) * T; }
      else if (ch === "v") { sy0 = r * T; sy1 = r * T + 10 * SUB; }
      else continue;
      if (x0 < sx1 && x1 > sx0 && y0 < sy1 && y1 > sy0) return true;
    }
    return false;
  }

  function hitSaw(h) {
    for (var i = 0; i < G.saws.length; i++) {
      var s = G.saws[i], cx = s.cx * SUB, cy = s.cy * SUB, rr = (s.r - 3) * SUB;
      var nx = Math.max(h.x, Math.min(cx, h.x + PW)), ny = Math.max(h.y, Math.min(cy, h.y + PH));
      if ((nx - cx) * (nx - cx) + (ny - cy) * (ny - cy) < rr * rr) return true;
    }
    return false;
  }

  function tick() {
    var i;
    for (i = G.fx.length - 1; i >= 0; i--) { G.fx[i].t++; if (G.fx[i].t > 40) G.fx.splice(i, 1); }
    for (i = G.bits.length - 1; i >= 0; i--) {
      var b = G.bits[i]; b.t++; b.x += b.vx; b.y += b.vy; b.vy += GRAV;
      if (b.t > 60) G.bits.splice(i, 1);
    }
    if (G.over) { G.overT++; return; }
    G.t++; G.lt++;
    if (G.banner > 0) G.banner--;
    sawPositions();
    var h = G.hero;
    if (h.dead > 0) {
      h.dead--;
      if (h.dead === 0) { placeHero(); G.fx.push({ kind: "spawn", t: 0 }); }
      return;
    }
    // run (a wall kick carries the runner away from the wall for a moment, whatever is held)
    var dir = (keys.right ? 1 : 0) - (keys.left ? 1 : 0), vx;
    if (h.lock > 0) { vx = h.lockDir * RUN; h.lock--; } else vx = dir * RUN;
    // jump: a held jump key fires at the first chance (on the ground, just after leaving it, or on a wall)
    if (h.armed) {
      if (h.onGround || h.coyote > 0) { h.vy = -JUMP_V; h.onGround = false; h.coyote = 0; h.armed = false; }
      else if (wallAt(h, 1) || wallAt(h, -1)) {
        var away = wallAt(h, 1) ? -1 : 1;
        h.vy = -WJ_V; h.lock = WJ_LOCK; h.lockDir = away; vx = away * RUN; h.armed = false;
        G.fx.push({ kind: "kick", x: away > 0 ? h.x : h.x + PW, y: h.y + PH / 2, t: 0 });
      }
    }
    if (vx !== 0) h.face = vx > 0 ? 1 : -1;
    // horizontal move
    h.x += vx;
    var r0 = Math.floor(h.y / T), r1 = Math.floor((h.y + PH - 1) / T), r, c;
    if (vx > 0) {
      c = Math.floor((h.x + PW - 1) / T);
      for (r = r0; r <= r1; r++) if (solid(c, r)) { h.x = c * T - PW; break; }
    } else if (vx < 0) {
      c = Math.floor(h.x / T);
      for (r = r0; r <= r1; r++) if (solid(c, r)) { h.x = (c + 1) * T; break; }
    }
    // vertical move (pressing into a wall while falling slides down it slowly)
    h.wall = 0;
    if (!h.onGround && dir !== 0 && wallAt(h, dir)) h.wall = dir;
    h.vy = Math.min(h.vy + GRAV, h.wall !== 0 && h.vy > 0 ? SLIDE : MAX_FALL);
    h.y += h.vy;
    var c0 = Math.floor(h.x / T), c1 = Math.floor((h.x + PW - 1) / T);
    h.onGround = false;
    if (h.vy > 0) {
      r = Math.floor((h.y + PH - 1) / T);
      for (c = c0; c <= c1; c++) if (solid(c, r)) { h.y = r * T - PH; h.vy = 0; h.onGround = true; break; }
    } else if (h.vy < 0) {
      r = Math.floor(h.y / T);
      for (c = c0; c <= c1; c++) if (solid(c, r)) { h.y = (r + 1) * T; h.vy = 0; break; }
    }
    h.coyote = h.onGround ? COYOTE : Math.max(0, h.coyote - 1);
    if (h.onGround && vx !== 0) h.runT++;
    // hazards
    if (h.y > ROWS * T) { die("fell into a pit"); return; }
    if (hitSpikes(h)) { die("spiked"); return; }
    if (hitSaw(h)) { die("sawed"); return; }
    // flags and the exit door
    for (i = 0; i < G.flagList.length; i++) {
      var f = G.flagList[i];
      if (G.taken[i]) continue;
      var fx0 = f.c * T + 4 * SUB, fx1 = f.c * T + 16 * SUB, fy0 = (f.r - 1) * T, fy1 = (f.r + 1) * T;
      if (h.x < fx1 && h.x + PW > fx0 && h.y < fy1 && h.y + PH > fy0) {
        G.taken[i] = true; G.flags++; G.score += f.exit ? 500 : 100;
        if (!f.exit) {
          G.spawnX = f.c * T + 5 * SUB; G.spawnY = (f.r + 1) * T - PH;
          G.fx.push({ kind: "text", text: "CHECKPOINT!", x: f.c * TILE + 10, y: f.r * TILE - 30, t: 0 });
        } else {
          G.cleared++;
          if (G.level === LEVELS.length - 1) { G.over = true; G.outcome = "win"; G.reason = "every level cleared"; return; }
          loadLevel(G.level + 1);
          return;
        }
      }
    }
  }

  function nextFlag() {
    for (var i = 0; i < G.flagList.length; i++) if (!G.taken[i]) return G.flagList[i];
    return null;
  }

  // ---------------------------------------------------------------- API
  window.gameAPI = {
    getState: function () {
      sync();
      var h = G.hero, nf = nextFlag();
      return {
        status: G.over ? "terminal" : "playing",
        actionable: !G.over,
        terminal: { is_terminal: G.over, outcome: G.outcome, reason: G.over ? G.reason : null },
        score: G.score,
        flags: G.flags,
        levels_cleared: G.cleared,
        level: G.level + 1,
        lives: G.lives,
        deaths: G.deaths,
        player_x: Math.floor((h.x + PW / 2) / SUB),
        player_y: Math.floor((h.y + PH) / SUB),
        on_ground: h.onGround,
        on_wall: h.wall,
        next_flag_x: nf ? nf.c * TILE + 10 : -1,
        tick: G.lt,
        hero: { x: h.x, y: h.y, vy: h.vy, on_ground: h.onGround, coyote: h.coyote, armed: h.armed,
                lock: h.lock, lock_dir: h.lockDir, dead: h.dead },
        spawn: [G.spawnX, G.spawnY],
        taken: G.flagList.map(function (f, i) { return !!G.taken[i]; }),
        saws: G.saws.map(function (s) { return { x: s.cx, y: s.cy, r: s.r, x0: s.x, y0: s.y, dx: s.dx, dy: s.dy,
                                                  speed: s.sp, phase: s.ph }; }),
        mirrored: G.mirror,
        route: G.flagList.map(function (f) { return [f.c, f.r, f.exit]; }),
        map: G.grid.map(function (row) { return row.join(""); })
      };
    },
    reset: function () { keys.left = keys.right = keys.jump = false; G = null; newGame(); draw(); }
  };

  // ---------------------------------------------------------------- input
  function setKey(code, down) {
    if (code === "ArrowLeft") keys.left = down;
    else if (code === "ArrowRight") keys.right = down;
    else if (code === "Space" || code === "ArrowUp") {
      if (down && !keys.jump && G && G.hero) G.hero.armed = true;
      if (!down && G && G.hero) G.hero.armed = false;
      keys.jump = down;
    } else return false;
    return true;
  }
  window.addEventListener("keydown", function (e) {
    sync();
    if (e.code === "Enter" && G.over) { G = null; newGame(); return; }
    if (setKey(e.code, true)) e.preventDefault();
  });
  window.addEventListener("keyup", function (e) { sync(); setKey(e.code, false); });

  // ---------------------------------------------------------------- drawing (never touches the logic)
  var SKY = [["#2b3a55", "#5d7396", "#c9b79c"], ["#3b2440", "#7a4c62", "#e09a6a"], ["#151a2e", "#2c2f52", "#6a4a7a"]];
  var ROCK = [["#3d4450", "#2a2f38", "#59636f"], ["#4a3a42", "#33272d", "#6f5862"], ["#2f3346", "#1f2231", "#4a5070"]];

  function hash(a, b) { var n = Math.sin(a * 127.1 + b * 311.7) * 43758.5453; return n - Math.floor(n); }

  function camX() {
    var h = G.hero, px = (h.x + PW / 2) / SUB;
    return Math.max(0, Math.min(G.cols * TILE - VIEW_W, Math.round(px - (G.mirror ? 290 : 190))));   // more room ahead of the run
  }

  function drawBackdrop(cam, time) {
    var L = G.level, s = SKY[L];
    var g = ctx.createLinearGradient(0, HUD_H, 0, VIEW_H);
    g.addColorStop(0, s[0]); g.addColorStop(0.6, s[1]); g.addColorStop(1, s[2]);
    ctx.fillStyle = g; ctx.fillRect(0, HUD_H, VIEW_W, VIEW_H - HUD_H);
    // far gears turning slowly (parallax 0.2)
    for (var i = 0; i < 5; i++) {
      var gx = ((i * 260 + 80 - cam * 0.2) % 1300 + 1300) % 1300 - 160, gy = HUD_H + 60 + hash(i, L) * 140;
      var gr = 40 + hash(L, i) * 40;
      drawGear(gx, gy, gr, time * 0.0003 * (i % 2 ? 1 : -1), "rgba(255,255,255,0.06)");
    }
    // girders (parallax 0.5)
    ctx.strokeStyle = "rgba(0,0,0,0.18)"; ctx.lineWidth = 6;
    for (i = -1; i < 4; i++) {
      var x = i * 200 - (cam * 0.5) % 200;
      ctx.beginPath(); ctx.moveTo(x, VIEW_H); ctx.lineTo(x + 60, HUD_H + 90); ctx.lineTo(x + 120, VIEW_H); ctx.stroke();
      ctx.beginPath(); ctx.moveTo(x + 20, HUD_H + 230); ctx.lineTo(x + 100, HUD_H + 230); ctx.stroke();
    }
    ctx.fillStyle = "rgba(0,0,0,0.2)"; ctx.fillRect(0, HUD_H + 88, VIEW_W, 6);
  }

  function drawGear(x, y, r, a, col) {
    ctx.save(); ctx.translate(x, y); ctx.rotate(a); ctx.fillStyle = col;
    ctx.beginPath();
    for (var k = 0; k < 10; k++) {
      var a0 = k * Math.PI / 5, a1 = a0 + Math.PI / 10;
      ctx.lineTo(Math.cos(a0) * r * 1.15, Math.sin(a0) * r * 1.15);
      ctx.lineTo(Math.cos(a1) * r * 1.15, Math.sin(a1) * r * 1.15);
      ctx.lineTo(Math.cos(a1) * r * 0.9, Math.sin(a1) * r * 0.9);
      ctx.lineTo(Math.cos(a1 + Math.PI / 10) * r * 0.9, Math.sin(a1 + Math.PI / 10) * r * 0.9);
    }
    ctx.closePath(); ctx.fill();
    ctx.globalCompositeOperation = "destination-out";
    ctx.beginPath(); ctx.arc(0, 0, r * 0.35, 0, 6.283); ctx.fill();
    ctx.globalCompositeOperation = "source-over";
    ctx.restore();
  }

  function drawTiles(cam) {
    var L = G.level, col = ROCK[L], c0 = Math.max(0, Math.floor(cam / TILE)), c1 = Math.min(G.cols - 1, c0 + 25);
    for (var r = 0; r < ROWS; r++) for (var c = c0; c <= c1; c++) {
      var t = G.grid[r][c], X = c * TILE - cam, Y = HUD_H + r * TILE;
      if (t === "#") {
        ctx.fillStyle = col[0]; ctx.fillRect(X, Y, TILE, TILE);
        ctx.fillStyle = "rgba(0,0,0,0.13)"; ctx.fillRect(X, Y + TILE - 1, TILE, 1); ctx.fillRect(X + ((r & 1) ? 9 : TILE - 1), Y, 1, TILE);
        ctx.fillStyle = col[1]; ctx.fillRect(X + 3 + Math.floor(hash(c, r) * 10), Y + 4 + Math.floor(hash(r, c) * 10), 4, 2);
        if (!solid(c, r - 1)) { ctx.fillStyle = col[2]; ctx.fillRect(X, Y, TILE, 3); ctx.fillStyle = "rgba(255,255,255,0.25)"; ctx.fillRect(X, Y, TILE, 1); }
        if (!solid(c - 1, r)) { ctx.fillStyle = "rgba(255,255,255,0.12)"; ctx.fillRect(X, Y, 2, TILE); }
        if (!solid(c + 1, r)) { ctx.fillStyle = "rgba(0,0,0,0.3)"; ctx.fillRect(X + TILE - 2, Y, 2, TILE); }
        if (!solid(c, r + 1)) { ctx.fillStyle = "rgba(0,0,0,0.35)"; ctx.fillRect(X, Y + TILE - 2, TILE, 2); }
      } else if (t === "^" || t === "v") {
        var up = t === "^";
        for (var k = 0; k < 3; k++) {
          var bx = X + 2 + k * 5.5, g = ctx.createLinearGradient(bx, 0, bx + 5.5, 0);
          g.addColorStop(0, "#f4f6fa"); g.addColorStop(1, "#8a93a6");
          ctx.fillStyle = g; ctx.beginPath();
          if (up) { ctx.moveTo(bx, Y + TILE); ctx.lineTo(bx + 2.75, Y + 8); ctx.lineTo(bx + 5.5, Y + TILE); }
          else { ctx.moveTo(bx, Y); ctx.lineTo(bx + 2.75, Y + 12); ctx.lineTo(bx + 5.5, Y); }
          ctx.fill();
        }
        ctx.fillStyle = "#b02a2a"; ctx.fillRect(X + 1, up ? Y + TILE - 2 : Y, TILE - 2, 2);
      }
    }
  }

  function drawFlags(cam, time) {
    for (var i = 0; i < G.flagList.length; i++) {
      var f = G.flagList[i], X = f.c * TILE - cam, base = HUD_H + (f.r + 1) * TILE;
      if (X < -60 || X > VIEW_W + 60) continue;
      if (f.exit) {
        var glow = 0.5 + 0.3 * Math.sin(time * 0.005);
        ctx.fillStyle = "rgba(120,255,200," + glow * 0.35 + ")"; ctx.fillRect(X - 6, base - 50, 32, 50);
        ctx.fillStyle = "#1c2a2a"; ctx.fillRect(X - 2, base - 44, 24, 44);
        var dg = ctx.createLinearGradient(0, base - 40, 0, base);
        dg.addColorStop(0, "#7dffd0"); dg.addColorStop(1, "#1f9c7a");
        ctx.fillStyle = dg; ctx.fillRect(X + 1, base - 40, 18, 40);
        ctx.fillStyle = "#fff"; ctx.font = "bold 9px monospace"; ctx.textAlign = "center";
        ctx.fillText("EXIT", X + 10, base - 47);
        ctx.fillStyle = "#0d3b30"; ctx.beginPath(); ctx.moveTo(X + 6, base - 26); ctx.lineTo(X + 14, base - 20); ctx.lineTo(X + 6, base - 14); ctx.fill();
      } else {
        var got = !!G.taken[i], wave = Math.sin(time * 0.008 + i) * 2;
        ctx.fillStyle = "#cfd6e0"; ctx.fillRect(X + 9, base - 40, 2, 40);
        ctx.fillStyle = "#3a3f4a"; ctx.fillRect(X + 4, base - 3, 12, 3);
        ctx.fillStyle = got ? "#3ddc6a" : "#ff8a2a";
        ctx.beginPath(); ctx.moveTo(X + 11, base - 40); ctx.quadraticCurveTo(X + 20, base - 38 + wave, X + 28, base - 34 + wave);
        ctx.lineTo(X + 11, base - 27); ctx.fill();
      }
    }
  }

  function drawSaws(cam, time) {
    for (var i = 0; i < G.saws.length; i++) {
      var s = G.saws[i];
      if (s.len > 0) {   // the track and its end bolts
        var ax = s.x - cam, ay = HUD_H + s.y, bx = ax + s.dx, by = ay + s.dy;
        ctx.strokeStyle = "rgba(20,20,30,0.55)"; ctx.lineWidth = 5; ctx.lineCap = "round";
        ctx.beginPath(); ctx.moveTo(ax, ay); ctx.lineTo(bx, by); ctx.stroke();
        ctx.strokeStyle = "rgba(200,200,220,0.35)"; ctx.lineWidth = 1;
        ctx.beginPath(); ctx.moveTo(ax, ay); ctx.lineTo(bx, by); ctx.stroke();
        ctx.fillStyle = "#555b6a"; ctx.beginPath(); ctx.arc(ax, ay, 4, 0, 6.283); ctx.arc(bx, by, 4, 0, 6.283); ctx.fill();
      }
      var x = s.cx - cam, y = HUD_H + s.cy;
      if (x < -40 || x > VIEW_W + 40) continue;
      if (s.hang) {   // a chain from the top of the screen
        ctx.strokeStyle = "#3a3f4c"; ctx.lineWidth = 3;
        for (var cy = HUD_H; cy < y - s.r; cy += 8) { ctx.beginPath(); ctx.moveTo(x, cy); ctx.lineTo(x, cy + 5); ctx.stroke(); }
      }
      var a = time * 0.02 * (i % 2 ? -1 : 1), n = Math.max(10, Math.round(s.r * 0.9));
      ctx.save(); ctx.translate(x, y); ctx.rotate(a);
      ctx.fillStyle = "#c9ced8"; ctx.beginPath();
      for (var k = 0; k < n; k++) {
        var t0 = k * 6.283 / n, t1 = t0 + 6.283 / n;
        ctx.lineTo(Math.cos(t0) * s.r * 0.78, Math.sin(t0) * s.r * 0.78);
        ctx.lineTo(Math.cos(t0 + 0.15) * s.r, Math.sin(t0 + 0.15) * s.r);
        ctx.lineTo(Math.cos(t1) * s.r * 0.78, Math.sin(t1) * s.r * 0.78);
      }
      ctx.closePath(); ctx.fill();
      var g = ctx.createRadialGradient(-s.r * 0.3, -s.r * 0.3, 1, 0, 0, s.r * 0.8);
      g.addColorStop(0, "#ffffff"); g.addColorStop(0.5, "#a9b0bf"); g.addColorStop(1, "#5d6474");
      ctx.fillStyle = g; ctx.beginPath(); ctx.arc(0, 0, s.r * 0.74, 0, 6.283); ctx.fill();
      ctx.strokeStyle = "rgba(60,64,80,0.7)"; ctx.lineWidth = 1.5;
      for (k = 0; k < 3; k++) { ctx.beginPath(); ctx.moveTo(0, 0); ctx.lineTo(Math.cos(k * 2.094) * s.r * 0.6, Math.sin(k * 2.094) * s.r * 0.6); ctx.stroke(); }
      ctx.fillStyle = "#c0392b"; ctx.beginPath(); ctx.arc(0, 0, s.r * 0.22, 0, 6.283); ctx.fill();
      ctx.fillStyle = "#222"; ctx.beginPath(); ctx.arc(0, 0, s.r * 0.08 + 1, 0, 6.283); ctx.fill();
      ctx.restore();
    }
  }

  function drawHero(cam, time) {
    var h = G.hero;
    if (h.dead > 0) return;
    var x = (h.x + PW / 2) / SUB - cam, y = HUD_H + (h.y + PH) / SUB, f = h.face;
    ctx.save(); ctx.translate(Math.round(x), Math.round(y)); ctx.scale(f, 1);
    ctx.strokeStyle = "#0b0d14"; ctx.fillStyle = "#0b0d14"; ctx.lineWidth = 3; ctx.lineCap = "round"; ctx.lineJoin = "round";
    var hip = [0, -10], neck = [1, -18], headY = -22;
    var legA, legB, armA, armB;
    if (h.wall !== 0) {            // clinging: one hand and one foot on the wall (drawn facing it)
      legA = [[3, -5], [5, 0]]; legB = [[-3, -5], [-1, -1]]; armA = [[5, -20], [6, -25]]; armB = [[-3, -14], [-5, -10]];
    } else if (!h.onGround) {      // tucked jump
      legA = [[4, -7], [1, -2]]; legB = [[-3, -6], [-6, -3]]; armA = [[5, -20], [8, -24]]; armB = [[-4, -18], [-7, -22]];
    } else if (keys.left || keys.right) {
      var p = Math.sin(h.runT * 0.45), q = Math.cos(h.runT * 0.45);
      legA = [[3 + 3 * p, -5], [2 + 6 * p, 0 - Math.max(0, q) * 2]];
      legB = [[3 - 3 * p, -5], [2 - 6 * p, 0 - Math.max(0, -q) * 2]];
      armA = [[2 + 4 * p, -13], [5 + 5 * p, -10]]; armB = [[2 - 4 * p, -13], [5 - 5 * p, -10]];
      neck = [2, -18];
    } else {
      var br = Math.sin(time * 0.004) * 0.6;
      legA = [[2, -5], [3, 0]]; legB = [[-2, -5], [-3, 0]]; armA = [[3, -13], [4, -9 + br]]; armB = [[-2, -13], [-3, -9 + br]];
    }
    function limb(a, b) { ctx.beginPath(); ctx.moveTo(hip[0], hip[1]); ctx.lineTo(a[0], a[1]); ctx.lineTo(b[0], b[1]); ctx.stroke(); }
    function arm(a, b) { ctx.beginPath(); ctx.moveTo(neck[0], neck[1] + 1); ctx.lineTo(a[0], a[1]); ctx.lineTo(b[0], b[1]); ctx.stroke(); }
    limb(legA[0], legA[1]); limb(legB[0], legB[1]);
    ctx.beginPath(); ctx.moveTo(hip[0], hip[1]); ctx.lineTo(neck[0], neck[1]); ctx.stroke();
    arm(armA[0], armA[1]); arm(armB[0], armB[1]);
    ctx.beginPath(); ctx.arc(neck[0] + 1, headY, 4.5, 0, 6.283); ctx.fill();
    ctx.fillStyle = "#ff4a3a"; ctx.fillRect(neck[0] - 4, headY - 2, 9, 2);    // headband
    ctx.strokeStyle = "#ff4a3a"; ctx.lineWidth = 1.5;
    ctx.beginPath(); ctx.moveTo(neck[0] - 4, headY - 1); ctx.lineTo(neck[0] - 9, headY + 1 + Math.sin(time * 0.02) * 1.5); ctx.stroke();
    ctx.restore();
  }

  function drawFx(cam) {
    ctx.fillStyle = "#0b0d14";
    G.bits.forEach(function (b) { ctx.fillRect(b.x / SUB - cam - 1.5, HUD_H + b.y / SUB - 1.5, 3, 3); });
    G.fx.forEach(function (f) {
      if (f.kind === "flash") { ctx.fillStyle = "rgba(255,40,40," + Math.max(0, 0.35 - f.t / 40) + ")"; ctx.fillRect(0, HUD_H, VIEW_W, VIEW_H - HUD_H); }
      else if (f.kind === "kick") {
        ctx.strokeStyle = "rgba(255,255,255," + Math.max(0, 1 - f.t / 12) + ")"; ctx.lineWidth = 2;
        ctx.beginPath(); ctx.arc(f.x / SUB - cam, HUD_H + f.y / SUB, 3 + f.t, 0, 6.283); ctx.stroke();
      } else if (f.kind === "text") {
        ctx.fillStyle = "rgba(150,255,170," + Math.max(0, 1 - f.t / 40) + ")"; ctx.font = "bold 12px monospace"; ctx.textAlign = "center";
        ctx.fillText(f.text, f.x - cam, HUD_H + f.y - f.t * 0.5);
      } else if (f.kind === "spawn") {
        var h = G.hero;
        ctx.strokeStyle = "rgba(120,255,200," + Math.max(0, 1 - f.t / 20) + ")"; ctx.lineWidth = 2;
        ctx.beginPath(); ctx.arc((h.x + PW / 2) / SUB - cam, HUD_H + (h.y + PH / 2) / SUB, 4 + f.t * 1.2, 0, 6.283); ctx.stroke();
      }
    });
  }

  function drawHUD() {
    var g = ctx.createLinearGradient(0, 0, 0, HUD_H);
    g.addColorStop(0, "#1d2230"); g.addColorStop(1, "#0c0f17");
    ctx.fillStyle = g; ctx.fillRect(0, 0, VIEW_W, HUD_H);
    ctx.fillStyle = "#ff4a3a"; ctx.fillRect(0, HUD_H - 2, VIEW_W, 2);
    ctx.textAlign = "left"; ctx.font = "bold 9px monospace"; ctx.fillStyle = "#8c95aa";
    ctx.fillText("LEVEL", 10, 14); ctx.fillText("FLAGS", 150, 14); ctx.fillText("DEATHS", 290, 14); ctx.fillText("LIVES", 360, 14);
    ctx.font = "bold 13px monospace"; ctx.fillStyle = "#ffffff";
    ctx.fillText((G.level + 1) + "/3 " + NAMES[G.level], 10, 31);
    var total = 0, i;
    for (i = 0; i < LEVELS.length; i++) total += LEVELS[i].flagCount;
    for (i = 0; i < total; i++) {
      var fx = 152 + i * 14, on = i < G.flags;
      ctx.fillStyle = "#5a6275"; ctx.fillRect(fx, 19, 2, 15);
      ctx.fillStyle = on ? "#3ddc6a" : "#343a4a";
      ctx.beginPath(); ctx.moveTo(fx + 2, 19); ctx.lineTo(fx + 11, 23); ctx.lineTo(fx + 2, 27); ctx.fill();
    }
    ctx.fillStyle = "#ffffff"; ctx.fillText(String(G.deaths), 292, 31);
    for (i = 0; i < LIVES; i++) {
      var hx = 366 + i * 15, hy = 25, live = i < G.lives;
      ctx.fillStyle = live ? "#ff4a5a" : "#343a4a";
      ctx.beginPath(); ctx.arc(hx - 3, hy - 2, 3.5, 0, 6.283); ctx.arc(hx + 3, hy - 2, 3.5, 0, 6.283); ctx.fill();
      ctx.beginPath(); ctx.moveTo(hx - 6.5, hy - 1); ctx.lineTo(hx, hy + 6); ctx.lineTo(hx + 6.5, hy - 1); ctx.fill();
    }
    var secs = Math.floor(G.t / 60);
    ctx.textAlign = "right"; ctx.font = "bold 9px monospace"; ctx.fillStyle = "#8c95aa"; ctx.fillText("TIME", VIEW_W - 10, 14);
    ctx.font = "bold 13px monospace"; ctx.fillStyle = "#fff";
    ctx.fillText(Math.floor(secs / 60) + ":" + ("0" + secs % 60).slice(-2), VIEW_W - 10, 31);
  }

  function drawBanners() {
    if (G.banner > 0 && !G.over) {
      var a = Math.min(1, G.banner / 20);
      ctx.fillStyle = "rgba(10,12,20," + 0.72 * a + ")"; ctx.fillRect(110, HUD_H + 54, 260, 46);
      ctx.fillStyle = "rgba(255,74,58," + a + ")"; ctx.fillRect(110, HUD_H + 54, 260, 3);
      ctx.fillStyle = "rgba(255,255,255," + a + ")"; ctx.font = "bold 18px monospace"; ctx.textAlign = "center";
      ctx.fillText("LEVEL " + (G.level + 1) + ": " + NAMES[G.level], 240, HUD_H + 84);
    }
    if (!G.over) return;
    var win = G.outcome === "win";
    ctx.fillStyle = "rgba(6,8,14,0.62)"; ctx.fillRect(0, HUD_H, VIEW_W, VIEW_H - HUD_H);
    ctx.fillStyle = win ? "#17392a" : "#3e1518"; ctx.fillRect(90, 130, 300, 100);
    ctx.strokeStyle = win ? "#3ddc6a" : "#ff4a3a"; ctx.lineWidth = 3; ctx.strokeRect(90, 130, 300, 100);
    ctx.textAlign = "center"; ctx.fillStyle = "#fff"; ctx.font = "bold 24px monospace";
    ctx.fillText(win ? "COURSE CLEAR!" : "OUT OF LIVES", 240, 164);
    ctx.font = "12px monospace"; ctx.fillStyle = "#dfe4ef";
    ctx.fillText("Flags " + G.flags + "   Levels " + G.cleared + "   Deaths " + G.deaths, 240, 190);
    ctx.fillStyle = "#9aa3b8"; ctx.fillText(win ? "Time " + Math.floor(G.t / 60) + " s   Press Enter to run again" : "Press Enter to try again", 240, 212);
  }

  function draw() {
    var time = (G.t + G.overT) * 1000 / 60, cam = camX();   // animations run on the attempt's ticks
    ctx.lineCap = "butt"; ctx.lineJoin = "miter"; ctx.globalAlpha = 1;   // the same context state every frame
    drawBackdrop(cam, time);
    drawSaws(cam, time);
    drawTiles(cam);
    drawFlags(cam, time);
    drawHero(cam, time);
    drawFx(cam);
    var v = ctx.createRadialGradient(VIEW_W / 2, HUD_H + 160, 140, VIEW_W / 2, HUD_H + 160, 330);
    v.addColorStop(0, "rgba(0,0,0,0)"); v.addColorStop(1, "rgba(0,0,0,0.28)");
    ctx.fillStyle = v; ctx.fillRect(0, HUD_H, VIEW_W, VIEW_H - HUD_H);
    drawHUD();
    drawBanners();
  }

  function rendering() {
    var gw = window.__gameworld;
    return !(gw && gw.rendering === false);
  }

  // ---------------------------------------------------------------- main loop (fixed 60 Hz ticks)
  // catchUp() runs every tick due by now; it is called on each frame, before each key event and before
  // each state read, so a key held for 200 ms acts for exactly 12 ticks. A key event or state read that ran
  // ticks the last animation frame had not reached draws again, so the frame shows the state just read.
  var base = null, done = 0;
  function catchUp() {
    var now = Date.now();
    if (base === null) base = now;
    var due = Math.floor((now - base) * 60 / 1000);
    if (due - done > 120) done = due - 120;
    var ran = due - done;
    while (done < due) { tick(); done++; }
    return ran;
  }
  function sync() {   // outside an animation frame: run the ticks due and show them if frames are seen
    if (catchUp() > 0 && rendering()) draw();
  }
  function frame() {
    catchUp();
    if (rendering()) draw();
    requestAnimationFrame(frame);
  }

  LEVELS.forEach(function (L) {
    L.flagCount = 0;
    L.rows.forEach(function (row) { for (var i = 0; i < row.length; i++) if (row[i] === "C" || row[i] === "E") L.flagCount++; });
  });
  newGame();
  draw();   // the first frame exists before the game reports actionable
  requestAnimationFrame(frame);
})();
