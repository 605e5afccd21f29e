// Spring Jump: an endless vertical jumper for GameWorld (Doodle-Jump-style).
// The hopper bounces by itself on every platform it falls onto; Left/Right (held) steer it, and it wraps
// around the side edges. Platforms: stone (solid), drifting (move sideways), cracked (break, no bounce);
// springs on some stone platforms launch it high; beetles hover higher up: stomp them from above, touch
// them otherwise and the run ends, as does falling below the screen.
// Platform rules (games/README.md): logic in fixed 1/60 s ticks counted from the clock time of the
// attempt's start (every frame, key event and getState() runs the ticks due), chance only from
// Math.random in a fixed order (platform generation), no drawing while __gameworld.rendering is false.
(function () {
  "use strict";

  var W = 360, H = 480, HUD_H = 30;
  var TICK_MS = 1000 / 60, MAX_CATCH_UP = 600;
  var PW = 18, PH = 22;                  // hopper box
  var PLAT_W = 52, PLAT_H = 10;
  var GRAV = 0.35, BOUNCE_V = 10.5, SPRING_V = 16.5, STEER = 3.6, MAX_FALL = 12;
  var SPRING_W = 16;
  var MON_W = 34, MON_H = 22;

  var canvas = document.getElementById("game");
  var ctx = canvas.getContext("2d");
  var held = { ArrowLeft: false, ArrowRight: false };
  var g = null;
  var startMs = 0, ticksDone = 0;

  function rnd(lo, hi) { return lo + Math.random() * (hi - lo); }

  // World y grows downward as on screen; the start floor is at y = 0 and the climb goes to negative y.
  function addPlatform() {
    var last = g.lastReal;
    var n = last.n + 1;
    var maxGap = Math.min(128, 76 + n * 2);
    var gap = rnd(56, maxGap);
    var y = last.y - gap;
    var reach = gap > 95 ? 100 : 170;         // a long climb comes with a short sideways hop
    var x = Math.max(4, Math.min(W - PLAT_W - 4, last.x + rnd(-reach, reach)));
    var moving = n >= 8 && Math.random() < Math.min(0.4, 0.1 + n * 0.008);
    var p = { n: n, x: x, w: PLAT_W, y: y, kind: moving ? "moving" : "stone", vx: 0, spring: false, broken: false, real: true };
    if (moving) p.vx = Math.random() < 0.5 ? -(0.9 + n * 0.01) : (0.9 + n * 0.01);
    if (!moving && n >= 10 && Math.random() < 0.08) { p.spring = true; p.sx = Math.floor(rnd(6, PLAT_W - SPRING_W - 6)); }
    g.plats.push(p);
    g.lastReal = p;
    // a cracked decoy between this platform and the last one, now and then
    if (n >= 3 && Math.random() < 0.35) {
      g.plats.push({ n: -1, w: PLAT_W, x: rnd(4, W - PLAT_W - 4), y: y + gap * rnd(0.35, 0.65), kind: "cracked", vx: 0,
                     spring: false, broken: false, fall: 0, real: false });
    }
    // a beetle hovering somewhere above, once the climb is under way
    if (n >= 14 && n >= g.nextMonster) {
      g.nextMonster = n + 9 + Math.floor(rnd(0, 6));
      g.monsters.push({ x: rnd(10, W - MON_W - 10), y: y - gap * 0.5 - MON_H, vx: Math.random() < 0.5 ? -0.8 : 0.8, dead: false, fall: 0 });
    }
  }

  function newGame() {
    startMs = performance.now(); ticksDone = 0;
    var floor = { n: 0, x: 0, w: W, y: 0, kind: "ground", vx: 0, spring: false, broken: false, real: true };
    g = { tick: 0, over: false, reason: null, x: W / 2 - PW / 2, y: -PH, vy: -BOUNCE_V, face: 1,
          camY: -H + 90, plats: [floor], lastReal: floor, monsters: [], nextMonster: 14,
          climbed: 0, stomps: 0, springs: 0, top: 0, flash: 0, flashColor: "#fff", sparks: [], squash: 0 };
    while (g.lastReal.y > g.camY - 200) addPlatform();
  }

  function overlapX(ax, aw, bx, bw) { return ax < bx + bw && ax + aw > bx; }

  function burst(x, y, color, n) {
    for (var i = 0; i < n; i++) {
      var k = (i * 5 + g.tick) % 12;
      g.sparks.push({ x: x, y: y, vx: (k - 5.5) * 0.35, vy: -1 - (i % 4) * 0.5, life: 22, color: color });
    }
  }

  function step() {
    g.tick++;
    if (g.flash > 0) g.flash--;
    if (g.squash > 0) g.squash--;
    for (var s = g.sparks.length - 1; s >= 0; s--) {
      var sp = g.sparks[s];
      sp.x += sp.vx; sp.y += sp.vy; sp.vy += 0.2; sp.life--;
      if (sp.life <= 0) g.sparks.splice(s, 1);
    }
    if (g.over) return;
    var dir = (held.ArrowRight ? 1 : 0) - (held.ArrowLeft ? 1 : 0);
    if (dir) g.face = dir;
    g.x += dir * STEER;
    if (g.x + PW / 2 < 0) g.x += W;
    if (g.x + PW / 2 >= W) g.x -= W;
    var prevBottom = g.y + PH;
    g.vy = Math.min(MAX_FALL, g.vy + GRAV);
    g.y += g.vy;
    // platforms move
    for (var i = 0; i < g.plats.length; i++) {
      var p = g.plats[i];
      if (p.kind === "moving") {
        p.x += p.vx;
        if (p.x < 2) { p.x = 2; p.vx = -p.vx; }
        if (p.x > W - PLAT_W - 2) { p.x = W - PLAT_W - 2; p.vx = -p.vx; }
      }
      if (p.broken) { p.fall += 0.5; p.y += p.fall; }
    }
    // landing (falling only, feet crossing the top)
    if (g.vy > 0) {
      var bottom = g.y + PH;
      for (var j = 0; j < g.plats.length; j++) {
        var q = g.plats[j];
        if (q.broken || prevBottom > q.y || bottom < q.y) continue;
        if (!overlapX(g.x + 3, PW - 6, q.x, q.w)) continue;
        if (q.kind === "cracked") { q.broken = true; q.fall = 0; burst(q.x + PLAT_W / 2, q.y, "#a0744a", 8); continue; }
        g.y = q.y - PH;
        var onSpring = q.spring && overlapX(g.x + 3, PW - 6, q.x + q.sx, SPRING_W);
        g.vy = onSpring ? -SPRING_V : -BOUNCE_V;
        g.squash = 6;
        if (onSpring) { g.springs++; g.flash = 10; g.flashColor = "#7df0a0"; }
        if (q.n > g.climbed) { g.climbed = q.n; g.flash = Math.max(g.flash, 6); if (!onSpring) g.flashColor = "#ffe27a"; }
        break;
      }
    }
    // beetles
    for (var m = 0; m < g.monsters.length; m++) {
      var mo = g.monsters[m];
      if (mo.dead) { mo.fall += 0.4; mo.y += mo.fall; continue; }
      mo.x += mo.vx;
      if (mo.x < 4 || mo.x > W - MON_W - 4) mo.vx = -mo.vx;
      if (overlapX(g.x + 2, PW - 4, mo.x, MON_W) && g.y + PH > mo.y + 2 && g.y < mo.y + MON_H - 2) {
        if (g.vy > 0 && prevBottom <= mo.y + 8) {
          mo.dead = true; g.stomps++; g.vy = -BOUNCE_V; g.flash = 12; g.flashColor = "#ff9af0";
          burst(mo.x + MON_W / 2, mo.y, "#c86bff", 12);
        } else {
          g.over = true; g.reason = "caught by a beetle"; g.flash = 14; g.flashColor = "#ff4a4a";
          return;
        }
      }
    }
    // camera follows upward only
    var want = g.y - H * 0.42;
    if (want < g.camY) g.camY = want;
    g.top = Math.max(g.top, Math.floor(-g.y / 10));
    while (g.lastReal.y > g.camY - 200) addPlatform();
    g.plats = g.plats.filter(function (p) { return p.y < g.camY + H + 40; });
    g.monsters = g.monsters.filter(function (mo) { return mo.y < g.camY + H + 40; });
    if (g.y > g.camY + H + 10) { g.over = true; g.reason = "fell off the screen"; g.flash = 14; g.flashColor = "#ff4a4a"; }
  }

  // ------------------------------------------------------------------ drawing
  function hash(n) {
    var t = (n * 2654435761) >>> 0;
    t = Math.imul(t ^ (t >>> 15), 2246822507) >>> 0;
    t = Math.imul(t ^ (t >>> 13), 3266489909) >>> 0;
    return ((t ^ (t >>> 16)) >>> 0) / 4294967296;
  }

  function drawBackground() {
    var k = Math.min(1, -g.camY / 6000);
    var sky = ctx.createLinearGradient(0, 0, 0, H);
    sky.addColorStop(0, k > 0.5 ? "#1d2a5c" : "#4da3e8");
    sky.addColorStop(1, k > 0.5 ? "#4a5fa8" : "#bfe6ff");
    ctx.fillStyle = sky;
    ctx.fillRect(0, 0, W, H);
    // graph-paper lines scrolling with the camera (slower)
    ctx.strokeStyle = "rgba(255,255,255,0.12)";
    ctx.lineWidth = 1;
    var off = (-g.camY * 0.5) % 24;
    for (var y = off; y < H; y += 24) { ctx.beginPath(); ctx.moveTo(0, y + 0.5); ctx.lineTo(W, y + 0.5); ctx.stroke(); }
    for (var x = 0; x < W; x += 24) { ctx.beginPath(); ctx.moveTo(x + 0.5, 0); ctx.lineTo(x + 0.5, H); ctx.stroke(); }
    // clouds in parallax
    var cl = -g.camY * 0.3;
    ctx.fillStyle = "rgba(255,255,255,0.55)";
    var base = Math.floor(cl / 160);
    for (var i = base - 1; i < base + 5; i++) {
      var cy = i * 160 - cl, cx = hash(i) * (W - 60) + 30;
      var sy = H - cy - 40;
      ctx.beginPath(); ctx.ellipse(cx, sy, 34, 11, 0, 0, Math.PI * 2); ctx.fill();
      ctx.beginPath(); ctx.ellipse(cx + 22, sy - 7, 20, 10, 0, 0, Math.PI * 2); ctx.fill();
      ctx.beginPath(); ctx.ellipse(cx - 20, sy - 4, 16, 8, 0, 0, Math.PI * 2); ctx.fill();
    }
  }

  function drawPlatform(p) {
    var x = p.x, y = p.y - g.camY;
    if (y < -20 || y > H + 20) return;
    if (p.kind === "ground") {            // the start meadow, filling the screen below it
      var gg = ctx.createLinearGradient(0, y, 0, y + 90);
      gg.addColorStop(0, "#6cc24a"); gg.addColorStop(0.15, "#4a9a32"); gg.addColorStop(1, "#2e5e22");
      ctx.fillStyle = gg; ctx.fillRect(0, y, W, H - y + 20);
      ctx.fillStyle = "#9be37a"; ctx.fillRect(0, y, W, 3);
      for (var t = 0; t < 30; t++) {
        ctx.fillStyle = hash(t) < 0.5 ? "#3b7f28" : "#7fd15c";
        ctx.fillRect(Math.floor(hash(t + 40) * W), y + 8 + Math.floor(hash(t + 80) * 60), 3, 2);
      }
      return;
    }
    var top, bot;
    if (p.kind === "stone") { top = "#8ee26a"; bot = "#3f9a2c"; }
    else if (p.kind === "moving") { top = "#7ccaff"; bot = "#2a78c8"; }
    else { top = "#c99a66"; bot = "#7a5330"; }
    var gr = ctx.createLinearGradient(0, y, 0, y + PLAT_H);
    gr.addColorStop(0, top); gr.addColorStop(1, bot);
    ctx.fillStyle = gr;
    ctx.beginPath();
    ctx.moveTo(x + 4, y); ctx.lineTo(x + PLAT_W - 4, y); ctx.quadraticCurveTo(x + PLAT_W, y, x + PLAT_W, y + 5);
    ctx.quadraticCurveTo(x + PLAT_W, y + PLAT_H, x + PLAT_W - 4, y + PLAT_H); ctx.lineTo(x + 4, y + PLAT_H);
    ctx.quadraticCurveTo(x, y + PLAT_H, x, y + 5); ctx.quadraticCurveTo(x, y, x + 4, y);
    ctx.fill();
    ctx.fillStyle = "rgba(255,255,255,0.45)";
    ctx.fillRect(x + 5, y + 2, PLAT_W - 10, 2);
    if (p.kind === "cracked") {
      ctx.strokeStyle = "#4a3018"; ctx.lineWidth = 1.5;
      ctx.beginPath(); ctx.moveTo(x + PLAT_W / 2 - 3, y); ctx.lineTo(x + PLAT_W / 2 + 2, y + 5); ctx.lineTo(x + PLAT_W / 2 - 2, y + PLAT_H); ctx.stroke();
    }
    if (p.spring) {
      var sx = x + p.sx;
      ctx.strokeStyle = "#d0d6de"; ctx.lineWidth = 2;
      ctx.beginPath();
      for (var i = 0; i < 4; i++) { ctx.moveTo(sx + 2, y - 2 - i * 3); ctx.lineTo(sx + SPRING_W - 2, y - 3.5 - i * 3); }
      ctx.stroke();
      ctx.fillStyle = "#ff5c5c"; ctx.fillRect(sx, y - 14, SPRING_W, 4);
    }
  }

  function drawMonster(mo) {
    var x = mo.x, y = mo.y - g.camY;
    if (y < -30 || y > H + 30) return;
    var wing = Math.sin(g.tick * 0.6) * 4;
    ctx.fillStyle = "rgba(220,240,255,0.7)";
    ctx.beginPath(); ctx.ellipse(x + 8, y + 3 - wing, 9, 5, -0.4, 0, Math.PI * 2); ctx.ellipse(x + MON_W - 8, y + 3 - wing, 9, 5, 0.4, 0, Math.PI * 2); ctx.fill();
    var gr = ctx.createRadialGradient(x + MON_W / 2 - 4, y + 8, 2, x + MON_W / 2, y + MON_H / 2, 18);
    gr.addColorStop(0, mo.dead ? "#999" : "#e39bff"); gr.addColorStop(1, mo.dead ? "#444" : "#6a1f9c");
    ctx.fillStyle = gr;
    ctx.beginPath(); ctx.ellipse(x + MON_W / 2, y + MON_H / 2 + 2, MON_W / 2, MON_H / 2, 0, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = "#fff";
    ctx.fillRect(x + 9, y + 8, 6, 6); ctx.fillRect(x + MON_W - 15, y + 8, 6, 6);
    ctx.fillStyle = "#200";
    ctx.fillRect(x + 11, y + 10, 3, 3); ctx.fillRect(x + MON_W - 13, y + 10, 3, 3);
    ctx.strokeStyle = "#3a0a5a"; ctx.lineWidth = 2;
    ctx.beginPath(); ctx.moveTo(x + 10, y + 2); ctx.lineTo(x + 6, y - 5); ctx.moveTo(x + MON_W - 10, y + 2); ctx.lineTo(x + MON_W - 6, y - 5); ctx.stroke();
  }

  function drawHopper() {
    var x = g.x, y = g.y - g.camY;
    var sq = g.squash > 0 ? 3 : 0;
    for (var pass = 0; pass < 2; pass++) {
      var ox = pass === 0 ? 0 : (g.x + PW / 2 < PW ? W : g.x + PW / 2 > W - PW ? -W : null);
      if (ox === null) continue;
      var bx = x + ox;
      // feet
      ctx.fillStyle = "#2f6a1c";
      ctx.fillRect(bx + 2, y + PH - 4, 5, 4); ctx.fillRect(bx + PW - 7, y + PH - 4, 5, 4);
      var gr = ctx.createLinearGradient(0, y + sq, 0, y + PH);
      gr.addColorStop(0, "#f6e26a"); gr.addColorStop(1, "#c9a820");
      ctx.fillStyle = gr;
      ctx.beginPath(); ctx.ellipse(bx + PW / 2, y + PH / 2 + sq / 2, PW / 2 + sq / 2, PH / 2 - 2 - sq / 2, 0, 0, Math.PI * 2); ctx.fill();
      // snout toward the facing side
      ctx.fillRect(bx + PW / 2 + (g.face > 0 ? 4 : -12), y + 8 + sq, 8, 5);
      ctx.fillStyle = "#fff";
      ctx.beginPath(); ctx.arc(bx + PW / 2 + g.face * 2, y + 6 + sq, 3.5, 0, Math.PI * 2); ctx.fill();
      ctx.fillStyle = "#111";
      ctx.beginPath(); ctx.arc(bx + PW / 2 + g.face * 3, y + 6 + sq, 1.6, 0, Math.PI * 2); ctx.fill();
    }
  }

  function drawHud() {
    var hg = ctx.createLinearGradient(0, 0, 0, HUD_H);
    hg.addColorStop(0, "rgba(20,30,60,0.92)"); hg.addColorStop(1, "rgba(10,16,36,0.92)");
    ctx.fillStyle = hg; ctx.fillRect(0, 0, W, HUD_H);
    ctx.fillStyle = g.flash > 0 ? g.flashColor : "#4a6ab0";
    ctx.fillRect(0, HUD_H - 2, W, 2);
    ctx.font = "bold 14px monospace"; ctx.textBaseline = "middle";
    ctx.textAlign = "left"; ctx.fillStyle = "#ffe27a";
    ctx.fillText("\u25B2 " + g.climbed + " platforms", 8, 15);
    ctx.textAlign = "right"; ctx.fillStyle = "#dfe8ff";
    ctx.fillText(g.top + " m", W - 8, 15);
    if (g.stomps) { ctx.textAlign = "center"; ctx.fillStyle = "#ff9af0"; ctx.fillText("\u2605" + g.stomps, W / 2 + 40, 15); }
  }

  function draw() {
    drawBackground();
    for (var i = 0; i < g.plats.length; i++) drawPlatform(g.plats[i]);
    for (var m = 0; m < g.monsters.length; m++) drawMonster(g.monsters[m]);
    if (!(g.over && g.reason === "caught by a beetle" && (g.tick >> 2) % 2)) drawHopper();
    for (var s = 0; s < g.sparks.length; s++) {
      var sp = g.sparks[s];
      ctx.globalAlpha = Math.max(0, sp.life / 22); ctx.fillStyle = sp.color;
      ctx.fillRect(sp.x - 2, sp.y - g.camY - 2, 4, 4);
    }
    ctx.globalAlpha = 1;
    drawHud();
    if (g.tick < 60 && !g.over) {
      ctx.fillStyle = "rgba(10,20,50,0.55)"; ctx.fillRect(W / 2 - 90, 440, 180, 24);
      ctx.textAlign = "center"; ctx.textBaseline = "middle"; ctx.font = "bold 13px monospace"; ctx.fillStyle = "#fff";
      ctx.fillText("hold \u2190 \u2192 to steer", W / 2, 452);
    }
    if (g.over) {
      ctx.fillStyle = "rgba(8,10,28,0.8)"; ctx.fillRect(0, H / 2 - 50, W, 100);
      ctx.fillStyle = "#ff6a5a"; ctx.fillRect(0, H / 2 - 50, W, 2); ctx.fillRect(0, H / 2 + 48, W, 2);
      ctx.textAlign = "center"; ctx.textBaseline = "middle";
      ctx.font = "bold 30px monospace"; ctx.fillText("GAME OVER", W / 2, H / 2 - 16);
      ctx.font = "bold 13px monospace"; ctx.fillStyle = "#fff";
      ctx.fillText("You " + g.reason, W / 2, H / 2 + 12);
      ctx.fillText(g.climbed + " platforms climbed", W / 2, H / 2 + 30);
    }
  }

  function rendering() {
    var gw = window.__gameworld;
    return !(gw && gw.rendering === false);
  }

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
  });
  window.addEventListener("keyup", function (e) {
    catchUp();
    if (e.code in held) held[e.code] = false;
  });

  function platformsAhead() {              // for players who read the state: the next platforms up
    var out = [];
    for (var i = 0; i < g.plats.length; i++) {
      var p = g.plats[i];
      if (p.broken || p.y < g.camY - 160) continue;
      out.push([Math.round(p.x), Math.round(p.y), p.kind === "moving" ? 1 : p.kind === "cracked" ? 2 : 0,
                p.spring ? p.sx : -1, Math.round(p.vx * 100), p.n, p.w]);
    }
    return out;
  }

  window.gameAPI = {
    getState: function () {
      if (catchUp() && rendering()) draw();
      var next = null;
      for (var i = 0; i < g.monsters.length; i++) if (!g.monsters[i].dead) { next = g.monsters[i]; break; }
      return {
        status: g.over ? "terminal" : "playing",
        actionable: !g.over,
        terminal: { is_terminal: g.over, outcome: g.over ? "lose" : null, reason: g.over ? g.reason : null },
        score: g.climbed,
        climbed: g.climbed,
        height: g.top,
        stomps: g.stomps,
        springs: g.springs,
        player_x: Math.round(g.x),
        player_y: Math.round(g.y),
        player_vy: Math.round(g.vy * 100),
        camera_y: Math.round(g.camY),
        platforms: platformsAhead(),
        beetle: next ? [Math.round(next.x), Math.round(next.y), Math.round(next.vx * 100)] : null
      };
    },
    reset: function () {
      for (var key in held) held[key] = false;
      newGame();
      draw();
    }
  };

  newGame();
  draw();
  requestAnimationFrame(frame);
})();
