// Bunker Sweep: a grid-stepped first-person raycaster maze for GameWorld.
// Rules kept (games/README.md):
// - time only from the virtual clock: logic advances in fixed 1/60 s ticks counted from rAF timestamps;
// - chance only from Math.random, called in a fixed order (floor generation only);
// - the logic is integer and grid based (no transcendental maths); only drawing uses sin/cos;
// - no drawing while window.__gameworld.rendering is false, and no logic in drawing code;
// - the first frame is drawn before the game reports actionable, and reset() redraws.
(function () {
  "use strict";

  var W = 480, H = 360, VIEW_H = 284, HUD_Y = 284;
  var TICK_MS = 1000 / 60;
  var MAX_CATCH_UP = 600;
  var TW = 13, TH = 11;                   // tiles; maze cells sit on odd coordinates
  var CW = 6, CH = 5;                     // maze cells
  var FLOORS = 3;
  var ANIM = 9;                           // ticks a step or turn takes on screen
  var FIRE_RANGE = 7, SIGHT = 5;
  var GUARD_MOVE = 30, GUARD_SPOT = 24, GUARD_RELOAD = 45, GUARD_DMG = 10, GUARD_HP = 2;
  var START_HEALTH = 100, START_AMMO = 8;
  var DX = [0, 1, 0, -1], DY = [-1, 0, 1, 0]; // facing 0 north, 1 east, 2 south, 3 west
  var FACING = ["N", "E", "S", "W"];
  var KEYCOL = [
    { name: "GOLD", c: "#ffcc33", d: "#9a7412" },
    { name: "CYAN", c: "#3fe0ff", d: "#16788f" },
    { name: "RUBY", c: "#ff4f6a", d: "#8f1f33" }
  ];
  var WALLS = [                           // per floor: base rgb of the bricks
    [120, 124, 136], [86, 112, 150], [140, 104, 76]
  ];

  var canvas = document.getElementById("game");
  var ctx = canvas.getContext("2d");
  var g = null;
  var queue = [];                         // key presses waiting for the next tick
  var lastTs = null, acc = 0;

  function rint(n) { return Math.floor(Math.random() * n); }

  // ---------------------------------------------------------------- floor generation
  function passable(x, y) {
    if (x < 0 || y < 0 || x >= TW || y >= TH) return false;
    var c = g.grid[y][x];
    return c !== "#" && c !== "D";
  }

  function bfsActions(grid, sx, sy, sd, goal) {   // BFS over (x, y, facing): actions to a goal state
    var seen = {}, q = [[sx, sy, sd, 0]], head = 0;
    seen[sx + "," + sy + "," + sd] = 1;
    function open(x, y) {
      return x >= 0 && y >= 0 && x < TW && y < TH && grid[y][x] !== "#" && grid[y][x] !== "D";
    }
    while (head < q.length) {
      var s = q[head++];
      if (goal(s[0], s[1], s[2])) return s;
      var nx = [], d = s[2];
      nx.push([s[0], s[1], (d + 1) % 4]);
      nx.push([s[0], s[1], (d + 3) % 4]);
      if (open(s[0] + DX[d], s[1] + DY[d])) nx.push([s[0] + DX[d], s[1] + DY[d], d]);
      if (open(s[0] - DX[d], s[1] - DY[d])) nx.push([s[0] - DX[d], s[1] - DY[d], d]);
      for (var i = 0; i < nx.length; i++) {
        var k = nx[i][0] + "," + nx[i][1] + "," + nx[i][2];
        if (!seen[k]) { seen[k] = 1; q.push([nx[i][0], nx[i][1], nx[i][2], s[3] + 1]); }
      }
    }
    return null;
  }

  function tileDist(grid, sx, sy) {       // BFS tile distances (doors block)
    var dist = [], x, y;
    for (y = 0; y < TH; y++) { dist.push([]); for (x = 0; x < TW; x++) dist[y].push(-1); }
    var q = [[sx, sy]], head = 0;
    dist[sy][sx] = 0;
    while (head < q.length) {
      var p = q[head++];
      for (var d = 0; d < 4; d++) {
        var nx = p[0] + DX[d], ny = p[1] + DY[d];
        if (nx < 0 || ny < 0 || nx >= TW || ny >= TH) continue;
        if (grid[ny][nx] === "#" || grid[ny][nx] === "D" || dist[ny][nx] >= 0) continue;
        dist[ny][nx] = dist[p[1]][p[0]] + 1;
        q.push([nx, ny]);
      }
    }
    return dist;
  }

  function tryFloor(level) {
    var grid = [], x, y, i;
    for (y = 0; y < TH; y++) { grid.push([]); for (x = 0; x < TW; x++) grid[y].push("#"); }
    // perfect maze by depth-first carving
    var visited = {}, stack = [];
    var c0 = [rint(CW), rint(CH)];
    visited[c0[0] + "," + c0[1]] = 1;
    grid[c0[1] * 2 + 1][c0[0] * 2 + 1] = ".";
    stack.push(c0);
    while (stack.length) {
      var c = stack[stack.length - 1], opts = [];
      for (var d = 0; d < 4; d++) {
        var nx = c[0] + DX[d], ny = c[1] + DY[d];
        if (nx >= 0 && ny >= 0 && nx < CW && ny < CH && !visited[nx + "," + ny]) opts.push(d);
      }
      if (!opts.length) { stack.pop(); continue; }
      var dd = opts[rint(opts.length)];
      var n = [c[0] + DX[dd], c[1] + DY[dd]];
      visited[n[0] + "," + n[1]] = 1;
      grid[c[1] * 2 + 1 + DY[dd]][c[0] * 2 + 1 + DX[dd]] = ".";
      grid[n[1] * 2 + 1][n[0] * 2 + 1] = ".";
      stack.push(n);
    }
    // start and exit cells: the exit is far from the start along the maze
    var sx = rint(CW) * 2 + 1, sy = rint(CH) * 2 + 1;
    var dist = tileDist(grid, sx, sy);
    var cells = [];
    for (y = 1; y < TH; y += 2) for (x = 1; x < TW; x += 2) cells.push([x, y]);
    var far = cells.filter(function (p) { return dist[p[1]][p[0]] >= 12; });
    if (!far.length) return null;
    var ex = far[rint(far.length)];
    // the path from exit back to start (tree path), and a door on a passage tile of its middle third
    var path = [ex], px = ex[0], py = ex[1];
    while (dist[py][px] > 0) {
      for (var e = 0; e < 4; e++) {
        var qx = px + DX[e], qy = py + DY[e];
        if (qx >= 0 && qy >= 0 && qx < TW && qy < TH && dist[qy][qx] === dist[py][px] - 1) { px = qx; py = qy; break; }
      }
      path.push([px, py]);
    }
    path.reverse();                       // start ... exit
    var L = path.length - 1, doors = [];
    for (i = 2; i < L - 2; i++) {
      var t = path[i];
      if ((t[0] % 2 === 0 || t[1] % 2 === 0) && i * 3 >= L && i * 3 <= L * 2) doors.push(t);
    }
    if (!doors.length) return null;
    var door = doors[rint(doors.length)];
    grid[door[1]][door[0]] = "D";
    var side = tileDist(grid, sx, sy);    // the start side, door closed
    var onPath = {};
    path.forEach(function (p) { onPath[p[0] + "," + p[1]] = 1; });
    var keyc = cells.filter(function (p) {
      return side[p[1]][p[0]] >= 6 && !onPath[p[0] + "," + p[1]];
    });
    if (!keyc.length) return null;
    var key = keyc[rint(keyc.length)];
    // two extra openings for loops, each between cells on the same side of the door
    for (i = 0; i < 2; i++) {
      var wx = rint(TW - 2) + 1, wy = rint(TH - 2) + 1;
      if (grid[wy][wx] !== "#" || (wx % 2) === (wy % 2)) continue;
      var a = wx % 2 === 0 ? [wx - 1, wy] : [wx, wy - 1], b = wx % 2 === 0 ? [wx + 1, wy] : [wx, wy + 1];
      if ((side[a[1]][a[0]] >= 0) === (side[b[1]][b[0]] >= 0)) grid[wy][wx] = ".";
    }
    // start facing: towards an open tile
    var sd = 0;
    for (var f = 0; f < 4; f++) {
      var fx = sx + DX[f], fy = sy + DY[f];
      if (fx >= 0 && fy >= 0 && fx < TW && fy < TH && grid[fy][fx] === ".") { sd = f; break; }
    }
    // cost of the plain route: to the key, to face the door, open it, to the exit
    var s1 = bfsActions(grid, sx, sy, sd, function (x, y) { return x === key[0] && y === key[1]; });
    var s2 = s1 && bfsActions(grid, s1[0], s1[1], s1[2], function (x, y, d) {
      return x + DX[d] === door[0] && y + DY[d] === door[1];
    });
    if (!s2) return null;
    grid[door[1]][door[0]] = ".";
    var s3 = bfsActions(grid, s2[0], s2[1], s2[2], function (x, y) { return x === ex[0] && y === ex[1]; });
    grid[door[1]][door[0]] = "D";
    if (!s3) return null;
    var cost = s1[3] + s2[3] + 1 + s3[3];
    if (s1[3] < 9 || cost < 22 || cost > 30) return null;
    // items and guards on free floor tiles
    var used = {};
    used[sx + "," + sy] = used[key[0] + "," + key[1]] = used[ex[0] + "," + ex[1]] = 1;
    var all = tileDist(grid, sx, sy);
    grid[door[1]][door[0]] = ".";
    var total = tileDist(grid, sx, sy);
    grid[door[1]][door[0]] = "D";
    function pick(filter) {
      var list = [];
      for (var yy = 1; yy < TH - 1; yy++) for (var xx = 1; xx < TW - 1; xx++) {
        if (grid[yy][xx] === "." && !used[xx + "," + yy] && filter(xx, yy)) list.push([xx, yy]);
      }
      if (!list.length) return null;
      var p = list[rint(list.length)];
      used[p[0] + "," + p[1]] = 1;
      return p;
    }
    var guards = [], items = [{ x: key[0], y: key[1], kind: "key" }];
    var nGuards = [3, 3, 4][level];
    for (i = 0; i < nGuards; i++) {
      var startSide = i < 2;
      var gp = pick(function (x, y) {
        var ds = all[y][x];
        if (startSide) return ds >= 5;
        return ds < 0 && total[y][x] >= 0;
      });
      if (!gp) return null;
      var axis = [];
      for (var k = 0; k < 4; k++) {
        var ax = gp[0] + DX[k], ay = gp[1] + DY[k];
        if (grid[ay][ax] === ".") axis.push(k);
      }
      guards.push({ x: gp[0], y: gp[1], hx: gp[0], hy: gp[1], d: axis.length ? axis[rint(axis.length)] : 0,
                    hp: GUARD_HP, t: GUARD_MOVE + i * 7, alert: 0, pain: 0, shot: 0, dead: false, face: 2 });
    }
    var kinds = ["health", "ammo", "gold", "gold"];
    for (i = 0; i < kinds.length; i++) {
      var ip = pick(function (x, y) { return total[y][x] >= 2; });
      if (ip) items.push({ x: ip[0], y: ip[1], kind: kinds[i] });
    }
    return { grid: grid, sx: sx, sy: sy, sd: sd, exit: ex, door: door, items: items, guards: guards, cost: cost };
  }

  function genFloor() {
    var f = null;
    for (var tries = 0; tries < 400 && !f; tries++) f = tryFloor(g.floor - 1);
    g.grid = f.grid;
    g.x = f.sx; g.y = f.sy; g.facing = f.sd;
    g.exitX = f.exit[0]; g.exitY = f.exit[1];
    g.doorX = f.door[0]; g.doorY = f.door[1];
    g.items = f.items;
    g.guards = f.guards;
    g.cost = f.cost;
    g.keys = 0;
    g.anim = { fx: g.x, fy: g.y, fa: g.facing, start: -100 };
    g.banner = 90;
  }

  function newGame() {
    g = { tick: 0, floor: 1, keys: 0, doors_opened: 0, guards_down: 0, health: START_HEALTH, ammo: START_AMMO,
          treasure: 0, exits: 0, score: 0, over: false, won: false, hurt: 0, fired: 0, hitFlash: 0,
          msg: "", msgT: 0, pickupFlash: 0, banner: 0 };
    queue = [];
    genFloor();
  }

  // ---------------------------------------------------------------- logic
  function guardAt(x, y) {
    for (var i = 0; i < g.guards.length; i++) {
      var q = g.guards[i];
      if (!q.dead && q.x === x && q.y === y) return q;
    }
    return null;
  }

  function clearLine(x0, y0, x1, y1) {    // same row or column, nothing solid between
    if (x0 !== x1 && y0 !== y1) return false;
    var sx = x1 > x0 ? 1 : x1 < x0 ? -1 : 0, sy = y1 > y0 ? 1 : y1 < y0 ? -1 : 0;
    var x = x0 + sx, y = y0 + sy;
    while (x !== x1 || y !== y1) {
      if (!passable(x, y)) return false;
      x += sx; y += sy;
    }
    return true;
  }

  function say(text) { g.msg = text; g.msgT = 90; }

  function startAnim() {
    g.anim = { fx: g.x, fy: g.y, fa: g.facing, start: g.tick };
  }

  function pickup() {                    // every item on the tile (a guard's clip can lie on the key)
    for (var i = g.items.length - 1; i >= 0; i--) {
      var it = g.items[i];
      if (it.x !== g.x || it.y !== g.y) continue;
      g.items.splice(i, 1);
      g.pickupFlash = 12;
      if (it.kind === "key") { g.keys += 1; say(KEYCOL[g.floor - 1].name + " KEY - opens the " + KEYCOL[g.floor - 1].name + " door"); }
      else if (it.kind === "health") { g.health = Math.min(START_HEALTH, g.health + 30); say("MEDKIT +30"); }
      else if (it.kind === "ammo") { g.ammo += 6; say("AMMO +6"); }
      else if (it.kind === "clip") { g.ammo += 2; say("CLIP +2"); }
      else if (it.kind === "gold") { g.treasure += 1; g.score += 50; say("TREASURE +50"); }
    }
  }

  function move(dir) {
    var nx = g.x + DX[dir], ny = g.y + DY[dir];
    if (!passable(nx, ny) || guardAt(nx, ny)) { if (g.grid[ny] && g.grid[ny][nx] === "D") say(lockedText()); return; }
    startAnim();
    g.x = nx; g.y = ny;
    pickup();
    if (g.x === g.exitX && g.y === g.exitY) {
      g.exits += 1;
      g.score += 500;
      if (g.floor >= FLOORS) { g.won = true; g.over = true; return; }
      g.floor += 1;
      genFloor();
      say("FLOOR " + g.floor + " - find the " + KEYCOL[g.floor - 1].name + " key");
    }
  }

  function lockedText() { return "LOCKED - needs the " + KEYCOL[g.floor - 1].name + " key"; }

  function tryOpen() {                    // true when a door is in front (opened or not)
    var fx = g.x + DX[g.facing], fy = g.y + DY[g.facing];
    if (fy < 0 || fy >= TH || fx < 0 || fx >= TW || g.grid[fy][fx] !== "D") return false;
    if (g.keys > 0) {
      g.keys -= 1;
      g.grid[fy][fx] = ".";
      g.doors_opened += 1;
      g.score += 100;
      say("DOOR OPENED");
    } else {
      say(lockedText());
    }
    return true;
  }

  function fire() {
    if (g.ammo <= 0) { say("OUT OF AMMO"); return; }
    g.ammo -= 1;
    g.fired = 8;
    var x = g.x, y = g.y;
    for (var i = 0; i < FIRE_RANGE; i++) {
      x += DX[g.facing]; y += DY[g.facing];
      if (!passable(x, y)) return;
      var q = guardAt(x, y);
      if (q) {
        q.hp -= 1;
        q.pain = 10;
        q.alert = 1;
        g.hitFlash = 6;
        if (q.hp <= 0) {
          q.dead = true; g.guards_down += 1; g.score += 100; say("GUARD DOWN - dropped a clip");
          g.items.push({ x: q.x, y: q.y, kind: "clip" });
        }
        return;
      }
    }
  }

  function act(code) {
    if (g.over) return;
    if (code === "ArrowUp") move(g.facing);
    else if (code === "ArrowDown") move((g.facing + 2) % 4);
    else if (code === "ArrowLeft") { startAnim(); g.facing = (g.facing + 3) % 4; }
    else if (code === "ArrowRight") { startAnim(); g.facing = (g.facing + 1) % 4; }
    else if (code === "KeyE") tryOpen();
    else if (code === "Space") { if (!(g.keys > 0 && tryOpen())) fire(); }
  }

  function guardsTick() {
    for (var i = 0; i < g.guards.length; i++) {
      var q = g.guards[i];
      if (q.dead) continue;
      if (q.pain > 0) q.pain--;
      if (q.shot > 0) q.shot--;
      q.t--;
      if (q.t > 0) continue;
      var dist = Math.abs(q.x - g.x) + Math.abs(q.y - g.y);
      if (dist <= SIGHT && clearLine(q.x, q.y, g.x, g.y)) {
        q.face = g.x > q.x ? 1 : g.x < q.x ? 3 : g.y > q.y ? 2 : 0;
        if (!q.alert) { q.alert = 1; q.t = GUARD_SPOT; continue; }
        q.shot = 10;
        q.t = GUARD_RELOAD;
        g.health = Math.max(0, g.health - GUARD_DMG);
        g.hurt = 12;
        if (g.health <= 0) { g.over = true; return; }
        continue;
      }
      q.alert = 0;
      q.t = GUARD_MOVE;
      for (var k = 0; k < 2; k++) {
        var nx = q.x + DX[q.d], ny = q.y + DY[q.d];
        var far = Math.abs(nx - q.hx) + Math.abs(ny - q.hy) > 2;
        if (!far && g.grid[ny][nx] === "." && !guardAt(nx, ny) && !(nx === g.x && ny === g.y) &&
            !(nx === g.exitX && ny === g.exitY)) {
          q.x = nx; q.y = ny; q.face = q.d; break;
        }
        q.d = (q.d + 2) % 4;
        q.face = q.d;
      }
    }
  }

  function step() {
    g.tick++;
    if (g.hurt > 0) g.hurt--;
    if (g.fired > 0) g.fired--;
    if (g.hitFlash > 0) g.hitFlash--;
    if (g.msgT > 0) g.msgT--;
    if (g.pickupFlash > 0) g.pickupFlash--;
    if (g.banner > 0) g.banner--;
    while (queue.length) act(queue.shift());
    if (g.over) return;
    guardsTick();
  }

  // ---------------------------------------------------------------- drawing (no logic below)
  var sprites = {};
  function makeSprite(name, fn) {
    var c = document.createElement("canvas");
    c.width = 64; c.height = 64;
    fn(c.getContext("2d"));
    sprites[name] = c;
  }

  function guardArt(x, state) {           // state: "walk", "pain", "shoot", "dead"
    if (state === "dead") {
      x.fillStyle = "#5a1a1a"; x.beginPath(); x.ellipse(32, 58, 24, 5, 0, 0, Math.PI * 2); x.fill();
      x.fillStyle = "#3f5a33"; x.fillRect(12, 50, 36, 9);
      x.fillStyle = "#e0b48a"; x.fillRect(46, 50, 9, 8);
      x.fillStyle = "#2d4226"; x.fillRect(44, 48, 12, 4);
      return;
    }
    x.fillStyle = "rgba(0,0,0,0.35)"; x.beginPath(); x.ellipse(32, 61, 14, 3, 0, 0, Math.PI * 2); x.fill();
    x.fillStyle = "#2b2b2b"; x.fillRect(23, 46, 7, 15); x.fillRect(34, 46, 7, 15);   // legs
    x.fillStyle = state === "pain" ? "#8a4b3b" : "#4d6b3c"; x.fillRect(20, 22, 24, 26); // coat
    x.fillStyle = "#3a5230"; x.fillRect(20, 40, 24, 3);
    x.fillStyle = "#c8a045"; x.fillRect(30, 24, 4, 14);                                 // buttons strip
    x.fillStyle = "#4d6b3c"; x.fillRect(14, 24, 7, 18); x.fillRect(43, 24, 7, 18);       // arms
    x.fillStyle = "#e0b48a"; x.fillRect(25, 9, 14, 13);                                  // face
    x.fillStyle = "#2d4226"; x.fillRect(22, 5, 20, 6); x.fillRect(24, 3, 16, 3);         // helmet
    x.fillStyle = "#111"; x.fillRect(28, 14, 3, 3); x.fillRect(34, 14, 3, 3);            // eyes
    x.fillStyle = "#222"; x.fillRect(26, 30, 14, 5); x.fillRect(36, 28, 4, 12);          // gun
    if (state === "shoot") {
      x.fillStyle = "#fff3a0"; x.beginPath(); x.arc(32, 33, 7, 0, Math.PI * 2); x.fill();
      x.fillStyle = "#ff9a2a"; x.beginPath(); x.arc(32, 33, 4, 0, Math.PI * 2); x.fill();
    }
    if (state === "pain") { x.fillStyle = "#ff3030"; x.fillRect(27, 26, 8, 6); }
  }

  function buildSprites() {
    ["walk", "pain", "shoot", "dead"].forEach(function (s) { makeSprite("guard_" + s, function (x) { guardArt(x, s); }); });
    KEYCOL.forEach(function (k, i) {
      makeSprite("key" + i, function (x) {
        x.fillStyle = "rgba(0,0,0,0.3)"; x.beginPath(); x.ellipse(32, 61, 10, 2, 0, 0, Math.PI * 2); x.fill();
        x.strokeStyle = k.c; x.lineWidth = 4;
        x.beginPath(); x.arc(32, 38, 6, 0, Math.PI * 2); x.stroke();
        x.fillStyle = k.c; x.fillRect(30, 44, 4, 14); x.fillRect(34, 52, 5, 3); x.fillRect(34, 56, 4, 2);
      });
    });
    makeSprite("health", function (x) {
      x.fillStyle = "#e8e8e8"; x.fillRect(20, 44, 24, 17);
      x.fillStyle = "#bbb"; x.fillRect(20, 58, 24, 3);
      x.fillStyle = "#d22"; x.fillRect(29, 46, 6, 13); x.fillRect(25, 50, 14, 5);
    });
    makeSprite("ammo", function (x) {
      x.fillStyle = "#5a4a2a"; x.fillRect(20, 48, 24, 13);
      x.fillStyle = "#c9a24a";
      for (var i = 0; i < 4; i++) x.fillRect(22 + i * 6, 40, 4, 9);
      x.fillStyle = "#8a6b2a"; x.fillRect(20, 52, 24, 2);
    });
    makeSprite("clip", function (x) {
      x.fillStyle = "#3a3a40"; x.fillRect(26, 46, 12, 15);
      x.fillStyle = "#c9a24a"; x.fillRect(28, 42, 3, 5); x.fillRect(33, 42, 3, 5);
    });
    makeSprite("gold", function (x) {
      x.fillStyle = "#ffd23f"; x.fillRect(24, 38, 16, 10); x.fillRect(29, 48, 6, 8); x.fillRect(24, 56, 16, 4);
      x.fillStyle = "#fff0a0"; x.fillRect(26, 40, 4, 5);
      x.fillStyle = "#e04a8a"; x.fillRect(30, 42, 4, 3);
    });
    makeSprite("exit", function (x) {
      x.fillStyle = "rgba(60,255,140,0.25)"; x.beginPath(); x.ellipse(32, 60, 26, 5, 0, 0, Math.PI * 2); x.fill();
      x.fillStyle = "#1d3b2a"; x.fillRect(14, 12, 36, 16);
      x.strokeStyle = "#58ff9a"; x.lineWidth = 2; x.strokeRect(14, 12, 36, 16);
      x.fillStyle = "#58ff9a"; x.font = "bold 11px monospace"; x.textAlign = "center"; x.textBaseline = "middle";
      x.fillText("EXIT", 32, 21);
      x.fillStyle = "#444"; x.fillRect(30, 28, 4, 32);
    });
  }

  function rgb(c, f) {
    return "rgb(" + Math.round(c[0] * f) + "," + Math.round(c[1] * f) + "," + Math.round(c[2] * f) + ")";
  }

  function camera() {
    var a = g.anim, t = Math.min(1, (g.tick - a.start) / ANIM);
    t = t * t * (3 - 2 * t);
    var fx = a.fx + (g.x - a.fx) * t, fy = a.fy + (g.y - a.fy) * t;
    var d = g.facing - a.fa;
    if (d > 2) d -= 4;
    if (d < -2) d += 4;
    var ang = (a.fa + d * t) * Math.PI / 2 - Math.PI / 2;
    return { x: fx + 0.5, y: fy + 0.5, a: ang, moving: t < 1 };
  }

  function keyLast(items) {              // the key is drawn over a clip dropped on its tile
    return items.filter(function (it) { return it.kind !== "key"; })
      .concat(items.filter(function (it) { return it.kind === "key"; }));
  }

  function drawView() {
    var cam = camera();
    var dirX = Math.cos(cam.a), dirY = Math.sin(cam.a);
    var planeX = -dirY * 0.66, planeY = dirX * 0.66;
    var wc = WALLS[g.floor - 1], kc = KEYCOL[g.floor - 1];
    // ceiling and floor
    var sky = ctx.createLinearGradient(0, 0, 0, VIEW_H / 2);
    sky.addColorStop(0, "#1b1d24"); sky.addColorStop(1, "#3a3d48");
    ctx.fillStyle = sky; ctx.fillRect(0, 0, W, VIEW_H / 2);
    var fl = ctx.createLinearGradient(0, VIEW_H / 2, 0, VIEW_H);
    fl.addColorStop(0, "#2e2822"); fl.addColorStop(1, "#6b5a48");
    ctx.fillStyle = fl; ctx.fillRect(0, VIEW_H / 2, W, VIEW_H / 2);
    ctx.imageSmoothingEnabled = false;
    var RES = 2, zbuf = [];
    for (var col = 0; col < W; col += RES) {
      var camX = 2 * (col + RES / 2) / W - 1;
      var rx = dirX + planeX * camX, ry = dirY + planeY * camX;
      var mx = Math.floor(cam.x), my = Math.floor(cam.y);
      var ddx = Math.abs(1 / (rx || 1e-9)), ddy = Math.abs(1 / (ry || 1e-9));
      var stepX = rx < 0 ? -1 : 1, stepY = ry < 0 ? -1 : 1;
      var sdx = rx < 0 ? (cam.x - mx) * ddx : (mx + 1 - cam.x) * ddx;
      var sdy = ry < 0 ? (cam.y - my) * ddy : (my + 1 - cam.y) * ddy;
      var side = 0, cell = "#", n = 0;
      while (n++ < 64) {
        if (sdx < sdy) { sdx += ddx; mx += stepX; side = 0; } else { sdy += ddy; my += stepY; side = 1; }
        if (mx < 0 || my < 0 || mx >= TW || my >= TH) { cell = "#"; break; }
        cell = g.grid[my][mx];
        if (cell === "#" || cell === "D") break;
      }
      var dist = side === 0 ? sdx - ddx : sdy - ddy;
      if (dist < 0.05) dist = 0.05;
      zbuf.push(dist);
      var h = VIEW_H / dist, top = (VIEW_H - h) / 2;
      var u = side === 0 ? cam.y + dist * ry : cam.x + dist * rx;
      u -= Math.floor(u);
      var fog = 1 / (1 + dist * 0.22), shade = (side === 0 ? 1 : 0.72) * fog;
      if (cell === "D") {
        ctx.fillStyle = rgb(hex(kc.c), 0.85 * shade); ctx.fillRect(col, top, RES, h);
        if (u < 0.08 || u > 0.92) { ctx.fillStyle = rgb([60, 60, 66], shade); ctx.fillRect(col, top, RES, h); }
        else if (Math.abs(u - 0.5) < 0.03 || (u > 0.18 && u < 0.22) || (u > 0.78 && u < 0.82)) {
          ctx.fillStyle = rgb(hex(kc.d), shade); ctx.fillRect(col, top, RES, h);
        }
        if (u > 0.62 && u < 0.7) { ctx.fillStyle = "rgba(0,0,0," + (0.8 * fog) + ")"; ctx.fillRect(col, top + h * 0.48, RES, h * 0.08); }
        continue;
      }
      ctx.fillStyle = rgb(wc, shade); ctx.fillRect(col, top, RES, h);
      if (h > 10) {
        var rows = 5, rh = h / rows, dark = rgb(wc, shade * 0.55), lit = rgb(wc, Math.min(1.2, shade * 1.12));
        for (var r = 0; r < rows; r++) {
          var off = (r % 2) * 0.5, fu = u * 2 + off; fu -= Math.floor(fu);
          var y0 = top + r * rh;
          ctx.fillStyle = dark;
          ctx.fillRect(col, y0, RES, Math.max(1, rh * 0.08));
          if (fu < 0.05) ctx.fillRect(col, y0, RES, rh);
          else if (((mx * 7 + my * 13 + r * 5 + Math.floor(u * 2 + off)) % 5) === 0) {
            ctx.fillStyle = lit; ctx.fillRect(col, y0 + rh * 0.1, RES, rh * 0.9);
          }
        }
      }
    }
    // sprites, far to near
    var list = [];
    keyLast(g.items).forEach(function (it) {
      list.push({ x: it.x + 0.5, y: it.y + 0.5, img: it.kind === "key" ? sprites["key" + (g.floor - 1)] : sprites[it.kind === "clip" ? "clip" : it.kind] });
    });
    list.push({ x: g.exitX + 0.5, y: g.exitY + 0.5, img: sprites.exit });
    g.guards.forEach(function (q) {
      var s = q.dead ? "dead" : q.shot > 0 ? "shoot" : q.pain > 0 ? "pain" : "walk";
      list.push({ x: q.x + 0.5, y: q.y + 0.5, img: sprites["guard_" + s], guard: !q.dead, bob: q.dead ? 0 : (g.tick + q.hx * 9) });
    });
    var inv = 1 / (planeX * dirY - dirX * planeY);
    list.forEach(function (s) {
      var dx = s.x - cam.x, dy = s.y - cam.y;
      s.tx = inv * (dirY * dx - dirX * dy);
      s.ty = inv * (-planeY * dx + planeX * dy);
    });
    list.sort(function (a, b) { return b.ty - a.ty; });
    list.forEach(function (s) {
      if (s.ty <= 0.15) return;
      var sxp = (W / 2) * (1 + s.tx / s.ty), size = VIEW_H / s.ty;
      var top = VIEW_H / 2 + size / 2 - size, left = sxp - size / 2;
      if (s.bob) top += Math.sin(s.bob / 8) * size * 0.01;
      var c0 = Math.max(0, Math.floor(left / RES)), c1 = Math.min(W / RES - 1, Math.floor((left + size) / RES));
      var fog = Math.min(1, 1 / (1 + s.ty * 0.22) + 0.25);
      ctx.globalAlpha = 1;
      for (var c = c0; c <= c1; c++) {
        if (zbuf[c] < s.ty) continue;
        var su = (c * RES - left) / size * 64;
        if (su < 0 || su >= 64) continue;
        ctx.drawImage(s.img, Math.floor(su), 0, 1, 64, c * RES, top, RES, size);
      }
      if (fog < 1) {                      // darken distant sprites a little
        ctx.globalAlpha = 1;
      }
    });
    // gun
    var bob = cam.moving ? Math.sin((g.tick - g.anim.start) / ANIM * Math.PI) * 6 : 0;
    var gx = W / 2, gy = VIEW_H + 4 + bob - (g.fired > 4 ? 10 : 0);
    if (g.fired > 3) {
      ctx.fillStyle = "rgba(255,240,150,0.95)";
      ctx.beginPath(); ctx.arc(gx, gy - 104, 18, 0, Math.PI * 2); ctx.fill();
      ctx.fillStyle = "rgba(255,150,40,0.9)";
      ctx.beginPath(); ctx.arc(gx, gy - 104, 10, 0, Math.PI * 2); ctx.fill();
    }
    ctx.fillStyle = "#1c1c22"; ctx.fillRect(gx - 14, gy - 96, 28, 60);          // slide
    ctx.fillStyle = "#3d3d48"; ctx.fillRect(gx - 10, gy - 96, 7, 58);
    ctx.fillStyle = "#5c5c6a"; ctx.fillRect(gx - 9, gy - 96, 2, 56);
    ctx.fillStyle = "#0c0c10"; ctx.fillRect(gx - 4, gy - 99, 8, 6);            // muzzle and sight
    ctx.fillStyle = "#2a2a33"; ctx.fillRect(gx - 18, gy - 40, 36, 16);         // frame
    ctx.fillStyle = "#5b3d24"; ctx.fillRect(gx - 16, gy - 26, 32, 34);         // grip
    ctx.fillStyle = "#70503a";
    for (var gl = 0; gl < 4; gl++) ctx.fillRect(gx - 12, gy - 22 + gl * 7, 24, 2);
    ctx.fillStyle = "#d8a37c"; ctx.fillRect(gx - 30, gy - 22, 18, 30); ctx.fillRect(gx + 12, gy - 22, 18, 30);
    ctx.fillStyle = "#c08b66"; ctx.fillRect(gx - 30, gy - 22, 18, 4); ctx.fillRect(gx + 12, gy - 22, 18, 4);
    ctx.fillStyle = "#e8b894"; ctx.fillRect(gx - 12, gy - 34, 8, 12);
    // crosshair
    ctx.fillStyle = g.hitFlash > 0 ? "#ff5050" : "rgba(255,255,255,0.6)";
    ctx.fillRect(W / 2 - 6, VIEW_H / 2, 4, 1); ctx.fillRect(W / 2 + 3, VIEW_H / 2, 4, 1);
    ctx.fillRect(W / 2, VIEW_H / 2 - 6, 1, 4); ctx.fillRect(W / 2, VIEW_H / 2 + 3, 1, 4);
    if (g.hurt > 0) { ctx.fillStyle = "rgba(220,0,0," + (g.hurt / 12 * 0.45) + ")"; ctx.fillRect(0, 0, W, VIEW_H); }
    if (g.pickupFlash > 0) { ctx.fillStyle = "rgba(255,230,120," + (g.pickupFlash / 12 * 0.25) + ")"; ctx.fillRect(0, 0, W, VIEW_H); }
  }

  function hex(s) { return [parseInt(s.substr(1, 2), 16), parseInt(s.substr(3, 2), 16), parseInt(s.substr(5, 2), 16)]; }

  function drawMinimap() {
    var S = 6, ox = W - TW * S - 8, oy = 8, x, y;
    ctx.fillStyle = "rgba(8,10,16,0.72)";
    ctx.fillRect(ox - 4, oy - 4, TW * S + 8, TH * S + 8);
    for (y = 0; y < TH; y++) for (x = 0; x < TW; x++) {
      var c = g.grid[y][x];
      if (c === "#") { ctx.fillStyle = rgb(WALLS[g.floor - 1], 0.8); ctx.fillRect(ox + x * S, oy + y * S, S, S); }
      else if (c === "D") { ctx.fillStyle = KEYCOL[g.floor - 1].c; ctx.fillRect(ox + x * S, oy + y * S, S, S); }
    }
    ctx.fillStyle = "#58ff9a"; ctx.fillRect(ox + g.exitX * S + 1, oy + g.exitY * S + 1, S - 2, S - 2);
    keyLast(g.items).forEach(function (it) {
      ctx.fillStyle = it.kind === "key" ? KEYCOL[g.floor - 1].c : it.kind === "health" ? "#ff6060" :  (it.kind === "ammo" || it.kind === "clip") ? "#d9b35a" : "#fff08a";
      ctx.fillRect(ox + it.x * S + 2, oy + it.y * S + 2, S - 4, S - 4);
    });
    g.guards.forEach(function (q) {
      if (q.dead) return;
      ctx.fillStyle = "#ff3b3b"; ctx.fillRect(ox + q.x * S + 1, oy + q.y * S + 1, S - 2, S - 2);
    });
    var px = ox + g.x * S + S / 2, py = oy + g.y * S + S / 2;
    ctx.fillStyle = "#ffffff";
    ctx.beginPath();
    var f = g.facing;
    ctx.moveTo(px + DX[f] * 4, py + DY[f] * 4);
    ctx.lineTo(px - DX[f] * 3 + DY[f] * 3, py - DY[f] * 3 - DX[f] * 3);
    ctx.lineTo(px - DX[f] * 3 - DY[f] * 3, py - DY[f] * 3 + DX[f] * 3);
    ctx.closePath(); ctx.fill();
  }

  function panel(x, w, label, value, color) {
    ctx.fillStyle = "#171a22"; ctx.fillRect(x, HUD_Y + 10, w, 50);
    ctx.strokeStyle = "#3c4458"; ctx.lineWidth = 1; ctx.strokeRect(x + 0.5, HUD_Y + 10.5, w - 1, 49);
    ctx.fillStyle = "#8c96ad"; ctx.font = "bold 10px monospace"; ctx.textAlign = "center"; ctx.textBaseline = "middle";
    ctx.fillText(label, x + w / 2, HUD_Y + 20);
    ctx.fillStyle = color; ctx.font = "bold 22px monospace";
    ctx.fillText(value, x + w / 2, HUD_Y + 44);
  }

  function drawHud() {
    var hb = ctx.createLinearGradient(0, HUD_Y, 0, H);
    hb.addColorStop(0, "#262c3a"); hb.addColorStop(1, "#10131b");
    ctx.fillStyle = hb; ctx.fillRect(0, HUD_Y, W, H - HUD_Y);
    ctx.fillStyle = "#4a5570"; ctx.fillRect(0, HUD_Y, W, 2);
    var hcol = g.health > 50 ? "#7dff8a" : g.health > 25 ? "#ffd23f" : "#ff5c5c";
    var x = 6;                            // seven panels, 4 px apart
    panel(x, 58, "FLOOR", g.floor + "/" + FLOORS, "#ffffff"); x += 62;
    panel(x, 72, "HEALTH", g.health + "%", hcol); x += 76;
    panel(x, 56, "AMMO", String(g.ammo), g.ammo > 0 ? "#ffd27a" : "#ff5c5c"); x += 60;
    // keys panel with a key icon
    var kc = KEYCOL[g.floor - 1];
    ctx.fillStyle = "#171a22"; ctx.fillRect(x, HUD_Y + 10, 70, 50);
    ctx.strokeStyle = "#3c4458"; ctx.strokeRect(x + 0.5, HUD_Y + 10.5, 69, 49);
    ctx.fillStyle = "#8c96ad"; ctx.font = "bold 10px monospace"; ctx.textAlign = "center";
    ctx.fillText("KEYS", x + 35, HUD_Y + 20);
    ctx.strokeStyle = g.keys > 0 ? kc.c : "#3a3f4e"; ctx.lineWidth = 3;
    ctx.beginPath(); ctx.arc(x + 20, HUD_Y + 44, 5, 0, Math.PI * 2); ctx.stroke();
    ctx.fillStyle = g.keys > 0 ? kc.c : "#3a3f4e"; ctx.fillRect(x + 25, HUD_Y + 42, 14, 4); ctx.fillRect(x + 35, HUD_Y + 46, 3, 5);
    ctx.fillStyle = "#ffffff"; ctx.font = "bold 18px monospace"; ctx.fillText("x" + g.keys, x + 54, HUD_Y + 44);
    ctx.lineWidth = 1; x += 74;
    panel(x, 58, "DOORS", String(g.doors_opened), "#9fd8ff"); x += 62;
    panel(x, 70, "TREASURE", String(g.treasure), "#fff08a"); x += 74;
    panel(x, 60, "GUARDS", String(g.guards_down), "#ff8a7a");
    ctx.lineWidth = 1;
  }

  function drawText() {
    ctx.textAlign = "left"; ctx.textBaseline = "middle";
    ctx.fillStyle = "rgba(8,10,16,0.6)"; ctx.fillRect(6, 6, 190, 20);
    ctx.fillStyle = "#dfe6ff"; ctx.font = "bold 12px monospace";
    ctx.fillText("SCORE " + g.score + "   FACING " + FACING[g.facing], 12, 16);
    if (g.msgT > 0 && g.msg) {
      ctx.font = "bold 13px monospace"; ctx.textAlign = "center";
      var w = ctx.measureText(g.msg).width + 20;
      ctx.fillStyle = "rgba(8,10,16,0.7)"; ctx.fillRect(W / 2 - w / 2, 36, w, 22);
      ctx.fillStyle = "#ffe9a8"; ctx.fillText(g.msg, W / 2, 47);
    }
    if (g.banner > 0 && !g.over) {
      ctx.font = "bold 26px monospace"; ctx.textAlign = "center";
      ctx.fillStyle = "rgba(0,0,0,0.55)"; ctx.fillRect(0, VIEW_H / 2 - 56, W, 40);
      ctx.fillStyle = KEYCOL[g.floor - 1].c;
      ctx.fillText("FLOOR " + g.floor, W / 2, VIEW_H / 2 - 36);
    }
    if (g.over) {
      ctx.fillStyle = g.won ? "rgba(10,40,20,0.8)" : "rgba(50,0,0,0.78)";
      ctx.fillRect(0, VIEW_H / 2 - 50, W, 100);
      ctx.textAlign = "center";
      ctx.fillStyle = g.won ? "#7dff8a" : "#ff5c5c";
      ctx.font = "bold 30px monospace";
      ctx.fillText(g.won ? "BUNKER CLEARED" : "YOU WERE DOWNED", W / 2, VIEW_H / 2 - 14);
      ctx.fillStyle = "#ffffff"; ctx.font = "bold 14px monospace";
      ctx.fillText("FLOORS " + g.exits + "  GUARDS " + g.guards_down + "  SCORE " + g.score, W / 2, VIEW_H / 2 + 22);
    }
  }

  function draw() {
    drawView();
    drawMinimap();
    drawText();
    drawHud();
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

  var KEYS = { ArrowUp: 1, ArrowDown: 1, ArrowLeft: 1, ArrowRight: 1, Space: 1, KeyE: 1 };
  window.addEventListener("keydown", function (e) {
    if (!(e.code in KEYS)) return;
    e.preventDefault();
    if (e.repeat) return;
    if (queue.length < 4) queue.push(e.code);
  });

  function mapRows() {
    var rows = g.grid.map(function (r) { return r.slice(); });
    rows[g.exitY][g.exitX] = "E";
    g.items.forEach(function (it) {
      if (rows[it.y][it.x] === "K") return;   // the key shows even under a dropped clip
      rows[it.y][it.x] = it.kind === "key" ? "K" : it.kind === "health" ? "H" : (it.kind === "ammo" || it.kind === "clip") ? "A" : "T";
    });
    return rows.map(function (r) { return r.join(""); });
  }

  window.gameAPI = {
    getState: function () {
      return {
        status: g.over ? "terminal" : "playing",
        actionable: true,
        terminal: { is_terminal: g.over, outcome: g.over ? (g.won ? "win" : "lose") : null,
                    reason: g.over ? (g.won ? "all floors cleared" : "health ran out") : null },
        score: g.score,
        floor: g.floor,
        keys: g.keys,
        doors_opened: g.doors_opened,
        guards_down: g.guards_down,
        health: g.health,
        ammo: g.ammo,
        treasure: g.treasure,
        x: g.x,
        y: g.y,
        facing: g.facing,
        exits: g.exits,
        map: mapRows(),
        guards: g.guards.filter(function (q) { return !q.dead; }).map(function (q) { return [q.x, q.y, q.hp]; })
      };
    },
    reset: function () {
      queue = [];
      newGame();
      acc = 0;
      draw();
    }
  };

  buildSprites();
  newGame();
  draw();
  requestAnimationFrame(frame);
})();
