// Twin Flame: a two-character temple platformer for GameWorld (Fireboy-and-Watergirl-style).
// Ember (fire, the arrow keys) and Ripple (water, W A D) each walk safely through their own pool and die
// in the other's; green goo kills both. Each level ends when both stand at their own doors.
// Platform rules (games/README.md): logic in fixed 1/60 s ticks counted from the requestAnimationFrame
// timestamps, chance only from Math.random (the levels are built at each attempt's start), no drawing while
// window.__gameworld.rendering is false, the first frame drawn before the game is actionable, reset() redraws.
(function () {
  "use strict";

  var W = 480, H = 360, T = 24;            // viewport, tile size (20 x 15 tiles; row 0 is the HUD)
  var TICK_MS = 1000 / 60;
  var MAX_CATCH_UP = 600;
  var CW = 14, CH = 20;                    // character box
  var SPEED = 2.4;                         // px per tick while a side key is held (36 px a 250 ms step)
  var GRAV = 0.5, JUMP_V = 8, MAX_FALL = 10;
  var JUMP_BUFFER = 8;                     // ticks a jump press waits for the ground
  var CLEAR_TICKS = 40;                    // the "level clear" pause before the next level

  // Legend: # stone, L lava (Ember safe), V water (Ripple safe), G goo (kills both), F Ember's door,
  // D Ripple's door, r red gem (Ember), b blue gem (Ripple), 1 Ember start, 2 Ripple start.
  // Every attempt builds its three levels from Math.random (drawn in a fixed order at the attempt's start):
  // each level keeps its shape (a hall under a ledge, a twin stair, a sunken hall) but pools, doors, gems,
  // starts and the side it faces change, so the way through must be read from the screen.
  var NAMES = ["The Antechamber", "The Twin Stair", "The Sunken Hall"];
  var NLEVELS = 3;

  function ri(a, b) { return a + Math.floor(Math.random() * (b - a + 1)); }
  function coin() { return Math.random() < 0.5; }
  function shuffle(arr) {
    for (var i = arr.length - 1; i > 0; i--) { var j = Math.floor(Math.random() * (i + 1)); var t = arr[i]; arr[i] = arr[j]; arr[j] = t; }
    return arr;
  }
  function blankMap() {
    var m = [];
    for (var r = 0; r < 15; r++) {
      var row = [];
      for (var c = 0; c < 20; c++) row.push(r < 2 || r >= 13 || c === 0 || c === 19 ? "#" : ".");
      m.push(row);
    }
    return m;
  }
  function fromRows(rows) { return rows.map(function (s) { return s.split(""); }); }
  function fill(m, r0, r1, c0, c1, ch) { for (var r = r0; r <= r1; r++) for (var c = c0; c <= c1; c++) m[r][c] = ch; }
  function finish(m, mirror) {
    return m.map(function (row) { return (mirror ? row.slice().reverse() : row).join(""); });
  }
  // pools of the given widths on floor row 13 inside columns lo..hi, at least `gap` stone tiles apart
  function placePools(m, kinds, widths, lo, hi, gap) {
    for (var tries = 0; tries < 200; tries++) {
      var spans = [], ok = true;
      for (var i = 0; i < kinds.length && ok; i++) {
        var s = ri(lo, hi - widths[i] + 1), e = s + widths[i] - 1;
        for (var j = 0; j < spans.length; j++) if (s <= spans[j][1] + gap && e >= spans[j][0] - gap) ok = false;
        spans.push([s, e]);
      }
      if (!ok) continue;
      for (var k = 0; k < spans.length; k++) fill(m, 13, 13, spans[k][0], spans[k][1], kinds[k]);
      return;
    }
  }
  function pickCol(m, r, cols) {            // a free column of the list for a gem on row r
    var free = cols.filter(function (c) { return m[r][c] === "." && m[r + 1][c] === "#"; });
    return free.length ? free[Math.floor(Math.random() * free.length)] : -1;
  }
  function range(a, b) { var out = []; for (var i = a; i <= b; i++) out.push(i); return out; }

  function genAntechamber() {               // walk away from the doors, climb the stair, come back above
    var m = blankMap();
    fill(m, 11, 12, 16, 18, "#");
    fill(m, 9, 10, 18, 18, "#");
    fill(m, 8, 8, 1, 16, "#");
    var kinds = ["L", "V"], widths = [2, 2];
    if (coin()) { kinds.push("G"); widths.push(1); }
    placePools(m, kinds, widths, 4, 14, 2);
    var who = coin() ? ["1", "2"] : ["2", "1"];
    m[12][1] = who[0]; m[12][2] = who[1];
    var d1 = ri(2, 12), d2;
    do { d2 = ri(2, 12); } while (Math.abs(d2 - d1) < 2);
    m[7][d1] = "F"; m[7][d2] = "D";
    var gems = ["r", "b", "r", "b"];
    for (var i = 0; i < 4; i++) {
      var row = i < 2 ? 12 : 7;
      var c = pickCol(m, row, row === 12 ? range(3, 15) : range(2, 15));
      if (c >= 0) m[row][c] = gems[i];
    }
    return finish(m, coin());
  }

  function genTwinStair() {                 // each twin climbs its own side of a zigzag stair
    var m = fromRows([
      "####################",
      "####################",
      "#..................#",
      "#..................#",
      "#..................#",
      "#####..........#####",
      "#..................#",
      "#....####GG####....#",
      "#..................#",
      "#.###..........###.#",
      "#..................#",
      "#.....##....##.....#",
      "#..................#",
      "#####...####...#####",
      "####################"]);
    fill(m, 13, 13, 5, 7, "L");
    fill(m, 13, 13, 12, 14, "V");
    m[12][1] = "1"; m[12][18] = "2";
    m[4][ri(1, 3)] = "F"; m[4][ri(16, 18)] = "D";
    m[4][pickCol(m, 4, range(1, 4))] = "r";
    m[4][pickCol(m, 4, range(15, 18))] = "b";
    m[6][ri(5, 8)] = "r"; m[6][ri(11, 14)] = "b";
    m[12][ri(2, 4)] = "r"; m[12][ri(15, 17)] = "b";
    return finish(m, coin());
  }

  function genSunkenHall() {                // across three pools, up a platform to the shelf of doors
    var m = fromRows([
      "####################",
      "####################",
      "#..................#",
      "#..................#",
      "#..................#",
      "#..................#",
      "#..................#",
      "#..................#",
      "#..................#",
      "#..............#####",
      "#..................#",
      "#.........####.....#",
      "#..................#",
      "####################",
      "####################"]);
    var kinds = shuffle(["G", "L", "V"]), slots = [5, 9, 14];
    for (var i = 0; i < 3; i++) fill(m, 13, 13, slots[i], slots[i] + 1, kinds[i]);
    var who = coin() ? ["1", "2"] : ["2", "1"];
    m[12][1] = who[0]; m[12][2] = who[1];
    var doors = coin() ? ["F", "D"] : ["D", "F"];
    m[8][ri(15, 16)] = doors[0]; m[8][18] = doors[1];
    m[10][ri(10, 11)] = "b"; m[10][ri(12, 13)] = "r";
    if (coin()) { var t = m[10].indexOf("b"), u = m[10].indexOf("r"); m[10][t] = "r"; m[10][u] = "b"; }
    var c1 = pickCol(m, 12, range(3, 12)); if (c1 >= 0) m[12][c1] = "r";
    var c2 = pickCol(m, 12, range(3, 12)); if (c2 >= 0) m[12][c2] = "b";
    return finish(m, coin());
  }

  function generateLevels() { return [genAntechamber(), genTwinStair(), genSunkenHall()]; }
  if (typeof window === "undefined" || !window.document || !document.getElementById("game")) {
    if (typeof module !== "undefined") module.exports = { generateLevels: generateLevels };
    return;
  }

  var canvas = document.getElementById("game");
  var ctx = canvas.getContext("2d");
  var held = { ArrowLeft: false, ArrowRight: false, KeyA: false, KeyD: false };
  var g = null;
  var startMs = 0, ticksDone = 0;         // clock time of the attempt's start, ticks run since then

  function tileAt(c, r) {
    if (r < 0 || r >= 15 || c < 0 || c >= 20) return "#";
    return g.map[r][c];
  }
  function solid(ch) { return ch === "#" || ch === "L" || ch === "V" || ch === "G"; }

  function makeChar(kind, c, r) {
    return { kind: kind, x: c * T + (T - CW) / 2, y: (r + 1) * T - CH, vy: 0, ground: true,
             jumpBuf: 0, atDoor: false, reachedDoor: false, face: 1, walk: 0 };
  }

  function loadLevel(i) {
    var src = g.maps[i];
    g.level = i;
    g.map = [];
    g.gemList = [];
    g.doorsPos = {};
    for (var r = 0; r < 15; r++) {
      var row = [];
      for (var c = 0; c < 20; c++) {
        var ch = src[r][c];
        if (ch === "1") { g.ember = makeChar("ember", c, r); ch = "."; }
        else if (ch === "2") { g.ripple = makeChar("ripple", c, r); ch = "."; }
        else if (ch === "r" || ch === "b") { g.gemList.push({ c: c, r: r, kind: ch === "r" ? "ember" : "ripple", taken: false }); ch = "."; }
        else if (ch === "F") { g.doorsPos.ember = { c: c, r: r }; ch = "."; }
        else if (ch === "D") { g.doorsPos.ripple = { c: c, r: r }; ch = "."; }
        row.push(ch);
      }
      g.map.push(row);
    }
    g.levelTick = 0;
    g.clear = 0;
  }

  function newGame() {
    startMs = performance.now(); ticksDone = 0;
    g = { tick: 0, levels: 0, doors: 0, gems: 0, over: false, won: false, reason: null,
          flash: 0, flashColor: "#fff", sparks: [] };
    g.maps = generateLevels();
    loadLevel(0);
  }

  function collideX(p, dx) {
    p.x += dx;
    var top = Math.floor(p.y / T), bot = Math.floor((p.y + CH - 0.01) / T);
    if (dx > 0) {
      var c = Math.floor((p.x + CW - 0.01) / T);
      for (var r = top; r <= bot; r++) if (solid(tileAt(c, r))) { p.x = c * T - CW; break; }
    } else if (dx < 0) {
      var c2 = Math.floor(p.x / T);
      for (var r2 = top; r2 <= bot; r2++) if (solid(tileAt(c2, r2))) { p.x = (c2 + 1) * T; break; }
    }
  }

  function collideY(p) {
    p.vy = Math.min(MAX_FALL, p.vy + GRAV);
    p.y += p.vy;
    var left = Math.floor(p.x / T), right = Math.floor((p.x + CW - 0.01) / T);
    p.ground = false;
    if (p.vy > 0) {
      var r = Math.floor((p.y + CH) / T);
      for (var c = left; c <= right; c++) if (solid(tileAt(c, r))) { p.y = r * T - CH; p.vy = 0; p.ground = true; break; }
    } else if (p.vy < 0) {
      var r2 = Math.floor(p.y / T);
      for (var c2 = left; c2 <= right; c2++) if (solid(tileAt(c2, r2))) { p.y = (r2 + 1) * T; p.vy = 0; break; }
    }
  }

  function burst(x, y, color, n) {        // feedback particles, spawned and moved in the logic (no chance)
    for (var i = 0; i < n; i++) {
      var k = (i * 7 + g.tick) % 16;
      g.sparks.push({ x: x, y: y, vx: ((k % 8) - 3.5) * 0.5, vy: -1.5 - (k >> 3) - (i % 3) * 0.4, life: 24, color: color });
    }
  }

  function die(p, what) {
    g.over = true;
    g.reason = (p.kind === "ember" ? "Ember" : "Ripple") + " fell into " + what;
    g.flash = 12; g.flashColor = "#ff4040";
    burst(p.x + CW / 2, p.y + CH / 2, p.kind === "ember" ? "#ff9a3c" : "#5cc8ff", 14);
  }

  function moveChar(p, left, right) {
    var dir = (right ? 1 : 0) - (left ? 1 : 0);
    if (dir) { p.face = dir; p.walk++; }
    if (p.jumpBuf > 0) {
      if (p.ground) { p.vy = -JUMP_V; p.ground = false; p.jumpBuf = 0; }
      else p.jumpBuf--;
    }
    collideX(p, dir * SPEED);
    collideY(p);
    if (p.ground) {                       // what the feet stand on
      var r = Math.floor((p.y + CH) / T);
      var a = tileAt(Math.floor((p.x + 3) / T), r), b = tileAt(Math.floor((p.x + CW - 3) / T), r);
      var bad = p.kind === "ember" ? "V" : "L";
      if (a === "G" || b === "G") { die(p, "the green goo"); return; }
      if (a === bad || b === bad) { die(p, bad === "V" ? "the water" : "the lava"); return; }
    }
    var cx = p.x + CW / 2, cy = p.y + CH / 2;
    for (var i = 0; i < g.gemList.length; i++) {
      var gm = g.gemList[i];
      if (gm.taken || gm.kind !== p.kind) continue;
      var gx = gm.c * T + T / 2, gy = gm.r * T + T / 2;
      if (Math.abs(gx - cx) < CW / 2 + 7 && Math.abs(gy - cy) < CH / 2 + 7) {
        gm.taken = true; g.gems++; g.flash = 8; g.flashColor = p.kind === "ember" ? "#ffb347" : "#7fd8ff";
        burst(gx, gy, p.kind === "ember" ? "#ffd27a" : "#bdf0ff", 8);
      }
    }
    var d = g.doorsPos[p.kind];
    p.atDoor = p.ground && Math.abs(cx - (d.c * T + T / 2)) <= 8 && Math.floor((p.y + CH - 1) / T) === d.r;
    if (p.atDoor && !p.reachedDoor) { p.reachedDoor = true; g.doors++; g.flash = 10; g.flashColor = "#fff3a0"; }
  }

  function step() {
    g.tick++;
    if (g.flash > 0) g.flash--;
    for (var i = g.sparks.length - 1; i >= 0; i--) {
      var s = g.sparks[i];
      s.x += s.vx; s.y += s.vy; s.vy += 0.15; s.life--;
      if (s.life <= 0) g.sparks.splice(i, 1);
    }
    if (g.over || g.won) return;
    if (g.clear > 0) {
      g.clear--;
      if (g.clear === 0) loadLevel(g.level + 1);
      return;
    }
    g.levelTick++;
    moveChar(g.ember, held.ArrowLeft, held.ArrowRight);
    if (g.over) return;
    moveChar(g.ripple, held.KeyA, held.KeyD);
    if (g.over) return;
    if (g.ember.atDoor && g.ripple.atDoor) {
      g.levels++;
      g.flash = 16; g.flashColor = "#fff3a0";
      if (g.level + 1 >= NLEVELS) g.won = true;
      else g.clear = CLEAR_TICKS;
    }
  }

  // ------------------------------------------------------------------ drawing
  function hash(n) {
    var t = (n * 2654435761) >>> 0;
    t = Math.imul(t ^ (t >>> 15), 2246822507) >>> 0;
    t = Math.imul(t ^ (t >>> 13), 3266489909) >>> 0;
    return ((t ^ (t >>> 16)) >>> 0) / 4294967296;
  }

  function drawBackground() {
    var bg = ctx.createLinearGradient(0, 0, 0, H);
    bg.addColorStop(0, "#2a2238");
    bg.addColorStop(1, "#14101c");
    ctx.fillStyle = bg;
    ctx.fillRect(0, 0, W, H);
    ctx.strokeStyle = "rgba(255,255,255,0.045)";
    ctx.lineWidth = 1;
    for (var r = 1; r < 15; r++) {
      var y = r * T + 0.5;
      ctx.beginPath(); ctx.moveTo(0, y); ctx.lineTo(W, y); ctx.stroke();
      for (var c = 0; c < 11; c++) {
        var x = c * 48 + (r % 2 ? 24 : 0) + 0.5;
        ctx.beginPath(); ctx.moveTo(x, y); ctx.lineTo(x, y + T); ctx.stroke();
      }
    }
    // torches
    for (var i = 0; i < 2; i++) {
      var tx = i ? 372 : 108, ty = 70;
      var fl = 0.6 + 0.4 * Math.abs(Math.sin(g.tick * 0.13 + i));
      var glow = ctx.createRadialGradient(tx, ty, 2, tx, ty, 46);
      glow.addColorStop(0, "rgba(255,170,70," + (0.25 * fl) + ")");
      glow.addColorStop(1, "rgba(255,170,70,0)");
      ctx.fillStyle = glow; ctx.fillRect(tx - 46, ty - 46, 92, 92);
      ctx.fillStyle = "#5a4632"; ctx.fillRect(tx - 2, ty, 4, 12);
      ctx.fillStyle = "#ffb347";
      ctx.beginPath(); ctx.ellipse(tx, ty - 3, 3, 5 + 2 * fl, 0, 0, Math.PI * 2); ctx.fill();
    }
  }

  function drawStone(c, r) {
    var x = c * T, y = r * T;
    var gr = ctx.createLinearGradient(0, y, 0, y + T);
    var k = hash(c * 31 + r * 17) * 14;
    gr.addColorStop(0, "rgb(" + (118 + k | 0) + "," + (104 + k | 0) + "," + (82 + k | 0) + ")");
    gr.addColorStop(1, "rgb(" + (78 + k | 0) + "," + (66 + k | 0) + "," + (52 + k | 0) + ")");
    ctx.fillStyle = gr;
    ctx.fillRect(x, y, T, T);
    ctx.fillStyle = "rgba(255,240,200,0.18)";
    if (!solid(tileAt(c, r - 1))) ctx.fillRect(x, y, T, 3);
    ctx.fillStyle = "rgba(0,0,0,0.25)";
    ctx.fillRect(x, y + T - 2, T, 2);
    ctx.fillRect(x + T - 1, y, 1, T);
  }

  function drawLiquid(c, r, ch) {
    drawStone(c, r);
    var x = c * T, y = r * T;
    var cols = ch === "L" ? ["#ffcf4a", "#ff6a1a", "#b8280c"] : ch === "V" ? ["#a8ecff", "#2f9cf0", "#1a4fb0"] : ["#d6ff7a", "#6fd12c", "#2f7a12"];
    var gr = ctx.createLinearGradient(0, y, 0, y + 12);
    gr.addColorStop(0, cols[0]); gr.addColorStop(0.4, cols[1]); gr.addColorStop(1, cols[2]);
    ctx.fillStyle = gr;
    ctx.beginPath();
    ctx.moveTo(x, y + 12);
    for (var i = 0; i <= 6; i++) {
      var wx = x + i * 4;
      ctx.lineTo(wx, y + 2 + 1.5 * Math.sin((wx + g.tick * 1.6) * 0.35));
    }
    ctx.lineTo(x + T, y + 12);
    ctx.closePath();
    ctx.fill();
    ctx.fillStyle = "rgba(255,255,255,0.35)";
    ctx.fillRect(x + ((g.tick >> 2) + c * 5) % 18, y + 4, 4, 1);
  }

  function drawDoor(kind) {
    var d = g.doorsPos[kind];
    var x = d.c * T + 1, y = (d.r - 1) * T + 2, w = T - 2, h = 2 * T - 2;
    var p = kind === "ember" ? g.ember : g.ripple;
    ctx.fillStyle = "#3b2f24";
    ctx.fillRect(x - 2, y - 2, w + 4, h + 2);
    var gr = ctx.createLinearGradient(0, y, 0, y + h);
    if (kind === "ember") { gr.addColorStop(0, "#ff8a3c"); gr.addColorStop(1, "#8a1e0a"); }
    else { gr.addColorStop(0, "#6fd0ff"); gr.addColorStop(1, "#123e8a"); }
    ctx.fillStyle = gr;
    ctx.fillRect(x, y, w, h);
    if (p.atDoor) { ctx.fillStyle = "rgba(255,255,220,0.45)"; ctx.fillRect(x + 3, y + 3, w - 6, h - 3); }
    ctx.fillStyle = "rgba(255,255,255,0.85)";
    var cx = x + w / 2, cy = y + 14;
    ctx.beginPath();
    if (kind === "ember") {                    // a flame sign
      ctx.moveTo(cx, cy - 8); ctx.quadraticCurveTo(cx + 7, cy, cx, cy + 6); ctx.quadraticCurveTo(cx - 7, cy, cx, cy - 8);
    } else {                                   // a drop sign
      ctx.moveTo(cx, cy - 8); ctx.quadraticCurveTo(cx + 7, cy + 2, cx, cy + 6); ctx.quadraticCurveTo(cx - 7, cy + 2, cx, cy - 8);
    }
    ctx.fill();
  }

  function drawGem(gm) {
    var x = gm.c * T + T / 2, y = gm.r * T + T / 2 + 1.5 * Math.sin(g.tick * 0.12 + gm.c);
    var fire = gm.kind === "ember";
    ctx.fillStyle = fire ? "rgba(255,120,40,0.25)" : "rgba(60,170,255,0.25)";
    ctx.beginPath(); ctx.arc(x, y, 10, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = fire ? "#ff4b2b" : "#2b8cff";
    ctx.beginPath(); ctx.moveTo(x, y - 8); ctx.lineTo(x + 7, y - 2); ctx.lineTo(x, y + 8); ctx.lineTo(x - 7, y - 2); ctx.closePath(); ctx.fill();
    ctx.fillStyle = fire ? "#ffc09a" : "#bfe4ff";
    ctx.beginPath(); ctx.moveTo(x, y - 8); ctx.lineTo(x + 3, y - 2); ctx.lineTo(x, y + 1); ctx.lineTo(x - 3, y - 2); ctx.closePath(); ctx.fill();
  }

  function drawChar(p) {
    var fire = p.kind === "ember";
    var x = p.x, y = p.y, cx = x + CW / 2;
    // body
    ctx.fillStyle = fire ? "#7a1c0c" : "#0f3c7a";
    var leg = p.ground && (p.walk >> 2) % 2 ? 2 : 0;
    ctx.fillRect(x + 2, y + CH - 5, 4, 5 - leg);
    ctx.fillRect(x + CW - 6, y + CH - 5 + leg, 4, 5 - leg);
    var bg = ctx.createLinearGradient(0, y + 8, 0, y + CH);
    bg.addColorStop(0, fire ? "#ff9a3c" : "#7fd8ff"); bg.addColorStop(1, fire ? "#c8341a" : "#2a6fd6");
    ctx.fillStyle = bg;
    ctx.fillRect(x + 1, y + 9, CW - 2, CH - 13);
    // head: a flame or a drop
    var hg = ctx.createRadialGradient(cx - 2, y + 6, 1, cx, y + 6, 11);
    hg.addColorStop(0, fire ? "#fff2a8" : "#e8fbff"); hg.addColorStop(0.5, fire ? "#ffb02e" : "#5cc8ff"); hg.addColorStop(1, fire ? "#e8451c" : "#1f78e0");
    ctx.fillStyle = hg;
    var sway = fire ? 2 * Math.sin(g.tick * 0.3) : 0;
    ctx.beginPath();
    ctx.moveTo(cx + sway - p.face * 2, y - 9);
    ctx.quadraticCurveTo(cx + 10, y + 2, cx + 7, y + 8);
    ctx.quadraticCurveTo(cx, y + 13, cx - 7, y + 8);
    ctx.quadraticCurveTo(cx - 10, y + 2, cx + sway - p.face * 2, y - 9);
    ctx.fill();
    // eyes
    ctx.fillStyle = "#fff";
    ctx.fillRect(cx - 4 + p.face, y + 2, 3, 4); ctx.fillRect(cx + 1 + p.face, y + 2, 3, 4);
    ctx.fillStyle = "#1a1020";
    ctx.fillRect(cx - 3 + p.face * 1.5, y + 3, 2, 2); ctx.fillRect(cx + 2 + p.face * 1.5, y + 3, 2, 2);
  }

  function drawHud() {
    var hg = ctx.createLinearGradient(0, 0, 0, T);
    hg.addColorStop(0, "#3a2e22"); hg.addColorStop(1, "#241b13");
    ctx.fillStyle = hg;
    ctx.fillRect(0, 0, W, T);
    ctx.fillStyle = g.flash > 0 ? g.flashColor : "#8a6a3a";
    ctx.fillRect(0, T - 2, W, 2);
    ctx.font = "bold 13px monospace";
    ctx.textBaseline = "middle";
    ctx.textAlign = "left";
    ctx.fillStyle = "#ffe9b8";
    ctx.fillText("LEVEL " + (g.level + 1) + "/" + NLEVELS, 8, 12);
    ctx.fillStyle = "#ffb347";
    var left = 0, tot = 0;
    for (var i = 0; i < g.gemList.length; i++) { tot++; if (!g.gemList[i].taken) left++; }
    ctx.fillText("\u25C6 GEMS " + g.gems, 132, 12);
    ctx.fillStyle = "#fff3a0";
    ctx.fillText("DOORS " + g.doors, 260, 12);
    ctx.textAlign = "right";
    ctx.fillStyle = "#ffe9b8";
    ctx.fillText("CLEARED " + g.levels, W - 8, 12);
  }

  function banner(title, sub, color) {
    ctx.fillStyle = "rgba(10,6,14,0.78)";
    ctx.fillRect(0, H / 2 - 44, W, 88);
    ctx.fillStyle = color; ctx.fillRect(0, H / 2 - 44, W, 2); ctx.fillRect(0, H / 2 + 42, W, 2);
    ctx.textAlign = "center"; ctx.textBaseline = "middle";
    ctx.font = "bold 30px monospace";
    ctx.fillStyle = color;
    ctx.fillText(title, W / 2, H / 2 - 10);
    ctx.font = "bold 13px monospace";
    ctx.fillStyle = "#ffffff";
    ctx.fillText(sub, W / 2, H / 2 + 22);
  }

  function draw() {
    drawBackground();
    for (var r = 1; r < 15; r++) {
      for (var c = 0; c < 20; c++) {
        var ch = g.map[r][c];
        if (ch === "#") drawStone(c, r);
        else if (ch === "L" || ch === "V" || ch === "G") drawLiquid(c, r, ch);
      }
    }
    drawDoor("ember"); drawDoor("ripple");
    for (var i = 0; i < g.gemList.length; i++) if (!g.gemList[i].taken) drawGem(g.gemList[i]);
    if (!(g.over && g.reason.indexOf("Ember") === 0)) drawChar(g.ember);
    if (!(g.over && g.reason.indexOf("Ripple") === 0)) drawChar(g.ripple);
    for (var j = 0; j < g.sparks.length; j++) {
      var s = g.sparks[j];
      ctx.globalAlpha = Math.max(0, s.life / 24);
      ctx.fillStyle = s.color; ctx.fillRect(s.x - 2, s.y - 2, 4, 4);
    }
    ctx.globalAlpha = 1;
    drawHud();
    if (g.levelTick < 50 && !g.over) {
      ctx.textAlign = "center"; ctx.textBaseline = "middle";
      ctx.font = "bold 16px monospace";
      ctx.fillStyle = "rgba(255,233,184," + Math.min(1, (50 - g.levelTick) / 20) + ")";
      ctx.fillText(NAMES[g.level], W / 2, 48);
    }
    if (g.clear > 0) banner("LEVEL CLEAR", "both twins reached their doors", "#fff3a0");
    if (g.over) banner("GAME OVER", g.reason, "#ff5c4a");
    if (g.won) banner("TEMPLE CLEARED", "gems " + g.gems + "  -  all " + NLEVELS + " levels done", "#ffd23f");
  }

  function rendering() {
    var gw = window.__gameworld;
    return !(gw && gw.rendering === false);
  }

  // Run the ticks due by now (1e-6 absorbs float error when a step is a whole number of ticks).
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
    if (g.over || g.won) return;
    if (e.code === "ArrowUp" && !e.repeat) { g.ember.jumpBuf = JUMP_BUFFER; e.preventDefault(); }
    if (e.code === "KeyW" && !e.repeat) g.ripple.jumpBuf = JUMP_BUFFER;
  });
  window.addEventListener("keyup", function (e) {
    catchUp();
    if (e.code in held) held[e.code] = false;
  });

  window.gameAPI = {
    getState: function () {
      if (catchUp() && rendering()) draw();
      var term = g.over || g.won;
      var left = 0;
      for (var i = 0; i < g.gemList.length; i++) if (!g.gemList[i].taken) left++;
      return {
        status: term ? "terminal" : "playing",
        actionable: !term,
        terminal: { is_terminal: term, outcome: g.won ? "win" : g.over ? "lose" : null,
                    reason: g.won ? "all levels cleared" : g.over ? g.reason : null },
        score: 10 * g.gems + 25 * g.doors + 100 * g.levels,
        level: g.level + 1,
        levels_completed: g.levels,
        doors: g.doors,
        gems: g.gems,
        gems_left: left,
        ember_x: Math.round(g.ember.x),
        ember_y: Math.round(g.ember.y),
        ripple_x: Math.round(g.ripple.x),
        ripple_y: Math.round(g.ripple.y),
        ember_ground: g.ember.ground,
        ripple_ground: g.ripple.ground,
        ember_at_door: g.ember.atDoor,
        ripple_at_door: g.ripple.atDoor,
        changing_level: g.clear > 0,
        level_map: g.maps[g.level]
      };
    },
    reset: function () {
      for (var key in held) held[key] = false;
      newGame();
      draw();                       // the frame read after a reset shows the new attempt
    }
  };

  newGame();
  draw();
  requestAnimationFrame(frame);
})();
