// Dash & Dive: a one-screen-a-level parkour platformer for the GameWorld platform.
// Run, jump, slide under spiked gaps, dive across pits and wall-jump up chimneys to each level's exit door.
// Logic runs in fixed 60 Hz ticks counted from the (virtual) clock; chance comes only from Math.random (the
// level order, the coin spot of each level, the moving platforms' phases, which levels are mirrored left to
// right and the start spot on each, all drawn at the start of an attempt). Positions are integers in 1/16 px;
// no transcendental maths in logic.
(function () {
  "use strict";

  var TILE = 16, COLS = 30, ROWS = 20, W = 480, H = 360, HUD_H = 40, S = 16, TS = TILE * S;
  var PW = 10, PH = 22, PH_LOW = 12;            // hitbox in px: standing, and sliding/diving
  var RUN = 48, FRICTION = 12, OVER_DECAY = 2;    // speeds in 1/16 px a tick
  var AIR_ACC = 6, AIR_DRAG = 2, AIR_OVER = 1;
  var GRAV = 6, MAX_FALL = 128, JUMP_V = 108, WALL_SLIDE = 32;
  var WJ_VX = 48, WJ_V = 104, WALL_LOCK = 8;
  var SLIDE_V = 64, SLIDE_MIN = 40, SLIDE_T = 12;
  var DIVE_VX = 96, DIVE_VY = 24;
  var JUMP_BUFFER = 8, COYOTE = 5, DYING = 36, LIVES = 3;
  var START_SHIFT = 24;                           // px: the most a seed moves the start inwards

  // ---------------------------------------------------------------- levels (30 x 20 tiles of 16 px)
  // '#' wall, '^' floor spikes, 'v' hanging spikes (you cannot stand up into them), 'S' start (feet on the
  // tile below), 'D' exit door (its lower tile), 'c' a spot the level's coin may take (one is drawn).
  // Platforms: [x0, y0, x1, y1, width] in px (the top edge; one axis moves) and speed in 1/16 px a tick.
  var LEVELS = [
    { name: "WARM-UP", par: 240, plats: [], rows: [
      "##############################",
      "#    ##                      #",
      "#    ##                      #",
      "#    ##                      #",
      "#    ##                      #",
      "#    ##          c           #",
      "#    ##                      #",
      "#    vv                 c    #",
      "#  D       ^^^^              #",
      "#####################        #",
      "#####################        #",
      "#           ######           #",
      "#           ######    ##     #",
      "#           ######           #",
      "#           ######           #",
      "#           ######       ### #",
      "#           vvvvvv           #",
      "#S    ^^^^                   #",
      "##############################",
      "##############################"] },
    { name: "CHIMNEY", par: 252, plats: [], rows: [
      "##############################",
      "#                            #",
      "#                            #",
      "#                            #",
      "#          c                 #",
      "#                            #",
      "#                       #    #",
      "#                       #    #",
      "#  D    ^^^^^^^^        #    #",
      "#########################    #",
      "#########################    #",
      "#                       #    #",
      "#                       #    #",
      "#                       #  c #",
      "#                       #    #",
      "#                       #    #",
      "#                            #",
      "#S    ^^^          ^^        #",
      "##############################",
      "##############################"] },
    { name: "FERRY", par: 264, plats: [[64, 288, 176, 288, 48, 24], [224, 288, 336, 288, 48, 32]], rows: [
      "##############################",
      "#                            #",
      "#                            #",
      "#                            #",
      "#                            #",
      "#                            #",
      "#       c                    #",
      "#                            #",
      "# D             ^^^          #",
      "########     ###########     #",
      "########     ###########     #",
      "#                            #",
      "#                       ##   #",
      "#                            #",
      "#                            #",
      "#              c          ####",
      "#                            #",
      "#S                      ^^   #",
      "####                    ######",
      "####                    ######"] },
    { name: "LONG DIVE", par: 258, plats: [], rows: [
      "##############################",
      "#                            #",
      "#                            #",
      "#                            #",
      "#  ######                    #",
      "#  vvvvvv            c       #",
      "#D            ^^             #",
      "##########################   #",
      "##########################   #",
      "#                 ########   #",
      "#                 ########   #",
      "#                 ########   #",
      "#                 ########   #",
      "#          c      ########   #",
      "#                 ########   #",
      "#                 ########   #",
      "#                 vvvvvvvv ###",
      "#S                         ###",
      "#######        ###############",
      "#######        ###############"] },
    { name: "ELEVATOR", par: 264, plats: [[224, 272, 224, 112, 48, 40]], rows: [
      "##############################",
      "#                      ##    #",
      "#                      ##    #",
      "#                      ##    #",
      "#              c       ##    #",
      "#                      vv    #",
      "#                   c     D  #",
      "#                    #########",
      "#                    #########",
      "#                    #########",
      "#                    #########",
      "#                    #########",
      "#                    #########",
      "#                    #########",
      "#                    #########",
      "#                    #########",
      "#                    #########",
      "#S   ^^     ^^^^^^^^^#########",
      "##############################",
      "##############################"] },
    { name: "GAUNTLET", par: 192, plats: [], rows: [
      "##############################",
      "#    ######                  #",
      "#    ######                  #",
      "#    ######                  #",
      "#    ######             c    #",
      "#    ######                  #",
      "#    ######              D   #",
      "#    ######    #    ##########",
      "#    ######    #    ##########",
      "#    ######    #    ##########",
      "#    ######    #    ##########",
      "#    ######    #  c ##########",
      "#    ######    #    ##########",
      "#    ######    #    ##########",
      "#    ######    #    ##########",
      "#    ######    #    ##########",
      "#    vvvvvv         ##########",
      "#S               ^^ ##########",
      "##############################",
      "##############################"] },
    { name: "FINALE", par: 300, plats: [[80, 288, 192, 288, 48, 24]], rows: [
      "##############################",
      "#  ####                      #",
      "#  ####                      #",
      "#  ####             c        #",
      "#  ####                 #    #",
      "#  vvvv                 #    #",
      "#D         ^^^^         #    #",
      "#########################    #",
      "#########################    #",
      "#    ##########         #    #",
      "#    ##########         #    #",
      "#    ##########         #    #",
      "#    ##########         #    #",
      "#    vvvvvvvvvv         #    #",
      "#                       #    #",
      "#                       #  c #",
      "#                            #",
      "#S                           #",
      "#####          ###      ######",
      "#####          ###      ######"] }
  ];
  var NLEV = LEVELS.length;

  // ---------------------------------------------------------------- game state
  var G = null;
  var keys = { left: false, right: false, down: false };
  var shownSince = 0;   // drawing only: animations count from the attempt's start

  function newGame() {
    var order = [], i;
    for (i = 0; i < NLEV; i++) order.push(i);
    for (i = NLEV - 1; i > 0; i--) {      // the seed shuffles the levels (Fisher-Yates)
      var j = Math.floor(Math.random() * (i + 1)), swap = order[i];
      order[i] = order[j]; order[j] = swap;
    }
    var coinPick = [], phase = [];
    for (i = 0; i < NLEV; i++) {
      var n = 0, r, c;
      for (r = 0; r < ROWS; r++) for (c = 0; c < COLS; c++) if (LEVELS[i].rows[r][c] === "c") n++;
      coinPick.push(Math.floor(Math.random() * n));
      var ph = [];
      for (var k = 0; k < LEVELS[i].plats.length; k++) ph.push(Math.floor(Math.random() * 16) * 16);
      phase.push(ph);
    }
    var mirror = [];                      // a seed may mirror each level left to right
    for (i = 0; i < NLEV; i++) mirror.push((Math.floor(Math.random() * 256) & 1) === 1);
    var startShift = [];                  // and where on its start tile's floor the hero stands: 0-24 px inwards
    for (i = 0; i < NLEV; i++) startShift.push(Math.floor(Math.random() * (START_SHIFT + 1)));
    G = { t: 0, order: order, coinPick: coinPick, phase: phase, mirror: mirror, startShift: startShift,
          idx: 0, cleared: 0, coins: 0, parClears: 0,
          lives: LIVES, deaths: 0, over: false, outcome: null, reason: null, overT: 0, fx: [], trail: [],
          banner: 0, lastClear: null };
    loadLevel(0);
    shownSince = performance.now();
  }

  function loadLevel(idx) {
    G.idx = idx;
    G.lid = G.order[idx];
    var L = LEVELS[G.lid], r, c, k = 0;
    G.grid = [];
    G.coin = null; G.door = null; G.start = null;
    for (r = 0; r < ROWS; r++) {
      var row = L.rows[r].split("");
      if (G.mirror[G.lid]) row.reverse();
      for (c = 0; c < COLS; c++) {
        var ch = row[c];
        if (ch === "S") { G.start = [c, r]; row[c] = " "; }
        else if (ch === "D") { G.door = [c, r]; row[c] = " "; }
        else if (ch === "c") { if (k === G.coinPick[G.lid]) G.coin = [c, r]; k++; row[c] = " "; }
      }
      G.grid.push(row);
    }
    G.coinTaken = false;
    G.lt = 0;
    G.plats = L.plats.map(function (p, i) {
      var x0 = G.mirror[G.lid] ? W - p[4] - p[0] : p[0], x1 = G.mirror[G.lid] ? W - p[4] - p[2] : p[2];
      return { x0: x0 * S, y0: p[1] * S, x1: x1 * S, y1: p[3] * S, w: p[4], sp: p[5], ph: G.phase[G.lid][i],
               x: 0, y: 0, dx: 0, dy: 0 };
    });
    placePlats();
    G.banner = 50;
    spawn();
  }

  function platPos(p, t) {
    var len = Math.max(Math.abs(p.x1 - p.x0), Math.abs(p.y1 - p.y0));
    var u = (p.ph * S + t * p.sp) % (2 * len);
    var d = u < len ? u : 2 * len - u;
    return [p.x0 + sign(p.x1 - p.x0) * d, p.y0 + sign(p.y1 - p.y0) * d];
  }

  function placePlats() {
    for (var i = 0; i < G.plats.length; i++) {
      var p = G.plats[i], a = platPos(p, G.lt - 1), b = platPos(p, G.lt);
      p.x = b[0]; p.y = b[1]; p.dx = b[0] - a[0]; p.dy = b[1] - a[1];
    }
  }

  function sign(v) { return v > 0 ? 1 : (v < 0 ? -1 : 0); }

  function spawn() {
    var inwards = G.mirror[G.lid] ? -1 : 1;
    G.h = { px: (G.start[0] * TILE + 3 + inwards * G.startShift[G.lid]) * S, py: ((G.start[1] + 1) * TILE - PH) * S,
            vx: 0, vy: 0, face: inwards,
            ground: true, low: false, sliding: false, diving: false, dived: false, slideT: 0, wallLock: 0,
            jumpBuf: 0, coyote: COYOTE, plat: -1, dying: 0, wall: 0 };
    G.downPress = false;
  }

  function tileAt(c, r) {
    if (c < 0 || c >= COLS) return "#";
    if (r < 0 || r >= ROWS) return " ";
    return G.grid[r][c];
  }

  function solidIn(x, y, w, h, spikesBlock) {   // any wall tile (or hanging spike) in the box (1/16 px)
    var c0 = x >> 8, c1 = (x + w - 1) >> 8, r0 = y >> 8, r1 = (y + h - 1) >> 8;
    for (var r = r0; r <= r1; r++) for (var c = c0; c <= c1; c++) {
      var t = tileAt(c, r);
      if (t === "#" || (spikesBlock && t === "v")) return true;
    }
    return false;
  }

  function hgt() { return (G.h.low ? PH_LOW : PH) * S; }

  function moveX(dx) {
    var h = G.h, hh = hgt(), nx = h.px + dx;
    if (dx > 0 && solidIn(nx, h.py, PW * S, hh)) { nx = (((nx + PW * S - 1) >> 8) << 8) - PW * S; h.px = nx; return true; }
    if (dx < 0 && solidIn(nx, h.py, PW * S, hh)) { nx = ((nx >> 8) + 1) << 8; h.px = nx; return true; }
    h.px = nx;
    return false;
  }

  function touching(side) {   // a wall right beside the hero: side -1 left, 1 right
    var h = G.h;
    return side < 0 ? solidIn(h.px - 1, h.py, 1, hgt(), false) : solidIn(h.px + PW * S, h.py, 1, hgt(), false);
  }

  function approach(v, target, step) {
    if (v < target) return Math.min(v + step, target);
    if (v > target) return Math.max(v - step, target);
    return v;
  }

  function popup(text, x, y, color) { G.fx.push({ kind: "text", text: text, x: x, y: y, t: 0, color: color }); }

  function die(reason) {
    var h = G.h;
    G.deaths++; G.lives--; G.reason = reason;
    h.dying = DYING; h.deathX = h.px; h.deathY = h.py;
    G.fx.push({ kind: "burst", x: (h.px >> 4) + PW / 2, y: (h.py >> 4) + 10, t: 0 });
  }

  function tick() {
    var i;
    for (i = G.fx.length - 1; i >= 0; i--) { G.fx[i].t++; if (G.fx[i].t > 45) G.fx.splice(i, 1); }
    if (G.over) { G.overT++; return; }
    G.t++;
    if (G.banner > 0) G.banner--;
    var h = G.h;
    if (h.dying > 0) {
      h.dying--;
      if (h.dying === 0) {
        if (G.lives <= 0) { G.over = true; G.outcome = "lose"; G.reason = "out of lives (" + G.reason + ")"; return; }
        spawn();
      }
      return;
    }
    G.lt++;
    placePlats();
    // ride a platform
    if (h.plat >= 0) { var rp = G.plats[h.plat]; moveX(rp.dx); h.py = rp.y - hgt(); }
    var dir = (keys.right ? 1 : 0) - (keys.left ? 1 : 0);
    if (dir && !h.sliding && !h.diving && h.wallLock === 0) h.face = dir;
    // Down: slide on the ground, dive in the air (once a jump)
    if (G.downPress) {
      G.downPress = false;
      if (h.ground) {
        if (!h.sliding) {
          if (!h.low) { h.low = true; h.py += (PH - PH_LOW) * S; }
          h.sliding = true; h.slideT = SLIDE_T;
          h.vx = h.face * Math.max(Math.abs(h.vx), SLIDE_V);
          if (sign(h.vx) !== h.face) h.vx = h.face * SLIDE_V;
        }
      } else if (!h.dived) {
        if (!h.low) { h.low = true; h.py += (PH - PH_LOW) / 2 * S; }
        h.diving = true; h.dived = true; h.sliding = false; h.wallLock = 0;
        h.vx = h.face * DIVE_VX; h.vy = Math.max(h.vy, DIVE_VY);
        G.fx.push({ kind: "ring", x: (h.px >> 4) + PW / 2, y: (h.py >> 4) + 6, t: 0 });
      }
    }
    // jump: from the ground (or just after leaving it), or off a wall beside you in the air
    if (h.jumpBuf > 0) {
      var wl = touching(-1), wr = touching(1);
      if (h.ground || h.coyote > 0) {
        h.vy = -JUMP_V; h.ground = false; h.coyote = 0; h.jumpBuf = 0; h.sliding = false; h.plat = -1;
      } else if (wl || wr) {
        var away = wr ? -1 : 1;
        h.vx = away * WJ_VX; h.vy = -WJ_V; h.face = away; h.wallLock = WALL_LOCK; h.jumpBuf = 0;
        h.diving = false; h.dived = false;
        G.fx.push({ kind: "kick", x: wr ? (h.px >> 4) + PW : (h.px >> 4), y: (h.py >> 4) + 8, t: 0 });
      } else h.jumpBuf--;
    }
    // horizontal speed
    if (h.sliding) {
      if (Math.abs(h.vx) > SLIDE_MIN) h.vx -= sign(h.vx);
      if (h.slideT > 0) h.slideT--;
    } else if (h.diving) {
      // a dive keeps its speed until it lands or meets a wall
    } else if (h.wallLock > 0) {
      h.wallLock--;
    } else if (h.ground) {
      if (dir) h.vx = h.vx * dir < RUN ? dir * RUN : approach(h.vx, dir * RUN, OVER_DECAY);
      else h.vx = approach(h.vx, 0, FRICTION);
    } else {
      if (dir) h.vx = h.vx * dir < RUN ? approach(h.vx, dir * RUN, AIR_ACC) : approach(h.vx, dir * RUN, AIR_OVER);
      else h.vx = approach(h.vx, 0, AIR_DRAG);
    }
    if (moveX(h.vx)) {
      if (h.diving) h.diving = false;
      if (h.sliding) h.vx = 0; else h.vx = 0;
    }
    // vertical
    h.wall = 0;
    if (!h.ground) {
      if (dir && touching(dir)) h.wall = dir;
    }
    h.vy = Math.min(h.vy + GRAV, MAX_FALL);
    if (h.wall && h.vy > WALL_SLIDE && !h.diving) h.vy = WALL_SLIDE;
    var hh = hgt(), oldBottom = h.py + hh, ny = h.py + h.vy;
    var wasGround = h.ground;
    h.ground = false; h.plat = -1;
    if (h.vy > 0) {
      if (solidIn(h.px, ny, PW * S, hh, false)) {
        ny = (((ny + hh - 1) >> 8) << 8) - hh; h.vy = 0; h.ground = true;
      } else {
        for (i = 0; i < G.plats.length; i++) {
          var p = G.plats[i];
          if (h.px < p.x + p.w * S && h.px + PW * S > p.x && oldBottom <= Math.max(p.y - p.dy, p.y) && ny + hh >= p.y) {
            ny = p.y - hh; h.vy = 0; h.ground = true; h.plat = i; break;
          }
        }
      }
    } else if (h.vy < 0) {
      if (solidIn(h.px, ny, PW * S, hh, false)) { ny = ((ny >> 8) + 1) << 8; h.vy = 0; }
    }
    h.py = ny;
    if (h.ground) {
      h.coyote = COYOTE; h.dived = false;
      if (h.diving) {
        h.diving = false; h.sliding = true; h.slideT = SLIDE_T;
        G.fx.push({ kind: "dust", x: (h.px >> 4) + PW / 2, y: (h.py + hh) >> 4, t: 0 });
      } else if (!wasGround) G.fx.push({ kind: "dust", x: (h.px >> 4) + PW / 2, y: (h.py + hh) >> 4, t: 0 });
    } else {
      h.coyote = Math.max(0, h.coyote - 1);
      h.sliding = false;
    }
    // end a slide once Down is up and the timer is out, if there is room to stand
    if (h.sliding && h.slideT === 0 && !keys.down) {
      if (!solidIn(h.px, h.py - (PH - PH_LOW) * S, PW * S, PH * S, true)) {
        h.sliding = false; h.low = false; h.py -= (PH - PH_LOW) * S;
      } else if (h.vx === 0) h.vx = h.face * SLIDE_MIN;
    } else if (h.low && !h.sliding && !h.diving) {
      var grow = h.ground ? (PH - PH_LOW) * S : (PH - PH_LOW) / 2 * S;
      if (!solidIn(h.px, h.py - grow, PW * S, PH * S, true)) { h.low = false; h.py -= grow; }
    }
    // trail (drawing only reads it)
    G.trail.push([h.px >> 4, h.py >> 4, h.low ? 1 : 0]);
    if (G.trail.length > 8) G.trail.shift();
    // hazards
    hh = hgt();
    var x0 = h.px >> 4, y0 = h.py >> 4, x1 = x0 + PW, y1 = y0 + (hh >> 4);
    var c0 = x0 >> 4, c1 = (x1 - 1) >> 4, r0 = y0 >> 4, r1 = (y1 - 1) >> 4, r, c;
    for (r = r0; r <= r1; r++) for (c = c0; c <= c1; c++) {
      var t = tileAt(c, r), bx = c * TILE, by = r * TILE;
      if ((t === "^" && x0 < bx + 14 && x1 > bx + 2 && y1 > by + 7) ||
          (t === "v" && x0 < bx + 14 && x1 > bx + 2 && y0 < by + 12)) { die("spikes"); return; }
    }
    if (y0 > ROWS * TILE) { die("fell"); return; }
    // coin
    if (G.coin && !G.coinTaken) {
      var cx = G.coin[0] * TILE, cy = G.coin[1] * TILE;
      if (x0 < cx + 14 && x1 > cx + 2 && y0 < cy + 14 && y1 > cy + 2) {
        G.coinTaken = true; G.coins++;
        G.fx.push({ kind: "spark", x: cx + 8, y: cy + 8, t: 0 });
        popup("+1 COIN", cx + 8, cy - 4, "#ffe066");
      }
    }
    // exit door
    var dx = G.door[0] * TILE, dy = G.door[1] * TILE;
    if (x0 < dx + 12 && x1 > dx + 4 && y0 < dy + 16 && y1 > dy - 8) {
      G.cleared++;
      var underPar = G.lt <= LEVELS[G.lid].par;
      if (underPar) G.parClears++;
      G.lastClear = { name: LEVELS[G.lid].name, ticks: G.lt, par: underPar };
      if (G.idx === NLEV - 1) { G.over = true; G.outcome = "win"; G.reason = "every level cleared"; return; }
      loadLevel(G.idx + 1);
    }
  }

  function coinsLeft() { return G.coin && !G.coinTaken ? [G.coin[0], G.coin[1]] : null; }

  // ---------------------------------------------------------------- API
  window.gameAPI = {
    getState: function () {
      catchUp();
      var h = G.h;
      return {
        status: G.over ? "terminal" : "playing",
        actionable: !G.over,
        terminal: { is_terminal: G.over, outcome: G.outcome, reason: G.over ? G.reason : null },
        score: G.cleared * 1000 + G.coins * 250 + G.parClears * 500,
        levels_cleared: G.cleared,
        coins: G.coins,
        par_clears: G.parClears,
        level: G.idx + 1,
        level_id: G.lid,
        level_name: LEVELS[G.lid].name,
        mirrored: G.mirror[G.lid],
        lives: G.lives,
        deaths: G.deaths,
        player_x: (h.px >> 4) + PW / 2,
        player_y: (h.py + hgt()) >> 4,
        on_ground: h.ground,
        sliding: h.sliding,
        diving: h.diving,
        level_ticks: G.lt,
        par_ticks: LEVELS[G.lid].par,
        last_level_ticks: G.lastClear ? G.lastClear.ticks : null,
        coin: coinsLeft(),
        door: [G.door[0], G.door[1]],
        hero: { px: h.px, py: h.py, vx: h.vx, vy: h.vy, face: h.face, ground: h.ground, low: h.low,
                sliding: h.sliding, diving: h.diving, dived: h.dived, slide_t: h.slideT, wall_lock: h.wallLock,
                jump_buf: h.jumpBuf, coyote: h.coyote, plat: h.plat, dying: h.dying, down_press: G.downPress },
        platforms: G.plats.map(function (p) { return { x: p.x, y: p.y, w: p.w, ph: p.ph }; }),
        order: G.order.slice(),
        tick: G.t
      };
    },
    // draw at once: the frame read right after a reset shows the new attempt, not the last one's end
    reset: function () { keys.left = keys.right = keys.down = false; newGame(); draw(); }
  };

  // ---------------------------------------------------------------- input
  window.addEventListener("keydown", function (e) {
    catchUp();
    var code = e.code;
    if (code === "ArrowLeft" || code === "ArrowRight" || code === "ArrowUp" || code === "ArrowDown" || code === "Space") e.preventDefault();
    if ((code === "KeyR" || code === "Enter") && G.over) { newGame(); return; }   // restart when playing standalone
    if (G.over) return;
    if (code === "ArrowLeft") keys.left = true;
    else if (code === "ArrowRight") keys.right = true;
    else if (code === "ArrowDown") { if (!keys.down && !e.repeat && G.h.dying === 0) G.downPress = true; keys.down = true; }
    else if ((code === "ArrowUp" || code === "Space") && !e.repeat && G.h.dying === 0) G.h.jumpBuf = JUMP_BUFFER;
  });
  window.addEventListener("keyup", function (e) {
    catchUp();
    if (e.code === "ArrowLeft") keys.left = false;
    else if (e.code === "ArrowRight") keys.right = false;
    else if (e.code === "ArrowDown") keys.down = false;
  });

  // ---------------------------------------------------------------- drawing
  var canvas = document.getElementById("game");
  var ctx = canvas.getContext("2d");
  var THEMES = [
    { sky: ["#1d2b53", "#3b5a8f"], wall: ["#3c4a78", "#5a6aa8", "#242e52"], glow: "#8fd3ff" },
    { sky: ["#2a1740", "#6a2f5c"], wall: ["#5a3a6a", "#8a5a9a", "#32203e"], glow: "#ff9ad5" },
    { sky: ["#0f3040", "#2f7a7a"], wall: ["#2f5a5a", "#4f8a84", "#1a3636"], glow: "#8affd8" },
    { sky: ["#3a1e12", "#a0522d"], wall: ["#6a3a22", "#a06040", "#3a1e12"], glow: "#ffc07a" },
    { sky: ["#10203a", "#2a5a7a"], wall: ["#34506a", "#5a84a0", "#1c2e40"], glow: "#a8e0ff" },
    { sky: ["#2a0f1a", "#7a2030"], wall: ["#5a2432", "#8a3a4a", "#30121a"], glow: "#ff8a8a" },
    { sky: ["#14102a", "#3a2a6a"], wall: ["#2e2a5a", "#4e4a90", "#1a1634"], glow: "#d0b0ff" }
  ];

  function hash(a, b) {   // deterministic texture noise (drawing only)
    var v = (a * 374761393 + b * 668265263) | 0;
    v = Math.imul(v ^ (v >>> 13), 1274126177);
    return ((v ^ (v >>> 16)) >>> 0) / 4294967296;
  }

  function drawBackdrop(time) {
    var th = THEMES[G.lid], g = ctx.createLinearGradient(0, HUD_H, 0, H), i;
    g.addColorStop(0, th.sky[0]); g.addColorStop(1, th.sky[1]);
    ctx.fillStyle = g; ctx.fillRect(0, HUD_H, W, H - HUD_H);
    // distant city blocks
    for (i = 0; i < 16; i++) {
      var bw = 24 + hash(i, G.lid) * 30, bh = 40 + hash(G.lid, i) * 120, bx = i * 32 - 10;
      ctx.fillStyle = "rgba(0,0,0,0.16)"; ctx.fillRect(bx, H - bh, bw, bh);
      ctx.fillStyle = "rgba(255,255,255,0.05)";
      for (var wy = H - bh + 8; wy < H - 10; wy += 14) if (hash(i, wy) > 0.5) ctx.fillRect(bx + 5, wy, 4, 5);
    }
    // drifting motes
    for (i = 0; i < 24; i++) {
      var mx = (hash(i, 7) * W + time * 0.01 * (1 + hash(i, 8))) % W, my = HUD_H + hash(i, 9) * (H - HUD_H);
      ctx.fillStyle = "rgba(255,255,255," + (0.12 + 0.2 * hash(i, 3)) + ")";
      ctx.fillRect(mx, my + 4 * Math.sin(time * 0.002 + i), 2, 2);
    }
  }

  function drawTiles(time) {
    var th = THEMES[G.lid], r, c;
    for (r = 0; r < ROWS; r++) for (c = 0; c < COLS; c++) {
      var t = G.grid[r][c], X = c * TILE, Y = HUD_H + r * TILE;
      if (t === "#") {
        ctx.fillStyle = th.wall[0]; ctx.fillRect(X, Y, TILE, TILE);
        ctx.fillStyle = th.wall[2]; ctx.fillRect(X, Y + TILE - 2, TILE, 2); ctx.fillRect(X + TILE - 2, Y, 2, TILE);
        if (hash(c, r) > 0.6) { ctx.fillStyle = "rgba(0,0,0,0.12)"; ctx.fillRect(X + 4, Y + 5, 5, 4); }
        if (tileAt(c, r - 1) !== "#") {
          ctx.fillStyle = th.wall[1]; ctx.fillRect(X, Y, TILE, 3);
          ctx.fillStyle = th.glow; ctx.globalAlpha = 0.35; ctx.fillRect(X, Y, TILE, 1); ctx.globalAlpha = 1;
        }
        if (tileAt(c - 1, r) !== "#") { ctx.fillStyle = th.wall[1]; ctx.fillRect(X, Y, 2, TILE); }
      } else if (t === "^") {
        drawSpikes(X, Y + TILE, 1);
      } else if (t === "v") {
        drawSpikes(X, Y, -1);
      }
    }
  }

  function drawSpikes(X, base, dir) {
    for (var k = 0; k < 3; k++) {
      var sx = X + 1 + k * 5;
      var g = ctx.createLinearGradient(0, base, 0, base - dir * 11);
      g.addColorStop(0, "#7a8090"); g.addColorStop(1, "#f4f6ff");
      ctx.fillStyle = g;
      ctx.beginPath(); ctx.moveTo(sx, base); ctx.lineTo(sx + 2.5, base - dir * 11); ctx.lineTo(sx + 5, base); ctx.fill();
    }
    ctx.fillStyle = "#c03040"; ctx.fillRect(X, dir > 0 ? base - 2 : base, TILE, 2);
  }

  function drawPlats(time) {
    G.plats.forEach(function (p) {
      var x = p.x >> 4, y = HUD_H + (p.y >> 4);
      var g = ctx.createLinearGradient(0, y, 0, y + 9);
      g.addColorStop(0, "#ffe9a8"); g.addColorStop(1, "#c08a2a");
      ctx.fillStyle = g; ctx.fillRect(x, y, p.w, 9);
      ctx.fillStyle = "#6a4a14"; ctx.fillRect(x, y + 8, p.w, 2);
      ctx.fillStyle = "rgba(255,255,255,0.6)";
      for (var k = 6; k < p.w - 4; k += 10) ctx.fillRect(x + k, y + 3, 4, 2);
      // thruster glow
      ctx.fillStyle = "rgba(140,220,255," + (0.35 + 0.25 * Math.sin(time * 0.02)) + ")";
      ctx.beginPath(); ctx.ellipse(x + p.w / 2, y + 12, p.w / 3, 3, 0, 0, 6.283); ctx.fill();
    });
  }

  function drawDoor(time) {
    var x = G.door[0] * TILE, y = HUD_H + G.door[1] * TILE + TILE;
    var th = THEMES[G.lid];
    ctx.fillStyle = "#1a1222"; ctx.fillRect(x - 2, y - 30, 20, 30);
    var g = ctx.createLinearGradient(0, y - 28, 0, y);
    g.addColorStop(0, th.glow); g.addColorStop(1, "#ffffff");
    ctx.globalAlpha = 0.55 + 0.25 * Math.sin(time * 0.006);
    ctx.fillStyle = g; ctx.fillRect(x + 1, y - 27, 14, 27);
    ctx.globalAlpha = 1;
    ctx.strokeStyle = "#ffe27a"; ctx.lineWidth = 2; ctx.strokeRect(x - 2, y - 30, 20, 30);
    ctx.fillStyle = "#ffe27a"; ctx.font = "bold 8px monospace"; ctx.textAlign = "center";
    ctx.fillText("EXIT", x + 8, y - 33);
  }

  function drawCoin(x, y, time) {
    var w = Math.abs(Math.cos(time * 0.005)) * 5 + 1.2;
    ctx.fillStyle = "rgba(255,220,80,0.25)"; ctx.beginPath(); ctx.arc(x, y, 9, 0, 6.283); ctx.fill();
    ctx.fillStyle = "#b07800"; ctx.beginPath(); ctx.ellipse(x, y, w, 6.5, 0, 0, 6.283); ctx.fill();
    ctx.fillStyle = "#ffd84a"; ctx.beginPath(); ctx.ellipse(x, y, Math.max(0.6, w - 1.5), 5, 0, 0, 6.283); ctx.fill();
    ctx.fillStyle = "#fff7c8"; ctx.fillRect(x - 1, y - 3, 1.5, 4);
  }

  function drawHero(time) {
    var h = G.h, bx, by, hh = hgt() >> 4;
    if (h.dying > 0) return;
    // motion trail for slides and dives
    if (h.sliding || h.diving || Math.abs(h.vx) > RUN) {
      for (var i = 0; i < G.trail.length - 1; i++) {
        var tr = G.trail[i];
        ctx.fillStyle = "rgba(120,220,255," + (0.05 + i * 0.03) + ")";
        ctx.fillRect(tr[0], HUD_H + tr[1] + (tr[2] ? 0 : 6), PW, tr[2] ? 12 : 16);
      }
    }
    bx = (h.px >> 4) + PW / 2; by = HUD_H + (h.py >> 4) + hh;   // feet centre
    ctx.save(); ctx.translate(bx, by); ctx.scale(h.face, 1);
    ctx.lineCap = "round"; ctx.lineJoin = "round";
    var pose = h.diving ? 2 : (h.sliding || h.low ? 1 : 0);
    var run = h.ground && Math.abs(h.vx) > 8 ? Math.sin(G.t * 0.5) : 0, air = !h.ground;
    var flap = Math.sin(time * 0.03) * 2;
    // scarf behind the body
    ctx.strokeStyle = "#ff4d6d"; ctx.lineWidth = 2.5;
    ctx.beginPath();
    if (pose === 2) { ctx.moveTo(6, -10); ctx.lineTo(-4, -13 + flap); ctx.lineTo(-12, -11 - flap); }
    else if (pose === 1) { ctx.moveTo(-6, -8); ctx.lineTo(-14, -9 + flap); ctx.lineTo(-20, -7 - flap); }
    else { ctx.moveTo(0, -17); ctx.lineTo(-7, -18 + flap); ctx.lineTo(-13, -16 - flap); }
    ctx.stroke();
    for (var pass = 0; pass < 2; pass++) {
      var ink = pass ? "#f4f7ff" : "#0a0c18";
      ctx.strokeStyle = ink; ctx.fillStyle = ink; ctx.lineWidth = pass ? 3 : 5.5;
      var hr = pass ? 4.5 : 6;
      ctx.beginPath();
      if (pose === 2) {             // stretched out, head first
        ctx.moveTo(-9, -6); ctx.lineTo(5, -7); ctx.lineTo(14, -4);
        ctx.moveTo(-9, -6); ctx.lineTo(-15, -3); ctx.moveTo(-9, -6); ctx.lineTo(-15, -8);
        ctx.stroke(); ctx.beginPath(); ctx.arc(9, -8, hr, 0, 6.283); ctx.fill();
      } else if (pose === 1) {      // leaning back, feet first
        ctx.moveTo(8, -2); ctx.lineTo(-2, -4); ctx.lineTo(-7, -7);
        ctx.moveTo(-4, -5); ctx.lineTo(-10, -1);
        ctx.stroke(); ctx.beginPath(); ctx.arc(-8, -9, hr, 0, 6.283); ctx.fill();
      } else {
        if (air) { ctx.moveTo(0, -9); ctx.lineTo(4, -3); ctx.lineTo(2, 0); ctx.moveTo(0, -9); ctx.lineTo(-4, -4); ctx.lineTo(-6, -1); }
        else { ctx.moveTo(0, -9); ctx.lineTo(run * 5, 0); ctx.moveTo(0, -9); ctx.lineTo(-run * 5, 0); }
        ctx.moveTo(0, -9); ctx.lineTo(1 + (Math.abs(h.vx) > 8 ? 1.5 : 0), -17);
        if (h.wall) { ctx.moveTo(1, -15); ctx.lineTo(6, -20); ctx.moveTo(1, -15); ctx.lineTo(6, -12); }
        else if (air) { ctx.moveTo(1, -15); ctx.lineTo(7, -19); ctx.moveTo(1, -15); ctx.lineTo(-5, -19); }
        else { ctx.moveTo(1, -15); ctx.lineTo(-run * 5, -10); ctx.moveTo(1, -15); ctx.lineTo(run * 5, -10); }
        ctx.stroke(); ctx.beginPath(); ctx.arc(2, -21, hr, 0, 6.283); ctx.fill();
        if (pass) { ctx.fillStyle = "#1a1a2a"; ctx.fillRect(3.5, -22.5, 2, 2); }
      }
    }
    if (pose === 1) { ctx.fillStyle = "rgba(255,255,255,0.5)"; ctx.fillRect(-16, -2, 6, 1); ctx.fillRect(-22, -1, 4, 1); }
    ctx.restore();
  }

  function drawFx(time) {
    G.fx.forEach(function (f) {
      var a = Math.max(0, 1 - f.t / 30);
      if (f.kind === "spark") {
        ctx.fillStyle = "rgba(255,236,140," + a + ")";
        for (var i = 0; i < 8; i++) {
          var ang = i * 0.785, d = f.t * 1.2;
          ctx.fillRect(f.x + Math.cos(ang) * d - 1, HUD_H + f.y + Math.sin(ang) * d - 1, 3, 3);
        }
      } else if (f.kind === "burst") {
        ctx.fillStyle = "rgba(255,90,110," + Math.max(0, 1 - f.t / 36) + ")";
        for (var j = 0; j < 12; j++) {
          var an = j * 0.5236, dd = f.t * 1.6;
          ctx.fillRect(f.x + Math.cos(an) * dd - 2, HUD_H + f.y + Math.sin(an) * dd + 0.05 * f.t * f.t - 2, 4, 4);
        }
      } else if (f.kind === "dust" || f.kind === "kick") {
        ctx.fillStyle = "rgba(230,230,255," + a * 0.7 + ")";
        ctx.beginPath(); ctx.arc(f.x - f.t * 0.8, HUD_H + f.y - 2, 2 + f.t * 0.1, 0, 6.283);
        ctx.arc(f.x + f.t * 0.8, HUD_H + f.y - 2, 2 + f.t * 0.1, 0, 6.283); ctx.fill();
      } else if (f.kind === "ring") {
        ctx.strokeStyle = "rgba(140,230,255," + a + ")"; ctx.lineWidth = 2;
        ctx.beginPath(); ctx.arc(f.x, HUD_H + f.y, 4 + f.t * 0.9, 0, 6.283); ctx.stroke();
      } else if (f.kind === "text") {
        ctx.globalAlpha = Math.max(0, 1 - f.t / 45);
        ctx.fillStyle = f.color; ctx.font = "bold 11px monospace"; ctx.textAlign = "center";
        ctx.fillText(f.text, f.x, HUD_H + f.y - f.t * 0.5);
        ctx.globalAlpha = 1;
      }
    });
  }

  function drawHUD() {
    var g = ctx.createLinearGradient(0, 0, 0, HUD_H);
    g.addColorStop(0, "#181c34"); g.addColorStop(1, "#0c0e1e");
    ctx.fillStyle = g; ctx.fillRect(0, 0, W, HUD_H);
    ctx.fillStyle = THEMES[G.lid].glow; ctx.fillRect(0, HUD_H - 2, W, 2);
    ctx.textAlign = "left"; ctx.font = "bold 9px monospace"; ctx.fillStyle = "#8f9ccc";
    ctx.fillText("LEVEL", 10, 14); ctx.fillText("CLEARED", 150, 14); ctx.fillText("COINS", 218, 14);
    ctx.fillText("PAR \u2605", 272, 14); ctx.fillText("TIME / PAR", 330, 14); ctx.fillText("LIVES", 420, 14);
    ctx.font = "bold 13px monospace"; ctx.fillStyle = "#ffffff";
    ctx.fillText((G.idx + 1) + "/" + NLEV + " " + LEVELS[G.lid].name, 10, 31);
    ctx.fillText(String(G.cleared), 162, 31);
    drawCoin(224, 27, 0); ctx.fillStyle = "#ffffff"; ctx.fillText("\u00d7" + G.coins, 232, 31);
    ctx.fillStyle = "#ffd84a"; ctx.fillText("\u2605" + G.parClears, 276, 31);
    var secs = (G.lt / 60).toFixed(1), par = (LEVELS[G.lid].par / 60).toFixed(1);
    ctx.fillStyle = G.lt <= LEVELS[G.lid].par ? "#9cffb0" : "#ff9a9a";
    ctx.fillText(secs + "/" + par, 330, 31);
    for (var i = 0; i < LIVES; i++) {
      var hx = 426 + i * 16, hy = 25, on = i < G.lives;
      ctx.fillStyle = on ? "#ff4d6d" : "#3a3f66";
      ctx.beginPath(); ctx.arc(hx - 3, hy - 2, 3.5, 0, 6.283); ctx.arc(hx + 3, hy - 2, 3.5, 0, 6.283); ctx.fill();
      ctx.beginPath(); ctx.moveTo(hx - 6.5, hy - 1); ctx.lineTo(hx, hy + 6); ctx.lineTo(hx + 6.5, hy - 1); ctx.fill();
    }
  }

  function drawBanners() {
    if (G.banner > 0 && !G.over) {
      var a = Math.min(1, G.banner / 20);
      ctx.fillStyle = "rgba(8,10,24," + 0.72 * a + ")"; ctx.fillRect(120, HUD_H + 40, 240, 50);
      ctx.fillStyle = "rgba(255,226,122," + a + ")"; ctx.font = "bold 18px monospace"; ctx.textAlign = "center";
      ctx.fillText("LEVEL " + (G.idx + 1) + ": " + LEVELS[G.lid].name, 240, HUD_H + 64);
      if (G.lastClear && G.idx > 0) {
        ctx.font = "11px monospace"; ctx.fillStyle = "rgba(200,220,255," + a + ")";
        ctx.fillText("last level " + (G.lastClear.ticks / 60).toFixed(1) + "s" + (G.lastClear.par ? "  \u2605 under par" : ""), 240, HUD_H + 81);
      }
    }
    if (G.h.dying > 0 && !G.over) {
      ctx.fillStyle = "rgba(8,10,24,0.78)"; ctx.fillRect(130, HUD_H + 100, 220, 30);
      ctx.strokeStyle = "#ff4d6d"; ctx.lineWidth = 2; ctx.strokeRect(130, HUD_H + 100, 220, 30);
      ctx.fillStyle = "#ff8a9a"; ctx.font = "bold 15px monospace"; ctx.textAlign = "center";
      ctx.fillText(G.lives > 0 ? "OUCH! " + G.lives + (G.lives === 1 ? " life" : " lives") + " left" : "OUCH! no lives left", 240, HUD_H + 120);
    }
    if (!G.over) return;
    var win = G.outcome === "win";
    ctx.fillStyle = "rgba(6,8,20,0.62)"; ctx.fillRect(0, HUD_H, W, H - HUD_H);
    ctx.fillStyle = win ? "#1f4a2c" : "#4a1f26"; ctx.fillRect(100, 130, 280, 96);
    ctx.strokeStyle = win ? "#7dff9a" : "#ff6f6f"; ctx.lineWidth = 3; ctx.strokeRect(100, 130, 280, 96);
    ctx.textAlign = "center"; ctx.fillStyle = "#fff"; ctx.font = "bold 24px monospace";
    ctx.fillText(win ? "ALL LEVELS CLEAR!" : "GAME OVER", 240, 163);
    ctx.font = "12px monospace"; ctx.fillStyle = "#e8def8";
    ctx.fillText("Cleared " + G.cleared + "   Coins " + G.coins + "   Par \u2605" + G.parClears, 240, 188);
    ctx.fillStyle = "#b0a8d0"; ctx.fillText("Press Enter to play again", 240, 210);
  }

  function draw() {
    var time = performance.now() - shownSince;
    drawBackdrop(time);
    drawTiles(time);
    drawDoor(time);
    drawPlats(time);
    if (G.coin && !G.coinTaken) drawCoin(G.coin[0] * TILE + 8, HUD_H + G.coin[1] * TILE + 8, time);
    drawHero(time);
    drawFx(time);
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
  draw();   // the first frame exists before the game reports actionable
  requestAnimationFrame(frame);
})();
