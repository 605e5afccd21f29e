// Starhold: a flip-screen exploration platformer for the GameWorld platform.
// An astronaut explores six rooms of a derelict station: jet boots (a double jump) and a keycard open the
// way to the reactor core. Logic runs in fixed 60 Hz ticks counted from the (virtual) clock; chance comes
// only from Math.random (drone patrol phases and which energy-cell spot of each room is lit, all drawn at
// the start of an attempt; the airlock's layout, the bridge's acid pool and the reactor's spikes are placed by the seed
// too). Every speed is a multiple of 1/8 px, so positions are exact.
(function () {
  "use strict";

  var TILE = 16, COLS = 30, ROWS = 20, VIEW_W = 480, HUD_H = 40, PLAY_H = 320;
  var RUN = 3, JUMP_V = 6, GRAV = 0.375, MAX_FALL = 7;
  var PW = 10, PH = 18, DW = 14, DH = 12;
  var JUMP_BUFFER = 6, COYOTE = 5, DYING = 45, INVULN = 90, LIVES = 3;

  // ---------------------------------------------------------------- the station (fixed geometry)
  // '#' hull, '=' girder, 'B' crate (all solid), 'D' locked door (solid until the keycard opens it),
  // 'a' acid, '^' spikes, 'v' spikes hanging under a bulkhead, 'J' jet boots, 'K' keycard, 'c' an energy-cell spot (one of each room's two is lit),
  // 'Z' the reactor core, 'S' the start.
  // Drones: axis h patrols a row between two columns, axis v a column between two rows (1 px a tick).
  var ROOMS = [
    { name: "AIRLOCK", gx: 0, gy: 0, drones: [], map: [
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
      "#..............c.............#",
      "#.............====.......c....",
      "#.............................",
      "#....................BB.......",
      "#.S..................BB.......",
      "########aaaa##################",
      "##############################"
    ] },
    { name: "HALL", gx: 1, gy: 0, drones: [{ axis: "h", row: 17, c0: 4, c1: 10 }], map: [
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
      "..............c...====...c...#",
      ".............................#",
      "......................BB.....#",
      "......................BB.....#",
      "###########...################",
      "###########...################"
    ] },
    { name: "CARGO BAY", gx: 1, gy: 1, drones: [{ axis: "h", row: 14, c0: 14, c1: 22 }], map: [
      "###########...################",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#.............................",
      "#.............................",
      "#.............................",
      "#.............................",
      "#.....................c.......",
      "#.............................",
      "#.......................##....",
      "#.......c...............##....",
      "#.......................##....",
      "#..J....................##....",
      "################aaaa##########",
      "##############################"
    ] },
    { name: "LAB", gx: 2, gy: 1, drones: [{ axis: "v", col: 22, r0: 9, r1: 17 }], map: [
      "##############################",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      "#............................#",
      ".............................#",
      ".............................#",
      ".............................#",
      "...........c.................#",
      ".............K...............#",
      "...........=====.............#",
      "..........................c...",
      "..............................",
      "..............................",
      ".........^^^^^^^^^............",
      "##############################",
      "##############################"
    ] },
    { name: "BRIDGE", gx: 3, gy: 1, drones: [{ axis: "h", row: 17, c0: 11, c1: 18 }], map: [
      "##############################",
      "#...................#........#",
      "#...................#........#",
      "#...................#........#",
      "#...................#........#",
      "#...................#........#",
      "#...................#........#",
      "#...................#........#",
      "#...................#........#",
      "#...................#........#",
      "#...................#........#",
      "#...................#........#",
      "#...................D........#",
      "#...................D........#",
      "........c...........D.........",
      "....................D.....c...",
      "....................D.........",
      "....................D.........",
      "######aaaa####################",
      "##############################"
    ] },
    { name: "REACTOR", gx: 4, gy: 1, drones: [{ axis: "v", col: 17, r0: 9, r1: 17 }], map: [
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
      "..............c..............#",
      ".....................c.......#",
      "......................ZZ.....#",
      "..........^^^.........ZZ.....#",
      "##############################",
      "##############################"
    ] }
  ];
  var SOLID = { "#": 1, "=": 1, "B": 1, "D": 1 };
  var MAP_W = 5, MAP_H = 2;

  function roomAt(gx, gy) {
    for (var i = 0; i < ROOMS.length; i++) if (ROOMS[i].gx === gx && ROOMS[i].gy === gy) return i;
    return -1;
  }

  // ---------------------------------------------------------------- game state
  var G = null;
  var keys = { left: false, right: false };
  var shownSince = 0;   // drawing only: animations count from the attempt's start

  function newGame() {
    G = { t: 0, score: 0, rooms: 1, items: 0, boots: false, keycard: false, doors: 0, cells: 0, core: 0,
          lives: LIVES, deaths: 0, over: false, outcome: null, reason: null, overT: 0, fx: [], msg: null, msgT: 0 };
    G.grids = ROOMS.map(function (R) { return R.map.map(function (row) { return row.split(""); }); });
    G.layout = buildAirlock(G.grids[0]);
    G.layout.bridge_acid = shiftRun(G.grids[4], 18, "a", "#", 4, 10);
    G.layout.reactor_spikes = shiftRun(G.grids[5], 17, "^", ".", 4, 14);
    G.visited = ROOMS.map(function () { return false; });
    G.visited[0] = true;
    // one of each room's two energy-cell spots is lit (the seed decides which)
    G.grids.forEach(function (grid) {
      var spots = [], r, c;
      for (r = 0; r < ROWS; r++) for (c = 0; c < COLS; c++) if (grid[r][c] === "c") spots.push([c, r]);
      var keep = Math.random() < 0.5 ? 0 : 1;
      spots.forEach(function (s, i) { grid[s[1]][s[0]] = i === keep ? "c" : "."; });
    });
    // drones: each starts somewhere on its beat, heading either way
    G.drones = [];
    ROOMS.forEach(function (R, ri) {
      (ri === 0 ? [G.layout.drone] : R.drones).forEach(function (d) {
        var dr = { room: ri, axis: d.axis };
        if (d.axis === "h") { dr.a = d.c0 * TILE; dr.b = d.c1 * TILE + TILE - DW; dr.y = d.row * TILE + TILE - DH - 2; }
        else { dr.a = d.r0 * TILE; dr.b = d.r1 * TILE + TILE - DH; dr.x = d.col * TILE + 1; }
        var p = dr.a + Math.floor(Math.random() * (dr.b - dr.a + 1));
        if (d.axis === "h") dr.x = p; else dr.y = p;
        dr.dir = Math.random() < 0.5 ? -1 : 1;
        G.drones.push(dr);
      });
    });
    G.room = 0;
    var start = findTile(0, "S");
    G.grids[0][start[1]][start[0]] = ".";
    G.px = start[0] * TILE + 3; G.py = (start[1] + 1) * TILE - PH; G.vy = 0; G.onGround = true; G.face = 1;
    G.jumpBuf = 0; G.coyote = COYOTE; G.airJump = 0; G.dying = 0; G.inv = 0;
    G.safe = { room: 0, px: G.px, py: G.py };
    G.banner = 90;
    shownSince = performance.now();
  }

  // The airlock is laid out by the seed: an acid pool (4 columns), a stack of crates (2 columns, 2 high) and a
  // spiked bulkhead (4 to 6 columns hanging from the ceiling down to two tiles above the floor, spikes under it:
  // walk under it, a jump there meets the spikes), in a seeded order, at least 4 free columns apart, with the
  // spare columns of columns 4-28 spread by the seed; one of the two stretches between them (the seed picks which) is
  // at least 6 columns long and patrolled by a floor drone. One energy-cell spot floats over the pool, one over the
  // crates.
  var ORDERS = [["acid", "crates", "gate"], ["acid", "gate", "crates"], ["crates", "acid", "gate"],
                ["crates", "gate", "acid"], ["gate", "acid", "crates"], ["gate", "crates", "acid"]];
  function buildAirlock(grid) {
    var r, c, k;
    for (r = 1; r < 18; r++) for (c = 1; c < 29; c++) grid[r][c] = grid[r][c] === "S" ? "S" : ".";
    for (c = 1; c < 29; c++) grid[18][c] = "#";
    var order = ORDERS[Math.floor(Math.random() * ORDERS.length)];
    var width = { acid: 4, crates: 2, gate: 4 + Math.floor(Math.random() * 3) };
    var patrolled = Math.random() < 0.5 ? 0 : 1, gap = [4, 4];
    gap[patrolled] = 6;
    var spare = [0, 0, 0, 0], free = 25 - gap[0] - gap[1] - width.acid - width.crates - width.gate;
    for (k = 0; k < free; k++) spare[Math.floor(Math.random() * 4)]++;
    var at = {}, col = 4 + spare[0], drone = null;
    for (k = 0; k < 3; k++) {
      at[order[k]] = col;
      col += width[order[k]];
      if (k === patrolled) drone = { axis: "h", row: 17, c0: col, c1: col + gap[k] + spare[k + 1] - 1 };
      if (k < 2) col += gap[k] + spare[k + 1];
    }
    for (c = at.acid; c < at.acid + 4; c++) grid[18][c] = "a";
    grid[15][at.acid + 1 + (Math.random() < 0.5 ? 0 : 1)] = "c";
    for (r = 16; r < 18; r++) for (c = at.crates; c < at.crates + 2; c++) grid[r][c] = "B";
    grid[13][at.crates + (Math.random() < 0.5 ? 0 : 1)] = "c";
    for (c = at.gate; c < at.gate + width.gate; c++) { for (r = 1; r < 15; r++) grid[r][c] = "#"; grid[15][c] = "v"; }
    return { order: order.slice(), acid: at.acid, crates: at.crates, gate: at.gate, gate_w: width.gate, drone: drone };
  }
  // Moves a run of ch tiles in row r (background bg where it was) to a seeded first column in lo..hi.
  function shiftRun(grid, r, ch, bg, lo, hi) {
    var cols = [], c;
    for (c = 0; c < COLS; c++) if (grid[r][c] === ch) { cols.push(c); grid[r][c] = bg; }
    var at = lo + Math.floor(Math.random() * (hi - lo + 1));
    for (c = 0; c < cols.length; c++) grid[r][at + c] = ch;
    return at;
  }

  function findTile(room, ch) {
    var grid = G.grids[room];
    for (var r = 0; r < ROWS; r++) for (var c = 0; c < COLS; c++) if (grid[r][c] === ch) return [c, r];
    return null;
  }

  function tileAt(c, r) {
    if (c < 0 || c >= COLS || r < 0 || r >= ROWS) return ".";
    return G.grids[G.room][r][c];
  }
  function isSolid(ch) { return SOLID[ch] === 1; }

  function overlap(ax, ay, aw, ah, bx, by, bw, bh) {
    return ax < bx + bw && ax + aw > bx && ay < by + bh && ay + ah > by;
  }

  function popup(text, x, y, color) { G.fx.push({ kind: "text", text: text, x: x, y: y, t: 0, color: color, room: G.room }); }
  function burst(x, y, color, n) {
    for (var i = 0; i < n; i++) G.fx.push({ kind: "spark", x: x, y: y, i: i, n: n, t: 0, color: color, room: G.room });
  }

  function die(reason) {
    G.lives--; G.deaths++;
    G.reason = reason; G.deathX = G.px + PW / 2; G.deathY = G.py + PH / 2;
    burst(G.px + PW / 2, G.py + PH / 2, reason === "acid" ? "#9dff5a" : "#ffb04a", 10);
    if (G.lives <= 0) { G.over = true; G.outcome = "lose"; return; }
    G.dying = DYING;
  }

  function respawn() {
    G.room = G.safe.room; G.px = G.safe.px; G.py = G.safe.py;
    G.vy = 0; G.onGround = true; G.jumpBuf = 0; G.coyote = COYOTE; G.airJump = 0; G.inv = INVULN;
  }

  function enterRoom(r) {
    G.room = r;
    if (!G.visited[r]) {
      G.visited[r] = true; G.rooms++; G.score += 100; G.banner = 80;
    }
  }

  function tick() {
    var i;
    for (i = G.fx.length - 1; i >= 0; i--) { G.fx[i].t++; if (G.fx[i].t > 40) G.fx.splice(i, 1); }
    if (G.msgT > 0) G.msgT--;
    if (G.over) { G.overT++; return; }
    G.t++;
    if (G.banner > 0) G.banner--;
    moveDrones();
    if (G.dying > 0) {
      G.dying--;
      if (G.dying === 0) respawn();
      return;
    }
    if (G.inv > 0) G.inv--;
    var dir = (keys.right ? 1 : 0) - (keys.left ? 1 : 0);
    var vx = dir * RUN;
    if (dir) G.face = dir;
    if (G.jumpBuf > 0) {
      if (G.onGround || G.coyote > 0) {
        G.vy = -JUMP_V; G.onGround = false; G.coyote = 0; G.jumpBuf = 0; G.airJump = G.boots ? 1 : 0;
      } else if (G.airJump > 0) {
        G.vy = -JUMP_V; G.airJump = 0; G.jumpBuf = 0;
        G.fx.push({ kind: "jet", x: G.px + PW / 2, y: G.py + PH, t: 0, room: G.room });
      } else G.jumpBuf--;
    }
    // horizontal move
    G.px += vx;
    var r0 = Math.floor(G.py / TILE), r1 = Math.floor((G.py + PH - 1) / TILE), r, c;
    if (vx > 0) {
      c = Math.floor((G.px + PW - 1) / TILE);
      for (r = r0; r <= r1; r++) if (isSolid(tileAt(c, r))) { G.px = c * TILE - PW; break; }
    } else if (vx < 0) {
      c = Math.floor(G.px / TILE);
      for (r = r0; r <= r1; r++) if (isSolid(tileAt(c, r))) { G.px = (c + 1) * TILE; break; }
    }
    // vertical move
    G.vy = Math.min(G.vy + GRAV, MAX_FALL);
    G.py += G.vy;
    var c0 = Math.floor(G.px / TILE), c1 = Math.floor((G.px + PW - 1) / TILE);
    G.onGround = false;
    if (G.vy > 0) {
      r = Math.floor((G.py + PH - 0.125) / TILE);
      for (c = c0; c <= c1; c++) if (isSolid(tileAt(c, r))) { G.py = r * TILE - PH; G.vy = 0; G.onGround = true; break; }
    } else if (G.vy < 0) {
      r = Math.floor(G.py / TILE);
      for (c = c0; c <= c1; c++) if (isSolid(tileAt(c, r))) { G.py = (r + 1) * TILE; G.vy = 0; break; }
    }
    if (G.onGround) { G.coyote = COYOTE; G.airJump = G.boots ? 1 : 0; }
    else G.coyote = Math.max(0, G.coyote - 1);
    // flip-screen: the hero's centre leaving the screen takes it to the next room
    var R = ROOMS[G.room], nr;
    if (G.px + PW / 2 >= VIEW_W) { nr = roomAt(R.gx + 1, R.gy); if (nr >= 0) { G.px -= VIEW_W; enterRoom(nr); } }
    else if (G.px + PW / 2 < 0) { nr = roomAt(R.gx - 1, R.gy); if (nr >= 0) { G.px += VIEW_W; enterRoom(nr); } }
    else if (G.py + PH / 2 >= PLAY_H) { nr = roomAt(R.gx, R.gy + 1); if (nr >= 0) { G.py -= PLAY_H; enterRoom(nr); } }
    else if (G.py + PH / 2 < 0) { nr = roomAt(R.gx, R.gy - 1); if (nr >= 0) { G.py += PLAY_H; enterRoom(nr); } }
    // what the hero touches
    var grid = G.grids[G.room], hazard = null;
    r0 = Math.floor(G.py / TILE) - 1; r1 = Math.floor((G.py + PH - 1) / TILE) + 1;
    c0 = Math.floor(G.px / TILE) - 1; c1 = Math.floor((G.px + PW - 1) / TILE) + 1;
    for (r = Math.max(0, r0); r <= Math.min(ROWS - 1, r1); r++) for (c = Math.max(0, c0); c <= Math.min(COLS - 1, c1); c++) {
      var ch = grid[r][c], X = c * TILE, Y = r * TILE;
      if (ch === "a" && overlap(G.px, G.py, PW, PH, X, Y + 5, TILE, TILE - 5)) hazard = "acid";
      else if (ch === "^" && overlap(G.px, G.py, PW, PH, X + 2, Y + 7, TILE - 4, TILE - 7)) hazard = "spikes";
      else if (ch === "v" && overlap(G.px, G.py, PW, PH, X + 2, Y, TILE - 4, TILE)) hazard = "spikes";
      else if ((ch === "J" || ch === "K" || ch === "c") && overlap(G.px, G.py, PW, PH, X + 2, Y + 2, TILE - 4, TILE - 4)) {
        grid[r][c] = ".";
        if (ch === "c") { G.cells++; G.score += 50; popup("+50 CELL", X + 8, Y - 6, "#7ff6ff"); burst(X + 8, Y + 8, "#7ff6ff", 6); }
        else {
          G.items++; G.score += 500; burst(X + 8, Y + 8, "#ffe27a", 10);
          if (ch === "J") { G.boots = true; G.airJump = 1; G.msg = "JET BOOTS! JUMP AGAIN IN MID-AIR"; }
          else { G.keycard = true; G.msg = "KEYCARD! DOORS WILL OPEN"; }
          G.msgT = 150;
        }
      } else if (ch === "D" && overlap(G.px - 3, G.py, PW + 6, PH, X, Y, TILE, TILE)) {
        if (G.keycard) {
          for (var rr = 0; rr < ROWS; rr++) for (var cc = 0; cc < COLS; cc++) if (grid[rr][cc] === "D") {
            grid[rr][cc] = "."; G.fx.push({ kind: "door", x: cc * TILE, y: rr * TILE, t: 0, room: G.room });
          }
          G.doors++; G.score += 300; G.msg = "DOOR OPENED"; G.msgT = 90;
        } else if (G.msgT < 30) { G.msg = "LOCKED: A KEYCARD IS NEEDED"; G.msgT = 60; }
      } else if (ch === "Z" && overlap(G.px, G.py, PW, PH, X, Y, TILE, TILE)) {
        G.core = 1; G.score += 2000; G.over = true; G.outcome = "win"; G.reason = "reached the reactor core"; return;
      }
    }
    if (hazard) { die(hazard); return; }
    if (G.inv === 0) {
      for (i = 0; i < G.drones.length; i++) {
        var d = G.drones[i];
        if (d.room === G.room && overlap(G.px, G.py, PW, PH, d.x + 2, d.y + 2, DW - 4, DH - 4)) { die("drone"); return; }
      }
    }
    if (G.onGround && !underSpikes()) { G.safe.room = G.room; G.safe.px = G.px; G.safe.py = G.py; }
  }

  // Ground under the bulkhead's spikes is never a place to come back to (so losses cannot inch the hero past it).
  function underSpikes() {
    var c0 = Math.floor(G.px / TILE) - 1, c1 = Math.floor((G.px + PW - 1) / TILE) + 1;
    for (var c = Math.max(0, c0); c <= Math.min(COLS - 1, c1); c++) for (var r = 0; r < ROWS; r++) if (G.grids[G.room][r][c] === "v") return true;
    return false;
  }

  function moveDrones() {
    for (var i = 0; i < G.drones.length; i++) {
      var d = G.drones[i];
      if (d.axis === "h") {
        d.x += d.dir;
        if (d.x <= d.a) { d.x = d.a; d.dir = 1; } else if (d.x >= d.b) { d.x = d.b; d.dir = -1; }
      } else {
        d.y += d.dir;
        if (d.y <= d.a) { d.y = d.a; d.dir = 1; } else if (d.y >= d.b) { d.y = d.b; d.dir = -1; }
      }
    }
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
        rooms: G.rooms,
        items: G.items,
        boots: G.boots,
        keycard: G.keycard,
        doors: G.doors,
        cells: G.cells,
        core: G.core,
        lives: G.lives,
        deaths: G.deaths,
        room: G.room,
        room_name: ROOMS[G.room].name,
        visited: G.visited.slice(),
        player_x: Math.round(G.px + PW / 2),
        player_y: Math.round(G.py + PH),
        on_ground: G.onGround,
        tick: G.t,
        hero: { px: G.px, py: G.py, vy: G.vy, on_ground: G.onGround, jump_buf: G.jumpBuf, coyote: G.coyote,
                air_jump: G.airJump, dying: G.dying, inv: G.inv },
        layout: { airlock_order: G.layout.order.slice(), acid_col: G.layout.acid, crates_col: G.layout.crates,
                  bulkhead_col: G.layout.gate, bulkhead_w: G.layout.gate_w, bridge_acid_col: G.layout.bridge_acid,
                  reactor_spikes_col: G.layout.reactor_spikes },
        tiles: G.grids[G.room].map(function (row) { return row.join(""); }),
        drones: G.drones.map(function (d) { return { room: d.room, axis: d.axis, x: d.x, y: d.y, a: d.a, b: d.b, dir: d.dir }; })
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
    else if ((code === "ArrowUp" || code === "Space") && !e.repeat && G.dying === 0) G.jumpBuf = JUMP_BUFFER;
  });
  window.addEventListener("keyup", function (e) {
    catchUp();
    if (e.code === "ArrowLeft") keys.left = false;
    else if (e.code === "ArrowRight") keys.right = false;
  });

  // ---------------------------------------------------------------- drawing
  var canvas = document.getElementById("game");
  var ctx = canvas.getContext("2d");
  var TINTS = ["#1b2a44", "#22233f", "#2a2238", "#1c3038", "#262a40", "#301c2c"];

  function hash(a, b) {   // deterministic texture noise (drawing only)
    var h = (a * 374761393 + b * 668265263) | 0;
    h = Math.imul(h ^ (h >>> 13), 1274126177);
    return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
  }

  function drawBackdrop(time) {
    var g = ctx.createLinearGradient(0, HUD_H, 0, HUD_H + PLAY_H);
    g.addColorStop(0, TINTS[G.room]); g.addColorStop(1, "#0a0d18");
    ctx.fillStyle = g; ctx.fillRect(0, HUD_H, VIEW_W, PLAY_H);
    // back-wall panels
    ctx.strokeStyle = "rgba(140,170,220,0.07)"; ctx.lineWidth = 1;
    for (var x = 0; x < VIEW_W; x += 64) for (var y = 0; y < PLAY_H; y += 48) ctx.strokeRect(x + 0.5, HUD_H + y + 0.5, 64, 48);
    // two portholes onto the stars
    for (var w = 0; w < 2; w++) {
      var wx = 120 + w * 220 + G.room * 13 % 40, wy = HUD_H + 70 + (G.room * 29 + w * 40) % 60;
      ctx.fillStyle = "#3a4460"; ctx.beginPath(); ctx.arc(wx, wy, 27, 0, 6.283); ctx.fill();
      ctx.fillStyle = "#03040c"; ctx.beginPath(); ctx.arc(wx, wy, 22, 0, 6.283); ctx.fill();
      ctx.save(); ctx.beginPath(); ctx.arc(wx, wy, 22, 0, 6.283); ctx.clip();
      for (var s = 0; s < 14; s++) {
        var sx = wx - 22 + hash(s + w * 31, G.room) * 44, sy = wy - 22 + hash(G.room, s + w * 17) * 44;
        ctx.fillStyle = "rgba(255,255,255," + (0.35 + 0.6 * hash(s, w + 5)) + ")";
        ctx.fillRect(sx, sy, 1.5, 1.5);
      }
      if (w === 1 && G.room % 2 === 0) {
        ctx.fillStyle = "#c86a3a"; ctx.beginPath(); ctx.arc(wx + 8, wy + 6, 9, 0, 6.283); ctx.fill();
      }
      ctx.restore();
      ctx.strokeStyle = "#7a88a8"; ctx.lineWidth = 2; ctx.beginPath(); ctx.arc(wx, wy, 23, 0, 6.283); ctx.stroke();
    }
    // hazard light strip
    var blink = Math.floor(time / 500) % 2;
    ctx.fillStyle = blink ? "rgba(255,90,60,0.5)" : "rgba(255,90,60,0.2)";
    ctx.fillRect(40, HUD_H + 20, 6, 3); ctx.fillRect(434, HUD_H + 20, 6, 3);
  }

  function drawTiles(time) {
    var grid = G.grids[G.room];
    for (var r = 0; r < ROWS; r++) for (var c = 0; c < COLS; c++) {
      var t = grid[r][c];
      if (t === ".") continue;
      var X = c * TILE, Y = HUD_H + r * TILE;
      if (t === "#") {
        ctx.fillStyle = "#4a5570"; ctx.fillRect(X, Y, TILE, TILE);
        ctx.fillStyle = "#3a4258"; ctx.fillRect(X + 1, Y + 1, TILE - 2, TILE - 2);
        ctx.fillStyle = "#5d6a8a"; ctx.fillRect(X, Y, TILE, 1); ctx.fillRect(X, Y, 1, TILE);
        ctx.fillStyle = "#262b3c"; ctx.fillRect(X, Y + TILE - 1, TILE, 1); ctx.fillRect(X + TILE - 1, Y, 1, TILE);
        ctx.fillStyle = "#7c88a6"; ctx.fillRect(X + 3, Y + 3, 1, 1); ctx.fillRect(X + 12, Y + 12, 1, 1);
        var up = r > 0 ? grid[r - 1][c] : "#";
        if (up !== "#" && up !== "B" && up !== "=") { ctx.fillStyle = "#8fa0c4"; ctx.fillRect(X, Y, TILE, 2);
          if ((c + r) % 4 === 0) { ctx.fillStyle = "#e0b040"; ctx.fillRect(X + 2, Y + 3, 4, 2); ctx.fillStyle = "#222"; ctx.fillRect(X + 6, Y + 3, 4, 2); } }
      } else if (t === "=") {
        ctx.fillStyle = "#8a7050"; ctx.fillRect(X, Y, TILE, 6);
        ctx.fillStyle = "#c8a060"; ctx.fillRect(X, Y, TILE, 2);
        ctx.strokeStyle = "#5a4530"; ctx.lineWidth = 1;
        ctx.beginPath(); ctx.moveTo(X, Y + 6); ctx.lineTo(X + 8, Y + 12); ctx.lineTo(X + 16, Y + 6); ctx.stroke();
      } else if (t === "B") {
        ctx.fillStyle = "#6a5a3a"; ctx.fillRect(X, Y, TILE, TILE);
        ctx.fillStyle = "#8d7a4e"; ctx.fillRect(X + 1, Y + 1, TILE - 2, TILE - 2);
        ctx.strokeStyle = "#4a3e26"; ctx.lineWidth = 1.5;
        ctx.beginPath(); ctx.moveTo(X + 2, Y + 2); ctx.lineTo(X + 14, Y + 14); ctx.moveTo(X + 14, Y + 2); ctx.lineTo(X + 2, Y + 14); ctx.stroke();
        ctx.strokeRect(X + 1.5, Y + 1.5, TILE - 3, TILE - 3);
      } else if (t === "D") {
        var dg = ctx.createLinearGradient(X, 0, X + TILE, 0);
        dg.addColorStop(0, "#5a1e26"); dg.addColorStop(0.5, "#b0384a"); dg.addColorStop(1, "#5a1e26");
        ctx.fillStyle = dg; ctx.fillRect(X + 2, Y, TILE - 4, TILE);
        ctx.fillStyle = "#2a0c10"; ctx.fillRect(X + 2, Y + TILE - 2, TILE - 4, 2);
        if (r % 2 === 0) { ctx.fillStyle = (Math.floor(time / 400) % 2) ? "#ff4a4a" : "#7a2020"; ctx.fillRect(X + 6, Y + 6, 4, 4); }
      } else if (t === "a") {
        var surf = Y + 5 + Math.sin(time * 0.004 + c) * 1.2;
        var ag = ctx.createLinearGradient(0, Y, 0, Y + TILE);
        ag.addColorStop(0, "#b6ff5a"); ag.addColorStop(1, "#2e8a1a");
        ctx.fillStyle = ag; ctx.fillRect(X, surf, TILE, Y + TILE - surf);
        ctx.fillStyle = "rgba(180,255,100,0.18)"; ctx.fillRect(X, Y - 6, TILE, 11);
        var bub = (time * 0.02 + c * 7) % 12;
        ctx.fillStyle = "#e8ffb0"; ctx.beginPath(); ctx.arc(X + 4 + (c * 5) % 8, Y + 14 - bub, 1.5, 0, 6.283); ctx.fill();
      } else if (t === "^") {
        ctx.fillStyle = "#b8c4d8";
        for (var k = 0; k < 3; k++) {
          ctx.beginPath(); ctx.moveTo(X + k * 5 + 1, Y + TILE); ctx.lineTo(X + k * 5 + 3.5, Y + 6); ctx.lineTo(X + k * 5 + 6, Y + TILE); ctx.fill();
        }
        ctx.fillStyle = "#e8405a"; for (k = 0; k < 3; k++) ctx.fillRect(X + k * 5 + 3, Y + 6, 1, 2);
      } else if (t === "v") {
        ctx.fillStyle = "#2a3040"; ctx.fillRect(X, Y, TILE, 3);
        ctx.fillStyle = "#b8c4d8";
        for (var q = 0; q < 3; q++) {
          ctx.beginPath(); ctx.moveTo(X + q * 5 + 1, Y + 2); ctx.lineTo(X + q * 5 + 3.5, Y + 15); ctx.lineTo(X + q * 5 + 6, Y + 2); ctx.fill();
        }
        ctx.fillStyle = "#e8405a"; for (q = 0; q < 3; q++) ctx.fillRect(X + q * 5 + 3, Y + 12, 1, 3);
      } else if (t === "c") {
        drawCell(X + 8, Y + 8, time, c);
      } else if (t === "J") {
        drawBoots(X + 8, Y + 10 + Math.sin(time * 0.005) * 2, time);
      } else if (t === "K") {
        drawCard(X + 8, Y + 8 + Math.sin(time * 0.005) * 2, time);
      } else if (t === "Z") {
        if (r > 0 && grid[r - 1][c] === "Z") continue;
        if (c > 0 && grid[r][c - 1] === "Z") continue;
        drawCore(X + 16, Y + 16, time);
      }
    }
  }

  function drawCell(x, y, time, i) {
    var glow = 0.5 + 0.5 * Math.sin(time * 0.008 + i);
    ctx.fillStyle = "rgba(100,240,255," + (0.15 + 0.2 * glow) + ")"; ctx.beginPath(); ctx.arc(x, y, 9, 0, 6.283); ctx.fill();
    ctx.fillStyle = "#1d5a70"; ctx.fillRect(x - 4, y - 6, 8, 12);
    ctx.fillStyle = "#7ff6ff"; ctx.fillRect(x - 3, y - 3, 6, 8);
    ctx.fillStyle = "#d8ffff"; ctx.fillRect(x - 2, y - 8, 4, 2);
  }
  function drawBoots(x, y, time) {
    ctx.fillStyle = "rgba(255,200,80,0.25)"; ctx.beginPath(); ctx.arc(x, y - 2, 12, 0, 6.283); ctx.fill();
    ctx.fillStyle = "#ff8a2a"; ctx.fillRect(x - 7, y - 8, 5, 8); ctx.fillRect(x + 1, y - 8, 5, 8);
    ctx.fillStyle = "#ffd35a"; ctx.fillRect(x - 8, y - 1, 7, 3); ctx.fillRect(x, y - 1, 7, 3);
    ctx.fillStyle = "#5ae0ff"; ctx.fillRect(x - 6, y + 2, 3, 2 + (Math.floor(time / 100) % 2)); ctx.fillRect(x + 2, y + 2, 3, 2 + (Math.floor(time / 100 + 1) % 2));
  }
  function drawCard(x, y, time) {
    ctx.fillStyle = "rgba(120,255,160,0.25)"; ctx.beginPath(); ctx.arc(x, y, 12, 0, 6.283); ctx.fill();
    ctx.fillStyle = "#e8f0ff"; ctx.fillRect(x - 7, y - 5, 14, 10);
    ctx.fillStyle = "#2aa05a"; ctx.fillRect(x - 7, y - 5, 14, 3);
    ctx.fillStyle = "#e0b040"; ctx.fillRect(x - 5, y, 4, 3);
    ctx.fillStyle = "#5a6a8a"; ctx.fillRect(x + 1, y, 5, 1); ctx.fillRect(x + 1, y + 2, 4, 1);
  }
  function drawCore(x, y, time) {
    var pulse = 0.5 + 0.5 * Math.sin(time * 0.006);
    var g = ctx.createRadialGradient(x, y - 4, 2, x, y - 4, 30);
    g.addColorStop(0, "rgba(200,255,255,0.9)"); g.addColorStop(0.4, "rgba(80,200,255," + (0.4 + 0.3 * pulse) + ")"); g.addColorStop(1, "rgba(40,80,255,0)");
    ctx.fillStyle = g; ctx.beginPath(); ctx.arc(x, y - 4, 30, 0, 6.283); ctx.fill();
    ctx.fillStyle = "#3a4258"; ctx.fillRect(x - 14, y + 8, 28, 8);
    ctx.fillStyle = "#5d6a8a"; ctx.fillRect(x - 14, y + 8, 28, 2);
    ctx.fillStyle = "#bff8ff"; ctx.beginPath(); ctx.arc(x, y - 4, 9 + pulse * 2, 0, 6.283); ctx.fill();
    ctx.strokeStyle = "rgba(160,230,255,0.8)"; ctx.lineWidth = 1.5;
    ctx.beginPath(); ctx.ellipse(x, y - 4, 15, 5, time * 0.002, 0, 6.283); ctx.stroke();
    ctx.beginPath(); ctx.ellipse(x, y - 4, 15, 5, -time * 0.002 + 1.2, 0, 6.283); ctx.stroke();
  }

  function drawDrone(d, time) {
    var x = d.x, y = HUD_H + d.y;
    ctx.fillStyle = "rgba(255,60,60,0.15)"; ctx.beginPath(); ctx.arc(x + DW / 2, y + DH / 2, 11, 0, 6.283); ctx.fill();
    var bg = ctx.createLinearGradient(0, y, 0, y + DH);
    bg.addColorStop(0, "#c0c8d8"); bg.addColorStop(1, "#5a6278");
    ctx.fillStyle = bg; ctx.beginPath(); ctx.ellipse(x + DW / 2, y + DH / 2 + 1, DW / 2, DH / 2 - 1, 0, 0, 6.283); ctx.fill();
    ctx.fillStyle = "#20242e"; ctx.fillRect(x + 2, y + 4, DW - 4, 4);
    var eye = d.axis === "h" ? (d.dir > 0 ? 3 : -3) : 0;
    ctx.fillStyle = (Math.floor(time / 200) % 2) ? "#ff3030" : "#ff8080"; ctx.fillRect(x + DW / 2 - 2 + eye, y + 5, 4, 2);
    var spin = Math.floor(time / 50) % 2 ? 8 : 4;
    ctx.fillStyle = "#9aa4b8"; ctx.fillRect(x + DW / 2 - 1, y - 2, 2, 3); ctx.fillRect(x + DW / 2 - spin, y - 3, spin * 2, 1);
  }

  function drawHero(time) {
    var x = G.px, y = HUD_H + G.py;
    if (G.dying > 0) return;
    if (G.inv > 0 && Math.floor(G.inv / 4) % 2) return;
    var moving = G.onGround && (keys.left || keys.right), step = moving ? Math.floor(G.t / 5) % 2 : 0;
    ctx.save(); ctx.translate(Math.round(x + PW / 2), Math.round(y + PH)); ctx.scale(G.face, 1);
    // backpack
    ctx.fillStyle = "#8a94a8"; ctx.fillRect(-7, -15, 4, 8);
    // legs / boots
    ctx.fillStyle = G.boots ? "#ff8a2a" : "#c8d0dc";
    if (!G.onGround) { ctx.fillRect(-4, -5, 3, 4); ctx.fillRect(1, -4, 3, 4); }
    else { ctx.fillRect(-4, -5 + step, 3, 5 - step); ctx.fillRect(1, -5 + (1 - step), 3, 5 - (1 - step)); }
    // suit
    ctx.fillStyle = "#eef2f8"; ctx.fillRect(-4, -12, 9, 8);
    ctx.fillStyle = "#c83a3a"; ctx.fillRect(-4, -8, 9, 1);
    ctx.fillStyle = "#d0d8e4"; ctx.fillRect(3, -11, 3, 5);     // arm
    // helmet
    ctx.fillStyle = "#f4f7fb"; ctx.beginPath(); ctx.arc(0.5, -15, 5, 0, 6.283); ctx.fill();
    var vg = ctx.createLinearGradient(0, -18, 0, -12);
    vg.addColorStop(0, "#ffce5a"); vg.addColorStop(1, "#d0781a");
    ctx.fillStyle = vg; ctx.fillRect(0, -17, 5, 4);
    ctx.fillStyle = "rgba(255,255,255,0.7)"; ctx.fillRect(1, -16, 1, 1);
    if (G.boots && !G.onGround && G.vy < 0) {   // jet flames
      ctx.fillStyle = "rgba(90,220,255,0.85)"; ctx.fillRect(-4, -1, 3, 3 + (G.t % 3)); ctx.fillRect(1, -1, 3, 3 + ((G.t + 1) % 3));
    }
    ctx.restore();
  }

  function drawFx() {
    G.fx.forEach(function (f) {
      if (f.room !== G.room) return;
      if (f.kind === "spark") {
        var ang = f.i * 6.283 / f.n, dist = f.t * 1.2;
        ctx.fillStyle = f.color; ctx.globalAlpha = Math.max(0, 1 - f.t / 36);
        ctx.fillRect(f.x + Math.cos(ang) * dist - 1.5, HUD_H + f.y + Math.sin(ang) * dist - 1.5, 3, 3);
        ctx.globalAlpha = 1;
      } else if (f.kind === "text") {
        ctx.fillStyle = f.color; ctx.globalAlpha = Math.max(0, 1 - f.t / 40);
        ctx.font = "bold 10px monospace"; ctx.textAlign = "center";
        ctx.fillText(f.text, f.x, HUD_H + f.y - f.t * 0.5);
        ctx.globalAlpha = 1;
      } else if (f.kind === "jet") {
        ctx.fillStyle = "rgba(120,230,255," + Math.max(0, 0.8 - f.t / 20) + ")";
        ctx.beginPath(); ctx.ellipse(f.x, HUD_H + f.y + f.t * 0.6, 4 + f.t * 0.6, 2 + f.t * 0.2, 0, 0, 6.283); ctx.fill();
      } else if (f.kind === "door") {
        ctx.fillStyle = "rgba(120,255,160," + Math.max(0, 0.7 - f.t / 40) + ")";
        ctx.fillRect(f.x + 2, HUD_H + f.y, TILE - 4, TILE);
      }
    });
  }

  function drawHUD(time) {
    var g = ctx.createLinearGradient(0, 0, 0, HUD_H);
    g.addColorStop(0, "#182036"); g.addColorStop(1, "#0c1020");
    ctx.fillStyle = g; ctx.fillRect(0, 0, VIEW_W, HUD_H);
    ctx.fillStyle = "#5ae0ff"; ctx.fillRect(0, HUD_H - 2, VIEW_W, 2);
    ctx.textAlign = "left"; ctx.font = "bold 9px monospace"; ctx.fillStyle = "#8fa6d0";
    ctx.fillText("SCORE", 8, 13); ctx.fillText("SUIT", 72, 13); ctx.fillText("CELLS", 132, 13);
    ctx.fillText("GEAR", 186, 13); ctx.fillText("ROOMS", 250, 13); ctx.fillText("DOORS", 286, 13);
    ctx.font = "bold 14px monospace"; ctx.fillStyle = "#ffffff";
    ctx.fillText(("00000" + G.score).slice(-5), 8, 31);
    for (var i = 0; i < LIVES; i++) {   // suit integrity pips
      ctx.fillStyle = i < G.lives ? "#5aff8a" : "#2a3450"; ctx.fillRect(72 + i * 15, 21, 11, 12);
      ctx.fillStyle = i < G.lives ? "#b8ffcc" : "#3a4466"; ctx.fillRect(72 + i * 15, 21, 11, 3);
    }
    drawCell(140, 27, time, 0);
    ctx.fillStyle = "#fff"; ctx.font = "bold 14px monospace"; ctx.fillText("\u00d7" + G.cells, 148, 32);
    // gear slots: boots, keycard
    ctx.strokeStyle = "#3a4a70"; ctx.lineWidth = 1; ctx.strokeRect(186.5, 17.5, 22, 18); ctx.strokeRect(212.5, 17.5, 22, 18);
    if (G.boots) drawBoots(197.5, 28, 0); else { ctx.fillStyle = "#3a4a70"; ctx.fillText("?", 193, 32); }
    if (G.keycard) drawCard(223.5, 26.5, 0); else { ctx.fillStyle = "#3a4a70"; ctx.fillText("?", 219, 32); }
    ctx.fillStyle = "#fff"; ctx.font = "bold 14px monospace"; ctx.fillText(G.rooms + "/" + ROOMS.length, 250, 31);
    ctx.fillText(String(G.doors), 296, 31);
    ctx.font = "bold 9px monospace"; ctx.fillStyle = "#8fa6d0"; ctx.textAlign = "right";
    ctx.fillText(ROOMS[G.room].name, 458, 11); ctx.textAlign = "left";
    // minimap: visited rooms only, the current one blinking
    var mx = 330, my = 17, cw = 26, ch = 10;
    ctx.fillStyle = "#0a0e1a"; ctx.fillRect(mx - 3, my - 3, MAP_W * cw + 4, MAP_H * (ch + 2) + 4);
    ROOMS.forEach(function (R, ri) {
      if (!G.visited[ri]) return;
      var cur = ri === G.room;
      ctx.fillStyle = cur ? ((Math.floor(time / 300) % 2) ? "#ffe27a" : "#c8a040") : (ri === 5 ? "#5ae0ff" : "#4a6aa8");
      ctx.fillRect(mx + R.gx * cw, my + R.gy * (ch + 2), cw - 2, ch);
    });
  }

  function drawBanners(time) {
    if (G.dying > 0 && !G.over) {   // suit breach: red flash and an expanding ring where the hero was hit
      var k = DYING - G.dying;
      ctx.fillStyle = "rgba(255,40,40," + Math.max(0, 0.35 - k * 0.012) + ")"; ctx.fillRect(0, HUD_H, VIEW_W, PLAY_H);
      ctx.strokeStyle = "rgba(255,200,120," + Math.max(0, 1 - k / 30) + ")"; ctx.lineWidth = 2;
      ctx.beginPath(); ctx.arc(G.deathX, HUD_H + G.deathY, 4 + k * 1.5, 0, 6.283); ctx.stroke();
      ctx.fillStyle = "#ffd0c0"; ctx.font = "bold 16px monospace"; ctx.textAlign = "center";
      ctx.fillText("SUIT BREACH! " + G.lives + " LEFT", 240, HUD_H + 150);
    }
    if (G.banner > 0 && !G.over) {
      var a = Math.min(1, G.banner / 20);
      ctx.fillStyle = "rgba(8,12,28," + 0.7 * a + ")"; ctx.fillRect(140, HUD_H + 60, 200, 34);
      ctx.fillStyle = "rgba(90,224,255," + a + ")"; ctx.font = "bold 16px monospace"; ctx.textAlign = "center";
      ctx.fillText(ROOMS[G.room].name, 240, HUD_H + 83);
    }
    if (G.msgT > 0 && !G.over) {
      ctx.globalAlpha = Math.min(1, G.msgT / 20);
      ctx.fillStyle = "rgba(8,12,28,0.75)"; ctx.fillRect(70, HUD_H + 104, 340, 22);
      ctx.fillStyle = "#ffe27a"; ctx.font = "bold 11px monospace"; ctx.textAlign = "center";
      ctx.fillText(G.msg, 240, HUD_H + 119);
      ctx.globalAlpha = 1;
    }
    if (!G.over) return;
    var win = G.outcome === "win";
    ctx.fillStyle = "rgba(4,6,16,0.62)"; ctx.fillRect(0, HUD_H, VIEW_W, PLAY_H);
    ctx.fillStyle = win ? "#12384a" : "#4a1f26"; ctx.fillRect(90, 130, 300, 92);
    ctx.strokeStyle = win ? "#5ae0ff" : "#ff6f6f"; ctx.lineWidth = 3; ctx.strokeRect(90, 130, 300, 92);
    ctx.textAlign = "center"; ctx.fillStyle = "#fff"; ctx.font = "bold 22px monospace";
    ctx.fillText(win ? "CORE REACHED!" : "SUIT BREACHED", 240, 162);
    ctx.font = "12px monospace"; ctx.fillStyle = "#e0e8f8";
    ctx.fillText("Score " + G.score + "   Rooms " + G.rooms + "/" + ROOMS.length + "   Cells " + G.cells, 240, 186);
    ctx.fillStyle = "#a8b4d0"; ctx.fillText("Press Enter to play again", 240, 206);
  }

  function draw() {
    var time = performance.now() - shownSince;
    drawBackdrop(time);
    drawTiles(time);
    G.drones.forEach(function (d) { if (d.room === G.room) drawDrone(d, time); });
    if (!(G.over && G.outcome === "lose")) drawHero(time);
    drawFx();
    drawHUD(time);
    drawBanners(time);
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
