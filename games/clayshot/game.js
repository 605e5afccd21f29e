// Clay Shot: clays fly from the trap houses on seeded arcs; click a clay to break it before it leaves the field,
// and never hit a dove. Misses spend shells, a clay
// that gets away or a dove hit costs a life. The gun holds 2 shells and reloads on its own when empty (or with R);
// every clay broken puts a shell back in the box, so only misses use shells up: 3 shells (2 in the gun, 1 in the box).
// Platform rules (games/README.md): fixed 1/60 s ticks from the rAF clock, chance only from Math.random, integer
// fixed-point motion (1/16 px), no drawing while window.__gameworld.rendering is false, the first frame drawn before
// the game is actionable and again at the end of reset().
(function () {
  "use strict";

  var W = 480, H = 360, HUD_H = 24;
  var TICK_MS = 1000 / 60;
  var MAX_CATCH_UP = 600;
  var FP = 16;
  var HIT_R = 13;                 // a shot breaks whatever is within 13 px of where it lands
  var GUN = 2, RELOAD = 24;       // shells in the gun; ticks to reload
  var SPARE = 1, LIVES = 3;
  var GRAVITY = 1;                // 1/16 px per tick per tick
  var BANNER = 36;

  var canvas = document.getElementById("game");
  var ctx = canvas.getContext("2d");
  var g = null;
  var lastTs = null, acc = 0;

  function randomInt(low, high) { return low + Math.floor(Math.random() * (high - low + 1)); }

  function clayCount(r) { return 5 + r; }

  function newRound() {
    var r = g.round, n = clayCount(r);
    var gap = Math.max(24, 44 - 4 * r);
    var speed = 100 + 10 * (r - 1);           // percent
    var launches = [];
    var t = 20;
    var i = 0;
    while (i < n) {
      var double = r >= 3 && i + 1 < n && randomInt(0, 2) === 0;
      var k = double ? 2 : 1;
      for (var j = 0; j < k; j++) {
        var left = double ? j === 0 : randomInt(0, 1) === 0;
        var vx = Math.floor(randomInt(44, 64) * speed / 100);
        var vy = -Math.floor(randomInt(52, 70) * (100 + (speed - 100) / 2) / 100);
        launches.push({ t: t, x: left ? -8 : W + 8, y: randomInt(250, 320), vx: left ? vx : -vx, vy: vy, dove: false });
      }
      i += k;
      t += gap + randomInt(0, 14) + (double ? 14 : 0);
    }
    var doves = r >= 2 ? Math.min(3, r - 1) : 0;
    for (var d = 0; d < doves; d++) {
      var dl = randomInt(0, 1) === 0;
      var dvx = randomInt(20, 30);
      launches.push({ t: randomInt(30, t - 30), x: dl ? -12 : W + 12, y: randomInt(70, 200),
                      vx: dl ? dvx : -dvx, vy: 0, dove: true });
    }
    launches.sort(function (a, b) { return a.t - b.t; });
    g.launches = launches;
    g.roundTick = 0;
    g.roundLeft = n;             // clays of this round not yet broken or gone
    g.phase = "play";
  }

  function newGame() {
    g = { tick: 0, round: 1, broken: 0, escaped: 0, lives: LIVES, score: 0, over: false,
          gun: GUN, box: SPARE, reload: 0, flying: [], shards: [], marks: [], feathers: [],
          launches: [], roundTick: 0, roundLeft: 0, phase: "play", banner: 0, lastShot: null,
          aim: { x: W / 2, y: H / 2 }, flash: 0, hurt: 0, roundsCleared: 0, outOfShells: false };
    newRound();
  }

  function loseLife() {
    g.lives -= 1;
    g.hurt = 20;
    if (g.lives <= 0) { g.over = true; g.phase = "over"; }
  }

  function startReload() {
    if (g.reload > 0 || g.gun >= GUN || g.box <= 0) return;
    g.reload = RELOAD;
  }

  function fireAt(x, y) {
    if (g.over || g.phase !== "play") return;
    g.aim = { x: x, y: y };
    if (g.reload > 0 || g.gun <= 0) { g.marks.push({ x: x, y: y, t: 0, kind: "click" }); return; }
    g.gun -= 1;
    g.flash = 6;
    var hitClay = false, hitDove = false;
    for (var i = g.flying.length - 1; i >= 0; i--) {
      var o = g.flying[i];
      var dx = Math.floor(o.x / FP) - x, dy = Math.floor(o.y / FP) - y;
      if (dx * dx + dy * dy > HIT_R * HIT_R) continue;
      g.flying.splice(i, 1);
      if (o.dove) {
        hitDove = true;
        for (var f = 0; f < 10; f++) g.feathers.push({ x: Math.floor(o.x / FP), y: Math.floor(o.y / FP), vx: (f % 5) - 2, vy: -1 - (f % 3), t: 0 });
      } else {
        hitClay = true;
        g.broken += 1;
        g.roundLeft -= 1;
        g.score += 10 * g.round;
        g.box += 1;                       // a broken clay pays its shell back
        for (var s = 0; s < 7; s++) g.shards.push({ x: Math.floor(o.x / FP), y: Math.floor(o.y / FP), vx: (s % 7) - 3, vy: -2 - (s % 3), t: 0 });
      }
    }
    g.marks.push({ x: x, y: y, t: 0, kind: hitClay ? "hit" : hitDove ? "dove" : "miss" });
    if (hitDove) loseLife();
    if (g.gun === 0) startReload();
  }

  function step() {
    g.tick++;
    if (g.flash > 0) g.flash--;
    if (g.hurt > 0) g.hurt--;
    for (var m = g.marks.length - 1; m >= 0; m--) if (++g.marks[m].t > (g.marks[m].kind === "gone" ? 40 : 24)) g.marks.splice(m, 1);
    for (var s = g.shards.length - 1; s >= 0; s--) {
      var sh = g.shards[s]; sh.t++; sh.x += sh.vx; sh.y += sh.vy; if (sh.t % 3 === 0) sh.vy += 1;
      if (sh.t > 40) g.shards.splice(s, 1);
    }
    for (var f = g.feathers.length - 1; f >= 0; f--) {
      var fe = g.feathers[f]; fe.t++; if (fe.t % 2 === 0) { fe.x += fe.vx; fe.y += fe.vy > 0 ? 1 : 0; fe.vy += 1; }
      if (fe.t > 50) g.feathers.splice(f, 1);
    }
    if (g.over) return;
    if (g.reload > 0) {
      if (--g.reload === 0) {
        var need = Math.min(GUN - g.gun, g.box);
        g.gun += need; g.box -= need;
      }
    }
    if (g.phase === "banner") {
      if (--g.banner <= 0) { g.round += 1; newRound(); }
      return;
    }
    g.roundTick++;
    while (g.launches.length && g.launches[0].t <= g.roundTick) {
      var l = g.launches.shift();
      g.flying.push({ x: l.x * FP, y: l.y * FP, vx: l.vx, vy: l.vy, dove: l.dove, age: 0 });
    }
    for (var i = g.flying.length - 1; i >= 0; i--) {
      var o = g.flying[i];
      o.age++;
      if (!o.dove) o.vy += GRAVITY;
      o.x += o.vx; o.y += o.vy;
      var px = Math.floor(o.x / FP), py = Math.floor(o.y / FP);
      if (px < -24 || px > W + 24 || py > H + 16) {
        g.flying.splice(i, 1);
        if (!o.dove) {
          g.escaped += 1;
          g.roundLeft -= 1;
          g.marks.push({ x: Math.max(12, Math.min(W - 12, px)), y: Math.max(HUD_H + 12, Math.min(H - 12, py)), t: 0, kind: "gone" });
          loseLife();
          if (g.over) return;
        }
      }
    }
    if (g.gun === 0 && g.reload === 0) startReload();
    var claysUp = 0, launchesLeft = 0;
    for (var c = 0; c < g.flying.length; c++) if (!g.flying[c].dove) claysUp++;
    for (var c2 = 0; c2 < g.launches.length; c2++) if (!g.launches[c2].dove) launchesLeft++;
    if (g.roundLeft <= 0 && !launchesLeft && !claysUp) {
      g.flying = []; g.launches = [];        // the doves fly off with the round
      g.roundsCleared += 1;
      g.score += 50;
      g.phase = "banner";
      g.banner = BANNER;
    } else if (g.gun === 0 && g.box === 0 && g.reload === 0) {
      // no shells left: the clays still to come cannot be stopped
      g.over = true; g.phase = "over"; g.outOfShells = true;
    }
  }

  // ---------- drawing ----------

  function draw() {
    var sky = ctx.createLinearGradient(0, 0, 0, H);
    sky.addColorStop(0, "#14213f");
    sky.addColorStop(0.5, "#3d4a7a");
    sky.addColorStop(0.72, "#9a6a86");
    sky.addColorStop(0.85, "#f09a5e");
    ctx.fillStyle = sky;
    ctx.fillRect(0, 0, W, H);
    ctx.fillStyle = "rgba(255,230,160,0.85)";
    ctx.beginPath(); ctx.arc(380, 250, 34, 0, Math.PI * 2); ctx.fill();
    // tree line and field
    ctx.fillStyle = "#2c3b2a";
    ctx.beginPath(); ctx.moveTo(0, 300);
    for (var x = 0; x <= W; x += 12) ctx.lineTo(x, 284 - 14 * Math.abs(Math.sin(x * 0.07)) - 8 * Math.abs(Math.sin(x * 0.19)));
    ctx.lineTo(W, 300); ctx.fill();
    ctx.fillStyle = "#5f7d3a"; ctx.fillRect(0, 298, W, H - 298);
    ctx.fillStyle = "#52702f";
    for (var k = 0; k < 12; k++) ctx.fillRect(k * 43 + 7, 310 + (k * 17) % 40, 22, 3);
    // trap houses
    trapHouse(0, 292, 1); trapHouse(W - 46, 292, -1);
    // flying things
    for (var i = 0; i < g.flying.length; i++) {
      var o = g.flying[i], px = Math.floor(o.x / FP), py = Math.floor(o.y / FP);
      if (o.dove) dove(px, py, o.vx > 0 ? 1 : -1, o.age); else clay(px, py, o.age);
    }
    for (var s = 0; s < g.shards.length; s++) {
      var sh = g.shards[s];
      ctx.fillStyle = s % 2 ? "#e2672d" : "#1f1f1f";
      ctx.fillRect(sh.x - 2, sh.y - 2, 4, 3);
    }
    ctx.fillStyle = "#fff";
    for (var f = 0; f < g.feathers.length; f++) ctx.fillRect(g.feathers[f].x - 2, g.feathers[f].y - 1, 5, 2);
    for (var m = 0; m < g.marks.length; m++) mark(g.marks[m]);
    crosshair(g.aim.x, g.aim.y);
    if (g.hurt > 0) { ctx.fillStyle = "rgba(200,20,20," + (g.hurt / 60) + ")"; ctx.fillRect(0, 0, W, H); }
    hud();
    if (g.phase === "banner") banner("ROUND " + g.round + " CLEAR", "next: round " + (g.round + 1) + ", " + clayCount(g.round + 1) + " clays, faster", "#9be27d");
    if (g.over) banner(g.outOfShells ? "OUT OF SHELLS" : "GAME OVER", g.broken + " clays broken  -  round " + g.round + "  -  score " + g.score, "#ff6b5e");
  }

  function trapHouse(x, y, dir) {
    ctx.fillStyle = "#6b5a48"; ctx.fillRect(x, y, 46, 20);
    ctx.fillStyle = "#4a3d30"; ctx.fillRect(x, y, 46, 4);
    ctx.fillStyle = "#1e1a16"; ctx.fillRect(dir > 0 ? x + 30 : x + 4, y + 7, 12, 8);
  }

  function clay(x, y, age) {
    var tilt = 4 + Math.abs(Math.sin(age / 5)) * 3;
    ctx.fillStyle = "#1a1a1a";
    ctx.beginPath(); ctx.ellipse(x, y, 12, tilt + 1.5, 0, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = "#ff8a1e";
    ctx.beginPath(); ctx.ellipse(x, y, 10.5, tilt, 0, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = "#ffd08a";
    ctx.beginPath(); ctx.ellipse(x - 3, y - 1, 4, tilt * 0.4, 0, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = "#2a2a2a";
    ctx.beginPath(); ctx.ellipse(x + 1, y, 3.5, tilt * 0.45, 0, 0, Math.PI * 2); ctx.fill();
  }

  function dove(x, y, dir, age) {
    var flap = Math.sin(age / 3) * 7;
    ctx.fillStyle = "#f4f4f0";
    ctx.beginPath(); ctx.ellipse(x, y, 10, 5, 0, 0, Math.PI * 2); ctx.fill();
    ctx.beginPath(); ctx.arc(x + dir * 9, y - 3, 4, 0, Math.PI * 2); ctx.fill();
    ctx.beginPath(); ctx.moveTo(x - 4, y - 1); ctx.lineTo(x - dir * 2, y - 8 - flap); ctx.lineTo(x + 5, y - 1); ctx.fill();
    ctx.fillStyle = "#f0a02a"; ctx.fillRect(x + dir * 13 - (dir < 0 ? 3 : 0), y - 4, 3, 2);
    ctx.fillStyle = "#111"; ctx.fillRect(x + dir * 10, y - 5, 2, 2);
  }

  function mark(mk) {
    var a = 1 - mk.t / (mk.kind === "gone" ? 41 : 25);
    if (mk.kind === "hit") {
      ctx.fillStyle = "rgba(255,240,140," + a + ")"; ctx.font = "bold 13px monospace"; ctx.textAlign = "center";
      ctx.fillText("+" + 10 * g.round, mk.x, mk.y - 14 - mk.t);
    } else if (mk.kind === "miss" || mk.kind === "click") {
      ctx.strokeStyle = "rgba(235,235,245," + a + ")"; ctx.lineWidth = 1.5;
      ctx.beginPath(); ctx.arc(mk.x, mk.y, 4 + mk.t * 0.4, 0, Math.PI * 2); ctx.stroke();
      if (mk.kind === "miss") {
        ctx.fillStyle = "rgba(235,235,245," + a + ")"; ctx.font = "bold 11px monospace"; ctx.textAlign = "center";
        ctx.fillText("miss", mk.x, mk.y + 18);
      }
      if (mk.kind === "click") {
        ctx.fillStyle = "rgba(255,255,255," + a + ")"; ctx.font = "bold 11px monospace"; ctx.textAlign = "center";
        ctx.fillText("click!", mk.x, mk.y - 12);
      }
    } else if (mk.kind === "dove") {
      ctx.fillStyle = "rgba(255,90,80," + a + ")"; ctx.font = "bold 13px monospace"; ctx.textAlign = "center";
      ctx.fillText("DOVE! -1 life", mk.x, mk.y - 14);
    } else if (mk.kind === "gone") {
      ctx.font = "bold 15px monospace"; ctx.textAlign = "center";
      var gx = Math.max(84, Math.min(W - 84, mk.x)), gy = Math.min(270, mk.y);
      ctx.lineWidth = 3; ctx.strokeStyle = "rgba(20,10,10," + a + ")"; ctx.strokeText("GOT AWAY! -1 LIFE", gx, gy);
      ctx.fillStyle = "rgba(255,110,90," + a + ")"; ctx.fillText("GOT AWAY! -1 LIFE", gx, gy);
    }
  }

  function crosshair(x, y) {
    ctx.strokeStyle = g.flash > 0 ? "#fff6b0" : "rgba(255,255,255,0.8)"; ctx.lineWidth = 1.5;
    ctx.beginPath(); ctx.arc(x, y, 9, 0, Math.PI * 2);
    ctx.moveTo(x - 14, y); ctx.lineTo(x - 4, y); ctx.moveTo(x + 4, y); ctx.lineTo(x + 14, y);
    ctx.moveTo(x, y - 14); ctx.lineTo(x, y - 4); ctx.moveTo(x, y + 4); ctx.lineTo(x, y + 14); ctx.stroke();
    if (g.flash > 0) { ctx.fillStyle = "rgba(255,250,200,0.8)"; ctx.beginPath(); ctx.arc(x, y, 5, 0, Math.PI * 2); ctx.fill(); }
  }

  function hud() {
    ctx.fillStyle = "#16202e"; ctx.fillRect(0, 0, W, HUD_H);
    ctx.fillStyle = "#e58b5a"; ctx.fillRect(0, HUD_H - 2, W, 2);
    ctx.font = "bold 13px monospace"; ctx.textBaseline = "middle"; ctx.textAlign = "left"; ctx.fillStyle = "#fff";
    ctx.fillText("ROUND " + g.round, 8, 12);
    ctx.fillText("BROKEN " + g.broken, 90, 12);
    for (var l = 0; l < LIVES; l++) {
      ctx.fillStyle = l < g.lives ? "#ff5a5a" : "#4a4f5a";
      var hx = 200 + l * 16;
      ctx.beginPath(); ctx.arc(hx - 3, 10, 3.5, 0, Math.PI * 2); ctx.arc(hx + 3, 10, 3.5, 0, Math.PI * 2); ctx.fill();
      ctx.beginPath(); ctx.moveTo(hx - 6.5, 11); ctx.lineTo(hx, 18); ctx.lineTo(hx + 6.5, 11); ctx.fill();
    }
    // shells in the gun and in the box
    for (var s = 0; s < GUN; s++) {
      ctx.fillStyle = s < g.gun ? "#d43a2f" : "#4a4f5a"; ctx.fillRect(264 + s * 11, 5, 7, 13);
      ctx.fillStyle = s < g.gun ? "#d9b44a" : "#4a4f5a"; ctx.fillRect(264 + s * 11, 15, 7, 4);
    }
    ctx.fillStyle = "#fff";
    ctx.fillText((g.reload > 0 ? "RELOAD" : "") + " BOX " + g.box, g.reload > 0 ? 290 : 288, 12);
    ctx.textAlign = "right";
    ctx.fillText("SCORE " + g.score, W - 8, 12);
  }

  function banner(title, sub, color) {
    ctx.fillStyle = "rgba(18,22,34,0.8)"; ctx.fillRect(0, H / 2 - 42, W, 84);
    ctx.textAlign = "center"; ctx.textBaseline = "middle";
    ctx.fillStyle = color; ctx.font = "bold 28px monospace"; ctx.fillText(title, W / 2, H / 2 - 10);
    ctx.fillStyle = "#fff"; ctx.font = "bold 13px monospace"; ctx.fillText(sub, W / 2, H / 2 + 22);
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

  function point(e) {
    var r = canvas.getBoundingClientRect();
    return { x: Math.round(e.clientX - r.left), y: Math.round(e.clientY - r.top) };
  }

  canvas.addEventListener("mousedown", function (e) {
    var p = point(e);
    fireAt(p.x, p.y);
    e.preventDefault();
  });
  canvas.addEventListener("mousemove", function (e) {
    if (!g.over) g.aim = point(e);
  });
  window.addEventListener("keydown", function (e) {
    if (e.code !== "KeyR") return;
    e.preventDefault();
    if (!g.over && g.phase !== "over") startReload();
  });

  window.gameAPI = {
    getState: function () {
      var clays = [], doves = [];
      for (var i = 0; i < g.flying.length; i++) {
        var o = g.flying[i];
        var item = { x: Math.floor(o.x / FP), y: Math.floor(o.y / FP), vx: o.vx, vy: o.vy };
        if (o.dove) doves.push(item); else clays.push(item);
      }
      return {
        status: g.over ? "terminal" : "playing",
        actionable: true,
        terminal: { is_terminal: g.over, outcome: g.over ? "lose" : null, reason: g.over ? (g.outOfShells ? "out of shells" : "out of lives") : null },
        score: g.score,
        round: g.round,
        rounds_cleared: g.roundsCleared,
        clays_broken: g.broken,
        clays_escaped: g.escaped,
        lives: g.lives,
        shells_in_gun: g.gun,
        shells_in_box: g.box,
        reloading: g.reload > 0,
        clays_to_come: g.roundLeft - clays.length,
        phase: g.phase,
        clays: clays,
        doves: doves
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
