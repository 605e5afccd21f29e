// Desert Dash: a desert endless runner for GameWorld.
// Logic runs in fixed ticks of 1000/60 ms counted from the clock time at which the run started:
// every animation frame, every input event and every getState() first runs the ticks that are due
// by performance.now(), so the state at a given clock time never depends on when frames happened to
// fire. Chance comes only from Math.random (drawn when an obstacle is spawned).
(() => {
  "use strict";
  const W = 600, H = 200;
  const GROUND = 170;              // screen y of the ground line
  const PX = 56;                   // runner hitbox left edge (screen x)
  const STAND = { w: 30, h: 42 };  // runner hitbox standing / jumping
  const DUCK = { w: 40, h: 26 };   // runner hitbox ducking
  const GRAV = 0.45;               // px per tick^2
  const JUMP_V = 9.5;              // px per tick at take-off
  const CUT_V = 5;                 // releasing jump early caps the rise speed (short hop)
  const FAST_FALL = 0.9;           // extra gravity while ArrowDown is held in the air
  const SPEED0 = 300, SPEED_MAX = 720, ACCEL = 0.3;  // px/s, px/s gained per tick
  const PX_PER_M = 20;
  const KINDS = {
    cactus_small: { w: 17, h: 35, yb: 0 },
    cactus_tall: { w: 25, h: 50, yb: 0 },
    cactus_pair: { w: 36, h: 35, yb: 0 },
    cactus_trio: { w: 54, h: 35, yb: 0 },
    bird_low: { w: 40, h: 24, yb: 6 },
    bird_high: { w: 40, h: 26, yb: 34 },
  };

  const canvas = document.getElementById("game");
  const ctx = canvas.getContext("2d");
  let S = null;           // game state
  let best = 0;           // best distance since the page loaded or gameAPI.reset (HUD only)
  const keys = { jump: false, down: false };
  let jumpPressed = false;
  let startMs = 0, ticksDone = 0;   // clock time of the run's start, ticks run since then
  const TICKS_PER_MS = 0.06;

  function speedNow() { return Math.min(SPEED_MAX, SPEED0 + ACCEL * S.ticks); }

  function pickKind(m) {
    const table = [["cactus_small", 20], ["cactus_tall", 14], ["cactus_pair", 14], ["bird_high", 40]];
    if (m >= 60) { table.push(["cactus_trio", 10]); table.push(["bird_low", 10]); }
    let total = 0;
    for (const [, wt] of table) total += wt;
    let r = Math.random() * total;
    for (const [k, wt] of table) { if (r < wt) return k; r -= wt; }
    return table[table.length - 1][0];
  }

  function spawn() {
    const lastOb = S.obstacles[S.obstacles.length - 1];
    const kind = pickKind(Math.floor(S.dist / PX_PER_M));
    const gapT = 0.6 + 0.6 * Math.random();             // seconds of running between obstacles
    const x = lastOb.x + lastOb.w + Math.max(260, speedNow() * gapT);
    S.obstacles.push({ kind, x, ...KINDS[kind], passed: false });
  }

  function newGame() {
    startMs = performance.now(); ticksDone = 0;
    S = {
      status: "playing", reason: null, ticks: 0, dist: 0, passed: 0,
      y: 0, vy: 0, ground: true, ducking: false, obstacles: [],
    };
    const first = pickKind(0);
    S.obstacles.push({ kind: first, x: 480 + Math.floor(60 * Math.random()), ...KINDS[first], passed: false });
    while (S.obstacles[S.obstacles.length - 1].x < W + 240) spawn();
  }

  function box() {
    const d = S.ground && S.ducking ? DUCK : STAND;
    return { x0: PX, x1: PX + d.w, y0: S.y, y1: S.y + d.h };
  }

  function tick() {
    if (S.status !== "playing") { jumpPressed = false; return; }
    S.ticks++;
    if (jumpPressed && S.ground) { S.vy = JUMP_V; S.ground = false; }
    jumpPressed = false;
    if (!S.ground) {
      if (!keys.jump && S.vy > CUT_V) S.vy = CUT_V;
      S.vy -= GRAV + (keys.down ? FAST_FALL : 0);
      S.y += S.vy;
      if (S.y <= 0) { S.y = 0; S.vy = 0; S.ground = true; }
    }
    S.ducking = S.ground && keys.down;

    const move = speedNow() / 60;
    S.dist += move;
    for (const o of S.obstacles) o.x -= move;
    const b = box();
    for (const o of S.obstacles) {
      if (!o.passed && o.x + o.w <= PX) { o.passed = true; S.passed++; }
      if (o.x < b.x1 && o.x + o.w > b.x0 && o.yb < b.y1 && o.yb + o.h > b.y0) {
        S.status = "terminal";
        S.reason = o.kind.startsWith("bird") ? "hit a bird" : "ran into a cactus";
        best = Math.max(best, Math.floor(S.dist / PX_PER_M));
        return;
      }
    }
    while (S.obstacles.length && S.obstacles[0].x + S.obstacles[0].w < -20) S.obstacles.shift();
    while (S.obstacles[S.obstacles.length - 1].x < W + 240) spawn();
  }

  function nextObstacle() {
    for (const o of S.obstacles) if (!o.passed) return o;
    return null;
  }

  // ---------------------------------------------------------------- input
  const JUMP_CODES = ["Space", "ArrowUp"];
  window.addEventListener("keydown", (e) => {
    catchUp();
    if (JUMP_CODES.includes(e.code) || e.code === "ArrowDown") e.preventDefault();
    if (e.code === "Enter" && S.status === "terminal") { newGame(); return; }
    if (S.status !== "playing") return;
    if (JUMP_CODES.includes(e.code)) { if (!e.repeat && !keys.jump) jumpPressed = true; keys.jump = true; }
    if (e.code === "ArrowDown") keys.down = true;
  });
  window.addEventListener("keyup", (e) => {
    catchUp();
    if (JUMP_CODES.includes(e.code)) keys.jump = false;
    if (e.code === "ArrowDown") keys.down = false;
  });

  // ---------------------------------------------------------------- drawing
  function hash(n) {  // deterministic decoration noise, not game logic
    let t = (n * 2654435761) >>> 0;
    t = Math.imul(t ^ (t >>> 15), 2246822507) >>> 0;
    t = Math.imul(t ^ (t >>> 13), 3266489909) >>> 0;
    return ((t ^ (t >>> 16)) >>> 0) / 4294967296;
  }

  function drawBackground() {
    const sky = ctx.createLinearGradient(0, 0, 0, GROUND);
    sky.addColorStop(0, "#f6b26b");
    sky.addColorStop(0.55, "#fbd38d");
    sky.addColorStop(1, "#fde9c4");
    ctx.fillStyle = sky;
    ctx.fillRect(0, 0, W, GROUND);
    // sun
    ctx.fillStyle = "rgba(255,246,214,0.55)";
    ctx.beginPath(); ctx.arc(470, 62, 30, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = "#fff3c4";
    ctx.beginPath(); ctx.arc(470, 62, 21, 0, Math.PI * 2); ctx.fill();
    // far mesas (slow parallax)
    const far = S.dist * 0.15;
    ctx.fillStyle = "#e59866";
    for (let i = Math.floor(far / 170) - 1; i < Math.floor(far / 170) + 5; i++) {
      const x = i * 170 - far + hash(i) * 60;
      const w = 70 + hash(i + 99) * 70, h = 22 + hash(i + 7) * 26;
      ctx.beginPath();
      ctx.moveTo(x, GROUND - 12);
      ctx.lineTo(x + 12, GROUND - 12 - h);
      ctx.lineTo(x + w - 12, GROUND - 12 - h);
      ctx.lineTo(x + w, GROUND - 12);
      ctx.fill();
    }
    // near dunes
    const near = S.dist * 0.4;
    ctx.fillStyle = "#f0c27b";
    for (let i = Math.floor(near / 120) - 1; i < Math.floor(near / 120) + 7; i++) {
      const x = i * 120 - near;
      const h = 10 + hash(i + 31) * 14;
      ctx.beginPath();
      ctx.ellipse(x + 60, GROUND, 80, h, 0, Math.PI, 0);
      ctx.fill();
    }
    // clouds
    const cl = S.dist * 0.08;
    ctx.fillStyle = "rgba(255,255,255,0.75)";
    for (let i = Math.floor(cl / 230) - 1; i < Math.floor(cl / 230) + 4; i++) {
      const x = i * 230 - cl + hash(i + 5) * 80, y = 22 + hash(i + 17) * 40;
      ctx.beginPath();
      ctx.ellipse(x, y, 26, 8, 0, 0, Math.PI * 2);
      ctx.ellipse(x + 16, y - 5, 16, 8, 0, 0, Math.PI * 2);
      ctx.fill();
    }
    // ground
    ctx.fillStyle = "#e3b36b";
    ctx.fillRect(0, GROUND, W, H - GROUND);
    ctx.fillStyle = "#b9803f";
    ctx.fillRect(0, GROUND, W, 2);
    const g = S.dist;
    for (let i = Math.floor(g / 37); i < Math.floor(g / 37) + 18; i++) {
      const x = i * 37 - g + hash(i) * 30, y = GROUND + 6 + hash(i + 3) * 20;
      ctx.fillStyle = hash(i + 11) < 0.5 ? "#c8924d" : "#f3cf8e";
      ctx.fillRect(Math.round(x), Math.round(y), 2 + Math.floor(hash(i + 4) * 4), 2);
    }
  }

  function drawCactus(x, w, h) {
    const n = w > 40 ? 3 : w > 30 ? 2 : 1;
    const cw = w / n;
    for (let i = 0; i < n; i++) {
      const cx = Math.round(x + i * cw), right = Math.round(x + (i + 1) * cw);
      const hh = h;
      const top = GROUND - hh;
      const trunk = Math.max(7, Math.round(cw * 0.5));
      const tx = Math.round(cx + (right - cx - trunk) / 2);
      const arm = Math.max(3, Math.round(trunk * 0.45));
      const ay = top + Math.round(hh * 0.3), ah = Math.round(hh * 0.3);
      ctx.fillStyle = "#2f8f46";
      // left arm: out, then up
      ctx.fillRect(cx, ay + ah - arm, tx - cx, arm);
      ctx.fillRect(cx, ay, arm, ah);
      // right arm: a little higher
      ctx.fillRect(tx + trunk, ay + ah - arm - 6, right - tx - trunk, arm);
      ctx.fillRect(right - arm, ay - 6, arm, ah);
      // trunk with a rounded top
      ctx.fillRect(tx, top + 3, trunk, hh - 3);
      ctx.fillRect(tx + 2, top, trunk - 4, 3);
      // light and shade stripes, spines
      ctx.fillStyle = "#5cc66f";
      ctx.fillRect(tx + 2, top + 3, 2, hh - 6);
      ctx.fillRect(cx + 1, ay + 1, 1, ah - arm);
      ctx.fillStyle = "#1d6b33";
      ctx.fillRect(tx + trunk - 2, top + 3, 2, hh - 3);
      ctx.fillStyle = "#d9f2b0";
      for (let k = top + 6; k < GROUND - 4; k += 7) ctx.fillRect(tx + (k % 2 ? 1 : trunk - 3), k, 1, 1);
    }
  }

  function drawBird(o) {
    const x = Math.round(o.x), y = GROUND - o.yb - o.h;   // top-left of the bird's box
    const up = Math.floor(S.ticks / 9) % 2 === 0;
    const cy = y + Math.round(o.h / 2);
    ctx.fillStyle = "#5b2f6e";
    ctx.fillRect(x + 8, cy - 4, 24, 9);          // body
    ctx.fillRect(x + 2, cy - 6, 10, 8);          // head
    ctx.fillRect(x + 30, cy - 3, 10, 4);         // tail
    ctx.fillStyle = "#f2a93b";
    ctx.fillRect(x - 4, cy - 3, 7, 3);           // beak
    ctx.fillStyle = "#fff";
    ctx.fillRect(x + 4, cy - 5, 3, 3);
    ctx.fillStyle = "#111";
    ctx.fillRect(x + 4, cy - 4, 2, 2);
    ctx.fillStyle = "#8e5aa0";
    ctx.beginPath();
    if (up) { ctx.moveTo(x + 12, cy - 3); ctx.lineTo(x + 26, cy - 3); ctx.lineTo(x + 22, y - 4); }
    else { ctx.moveTo(x + 12, cy + 3); ctx.lineTo(x + 26, cy + 3); ctx.lineTo(x + 22, y + o.h + 4); }
    ctx.fill();
  }

  function drawRunner() {
    const x = PX - 4, baseY = GROUND - Math.round(S.y);
    const duck = S.ground && S.ducking;
    const dead = S.status === "terminal";
    const body = "#2b7a8c", belly = "#9fe3d0", dark = "#17505d";
    const step = S.ground ? Math.floor(S.ticks / 5) % 2 : 2;
    const shadow = Math.max(6, 18 - Math.round(S.y / 8));
    ctx.fillStyle = "rgba(120,70,20,0.25)";
    ctx.beginPath(); ctx.ellipse(PX + 14, GROUND + 2, shadow, 3, 0, 0, Math.PI * 2); ctx.fill();
    if (duck) {
      ctx.fillStyle = body;
      ctx.fillRect(x, baseY - 22, 38, 14);      // body
      ctx.fillRect(x + 30, baseY - 26, 18, 12); // head
      ctx.fillStyle = belly;
      ctx.fillRect(x + 6, baseY - 12, 24, 4);
      ctx.fillStyle = "#fff";
      ctx.fillRect(x + 40, baseY - 24, 4, 4);
      ctx.fillStyle = "#111";
      ctx.fillRect(x + 42, baseY - 23, 2, 2);
      ctx.fillStyle = body;
      ctx.fillRect(x - 8, baseY - 20, 9, 5);    // tail
      ctx.fillStyle = dark;
      ctx.fillRect(x + 8 + (step === 0 ? 0 : 8), baseY - 8, 5, 8);
      ctx.fillRect(x + 22 - (step === 0 ? 0 : 8), baseY - 8, 5, 8);
      return;
    }
    ctx.fillStyle = body;
    ctx.fillRect(x - 8, baseY - 26, 10, 6);     // tail
    ctx.fillRect(x + 2, baseY - 32, 22, 22);    // body
    ctx.fillRect(x + 16, baseY - 46, 20, 16);   // head
    ctx.fillRect(x + 18, baseY - 32, 8, 6);     // neck
    ctx.fillStyle = belly;
    ctx.fillRect(x + 8, baseY - 26, 12, 12);
    ctx.fillStyle = "#e8553f";
    ctx.fillRect(x + 16, baseY - 48, 8, 3);     // bandana
    ctx.fillRect(x + 10, baseY - 47, 7, 3);
    ctx.fillStyle = "#fff";
    ctx.fillRect(x + 26, baseY - 43, 5, 5);
    ctx.fillStyle = "#111";
    if (dead) { ctx.fillRect(x + 26, baseY - 43, 5, 1); ctx.fillRect(x + 26, baseY - 39, 5, 1); }
    else ctx.fillRect(x + 29, baseY - 42, 2, 3);
    ctx.fillStyle = dark;
    ctx.fillRect(x + 24, baseY - 26, 6, 3);     // arm
    if (step === 2) { ctx.fillRect(x + 6, baseY - 10, 5, 8); ctx.fillRect(x + 16, baseY - 10, 5, 8); }
    else if (step === 0) { ctx.fillRect(x + 6, baseY - 10, 5, 10); ctx.fillRect(x + 16, baseY - 10, 5, 5); }
    else { ctx.fillRect(x + 6, baseY - 10, 5, 5); ctx.fillRect(x + 16, baseY - 10, 5, 10); }
  }

  function pad(n, len) { return String(n).padStart(len, "0"); }

  function drawHud() {
    const m = Math.floor(S.dist / PX_PER_M);
    ctx.font = "bold 16px monospace";
    ctx.textBaseline = "top";
    ctx.textAlign = "right";
    ctx.fillStyle = "rgba(90,50,20,0.55)";
    ctx.fillText("HI " + pad(Math.max(best, 0), 4), W - 100, 8);
    ctx.fillStyle = "#5a2d0c";
    ctx.fillText(pad(m, 4) + " m", W - 10, 8);
    ctx.textAlign = "left";
    ctx.font = "bold 12px monospace";
    ctx.fillStyle = "#5a2d0c";
    ctx.fillText("PASSED " + S.passed, 10, 8);
    ctx.fillText("SPEED " + Math.round(speedNow() / PX_PER_M) + " m/s", 10, 24);
    if (S.status === "playing" && S.ticks < 110) {
      ctx.textAlign = "center";
      ctx.font = "bold 13px monospace";
      ctx.fillStyle = "rgba(90,45,12,0.85)";
      ctx.fillText("SPACE jump    \u2193 duck", W / 2, 52);
    }
    if (S.status === "terminal") {
      ctx.fillStyle = "rgba(60,25,5,0.45)";
      ctx.fillRect(0, 0, W, H);
      ctx.textAlign = "center";
      ctx.fillStyle = "#fff3c4";
      ctx.font = "bold 28px monospace";
      ctx.fillText("CRASH!", W / 2, 52);
      ctx.font = "bold 14px monospace";
      ctx.fillText("You " + S.reason + " after " + m + " m", W / 2, 90);
      ctx.font = "12px monospace";
      ctx.fillText("press Enter to run again", W / 2, 114);
    }
  }

  function draw() {
    drawBackground();
    for (const o of S.obstacles) {
      if (o.x > W + 10 || o.x + o.w < -10) continue;
      if (o.kind.startsWith("bird")) drawBird(o); else drawCactus(Math.round(o.x), o.w, o.h);
    }
    drawRunner();
    drawHud();
  }

  // The sandbox runs much of a step's game time unseen and sets window.__gameworld.rendering to false
  // meanwhile: skip the drawing then (never the logic). A plain browser has no __gameworld: always draw.
  function rendering() {
    const gw = window.__gameworld;
    return !(gw && gw.rendering === false);
  }

  // Run the ticks due by now (1e-6 absorbs float error when now - startMs is a whole number of ticks).
  function catchUp() {
    const due = Math.floor((performance.now() - startMs) * TICKS_PER_MS + 1e-6);
    if (due - ticksDone > 600) ticksDone = due - 600;   // a long-hidden tab: do not freeze for ages
    if (due <= ticksDone) return false;
    while (ticksDone < due) { ticksDone++; tick(); }
    return true;
  }

  function frame() {
    catchUp();
    if (rendering()) draw();
    requestAnimationFrame(frame);
  }

  window.gameAPI = {
    getState() {
      if (catchUp() && rendering()) draw();
      const o = nextObstacle();
      const term = S.status === "terminal";
      return {
        status: S.status,
        actionable: S.status === "playing",
        terminal: { is_terminal: term, outcome: term ? "lose" : null, reason: term ? S.reason : null },
        score: Math.floor(S.dist / PX_PER_M),
        obstacles_passed: S.passed,
        speed: Math.round(speedNow()),
        player_y: Math.round(S.y),
        ducking: S.ground && S.ducking,
        next_obstacle_distance: o ? Math.round(o.x - (PX + STAND.w)) : null,
        next_obstacle_kind: o ? o.kind : null,
      };
    },
    reset(options) {
      keys.jump = false; keys.down = false; jumpPressed = false;
      best = 0;   // a reset starts afresh: its first frame is the same as a new page's
      newGame();
      draw();   // the frame read right after a reset shows the new run, not the crash
    },
  };

  newGame();
  draw();
  requestAnimationFrame(frame);
})();
