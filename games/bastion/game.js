// Bastion Path: a small tower defence. Creeps walk a winding road to the gate; build arrow, cannon and
// frost towers on the stone pads beside it, upgrade them twice, sell them, and call waves early for bonus
// gold. Logic runs in fixed 1/60 s ticks taken from requestAnimationFrame timestamps; chance comes only
// from Math.random (the map and the waves are drawn at the start of a game, in a fixed order); integer
// maths only in the logic.
(function () {
  "use strict";

  var W = 480, H = 360, T = 32, COLS = 12, ROWS = 10, TOP = 32, PANEL_X = 384;
  var TICK_MS = 1000 / 60;
  var MAX_CATCH_UP = 600;

  var START_GOLD = 100, START_LIVES = 20, MAX_WAVES = 20;
  var DROPPED_PADS = 3;             // pads of the map left out of each game (seeded)
  var FIRST_WAVE = 600;           // ticks before wave 1 starts by itself (10 s)
  var WAVE_GAP = 720;             // ticks from one wave's start to the next's (12 s)
  var SLOW_TICKS = 60;

  // Towers: cost to build, then the two upgrade costs; per level: damage, reload ticks, range px.
  var KINDS = ["arrow", "cannon", "frost"];
  var TOWER = {
    arrow:  { name: "Arrow",  cost: [35, 35, 60], dmg: [3, 5, 8],   cd: [20, 16, 12], range: [80, 88, 96] },
    cannon: { name: "Cannon", cost: [60, 50, 90], dmg: [8, 14, 24], cd: [54, 48, 42], range: [72, 76, 84],
              splash: [30, 34, 40] },
    frost:  { name: "Frost",  cost: [45, 40, 60], dmg: [1, 2, 4],   cd: [40, 36, 30], range: [64, 72, 80],
              slow: [55, 45, 35] }
  };
  var SELL_PCT = 60;

  // Creeps: hit points at wave 1, speed in px per second, gold bounty, lives taken when they leak.
  var CREEP = {
    grunt:  { hp: 10,  speed: 80,  bounty: 3,  leak: 1, gap: 28, r: 7 },
    runner: { hp: 6,   speed: 130, bounty: 3,  leak: 1, gap: 20, r: 6 },
    brute:  { hp: 30,  speed: 55,  bounty: 7,  leak: 2, gap: 40, r: 9 },
    boss:   { hp: 70,  speed: 45,  bounty: 30, leak: 5, gap: 50, r: 12 }
  };

  // Maps: the road's corners (tile col, row; the first and last lie just off the grid) and the pads. Each game
  // mirrors its map (left-right, top-bottom: seeded) and leaves out DROPPED_PADS of its pads, so where to build
  // must be read off the screen. No pad lies in the middle block (cols 4-7, rows 4-5): a build that never
  // looks (a click at the centre) finds no pad on any layout.
  var MAPS = [
    { name: "Serpent Vale",
      road: [[-1, 1], [3, 1], [3, 7], [7, 7], [7, 2], [10, 2], [10, 8], [12, 8]],
      pads: [[1, 2], [2, 5], [4, 2], [4, 5], [6, 3], [5, 8], [6, 1], [8, 3], [9, 5], [8, 8], [11, 4], [11, 6],
             [9, 1], [2, 8]] },
    { name: "Switchback Ridge",
      road: [[-1, 8], [2, 8], [2, 1], [5, 1], [5, 6], [8, 6], [8, 1], [10, 1], [10, 8], [12, 8]],
      pads: [[1, 6], [1, 3], [3, 3], [4, 3], [3, 7], [6, 3], [7, 3], [4, 0], [6, 8], [9, 3], [9, 6], [11, 4],
             [7, 0], [9, 9]] },
    { name: "Crooked Hollow",
      road: [[5, -1], [5, 2], [1, 2], [1, 8], [6, 8], [6, 5], [10, 5], [10, -1]],
      pads: [[3, 1], [6, 1], [2, 4], [3, 5], [4, 6], [4, 9], [7, 7], [8, 4], [9, 2], [8, 6], [11, 3], [7, 3],
             [3, 3], [5, 6]] }
  ];

  var canvas = document.getElementById("game");
  var ctx = canvas.getContext("2d");
  var g = null;
  var lastTs = null, acc = 0;
  var map = null, segs = null, roadLen = 0, roadSet = null, padSet = null;

  function randInt(n) { return Math.floor(Math.random() * n); }
  function cx(c) { return c * T + T / 2; }
  function cy(r) { return TOP + r * T + T / 2; }

  function layout(index, flipH, flipV, dropped) {
    var base = MAPS[index];
    function place(p) { return [flipH ? COLS - 1 - p[0] : p[0], flipV ? ROWS - 1 - p[1] : p[1]]; }
    var pads = base.pads.map(place);
    for (var k = 0; k < dropped.length; k++) pads.splice(dropped[k], 1);
    return { name: base.name, road: base.road.map(place), pads: pads };
  }

  function buildMap(index, flipH, flipV, dropped) {
    map = layout(index, flipH, flipV, dropped);
    segs = []; roadLen = 0; roadSet = {}; padSet = {};
    for (var i = 0; i + 1 < map.road.length; i++) {
      var a = map.road[i], b = map.road[i + 1];
      var len = (Math.abs(b[0] - a[0]) + Math.abs(b[1] - a[1])) * T;
      segs.push({ x: cx(a[0]), y: cy(a[1]), dx: Math.sign(b[0] - a[0]), dy: Math.sign(b[1] - a[1]),
                  start: roadLen, len: len });
      roadLen += len;
      var c = a[0], r = a[1];
      for (;;) {
        roadSet[c + "," + r] = true;
        if (c === b[0] && r === b[1]) break;
        c += Math.sign(b[0] - a[0]); r += Math.sign(b[1] - a[1]);
      }
    }
    for (var p = 0; p < map.pads.length; p++) padSet[map.pads[p][0] + "," + map.pads[p][1]] = true;
  }

  function roadPos(px) {          // px along the road -> {x, y}
    for (var i = 0; i < segs.length; i++) {
      var s = segs[i];
      if (px <= s.start + s.len || i === segs.length - 1) {
        var d = px - s.start;
        return { x: s.x + s.dx * d, y: s.y + s.dy * d };
      }
    }
    return { x: 0, y: 0 };
  }

  function makeWaves() {
    var waves = [];
    for (var w = 1; w <= MAX_WAVES; w++) {
      var count = 5 + w, list = [];
      for (var k = 0; k < count; k++) {
        var roll = randInt(100), type = "grunt";
        if (w >= 2 && roll < 10 + 3 * w) type = "runner";
        else if (w >= 3 && roll >= 88 - 2 * w) type = "brute";
        list.push(type);
      }
      if (w % 5 === 0) list.push("boss");
      waves.push(list);
    }
    return waves;
  }

  function newGame() {
    var index = 0;                // the first draws of nearby seeds are alike: mix four of them
    for (var k = 0; k < 4; k++) index += randInt(MAPS.length);
    index %= MAPS.length;
    var flipH = randInt(2), flipV = randInt(2), dropped = [];
    for (k = 0; k < DROPPED_PADS; k++) dropped.push(randInt(MAPS[index].pads.length - k));
    buildMap(index, flipH, flipV, dropped);
    g = { tick: 0, mapIndex: index, flipH: flipH, flipV: flipV, waves: makeWaves(), wave: 0, waveTimer: FIRST_WAVE,
          gold: START_GOLD, lives: START_LIVES, kills: 0, leaks: 0, clean: 0, cleared: 0, score: 0,
          tool: 0, towers: [], creeps: [], spawners: [], waveInfo: [], nextId: 1,
          over: false, won: false, shots: [], booms: [], floats: [], message: "Build towers on the stone pads",
          msgTicks: 0, flash: 0, hurt: 0 };
  }

  function say(text) { g.message = text; g.msgTicks = 150; }

  function towerAt(c, r) {
    for (var i = 0; i < g.towers.length; i++) if (g.towers[i].c === c && g.towers[i].r === r) return g.towers[i];
    return null;
  }

  function startWave(early) {
    if (g.wave >= MAX_WAVES || g.over) return;
    if (early) {
      var bonus = Math.floor(g.waveTimer / 60);
      if (bonus > 0) { g.gold += bonus; g.floats.push({ x: 432, y: 300, text: "+" + bonus, ttl: 40 }); }
    }
    g.wave += 1;
    var list = g.waves[g.wave - 1];
    g.waveInfo.push({ n: list.length, gone: 0, leaked: 0 });
    g.spawners.push({ w: g.wave, idx: 0, cd: 0 });
    g.waveTimer = g.wave < MAX_WAVES ? WAVE_GAP : 0;
    say((early ? "Wave " + g.wave + " called early" : "Wave " + g.wave + " is coming") +
        (early && bonus > 0 ? " (+" + bonus + " gold)" : ""));
  }

  function spawn(w, type) {
    var base = CREEP[type];
    var hp = Math.floor(base.hp * (100 + 25 * (w - 1)) / 100);
    g.creeps.push({ id: g.nextId++, type: type, w: w, hp: hp, maxHp: hp, d: 0, speed: base.speed,
                    slow: 0, slowPct: 100, x: roadPos(0).x, y: roadPos(0).y, hit: 0 });
  }

  function creepGone(cr, leaked) {
    var info = g.waveInfo[cr.w - 1];
    info.gone += 1;
    if (leaked) info.leaked += 1;
    if (info.gone === info.n) {
      g.cleared += 1;
      var bonus = 8 + cr.w;
      if (info.leaked === 0) { g.clean += 1; g.score += 50; say("Wave " + cr.w + " held: no leaks! +" + bonus + " gold"); }
      else say("Wave " + cr.w + " over, " + info.leaked + " got through. +" + bonus + " gold");
      g.gold += bonus;
      if (g.cleared >= MAX_WAVES && g.lives > 0) { g.over = true; g.won = true; }
    }
  }

  function damage(cr, amount) {
    if (cr.hp <= 0) return;
    cr.hp -= amount;
    cr.hit = 6;
    if (cr.hp <= 0) {
      var b = CREEP[cr.type].bounty;
      g.gold += b; g.kills += 1; g.score += 10;
      g.floats.push({ x: cr.x, y: cr.y - 8, text: "+" + b, ttl: 30 });
      g.booms.push({ x: cr.x, y: cr.y, r: 10, ttl: 12, kind: "pop" });
    }
  }

  function inRange(t, cr, range) {
    var dx = cr.x - cx(t.c), dy = cr.y - cy(t.r);
    return dx * dx + dy * dy <= range * range;
  }

  function step() {
    g.tick++;
    if (g.msgTicks > 0) g.msgTicks--;
    if (g.flash > 0) g.flash--;
    if (g.hurt > 0) g.hurt--;
    var i, j;
    for (i = g.shots.length - 1; i >= 0; i--) if (--g.shots[i].ttl <= 0) g.shots.splice(i, 1);
    for (i = g.booms.length - 1; i >= 0; i--) if (--g.booms[i].ttl <= 0) g.booms.splice(i, 1);
    for (i = g.floats.length - 1; i >= 0; i--) { g.floats[i].y -= 0.5; if (--g.floats[i].ttl <= 0) g.floats.splice(i, 1); }
    if (g.over) return;

    // waves
    if (g.wave < MAX_WAVES) {
      g.waveTimer -= 1;
      if (g.waveTimer <= 0) startWave(false);
    }
    for (i = g.spawners.length - 1; i >= 0; i--) {
      var sp = g.spawners[i];
      if (sp.cd > 0) { sp.cd--; continue; }
      var list = g.waves[sp.w - 1];
      spawn(sp.w, list[sp.idx]);
      sp.cd = CREEP[list[sp.idx]].gap;
      sp.idx += 1;
      if (sp.idx >= list.length) g.spawners.splice(i, 1);
    }

    // creeps walk (d is in 1/60 px)
    for (i = 0; i < g.creeps.length; i++) {
      var cr = g.creeps[i];
      if (cr.hit > 0) cr.hit--;
      var pct = 100;
      if (cr.slow > 0) { cr.slow--; pct = cr.slowPct; }
      cr.d += Math.floor(cr.speed * pct / 100);
      var p = roadPos(Math.floor(cr.d / 60));
      cr.x = p.x; cr.y = p.y;
    }

    // towers fire
    for (i = 0; i < g.towers.length; i++) {
      var t = g.towers[i], spec = TOWER[t.kind], lv = t.level - 1;
      if (t.cd > 0) { t.cd--; continue; }
      var range = spec.range[lv];
      if (t.kind === "frost") {
        var any = false;
        for (j = 0; j < g.creeps.length; j++) {
          var c2 = g.creeps[j];
          if (c2.hp > 0 && inRange(t, c2, range)) {
            any = true;
            c2.slowPct = c2.slow > 0 ? Math.min(c2.slowPct, spec.slow[lv]) : spec.slow[lv];
            c2.slow = SLOW_TICKS;
            damage(c2, spec.dmg[lv]);
          }
        }
        if (any) { t.cd = spec.cd[lv]; g.booms.push({ x: cx(t.c), y: cy(t.r), r: range, ttl: 14, kind: "frost" }); }
        continue;
      }
      var best = null;
      for (j = 0; j < g.creeps.length; j++) {
        var c3 = g.creeps[j];
        if (c3.hp > 0 && inRange(t, c3, range) && (best === null || c3.d > best.d)) best = c3;
      }
      if (best === null) continue;
      t.cd = spec.cd[lv];
      t.aimX = best.x; t.aimY = best.y;
      if (t.kind === "arrow") {
        g.shots.push({ x1: cx(t.c), y1: cy(t.r) - 10, x2: best.x, y2: best.y, ttl: 6, kind: "arrow" });
        damage(best, spec.dmg[lv]);
      } else {
        var bx = best.x, by = best.y, sr = spec.splash[lv];
        g.shots.push({ x1: cx(t.c), y1: cy(t.r), x2: bx, y2: by, ttl: 5, kind: "ball" });
        g.booms.push({ x: bx, y: by, r: sr, ttl: 14, kind: "blast" });
        for (j = 0; j < g.creeps.length; j++) {
          var c4 = g.creeps[j], dx = c4.x - bx, dy = c4.y - by;
          if (c4.hp > 0 && dx * dx + dy * dy <= sr * sr) damage(c4, spec.dmg[lv]);
        }
      }
    }

    // the dead and the leaked leave
    for (i = g.creeps.length - 1; i >= 0; i--) {
      var c5 = g.creeps[i];
      if (c5.hp <= 0) { g.creeps.splice(i, 1); creepGone(c5, false); continue; }
      if (Math.floor(c5.d / 60) >= roadLen) {
        g.creeps.splice(i, 1);
        var cost = CREEP[c5.type].leak;
        g.lives = Math.max(0, g.lives - cost);
        g.leaks += 1;
        g.hurt = 20;
        creepGone(c5, true);
        if (g.lives <= 0) { g.over = true; g.won = false; say("The bastion has fallen"); }
      }
    }
  }

  // ---- input ------------------------------------------------------------------------------------
  function selectTool(k) {
    if (g.over) return;
    g.tool = k;
    say(k < 3 ? TOWER[KINDS[k]].name + " tower selected: click a pad (" + TOWER[KINDS[k]].cost[0] + "g)" :
                "Sell: click a tower to sell it");
  }

  function clickTile(c, r) {
    if (g.over) return;
    var t = towerAt(c, r);
    if (g.tool === 3) {
      if (!t) { say("Nothing to sell there"); return; }
      var refund = Math.floor(t.spent * SELL_PCT / 100);
      g.gold += refund;
      g.towers.splice(g.towers.indexOf(t), 1);
      g.floats.push({ x: cx(c), y: cy(r), text: "+" + refund, ttl: 40 });
      say("Sold for " + refund + " gold");
      return;
    }
    if (t) {
      if (t.level >= 3) { say(TOWER[t.kind].name + " tower is at full level"); return; }
      var up = TOWER[t.kind].cost[t.level];
      if (g.gold < up) { say("Upgrade needs " + up + " gold"); return; }
      g.gold -= up; t.spent += up; t.level += 1; g.flash = 10;
      g.booms.push({ x: cx(c), y: cy(r), r: 18, ttl: 14, kind: "up" });
      say(TOWER[t.kind].name + " tower upgraded to level " + t.level);
      return;
    }
    if (!padSet[c + "," + r]) { say("Towers go on the stone pads"); return; }
    var kind = KINDS[g.tool], cost = TOWER[kind].cost[0];
    if (g.gold < cost) { say(TOWER[kind].name + " tower needs " + cost + " gold"); return; }
    g.gold -= cost;
    g.towers.push({ c: c, r: r, kind: kind, level: 1, cd: 0, spent: cost, aimX: cx(c) + 10, aimY: cy(r) });
    g.booms.push({ x: cx(c), y: cy(r), r: 18, ttl: 14, kind: "up" });
    say(TOWER[kind].name + " tower built");
  }

  function onClick(x, y) {
    if (g.over) return;
    if (x < PANEL_X && y >= TOP && y < TOP + ROWS * T) { clickTile(Math.floor(x / T), Math.floor((y - TOP) / T)); return; }
    if (x >= PANEL_X + 4 && x < W - 4) {
      for (var k = 0; k < 4; k++) if (y >= 40 + 52 * k && y < 86 + 52 * k) { selectTool(k); return; }
      if (y >= 252 && y < 296) startWave(true);
    }
  }

  canvas.addEventListener("mousedown", function (e) {
    var rect = canvas.getBoundingClientRect();
    onClick(Math.floor(e.clientX - rect.left), Math.floor(e.clientY - rect.top));
  });
  window.addEventListener("keydown", function (e) {
    var map2 = { Digit1: 0, Digit2: 1, Digit3: 2, KeyX: 3 };
    if (e.code in map2) { selectTool(map2[e.code]); e.preventDefault(); }
    else if (e.code === "Space") { startWave(true); e.preventDefault(); }
  });

  // ---- drawing -----------------------------------------------------------------------------------
  function hash(a, b) { var h = (a * 73856093) ^ (b * 19349663); h = (h ^ (h >>> 13)) * 1274126177; return (h ^ (h >>> 16)) >>> 0; }

  function drawMap() {
    for (var r = 0; r < ROWS; r++) {
      for (var c = 0; c < COLS; c++) {
        var x = c * T, y = TOP + r * T, h = hash(c + 7 * g.mapIndex, r);
        if (roadSet[c + "," + r]) {
          ctx.fillStyle = "#c9a46a"; ctx.fillRect(x, y, T, T);
          ctx.fillStyle = "#b89159";
          ctx.fillRect(x + (h % 20) + 4, y + ((h >> 5) % 20) + 4, 4, 3);
          ctx.fillRect(x + ((h >> 9) % 22) + 3, y + ((h >> 13) % 22) + 5, 3, 3);
        } else {
          ctx.fillStyle = (c + r) % 2 ? "#4f8a3c" : "#4a8438"; ctx.fillRect(x, y, T, T);
          ctx.fillStyle = "#5d9c47";
          ctx.fillRect(x + (h % 24) + 2, y + ((h >> 6) % 24) + 2, 2, 5);
          ctx.fillRect(x + ((h >> 11) % 24) + 4, y + ((h >> 16) % 24) + 3, 2, 4);
          if (h % 7 === 0) { ctx.fillStyle = "#e8d35a"; ctx.fillRect(x + ((h >> 3) % 24) + 4, y + ((h >> 8) % 24) + 4, 3, 3); }
        }
      }
    }
    // road edges
    ctx.fillStyle = "#8a6a3c";
    for (var r2 = 0; r2 < ROWS; r2++) for (var c2 = 0; c2 < COLS; c2++) {
      if (!roadSet[c2 + "," + r2]) continue;
      var x2 = c2 * T, y2 = TOP + r2 * T;
      if (!roadSet[c2 + "," + (r2 - 1)] && r2 > 0) ctx.fillRect(x2, y2, T, 2);
      if (!roadSet[c2 + "," + (r2 + 1)] && r2 < ROWS - 1) ctx.fillRect(x2, y2 + T - 2, T, 2);
      if (!roadSet[(c2 - 1) + "," + r2] && c2 > 0) ctx.fillRect(x2, y2, 2, T);
      if (!roadSet[(c2 + 1) + "," + r2] && c2 < COLS - 1) ctx.fillRect(x2 + T - 2, y2, 2, T);
    }
    // pads
    for (var p = 0; p < map.pads.length; p++) {
      var px = map.pads[p][0] * T, py = TOP + map.pads[p][1] * T;
      ctx.fillStyle = "#6f6a62"; ctx.fillRect(px + 3, py + 3, T - 6, T - 6);
      ctx.fillStyle = "#8f8a80"; ctx.fillRect(px + 5, py + 5, T - 10, T - 10);
      ctx.fillStyle = "#7b766d";
      ctx.fillRect(px + 5, py + 15, T - 10, 2); ctx.fillRect(px + 15, py + 5, 2, 10); ctx.fillRect(px + 11, py + 17, 2, 10);
    }
    // the gate at the road's end and the cave at its start
    var first = map.road[0];
    var sx = cx(Math.max(0, Math.min(COLS - 1, first[0]))), sy = cy(Math.max(0, Math.min(ROWS - 1, first[1])));
    ctx.fillStyle = "#2b2230"; ctx.beginPath(); ctx.arc(sx, sy, 12, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = "#140f18"; ctx.beginPath(); ctx.arc(sx, sy, 8, 0, Math.PI * 2); ctx.fill();
    var last = map.road[map.road.length - 1];
    var ex = cx(Math.max(0, Math.min(COLS - 1, last[0]))), ey = cy(Math.max(0, Math.min(ROWS - 1, last[1])));
    ctx.fillStyle = g.hurt > 0 ? "#d94a3a" : "#7b8794"; ctx.fillRect(ex - 13, ey - 14, 26, 28);
    ctx.fillStyle = "#4b5560"; ctx.fillRect(ex - 13, ey - 14, 26, 5);
    ctx.fillStyle = "#5a3b22"; ctx.fillRect(ex - 6, ey - 4, 12, 18);
    ctx.fillStyle = "#c23b3b"; ctx.fillRect(ex - 1, ey - 26, 2, 12); ctx.fillRect(ex + 1, ey - 26, 9, 6);
  }

  function drawTower(t) {
    var x = cx(t.c), y = cy(t.r), ang = Math.atan2(t.aimY - y, t.aimX - x);
    ctx.fillStyle = "rgba(0,0,0,0.25)"; ctx.beginPath(); ctx.ellipse(x, y + 10, 12, 5, 0, 0, Math.PI * 2); ctx.fill();
    if (t.kind === "arrow") {
      ctx.fillStyle = "#7a5230"; ctx.fillRect(x - 9, y - 6, 18, 16);
      ctx.fillStyle = "#9c6b3e"; ctx.fillRect(x - 9, y - 6, 18, 3);
      ctx.fillStyle = "#3a2716"; ctx.fillRect(x - 2, y + 2, 4, 8);
      ctx.fillStyle = t.level >= 3 ? "#3b6fc4" : t.level === 2 ? "#c43b3b" : "#6b3a20";
      ctx.beginPath(); ctx.moveTo(x - 12, y - 5); ctx.lineTo(x, y - 15); ctx.lineTo(x + 12, y - 5); ctx.closePath(); ctx.fill();
    } else if (t.kind === "cannon") {
      ctx.fillStyle = "#5c5f66"; ctx.beginPath(); ctx.arc(x, y + 1, 11, 0, Math.PI * 2); ctx.fill();
      ctx.fillStyle = "#7d818a"; ctx.beginPath(); ctx.arc(x, y, 8, 0, Math.PI * 2); ctx.fill();
      ctx.strokeStyle = "#2a2c30"; ctx.lineWidth = 6; ctx.beginPath(); ctx.moveTo(x, y);
      ctx.lineTo(x + Math.cos(ang) * 13, y + Math.sin(ang) * 13); ctx.stroke();
      ctx.fillStyle = t.level >= 3 ? "#e0b43a" : t.level === 2 ? "#b0b4bb" : "#464950";
      ctx.beginPath(); ctx.arc(x, y, 4, 0, Math.PI * 2); ctx.fill();
    } else {
      ctx.fillStyle = "#3c5a7a"; ctx.fillRect(x - 9, y - 2, 18, 12);
      ctx.fillStyle = t.level >= 3 ? "#e9fbff" : t.level === 2 ? "#a6ecff" : "#6fd3f5";
      ctx.beginPath(); ctx.moveTo(x, y - 15); ctx.lineTo(x + 7, y - 2); ctx.lineTo(x, y + 4); ctx.lineTo(x - 7, y - 2);
      ctx.closePath(); ctx.fill();
      ctx.fillStyle = "rgba(255,255,255,0.7)"; ctx.fillRect(x - 2, y - 9, 2, 6);
    }
    for (var k = 0; k < t.level; k++) { ctx.fillStyle = "#ffd84a"; ctx.fillRect(x - 9 + k * 7, y + 11, 5, 4); }
  }

  function drawCreep(cr) {
    var spec = CREEP[cr.type], r = spec.r;
    var body = { grunt: "#7bc043", runner: "#e3a33b", brute: "#9b59b6", boss: "#c0392b" }[cr.type];
    ctx.fillStyle = "rgba(0,0,0,0.25)"; ctx.beginPath(); ctx.ellipse(cr.x, cr.y + r - 1, r, 3, 0, 0, Math.PI * 2); ctx.fill();
    var bob = ((g.tick + cr.id * 5) >> 3) % 2;
    ctx.fillStyle = cr.hit > 0 ? "#ffffff" : body;
    ctx.beginPath(); ctx.arc(cr.x, cr.y - bob, r, 0, Math.PI * 2); ctx.fill();
    if (cr.slow > 0) { ctx.strokeStyle = "#9be7ff"; ctx.lineWidth = 2; ctx.beginPath(); ctx.arc(cr.x, cr.y - bob, r + 1, 0, Math.PI * 2); ctx.stroke(); }
    ctx.fillStyle = "#fff"; ctx.fillRect(cr.x - r / 2 - 1, cr.y - bob - 3, 4, 4); ctx.fillRect(cr.x + r / 2 - 3, cr.y - bob - 3, 4, 4);
    ctx.fillStyle = "#111"; ctx.fillRect(cr.x - r / 2, cr.y - bob - 2, 2, 2); ctx.fillRect(cr.x + r / 2 - 2, cr.y - bob - 2, 2, 2);
    if (cr.type === "boss") { ctx.fillStyle = "#f1c40f"; ctx.fillRect(cr.x - 7, cr.y - bob - r - 4, 14, 4); }
    if (cr.hp < cr.maxHp) {
      ctx.fillStyle = "#300"; ctx.fillRect(cr.x - 10, cr.y - r - 9, 20, 3);
      ctx.fillStyle = "#4be04b"; ctx.fillRect(cr.x - 10, cr.y - r - 9, Math.max(1, Math.round(20 * cr.hp / cr.maxHp)), 3);
    }
  }

  function drawEffects() {
    var i;
    for (i = 0; i < g.booms.length; i++) {
      var b = g.booms[i], a = b.ttl / 14;
      if (b.kind === "frost") { ctx.strokeStyle = "rgba(160,230,255," + a + ")"; ctx.lineWidth = 2; ctx.beginPath(); ctx.arc(b.x, b.y, b.r * (1.1 - a * 0.6), 0, Math.PI * 2); ctx.stroke(); }
      else if (b.kind === "blast") { ctx.fillStyle = "rgba(255,150,40," + (a * 0.6) + ")"; ctx.beginPath(); ctx.arc(b.x, b.y, b.r * (1.2 - a * 0.5), 0, Math.PI * 2); ctx.fill(); }
      else if (b.kind === "up") { ctx.strokeStyle = "rgba(255,230,90," + a + ")"; ctx.lineWidth = 3; ctx.beginPath(); ctx.arc(b.x, b.y, b.r + (1 - a) * 10, 0, Math.PI * 2); ctx.stroke(); }
      else { ctx.fillStyle = "rgba(255,255,255," + a + ")"; ctx.beginPath(); ctx.arc(b.x, b.y, b.r * (1.4 - a), 0, Math.PI * 2); ctx.fill(); }
    }
    for (i = 0; i < g.shots.length; i++) {
      var s = g.shots[i];
      if (s.kind === "arrow") { ctx.strokeStyle = "#fff3c4"; ctx.lineWidth = 2; ctx.beginPath(); ctx.moveTo(s.x1, s.y1); ctx.lineTo(s.x2, s.y2); ctx.stroke(); }
      else { var f = s.ttl / 5; ctx.fillStyle = "#222"; ctx.beginPath(); ctx.arc(s.x2 + (s.x1 - s.x2) * f, s.y2 + (s.y1 - s.y2) * f, 4, 0, Math.PI * 2); ctx.fill(); }
    }
    ctx.font = "bold 11px monospace"; ctx.textAlign = "center";
    for (i = 0; i < g.floats.length; i++) { var fl = g.floats[i]; ctx.fillStyle = "#ffd84a"; ctx.fillText(fl.text, fl.x, fl.y); }
  }

  function drawPanel() {
    ctx.fillStyle = "#2a2420"; ctx.fillRect(PANEL_X, TOP, W - PANEL_X, H - TOP);
    ctx.fillStyle = "#4a3d33"; ctx.fillRect(PANEL_X, TOP, 2, H - TOP);
    var labels = ["1 Arrow", "2 Cannon", "3 Frost", "X Sell"];
    for (var k = 0; k < 4; k++) {
      var y = 40 + 52 * k, sel = g.tool === k;
      ctx.fillStyle = sel ? "#c99a3e" : "#3e342c"; ctx.fillRect(PANEL_X + 4, y, 88, 46);
      ctx.fillStyle = sel ? "#f1d58a" : "#54473c"; ctx.fillRect(PANEL_X + 6, y + 2, 84, 42);
      if (k < 3) {
        var fake = { c: 0, r: 0, kind: KINDS[k], level: 1, aimX: 1e3, aimY: 0 };
        ctx.save(); ctx.translate(PANEL_X + 22 - cx(0), y + 22 - cy(0)); drawTower(fake); ctx.restore();
      } else {
        ctx.fillStyle = "#ffd84a"; ctx.beginPath(); ctx.arc(PANEL_X + 22, y + 23, 9, 0, Math.PI * 2); ctx.fill();
        ctx.fillStyle = "#b8860b"; ctx.font = "bold 12px monospace"; ctx.textAlign = "center"; ctx.fillText("$", PANEL_X + 22, y + 27);
      }
      ctx.fillStyle = sel ? "#2a1d10" : "#f3e9dc"; ctx.font = "bold 11px monospace"; ctx.textAlign = "left";
      ctx.fillText(labels[k].slice(2), PANEL_X + 38, y + 19);
      ctx.font = "10px monospace";
      ctx.fillText(k < 3 ? TOWER[KINDS[k]].cost[0] + "g  [" + labels[k][0] + "]" : SELL_PCT + "%  [X]", PANEL_X + 38, y + 34);
    }
    var canCall = g.wave < MAX_WAVES && !g.over;
    ctx.fillStyle = canCall ? "#8c2f25" : "#443a33"; ctx.fillRect(PANEL_X + 4, 252, 88, 44);
    ctx.fillStyle = canCall ? "#c0483a" : "#594c42"; ctx.fillRect(PANEL_X + 6, 254, 84, 40);
    ctx.fillStyle = "#fff"; ctx.textAlign = "center"; ctx.font = "bold 11px monospace";
    ctx.fillText("NEXT WAVE", PANEL_X + 48, 270);
    ctx.font = "10px monospace";
    ctx.fillText(canCall ? "Space  +" + Math.floor(g.waveTimer / 60) + "g" : "-", PANEL_X + 48, 286);
    ctx.fillStyle = "#d8c8b0"; ctx.font = "9px monospace";
    ctx.fillText(map.name, PANEL_X + 48, 312);
    ctx.font = "10px monospace";
    ctx.fillText("Clean waves " + g.clean, PANEL_X + 48, 327);
    ctx.fillText("Leaks " + g.leaks, PANEL_X + 48, 342);
  }

  function drawHud() {
    ctx.fillStyle = "#1d1915"; ctx.fillRect(0, 0, W, TOP);
    ctx.fillStyle = g.hurt > 0 ? "#d94a3a" : g.flash > 0 ? "#ffd84a" : "#4a3d33"; ctx.fillRect(0, TOP - 2, W, 2);
    ctx.textBaseline = "middle"; ctx.font = "bold 14px monospace"; ctx.textAlign = "left";
    ctx.fillStyle = "#e74c3c"; ctx.beginPath(); ctx.arc(14, 15, 6, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = "#fff"; ctx.fillText(String(g.lives), 24, 16);
    ctx.fillStyle = "#ffd84a"; ctx.beginPath(); ctx.arc(70, 15, 6, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = "#fff"; ctx.fillText(String(g.gold), 80, 16);
    ctx.fillText("WAVE " + g.wave + "/" + MAX_WAVES, 140, 16);
    ctx.fillText("KILLS " + g.kills, 268, 16);
    ctx.textAlign = "right";
    ctx.fillStyle = "#d8c8b0"; ctx.font = "12px monospace";
    ctx.fillText(g.wave < MAX_WAVES ? "next " + Math.ceil(g.waveTimer / 60) + "s" : "last wave", W - 8, 16);
    ctx.textBaseline = "alphabetic";
  }

  function draw() {
    ctx.save();
    drawMap();
    for (var i = 0; i < g.towers.length; i++) drawTower(g.towers[i]);
    for (i = 0; i < g.creeps.length; i++) drawCreep(g.creeps[i]);
    drawEffects();
    drawPanel();
    drawHud();
    if (g.msgTicks > 0 && !g.over) {
      ctx.font = "bold 11px monospace"; ctx.textAlign = "center";
      var w = ctx.measureText(g.message).width + 16;
      ctx.fillStyle = "rgba(20,16,12,0.8)"; ctx.fillRect(192 - w / 2, H - 30, w, 18);
      ctx.fillStyle = "#fff3c4"; ctx.fillText(g.message, 192, H - 17);
    }
    ctx.fillStyle = "#1d1915"; ctx.fillRect(0, TOP + ROWS * T, PANEL_X, H - TOP - ROWS * T);
    if (g.over) {
      ctx.fillStyle = "rgba(10,8,6,0.72)"; ctx.fillRect(0, H / 2 - 50, PANEL_X, 100);
      ctx.textAlign = "center"; ctx.font = "bold 28px monospace";
      ctx.fillStyle = g.won ? "#ffd84a" : "#e74c3c";
      ctx.fillText(g.won ? "VICTORY!" : "BASTION FALLEN", 192, H / 2 - 10);
      ctx.fillStyle = "#fff"; ctx.font = "bold 13px monospace";
      ctx.fillText("Waves " + g.cleared + "  Clean " + g.clean + "  Kills " + g.kills, 192, H / 2 + 20);
    }
    ctx.restore();
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

  window.gameAPI = {
    getState: function () {
      var towers = [];
      for (var i = 0; i < g.towers.length; i++) {
        var t = g.towers[i];
        towers.push({ col: t.c, row: t.r, kind: t.kind, level: t.level });
      }
      var lead = 0;
      for (i = 0; i < g.creeps.length; i++) lead = Math.max(lead, Math.floor(100 * Math.floor(g.creeps[i].d / 60) / roadLen));
      return {
        status: g.over ? "terminal" : "playing",
        actionable: true,
        terminal: { is_terminal: g.over, outcome: g.over ? (g.won ? "win" : "lose") : null,
                    reason: g.over ? (g.won ? "all waves held" : "out of lives") : null },
        score: g.score,
        wave: g.wave,
        lives: g.lives,
        gold: g.gold,
        kills: g.kills,
        leaks: g.leaks,
        clean_waves: g.clean,
        waves_cleared: g.cleared,
        towers: g.towers.length,
        tool: ["arrow", "cannon", "frost", "sell"][g.tool],
        next_wave_in: g.wave < MAX_WAVES ? Math.ceil(g.waveTimer / 60) : -1,
        creeps: g.creeps.length,
        spawning: g.spawners.length,
        lead_pct: lead,
        map: g.mapIndex,
        mirrored: [g.flipH, g.flipV],
        road: map.road.map(function (p) { return [p[0], p[1]]; }),
        pads: map.pads.map(function (p) { return [p[0], p[1]]; }),
        tower_list: towers,
        message: g.msgTicks > 0 ? g.message : ""
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
