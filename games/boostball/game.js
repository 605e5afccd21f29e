// Boost Ball: 2D side-view car soccer. Your blue car (left) attacks the orange goal on the right against a
// scripted orange car that chases the ball and defends. Platform rules (games/README.md):
// - logic in fixed 1/60 s ticks counted from requestAnimationFrame timestamps;
// - chance only from Math.random (seeded by the sandbox), drawn in a fixed order (one draw set per kick-off);
// - no drawing while window.__gameworld.rendering is false; no logic in drawing code;
// - the first frame is drawn before the game reports actionable, and reset() redraws;
// - plain arithmetic in the logic (Math.sqrt only), integer state.
(function () {
  "use strict";

  var W = 480, H = 360;
  var TICK_MS = 1000 / 60;
  var MAX_CATCH_UP = 600;
  var GY = 322;                    // ground line (car bottoms, ball rests on it)
  var CEIL = 52;                   // arena ceiling
  var LW = 30, RW = 450;           // goal lines (walls above the goal mouths)
  var GOAL_TOP = 258;              // crossbar height (the goal mouth spans GOAL_TOP..GY)
  var BR = 12;                     // ball radius
  var CAR_HW = 18, CAR_H = 15;     // car half width and height (hit box)
  var BALL_G = 0.16, CAR_G = 0.22;
  var MAX_BALL = 11;
  var DRIVE_ACC = 0.4, DRIVE_MAX = 3.4, BOOST_ACC = 0.45, BOOST_MAX = 6.4;
  var JUMP_V = 5.2, FLIP_V = 6.8;
  var BOOST_USE = 0.5, BOOST_START = 34, PAD_GIVE = 34, PAD_RESPAWN = 240;
  var MATCH_TICKS = 20 * 60;       // 20 s of live play (the clock stops during kick-offs and goal replays)
  var MERCY = 2;                   // the match is lost at once when the rival gets this many goals ahead
  var KICKOFF_TICKS = 30, GOAL_TICKS = 36;
  var FORECAST_TICKS = 150;
  var SHOT_SPEED = 4;              // px a tick towards the goal, at least, for a touch to count as a shot
  var PADS = [96, 240, 384];
  var KICK_Y = 190;                // the ball is dropped from up to 60 px above this line at each kick-off
  var KICK_X0 = 150, KICK_X1 = 330; // ... somewhere between these (seeded), drifting up to 1.4 px a tick either way
  var KICK_OFF0 = 50, KICK_OFF1 = 90; // your car starts this far (seeded) to the ball's left, or on half the
                                      // kick-offs to its right facing it: a fixed line of play meets the ball
                                      // from the wrong side

  var KEYS = { ArrowLeft: 1, ArrowRight: 1, ArrowUp: 1, Space: 1, KeyX: 1, ShiftLeft: 1, ShiftRight: 1 };

  var canvas = document.getElementById("game");
  var ctx = canvas.getContext("2d");
  var held = {};
  var jumpQueued = false;
  var g = null;
  var lastTs = null, acc = 0;

  function clamp(v, lo, hi) { return v < lo ? lo : v > hi ? hi : v; }

  function newCar(x, face) {
    return { x: x, y: GY, vx: 0, vy: 0, face: face, grounded: true, jumps: 0, flip: 0, boosting: false,
             contact: false, cool: 0 };
  }

  function newGame() {
    g = { tick: 0, phase: "kickoff", timer: KICKOFF_TICKS, clock: MATCH_TICKS, over: false, outcome: null, beaten: false,
          goals: 0, against: 0, touches: 0, shots: 0, saves: 0, boost: BOOST_START,
          pads: [0, 0, 0], lastScorer: 0, lastTouch: 0, flash: 0, shotFlash: 0, ownGoal: false,
          car: null, opp: null, ball: null, ai: null, playTicks: 0 };
    kickoff();
  }

  function kickoff() {
    // one fixed set of draws per kick-off: where the ball drops (x, height, drift: a run memorised on one seed
    // meets another ball), the rival's temper for this play, and which side of the ball your car starts on
    var r1 = Math.random(), r2 = Math.random(), r3 = Math.random(), r4 = Math.random(), r5 = Math.random();
    var r6 = Math.random(), r7 = Math.random();
    g.ball = { x: KICK_X0 + Math.floor(r1 * (KICK_X1 - KICK_X0 + 1)), y: KICK_Y - Math.floor(r5 * 60),
               vx: (Math.floor(r4 * 9) - 4) * 0.35, vy: 0 };
    var off = KICK_OFF0 + Math.floor(r7 * (KICK_OFF1 - KICK_OFF0 + 1));
    g.car = r6 < 0.5 ? newCar(g.ball.x - off, 1) : newCar(g.ball.x + off, -1);
    g.opp = newCar(g.car.x > 334 ? 454 : 370, -1);   // in its goal mouth when your car starts close to it
    g.ai = { speed: 3.0 + r2 * 0.6, reach: 34 + Math.floor(r3 * 14), wait: Math.floor(r3 * 4), jumpCool: 0 };
    g.phase = "kickoff";
    g.timer = KICKOFF_TICKS;
    g.lastTouch = 0;
    jumpQueued = false;
  }

  // ---- ball physics (also used, on a copy, to forecast where a touched ball goes) ----
  function ballStep(b) {
    b.vy += BALL_G;
    b.vx *= 0.996;
    b.x += b.vx; b.y += b.vy;
    if (b.y + BR > GY) {
      b.y = GY - BR;
      if (b.vy > 0.9) b.vy = -b.vy * 0.6; else b.vy = 0;
      b.vx *= 0.975;
    }
    if (b.y - BR < CEIL) { b.y = CEIL + BR; b.vy = -b.vy * 0.7; }
    var inMouth = b.y > GOAL_TOP;
    // walls above the goals
    if (!inMouth) {
      if (b.x - BR < LW) { b.x = LW + BR; b.vx = -b.vx * 0.55; }
      if (b.x + BR > RW) { b.x = RW - BR; b.vx = -b.vx * 0.55; }
    } else {
      // inside a goal: the roof of the net and the back of the net
      if ((b.x < LW || b.x > RW) && b.y - BR < GOAL_TOP) { b.y = GOAL_TOP + BR; b.vy = Math.abs(b.vy) * 0.5; }
      if (b.x - BR < 2) { b.x = 2 + BR; b.vx = -b.vx * 0.3; }
      if (b.x + BR > W - 2) { b.x = W - 2 - BR; b.vx = -b.vx * 0.3; }
    }
    // the crossbars (points)
    post(b, LW, GOAL_TOP);
    post(b, RW, GOAL_TOP);
    var s2 = b.vx * b.vx + b.vy * b.vy;
    if (s2 > MAX_BALL * MAX_BALL) { var k = MAX_BALL / Math.sqrt(s2); b.vx *= k; b.vy *= k; }
  }

  function post(b, px, py) {
    var dx = b.x - px, dy = b.y - py, d2 = dx * dx + dy * dy;
    if (d2 < BR * BR && d2 > 0.0001) {
      var d = Math.sqrt(d2), nx = dx / d, ny = dy / d;
      b.x = px + nx * BR; b.y = py + ny * BR;
      var vn = b.vx * nx + b.vy * ny;
      if (vn < 0) { b.vx -= 1.7 * vn * nx; b.vy -= 1.7 * vn * ny; }
    }
  }

  function goalSide(b) {             // 1: the ball is in the right (rival's) goal, -1: in yours, 0: neither
    if (b.y > GOAL_TOP && b.x > RW + BR) return 1;
    if (b.y > GOAL_TOP && b.x < LW - BR) return -1;
    return 0;
  }

  function forecast(ball) {          // where the ball alone (no cars) ends up within FORECAST_TICKS
    var b = { x: ball.x, y: ball.y, vx: ball.vx, vy: ball.vy };
    for (var i = 0; i < FORECAST_TICKS; i++) {
      ballStep(b);
      var s = goalSide(b);
      if (s) return s;
    }
    return 0;
  }

  // ---- cars ----
  function drive(c, dir, boostHeld, jump, isPlayer) {
    c.boosting = false;
    if (c.grounded) {
      if (dir) {
        c.vx += dir * (c.vx * dir < 0 ? DRIVE_ACC * 1.6 : DRIVE_ACC);
        c.face = dir;
      } else {
        c.vx *= 0.88;
        if (Math.abs(c.vx) < 0.05) c.vx = 0;
      }
    } else if (dir) {
      c.vx += dir * (isPlayer || !g.ai.rush ? 0.08 : 0.3);
    }
    var cap = isPlayer ? DRIVE_MAX : (g.ai.rush ? g.ai.speed + 3 : g.ai.speed);
    if (boostHeld && isPlayer && g.boost > 0) {
      c.vx += c.face * BOOST_ACC;
      g.boost = Math.max(0, g.boost - BOOST_USE);
      c.boosting = true;
      cap = BOOST_MAX;
    }
    if (c.vx > cap) c.vx = Math.max(cap, c.vx * 0.95);
    if (c.vx < -cap) c.vx = Math.min(-cap, c.vx * 0.95);
    if (jump) {
      if (c.grounded) { c.vy = -JUMP_V; c.grounded = false; c.jumps = 1; }
      else if (c.jumps === 1) {
        c.jumps = 2;
        if (dir) { c.vx = dir * FLIP_V; c.vy = Math.min(c.vy, -1.5); c.flip = 24; c.face = dir; }
        else c.vy = -4.2;
      }
    }
    if (c.flip > 0) c.flip--;
    if (!c.grounded) c.vy += CAR_G;
    c.x += c.vx; c.y += c.vy;
    if (c.y >= GY) {
      c.y = GY; c.vy = 0;
      if (!c.grounded) { c.grounded = true; c.jumps = 0; c.flip = 0; if (Math.abs(c.vx) > cap) c.vx = c.vx > 0 ? cap : -cap; }
    }
    if (c.y - CAR_H < CEIL) { c.y = CEIL + CAR_H; c.vy = 0; }
    if (c.x < LW + CAR_HW) { c.x = LW + CAR_HW; c.vx = 0; }
    var maxX = isPlayer ? RW - CAR_HW : RW + 4;   // the rival may back into its own goal mouth
    if (c.x > maxX) { c.x = maxX; c.vx = 0; }
  }

  // returns true on a new touch
  function hitBall(c, isPlayer) {
    var b = g.ball;
    var cx = clamp(b.x, c.x - CAR_HW, c.x + CAR_HW), cy = clamp(b.y, c.y - CAR_H, c.y);
    var dx = b.x - cx, dy = b.y - cy, d2 = dx * dx + dy * dy;
    if (d2 >= BR * BR) { c.contact = false; if (c.cool > 0) c.cool--; return false; }
    var nx, ny, d;
    if (d2 < 0.0001) { nx = 0; ny = -1; d = 0; } else { d = Math.sqrt(d2); nx = dx / d; ny = dy / d; }
    b.x += nx * (BR - d); b.y += ny * (BR - d);
    var rvx = b.vx - c.vx, rvy = b.vy - c.vy, vn = rvx * nx + rvy * ny;
    var fresh = false;
    if (vn < 0) {
      b.vx -= 1.4 * vn * nx; b.vy -= 1.4 * vn * ny;
      var cvn = c.vx * nx + c.vy * ny;
      var power = 0.6 + 0.3 * (cvn > 0 ? cvn : 0) + (c.flip > 0 ? 3.5 : 0);
      b.vx += nx * power; b.vy += ny * power - 0.4 * Math.abs(c.vx * nx);
      if (!c.contact && c.cool === 0) fresh = true;
    }
    c.contact = true;
    if (fresh) c.cool = 12; else if (c.cool > 0) c.cool--;
    return fresh;
  }

  function aiControl() {             // the rival: attack a ball on its left, get goal-side of one on its right
    var o = g.opp, b = g.ball, ai = g.ai;
    var dir = 0, jump = false, target;
    var dx = b.x - o.x, low = b.y > GY - 50;
    if (ai.jumpCool > 0) ai.jumpCool--;
    var canJump = o.grounded && ai.jumpCool === 0;
    ai.rush = false;
    if (dx < -4) {
      target = b.x + 4 + b.vx * 6;      // meet the ball and push it towards your goal
      if (canJump && dx > -50 && b.y < GY - 36 && b.y > GY - 110 && b.vy > 0) { jump = true; }
      if (canJump && dx > -CAR_HW && b.y < o.y - CAR_H) jump = true;        // pop a ball off its roof
      if (canJump && b.vx > 2.5 && dx > -70 && dx < -10 && b.y < GY - 30 && b.y > GY - 120) jump = true; // block a shot
    } else {
      target = Math.min(RW + 4, b.x + ai.reach);
      ai.rush = true;                   // beaten: race back (the rival's own turbo)
    }
    if (target < o.x - 3) dir = -1; else if (target > o.x + 3) dir = 1;
    if (jump) ai.jumpCool = 60;
    return { dir: dir, jump: jump };
  }

  function scored(side) {
    if (side > 0) { g.goals++; g.lastScorer = 1; } else { g.against++; g.lastScorer = -1; }
    g.phase = "goal";
    g.timer = GOAL_TICKS;
    if (g.against - g.goals >= MERCY) { g.over = true; g.phase = "over"; g.outcome = "lose"; g.beaten = true; }
  }

  function step() {
    g.tick++;
    if (g.flash > 0) g.flash--;
    if (g.shotFlash > 0) g.shotFlash--;
    if (g.over) return;
    if (g.phase === "goal") {
      if (--g.timer <= 0) {
        if (g.clock <= 0) { endMatch(); return; }
        kickoff();
      }
      return;
    }
    if (g.phase === "kickoff") {
      jumpQueued = false;
      if (--g.timer <= 0) { g.phase = "play"; g.playTicks = 0; }
      return;
    }
    g.playTicks++;
    var dir = (held.ArrowRight ? 1 : 0) - (held.ArrowLeft ? 1 : 0);
    var boostHeld = !!(held.KeyX || held.ShiftLeft || held.ShiftRight);
    drive(g.car, dir, boostHeld, jumpQueued, true);
    jumpQueued = false;
    var a = aiControl();
    if (g.ai.wait > 0) { g.ai.wait--; a = { dir: 0, jump: false }; }
    drive(g.opp, a.dir, false, a.jump, false);
    ballStep(g.ball);
    var before = forecastOwnNeeded() ? forecast(g.ball) : 0;
    if (hitBall(g.car, true)) {
      g.touches++; g.lastTouch = 1;
      var after = forecast(g.ball);
      if (after === 1 && g.ball.vx >= SHOT_SPEED) { g.shots++; g.shotFlash = 30; }
      if (before === -1 && after !== -1) g.saves++;
    }
    g.ai.ghost = g.ball.x > g.opp.x + 2;         // rotating back: the rival passes the ball without touching it
    if (!g.ai.ghost && hitBall(g.opp, false)) g.lastTouch = -1;
    if (g.opp.contact && g.ball.vx > 1.5) g.ball.vx = 1.5;   // the rival traps balls headed for its own net
    // boost pads
    for (var i = 0; i < PADS.length; i++) {
      if (g.pads[i] > 0) { g.pads[i]--; continue; }
      if (g.car.grounded && Math.abs(g.car.x - PADS[i]) < 16 && g.boost < 100) {
        g.boost = Math.min(100, g.boost + PAD_GIVE); g.pads[i] = PAD_RESPAWN;
      }
    }
    var side = goalSide(g.ball);
    if (side) { scored(side); g.flash = 40; return; }
    g.clock--;
    if (g.clock <= 0) endMatch();
  }

  function forecastOwnNeeded() {      // only forecast before a touch when the player's car is near the ball
    var c = g.car, b = g.ball;
    return Math.abs(b.x - c.x) < CAR_HW + BR + 12 && b.y > c.y - CAR_H - BR - 14;
  }

  function endMatch() {
    g.over = true; g.phase = "over";
    g.outcome = g.goals > g.against ? "win" : "lose";
  }

  // ---------------- drawing (reads the state, never changes it) ----------------
  function hash(n) { n = (n * 374761393 + 668265263) | 0; n = (n ^ (n >>> 13)) * 1274126177 | 0; return ((n ^ (n >>> 16)) >>> 0) / 4294967296; }

  function drawStadium() {
    var sky = ctx.createLinearGradient(0, 0, 0, 200);
    sky.addColorStop(0, "#0a0f2c"); sky.addColorStop(1, "#1c2a5e");
    ctx.fillStyle = sky; ctx.fillRect(0, 0, W, H);
    // stands with the crowd
    ctx.fillStyle = "#232b52"; ctx.fillRect(0, 60, W, 150);
    for (var row = 0; row < 9; row++) {
      var y = 66 + row * 15;
      ctx.fillStyle = row % 2 ? "#2a3463" : "#252e5a"; ctx.fillRect(0, y - 4, W, 14);
      for (var col = 0; col < 40; col++) {
        var h = hash(row * 97 + col * 13 + 5);
        var x = col * 12 + (row % 2) * 6 + h * 4;
        var bob = (g.flash > 0 && h > 0.4) ? -2 * ((g.tick >> 2) % 2) : 0;
        ctx.fillStyle = h < 0.33 ? "#4aa3ff" : h < 0.66 ? "#ff9a3c" : "#d9def2";
        ctx.beginPath(); ctx.arc(x, y + bob, 3.2, 0, Math.PI * 2); ctx.fill();
        ctx.fillStyle = "#141a38"; ctx.fillRect(x - 3, y + 3 + bob, 6, 5);
      }
    }
    // floodlights
    for (var i = 0; i < 2; i++) {
      var lx = i ? 420 : 60;
      ctx.fillStyle = "#9aa4c8"; ctx.fillRect(lx - 1, 40, 2, 22);
      ctx.fillStyle = "#fff7d6"; ctx.fillRect(lx - 14, 36, 28, 8);
      var glow = ctx.createRadialGradient(lx, 40, 2, lx, 40, 60);
      glow.addColorStop(0, "rgba(255,247,214,0.35)"); glow.addColorStop(1, "rgba(255,247,214,0)");
      ctx.fillStyle = glow; ctx.fillRect(lx - 60, 0, 120, 100);
    }
    // arena back wall (advert boards)
    ctx.fillStyle = "#10163a"; ctx.fillRect(0, 204, W, 22);
    var ads = ["BOOST BALL", "TURBO CUP", "NITRO LEAGUE"];
    ctx.font = "bold 11px sans-serif"; ctx.textAlign = "center"; ctx.textBaseline = "middle";
    for (var k = 0; k < 4; k++) {
      ctx.fillStyle = k % 2 ? "#1f6fd1" : "#d9651e"; ctx.fillRect(k * 120 + 4, 207, 112, 16);
      ctx.fillStyle = "#ffffff"; ctx.fillText(ads[k % 3], k * 120 + 60, 215.5);
    }
    // the pitch: mowed stripes
    var sw = 30;
    for (var s = 0; s * sw < W; s++) {
      ctx.fillStyle = s % 2 ? "#2f9a45" : "#37ab4f";
      ctx.fillRect(s * sw, 226, sw, H - 226);
    }
    var shade = ctx.createLinearGradient(0, 226, 0, H);
    shade.addColorStop(0, "rgba(0,30,0,0.35)"); shade.addColorStop(0.5, "rgba(0,0,0,0)"); shade.addColorStop(1, "rgba(0,20,0,0.3)");
    ctx.fillStyle = shade; ctx.fillRect(0, 226, W, H - 226);
    // lines: halfway line, centre circle (flat ellipse), touchline
    ctx.strokeStyle = "rgba(255,255,255,0.75)"; ctx.lineWidth = 2;
    ctx.beginPath(); ctx.moveTo(240, 232); ctx.lineTo(240, H); ctx.stroke();
    ctx.beginPath(); ctx.ellipse(240, GY + 8, 48, 10, 0, 0, Math.PI * 2); ctx.stroke();
    ctx.beginPath(); ctx.moveTo(0, GY + 1); ctx.lineTo(W, GY + 1); ctx.stroke();
    // arena glass ceiling
    ctx.strokeStyle = "rgba(160,200,255,0.35)"; ctx.lineWidth = 2;
    ctx.beginPath(); ctx.moveTo(LW, CEIL); ctx.lineTo(RW, CEIL); ctx.stroke();
    ctx.strokeStyle = "rgba(160,200,255,0.25)";
    ctx.beginPath(); ctx.moveTo(LW, CEIL); ctx.lineTo(LW, GOAL_TOP); ctx.moveTo(RW, CEIL); ctx.lineTo(RW, GOAL_TOP); ctx.stroke();
  }

  function drawGoal(left) {
    var x0 = left ? 0 : RW, x1 = left ? LW : W;
    var col = left ? "#4aa3ff" : "#ff8a2a";
    ctx.fillStyle = left ? "rgba(40,90,170,0.35)" : "rgba(170,80,20,0.35)";
    ctx.fillRect(x0, GOAL_TOP, x1 - x0, GY - GOAL_TOP);
    ctx.strokeStyle = "rgba(255,255,255,0.45)"; ctx.lineWidth = 1;
    ctx.beginPath();
    for (var x = x0 + 5; x < x1; x += 6) { ctx.moveTo(x, GOAL_TOP); ctx.lineTo(x, GY); }
    for (var y = GOAL_TOP + 6; y < GY; y += 6) { ctx.moveTo(x0, y); ctx.lineTo(x1, y); }
    ctx.stroke();
    ctx.fillStyle = col;
    ctx.fillRect(x0, GOAL_TOP - 4, x1 - x0, 5);                 // crossbar
    ctx.fillRect(left ? LW - 3 : RW - 1, GOAL_TOP - 4, 4, GY - GOAL_TOP + 4);  // post
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(left ? LW - 3 : RW - 1, GOAL_TOP - 4, 4, 3);
  }

  function drawPads() {
    for (var i = 0; i < PADS.length; i++) {
      var ready = g.pads[i] === 0;
      ctx.fillStyle = ready ? "#ffcf3a" : "rgba(120,110,60,0.6)";
      ctx.beginPath(); ctx.ellipse(PADS[i], GY + 4, 13, 4, 0, 0, Math.PI * 2); ctx.fill();
      if (ready) {
        var pulse = 0.25 + 0.2 * Math.abs(Math.sin(g.tick / 12));
        ctx.fillStyle = "rgba(255,220,80," + pulse.toFixed(2) + ")";
        ctx.beginPath(); ctx.moveTo(PADS[i] - 10, GY + 2); ctx.lineTo(PADS[i], GY - 22); ctx.lineTo(PADS[i] + 10, GY + 2); ctx.fill();
      }
    }
  }

  function drawCar(c, body, dark, isPlayer) {
    ctx.save();
    ctx.translate(c.x, c.y);
    if (c.flip > 0) ctx.rotate(c.face * (24 - c.flip) / 24 * Math.PI * 2);
    ctx.scale(c.face, 1);
    // shadow is drawn outside the transform; boost flame
    if (c.boosting) {
      var fl = 10 + ((g.tick >> 1) % 3) * 4;
      ctx.fillStyle = "#ffb02e";
      ctx.beginPath(); ctx.moveTo(-CAR_HW, -9); ctx.lineTo(-CAR_HW - fl, -6); ctx.lineTo(-CAR_HW, -3); ctx.fill();
      ctx.fillStyle = "#fff2a8";
      ctx.beginPath(); ctx.moveTo(-CAR_HW, -8); ctx.lineTo(-CAR_HW - fl / 2, -6); ctx.lineTo(-CAR_HW, -4); ctx.fill();
    }
    // body
    ctx.fillStyle = body;
    ctx.beginPath();
    ctx.moveTo(-CAR_HW, -4); ctx.lineTo(-CAR_HW, -12); ctx.lineTo(-8, -13); ctx.lineTo(-3, -21);
    ctx.lineTo(9, -21); ctx.lineTo(14, -13); ctx.lineTo(CAR_HW + 2, -10); ctx.lineTo(CAR_HW + 2, -4); ctx.closePath();
    ctx.fill();
    ctx.fillStyle = dark; ctx.fillRect(-CAR_HW, -7, CAR_HW * 2 + 2, 3);
    ctx.fillStyle = "#cfe9ff"; // window
    ctx.beginPath(); ctx.moveTo(-1, -19); ctx.lineTo(8, -19); ctx.lineTo(12, -13); ctx.lineTo(-5, -13); ctx.closePath(); ctx.fill();
    ctx.fillStyle = "#ffffff"; ctx.fillRect(CAR_HW, -10, 2, 3);  // headlight
    ctx.fillStyle = dark; ctx.fillRect(-CAR_HW - 1, -15, 6, 3);  // spoiler
    // wheels
    ctx.fillStyle = "#111"; ctx.beginPath(); ctx.arc(-10, -4, 5, 0, Math.PI * 2); ctx.arc(11, -4, 5, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = "#9aa"; ctx.beginPath(); ctx.arc(-10, -4, 2, 0, Math.PI * 2); ctx.arc(11, -4, 2, 0, Math.PI * 2); ctx.fill();
    ctx.restore();
  }

  function drawLabel(c, isPlayer) {
    ctx.font = "bold 9px sans-serif"; ctx.textAlign = "center"; ctx.textBaseline = "alphabetic";
    ctx.fillStyle = "rgba(0,0,0,0.5)";
    ctx.fillText(isPlayer ? "YOU" : "RIVAL", c.x + 1, c.y - 25);
    ctx.fillStyle = isPlayer ? "#8cc6ff" : "#ffb26b";
    ctx.fillText(isPlayer ? "YOU" : "RIVAL", c.x, c.y - 26);
  }

  function drawShadow(x, y) {
    var hgt = GY - y, k = Math.max(0.3, 1 - hgt / 250);
    ctx.fillStyle = "rgba(0,0,0," + (0.3 * k).toFixed(2) + ")";
    ctx.beginPath(); ctx.ellipse(x, GY + 2, 16 * k, 3.5 * k, 0, 0, Math.PI * 2); ctx.fill();
  }

  function drawBall() {
    var b = g.ball;
    drawShadow(b.x, b.y);
    ctx.save(); ctx.translate(b.x, b.y);
    ctx.rotate(b.x / BR);
    var grd = ctx.createRadialGradient(-4, -4, 2, 0, 0, BR);
    grd.addColorStop(0, "#ffffff"); grd.addColorStop(1, "#c9cfdc");
    ctx.fillStyle = grd; ctx.beginPath(); ctx.arc(0, 0, BR, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = "#2b2f3f";
    ctx.beginPath();
    for (var i = 0; i < 5; i++) { var a = i * Math.PI * 2 / 5; ctx.lineTo(Math.cos(a) * 4.5, Math.sin(a) * 4.5); }
    ctx.fill();
    for (var j = 0; j < 5; j++) {
      var a2 = j * Math.PI * 2 / 5 + Math.PI / 5;
      ctx.beginPath(); ctx.arc(Math.cos(a2) * 10.5, Math.sin(a2) * 10.5, 2.6, 0, Math.PI * 2); ctx.fill();
    }
    ctx.strokeStyle = "#5a6072"; ctx.lineWidth = 1; ctx.beginPath(); ctx.arc(0, 0, BR, 0, Math.PI * 2); ctx.stroke();
    ctx.restore();
  }

  function fmtClock() {
    var s = Math.ceil(Math.max(0, g.clock) / 60);
    return "0:" + (s < 10 ? "0" : "") + s;
  }

  function drawHud() {
    // scoreboard
    ctx.fillStyle = "rgba(8,10,26,0.92)"; ctx.fillRect(140, 0, 200, 34);
    ctx.fillStyle = "#2f6fe0"; ctx.fillRect(140, 0, 62, 34);
    ctx.fillStyle = "#e0701f"; ctx.fillRect(278, 0, 62, 34);
    ctx.textBaseline = "middle"; ctx.textAlign = "center";
    ctx.fillStyle = "#ffffff"; ctx.font = "bold 22px sans-serif";
    ctx.fillText(String(g.goals), 171, 18); ctx.fillText(String(g.against), 309, 18);
    ctx.font = "bold 18px monospace"; ctx.fillStyle = g.clock <= 300 ? "#ff6b6b" : "#ffffff";
    ctx.fillText(fmtClock(), 240, 14);
    ctx.font = "bold 8px sans-serif"; ctx.fillStyle = "#9fb0e0"; ctx.fillText("YOU  \u2022  RIVAL", 240, 28);
    // left: stats
    ctx.textAlign = "left"; ctx.font = "bold 11px sans-serif"; ctx.fillStyle = "#dfe6ff";
    ctx.fillText("TOUCHES " + g.touches, 8, 12);
    ctx.fillStyle = g.shotFlash > 0 ? "#ffe14a" : "#dfe6ff";
    ctx.fillText("SHOTS " + g.shots, 8, 26);
    ctx.textAlign = "right"; ctx.fillStyle = "#dfe6ff";
    ctx.fillText("SAVES " + g.saves, W - 8, 12);
    var lead = g.goals - g.against;
    ctx.fillText("LEAD " + (lead > 0 ? "+" : "") + lead, W - 8, 26);
    // boost meter (bottom right)
    var bx = W - 42, by = H - 20;
    ctx.fillStyle = "rgba(8,10,26,0.8)"; ctx.beginPath(); ctx.arc(bx, by, 17, 0, Math.PI * 2); ctx.fill();
    ctx.strokeStyle = "#3a3f5c"; ctx.lineWidth = 4; ctx.beginPath(); ctx.arc(bx, by, 14, 0, Math.PI * 2); ctx.stroke();
    ctx.strokeStyle = g.boost > 0 ? "#ffb02e" : "#3a3f5c";
    ctx.beginPath(); ctx.arc(bx, by, 14, -Math.PI / 2, -Math.PI / 2 + Math.PI * 2 * g.boost / 100); ctx.stroke();
    ctx.fillStyle = "#ffffff"; ctx.textAlign = "center"; ctx.font = "bold 11px sans-serif";
    ctx.fillText(String(Math.floor(g.boost)), bx, by + 1);
    ctx.fillStyle = "rgba(8,10,26,0.7)"; ctx.fillRect(bx - 80, by - 7, 50, 14);
    ctx.fillStyle = "#ffcf3a"; ctx.font = "bold 10px sans-serif"; ctx.fillText("BOOST", bx - 55, by + 1);
  }

  function banner(text, sub, col) {
    ctx.fillStyle = "rgba(6,8,22,0.72)"; ctx.fillRect(0, 112, W, 62);
    ctx.textAlign = "center"; ctx.textBaseline = "middle";
    ctx.font = "bold 30px sans-serif"; ctx.fillStyle = col; ctx.fillText(text, W / 2, 136);
    if (sub) { ctx.font = "bold 13px sans-serif"; ctx.fillStyle = "#ffffff"; ctx.fillText(sub, W / 2, 161); }
  }

  function draw() {
    drawStadium();
    drawGoal(true); drawGoal(false);
    drawPads();
    drawShadow(g.opp.x, g.opp.y); drawShadow(g.car.x, g.car.y);
    if (g.phase !== "goal") drawBall();
    if (g.ai.ghost && g.phase === "play") ctx.globalAlpha = 0.5;
    drawCar(g.opp, "#ff8a2a", "#8a3c08", false);
    ctx.globalAlpha = 1;
    drawCar(g.car, "#3d8bff", "#123f8c", true);
    drawLabel(g.opp, false); drawLabel(g.car, true);
    if (g.phase === "goal") {
      var t = GOAL_TICKS - g.timer, gx = g.lastScorer > 0 ? RW + 12 : LW - 12;
      for (var i = 0; i < 14; i++) {
        var a = i * Math.PI * 2 / 14, r = 6 + t * 2.2;
        ctx.fillStyle = i % 2 ? "#ffe14a" : (g.lastScorer > 0 ? "#4aa3ff" : "#ff8a2a");
        ctx.beginPath(); ctx.arc(gx + Math.cos(a) * r, g.ball.y + Math.sin(a) * r, 4, 0, Math.PI * 2); ctx.fill();
      }
    }
    drawHud();
    if (g.phase === "goal") banner(g.lastScorer > 0 ? "GOAL!" : "RIVAL SCORES", (g.goals + " - " + g.against), g.lastScorer > 0 ? "#5fb8ff" : "#ff9a4a");
    else if (g.phase === "kickoff") banner(g.timer > 12 ? "READY" : "GO!", "ArrowLeft/Right drive \u2022 Up/Space jump \u2022 X/Shift boost", "#ffe14a");
    if (g.beaten) banner("BEATEN", "The rival leads by " + MERCY + ": " + g.goals + " - " + g.against, "#ff6b6b");
    else if (g.over) banner(g.outcome === "win" ? "YOU WIN!" : "FULL TIME", "Final score " + g.goals + " - " + g.against, g.outcome === "win" ? "#5fff9a" : "#ff6b6b");
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

  window.addEventListener("keydown", function (e) {
    if (!(e.code in KEYS)) return;
    e.preventDefault();
    if ((e.code === "ArrowUp" || e.code === "Space") && !held[e.code]) jumpQueued = true;
    held[e.code] = true;
  });
  window.addEventListener("keyup", function (e) {
    if (e.code in KEYS) held[e.code] = false;
  });

  window.gameAPI = {
    getState: function () {
      var c = g.car, b = g.ball, o = g.opp;
      return {
        status: g.over ? "terminal" : "playing",
        actionable: true,
        terminal: { is_terminal: g.over, outcome: g.over ? g.outcome : null,
                    reason: g.beaten ? "the rival leads by " + MERCY : g.over ? "full time " + g.goals + "-" + g.against : null },
        score: g.goals,
        goals: g.goals,
        goals_against: g.against,
        lead: g.goals - g.against,
        touches: g.touches,
        shots: g.shots,
        saves: g.saves,
        boost: Math.floor(g.boost),
        ball_x: Math.round(b.x), ball_y: Math.round(b.y),
        ball_vx: Math.round(b.vx * 10), ball_vy: Math.round(b.vy * 10),
        car_x: Math.round(c.x), car_y: Math.round(c.y),
        car_vx: Math.round(c.vx * 10), car_vy: Math.round(c.vy * 10),
        car_grounded: c.grounded ? 1 : 0,
        car_jumps: c.jumps,
        car_face: c.face,
        opp_x: Math.round(o.x), opp_y: Math.round(o.y),
        time_left: Math.ceil(Math.max(0, g.clock) / 60),
        phase: g.phase
      };
    },
    reset: function () {
      held = {};
      jumpQueued = false;
      newGame();
      acc = 0;
      draw();
    }
  };

  newGame();
  draw();
  requestAnimationFrame(frame);
})();
