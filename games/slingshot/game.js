// Sling Shot: pull the sling back with a drag from the pouch and let go; the stone flies a ballistic arc
// (gravity and the level's wind) over the hills to knock over the gloops standing on their crates.
// Platform rules (games/README.md): logic in fixed 1/60 s ticks from the rAF clock, chance only from Math.random,
// integer fixed-point physics (1/256 px), no drawing while window.__gameworld.rendering is false, the first frame
// drawn before the game is actionable and again at the end of reset().
(function () {
  "use strict";

  var W = 640, H = 360, HUD_H = 28;
  var TICK_MS = 1000 / 60;
  var MAX_CATCH_UP = 600;
  var FP = 256;                        // fixed point: 1 px = 256 units
  var POUCH_X = 104, POUCH_Y = 236;    // where the stone sits in the sling
  var GRAB = 24;                       // a press this close to the pouch grabs it
  var MIN_PULL = 16;                   // a shorter pull is let go without a shot
  var MAX_DX = 100, MIN_DY = -40, MAX_DY = 100;
  var POWER = 25;                      // launch speed: 25/256 px per tick for each px of pull
  var GRAVITY = 60;                    // 60/256 px per tick per tick
  var WIND_STEP = 2;                   // wind w pushes 2*w/256 px per tick per tick
  var DROP_VY = 768;                   // Space in flight: the stone drops straight down at least 3 px a tick
  var STONE_R = 5;
  var COLS = 80, COL_W = 8;            // terrain: ground height every 8 px
  var FLIGHT_MAX = 300;                // ticks before a stone is given up
  var SETTLE = 8, CLEAR = 30;         // ticks after an impact, and of the level-clear banner
  var SPARE = 1;                       // stones beyond one a gloop, for the whole attempt
  var TARGET_HALF = 11, BLOCK_H = 14, GLOOP_H = 16;

  var canvas = document.getElementById("game");
  var ctx = canvas.getContext("2d");
  var g = null;
  var lastTs = null, acc = 0;

  function randomInt(low, high) { return low + Math.floor(Math.random() * (high - low + 1)); }

  function targetsFor(level) { return level <= 2 ? 2 : level <= 5 ? 3 : 4; }

  function newLevel() {
    var n = targetsFor(g.level);
    // terrain: a flat sling hill, then hills through control points every 64 px
    var ground = [];
    var pts = [];
    var hx = 144;
    var prev = 280;
    pts.push([0, 280]); pts.push([hx, 280]);
    while (hx < W) {
      hx += 64;
      var top = g.level < 3 ? 230 : 200;
      var y = randomInt(top, 320);
      if (y < prev - 70) y = prev - 70;
      pts.push([hx, y]); prev = y;
    }
    for (var c = 0; c < COLS; c++) {
      var x = c * COL_W + 4, k = 0;
      while (pts[k + 1][0] < x) k++;
      var a = pts[k], b = pts[k + 1];
      ground.push(a[1] + Math.round((b[1] - a[1]) * (x - a[0]) / (b[0] - a[0])));
    }
    // targets: n slots in the right part of the field, at least 56 px apart
    var xs = [];
    var tries = 0;
    while (xs.length < n && tries < 400) {
      tries++;
      var tx = randomInt(34, 71) * COL_W + 4;
      var ok = true;
      for (var i = 0; i < xs.length; i++) if (Math.abs(xs[i] - tx) < 56) ok = false;
      if (ok) xs.push(tx);
    }
    xs.sort(function (p, q) { return p - q; });
    var targets = [];
    for (var j = 0; j < xs.length; j++) {
      var col = (xs[j] - 4) / COL_W;
      var gy = ground[col];
      for (var d = -2; d <= 2; d++) if (col + d < COLS) ground[col + d] = gy;   // a flat pad under the crates
      var blocks = randomInt(0, g.level < 2 ? 1 : 3);
      targets.push({ x: xs[j], ground: gy, blocks: blocks, top: gy - blocks * BLOCK_H - GLOOP_H, alive: true });
    }
    g.ground = ground;
    g.targets = targets;
    g.wind = randomInt(g.level < 2 ? -2 : -4, g.level < 2 ? 2 : 4);
    g.shots += n;                      // each level adds a stone a gloop; stones left carry over
    g.phase = "ready";
    g.timer = 0;
    g.trail = [];
    g.stone = null;
  }

  function newGame() {
    g = { tick: 0, level: 1, levelsCleared: 0, hits: 0, score: 0, over: false, landing: -1,
          phase: "ready", timer: 0, grab: null, stone: null, trail: [], lastTrail: [], bursts: [],
          popups: [], shots: SPARE, wind: 0, ground: [], targets: [], clearTick: 0 };
    newLevel();
  }

  function targetsLeft() {
    var n = 0;
    for (var i = 0; i < g.targets.length; i++) if (g.targets[i].alive) n++;
    return n;
  }

  function groundAt(px) {
    var c = Math.floor(px / COL_W);
    if (c < 0) c = 0;
    if (c >= COLS) c = COLS - 1;
    return g.ground[c];
  }

  function fire(dx, dy) {
    if (dx > MAX_DX) dx = MAX_DX;
    if (dx < 0) dx = 0;
    if (dy > MAX_DY) dy = MAX_DY;
    if (dy < MIN_DY) dy = MIN_DY;
    if (dx * dx + dy * dy < MIN_PULL * MIN_PULL) return false;
    g.shots -= 1;
    g.stone = { x: POUCH_X * FP, y: POUCH_Y * FP, vx: dx * POWER, vy: -dy * POWER, t: 0, dropped: false };
    g.trail = [];
    g.phase = "flying";
    return true;
  }

  function endFlight(px) {
    g.landing = Math.max(0, Math.min(W - 1, px));
    g.lastTrail = g.trail;
    g.stone = null;
    g.phase = "settle";
    g.timer = SETTLE;
  }

  function flyTick() {
    var s = g.stone;
    s.t++;
    if (!s.dropped) s.vx += g.wind * WIND_STEP;
    s.vy += GRAVITY;
    s.x += s.vx;
    s.y += s.vy;
    var px = Math.floor(s.x / FP), py = Math.floor(s.y / FP);
    if (s.t % 3 === 0) g.trail.push([px, py]);
    for (var i = 0; i < g.targets.length; i++) {
      var t = g.targets[i];
      if (!t.alive) continue;
      if (px >= t.x - TARGET_HALF - STONE_R && px <= t.x + TARGET_HALF + STONE_R &&
          py >= t.top - STONE_R && py <= t.ground) {
        t.alive = false;
        t.knocked = g.tick;
        g.hits += 1;
        g.score += 100;
        g.popups.push({ x: t.x, y: t.top - 10, text: "+100", t: 0 });
        g.bursts.push({ x: t.x, y: t.top + 8, t: 0, color: "#8fe36b" });
        endFlight(px);
        return;
      }
    }
    if (px < -20 || px >= W + 20) { endFlight(px); return; }
    if (py >= groundAt(px)) {
      g.bursts.push({ x: px, y: groundAt(px), t: 0, color: "#b98a55" });
      endFlight(px);
      return;
    }
    if (s.t >= FLIGHT_MAX) endFlight(px);
  }

  function step() {
    g.tick++;
    for (var i = g.popups.length - 1; i >= 0; i--) { g.popups[i].t++; if (g.popups[i].t > 50) g.popups.splice(i, 1); }
    for (var j = g.bursts.length - 1; j >= 0; j--) { g.bursts[j].t++; if (g.bursts[j].t > 24) g.bursts.splice(j, 1); }
    if (g.over) return;
    if (g.phase === "flying") {
      flyTick();
    } else if (g.phase === "settle") {
      if (--g.timer <= 0) {
        if (targetsLeft() === 0) {
          g.levelsCleared += 1;
          g.score += 50;
          g.phase = "clear";
          g.timer = CLEAR;
          g.clearTick = g.tick;
        } else if (g.shots <= 0) {
          g.over = true;
          g.phase = "over";
        } else {
          g.phase = "ready";
        }
      }
    } else if (g.phase === "clear") {
      if (--g.timer <= 0) {
        g.level += 1;
        g.landing = -1;
        g.lastTrail = [];
        newLevel();
      }
    }
  }

  // ---------- drawing (no logic here) ----------

  function draw() {
    var sky = ctx.createLinearGradient(0, 0, 0, H);
    sky.addColorStop(0, "#6fb7ef");
    sky.addColorStop(0.7, "#cfe9f7");
    sky.addColorStop(1, "#f3e8c8");
    ctx.fillStyle = sky;
    ctx.fillRect(0, 0, W, H);
    // sun and clouds (clouds drift with the wind, from the attempt's own clock)
    ctx.fillStyle = "rgba(255,243,176,0.9)";
    ctx.beginPath(); ctx.arc(440, 62, 22, 0, Math.PI * 2); ctx.fill();
    for (var c = 0; c < 4; c++) {
      var cx = ((c * 173 + g.tick * g.wind * 0.05) % (W + 120) + W + 120) % (W + 120) - 60;
      var cy = 60 + c * 23;
      ctx.fillStyle = "rgba(255,255,255,0.85)";
      ctx.beginPath();
      ctx.arc(cx, cy, 14, 0, Math.PI * 2); ctx.arc(cx + 16, cy - 6, 17, 0, Math.PI * 2);
      ctx.arc(cx + 34, cy, 13, 0, Math.PI * 2); ctx.fill();
    }
    // far hills
    ctx.fillStyle = "#9cc7a4";
    ctx.beginPath(); ctx.moveTo(0, H);
    for (var x = 0; x <= W; x += 16) ctx.lineTo(x, 215 + 18 * Math.sin(x / 70 + g.level) + 10 * Math.sin(x / 23));
    ctx.lineTo(W, H); ctx.fill();
    // terrain
    ctx.fillStyle = "#8a5a34";
    ctx.beginPath(); ctx.moveTo(0, H);
    for (var k = 0; k < COLS; k++) { ctx.lineTo(k * COL_W, g.ground[k]); ctx.lineTo(k * COL_W + COL_W, g.ground[k]); }
    ctx.lineTo(W, H); ctx.fill();
    ctx.strokeStyle = "#4fa83d"; ctx.lineWidth = 5;
    ctx.beginPath();
    for (var k2 = 0; k2 < COLS; k2++) {
      if (k2 === 0) ctx.moveTo(0, g.ground[0] + 1); else ctx.lineTo(k2 * COL_W, g.ground[k2] + 1);
      ctx.lineTo(k2 * COL_W + COL_W, g.ground[k2] + 1);
    }
    ctx.stroke();
    ctx.fillStyle = "rgba(60,35,20,0.25)";
    for (var k3 = 0; k3 < COLS; k3 += 3) ctx.fillRect(k3 * COL_W + 3, g.ground[k3] + 12 + (k3 * 7) % 20, 3, 3);
    // last shot's dotted path and landing mark
    ctx.fillStyle = "rgba(255,255,255,0.7)";
    for (var d = 0; d < g.lastTrail.length; d++) ctx.fillRect(g.lastTrail[d][0] - 1, g.lastTrail[d][1] - 1, 2, 2);
    if (g.landing >= 0 && g.phase !== "clear") {
      ctx.strokeStyle = "#d9342b"; ctx.lineWidth = 2;
      var ly = groundAt(g.landing);
      ctx.beginPath(); ctx.moveTo(g.landing - 4, ly - 4); ctx.lineTo(g.landing + 4, ly + 4);
      ctx.moveTo(g.landing + 4, ly - 4); ctx.lineTo(g.landing - 4, ly + 4); ctx.stroke();
    }
    // targets
    for (var i = 0; i < g.targets.length; i++) drawTarget(g.targets[i]);
    // sling
    drawSling();
    // stone in flight and its trail
    ctx.fillStyle = "rgba(80,60,50,0.45)";
    for (var e = 0; e < g.trail.length; e++) ctx.fillRect(g.trail[e][0] - 1, g.trail[e][1] - 1, 3, 3);
    if (g.stone) drawStone(Math.floor(g.stone.x / FP), Math.floor(g.stone.y / FP));
    // bursts and popups
    for (var b = 0; b < g.bursts.length; b++) {
      var bu = g.bursts[b];
      ctx.fillStyle = bu.color;
      for (var q = 0; q < 8; q++) {
        var ang = q * Math.PI / 4 + 0.3;
        ctx.globalAlpha = 1 - bu.t / 25;
        ctx.fillRect(bu.x + Math.cos(ang) * bu.t * 1.6 - 2, bu.y + Math.sin(ang) * bu.t * 1.6 - 2 + bu.t * bu.t * 0.03, 4, 4);
      }
      ctx.globalAlpha = 1;
    }
    ctx.font = "bold 16px monospace"; ctx.textAlign = "center"; ctx.textBaseline = "middle";
    for (var p = 0; p < g.popups.length; p++) {
      var po = g.popups[p];
      ctx.fillStyle = "rgba(30,80,20," + (1 - po.t / 55) + ")";
      ctx.fillText(po.text, po.x, po.y - po.t * 0.6);
    }
    drawWind();
    drawHud();
    if (g.phase === "clear") banner("LEVEL " + g.level + " CLEAR!", "+50   -   " + g.shots + " spare stone" + (g.shots === 1 ? "" : "s") + " carried on", "#2e7d32");
    if (g.over) banner("OUT OF STONES", "Level " + g.level + "  -  " + g.hits + " gloops hit  -  score " + g.score, "#c62828");
  }

  function drawTarget(t) {
    var x = t.x;
    if (!t.alive) {
      // knocked over: the crates lie tumbled, the gloop is gone (a flattened puff)
      var age = g.tick - t.knocked;
      for (var k = 0; k < t.blocks; k++) {
        ctx.save();
        ctx.translate(x - 10 + k * 17 + (age < 20 ? (20 - age) * 0 : 0), t.ground - 7);
        ctx.rotate(0.3 * (k % 2 ? 1 : -1));
        crate(-8, -7, 16, 14);
        ctx.restore();
      }
      if (age < 30) {
        ctx.globalAlpha = 1 - age / 30;
        gloop(x, t.top + GLOOP_H / 2 - age * 1.2, true);
        ctx.globalAlpha = 1;
      }
      return;
    }
    for (var b = 0; b < t.blocks; b++) crate(x - 9, t.ground - (b + 1) * BLOCK_H, 18, BLOCK_H);
    gloop(x, t.ground - t.blocks * BLOCK_H - GLOOP_H / 2, false);
  }

  function crate(x, y, w, h) {
    ctx.fillStyle = "#c8873f"; ctx.fillRect(x, y, w, h);
    ctx.strokeStyle = "#7a4a1c"; ctx.lineWidth = 2; ctx.strokeRect(x + 1, y + 1, w - 2, h - 2);
    ctx.beginPath(); ctx.moveTo(x + 2, y + 2); ctx.lineTo(x + w - 2, y + h - 2); ctx.stroke();
  }

  function gloop(x, cy, dizzy) {
    var wob = Math.sin(g.tick / 9 + x) * 1.2;
    ctx.fillStyle = "#6cc24a";
    ctx.beginPath(); ctx.ellipse(x, cy + 1, 11 + wob * 0.4, 8 - wob * 0.3, 0, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = "#4e9a33";
    ctx.beginPath(); ctx.ellipse(x, cy + 5, 9, 3, 0, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = "#fff";
    ctx.beginPath(); ctx.arc(x - 4, cy - 2, 3, 0, Math.PI * 2); ctx.arc(x + 4, cy - 2, 3, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = "#1b1b1b";
    if (dizzy) {
      ctx.font = "bold 8px monospace"; ctx.textAlign = "center"; ctx.textBaseline = "middle";
      ctx.fillText("x", x - 4, cy - 2); ctx.fillText("x", x + 4, cy - 2);
    } else {
      ctx.fillRect(x - 4, cy - 2, 2, 2); ctx.fillRect(x + 3, cy - 2, 2, 2);
    }
    ctx.fillStyle = "#6cc24a";
    ctx.fillRect(x - 1, cy - 11, 2, 4);
    ctx.beginPath(); ctx.arc(x, cy - 11, 2, 0, Math.PI * 2); ctx.fill();
  }

  function drawStone(x, y) {
    ctx.fillStyle = "#5d5d66";
    ctx.beginPath(); ctx.arc(x, y, STONE_R, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = "#9a9aa6";
    ctx.beginPath(); ctx.arc(x - 1.5, y - 1.5, 2, 0, Math.PI * 2); ctx.fill();
  }

  function drawSling() {
    var base = 280;
    ctx.strokeStyle = "#6b3e1e"; ctx.lineWidth = 7; ctx.lineCap = "round";
    ctx.beginPath(); ctx.moveTo(POUCH_X, base); ctx.lineTo(POUCH_X, 252);
    ctx.lineTo(POUCH_X - 10, 226); ctx.moveTo(POUCH_X, 252); ctx.lineTo(POUCH_X + 10, 226); ctx.stroke();
    var px = POUCH_X, py = POUCH_Y;
    if (g.grab && g.phase === "ready") { px = g.grab.x; py = g.grab.y; }
    ctx.strokeStyle = "#7a2418"; ctx.lineWidth = 3;
    ctx.beginPath(); ctx.moveTo(POUCH_X - 10, 226); ctx.lineTo(px, py); ctx.lineTo(POUCH_X + 10, 226); ctx.stroke();
    ctx.lineCap = "butt";
    if (g.phase === "ready") {
      drawStone(px, py);
      // a faint ring where the pouch can be grabbed
      ctx.strokeStyle = "rgba(255,255,255," + (0.35 + 0.25 * Math.sin(g.tick / 10)) + ")";
      ctx.lineWidth = 1.5;
      ctx.beginPath(); ctx.arc(POUCH_X, POUCH_Y, GRAB - 6, 0, Math.PI * 2); ctx.stroke();
    }
    // stones still to shoot, lined up at the sling's foot
    for (var i = 0; i < g.shots - (g.phase === "ready" ? 1 : 0); i++) drawStone(70 - i * 12, base - 6);
  }

  function drawWind() {
    var fx = 600, fy = 44;
    ctx.strokeStyle = "#444"; ctx.lineWidth = 2;
    ctx.beginPath(); ctx.moveTo(fx, fy); ctx.lineTo(fx, fy + 46); ctx.stroke();
    var len = 6 + 6 * Math.abs(g.wind);
    var dir = g.wind >= 0 ? 1 : -1;
    ctx.fillStyle = g.wind === 0 ? "#bbb" : "#e5533d";
    ctx.beginPath(); ctx.moveTo(fx, fy);
    var flap = Math.sin(g.tick / 5) * 2;
    ctx.lineTo(fx + dir * len, fy + 5 + flap); ctx.lineTo(fx, fy + 12); ctx.fill();
    ctx.fillStyle = "#1d2b44"; ctx.font = "bold 13px monospace"; ctx.textAlign = "right"; ctx.textBaseline = "middle";
    var arrow = g.wind > 0 ? ">" : g.wind < 0 ? "<" : "";
    ctx.fillText("WIND " + (g.wind > 0 ? "+" : "") + g.wind + " " + arrow, fx - 30, fy + 8);
  }

  function drawHud() {
    ctx.fillStyle = "#1d2b44";
    ctx.fillRect(0, 0, W, HUD_H);
    ctx.fillStyle = "#f2c14e"; ctx.fillRect(0, HUD_H - 2, W, 2);
    ctx.font = "bold 14px monospace"; ctx.textBaseline = "middle"; ctx.textAlign = "left";
    ctx.fillStyle = "#fff";
    ctx.fillText("LEVEL " + g.level, 10, 14);
    ctx.fillText("CLEARED " + g.levelsCleared, 104, 14);
    ctx.fillText("HIT " + g.hits, 222, 14);
    ctx.fillText("GLOOPS " + targetsLeft(), 300, 14);
    ctx.fillText("STONES " + g.shots, 400, 14);
    ctx.textAlign = "right";
    ctx.fillText("SCORE " + g.score, W - 10, 14);
  }

  function banner(title, sub, color) {
    ctx.fillStyle = "rgba(20,28,44,0.78)";
    ctx.fillRect(0, H / 2 - 44, W, 88);
    ctx.textAlign = "center"; ctx.textBaseline = "middle";
    ctx.fillStyle = color === "#c62828" ? "#ff6b5e" : "#9be27d";
    ctx.font = "bold 30px monospace";
    ctx.fillText(title, W / 2, H / 2 - 12);
    ctx.fillStyle = "#fff"; ctx.font = "bold 14px monospace";
    ctx.fillText(sub, W / 2, H / 2 + 22);
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

  // ---------- input ----------

  function point(e) {
    var r = canvas.getBoundingClientRect();
    return { x: Math.round(e.clientX - r.left), y: Math.round(e.clientY - r.top) };
  }

  function drop() {
    if (g.phase === "flying" && g.stone && !g.stone.dropped) {
      g.stone.dropped = true;
      g.stone.vx = 0;
      if (g.stone.vy < DROP_VY) g.stone.vy = DROP_VY;
    }
  }

  canvas.addEventListener("mousedown", function (e) {
    if (g.over) return;
    if (g.phase === "flying") { drop(); return; }   // a tap while the stone flies drops it
    if (g.phase !== "ready") return;
    var p = point(e);
    var dx = p.x - POUCH_X, dy = p.y - POUCH_Y;
    if (dx * dx + dy * dy <= GRAB * GRAB) { g.grab = p; e.preventDefault(); }
  });
  window.addEventListener("mousemove", function (e) {
    if (g.grab && (e.buttons & 1)) g.grab = point(e);
  });
  window.addEventListener("mouseup", function (e) {
    if (!g.grab) return;
    var p = point(e);
    g.grab = null;
    if (g.over || g.phase !== "ready") return;
    fire(POUCH_X - p.x, p.y - POUCH_Y);
  });
  window.addEventListener("keydown", function (e) {
    if (e.code !== "Space") return;
    e.preventDefault();
    drop();
  });

  window.gameAPI = {
    getState: function () {
      var targets = [];
      for (var i = 0; i < g.targets.length; i++) {
        var t = g.targets[i];
        if (t.alive) targets.push({ x: t.x, top: t.top, ground: t.ground, blocks: t.blocks });
      }
      return {
        status: g.over ? "terminal" : "playing",
        actionable: true,
        terminal: { is_terminal: g.over, outcome: g.over ? "lose" : null, reason: g.over ? "out of stones" : null },
        score: g.score,
        level: g.level,
        levels_cleared: g.levelsCleared,
        targets_hit: g.hits,
        targets_left: targetsLeft(),
        shots_left: g.shots,
        wind: g.wind,
        last_landing_x: g.landing,
        ready: g.phase === "ready" && !g.over,
        phase: g.phase,
        stone_x: g.stone ? Math.floor(g.stone.x / FP) : null,
        stone_y: g.stone ? Math.floor(g.stone.y / FP) : null,
        targets: targets,
        terrain: g.ground.slice()
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
