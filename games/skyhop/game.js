// Sky Hop: a side-scrolling platformer in three short worlds for the GameWorld platform.
// Logic runs in fixed 60 Hz ticks counted from the (virtual) clock; chance comes only from Math.random
// (each fire pipe's rhythm, period and phase, for all three worlds drawn in a fixed order at reset; where each
// walker starts on its beat, drawn when a world loads). No transcendental maths in logic:
// every speed is a multiple of 1/8 px, so positions are exact.
(function () {
  "use strict";

  var TILE = 16, COLS = 72, ROWS = 20, VIEW_W = 480, HUD_H = 40, WORLD_H = 320, LEVEL_W = COLS * TILE;
  var RUN = 3, JUMP_V = 7.5, GRAV = 0.375, MAX_FALL = 8, STOMP_V = 5.25;
  var PW = 12, PH = 14;                  // hero hitbox
  var EW = 14, EH = 14;                  // walker hitbox
  var JUMP_BUFFER = 6, COYOTE = 5;       // ticks
  var DYING = 60, INVULN = 90, LIVES = 3, START_COL = 2, CAM_LEAD = 200;
  // Fire pipes: a column of flame (FLAME_W px wide, centred on the pipe) blasts from the pipe's mouth to the
  // top of the sky, then dies down for FLAME_SAFE ticks; the period (FLAME_MIN..FLAME_MAX ticks) and where
  // in it the game starts are drawn at reset. The mouth glows for FLAME_WARN ticks before each blast.
  var FIRE_PIPES = [[11, 22], [17], [11]];   // left column of each fire pipe, per world
  var FLAME_W = 20, FLAME_SAFE = 60, FLAME_WARN = 24, FLAME_MIN = 150, FLAME_MAX = 200;

  // ---------------------------------------------------------------- worlds (fixed geometry)
  // '#' ground, 'B' brick, '?' coin block (bump it from below), 'H' hard block, '[' ']' '{' '}' pipe,
  // 'o' coin, 'g' a walker's spawn, 'C' the checkpoint flag, 'F' the goal pole, 'X' a stone gate hanging from the
  // sky, 'v' the spikes under it (walk under the gate; a jump under it meets the spikes).
  var LEVELS = [
    [
      "     XX                                                                 ",
      "     XX                                                                 ",
      "     XX                                                                 ",
      "     XX                                                                 ",
      "     XX                                                                 ",
      "     XX                                                                 ",
      "     XX                                                                 ",
      "     XX                                                                 ",
      "     XX                                                                 ",
      "     XX                                                                 ",
      "     XX                                   ?                             ",
      "     XX                                                                 ",
      "     XX                     ooo                                         ",
      "     XX                                           oo                    ",
      "     XX         ?B?                     B?B?B                   H       ",
      "     XX               []                                  []   HH       ",
      "     vv    []         {}                                  {}  HHH       ",
      "           {}    g    {}            C        g         g  {} HHHH   F   ",
      "############################   ###################  ####################",
      "############################   ###################  ####################"
    ],
    [
      "                                                                        ",
      "                                                                        ",
      "                                                                        ",
      "                                                                        ",
      "                                                                        ",
      "                                                                        ",
      "                                                                        ",
      "                                                                        ",
      "                                                                        ",
      "                                                                        ",
      "                                                                        ",
      "                                                                        ",
      "                     ooo                           oooo                 ",
      "                                                                        ",
      "      ?B?                B?BB             ??   []        ?B?            ",
      "                 []                            {}                H      ",
      "                 {}                    []      {}               HH      ",
      "         H   g   {}         g       C  {}   g  {}           g  HHH  F   ",
      "#####################   ########  #################    #################",
      "#####################   ########  #################    #################"
    ],
    [
      "                                                                        ",
      "                                                                        ",
      "                                                                        ",
      "                                                                        ",
      "                                                                        ",
      "                                                                        ",
      "                                                                        ",
      "                                                                        ",
      "                                                                        ",
      "                                                                        ",
      "                                                                        ",
      "                        oooo                                            ",
      "              ooo                              oooo                     ",
      "                                                          oo            ",
      "     B??B                             ?B?B?                     H       ",
      "                                            []                 HH       ",
      "           []         H     H               {}          []    HHH       ",
      "      H  g {}       gHH     HH  g   C     g {}        g {}   HHHH   F   ",
      "##############   #######    ###################    #######  ############",
      "##############   #######    ###################    #######  ############"
    ],
  ];
  var WORLD_NAMES = ["1 GREEN HILLS", "2 SUNSET RIDGE", "3 MOONLIT KEEP"];
  var SOLID = { "#": 1, "B": 1, "?": 1, "U": 1, "H": 1, "X": 1, "[": 1, "]": 1, "{": 1, "}": 1 };
  var SPIKE_BOX = [2, 0, 12, 9];         // a 'v' spike under a gate: x, y, w, h inside its tile

  function isSolid(ch) { return SOLID[ch] === 1; }

  // ---------------------------------------------------------------- game state
  var G = null;
  var keys = { left: false, right: false };
  var shownSince = 0;   // drawing only: animations count from the attempt's start

  function newGame() {
    G = { t: 0, score: 0, coins: 0, stomps: 0, lives: LIVES, checkpoints: 0, cleared: 0,
          over: false, outcome: null, reason: null, overT: 0, fx: [] };
    G.rhythms = FIRE_PIPES.map(function (cols) {   // drawn now, world by world, pipe by pipe: period, then phase
      return cols.map(function () {
        var period = FLAME_MIN + Math.floor(Math.random() * (FLAME_MAX - FLAME_MIN + 1));
        return { period: period, off: Math.floor(Math.random() * period) };
      });
    });
    loadLevel(0);
    shownSince = performance.now();
  }

  function loadLevel(n) {
    var rows = LEVELS[n], grid = [], enemies = [], r, c;
    G.level = n; G.cpCol = -1; G.flagCol = -1;
    for (r = 0; r < ROWS; r++) grid.push(rows[r].split(""));
    for (r = 0; r < ROWS; r++) for (c = 0; c < COLS; c++) {
      var ch = grid[r][c];
      if (ch === "C") { G.cpCol = c; grid[r][c] = " "; }
      else if (ch === "F") { G.flagCol = c; grid[r][c] = " "; }
      else if (ch === "g") { enemies.push({ c: c, r: r }); grid[r][c] = " "; }
    }
    G.grid = grid;
    G.enemies = enemies.map(function (s) {
      var lo = s.c, hi = s.c;   // the walker patrols the flat ground around its spawn, wall to wall or edge to edge
      while (!isSolid(grid[s.r][lo - 1]) && isSolid(grid[s.r + 1][lo - 1]) && lo > 0) lo--;
      while (!isSolid(grid[s.r][hi + 1]) && isSolid(grid[s.r + 1][hi + 1]) && hi < COLS - 1) hi++;
      var a = lo * TILE, b = hi * TILE + TILE - EW;
      var x = a + Math.floor(Math.random() * (b - a + 1));
      var dir = Math.random() < 0.5 ? -1 : 1;
      return { x: x, y: s.r * TILE + TILE - EH, a: a, b: b, dir: dir, alive: true, deadT: 0 };
    });
    G.flames = FIRE_PIPES[n].map(function (c, i) {
      var top = 0;
      while (grid[top][c] !== "[") top++;
      return { c: c, x: c * TILE + TILE - FLAME_W / 2, top: top * TILE,
               period: G.rhythms[n][i].period, off: G.rhythms[n][i].off };
    });
    G.cpHit = false;
    G.banner = 90;
    placeHero(START_COL);
  }

  function placeHero(col) {
    G.px = col * TILE + 2; G.py = 18 * TILE - PH; G.vy = 0; G.onGround = true; G.face = 1;
    G.jumpBuf = 0; G.coyote = COYOTE; G.dying = 0; G.inv = 0;
    G.cam = Math.max(0, Math.min(LEVEL_W - VIEW_W, G.px + PW / 2 - CAM_LEAD));
  }

  function tileAt(c, r) {
    if (c < 0 || c >= COLS) return "#";
    if (r < 0 || r >= ROWS) return " ";
    return G.grid[r][c];
  }

  function overlap(ax, ay, aw, ah, bx, by, bw, bh) {
    return ax < bx + bw && ax + aw > bx && ay < by + bh && ay + ah > by;
  }

  function flamePhase(f) { return (G.t + f.off) % f.period; }
  function flameOn(f) { return flamePhase(f) < f.period - FLAME_SAFE; }   // blasting (deadly)

  function popup(text, x, y, color) { G.fx.push({ kind: "text", text: text, x: x, y: y, t: 0, color: color }); }

  function die(reason) {
    G.lives--;
    G.reason = reason;
    if (G.lives <= 0) { G.over = true; G.outcome = "lose"; return; }
    G.dying = DYING; G.deathY = G.py;
  }

  function tick() {
    var i;
    for (i = G.fx.length - 1; i >= 0; i--) { G.fx[i].t++; if (G.fx[i].t > 40) G.fx.splice(i, 1); }
    if (G.over) { G.overT++; return; }
    G.t++;
    if (G.banner > 0) G.banner--;
    moveEnemies();
    if (G.dying > 0) {
      G.dying--;
      if (G.dying === 0) { placeHero(G.cpHit ? G.cpCol : START_COL); G.inv = INVULN; }
      return;
    }
    if (G.inv > 0) G.inv--;
    // input
    var dir = (keys.right ? 1 : 0) - (keys.left ? 1 : 0);
    var vx = dir * RUN;
    if (dir) G.face = dir;
    if (G.jumpBuf > 0) {
      if (G.onGround || G.coyote > 0) { G.vy = -JUMP_V; G.onGround = false; G.coyote = 0; G.jumpBuf = 0; }
      else G.jumpBuf--;
    }
    // horizontal move (the screen never scrolls back: its left edge is a wall)
    G.px += vx;
    if (G.px < G.cam) G.px = G.cam;
    if (G.px > LEVEL_W - PW) G.px = LEVEL_W - PW;
    var r0 = Math.floor(G.py / TILE), r1 = Math.floor((G.py + PH - 1) / TILE), r, c;
    if (vx > 0) {
      c = Math.floor((G.px + PW - 1) / TILE);
      for (r = r0; r <= r1; r++) if (isSolid(tileAt(c, r))) { G.px = c * TILE - PW; break; }
    } else if (vx < 0) {
      c = Math.floor(G.px / TILE);
      for (r = r0; r <= r1; r++) if (isSolid(tileAt(c, r))) { G.px = (c + 1) * TILE; break; }
    }
    // vertical move
    var oldBottom = G.py + PH;
    G.vy = Math.min(G.vy + GRAV, MAX_FALL);
    G.py += G.vy;
    var c0 = Math.floor(G.px / TILE), c1 = Math.floor((G.px + PW - 1) / TILE);
    G.onGround = false;
    if (G.vy > 0) {
      r = Math.floor((G.py + PH - 0.125) / TILE);
      for (c = c0; c <= c1; c++) if (isSolid(tileAt(c, r))) { G.py = r * TILE - PH; G.vy = 0; G.onGround = true; break; }
    } else if (G.vy < 0) {
      r = Math.floor(G.py / TILE);
      var hit = false;
      for (c = c0; c <= c1; c++) {
        var ch = tileAt(c, r);
        if (!isSolid(ch)) continue;
        hit = true;
        if (ch === "?") {                                  // bump: the block pays out a coin
          G.grid[r][c] = "U"; G.coins++; G.score += 100;
          G.fx.push({ kind: "coin", x: c * TILE + 8, y: r * TILE, t: 0 });
          G.fx.push({ kind: "bump", c: c, r: r, t: 0 });
          popup("+100", c * TILE + 8, r * TILE - 20, "#fff7b0");
        } else G.fx.push({ kind: "bump", c: c, r: r, t: 0 });
      }
      if (hit) { G.py = (r + 1) * TILE; G.vy = 0; }
    }
    G.coyote = G.onGround ? COYOTE : Math.max(0, G.coyote - 1);
    G.cam = Math.max(G.cam, Math.min(LEVEL_W - VIEW_W, G.px + PW / 2 - CAM_LEAD));
    // loose coins
    r0 = Math.floor(G.py / TILE); r1 = Math.floor((G.py + PH - 1) / TILE);
    c0 = Math.floor(G.px / TILE); c1 = Math.floor((G.px + PW - 1) / TILE);
    for (r = r0; r <= r1; r++) for (c = c0; c <= c1; c++) {
      if (tileAt(c, r) === "o" && overlap(G.px, G.py, PW, PH, c * TILE + 3, r * TILE + 2, 10, 12)) {
        G.grid[r][c] = " "; G.coins++; G.score += 100;
        G.fx.push({ kind: "spark", x: c * TILE + 8, y: r * TILE + 8, t: 0 });
      }
    }
    for (r = r0; r <= r1; r++) for (c = c0; c <= c1; c++) {
      if (tileAt(c, r) === "v" && overlap(G.px, G.py, PW, PH, c * TILE + SPIKE_BOX[0], r * TILE + SPIKE_BOX[1], SPIKE_BOX[2], SPIKE_BOX[3])) {
        die("spikes"); return;
      }
    }
    // checkpoint and goal
    if (!G.cpHit && G.px + PW / 2 >= G.cpCol * TILE + 8) {
      G.cpHit = true; G.checkpoints++; G.score += 500;
      popup("CHECKPOINT!", G.cpCol * TILE + 8, 11 * TILE, "#9cff9c");
    }
    if (G.px + PW >= G.flagCol * TILE + 6) {
      if (!G.cpHit) { G.cpHit = true; G.checkpoints++; }
      G.checkpoints++; G.cleared++; G.score += 1000;
      if (G.level === LEVELS.length - 1) { G.over = true; G.outcome = "win"; G.reason = "cleared every world"; return; }
      loadLevel(G.level + 1);
      return;
    }
    if (G.py > WORLD_H) { die("fell"); return; }
    // fire pipes: touching a blasting flame costs a life
    for (i = 0; i < G.flames.length; i++) {
      var f = G.flames[i];
      if (flameOn(f) && overlap(G.px, G.py, PW, PH, f.x, 0, FLAME_W, f.top)) { die("flame"); return; }
    }
    // walkers: a stomp from above squashes one, any other touch costs a life
    for (i = 0; i < G.enemies.length; i++) {
      var e = G.enemies[i];
      if (!e.alive || !overlap(G.px, G.py, PW, PH, e.x + 1, e.y + 2, EW - 2, EH - 2)) continue;
      if (G.vy > 0 && oldBottom <= e.y + 6) {
        e.alive = false; e.deadT = G.t; G.stomps++; G.score += 200; G.vy = -STOMP_V; G.onGround = false;
        popup("+200", e.x + EW / 2, e.y - 12, "#ffd0a0");
      } else if (G.inv === 0) { die("walker"); return; }
    }
  }

  function moveEnemies() {
    for (var i = 0; i < G.enemies.length; i++) {
      var e = G.enemies[i];
      if (!e.alive) continue;
      e.x += e.dir;
      if (e.x <= e.a) { e.x = e.a; e.dir = 1; } else if (e.x >= e.b) { e.x = e.b; e.dir = -1; }
    }
  }

  function rowsOf(ch) {   // [col, row] of every tile of one kind in the current world
    var out = [];
    for (var r = 0; r < ROWS; r++) for (var c = 0; c < COLS; c++) if (G.grid[r][c] === ch) out.push([c, r]);
    return out;
  }

  // ---------------------------------------------------------------- API
  window.gameAPI = {
    getState: function () {
      catchUp();
      var cx = G.px + PW / 2;
      return {
        status: G.over ? "terminal" : "playing",
        actionable: !G.over,
        terminal: { is_terminal: G.over, outcome: G.outcome, reason: G.over ? G.reason : null },
        score: G.score,
        coins: G.coins,
        stomps: G.stomps,
        checkpoints: G.checkpoints,
        worlds_cleared: G.cleared,
        world: G.level + 1,
        lives: G.lives,
        player_col: Math.floor(cx / TILE),
        player_x: Math.round(cx),
        player_y: Math.round(G.py + PH),
        on_ground: G.onGround,
        checkpoint_col: G.cpCol,
        goal_col: G.flagCol,
        tick: G.t,
        hero: { px: G.px, py: G.py, vy: G.vy, on_ground: G.onGround, jump_buf: G.jumpBuf, coyote: G.coyote,
                dying: G.dying, inv: G.inv, cam: G.cam, cp_hit: G.cpHit },
        enemies: G.enemies.map(function (e) { return { x: e.x, y: e.y, a: e.a, b: e.b, dir: e.dir, alive: e.alive }; }),
        coin_blocks: rowsOf("?"),
        loose_coins: rowsOf("o"),
        flames: G.flames.map(function (f) {
          var ph = flamePhase(f), on = ph < f.period - FLAME_SAFE;
          return { col: f.c, x: f.x, w: FLAME_W, top: f.top, period: f.period, safe: FLAME_SAFE, phase: ph,
                   on: on, ticks_left: on ? f.period - FLAME_SAFE - ph : f.period - ph };
        })
      };
    },
    // draw at once: the frame read right after a reset shows the new attempt, not the last one's end
    reset: function () { keys.left = keys.right = false; newGame(); draw(); }
  };

  // ---------------------------------------------------------------- input
  window.addEventListener("keydown", function (e) {
    catchUp();
    var code = e.code;
    if (code === "ArrowLeft" || code === "ArrowRight" || code === "ArrowUp" || code === "Space") e.preventDefault();
    if ((code === "KeyR" || code === "Enter") && G.over) { newGame(); return; }   // restart when playing standalone
    if (G.over) return;
    if (code === "ArrowLeft") keys.left = true;
    else if (code === "ArrowRight") keys.right = true;
    else if ((code === "ArrowUp" || code === "Space") && !e.repeat) G.jumpBuf = JUMP_BUFFER;
  });
  window.addEventListener("keyup", function (e) {
    catchUp();
    if (e.code === "ArrowLeft") keys.left = false;
    else if (e.code === "ArrowRight") keys.right = false;
  });

  // ---------------------------------------------------------------- drawing
  var canvas = document.getElementById("game");
  var ctx = canvas.getContext("2d");
  var SKIES = [["#5fb2ff", "#bfe6ff"], ["#f08a5d", "#ffd59a"], ["#1b1d4a", "#4a3f7a"]];
  var HILLS = [["#7fc86a", "#5aa34a"], ["#c46a5a", "#9c4d48"], ["#2f3566", "#23284f"]];
  var GROUND = [["#c8763a", "#9a5526", "#4fbf3a"], ["#b8643c", "#8a4424", "#e0a040"], ["#6c6a86", "#4c4a66", "#8a88b0"]];

  function hash(a, b) {   // deterministic texture noise (drawing only)
    var h = (a * 374761393 + b * 668265263) | 0;
    h = Math.imul(h ^ (h >>> 13), 1274126177);
    return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
  }

  function drawBackdrop(time) {
    var L = G.level, g = ctx.createLinearGradient(0, HUD_H, 0, HUD_H + WORLD_H), i, x;
    g.addColorStop(0, SKIES[L][0]); g.addColorStop(1, SKIES[L][1]);
    ctx.fillStyle = g; ctx.fillRect(0, HUD_H, VIEW_W, WORLD_H);
    if (L === 2) {   // stars and moon
      for (i = 0; i < 40; i++) {
        x = ((hash(i, 3) * 900 - G.cam * 0.1) % 900 + 900) % 900 - 200;
        ctx.fillStyle = "rgba(255,255,230," + (0.4 + 0.5 * hash(i, 4)) + ")";
        ctx.fillRect(x, HUD_H + hash(i, 5) * 170, 2, 2);
      }
      ctx.fillStyle = "#fff6cf"; ctx.beginPath(); ctx.arc(390, HUD_H + 60, 24, 0, 6.283); ctx.fill();
      ctx.fillStyle = SKIES[2][0]; ctx.beginPath(); ctx.arc(400, HUD_H + 54, 20, 0, 6.283); ctx.fill();
    } else if (L === 1) {
      ctx.fillStyle = "rgba(255,240,180,0.85)"; ctx.beginPath(); ctx.arc(360, HUD_H + 250, 46, 0, 6.283); ctx.fill();
    }
    // far hills (parallax 0.3) and near hills (0.6)
    for (var layer = 0; layer < 2; layer++) {
      var par = layer ? 0.6 : 0.3, col = HILLS[L][layer], span = layer ? 260 : 340;
      ctx.fillStyle = col;
      var off = (G.cam * par) % span;
      for (x = -span; x < VIEW_W + span; x += span) {
        var k = Math.floor((G.cam * par + x) / span), hx = x - off, hh = (layer ? 60 : 110) + hash(k, layer) * 50;
        ctx.beginPath(); ctx.moveTo(hx - span * 0.1, HUD_H + 288);
        ctx.quadraticCurveTo(hx + span * 0.4, HUD_H + 288 - hh * 2, hx + span * 0.9, HUD_H + 288); ctx.fill();
      }
    }
    // clouds (parallax 0.2, drifting)
    ctx.fillStyle = L === 2 ? "rgba(200,200,255,0.18)" : "rgba(255,255,255,0.9)";
    for (i = 0; i < 6; i++) {
      var cx = ((i * 170 + 40 - G.cam * 0.2 - time * 0.004) % 1020 + 1020) % 1020 - 120, cy = HUD_H + 30 + hash(i, 9) * 80;
      ctx.beginPath(); ctx.arc(cx, cy, 16, 0, 6.283); ctx.arc(cx + 18, cy - 8, 20, 0, 6.283);
      ctx.arc(cx + 40, cy, 15, 0, 6.283); ctx.rect(cx, cy, 40, 15); ctx.fill();
    }
  }

  function bumpLift(c, r) {
    for (var i = 0; i < G.fx.length; i++) {
      var f = G.fx[i];
      if (f.kind === "bump" && f.c === c && f.r === r && f.t < 10) return f.t < 5 ? f.t : 10 - f.t;
    }
    return 0;
  }

  function drawTiles(time) {
    var L = G.level, c0 = Math.floor(G.cam / TILE), c1 = Math.min(COLS - 1, c0 + 31);
    for (var r = 0; r < ROWS; r++) for (var c = c0; c <= c1; c++) {
      var t = G.grid[r][c];
      if (t === " ") continue;
      var X = c * TILE - G.cam, Y = HUD_H + r * TILE - bumpLift(c, r);
      if (t === "#") {
        ctx.fillStyle = GROUND[L][0]; ctx.fillRect(X, Y, TILE, TILE);
        ctx.fillStyle = GROUND[L][1]; ctx.fillRect(X + 2 + Math.floor(hash(c, r) * 9), Y + 5 + Math.floor(hash(r, c) * 8), 4, 3);
        ctx.fillRect(X, Y + TILE - 1, TILE, 1);
        if (tileAt(c, r - 1) === " " || tileAt(c, r - 1) === "o") {
          ctx.fillStyle = GROUND[L][2]; ctx.fillRect(X, Y, TILE, 4);
          ctx.fillRect(X + 3, Y + 4, 3, 2); ctx.fillRect(X + 10, Y + 4, 2, 3);
        }
      } else if (t === "B") {
        ctx.fillStyle = "#b5532a"; ctx.fillRect(X, Y, TILE, TILE);
        ctx.fillStyle = "#6e2c12"; ctx.fillRect(X, Y + 7, TILE, 1); ctx.fillRect(X, Y + 15, TILE, 1);
        ctx.fillRect(X + 7, Y, 1, 7); ctx.fillRect(X + 3, Y + 8, 1, 7); ctx.fillRect(X + 12, Y + 8, 1, 7);
        ctx.fillStyle = "#e0885a"; ctx.fillRect(X, Y, TILE, 1);
      } else if (t === "?" || t === "U") {
        var used = t === "U";
        ctx.fillStyle = "#3a2410"; ctx.fillRect(X, Y, TILE, TILE);
        var g = ctx.createLinearGradient(X, Y, X, Y + TILE);
        if (used) { g.addColorStop(0, "#a0785a"); g.addColorStop(1, "#7a583c"); }
        else { g.addColorStop(0, "#ffd84a"); g.addColorStop(1, "#e89a1a"); }
        ctx.fillStyle = g; ctx.fillRect(X + 1, Y + 1, TILE - 2, TILE - 2);
        ctx.fillStyle = used ? "#5a3e28" : "#8a4a10";
        ctx.fillRect(X + 2, Y + 2, 1, 1); ctx.fillRect(X + 13, Y + 2, 1, 1); ctx.fillRect(X + 2, Y + 13, 1, 1); ctx.fillRect(X + 13, Y + 13, 1, 1);
        if (!used) {
          var glow = 0.75 + 0.25 * Math.sin(time * 0.006 + c);
          ctx.fillStyle = "rgba(120,50,0," + glow + ")"; ctx.font = "bold 13px monospace"; ctx.textAlign = "center";
          ctx.fillText("?", X + 8, Y + 12);
        }
      } else if (t === "H") {
        ctx.fillStyle = L === 2 ? "#5a5878" : "#9a6a48"; ctx.fillRect(X, Y, TILE, TILE);
        ctx.fillStyle = L === 2 ? "#8a88aa" : "#c8946a"; ctx.fillRect(X, Y, TILE, 2); ctx.fillRect(X, Y, 2, TILE);
        ctx.fillStyle = L === 2 ? "#3a3858" : "#6a4228"; ctx.fillRect(X, Y + 14, TILE, 2); ctx.fillRect(X + 14, Y, 2, TILE);
      } else if (t === "[" || t === "]" || t === "{" || t === "}") {
        var left = t === "[" || t === "{", top = t === "[" || t === "]";
        var px = left ? X : X - 16;   // draw the whole pipe from its left half
        if (!left) continue;
        var fire = isFirePipe(c), pc = fire ? PIPE_FIRE : PIPE_GREEN;
        var pg = ctx.createLinearGradient(px, 0, px + 32, 0);
        pg.addColorStop(0, pc[0]); pg.addColorStop(0.35, pc[1]); pg.addColorStop(1, pc[2]);
        ctx.fillStyle = pg;
        if (top) {
          ctx.fillRect(px - 2, Y, 36, 14); ctx.fillStyle = pc[3]; ctx.fillRect(px - 2, Y + 13, 36, 2); ctx.strokeStyle = pc[3]; ctx.lineWidth = 1; ctx.strokeRect(px - 1.5, Y + 0.5, 35, 13); ctx.fillStyle = pg; ctx.fillRect(px + 1, Y + 15, 30, 1);
          if (fire) { ctx.fillStyle = "#2a0a04"; ctx.fillRect(px + 4, Y + 1, 24, 3); }   // the dark mouth
        }
        else {
          ctx.fillRect(px + 1, Y, 30, TILE); ctx.fillStyle = pc[3]; ctx.fillRect(px + 1, Y, 1, TILE); ctx.fillRect(px + 30, Y, 1, TILE);
          if (fire) { ctx.fillStyle = "#ffb040"; ctx.fillRect(px + 12, Y + 5, 8, 2); ctx.fillRect(px + 15, Y + 3, 2, 6); }   // a flame badge
        }
      } else if (t === "X") {
        ctx.fillStyle = "#4a4658"; ctx.fillRect(X, Y, TILE, TILE);
        ctx.fillStyle = "#6e6a82"; ctx.fillRect(X + 1, Y + 1, TILE - 2, TILE - 2);
        ctx.fillStyle = "#8c88a2"; ctx.fillRect(X + 1, Y + 1, TILE - 2, 2);
        ctx.fillStyle = "#4a4658"; ctx.fillRect(X, Y + ((r & 1) ? 8 : 0), TILE, 1); ctx.fillRect(X + ((r & 1) ? 4 : 11), Y, 1, TILE);
        if (tileAt(c, r + 1) === "v") { ctx.fillStyle = "#2e2a3c"; ctx.fillRect(X, Y + TILE - 3, TILE, 3); }
      } else if (t === "v") {
        ctx.fillStyle = "#e8ecf4"; ctx.strokeStyle = "#5a1020"; ctx.lineWidth = 1;
        for (var k = 0; k < 2; k++) {
          ctx.beginPath(); ctx.moveTo(X + k * 8, Y); ctx.lineTo(X + k * 8 + 4, Y + 11); ctx.lineTo(X + k * 8 + 8, Y);
          ctx.closePath(); ctx.fill(); ctx.stroke();
        }
        ctx.fillStyle = "#ff3a5a"; ctx.fillRect(X + 3, Y + 8, 2, 2); ctx.fillRect(X + 11, Y + 8, 2, 2);
      } else if (t === "o") {
        drawCoin(X + 8, Y + 8, time, c + r);
      }
    }
  }

  var PIPE_GREEN = ["#1f8a2e", "#7be07a", "#136b22", "#0c4a16"], PIPE_FIRE = ["#8a2a1a", "#e0704a", "#5e1a0e", "#3a0c06"];
  function isFirePipe(c) {
    for (var i = 0; i < G.flames.length; i++) if (G.flames[i].c === c) return true;
    return false;
  }

  function drawFlames(time) {
    G.flames.forEach(function (f, i) {
      var x = f.x - G.cam, top = HUD_H + f.top, ph = flamePhase(f), k;
      if (x < -40 || x > VIEW_W + 40) return;
      if (flameOn(f)) {   // the blast: a column of fire from the mouth to the top of the sky
        var g = ctx.createLinearGradient(x, 0, x + FLAME_W, 0);
        g.addColorStop(0, "rgba(255,80,20,0.85)"); g.addColorStop(0.5, "rgba(255,200,60,0.95)"); g.addColorStop(1, "rgba(255,80,20,0.85)");
        ctx.fillStyle = g; ctx.fillRect(x, HUD_H, FLAME_W, f.top);
        ctx.fillStyle = "rgba(255,250,200,0.9)"; ctx.fillRect(x + 7, HUD_H, 6, f.top);
        ctx.fillStyle = "rgba(255,120,30,0.7)";
        for (k = 0; k < 8; k++) {   // licks along the edges (drawing only)
          var w = 3 + hash(k, i) * 4, y1 = HUD_H + (k * 37 + time * 0.25 + i * 50) % f.top, y2 = HUD_H + (k * 37 + 19 + time * 0.3) % f.top;
          ctx.fillRect(x - w, y1, w, 8); ctx.fillRect(x + FLAME_W, y2, w, 8);
        }
      } else if (f.period - ph <= FLAME_WARN) {   // about to blast: the mouth glows and spits sparks (harmless)
        var a = 1 - (f.period - ph) / FLAME_WARN;
        ctx.fillStyle = "rgba(255,160,40," + (0.35 + 0.6 * a) + ")";
        ctx.beginPath(); ctx.ellipse(x + FLAME_W / 2, top, 12, 3 + 9 * a, 0, 3.1416, 0); ctx.fill();
        ctx.fillStyle = "rgba(255,240,160," + a + ")";
        for (k = 0; k < 4; k++) ctx.fillRect(x + 3 + k * 4, top - 4 - hash(k, Math.floor(time / 60)) * 16 * a, 2, 2);
      }
    });
  }

  function drawCoin(x, y, time, i) {
    var w = Math.abs(Math.cos(time * 0.006 + i * 0.7)) * 5 + 1;
    ctx.fillStyle = "#a86e00"; ctx.beginPath(); ctx.ellipse(x, y, w, 7, 0, 0, 6.283); ctx.fill();
    ctx.fillStyle = "#ffd23a"; ctx.beginPath(); ctx.ellipse(x, y, Math.max(0.5, w - 1.5), 5.5, 0, 0, 6.283); ctx.fill();
    ctx.fillStyle = "#fff6c0"; ctx.fillRect(x - 1, y - 4, 1.5, 4);
  }

  function drawPoles(time) {
    var L = G.level;
    // checkpoint flag
    var x = G.cpCol * TILE + 8 - G.cam, base = HUD_H + 18 * TILE;
    if (x > -40 && x < VIEW_W + 40) {
      ctx.fillStyle = "#ddd"; ctx.fillRect(x - 1, base - 56, 3, 56);
      ctx.fillStyle = "#999"; ctx.beginPath(); ctx.arc(x + 0.5, base - 58, 3, 0, 6.283); ctx.fill();
      var wave = Math.sin(time * 0.01) * 2;
      ctx.fillStyle = G.cpHit ? "#40d060" : "#d04040";
      ctx.beginPath(); ctx.moveTo(x + 2, base - 54); ctx.lineTo(x + 22, base - 48 + wave); ctx.lineTo(x + 2, base - 40); ctx.fill();
      ctx.fillStyle = "#fff"; ctx.font = "bold 9px monospace"; ctx.textAlign = "center";
      ctx.fillText(G.cpHit ? "\u2713" : "CP", x + 9, base - 45);
    }
    // goal pole and castle
    x = G.flagCol * TILE + 8 - G.cam;
    if (x > -80 && x < VIEW_W + 80) {
      ctx.fillStyle = "#d8e0e0"; ctx.fillRect(x - 1, base - 150, 3, 150);
      ctx.fillStyle = "#2fae40"; ctx.beginPath(); ctx.arc(x + 0.5, base - 152, 5, 0, 6.283); ctx.fill();
      var fw = Math.sin(time * 0.008) * 3;
      ctx.fillStyle = "#fff"; ctx.beginPath(); ctx.moveTo(x, base - 146); ctx.lineTo(x - 26, base - 138 + fw); ctx.lineTo(x, base - 128); ctx.fill();
      ctx.fillStyle = "#e03030"; ctx.beginPath(); ctx.arc(x - 10, base - 138, 4, 0, 6.283); ctx.fill();
      ctx.fillStyle = "#7a7a8a"; ctx.fillRect(x - 4, base - 8, 9, 8);
      var cx = x + 24, cw = 52, ch = 56;   // castle
      ctx.fillStyle = L === 2 ? "#5a5070" : "#b06a40"; ctx.fillRect(cx, base - ch, cw, ch);
      for (var i = 0; i < 4; i++) ctx.fillRect(cx + i * 14, base - ch - 8, 9, 8);
      ctx.fillStyle = "#2a1a10"; ctx.fillRect(cx + 18, base - 24, 16, 24);
      ctx.beginPath(); ctx.arc(cx + 26, base - 24, 8, 3.1416, 0); ctx.fill();
      ctx.fillStyle = L === 2 ? "#ffe080" : "#3a2a20"; ctx.fillRect(cx + 8, base - 44, 6, 8); ctx.fillRect(cx + 38, base - 44, 6, 8);
    }
  }

  function drawWalker(e, time) {
    var x = e.x - G.cam, y = HUD_H + e.y;
    if (x < -20 || x > VIEW_W + 20) return;
    if (!e.alive) {
      if (G.t - e.deadT > 30) return;
      ctx.fillStyle = "#8a4a20"; ctx.beginPath(); ctx.ellipse(x + 7, y + 11, 9, 3.5, 0, 0, 6.283); ctx.fill();
      ctx.fillStyle = "#fff"; ctx.fillRect(x + 2, y + 10, 3, 1); ctx.fillRect(x + 9, y + 10, 3, 1);
      return;
    }
    var step = Math.floor(time / 150) % 2;
    ctx.fillStyle = "#2a1208"; ctx.fillRect(x + (step ? 0 : 1), y + 11, 6, 3); ctx.fillRect(x + (step ? 9 : 8), y + 11, 6, 3);
    ctx.fillStyle = "#f2d0a0"; ctx.fillRect(x + 3, y + 8, 8, 4);
    var bg = ctx.createLinearGradient(0, y, 0, y + 9);
    bg.addColorStop(0, "#c0682a"); bg.addColorStop(1, "#8a4418");
    ctx.fillStyle = bg; ctx.beginPath(); ctx.ellipse(x + 7, y + 6, 8, 6.5, 0, 3.1416, 0); ctx.lineTo(x + 15, y + 9); ctx.lineTo(x - 1, y + 9); ctx.fill();
    ctx.fillStyle = "#fff"; ctx.fillRect(x + 3, y + 3, 3, 4); ctx.fillRect(x + 8, y + 3, 3, 4);
    ctx.fillStyle = "#111"; ctx.fillRect(x + 4 + (e.dir > 0 ? 1 : 0), y + 4, 1.5, 3); ctx.fillRect(x + 9 + (e.dir > 0 ? 1 : 0), y + 4, 1.5, 3);
    ctx.fillStyle = "#3a1a08"; ctx.fillRect(x + 2, y + 2, 4, 1); ctx.fillRect(x + 8, y + 2, 4, 1);
  }

  function drawHero(time) {
    var x = G.px - G.cam, y = HUD_H + G.py;
    if (G.dying > 0) {   // the knocked-out hop, a pure function of the dying timer
      var k = DYING - G.dying;
      y = HUD_H + G.deathY - 3 * k + 0.12 * k * k;
    } else if (G.inv > 0 && Math.floor(G.inv / 4) % 2) return;
    var run = G.onGround && (keys.left || keys.right) ? Math.floor(G.t / 4) % 2 : 0, air = !G.onGround || G.dying > 0;
    ctx.save(); ctx.translate(Math.round(x + PW / 2), Math.round(y + PH)); ctx.scale(G.face, 1);
    ctx.fillStyle = "#1a1020"; ctx.fillRect(-7, -19, 14, 19);
    ctx.fillStyle = "#5a2e10";
    if (air) { ctx.fillRect(-6, -4, 5, 3); ctx.fillRect(2, -3, 5, 3); }
    else { ctx.fillRect(-6, -3 - run, 5, 3); ctx.fillRect(1, -3 - (1 - run), 5, 3); }
    ctx.fillStyle = "#2f5cd0"; ctx.fillRect(-6, -9, 12, 6);          // overalls
    ctx.fillStyle = "#e23a2a"; ctx.fillRect(-6, -11, 12, 3);         // shirt
    ctx.fillStyle = "#ffd84a"; ctx.fillRect(-4, -8, 2, 2); ctx.fillRect(2, -8, 2, 2);
    ctx.fillStyle = "#f6c892"; ctx.fillRect(-5, -16, 10, 5);         // face
    ctx.fillStyle = "#e23a2a"; ctx.fillRect(-6, -18, 12, 3); ctx.fillRect(2, -16, 6, 2);   // cap
    ctx.fillStyle = "#111"; ctx.fillRect(1, -14, 2, 2);
    ctx.fillStyle = "#5a2e10"; ctx.fillRect(1, -12, 4, 1);           // moustache
    ctx.fillStyle = "#f6c892"; ctx.fillRect(air ? 4 : 3, air ? -13 : -8, 3, 3);
    ctx.restore();
  }

  function drawFx() {
    G.fx.forEach(function (f) {
      if (f.kind === "coin") {
        var y = HUD_H + f.y - 8 - f.t * 3 + f.t * f.t * 0.1;
        if (f.t < 24) drawCoin(f.x - G.cam, y, f.t * 40, 0);
      } else if (f.kind === "spark") {
        ctx.fillStyle = "rgba(255,240,150," + Math.max(0, 1 - f.t / 16) + ")";
        for (var i = 0; i < 4; i++) {
          var dx = (i % 2 ? 1 : -1) * f.t * 0.8, dy = (i < 2 ? 1 : -1) * f.t * 0.8;
          ctx.fillRect(f.x - G.cam + dx - 1, HUD_H + f.y + dy - 1, 3, 3);
        }
      } else if (f.kind === "text") {
        ctx.fillStyle = f.color; ctx.globalAlpha = Math.max(0, 1 - f.t / 40);
        ctx.font = "bold 11px monospace"; ctx.textAlign = "center";
        ctx.fillText(f.text, f.x - G.cam, HUD_H + f.y - f.t * 0.6);
        ctx.globalAlpha = 1;
      }
    });
  }

  function drawHUD() {
    var g = ctx.createLinearGradient(0, 0, 0, HUD_H);
    g.addColorStop(0, "#1c2340"); g.addColorStop(1, "#0e1226");
    ctx.fillStyle = g; ctx.fillRect(0, 0, VIEW_W, HUD_H);
    ctx.fillStyle = "#ffd84a"; ctx.fillRect(0, HUD_H - 2, VIEW_W, 2);
    ctx.textAlign = "left"; ctx.font = "bold 10px monospace"; ctx.fillStyle = "#9fb0e0";
    ctx.fillText("SCORE", 10, 15); ctx.fillText("COINS", 92, 15); ctx.fillText("STOMPS", 160, 15);
    ctx.fillText("WORLD", 236, 15); ctx.fillText("FLAGS", 336, 15); ctx.fillText("LIVES", 410, 15);
    ctx.font = "bold 15px monospace"; ctx.fillStyle = "#ffffff";
    ctx.fillText(("000000" + G.score).slice(-6), 10, 32);
    drawCoin(98, 27, 0, 0); ctx.fillText("\u00d7" + G.coins, 106, 32);
    ctx.fillText(String(G.stomps), 166, 32);
    ctx.fillText(String(G.level + 1) + "/3", 238, 32);
    for (var i = 0; i < 6; i++) {   // two flags a world: checkpoint and goal
      ctx.fillStyle = i < G.checkpoints ? (i % 2 ? "#ffd84a" : "#40d060") : "#3a4266";
      ctx.fillRect(338 + i * 10 + (i >> 1) * 3, 22, 7, 10);
    }
    for (i = 0; i < LIVES; i++) {
      var hx = 414 + i * 20, hy = 26, on = i < G.lives;
      ctx.fillStyle = on ? "#ff4a5a" : "#3a4266";
      ctx.beginPath(); ctx.arc(hx - 3, hy - 2, 4, 0, 6.283); ctx.arc(hx + 3, hy - 2, 4, 0, 6.283); ctx.fill();
      ctx.beginPath(); ctx.moveTo(hx - 7, hy); ctx.lineTo(hx, hy + 7); ctx.lineTo(hx + 7, hy); ctx.fill();
    }
  }

  function drawBanners() {
    if (G.banner > 0 && !G.over) {
      var a = Math.min(1, G.banner / 20);
      ctx.fillStyle = "rgba(10,14,34," + 0.7 * a + ")"; ctx.fillRect(120, HUD_H + 70, 240, 44);
      ctx.fillStyle = "rgba(255,216,74," + a + ")"; ctx.font = "bold 18px monospace"; ctx.textAlign = "center";
      ctx.fillText("WORLD " + WORLD_NAMES[G.level], 240, HUD_H + 98);
    }
    if (!G.over) return;
    var win = G.outcome === "win";
    ctx.fillStyle = "rgba(6,8,20,0.62)"; ctx.fillRect(0, HUD_H, VIEW_W, WORLD_H);
    ctx.fillStyle = win ? "#1f4a2c" : "#4a1f26"; ctx.fillRect(100, 130, 280, 92);
    ctx.strokeStyle = win ? "#7dff9a" : "#ff6f6f"; ctx.lineWidth = 3; ctx.strokeRect(100, 130, 280, 92);
    ctx.textAlign = "center"; ctx.fillStyle = "#fff"; ctx.font = "bold 24px monospace";
    ctx.fillText(win ? "ALL WORLDS CLEAR!" : "GAME OVER", 240, 162);
    ctx.font = "12px monospace"; ctx.fillStyle = "#e8def8";
    ctx.fillText("Score " + G.score + "   Coins " + G.coins + "   Stomps " + G.stomps, 240, 186);
    ctx.fillStyle = "#b0a8d0"; ctx.fillText("Press Enter to play again", 240, 206);
  }

  function draw() {
    var time = performance.now() - shownSince;
    drawBackdrop(time);
    drawTiles(time);
    drawPoles(time);
    drawFlames(time);
    G.enemies.forEach(function (e) { drawWalker(e, time); });
    if (!(G.over && G.outcome === "lose")) drawHero(time);
    drawFx();
    drawHUD();
    drawBanners();
  }

  // The sandbox runs much of a step's game time unseen and sets window.__gameworld.rendering to false
  // meanwhile: skip the drawing then (never the logic). A plain browser has no __gameworld: always draw.
  function rendering() {
    var gw = window.__gameworld;
    return !(gw && gw.rendering === false);
  }

  // ---------------------------------------------------------------- main loop (fixed 60 Hz ticks)
  // catchUp() runs every tick due by now; it is called on each frame, before each key event and before
  // each state read, so a key held for 250 ms acts for exactly 15 ticks.
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
  draw();   // the first frame exists before the game reports actionable
  requestAnimationFrame(frame);
})();
