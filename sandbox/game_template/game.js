// {{title}}: a starting point made by `python -m sandbox new`. It already keeps the platform rules of
// games/README.md; replace the demo (collect coins, dodge the spark) with your game and keep the rules:
// - time only from the virtual clock: logic advances in fixed 1/60 s ticks counted from the
//   requestAnimationFrame timestamps, so a step of N ms always does the same work;
// - chance only from Math.random (the sandbox seeds it, and re-seeds it before gameAPI.reset);
// - no drawing while window.__gameworld.rendering is false, and no logic in drawing code;
// - the first frame is drawn before the game reports actionable, and reset() redraws;
// - integer state and no transcendental maths in the logic.
(function () {
  "use strict";

  var W = {{width}}, H = {{height}}, HUD_H = 32;
  var TICK_MS = 1000 / 60;
  var MAX_CATCH_UP = 600;         // ticks; a longer gap (a hidden tab) is skipped, not replayed
  var SPEED = 3;                  // player px per tick while an arrow key is held
  var PLAYER = 14, COIN = 8, SPARK = 9;
  var LIVES = 3, SHIELD_TICKS = 60;

  var canvas = document.getElementById("game");
  var ctx = canvas.getContext("2d");
  var held = { ArrowLeft: false, ArrowRight: false, ArrowUp: false, ArrowDown: false };
  var g = null;                   // the game state
  var lastTs = null, acc = 0;     // rAF timestamp of the last frame, ms not yet turned into ticks

  function randomInt(low, high) { return low + Math.floor(Math.random() * (high - low + 1)); }

  function placeCoin() {
    g.coin = { x: randomInt(COIN + 4, W - COIN - 4), y: randomInt(HUD_H + COIN + 4, H - COIN - 4) };
  }

  function newGame() {
    g = { tick: 0, score: 0, lives: LIVES, over: false, shield: SHIELD_TICKS, flash: 0,
          player: { x: W / 2, y: (H + HUD_H) / 2 },
          spark: { x: randomInt(SPARK, 120), y: randomInt(HUD_H + SPARK, H - SPARK),
                   vx: randomInt(0, 1) ? 2 : -2, vy: randomInt(0, 1) ? 2 : -2 } };
    placeCoin();
  }

  function near(a, b, reach) {
    var dx = a.x - b.x, dy = a.y - b.y;
    return dx * dx + dy * dy <= reach * reach;
  }

  function step() {                // one logic tick
    g.tick++;
    if (g.flash > 0) g.flash--;
    if (g.over) return;
    if (g.shield > 0) g.shield--;
    var p = g.player;
    p.x += SPEED * ((held.ArrowRight ? 1 : 0) - (held.ArrowLeft ? 1 : 0));
    p.y += SPEED * ((held.ArrowDown ? 1 : 0) - (held.ArrowUp ? 1 : 0));
    p.x = Math.max(PLAYER, Math.min(W - PLAYER, p.x));
    p.y = Math.max(HUD_H + PLAYER, Math.min(H - PLAYER, p.y));
    var s = g.spark;
    s.x += s.vx; s.y += s.vy;
    if (s.x < SPARK || s.x > W - SPARK) s.vx = -s.vx;
    if (s.y < HUD_H + SPARK || s.y > H - SPARK) s.vy = -s.vy;
    if (near(p, g.coin, PLAYER + COIN)) { g.score += 1; g.flash = 10; placeCoin(); }
    if (g.shield === 0 && near(p, s, PLAYER + SPARK - 4)) {
      g.lives -= 1;
      g.shield = SHIELD_TICKS;
      p.x = W / 2; p.y = (H + HUD_H) / 2;
      if (g.lives <= 0) g.over = true;
    }
  }

  function draw() {
    var bg = ctx.createLinearGradient(0, 0, 0, H);
    bg.addColorStop(0, "#16204a");
    bg.addColorStop(1, "#080b18");
    ctx.fillStyle = bg;
    ctx.fillRect(0, 0, W, H);
    // coin
    ctx.fillStyle = "#ffd23f";
    ctx.beginPath(); ctx.arc(g.coin.x, g.coin.y, COIN, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = "#fff3b0";
    ctx.fillRect(g.coin.x - 2, g.coin.y - 5, 3, 6);
    // spark
    ctx.fillStyle = "#ff5c7a";
    ctx.beginPath(); ctx.arc(g.spark.x, g.spark.y, SPARK, 0, Math.PI * 2); ctx.fill();
    // player (blinks while shielded)
    if (!(g.shield > 0 && Math.floor(g.tick / 6) % 2)) {
      ctx.fillStyle = "#4fdc7b";
      ctx.fillRect(g.player.x - PLAYER, g.player.y - PLAYER, PLAYER * 2, PLAYER * 2);
      ctx.fillStyle = "#0b1020";
      ctx.fillRect(g.player.x - 6, g.player.y - 5, 4, 4);
      ctx.fillRect(g.player.x + 2, g.player.y - 5, 4, 4);
    }
    // HUD
    ctx.fillStyle = "#0d1230";
    ctx.fillRect(0, 0, W, HUD_H);
    ctx.fillStyle = g.flash > 0 ? "#ffd23f" : "#3a4a8c";
    ctx.fillRect(0, HUD_H - 2, W, 2);
    ctx.font = "bold 16px monospace";
    ctx.textBaseline = "middle";
    ctx.textAlign = "left";
    ctx.fillStyle = "#ffffff";
    ctx.fillText("COINS " + g.score, 10, 16);
    ctx.textAlign = "right";
    ctx.fillText("LIVES " + g.lives, W - 10, 16);
    if (g.over) {
      ctx.fillStyle = "rgba(5,8,20,0.75)";
      ctx.fillRect(0, H / 2 - 40, W, 80);
      ctx.textAlign = "center";
      ctx.fillStyle = "#ff5c7a";
      ctx.font = "bold 30px monospace";
      ctx.fillText("GAME OVER", W / 2, H / 2 - 8);
      ctx.fillStyle = "#ffffff";
      ctx.font = "bold 14px monospace";
      ctx.fillText("COINS " + g.score, W / 2, H / 2 + 22);
    }
  }

  function rendering() {          // a plain browser has no __gameworld: always draw
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

  window.addEventListener("keydown", function (e) {
    if (e.code in held) { held[e.code] = true; e.preventDefault(); }
  });
  window.addEventListener("keyup", function (e) {
    if (e.code in held) held[e.code] = false;
  });

  window.gameAPI = {
    getState: function () {        // cheap, deterministic, integers only
      return {
        status: g.over ? "terminal" : "playing",
        actionable: true,
        terminal: { is_terminal: g.over, outcome: g.over ? "lose" : null, reason: g.over ? "out of lives" : null },
        score: g.score,
        lives: g.lives,
        player_x: Math.round(g.player.x),
        player_y: Math.round(g.player.y),
        coin_x: g.coin.x,
        coin_y: g.coin.y
      };
    },
    reset: function () {            // Math.random was already re-seeded by the sandbox
      for (var key in held) held[key] = false;
      newGame();
      acc = 0;
      draw();                       // the frame after a reset shows the new game at once
    }
  };

  newGame();
  draw();                           // the first frame is drawn before the game reports actionable
  requestAnimationFrame(frame);
})();
