// Meadow Farm: a small tile farm. Clear weeds and stones, till the soil, plant seeds, water them from a can
// filled at the well, sleep so the watered crops grow, harvest, ship the crops in the bin and buy more seeds
// (or a bigger can) at the stall. A season of 10 days; the festival judges the farm's earnings at its end.
// Logic runs in fixed 1/60 s ticks taken from requestAnimationFrame timestamps; chance comes only from
// Math.random, drawn in a fixed order when a farm is made (layout, prices, weather). The layout is drawn each
// game: the order and places of the house, bin and stall along the top, the field's columns, and the places of
// the well and the tool rack in the yard; the farmer wakes below the house door and the can starts empty.
(function () {
  "use strict";

  var W = 480, H = 360, TILE = 32, COLS = 15, ROWS = 10, TOP = 40;
  var TICK_MS = 1000 / 60;
  var MAX_CATCH_UP = 600;
  var DAY_TICKS = 900;            // 6:00 to 22:00; 60 steps of 250 ms
  var SEASON_DAYS = 10;
  var FESTIVAL_GOAL = 500;        // earned by the end of day 10 to win the festival
  var CAN_SMALL = 8, CAN_BIG = 20, BIG_CAN_COST = 100;
  var START_COINS = 50;
  var COLLAPSE_FEE = 10;

  var KINDS = ["turnip", "carrot", "melon"];
  var CROP = {
    turnip: { cost: 10, nights: 1, base: 25, label: "Turnip", color: "#f3e9f2", leaf: "#6cc04a", mark: "#b04a9c" },
    carrot: { cost: 20, nights: 2, base: 60, label: "Carrot", color: "#f28b2c", leaf: "#4fae3d", mark: "#c0601a" },
    melon:  { cost: 50, nights: 3, base: 150, label: "Melon", color: "#7cc46a", leaf: "#3d8f34", mark: "#2f6e2a" }
  };

  // T tree, H house, D house door, . grass, f field soil, W well, B shipping bin, S seed stall, R tool rack.
  // Trees ring the farm. Drawn each game: the house (3 wide, rows 1-2, door in the middle of its lower row),
  // the bin and the stall stand along the top in a shuffled order with random gaps (row 2); the field is 8
  // columns wide (starting at column 2-5) on rows 4-5 and 7-8; the well and the rack each stand on a grass tile
  // of the yard (row 3 under a gap of the top row, row 6, or column 1 or 13 beside the field rows), not next to
  // each other.
  var FIELD_ROWS = [4, 5, 7, 8], FIELD_W = 8;
  var DIRS = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
  var FACE_NAME = { "0,-1": "up", "0,1": "down", "-1,0": "left", "1,0": "right" };

  var canvas = document.getElementById("game");
  var ctx = canvas.getContext("2d");
  var g = null;
  var pending = [];               // key presses not yet handled by a tick
  var lastTs = null, acc = 0;

  function rnd(n) { return Math.floor(Math.random() * n); }

  // ---------------------------------------------------------------- the farm
  function newGame() {
    var map = [], x, y, i, j;
    for (y = 0; y < ROWS; y++) {
      var row = [];
      for (x = 0; x < COLS; x++) row.push(y === 0 || x === 0 || x === COLS - 1 ? "T" : ".");
      map.push(row);
    }
    // the top: house, bin and stall in a shuffled order, the spare columns spread as gaps
    var items = ["H", "B", "S"];
    for (i = items.length - 1; i > 0; i--) { j = rnd(i + 1); var tmp = items[i]; items[i] = items[j]; items[j] = tmp; }
    var gaps = [0, 0, 0, 0], spare = (COLS - 2) - 5;
    for (i = 0; i < spare; i++) gaps[rnd(gaps.length)]++;
    var pos = {};
    x = 1 + gaps[0];
    for (i = 0; i < items.length; i++) {
      if (items[i] === "H") {
        for (j = 0; j < 3; j++) { map[1][x + j] = "H"; map[2][x + j] = "H"; }
        map[2][x + 1] = "D"; pos.house = x; pos.door = [x + 1, 2]; x += 3;
      } else {
        map[2][x] = items[i]; pos[items[i] === "B" ? "bin" : "stall"] = [x, 2]; x += 1;
      }
      x += gaps[i + 1];
    }
    var fieldX = 2 + rnd(4);
    for (i = 0; i < FIELD_ROWS.length; i++) for (x = fieldX; x < fieldX + FIELD_W; x++) map[FIELD_ROWS[i]][x] = "f";
    // the well, then the rack, on grass of the yard
    var spots = [];
    for (x = 1; x < COLS - 1; x++) if (map[2][x] === ".") spots.push([x, 3]);   // under a gap of the top row
    for (x = 1; x < COLS - 1; x++) spots.push([x, 6]);
    for (i = 0; i < FIELD_ROWS.length; i++) { spots.push([1, FIELD_ROWS[i]]); spots.push([COLS - 2, FIELD_ROWS[i]]); }
    pos.well = spots[rnd(spots.length)];
    map[pos.well[1]][pos.well[0]] = "W";
    spots = spots.filter(function (p) { return Math.abs(p[0] - pos.well[0]) + Math.abs(p[1] - pos.well[1]) > 1; });
    pos.rack = spots[rnd(spots.length)];
    map[pos.rack[1]][pos.rack[0]] = "R";
    var start = [pos.door[0], 3];
    // field: each soil tile is clear, a weed (one swing) or a stone (two swings)
    var field = [];
    for (y = 0; y < ROWS; y++) {
      for (x = 0; x < COLS; x++) {
        if (map[y][x] !== "f") continue;
        var r = rnd(100);
        var cell = { x: x, y: y, kind: "soil", hp: 0, crop: null };
        if (r < 22) { cell.kind = "weed"; cell.hp = 1; }
        else if (r < 36) { cell.kind = "stone"; cell.hp = 2; }
        field.push(cell);
      }
    }
    var prices = [], weather = [];
    for (var d = 0; d <= SEASON_DAYS; d++) {
      var p = {};
      for (var k = 0; k < KINDS.length; k++) {
        var c = CROP[KINDS[k]];
        p[KINDS[k]] = Math.round(c.base * (75 + rnd(56)) / 100);
      }
      prices.push(p);
      weather.push(d <= 1 ? "sun" : (rnd(100) < 25 ? "rain" : "sun"));
    }
    g = {
      tick: 0, map: map, field: field, pos: pos, start: start, prices: prices, weather: weather,
      day: 1, dayTick: 0, coins: START_COINS, earned: 0,
      water: 0, waterMax: CAN_SMALL, bigCan: false,
      seeds: { turnip: 4, carrot: 0, melon: 0 }, produce: { turnip: 0, carrot: 0, melon: 0 },
      selected: "turnip", harvested: 0, sold: 0, planted: 0, watered: 0, cleared: 0, tilled: 0,
      bought: 0, nights: 0, collapses: 0,
      px: start[0], py: start[1], fx: 0, fy: 1, fromX: start[0], fromY: start[1], moveTick: -100,
      useTick: -100, fade: 0, message: "Good morning! The can is empty: fill it at the WELL. Q picks a seed.", msgTicks: 240,
      floaters: [], over: false, outcome: null
    };
  }

  function cellAt(x, y) {
    if (g.map[y] === undefined || g.map[y][x] !== "f") return null;
    for (var i = 0; i < g.field.length; i++) if (g.field[i].x === x && g.field[i].y === y) return g.field[i];
    return null;
  }

  function tileAt(x, y) {
    if (x < 0 || y < 0 || x >= COLS || y >= ROWS) return "T";
    return g.map[y][x];
  }

  function walkable(x, y) {
    var t = tileAt(x, y);
    return t === "." || t === "f";    // the farmer walks on grass and the field; buildings and trees turn him
  }

  function say(text) { g.message = text; g.msgTicks = 150; }

  function floater(x, y, text, color) {
    g.floaters.push({ x: x, y: y, text: text, color: color, born: g.tick });
    if (g.floaters.length > 12) g.floaters.shift();
  }

  // ---------------------------------------------------------------- nights and days
  function endDay(collapsed) {
    // crops that were watered grow one stage; then the new day's weather
    for (var i = 0; i < g.field.length; i++) {
      var c = g.field[i].crop;
      if (!c) continue;
      if (c.wet && c.growth < CROP[c.kind].nights) c.growth++;
      c.wet = false;
    }
    if (collapsed) {
      var fee = Math.min(COLLAPSE_FEE, g.coins);
      g.coins -= fee;
      g.collapses++;
    }
    g.nights++;
    if (g.day >= SEASON_DAYS) {
      g.over = true;
      g.outcome = g.earned >= FESTIVAL_GOAL ? "win" : "lose";
      g.fade = 40;
      return;
    }
    g.day++;
    g.dayTick = 0;
    if (g.weather[g.day] === "rain") {
      for (var j = 0; j < g.field.length; j++) if (g.field[j].crop) g.field[j].crop.wet = true;
    }
    g.px = g.start[0]; g.py = g.start[1]; g.fromX = g.px; g.fromY = g.py; g.fx = 0; g.fy = 1;
    g.fade = 40;
    var w = g.weather[g.day] === "rain" ? " Rain waters every crop today." : "";
    say((collapsed ? "You collapsed at 22:00 and paid the doctor " + fee + " coins. " : "") +
        "Day " + g.day + "." + w);
  }

  function ripe(c) { return c.growth >= CROP[c.kind].nights; }

  // ---------------------------------------------------------------- actions
  function move(dx, dy) {
    g.fx = dx; g.fy = dy;
    var nx = g.px + dx, ny = g.py + dy;
    if (walkable(nx, ny)) {
      g.fromX = g.px; g.fromY = g.py; g.px = nx; g.py = ny; g.moveTick = g.tick;
    }
  }

  function cycle() {
    var i = KINDS.indexOf(g.selected);
    g.selected = KINDS[(i + 1) % KINDS.length];
    say(CROP[g.selected].label + " seeds selected (" + g.seeds[g.selected] + " in the bag, " +
        CROP[g.selected].cost + " coins at the stall).");
  }

  function use() {
    g.useTick = g.tick;
    if (tileAt(g.px, g.py) === "f") { work(g.px, g.py); return; }
    var tx = g.px + g.fx, ty = g.py + g.fy, t = tileAt(tx, ty);
    if (t === "D") { endDay(false); return; }
    if (t === "W") {
      if (g.water >= g.waterMax) { say("The can is already full."); return; }
      g.water = g.waterMax;
      say("Filled the can at the well (" + g.water + " waterings).");
      floater(tx, ty, "refill", "#8fd3ff");
      return;
    }
    if (t === "B") {
      var total = 0, n = 0;
      for (var k = 0; k < KINDS.length; k++) {
        var kind = KINDS[k], q = g.produce[kind];
        if (!q) continue;
        total += q * g.prices[g.day][kind];
        n += q;
        g.produce[kind] = 0;
      }
      if (!n) { say("Nothing to ship: harvest ripe crops first."); return; }
      g.coins += total; g.earned += total; g.sold += n;
      say("Shipped " + n + " crop" + (n > 1 ? "s" : "") + " for " + total + " coins.");
      floater(tx, ty, "+" + total, "#ffd84a");
      return;
    }
    if (t === "S") {
      var cost = CROP[g.selected].cost;
      if (g.coins < cost) { say("A " + CROP[g.selected].label + " seed costs " + cost + " coins: not enough."); return; }
      g.coins -= cost; g.seeds[g.selected]++; g.bought++;
      say("Bought a " + CROP[g.selected].label + " seed for " + cost + " (" + g.seeds[g.selected] + " in the bag).");
      floater(tx, ty, "-" + cost, "#ff9a7a");
      return;
    }
    if (t === "R") {
      if (g.bigCan) { say("You already own the Big Can."); return; }
      if (g.coins < BIG_CAN_COST) { say("The Big Can (20 waterings) costs " + BIG_CAN_COST + " coins."); return; }
      g.coins -= BIG_CAN_COST; g.bigCan = true; g.waterMax = CAN_BIG; g.water = CAN_BIG;
      say("Bought the Big Can: 20 waterings, and it comes full!");
      floater(tx, ty, "BIG CAN", "#8fd3ff");
      return;
    }
    say("Nothing to use here: stand on a field tile, or face the well, bin, stall, rack or door.");
  }

  function work(tx, ty) {             // Space on a field tile: the tile under the farmer
    var cell = cellAt(tx, ty);
    if (cell.kind === "weed") {
      cell.kind = "soil"; cell.hp = 0; g.cleared++;
      say("Pulled a weed."); floater(tx, ty, "weed", "#b6e08a");
      return;
    }
    if (cell.kind === "stone") {
      cell.hp--;
      if (cell.hp <= 0) { cell.kind = "soil"; g.cleared++; say("Broke the stone."); floater(tx, ty, "crack", "#d0d0d0"); }
      else say("The stone cracks: one more swing.");
      return;
    }
    if (cell.kind === "soil") {
      cell.kind = "tilled"; g.tilled++;
      if (g.seeds[g.selected] > 0) { plant(cell, "Tilled the soil and planted a "); return; }
      say("Tilled the soil.");
      return;
    }
    var c = cell.crop;
    if (!c) {
      if (g.seeds[g.selected] <= 0) {
        say("No " + CROP[g.selected].label + " seeds: buy some at the stall or press Q for another kind.");
        return;
      }
      plant(cell, "Planted a ");
      return;
    }
    if (ripe(c)) {
      g.produce[c.kind]++; g.harvested++;
      cell.crop = null;
      say("Harvested a " + CROP[c.kind].label + "! Ship it in the bin.");
      floater(tx, ty, CROP[c.kind].label, CROP[c.kind].color);
      return;
    }
    if (c.wet) { say("Already watered today."); return; }
    if (g.water <= 0) { say("The can is empty: fill it at the well."); return; }
    g.water--; c.wet = true; g.watered++;
    floater(tx, ty, "splash", "#8fd3ff");
    say("Watered (" + g.water + " left in the can).");
  }

  function plant(cell, text) {
    g.seeds[g.selected]--;
    cell.crop = { kind: g.selected, growth: 0, wet: g.weather[g.day] === "rain" };
    g.planted++;
    var n = CROP[g.selected].nights;
    say(text + CROP[g.selected].label + " (" + n + " watered night" + (n > 1 ? "s" : "") + " to ripen).");
  }

  function step() {
    g.tick++;
    if (g.msgTicks > 0) g.msgTicks--;
    if (g.fade > 0) g.fade--;
    if (g.over) { pending.length = 0; return; }
    while (pending.length) {
      var code = pending.shift();
      if (DIRS[code]) move(DIRS[code][0], DIRS[code][1]);
      else if (code === "Space") use();
      else if (code === "KeyQ") cycle();
      if (g.over) { pending.length = 0; return; }
    }
    g.dayTick++;
    if (g.dayTick >= DAY_TICKS) endDay(true);
    for (var i = g.floaters.length - 1; i >= 0; i--) if (g.tick - g.floaters[i].born > 50) g.floaters.splice(i, 1);
  }

  // ---------------------------------------------------------------- drawing
  function hash(x, y, s) { var h = (x * 73856093) ^ (y * 19349663) ^ (s * 83492791); h = (h ^ (h >>> 13)) >>> 0; return h % 1000; }

  function clockText() {
    var minutes = 360 + Math.floor(g.dayTick * 16 / 15);
    var hh = Math.floor(minutes / 60), mm = minutes % 60;
    return (hh < 10 ? "0" : "") + hh + ":" + (mm < 10 ? "0" : "") + mm;
  }

  function drawGrass(px, py, x, y) {
    ctx.fillStyle = (x + y) % 2 ? "#6dbb4f" : "#68b54b";
    ctx.fillRect(px, py, TILE, TILE);
    ctx.fillStyle = "#5aa540";
    for (var i = 0; i < 3; i++) {
      var h = hash(x, y, i);
      ctx.fillRect(px + 3 + h % 26, py + 3 + (h >> 3) % 24, 2, 4);
    }
    if (hash(x, y, 9) < 90) {
      ctx.fillStyle = hash(x, y, 8) < 500 ? "#fff6a8" : "#ffd0e8";
      var fxp = px + 6 + hash(x, y, 7) % 20, fyp = py + 6 + hash(x, y, 6) % 20;
      ctx.fillRect(fxp, fyp, 3, 3);
    }
  }

  function drawTree(px, py, x, y) {
    drawGrass(px, py, x, y);
    ctx.fillStyle = "#6b4a2b";
    ctx.fillRect(px + 13, py + 20, 6, 10);
    ctx.fillStyle = "#2f7a35";
    ctx.beginPath(); ctx.arc(px + 16, py + 14, 12, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = "#3d9443";
    ctx.beginPath(); ctx.arc(px + 13, py + 11, 7, 0, Math.PI * 2); ctx.fill();
  }

  function drawSoil(px, py, cell) {
    var wet = cell.crop && cell.crop.wet;
    ctx.fillStyle = cell.kind === "tilled" ? (wet ? "#5a3a22" : "#8a5a34") : "#a9784a";
    ctx.fillRect(px + 1, py + 1, TILE - 2, TILE - 2);
    if (cell.kind === "tilled") {
      ctx.fillStyle = wet ? "#46291a" : "#6e4528";
      for (var i = 0; i < 4; i++) ctx.fillRect(px + 4, py + 5 + i * 7, TILE - 8, 2);
    } else {
      ctx.fillStyle = "#9a6b40";
      ctx.fillRect(px + 6 + hash(cell.x, cell.y, 1) % 16, py + 8 + hash(cell.x, cell.y, 2) % 14, 3, 2);
    }
    if (cell.kind === "weed") {
      ctx.strokeStyle = "#3f8a2a"; ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.moveTo(px + 16, py + 26); ctx.lineTo(px + 8, py + 10);
      ctx.moveTo(px + 16, py + 26); ctx.lineTo(px + 16, py + 7);
      ctx.moveTo(px + 16, py + 26); ctx.lineTo(px + 24, py + 11);
      ctx.moveTo(px + 12, py + 26); ctx.lineTo(px + 5, py + 18);
      ctx.moveTo(px + 20, py + 26); ctx.lineTo(px + 27, py + 19);
      ctx.stroke();
      ctx.fillStyle = "#e8e06a"; ctx.fillRect(px + 15, py + 5, 3, 3);
    } else if (cell.kind === "stone") {
      ctx.fillStyle = "#7d7f86";
      ctx.beginPath(); ctx.ellipse(px + 16, py + 19, 11, 8, 0, 0, Math.PI * 2); ctx.fill();
      ctx.fillStyle = "#a3a6ad";
      ctx.beginPath(); ctx.ellipse(px + 13, py + 16, 6, 4, 0, 0, Math.PI * 2); ctx.fill();
      if (cell.hp === 1) {
        ctx.strokeStyle = "#3b3c40"; ctx.lineWidth = 1.5;
        ctx.beginPath(); ctx.moveTo(px + 10, py + 13); ctx.lineTo(px + 17, py + 20); ctx.lineTo(px + 14, py + 26); ctx.stroke();
      }
    }
    if (cell.crop) drawCrop(px, py, cell.crop);
  }

  function drawCrop(px, py, c) {
    var info = CROP[c.kind], stage = c.growth, need = info.nights;
    var cx = px + 16, base = py + 27;
    if (stage >= need) {
      // ripe: the produce shows
      ctx.fillStyle = info.leaf;
      ctx.fillRect(cx - 7, base - 20, 3, 9); ctx.fillRect(cx - 1, base - 23, 3, 10); ctx.fillRect(cx + 5, base - 20, 3, 9);
      ctx.fillStyle = info.color;
      if (c.kind === "melon") {
        ctx.beginPath(); ctx.ellipse(cx, base - 6, 11, 8, 0, 0, Math.PI * 2); ctx.fill();
        ctx.strokeStyle = info.mark; ctx.lineWidth = 2;
        ctx.beginPath(); ctx.moveTo(cx - 6, base - 12); ctx.lineTo(cx - 6, base); ctx.moveTo(cx, base - 14); ctx.lineTo(cx, base + 1);
        ctx.moveTo(cx + 6, base - 12); ctx.lineTo(cx + 6, base); ctx.stroke();
      } else if (c.kind === "carrot") {
        ctx.beginPath(); ctx.moveTo(cx - 6, base - 12); ctx.lineTo(cx + 6, base - 12); ctx.lineTo(cx, base + 2); ctx.fill();
        ctx.fillStyle = info.mark; ctx.fillRect(cx - 3, base - 8, 4, 1); ctx.fillRect(cx - 1, base - 4, 3, 1);
      } else {
        ctx.beginPath(); ctx.arc(cx, base - 6, 7, 0, Math.PI * 2); ctx.fill();
        ctx.fillStyle = info.mark; ctx.beginPath(); ctx.arc(cx, base - 9, 5, Math.PI, 0); ctx.fill();
      }
      // sparkle
      ctx.fillStyle = "#fffbd0";
      ctx.fillRect(px + 26, py + 4, 2, 6); ctx.fillRect(px + 24, py + 6, 6, 2);
      return;
    }
    var h = 5 + Math.floor(14 * stage / need);
    ctx.fillStyle = info.leaf;
    ctx.fillRect(cx - 1, base - h, 2, h);
    ctx.beginPath(); ctx.ellipse(cx - 4, base - h + 2, 4, 2, -0.5, 0, Math.PI * 2); ctx.fill();
    ctx.beginPath(); ctx.ellipse(cx + 4, base - h + 2, 4, 2, 0.5, 0, Math.PI * 2); ctx.fill();
    if (stage > 0) {
      ctx.beginPath(); ctx.ellipse(cx - 5, base - 4, 5, 2, -0.3, 0, Math.PI * 2); ctx.fill();
      ctx.beginPath(); ctx.ellipse(cx + 5, base - 4, 5, 2, 0.3, 0, Math.PI * 2); ctx.fill();
    }
    // growth pips
    for (var i = 0; i < need; i++) {
      ctx.fillStyle = i < stage ? "#ffe36a" : "rgba(0,0,0,0.35)";
      ctx.fillRect(px + 3 + i * 5, py + 3, 4, 3);
    }
    if (!c.wet) { ctx.fillStyle = "#ffffff"; ctx.fillRect(px + 25, py + 3, 4, 4); ctx.fillStyle = "#4aa8ff"; ctx.fillRect(px + 26, py + 4, 2, 2); }
  }

  function drawWell(px, py, x, y) {
    drawGrass(px, py, x, y);
    ctx.fillStyle = "#6b4a2b"; ctx.fillRect(px + 4, py + 2, 3, 16); ctx.fillRect(px + 25, py + 2, 3, 16);
    ctx.fillStyle = "#a5442e"; ctx.fillRect(px + 1, py, 30, 5);
    ctx.fillStyle = "#8c8f96"; ctx.beginPath(); ctx.ellipse(px + 16, py + 22, 14, 9, 0, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = "#2f6fb8"; ctx.beginPath(); ctx.ellipse(px + 16, py + 21, 9, 5, 0, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = "#8fd3ff"; ctx.fillRect(px + 11, py + 19, 5, 2);
    ctx.fillStyle = "rgba(20,30,50,0.8)"; ctx.fillRect(px + 5, py + 6, 22, 9);
    ctx.fillStyle = "#bfe6ff"; ctx.font = "bold 7px monospace"; ctx.textAlign = "center"; ctx.textBaseline = "middle";
    ctx.fillText("WELL", px + 16, py + 11);
  }

  function drawBin(px, py, x, y) {
    drawGrass(px, py, x, y);
    ctx.fillStyle = "#8b5a2b"; ctx.fillRect(px + 2, py + 8, 28, 22);
    ctx.fillStyle = "#a86e36"; ctx.fillRect(px + 1, py + 4, 30, 7);
    ctx.fillStyle = "#5e3b1a"; ctx.fillRect(px + 2, py + 17, 28, 2); ctx.fillRect(px + 2, py + 24, 28, 2);
    ctx.fillStyle = "#ffd84a"; ctx.font = "bold 8px monospace"; ctx.textAlign = "center"; ctx.textBaseline = "middle";
    ctx.fillText("SHIP", px + 16, py + 8);
  }

  function drawStall(px, py, x, y, label) {
    drawGrass(px, py, x, y);
    ctx.fillStyle = "#7a5230"; ctx.fillRect(px + 3, py + 10, 3, 20); ctx.fillRect(px + 26, py + 10, 3, 20);
    ctx.fillStyle = "#c89a5a"; ctx.fillRect(px + 2, py + 18, 28, 12);
    for (var i = 0; i < 4; i++) { ctx.fillStyle = i % 2 ? "#fff3e0" : (label === "SEEDS" ? "#d9473f" : "#3f6fd9"); ctx.fillRect(px + i * 8, py + 2, 8, 9); }
    ctx.fillStyle = "#2a1a0a"; ctx.font = "bold 7px monospace"; ctx.textAlign = "center"; ctx.textBaseline = "middle";
    ctx.fillText(label, px + 16, py + 24);
  }

  function drawHouse() {
    var px = g.pos.house * TILE, py = TOP;
    ctx.fillStyle = "#e8d3a8"; ctx.fillRect(px + 2, py + 18, 3 * TILE - 4, 2 * TILE - 18);
    ctx.fillStyle = "#b5483a";
    ctx.beginPath(); ctx.moveTo(px - 4, py + 22); ctx.lineTo(px + 48, py - 12); ctx.lineTo(px + 100, py + 22); ctx.fill();
    ctx.fillStyle = "#8e3328"; ctx.fillRect(px - 4, py + 20, 3 * TILE + 8, 4);
    ctx.fillStyle = "#6a4424"; ctx.fillRect(px + 38, py + 38, 20, 26);     // door
    ctx.fillStyle = "#ffd84a"; ctx.fillRect(px + 52, py + 50, 3, 3);
    ctx.fillStyle = "#8fd3ff"; ctx.fillRect(px + 10, py + 32, 14, 12); ctx.fillRect(px + 72, py + 32, 14, 12);
    ctx.fillStyle = "#6a4424"; ctx.fillRect(px + 16, py + 32, 2, 12); ctx.fillRect(px + 78, py + 32, 2, 12);
    ctx.fillStyle = "#fff"; ctx.font = "bold 7px monospace"; ctx.textAlign = "center"; ctx.fillText("BED", px + 48, py + 34);
  }

  function drawFarmer() {
    if (tileAt(g.px, g.py) === "f") {
      ctx.strokeStyle = "rgba(255,255,255,0.75)"; ctx.lineWidth = 1;
      ctx.strokeRect(g.px * TILE + 1.5, TOP + g.py * TILE + 1.5, TILE - 3, TILE - 3);
    }
    var k = Math.min(1, (g.tick - g.moveTick) / 6);
    var x = (g.fromX + (g.px - g.fromX) * k) * TILE, y = TOP + (g.fromY + (g.py - g.fromY) * k) * TILE - 9;
    var bob = k < 1 ? -2 : 0;
    ctx.fillStyle = "rgba(0,0,0,0.25)"; ctx.beginPath(); ctx.ellipse(x + 16, y + 29, 9, 3, 0, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = "#3b5ba8"; ctx.fillRect(x + 10, y + 17 + bob, 12, 10);            // overalls
    ctx.fillStyle = "#2a2a2a"; ctx.fillRect(x + 10, y + 26, 5, 3); ctx.fillRect(x + 17, y + 26, 5, 3);
    ctx.fillStyle = "#d8443a"; ctx.fillRect(x + 9, y + 15 + bob, 14, 5);              // shirt
    ctx.fillStyle = "#f2c59a"; ctx.fillRect(x + 10, y + 6 + bob, 12, 10);             // face
    ctx.fillStyle = "#e9c24a"; ctx.fillRect(x + 6, y + 5 + bob, 20, 3); ctx.fillRect(x + 10, y + 1 + bob, 12, 5); // hat
    ctx.fillStyle = "#1d1d1d";
    if (g.fy === 1) { ctx.fillRect(x + 12, y + 10 + bob, 2, 2); ctx.fillRect(x + 18, y + 10 + bob, 2, 2); }
    else if (g.fx === -1) ctx.fillRect(x + 11, y + 10 + bob, 2, 2);
    else if (g.fx === 1) ctx.fillRect(x + 19, y + 10 + bob, 2, 2);
    // the tool in hand swings toward the faced tile just after a use
    var swing = g.tick - g.useTick < 10;
    var hx = x + 16 + g.fx * (swing ? 15 : 9), hy = y + 18 + bob + g.fy * (swing ? 13 : 6);
    ctx.fillStyle = "#9aa3ad"; ctx.fillRect(hx - 3, hy - 3, 6, 6);
    ctx.fillStyle = "#4aa8ff"; ctx.fillRect(hx - 2, hy - 2, 4, 2 + Math.floor(2 * g.water / g.waterMax));
    // the tile Space works on: the field tile underfoot, or the building faced
    var onField = tileAt(g.px, g.py) === "f", ft = tileAt(g.px + g.fx, g.py + g.fy);
    if (!onField && "DWBSR".indexOf(ft) >= 0) {
      var tx = (g.px + g.fx) * TILE, ty = TOP + (g.py + g.fy) * TILE;
      ctx.strokeStyle = "rgba(255,255,255,0.7)"; ctx.lineWidth = 1; ctx.strokeRect(tx + 1.5, ty + 1.5, TILE - 3, TILE - 3);
    }
  }

  function drawHud() {
    ctx.fillStyle = "#3b2a1a"; ctx.fillRect(0, 0, W, TOP);
    ctx.fillStyle = "#c89a5a"; ctx.fillRect(0, TOP - 2, W, 2);
    ctx.font = "bold 12px monospace"; ctx.textBaseline = "middle"; ctx.textAlign = "left";
    var rain = g.weather[g.day] === "rain";
    ctx.fillStyle = "#fff3d6"; ctx.fillText("Day " + g.day + "/" + SEASON_DAYS, 6, 11);
    ctx.fillStyle = g.dayTick > DAY_TICKS - 120 ? "#ff8a6a" : "#fff3d6"; ctx.fillText(clockText(), 80, 11);
    ctx.fillStyle = rain ? "#8fd3ff" : "#ffd84a"; ctx.fillText(rain ? "RAIN" : "SUN", 122, 11);
    ctx.fillStyle = "#ffd84a"; ctx.beginPath(); ctx.arc(162, 11, 5, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = "#fff3d6"; ctx.fillText(String(g.coins), 170, 11);
    ctx.fillText("earned " + g.earned, 202, 11);
    ctx.fillText("harvested " + g.harvested, 282, 11);
    // can
    ctx.fillStyle = "#9aa3ad"; ctx.fillRect(370, 4, 12, 12);
    ctx.fillStyle = "#1d2a3a"; ctx.fillRect(386, 6, 44, 8);
    ctx.fillStyle = "#4aa8ff"; ctx.fillRect(386, 6, Math.round(44 * g.water / g.waterMax), 8);
    ctx.fillStyle = "#fff3d6"; ctx.fillText(g.water + "/" + g.waterMax, 434, 11);
    // seeds, selected, produce, prices
    var x = 6;
    for (var i = 0; i < KINDS.length; i++) {
      var kind = KINDS[i], sel = kind === g.selected;
      if (sel) { ctx.fillStyle = "#ffd84a"; ctx.fillRect(x - 3, 20, 154, 15); ctx.fillStyle = "#3b2a1a"; ctx.fillRect(x - 2, 21, 152, 13); }
      ctx.fillStyle = CROP[kind].color; ctx.fillRect(x, 24, 7, 7);
      ctx.fillStyle = sel ? "#ffd84a" : "#d8c8a8";
      ctx.font = "bold 9px monospace";
      ctx.fillText(CROP[kind].label + " seed " + g.seeds[kind] + " crop " + g.produce[kind] + " $" + g.prices[g.day][kind], x + 10, 28);
      x += 158;
    }
  }

  function drawOverlay() {
    if (g.weather[g.day] === "rain" && !g.over) {
      ctx.fillStyle = "rgba(40,70,120,0.18)"; ctx.fillRect(0, TOP, W, H - TOP);
      ctx.strokeStyle = "rgba(190,220,255,0.75)"; ctx.lineWidth = 1.5;
      ctx.beginPath();
      for (var i = 0; i < 70; i++) {
        var rx = (hash(i, 3, 5) % W + g.tick * 2) % W, ry = TOP + (hash(i, 7, 1) % 320 + g.tick * 6) % 320;
        ctx.moveTo(rx, ry); ctx.lineTo(rx - 3, ry + 8);
      }
      ctx.stroke();
    }
    // dusk darkens the farm
    if (g.dayTick > DAY_TICKS - 200) {
      ctx.fillStyle = "rgba(20,20,70," + (0.35 * (g.dayTick - (DAY_TICKS - 200)) / 200).toFixed(3) + ")";
      ctx.fillRect(0, TOP, W, H - TOP);
    }
    for (var f = 0; f < g.floaters.length; f++) {
      var fl = g.floaters[f], age = g.tick - fl.born;
      ctx.font = "bold 11px monospace"; ctx.textAlign = "center";
      ctx.fillStyle = "rgba(0,0,0,0.6)"; ctx.fillText(fl.text, fl.x * TILE + 17, TOP + fl.y * TILE + 9 - age / 2);
      ctx.fillStyle = fl.color; ctx.fillText(fl.text, fl.x * TILE + 16, TOP + fl.y * TILE + 8 - age / 2);
    }
    if (g.msgTicks > 0 && g.message) {
      ctx.font = "11px monospace"; ctx.textAlign = "center"; ctx.textBaseline = "middle";
      var wmsg = Math.min(W - 8, ctx.measureText(g.message).width + 14);
      ctx.fillStyle = "rgba(30,20,10,0.82)"; ctx.fillRect((W - wmsg) / 2, H - 22, wmsg, 18);
      ctx.fillStyle = "#fff3d6"; ctx.fillText(g.message, W / 2, H - 13, W - 16);
    }
    if (g.fade > 0 && !g.over) {
      ctx.fillStyle = "rgba(10,10,40," + (g.fade / 45).toFixed(3) + ")"; ctx.fillRect(0, TOP, W, H - TOP);
      ctx.fillStyle = "#fff3d6"; ctx.font = "bold 22px monospace"; ctx.textAlign = "center";
      ctx.fillText("Day " + g.day, W / 2, TOP + 150);
    }
    if (g.over) {
      ctx.fillStyle = "rgba(15,10,30,0.82)"; ctx.fillRect(40, 110, W - 80, 140);
      ctx.strokeStyle = g.outcome === "win" ? "#ffd84a" : "#ff7a6a"; ctx.lineWidth = 3; ctx.strokeRect(40, 110, W - 80, 140);
      ctx.textAlign = "center"; ctx.textBaseline = "middle";
      ctx.fillStyle = g.outcome === "win" ? "#ffd84a" : "#ff7a6a"; ctx.font = "bold 24px monospace";
      ctx.fillText(g.outcome === "win" ? "FESTIVAL CHAMPION!" : "THE SEASON IS OVER", W / 2, 145);
      ctx.fillStyle = "#fff3d6"; ctx.font = "bold 13px monospace";
      ctx.fillText("Earned " + g.earned + " coins (goal " + FESTIVAL_GOAL + ")", W / 2, 185);
      ctx.fillText(g.harvested + " crops harvested, " + g.sold + " shipped", W / 2, 210);
    }
  }

  function draw() {
    for (var y = 0; y < ROWS; y++) {
      for (var x = 0; x < COLS; x++) {
        var t = g.map[y][x], px = x * TILE, py = TOP + y * TILE;
        if (t === "T") drawTree(px, py, x, y);
        else if (t === "f") { drawGrass(px, py, x, y); drawSoil(px, py, cellAt(x, y)); }
        else if (t === "W") drawWell(px, py, x, y);
        else if (t === "B") drawBin(px, py, x, y);
        else if (t === "S") drawStall(px, py, x, y, "SEEDS");
        else if (t === "R") drawStall(px, py, x, y, "TOOLS");
        else drawGrass(px, py, x, y);
      }
    }
    drawHouse();
    drawFarmer();
    drawOverlay();
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

  var KEYS = { ArrowUp: 1, ArrowDown: 1, ArrowLeft: 1, ArrowRight: 1, Space: 1, KeyQ: 1 };
  window.addEventListener("keydown", function (e) {
    if (!KEYS[e.code]) return;
    e.preventDefault();
    if (e.repeat) return;
    if (pending.length < 4) pending.push(e.code);
  });

  function fieldRows() {
    var rows = [];
    for (var y = 0; y < ROWS; y++) {
      var s = "";
      for (var x = 0; x < COLS; x++) {
        var t = g.map[y][x];
        if (t !== "f") { s += t; continue; }
        var c = cellAt(x, y);
        if (c.kind === "weed") s += "w";
        else if (c.kind === "stone") s += c.hp > 1 ? "O" : "o";
        else if (c.kind === "soil") s += "f";
        else if (!c.crop) s += "=";
        else s += ripe(c.crop) ? "*" : (c.crop.wet ? "~" : "c");
      }
      rows.push(s);
    }
    return rows;
  }

  window.gameAPI = {
    getState: function () {
      var crops = [];
      for (var i = 0; i < g.field.length; i++) {
        var c = g.field[i];
        if (c.crop) crops.push({ x: c.x, y: c.y, kind: c.crop.kind, growth: c.crop.growth,
                                 nights: CROP[c.crop.kind].nights, watered: c.crop.wet, ripe: ripe(c.crop) });
      }
      return {
        status: g.over ? "terminal" : "playing",
        actionable: true,
        terminal: { is_terminal: g.over, outcome: g.over ? g.outcome : null,
                    reason: g.over ? (g.outcome === "win" ? "festival won" : "season over, festival goal missed") : null },
        score: g.earned,
        day: g.day,
        clock: clockText(),
        steps_left_today: Math.ceil((DAY_TICKS - g.dayTick) / 15),
        weather: g.weather[g.day],
        coins: g.coins,
        earned: g.earned,
        crops_harvested: g.harvested,
        crops_sold: g.sold,
        tiles_planted: g.planted,
        tiles_cleared: g.cleared,
        crops_watered: g.watered,
        water: g.water,
        water_max: g.waterMax,
        big_can: g.bigCan ? 1 : 0,
        seeds: { turnip: g.seeds.turnip, carrot: g.seeds.carrot, melon: g.seeds.melon },
        produce: { turnip: g.produce.turnip, carrot: g.produce.carrot, melon: g.produce.melon },
        selected: g.selected,
        prices: { turnip: g.prices[g.day].turnip, carrot: g.prices[g.day].carrot, melon: g.prices[g.day].melon },
        player_x: g.px,
        player_y: g.py,
        facing: FACE_NAME[g.fx + "," + g.fy],
        buildings: { door: g.pos.door.slice(), well: g.pos.well.slice(), bin: g.pos.bin.slice(),
                     stall: g.pos.stall.slice(), rack: g.pos.rack.slice() },
        tiles: fieldRows(),
        crops: crops,
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
