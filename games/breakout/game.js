// Brick Breaker: a paddle, a ball and a wall of coloured bricks.
// Game logic runs in fixed 1/60 s ticks. The number of ticks done is always floor(elapsed ms * 60 / 1000)
// since the game (re)started, caught up from Date.now() on every animation frame, before every input and
// in getState(): the state at a given clock time does not depend on when the animation frames fire.
// Math.random is used only for the wall layout and the launch angle; no transcendental maths in the logic.
(function () {
  "use strict";

  var W = 480, H = 360;
  var TICKS_PER_S = 60;          // logic ticks per second of game time
  var MAX_CATCH_UP = 600;        // ticks; a longer gap (a hidden tab) is skipped, not replayed
  var SUB = 3;                   // collision sub-steps per tick
  var HUD_H = 34;                // top bar
  var COLS = 10, ROWS = 6;
  var BRICK_W = 42, BRICK_H = 16, GAP = 4;
  var BRICK_X0 = (W - (COLS * BRICK_W + (COLS - 1) * GAP)) / 2;   // 12
  var BRICK_Y0 = 58;
  var ROW_POINTS = [30, 30, 20, 20, 10, 10];                       // top row first
  var ROW_COLORS = [
    ["#ff5c7a", "#c2314f"], ["#ff8a3d", "#c75d16"], ["#ffd23f", "#c99c0b"],
    ["#4fdc7b", "#22a04c"], ["#3fb8ff", "#1a7fc0"], ["#a879ff", "#6f44c9"]
  ];
  var PADDLE_W = 80, PADDLE_H = 10, PADDLE_Y = 332;   // top edge of the paddle
  var PADDLE_SPEED = 300;        // px per second while an arrow key is held
  var BALL_R = 5;
  var SPEED0 = 360, SPEED_STEP = 15, SPEED_MAX = 560;   // ball speed, px per second
  var LIVES = 3;

  var canvas = document.getElementById("game");
  var ctx = canvas.getContext("2d");

  var held = { left: false, right: false };
  var launchQueued = false;
  var g = null;                  // the game state
  var t0 = 0, ticks = 0;          // clock time of the (re)start, logic ticks done since

  function newWall() {
    var bricks = [];
    for (var r = 0; r < ROWS; r++) {
      for (var c = 0; c < COLS; c++) {
        // a few holes per wall, never in the bottom row
        var alive = r === ROWS - 1 ? true : Math.random() >= 0.1;
        bricks.push({ r: r, c: c, alive: alive,
          x: BRICK_X0 + c * (BRICK_W + GAP), y: BRICK_Y0 + r * (BRICK_H + GAP) });
      }
    }
    return bricks;
  }

  function newGame() {
    g = {
      tick: 0, score: 0, lives: LIVES, wall: 1, broken: 0, rally: 0, ballPoints: 0,
      bricks: newWall(),
      paddleX: W / 2,
      ball: { x: W / 2, y: PADDLE_Y - BALL_R, vx: 0, vy: 0, speed: SPEED0, launched: false },
      started: false, over: false, flash: 0, lostFlash: 0,
      particles: [], pseed: 12345
    };
    launchQueued = false;
  }

  function bricksLeft() {
    var n = 0;
    for (var i = 0; i < g.bricks.length; i++) if (g.bricks[i].alive) n++;
    return n;
  }

  function wallRows() {
    var rows = [];
    for (var r = 0; r < ROWS; r++) {
      var line = "";
      for (var c = 0; c < COLS; c++) line += g.bricks[r * COLS + c].alive ? "1" : "0";
      rows.push(line);
    }
    return rows;
  }

  // Cosmetic pseudo-random numbers for particles (never touches Math.random).
  function prand() {
    g.pseed = (Math.imul(g.pseed, 1103515245) + 12345) >>> 0;
    return (g.pseed >>> 8) / 16777216;
  }

  function setVelocity(ball, kx) {
    // kx in [-0.8, 0.8]: horizontal share of the speed; the ball always goes up.
    ball.vx = ball.speed * kx;
    ball.vy = -Math.sqrt(ball.speed * ball.speed - ball.vx * ball.vx);
  }

  function launch() {
    var b = g.ball;
    // a serve leaves at 30-65 % of its speed sideways, to the left or the right: it never comes straight back
    var u = Math.random() * 2 - 1;
    var k = (u < 0 ? -1 : 1) * (0.3 + (u < 0 ? -u : u) * 0.35);
    setVelocity(b, k);
    b.launched = true;
    g.started = true;
  }

  function burst(x, y, color) {
    for (var i = 0; i < 10; i++) {
      g.particles.push({ x: x, y: y, vx: (prand() * 2 - 1) * 2.2, vy: (prand() * 2 - 1) * 2.2 - 0.6,
        life: 24 + Math.floor(prand() * 12), color: color });
    }
  }

  function loseBall() {
    g.lives -= 1;
    g.lostFlash = 30;
    g.rally = 0; g.ballPoints = 0;     // a new ball starts a new rally
    var b = g.ball;
    b.launched = false; b.vx = 0; b.vy = 0;
    b.speed = SPEED0;
    b.x = g.paddleX; b.y = PADDLE_Y - BALL_R;
    if (g.lives <= 0) { g.lives = 0; g.over = true; }
  }

  function hitBricks(b) {
    for (var i = 0; i < g.bricks.length; i++) {
      var k = g.bricks[i];
      if (!k.alive) continue;
      var nx = b.x < k.x ? k.x : (b.x > k.x + BRICK_W ? k.x + BRICK_W : b.x);
      var ny = b.y < k.y ? k.y : (b.y > k.y + BRICK_H ? k.y + BRICK_H : b.y);
      var dx = b.x - nx, dy = b.y - ny;
      if (dx * dx + dy * dy > BALL_R * BALL_R) continue;
      k.alive = false;
      g.score += ROW_POINTS[k.r];
      g.ballPoints += ROW_POINTS[k.r];
      g.broken += 1;
      g.flash = 6;
      burst(k.x + BRICK_W / 2, k.y + BRICK_H / 2, ROW_COLORS[k.r][0]);
      // bounce on the side with the smaller penetration
      var penX = b.vx > 0 ? (b.x + BALL_R) - k.x : (k.x + BRICK_W) - (b.x - BALL_R);
      var penY = b.vy > 0 ? (b.y + BALL_R) - k.y : (k.y + BRICK_H) - (b.y - BALL_R);
      if (penX < penY) { b.vx = -b.vx; b.x += b.vx > 0 ? penX : -penX; }
      else { b.vy = -b.vy; b.y += b.vy > 0 ? penY : -penY; }
      return true;
    }
    return false;
  }

  function step() {
    g.tick++;
    if (g.flash > 0) g.flash--;
    if (g.lostFlash > 0) g.lostFlash--;
    for (var i = g.particles.length - 1; i >= 0; i--) {
      var p = g.particles[i];
      p.x += p.vx; p.y += p.vy; p.vy += 0.12; p.life--;
      if (p.life <= 0) g.particles.splice(i, 1);
    }
    if (g.over) { launchQueued = false; return; }

    var dir = (held.right ? 1 : 0) - (held.left ? 1 : 0);
    g.paddleX += dir * PADDLE_SPEED / 60;
    if (g.paddleX < PADDLE_W / 2) g.paddleX = PADDLE_W / 2;
    if (g.paddleX > W - PADDLE_W / 2) g.paddleX = W - PADDLE_W / 2;

    var b = g.ball;
    if (!b.launched) {
      b.x = g.paddleX; b.y = PADDLE_Y - BALL_R;
      if (launchQueued) launch();
      launchQueued = false;
      return;
    }
    launchQueued = false;

    for (var s = 0; s < SUB; s++) {
      var px = b.x, py = b.y;
      b.x += b.vx / (60 * SUB);
      b.y += b.vy / (60 * SUB);
      if (b.x < BALL_R) { b.x = 2 * BALL_R - b.x; b.vx = -b.vx; }
      if (b.x > W - BALL_R) { b.x = 2 * (W - BALL_R) - b.x; b.vx = -b.vx; }
      if (b.y < HUD_H + BALL_R) { b.y = 2 * (HUD_H + BALL_R) - b.y; b.vy = -b.vy; }

      // paddle
      if (b.vy > 0 && py + BALL_R <= PADDLE_Y + 4 && b.y + BALL_R >= PADDLE_Y &&
          b.x >= g.paddleX - PADDLE_W / 2 - BALL_R && b.x <= g.paddleX + PADDLE_W / 2 + BALL_R) {
        var off = (b.x - g.paddleX) / (PADDLE_W / 2);
        if (off < -1) off = -1;
        if (off > 1) off = 1;
        b.speed = b.speed + SPEED_STEP > SPEED_MAX ? SPEED_MAX : b.speed + SPEED_STEP;
        setVelocity(b, off * 0.8);
        b.y = PADDLE_Y - BALL_R;
        g.rally += 1;
      }

      if (hitBricks(b)) {
        if (bricksLeft() === 0) {       // wall cleared: a fresh wall, serve again
          g.wall += 1;
          g.bricks = newWall();
          b.launched = false; b.vx = 0; b.vy = 0; b.speed = SPEED0;
          b.x = g.paddleX; b.y = PADDLE_Y - BALL_R;
          return;
        }
      }

      if (b.y - BALL_R > H) { loseBall(); return; }
    }
  }

  // ---------- drawing ----------
  function roundRect(x, y, w, h, r) {
    ctx.beginPath();
    ctx.moveTo(x + r, y);
    ctx.arcTo(x + w, y, x + w, y + h, r);
    ctx.arcTo(x + w, y + h, x, y + h, r);
    ctx.arcTo(x, y + h, x, y, r);
    ctx.arcTo(x, y, x + w, y, r);
    ctx.closePath();
  }

  function draw() {
    // background
    var bg = ctx.createLinearGradient(0, 0, 0, H);
    bg.addColorStop(0, "#141b3a");
    bg.addColorStop(1, "#070a16");
    ctx.fillStyle = bg;
    ctx.fillRect(0, 0, W, H);
    ctx.strokeStyle = "rgba(120,140,255,0.07)";
    ctx.lineWidth = 1;
    for (var gx = 0; gx <= W; gx += 24) { ctx.beginPath(); ctx.moveTo(gx + 0.5, HUD_H); ctx.lineTo(gx + 0.5, H); ctx.stroke(); }
    for (var gy = HUD_H; gy <= H; gy += 24) { ctx.beginPath(); ctx.moveTo(0, gy + 0.5); ctx.lineTo(W, gy + 0.5); ctx.stroke(); }
    if (g.lostFlash > 0) {
      ctx.fillStyle = "rgba(255,60,80," + (g.lostFlash / 30 * 0.25).toFixed(3) + ")";
      ctx.fillRect(0, HUD_H, W, H - HUD_H);
    }

    // bricks
    for (var i = 0; i < g.bricks.length; i++) {
      var k = g.bricks[i];
      if (!k.alive) continue;
      var col = ROW_COLORS[k.r];
      var gr = ctx.createLinearGradient(0, k.y, 0, k.y + BRICK_H);
      gr.addColorStop(0, col[0]);
      gr.addColorStop(1, col[1]);
      ctx.fillStyle = gr;
      roundRect(k.x, k.y, BRICK_W, BRICK_H, 3);
      ctx.fill();
      ctx.fillStyle = "rgba(255,255,255,0.35)";
      ctx.fillRect(k.x + 3, k.y + 2, BRICK_W - 6, 2);
    }

    // particles
    for (var p = 0; p < g.particles.length; p++) {
      var q = g.particles[p];
      ctx.globalAlpha = Math.max(0, Math.min(1, q.life / 24));
      ctx.fillStyle = q.color;
      ctx.fillRect(q.x - 1.5, q.y - 1.5, 3, 3);
    }
    ctx.globalAlpha = 1;

    // paddle
    var pxl = g.paddleX - PADDLE_W / 2;
    var pg = ctx.createLinearGradient(0, PADDLE_Y, 0, PADDLE_Y + PADDLE_H);
    pg.addColorStop(0, "#f2f6ff");
    pg.addColorStop(1, "#8fa2d8");
    ctx.shadowColor = "rgba(120,180,255,0.8)";
    ctx.shadowBlur = 10;
    ctx.fillStyle = pg;
    roundRect(pxl, PADDLE_Y, PADDLE_W, PADDLE_H, 5);
    ctx.fill();
    ctx.shadowBlur = 0;
    ctx.fillStyle = "#3fb8ff";
    ctx.fillRect(pxl + 6, PADDLE_Y + 4, 8, 2);
    ctx.fillRect(pxl + PADDLE_W - 14, PADDLE_Y + 4, 8, 2);

    // ball
    var b = g.ball;
    if (!g.over) {
      ctx.shadowColor = "rgba(255,240,180,0.9)";
      ctx.shadowBlur = 12;
      ctx.fillStyle = "#fff7d6";
      ctx.beginPath();
      ctx.arc(b.x, b.y, BALL_R, 0, Math.PI * 2);
      ctx.fill();
      ctx.shadowBlur = 0;
    }

    // HUD
    ctx.fillStyle = "#0d1230";
    ctx.fillRect(0, 0, W, HUD_H);
    ctx.fillStyle = g.flash > 0 ? "#ffd23f" : "#3a4a8c";
    ctx.fillRect(0, HUD_H - 2, W, 2);
    ctx.textBaseline = "middle";
    ctx.font = "bold 16px monospace";
    ctx.textAlign = "left";
    ctx.fillStyle = "#8fa2d8";
    ctx.fillText("SCORE", 10, 17);
    ctx.fillStyle = "#ffffff";
    ctx.fillText(String(g.score).padStart(4, "0"), 66, 17);
    ctx.fillStyle = "#8fa2d8";
    ctx.fillText("RALLY", 146, 17);
    ctx.fillStyle = g.rally > 0 ? "#4fdc7b" : "#ffffff";
    ctx.fillText(String(g.rally), 202, 17);
    ctx.fillStyle = "#8fa2d8";
    ctx.fillText("BALL", 248, 17);
    ctx.fillStyle = "#ffffff";
    ctx.fillText(String(g.ballPoints), 294, 17);
    ctx.textAlign = "right";
    ctx.fillText("LIVES", W - 70, 17);
    for (var l = 0; l < LIVES; l++) {
      ctx.beginPath();
      ctx.arc(W - 54 + l * 18, 17, 6, 0, Math.PI * 2);
      ctx.fillStyle = l < g.lives ? "#ff5c7a" : "#2a3260";
      ctx.fill();
    }

    // messages
    ctx.textAlign = "center";
    if (g.over) {
      ctx.fillStyle = "rgba(5,8,20,0.72)";
      ctx.fillRect(0, 140, W, 84);
      ctx.font = "bold 32px monospace";
      ctx.fillStyle = "#ff5c7a";
      ctx.fillText("GAME OVER", W / 2, 170);
      ctx.font = "bold 14px monospace";
      ctx.fillStyle = "#ffffff";
      ctx.fillText("FINAL SCORE " + g.score, W / 2, 204);
    } else if (!b.launched) {
      ctx.font = "bold 15px monospace";
      ctx.fillStyle = "rgba(5,8,20,0.6)";
      ctx.fillRect(W / 2 - 130, 252, 260, 28);
      ctx.fillStyle = (Math.floor(g.tick / 20) % 2) ? "#ffd23f" : "#ffffff";
      ctx.fillText(g.started ? "PRESS SPACE TO SERVE" : "PRESS SPACE TO LAUNCH", W / 2, 267);
    }
  }

  // ---------- loop, input, API ----------
  // The sandbox runs much of a step's game time unseen and sets window.__gameworld.rendering to false
  // meanwhile: skip the drawing then (never the logic). A plain browser has no __gameworld: always draw.
  function rendering() {
    var gw = window.__gameworld;
    return !(gw && gw.rendering === false);
  }

  function restart() {
    newGame();
    t0 = Date.now();
    ticks = 0;
  }

  function catchUp() {
    var target = Math.floor((Date.now() - t0) * TICKS_PER_S / 1000);
    if (target - ticks > MAX_CATCH_UP) ticks = target - MAX_CATCH_UP;
    while (ticks < target) { step(); ticks++; }
  }

  function frame() {
    catchUp();
    if (rendering()) draw();
    requestAnimationFrame(frame);
  }

  window.addEventListener("keydown", function (e) {
    catchUp();
    if (e.code === "ArrowLeft") { held.left = true; e.preventDefault(); }
    else if (e.code === "ArrowRight") { held.right = true; e.preventDefault(); }
    else if (e.code === "Space") { if (!e.repeat) launchQueued = true; e.preventDefault(); }
  });
  window.addEventListener("keyup", function (e) {
    catchUp();
    if (e.code === "ArrowLeft") held.left = false;
    else if (e.code === "ArrowRight") held.right = false;
  });

  window.gameAPI = {
    getState: function () {
      catchUp();
      var b = g.ball;
      return {
        status: g.over ? "terminal" : (g.started ? "playing" : "ready"),
        actionable: true,
        terminal: { is_terminal: g.over, outcome: g.over ? "lose" : null,
                    reason: g.over ? "out of balls" : null },
        score: g.score,
        bricks_left: bricksLeft(),
        lives: g.lives,
        paddle_x: Math.round(g.paddleX),
        ball_x: Math.round(b.x),
        ball_y: Math.round(b.y),
        ball_vx: Math.round(b.vx),
        ball_vy: Math.round(b.vy),
        ball_launched: b.launched,
        bricks: wallRows(),
        rally: g.rally,
        ball_points: g.ballPoints
      };
    },
    reset: function (options) {
      held.left = false; held.right = false;
      restart();
      draw();   // the frame read right after a reset shows the new attempt, not the game-over screen
    }
  };

  restart();
  draw();
  requestAnimationFrame(frame);
})();
