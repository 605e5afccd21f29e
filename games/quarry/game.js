// Quarry Nights: a side-view block world. Chop trees, craft planks and pickaxes, dig down through dirt and
// stone to coal and iron, and before night falls wall yourself in (or light torches): at night shade-bats
// fly out of the sky toward the miner and bite whoever they can reach.
// Logic runs in fixed 1/60 s ticks taken from requestAnimationFrame timestamps; chance comes only from
// Math.random, drawn in a fixed order (the world when it is made, then bat spawns in the logic tick).
// Nothing that getState() exposes is touched by the drawing code.
(function () {
  "use strict";

  var W = 480, H = 360, T = 24, COLS = 40, ROWS = 24, HUD = 40, FOOT = 22;
  var VIEW_H = H - HUD - FOOT;
  var TICK_MS = 1000 / 60;
  var MAX_CATCH_UP = 600;
  var STEP_TICKS = 15;                     // one 250 ms action
  var DAY_T = 50 * STEP_TICKS;             // 50 steps of daylight
  var NIGHT_T = 30 * STEP_TICKS;           // 30 steps of night
  var CYCLE = DAY_T + NIGHT_T;
  var MAX_HEALTH = 10, BITE = 2, BITE_COOLDOWN = 40;
  var FALL_EVERY = 3, JUMP_HANG = 18;
  var BAT_MOVE = 12, BAT_SPAWN = 36, BAT_MAX = 5, TORCH_R = 3;
  var PLATEAU = 10;                        // grass row around the spawn
  var SPAWN_X = 20;
  var PLAIN = 9;                           // the ground is flat from SPAWN_X - PLAIN to SPAWN_X + PLAIN
  var NEAR_MIN = 2, NEAR_SPAN = 8;         // the nearest tree: 2-9 tiles to one side (seeded)
  var FAR = 10;                            // every other tree is at least 10 tiles from the start

  // tiles
  var AIR = 0, GRASS = 1, DIRT = 2, STONE = 3, COAL = 4, IRON = 5, WOOD = 6, PLANK = 7, WATER = 8, BEDROCK = 9;
  var CH = [".", "g", "d", "s", "c", "i", "w", "p", "~", "#"];
  var NAME = ["air", "grass", "dirt", "stone", "coal ore", "iron ore", "log", "planks", "water", "bedrock"];
  function solid(t) { return t !== AIR && t !== WATER; }
  // tree trunks stand in the background: the miner walks and falls through them (but can still chop them)
  function firm(t) { return solid(t) && t !== WOOD; }
  // shade-bats seep through open cells and soft earth (grass, dirt), never through stone, ore, logs or planks
  function batPass(t) { return t === AIR || t === WATER || t === GRASS || t === DIRT; }
  // hits needed to break a tile with pickaxe level 0, 1, 2 (0 = cannot)
  var HITS = {};
  HITS[GRASS] = [1, 1, 1]; HITS[DIRT] = [1, 1, 1]; HITS[WOOD] = [2, 2, 2]; HITS[PLANK] = [1, 1, 1];
  HITS[STONE] = [0, 3, 2]; HITS[COAL] = [0, 3, 2]; HITS[IRON] = [0, 0, 3]; HITS[BEDROCK] = [0, 0, 0];

  var canvas = document.getElementById("game");
  var ctx = canvas.getContext("2d");
  var g = null;
  var pending = [];
  var lastTs = null, acc = 0;

  function rnd(n) { return Math.floor(Math.random() * n); }

  // ---------------------------------------------------------------- the world
  function newGame() {
    var map = [], x, y, i;
    for (y = 0; y < ROWS; y++) { map.push([]); for (x = 0; x < COLS; x++) map[y].push(AIR); }
    var surf = [];
    for (x = 0; x < COLS; x++) surf.push(PLATEAU);
    var h = PLATEAU;
    for (x = SPAWN_X - PLAIN - 1; x >= 0; x--) { if (rnd(100) < 35) h += rnd(2) ? 1 : -1; h = Math.max(7, Math.min(12, h)); surf[x] = h; }
    h = PLATEAU;
    for (x = SPAWN_X + PLAIN + 1; x < COLS; x++) { if (rnd(100) < 35) h += rnd(2) ? 1 : -1; h = Math.max(7, Math.min(12, h)); surf[x] = h; }
    var dirtDepth = [];
    for (x = 0; x < COLS; x++) dirtDepth.push(2 + (rnd(100) < 30 ? 1 : 0));
    for (x = 0; x < COLS; x++) {
      for (y = surf[x]; y < ROWS; y++) {
        if (y === ROWS - 1) map[y][x] = BEDROCK;
        else if (y === surf[x]) map[y][x] = GRASS;
        else if (y <= surf[x] + dirtDepth[x]) map[y][x] = DIRT;
        else {
          var r = rnd(100);
          var deep = y >= surf[x] + 6 && (x < 12 || x > 28);
          map[y][x] = r < 8 ? COAL : (deep && r < 12 ? IRON : STONE);
        }
      }
    }
    // a pond on one far side
    var pondLeft = rnd(2) === 0;
    var nearSide = pondLeft ? -1 : 1;       // the nearest tree stands on the pond's side
    var px0 = pondLeft ? 3 + rnd(4) : 31 + rnd(4);
    var s = surf[px0];
    for (x = px0; x < px0 + 4; x++) {
      for (y = 0; y < ROWS - 1; y++) if (y < s + 2 && y >= s) map[y][x] = WATER; else if (y < s) map[y][x] = AIR;
      map[s + 2][x] = DIRT;
      surf[x] = s + 2;
    }
    for (y = s; y < s + 3; y++) { if (!solid(map[y][px0 - 1])) map[y][px0 - 1] = DIRT; if (!solid(map[y][px0 + 4])) map[y][px0 + 4] = DIRT; }
    // guaranteed coal and iron under the plateau
    var side = rnd(2) ? 1 : -1;
    var cx = SPAWN_X + side * (2 + rnd(3)), cy = PLATEAU + 4 + rnd(2);
    map[cy][cx] = COAL; map[cy][cx + 1] = COAL;
    var ix = SPAWN_X - side * (3 + rnd(4)), iy = PLATEAU + 8 + rnd(3);
    map[iy][ix] = IRON; map[iy][ix - side] = IRON; map[iy][ix - 2 * side] = IRON;
    // trees: the nearest 2-9 tiles to one side (seeded), one 10-12 tiles to the other side, a few further out
    var trees = [SPAWN_X + nearSide * (NEAR_MIN + rnd(NEAR_SPAN)), SPAWN_X - nearSide * (FAR + rnd(3))];
    for (x = 2; x < COLS - 2; x++) {
      if (Math.abs(x - SPAWN_X) < FAR) continue;
      if (x >= px0 - 1 && x <= px0 + 4) continue;
      if (Math.abs(x - trees[1]) < 3) continue;
      if (rnd(100) < 18) { trees.push(x); x += 2; }
    }
    for (i = 0; i < trees.length; i++) {
      var tx = trees[i], th = i < 2 ? 4 + rnd(2) : 3 + rnd(3);   // the first two: 4-5 logs, 8 or more together
      for (y = surf[tx] - 1; y >= surf[tx] - th; y--) map[y][tx] = WOOD;
    }
    g = {
      tick: 0, clock: 0, map: map,
      px: SPAWN_X, py: PLATEAU - 1, face: 1, hang: 0, fallT: 0,
      moveFrom: [SPAWN_X, PLATEAU - 1], moveTick: -100, swingTick: -100,
      health: MAX_HEALTH, hurtTick: -100,
      wood: 0, stone: 0, coal: 0, iron: 0, planks: 0, dirt: 0, pickaxe: 0,
      torches: [], placed: 0, mined: 0, woodGot: 0, stoneGot: 0, coalGot: 0, ironGot: 0,
      nights: 0, bats: [], hit: null, parts: [],
      message: "Chop a tree (X facing it), press 1 for planks, 2 for a pickaxe.", msgTicks: 300,
      over: false
    };
  }

  function tile(x, y) {
    if (x < 0 || x >= COLS) return BEDROCK;
    if (y < 0) return AIR;
    if (y >= ROWS) return BEDROCK;
    return g.map[y][x];
  }
  function say(t) { g.message = t; g.msgTicks = 150; }
  function isNight() { return g.clock >= DAY_T; }
  function grounded() { return firm(tile(g.px, g.py + 1)); }

  function torchZone(x, y) {
    for (var i = 0; i < g.torches.length; i++) {
      var t = g.torches[i];
      if (Math.abs(t[0] - x) <= TORCH_R && Math.abs(t[1] - y) <= TORCH_R) return true;
    }
    return false;
  }
  function batAt(x, y) {
    for (var i = 0; i < g.bats.length; i++) if (g.bats[i].x === x && g.bats[i].y === y) return true;
    return false;
  }

  // distance (in moves through open, torch-free cells) from the player to every cell; -1 unreachable
  function distMap() {
    var d = new Array(COLS * ROWS), i;
    for (i = 0; i < d.length; i++) d[i] = -1;
    var q = [g.px + g.py * COLS];
    d[q[0]] = 0;
    for (var h = 0; h < q.length; h++) {
      var c = q[h], x = c % COLS, y = (c - x) / COLS;
      var nb = [[x - 1, y], [x + 1, y], [x, y - 1], [x, y + 1]];
      for (var k = 0; k < 4; k++) {
        var nx = nb[k][0], ny = nb[k][1];
        if (nx < 0 || ny < 0 || nx >= COLS || ny >= ROWS) continue;
        var ni = nx + ny * COLS;
        if (d[ni] >= 0 || !batPass(g.map[ny][nx]) || torchZone(nx, ny)) continue;
        d[ni] = d[c] + 1;
        q.push(ni);
      }
    }
    return d;
  }

  // sheltered: inside a torch's light, or no path a shade-bat can take from the sky (row 0) to the miner
  function sheltered() {
    if (torchZone(g.px, g.py)) return true;
    var d = distMap();
    for (var x = 0; x < COLS; x++) if (d[x] >= 0) return false;
    return true;
  }

  // ---------------------------------------------------------------- actions
  function puff(x, y, t) {
    for (var i = 0; i < 5; i++) g.parts.push({ x: x * T + 4 + i * 4, y: y * T + 6 + (i % 3) * 5, vx: i - 2, vy: -2 - (i % 2), t: t, born: g.tick });
    if (g.parts.length > 40) g.parts.splice(0, g.parts.length - 40);
  }

  function mine(dx, dy) {
    var x = g.px + dx, y = g.py + dy, t = tile(x, y);
    g.swingTick = g.tick;
    if (x < 0 || x >= COLS || y < 0 || y >= ROWS || !solid(t)) { say("Nothing to mine there."); return; }
    var need = HITS[t][g.pickaxe];
    if (!need) {
      say(t === BEDROCK ? "Bedrock cannot be broken." :
          t === IRON ? "Iron ore needs a stone pickaxe." : "Too hard by hand: craft a pickaxe.");
      return;
    }
    if (!g.hit || g.hit.x !== x || g.hit.y !== y) g.hit = { x: x, y: y, n: 0, need: need };
    g.hit.n++;
    if (g.hit.n < need) { say("Mining " + NAME[t] + ": hit " + g.hit.n + " of " + need + "."); return; }
    g.hit = null;
    g.mined++;
    puff(x, y, t);
    if (t === WOOD) {
      // the tree shortens: the top log of the trunk comes off
      var top = y;
      while (tile(x, top - 1) === WOOD) top--;
      g.map[top][x] = AIR;
      g.wood++; g.woodGot++; say("+1 log");
      return;
    }
    g.map[y][x] = AIR;
    if (t === GRASS || t === DIRT) { g.dirt++; say("+1 dirt"); }
    else if (t === STONE) { g.stone++; g.stoneGot++; say("+1 stone"); }
    else if (t === COAL) { g.coal++; g.coalGot++; say("+1 coal"); }
    else if (t === IRON) { g.iron++; g.ironGot++; say("+1 iron!"); }
    else if (t === PLANK) { g.planks++; say("+1 planks"); }
  }

  function place(dx, dy) {
    var x = g.px + dx, y = g.py + dy, t = tile(x, y);
    if (x < 0 || x >= COLS || y < 0 || y >= ROWS || solid(t) || batAt(x, y)) { say("No room to place a block there."); return; }
    var b;
    if (g.stone > 0) { g.stone--; b = STONE; }
    else if (g.planks > 0) { g.planks--; b = PLANK; }
    else if (g.dirt > 0) { g.dirt--; b = DIRT; }
    else { say("No blocks to place: mine some first."); return; }
    g.map[y][x] = b; g.placed++;
    g.swingTick = g.tick;
  }

  function craft(n) {
    if (n === 1) {
      if (g.wood < 1) { say("Planks need 1 log."); return; }
      g.wood--; g.planks += 2; say("Crafted 2 planks.");
    } else if (n === 2) {
      if (g.pickaxe >= 1) { say("You already have a pickaxe."); return; }
      if (g.planks < 4) { say("A wooden pickaxe needs 4 planks."); return; }
      g.planks -= 4; g.pickaxe = 1; say("Crafted a wooden pickaxe! Stone and coal can be mined.");
    } else if (n === 3) {
      if (g.pickaxe >= 2) { say("You already have a stone pickaxe."); return; }
      if (g.planks < 2 || g.stone < 3) { say("A stone pickaxe needs 3 stone and 2 planks."); return; }
      g.planks -= 2; g.stone -= 3; g.pickaxe = 2; say("Crafted a stone pickaxe! Iron can be mined.");
    } else if (n === 4) {
      if (g.coal < 1 || g.planks < 1) { say("A torch needs 1 coal and 1 planks."); return; }
      for (var i = 0; i < g.torches.length; i++) if (g.torches[i][0] === g.px && g.torches[i][1] === g.py) { say("A torch burns here already."); return; }
      g.coal--; g.planks--; g.torches.push([g.px, g.py]); say("Torch set: shade-bats keep 3 tiles away.");
      for (var j = g.bats.length - 1; j >= 0; j--) if (torchZone(g.bats[j].x, g.bats[j].y)) g.bats.splice(j, 1);
    }
  }

  function walk(dx) {
    g.face = dx;
    var nx = g.px + dx;
    if (!firm(tile(nx, g.py))) { moveTo(nx, g.py); return; }
    // step up one block when standing (or swimming) and there is head room
    if ((grounded() || tile(g.px, g.py) === WATER) && !firm(tile(g.px, g.py - 1)) && !firm(tile(nx, g.py - 1)) && g.py > 0) moveTo(nx, g.py - 1);
  }
  function moveTo(x, y) { g.moveFrom = [g.px, g.py]; g.moveTick = g.tick; g.px = x; g.py = y; }

  function jump() {
    // only from the ground (or swimming): no second jump while hanging in the air
    if (!grounded() && tile(g.px, g.py) !== WATER) return;
    if (g.py <= 0 || firm(tile(g.px, g.py - 1))) return;
    moveTo(g.px, g.py - 1);
    g.hang = JUMP_HANG;
  }

  function handle(keys) {
    var has = {}, arrow = null;
    for (var i = 0; i < keys.length; i++) {
      has[keys[i]] = true;
      if (keys[i].indexOf("Arrow") === 0) arrow = keys[i];
    }
    var dir = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    for (var n = 1; n <= 4; n++) if (has["Digit" + n]) { craft(n); return; }
    if (has.KeyX || has.KeyC) {
      var d = arrow ? dir[arrow] : [g.face, 0];
      if (d[0] !== 0) g.face = d[0];
      if (has.KeyX) mine(d[0], d[1]); else place(d[0], d[1]);
      return;
    }
    var up = has.ArrowUp || has.Space;
    if (up) jump();
    if (has.ArrowLeft && !has.ArrowRight) walk(-1);
    else if (has.ArrowRight && !has.ArrowLeft) walk(1);
    else if (has.ArrowDown && !up) mine(0, 1);
  }

  // ---------------------------------------------------------------- the tick
  function step() {
    if (g.over) { g.tick++; return; }
    g.tick++;
    if (pending.length) { var keys = pending.slice(); pending.length = 0; handle(keys); }
    // gravity
    if (g.hang > 0) { g.hang--; if (grounded()) g.hang = 0; }
    else if (!grounded()) {
      g.fallT++;
      if (g.fallT >= FALL_EVERY) { g.fallT = 0; moveTo(g.px, g.py + 1); }
    } else g.fallT = 0;
    // the clock
    g.clock++;
    if (g.clock === DAY_T) say("Night falls! Shade-bats seep through dirt: wall yourself in with stone or light a torch.");
    if (g.clock >= CYCLE) {
      g.clock = 0; g.nights++; g.bats.length = 0;
      say("Dawn! You survived night " + g.nights + ".");
    }
    if (isNight()) nightTick();
    if (g.msgTicks > 0) g.msgTicks--;
    for (var i = g.parts.length - 1; i >= 0; i--) {
      var p = g.parts[i];
      p.x += p.vx * 0.5; p.y += p.vy * 0.5; p.vy += 0.3;
      if (g.tick - p.born > 30) g.parts.splice(i, 1);
    }
  }

  function nightTick() {
    var i, b;
    if ((g.clock - DAY_T) % BAT_SPAWN === 0 && g.bats.length < BAT_MAX) {
      var side = rnd(2) ? 1 : -1, sx = g.px + side * (6 + rnd(3));
      sx = Math.max(0, Math.min(COLS - 1, sx));
      var sy = 0;
      while (sy < ROWS - 1 && !solid(tile(sx, sy + 1)) && sy < 3) sy++;
      if (!solid(tile(sx, sy)) && !torchZone(sx, sy)) g.bats.push({ x: sx, y: sy, cd: 0, fx: sx, fy: sy, mt: g.tick });
    }
    if ((g.clock - DAY_T) % BAT_MOVE === 0 && g.bats.length) {
      var d = distMap();
      for (i = 0; i < g.bats.length; i++) {
        b = g.bats[i];
        var here = d[b.x + b.y * COLS];
        var nb = [[0, 1], [0, -1], [1, 0], [-1, 0]];
        var best = null, bestD = here;
        for (var k = 0; k < 4; k++) {
          var nx = b.x + nb[k][0], ny = b.y + nb[k][1];
          if (nx < 0 || ny < 0 || nx >= COLS || ny >= ROWS) continue;
          if (nx === g.px && ny === g.py) continue;
          var nd = d[nx + ny * COLS];
          if (here < 0 || nd < 0 || batAt(nx, ny)) continue;
          if (nd < bestD) { best = [nx, ny]; bestD = nd; }
        }
        if (here < 0 && best === null) {
          // cannot reach the miner: drift sideways through the open air toward them
          var sy2 = b.y + (g.py > b.y ? 1 : g.py < b.y ? -1 : 0);
          var sx2 = b.x + (g.px > b.x ? 1 : g.px < b.x ? -1 : 0);
          if (sy2 !== b.y && !solid(tile(b.x, sy2)) && !torchZone(b.x, sy2) && !batAt(b.x, sy2) &&
              !(b.x === g.px && sy2 === g.py)) best = [b.x, sy2];
          else if (sx2 !== b.x && !solid(tile(sx2, b.y)) && !torchZone(sx2, b.y) && !batAt(sx2, b.y) &&
                   !(sx2 === g.px && b.y === g.py)) best = [sx2, b.y];
        }
        if (best) { b.fx = b.x; b.fy = b.y; b.mt = g.tick; b.x = best[0]; b.y = best[1]; }
      }
    }
    for (i = 0; i < g.bats.length; i++) {
      b = g.bats[i];
      if (b.cd > 0) b.cd--;
      if (b.cd === 0 && Math.abs(b.x - g.px) + Math.abs(b.y - g.py) <= 1) {
        b.cd = BITE_COOLDOWN;
        g.health = Math.max(0, g.health - BITE);
        g.hurtTick = g.tick;
        if (g.health === 0) { g.over = true; say("The shade-bats got you. Game over."); return; }
        say("Bitten! Health " + g.health + ".");
      }
    }
  }

  // ---------------------------------------------------------------- drawing
  function hash(x, y, k) { var n = (x * 73856093) ^ (y * 19349663) ^ (k * 83492791); n = (n ^ (n >>> 13)) * 1274126177; return ((n ^ (n >>> 16)) >>> 0) % 1000; }

  var COLORS = {};
  COLORS[DIRT] = ["#8a5a34", "#74492a", "#9c6a40"];
  COLORS[STONE] = ["#7d8188", "#6a6e75", "#92969c"];
  COLORS[COAL] = ["#7d8188", "#6a6e75", "#92969c"];
  COLORS[IRON] = ["#7d8188", "#6a6e75", "#92969c"];
  COLORS[PLANK] = ["#c8944e", "#a8763a", "#d8a862"];
  COLORS[BEDROCK] = ["#34363c", "#26282c", "#45474d"];

  function drawTile(t, x, y, sx, sy) {
    var c, i;
    if (t === AIR) return;
    if (t === WATER) {
      ctx.fillStyle = "rgba(52,120,220,0.75)"; ctx.fillRect(sx, sy, T, T);
      if (tile(x, y - 1) !== WATER) { ctx.fillStyle = "rgba(180,220,255,0.8)"; ctx.fillRect(sx, sy, T, 3); }
      return;
    }
    if (t === WOOD) {
      ctx.fillStyle = "#6b4423"; ctx.fillRect(sx + 4, sy, T - 8, T);
      ctx.fillStyle = "#57361b"; ctx.fillRect(sx + 8, sy, 3, T); ctx.fillRect(sx + 15, sy + 4, 2, T - 8);
      ctx.fillStyle = "#805530"; ctx.fillRect(sx + 4, sy, 2, T);
      return;
    }
    if (t === GRASS) {
      c = COLORS[DIRT];
      ctx.fillStyle = c[0]; ctx.fillRect(sx, sy, T, T);
      ctx.fillStyle = "#4fae3d"; ctx.fillRect(sx, sy, T, 7);
      for (i = 0; i < 6; i++) ctx.fillRect(sx + i * 4, sy + 7, 2, 2 + hash(x, y, i) % 4);
      ctx.fillStyle = "#6cc04a"; ctx.fillRect(sx, sy, T, 2);
      return;
    }
    c = COLORS[t];
    ctx.fillStyle = c[0]; ctx.fillRect(sx, sy, T, T);
    for (i = 0; i < 5; i++) {
      var hx = hash(x, y, i) % 20, hy = hash(x, y, i + 9) % 20;
      ctx.fillStyle = c[1 + (i % 2)]; ctx.fillRect(sx + hx, sy + hy, 4, 3);
    }
    if (t === PLANK) {
      ctx.fillStyle = "#8a5f2c"; ctx.fillRect(sx, sy + 7, T, 2); ctx.fillRect(sx, sy + 15, T, 2); ctx.fillRect(sx + 11, sy, 2, 7);
    }
    if (t === COAL || t === IRON) {
      ctx.fillStyle = t === COAL ? "#1d1d22" : "#e0a878";
      for (i = 0; i < 4; i++) ctx.fillRect(sx + 3 + (hash(x, y, i + 20) % 15), sy + 3 + (hash(x, y, i + 30) % 15), 5, 4);
      if (t === IRON) { ctx.fillStyle = "#f6d2b0"; ctx.fillRect(sx + 6, sy + 6, 2, 2); }
    }
    ctx.strokeStyle = "rgba(0,0,0,0.18)"; ctx.lineWidth = 1; ctx.strokeRect(sx + 0.5, sy + 0.5, T - 1, T - 1);
  }

  function lerp(a, b, f) { return Math.round(a + (b - a) * f); }
  function darkness() {
    // 0 by day, up to 0.62 at night, with a short dusk and dawn
    var c = g.clock;
    if (c < DAY_T - 90) return 0;
    if (c < DAY_T) return 0.62 * (c - (DAY_T - 90)) / 90;
    if (c > CYCLE - 60) return 0.62 * (CYCLE - c) / 60;
    return 0.62;
  }

  function draw() {
    var camX = (g.px + 0.5) * T - W / 2, camY = (g.py + 0.5) * T - VIEW_H / 2;
    camX = Math.max(0, Math.min(COLS * T - W, camX));
    camY = Math.max(0, Math.min(ROWS * T - VIEW_H, camY));
    camX = Math.round(camX); camY = Math.round(camY);
    var dk = darkness();
    // sky
    var sky = ctx.createLinearGradient(0, HUD, 0, HUD + VIEW_H);
    sky.addColorStop(0, "rgb(" + lerp(110, 14, dk / 0.62) + "," + lerp(180, 20, dk / 0.62) + "," + lerp(240, 60, dk / 0.62) + ")");
    sky.addColorStop(1, "rgb(" + lerp(200, 40, dk / 0.62) + "," + lerp(230, 40, dk / 0.62) + "," + lerp(255, 90, dk / 0.62) + ")");
    ctx.fillStyle = sky; ctx.fillRect(0, HUD, W, VIEW_H);
    ctx.save();
    ctx.beginPath(); ctx.rect(0, HUD, W, VIEW_H); ctx.clip();
    // sun or moon
    var f = isNight() ? (g.clock - DAY_T) / NIGHT_T : g.clock / DAY_T;
    var bx = 30 + f * (W - 60), by = HUD + 40 - Math.sin(f * Math.PI) * 24 - camY * 0.1;
    ctx.fillStyle = isNight() ? "#e8ecf8" : "#ffe066";
    ctx.beginPath(); ctx.arc(bx, by, 13, 0, Math.PI * 2); ctx.fill();
    if (isNight()) { ctx.fillStyle = "rgb(14,20,60)"; ctx.beginPath(); ctx.arc(bx + 6, by - 3, 11, 0, Math.PI * 2); ctx.fill(); }
    var x0 = Math.floor(camX / T), y0 = Math.floor(camY / T), x, y;
    // underground backdrop (dug-out cells below the surface look like cave walls)
    for (y = y0; y <= y0 + Math.ceil(VIEW_H / T); y++) {
      for (x = x0; x <= x0 + W / T; x++) {
        if (x < 0 || x >= COLS || y < 0 || y >= ROWS) continue;
        var sx = x * T - camX, sy = HUD + y * T - camY;
        var t = g.map[y][x];
        if (!solid(t)) {
          var covered = false;
          for (var yy = y - 1; yy >= 0; yy--) if (solid(g.map[yy][x]) && g.map[yy][x] !== WOOD) { covered = true; break; }
          if (covered) { ctx.fillStyle = "#3b2c22"; ctx.fillRect(sx, sy, T, T); ctx.fillStyle = "#33261d"; ctx.fillRect(sx + 3, sy + 3, 6, 4); }
        }
        drawTile(t, x, y, sx, sy);
      }
    }
    // leaves on top of every trunk
    for (x = x0 - 1; x <= x0 + W / T + 1; x++) {
      if (x < 0 || x >= COLS) continue;
      for (y = 1; y < ROWS; y++) {
        if (g.map[y][x] === WOOD && g.map[y - 1][x] !== WOOD) {
          var lx = x * T - camX + T / 2, ly = HUD + y * T - camY - 4;
          ctx.fillStyle = "#2f7d32"; ctx.beginPath(); ctx.arc(lx, ly - 6, 22, 0, Math.PI * 2); ctx.fill();
          ctx.fillStyle = "#3f9a3e"; ctx.beginPath(); ctx.arc(lx - 8, ly - 12, 12, 0, Math.PI * 2); ctx.arc(lx + 9, ly - 4, 11, 0, Math.PI * 2); ctx.fill();
          ctx.fillStyle = "#5cb85c"; ctx.beginPath(); ctx.arc(lx - 4, ly - 18, 6, 0, Math.PI * 2); ctx.fill();
        }
      }
    }
    // crack on the block being mined
    if (g.hit) {
      var hx = g.hit.x * T - camX, hy = HUD + g.hit.y * T - camY;
      ctx.strokeStyle = "rgba(20,10,5,0.85)"; ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.moveTo(hx + 12, hy + 2); ctx.lineTo(hx + 9, hy + 10); ctx.lineTo(hx + 15, hy + 14);
      if (g.hit.n / g.hit.need > 0.5) { ctx.moveTo(hx + 15, hy + 14); ctx.lineTo(hx + 6, hy + 22); ctx.moveTo(hx + 9, hy + 10); ctx.lineTo(hx + 2, hy + 8); }
      ctx.stroke();
    }
    // torches
    for (var i = 0; i < g.torches.length; i++) {
      var tx = g.torches[i][0] * T - camX, ty = HUD + g.torches[i][1] * T - camY;
      ctx.fillStyle = "#7a5230"; ctx.fillRect(tx + 10, ty + 8, 4, 14);
      ctx.fillStyle = "#ffb030"; ctx.fillRect(tx + 9, ty + 3, 6, 6);
      ctx.fillStyle = "#fff2a0"; ctx.fillRect(tx + 11, ty + 4, 2, 3);
    }
    drawPlayer(camX, camY);
    // particles
    for (i = 0; i < g.parts.length; i++) {
      var p = g.parts[i];
      ctx.fillStyle = p.t === GRASS ? "#6cc04a" : (COLORS[p.t] ? COLORS[p.t][2] : "#8a6a40");
      ctx.fillRect(p.x - camX, HUD + p.y - camY, 3, 3);
    }
    // night: darkness with light around torches and a small glow around the miner
    if (dk > 0) {
      ctx.fillStyle = "rgba(5,8,30," + dk.toFixed(3) + ")";
      ctx.fillRect(0, HUD, W, VIEW_H);
      ctx.globalCompositeOperation = "lighter";
      for (i = 0; i < g.torches.length; i++) {
        var gx = g.torches[i][0] * T - camX + T / 2, gy = HUD + g.torches[i][1] * T - camY + T / 2;
        var rg = ctx.createRadialGradient(gx, gy, 4, gx, gy, (TORCH_R + 0.5) * T);
        rg.addColorStop(0, "rgba(255,170,60," + (0.45 * dk / 0.62).toFixed(3) + ")"); rg.addColorStop(1, "rgba(255,170,60,0)");
        ctx.fillStyle = rg; ctx.fillRect(gx - 4 * T, gy - 4 * T, 8 * T, 8 * T);
      }
      // the miner's helmet lamp
      var mx = g.px * T - camX + T / 2, my = HUD + g.py * T - camY + T / 2;
      var lg = ctx.createRadialGradient(mx, my, 2, mx, my, 2.2 * T);
      lg.addColorStop(0, "rgba(255,230,160," + (0.3 * dk / 0.62).toFixed(3) + ")"); lg.addColorStop(1, "rgba(255,230,160,0)");
      ctx.fillStyle = lg; ctx.fillRect(mx - 3 * T, my - 3 * T, 6 * T, 6 * T);
      ctx.globalCompositeOperation = "source-over";
    }
    // bats
    for (i = 0; i < g.bats.length; i++) {
      var b = g.bats[i];
      var mf = Math.min(1, (g.tick - b.mt) / 8);
      var bxp = (b.fx + (b.x - b.fx) * mf) * T - camX + T / 2, byp = HUD + (b.fy + (b.y - b.fy) * mf) * T - camY + T / 2;
      var flap = (g.tick >> 2) % 2 ? 6 : -3;
      ctx.fillStyle = "#b86ae8";
      ctx.beginPath(); ctx.moveTo(bxp, byp); ctx.lineTo(bxp - 12, byp - flap); ctx.lineTo(bxp - 6, byp + 3); ctx.closePath(); ctx.fill();
      ctx.beginPath(); ctx.moveTo(bxp, byp); ctx.lineTo(bxp + 12, byp - flap); ctx.lineTo(bxp + 6, byp + 3); ctx.closePath(); ctx.fill();
      ctx.fillStyle = "#4a2270"; ctx.beginPath(); ctx.arc(bxp, byp, 5, 0, Math.PI * 2); ctx.fill();
      ctx.fillStyle = "#ff4a4a"; ctx.fillRect(bxp - 3, byp - 2, 2, 2); ctx.fillRect(bxp + 1, byp - 2, 2, 2);
    }
    if (g.tick - g.hurtTick < 12) { ctx.fillStyle = "rgba(220,30,30,0.18)"; ctx.fillRect(0, HUD, W, VIEW_H); }
    ctx.restore();
    drawHud();
    if (g.over) {
      ctx.fillStyle = "rgba(10,5,20,0.7)"; ctx.fillRect(0, HUD, W, VIEW_H);
      ctx.fillStyle = "#ff6a6a"; ctx.font = "bold 30px sans-serif"; ctx.textAlign = "center";
      ctx.fillText("YOU FELL IN THE NIGHT", W / 2, HUD + VIEW_H / 2 - 6);
      ctx.fillStyle = "#e8e8f0"; ctx.font = "14px sans-serif";
      ctx.fillText("Nights survived: " + g.nights + "   Blocks mined: " + g.mined, W / 2, HUD + VIEW_H / 2 + 20);
      ctx.textAlign = "left";
    }
  }

  function drawPlayer(camX, camY) {
    var mf = Math.min(1, (g.tick - g.moveTick) / 5);
    var fx = g.moveFrom[0] + (g.px - g.moveFrom[0]) * mf, fy = g.moveFrom[1] + (g.py - g.moveFrom[1]) * mf;
    var sx = Math.round(fx * T - camX), sy = Math.round(HUD + fy * T - camY);
    var hurt = g.tick - g.hurtTick < 12;
    // legs, body, head, helmet with a lamp
    ctx.fillStyle = "#2b3a67"; ctx.fillRect(sx + 7, sy + 17, 4, 7); ctx.fillRect(sx + 13, sy + 17, 4, 7);
    ctx.fillStyle = hurt ? "#ff6060" : "#2f8fd8"; ctx.fillRect(sx + 6, sy + 9, 12, 9);
    ctx.fillStyle = "#f1c27d"; ctx.fillRect(sx + 7, sy + 2, 10, 8);
    ctx.fillStyle = "#f2c230"; ctx.fillRect(sx + 6, sy, 12, 4);
    ctx.fillStyle = "#fff6b0"; ctx.fillRect(g.face > 0 ? sx + 16 : sx + 5, sy + 1, 3, 2);
    ctx.fillStyle = "#222"; ctx.fillRect(g.face > 0 ? sx + 14 : sx + 9, sy + 5, 2, 2);
    // the tool in hand, swung while mining
    var swing = g.tick - g.swingTick < 8;
    var hx = g.face > 0 ? sx + 18 : sx + 1, hy = sy + (swing ? 6 : 10);
    ctx.fillStyle = "#7a5230"; ctx.fillRect(hx, hy, 5, 2); ctx.fillRect(hx + (g.face > 0 ? 3 : 0), hy - 5, 2, 9);
    if (g.pickaxe > 0) { ctx.fillStyle = g.pickaxe === 2 ? "#a0a4aa" : "#c8944e"; ctx.fillRect(hx - 2, hy - 6, 9, 3); }
  }

  function icon(kind, x, y) {
    var t = { wood: WOOD, planks: PLANK, dirt: DIRT, stone: STONE, coal: COAL, iron: IRON }[kind];
    ctx.save(); ctx.translate(x, y); ctx.scale(0.6, 0.6);
    if (t === WOOD) { ctx.fillStyle = "#6b4423"; ctx.fillRect(2, 0, 20, 24); ctx.fillStyle = "#c8944e"; ctx.fillRect(5, 2, 14, 6); }
    else drawTile(t, 3, 3, 0, 0);
    ctx.restore();
  }

  function drawHud() {
    ctx.fillStyle = "#1a1410"; ctx.fillRect(0, 0, W, HUD);
    ctx.fillStyle = "#3a2c20"; ctx.fillRect(0, HUD - 2, W, 2);
    // hearts
    for (var i = 0; i < MAX_HEALTH / 2; i++) {
      var full = g.health >= (i + 1) * 2, half = !full && g.health >= i * 2 + 1;
      var hx = 8 + i * 15, hy = 6;
      ctx.fillStyle = full ? "#e53935" : half ? "#ef9a9a" : "#4a3a3a";
      ctx.beginPath(); ctx.arc(hx + 3, hy + 3, 3.3, 0, Math.PI * 2); ctx.arc(hx + 9, hy + 3, 3.3, 0, Math.PI * 2); ctx.fill();
      ctx.beginPath(); ctx.moveTo(hx - 0.3, hy + 4); ctx.lineTo(hx + 6, hy + 11); ctx.lineTo(hx + 12.3, hy + 4); ctx.fill();
    }
    ctx.font = "bold 11px sans-serif"; ctx.fillStyle = "#f0e6d0"; ctx.textAlign = "left";
    var pick = ["no pickaxe", "wood pickaxe", "stone pickaxe"][g.pickaxe];
    ctx.fillStyle = g.pickaxe ? "#ffd27a" : "#b0a090"; ctx.fillText(pick, 8, 33);
    var items = [["wood", g.wood], ["planks", g.planks], ["dirt", g.dirt], ["stone", g.stone], ["coal", g.coal], ["iron", g.iron]];
    for (i = 0; i < items.length; i++) {
      var ix = 92 + i * 40;
      ctx.fillStyle = "#2c2219"; ctx.fillRect(ix, 5, 36, 30);
      icon(items[i][0], ix + 2, 8);
      ctx.fillStyle = "#fff"; ctx.font = "bold 12px sans-serif"; ctx.fillText(String(items[i][1]), ix + 19, 23);
      ctx.fillStyle = "#a89880"; ctx.font = "8px sans-serif"; ctx.fillText(items[i][0], ix + 2, 33);
    }
    // clock
    var night = isNight();
    var left = night ? Math.ceil((CYCLE - g.clock) / STEP_TICKS) : Math.ceil((DAY_T - g.clock) / STEP_TICKS);
    ctx.textAlign = "right"; ctx.font = "bold 12px sans-serif";
    ctx.fillStyle = night ? "#9fb0ff" : "#ffe066";
    ctx.fillText((night ? "Night " : "Day ") + (g.nights + 1), W - 8, 15);
    ctx.font = "10px sans-serif"; ctx.fillStyle = "#d8ccb8";
    ctx.fillText(night ? left + " steps to dawn" : left + " steps to night", W - 8, 28);
    var bw = 80, bxx = W - 8 - bw;
    ctx.fillStyle = "#3a3040"; ctx.fillRect(bxx, 31, bw, 4);
    ctx.fillStyle = night ? "#6a7ae0" : "#ffd040"; ctx.fillRect(bxx, 31, bw * g.clock / CYCLE, 4);
    ctx.textAlign = "left";
    // footer: message or recipes
    ctx.fillStyle = "#1a1410"; ctx.fillRect(0, H - FOOT, W, FOOT);
    ctx.font = "10px sans-serif"; ctx.fillStyle = "#b8a890";
    ctx.fillText("craft: 1 planks  2 wood pick  3 stone pick  4 torch", 8, H - 7);
    if (g.msgTicks > 0) {  // a message floats over the bottom of the view, so the footer's figures stay readable
      ctx.font = "11px sans-serif";
      ctx.fillStyle = "rgba(26, 20, 16, 0.85)"; ctx.fillRect(0, H - FOOT - 18, ctx.measureText(g.message).width + 16, 18);
      ctx.fillStyle = "#fff3c4"; ctx.fillText(g.message, 8, H - FOOT - 5);
    }
    // what the tasks count: everything gathered so far, not only what is held
    ctx.textAlign = "right"; ctx.font = "bold 10px sans-serif"; ctx.fillStyle = "#ffd27a";
    ctx.fillText("gathered: wood " + g.woodGot + "  stone " + g.stoneGot + "  iron " + g.ironGot, W - 8, H - 7);
    ctx.textAlign = "left";
  }

  // ---------------------------------------------------------------- loop, input, API
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

  var KEYS = { ArrowUp: 1, ArrowDown: 1, ArrowLeft: 1, ArrowRight: 1, Space: 1, KeyX: 1, KeyC: 1,
               Digit1: 1, Digit2: 1, Digit3: 1, Digit4: 1 };
  window.addEventListener("keydown", function (e) {
    if (!KEYS[e.code]) return;
    e.preventDefault();
    if (e.repeat || g.over) return;
    if (pending.length < 4) pending.push(e.code);
  });

  function rows() {
    var out = [];
    for (var y = 0; y < ROWS; y++) {
      var s = "";
      for (var x = 0; x < COLS; x++) s += CH[g.map[y][x]];
      out.push(s);
    }
    return out;
  }

  window.gameAPI = {
    getState: function () {
      var night = isNight();
      return {
        status: g.over ? "terminal" : "playing",
        actionable: true,
        terminal: { is_terminal: g.over, outcome: g.over ? "lose" : null, reason: g.over ? "health reached 0" : null },
        score: g.mined,
        wood: g.wood, planks: g.planks, dirt: g.dirt, stone: g.stone, coal: g.coal, iron: g.iron,
        pickaxe: g.pickaxe,
        health: g.health,
        day_time: Math.floor(g.clock / STEP_TICKS),
        is_night: night ? 1 : 0,
        steps_to_night: night ? 0 : Math.ceil((DAY_T - g.clock) / STEP_TICKS),
        steps_to_dawn: night ? Math.ceil((CYCLE - g.clock) / STEP_TICKS) : 0,
        nights_survived: g.nights,
        mined: g.mined,
        wood_gathered: g.woodGot,
        stone_mined: g.stoneGot,
        coal_mined: g.coalGot,
        iron_mined: g.ironGot,
        blocks_placed: g.placed,
        torches: g.torches.length,
        sheltered: sheltered() ? 1 : 0,
        bats: g.bats.length,
        x: g.px,
        y: g.py,
        facing: g.face > 0 ? "right" : "left",
        falling: (!grounded() && g.hang <= 0) ? 1 : 0,
        tiles: rows(),
        torch_cells: g.torches.map(function (t) { return [t[0], t[1]]; }),
        bat_cells: g.bats.map(function (b) { return [b.x, b.y]; }),
        message: g.msgTicks > 0 ? g.message : ""
      };
    },
    reset: function () {
      pending.length = 0;
      newGame();
      acc = 0;
      draw();
    }
  };

  newGame();
  draw();
  requestAnimationFrame(frame);
})();
