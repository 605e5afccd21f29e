// Flutter: a one-button flapper for GameWorld (Flappy Bird-style).
// Logic runs in fixed ticks of 1000/60 ms counted from the clock time at which the attempt started:
// every animation frame, every key event and every getState() first runs the ticks that are due by
// performance.now(), so the state at a given clock time never depends on when frames fired.
// Chance comes only from Math.random (one draw for each pipe, when it is spawned).
(() => {
  "use strict";
  const W = 480, H = 360;
  const GROUND = 320;              // screen y of the ground's top edge
  const BX = 110;                  // bird centre x (fixed; the world scrolls)
  const R = 9;                     // bird hitbox half size (an 18x18 box; the sprite is a little larger)
  const Y0 = 150;                  // bird centre y at the start
  const GRAV = 0.3;                // px per tick^2
  const FLAP_V = 5;                // px per tick upward, set by a flap
  const MAX_FALL = 8;              // px per tick
  const SPEED = 2.5;               // scroll, px per tick
  const PIPE_W = 52, GAP = 110, SPACING = 170;   // pipe width, gap height, left-edge to left-edge
  const FIRST_X = 480;             // left edge of the first pipe at the start
  const CMIN = 95, CMAX = 225, DELTA = 70;       // gap centre range; most it moves between pipes
  const TICKS_PER_MS = 0.06;

  const canvas = document.getElementById("game");
  const ctx = canvas.getContext("2d");
  let S = null;
  let flapPressed = false;
  let startMs = 0, ticksDone = 0;

  function randInt(lo, hi) { return lo + Math.floor(Math.random() * (hi - lo + 1)); }

  function spawnPipe() {
    const last = S.pipes.length ? S.pipes[S.pipes.length - 1] : null;
    let c;
    if (!last) c = randInt(CMIN, CMAX);      // the first gap may be at any height
    else c = Math.max(CMIN, Math.min(CMAX, last.c + randInt(-DELTA, DELTA)));
    S.pipes.push({ x: last ? last.x + SPACING : FIRST_X, c, top: c - GAP / 2, bottom: c + GAP / 2,
                   passed: false, n: S.spawned++ });
  }

  function newGame() {
    startMs = performance.now(); ticksDone = 0;
    S = { status: "playing", reason: null, ticks: 0, scroll: 0, score: 0, flaps: 0,
          y: Y0, vy: 0, sinceFlap: 99, pipes: [], spawned: 0, flash: 0, pop: 0, deadTicks: 0,
          puffs: [] };
    while (S.pipes.length < 4) spawnPipe();
  }

  function hits(p) {
    if (p.x >= BX + R || p.x + PIPE_W <= BX - R) return false;
    return S.y - R < p.top || S.y + R > p.bottom;
  }

  function die(reason) {
    S.status = "terminal";
    S.reason = reason;
    S.flash = 10;
  }

  function tick() {
    S.ticks++;
    if (S.flash > 0) S.flash--;
    if (S.pop > 0) S.pop--;
    for (const f of S.puffs) { f.x -= f.vx; f.y += f.vy; f.life--; }
    S.puffs = S.puffs.filter((f) => f.life > 0);
    if (S.status !== "playing") {
      // the crashed bird tumbles to the ground (looks only: the attempt is over)
      flapPressed = false;
      S.deadTicks++;
      if (S.y + R < GROUND) { S.vy = Math.min(MAX_FALL, S.vy + GRAV); S.y = Math.min(GROUND - R, S.y + S.vy); }
      return;
    }
    if (flapPressed) {
      S.vy = -FLAP_V; S.sinceFlap = 0; S.flaps++;
      S.puffs.push({ x: BX - 12, y: S.y + 4, vx: 1.5, vy: 0.6, life: 14 });
    }
    flapPressed = false;
    S.sinceFlap++;
    S.vy = Math.min(MAX_FALL, S.vy + GRAV);
    S.y += S.vy;
    if (S.y < R) { S.y = R; S.vy = 0; }
    if (S.y + R >= GROUND) { S.y = GROUND - R; die("hit the ground"); return; }
    S.scroll += SPEED;
    for (const p of S.pipes) p.x -= SPEED;
    for (const p of S.pipes) if (hits(p)) { die("hit a pipe"); return; }
    for (const p of S.pipes) {
      if (!p.passed && p.x + PIPE_W < BX - R) { p.passed = true; S.score++; S.pop = 18; }
    }
    while (S.pipes.length && S.pipes[0].x + PIPE_W < -10) S.pipes.shift();
    while (S.pipes.length < 4) spawnPipe();
  }

  function upcoming(k) {
    let i = 0;
    for (const p of S.pipes) { if (!p.passed) { if (i === k) return p; i++; } }
    return null;
  }

  // ---------------------------------------------------------------- input
  window.addEventListener("keydown", (e) => {
    catchUp();
    if (e.code === "Space" || e.code === "ArrowUp") e.preventDefault();
    if (e.code === "Enter" && S.status === "terminal") { newGame(); draw(); return; }
    if (S.status !== "playing") return;
    if ((e.code === "Space" || e.code === "ArrowUp") && !e.repeat) flapPressed = true;
  });
  window.addEventListener("keyup", () => { catchUp(); });

  // ---------------------------------------------------------------- drawing
  function hash(n) {  // deterministic decoration noise (not game logic)
    let t = (n * 2654435761) >>> 0;
    t = Math.imul(t ^ (t >>> 15), 2246822507) >>> 0;
    t = Math.imul(t ^ (t >>> 13), 3266489909) >>> 0;
    return ((t ^ (t >>> 16)) >>> 0) / 4294967296;
  }

  let skyGrad = null, groundGrad = null;
  function drawBackground() {
    if (!skyGrad) {
      skyGrad = ctx.createLinearGradient(0, 0, 0, GROUND);
      skyGrad.addColorStop(0, "#3fa7d6");
      skyGrad.addColorStop(0.6, "#8fd3ef");
      skyGrad.addColorStop(1, "#d8f1f7");
      groundGrad = ctx.createLinearGradient(0, GROUND, 0, H);
      groundGrad.addColorStop(0, "#e2c47c");
      groundGrad.addColorStop(1, "#c79a4f");
    }
    ctx.fillStyle = skyGrad;
    ctx.fillRect(0, 0, W, GROUND);
    // clouds (slow)
    const cl = S.scroll * 0.12;
    for (let i = Math.floor(cl / 160) - 1; i < Math.floor(cl / 160) + 5; i++) {
      const x = i * 160 - cl + hash(i) * 60, y = 40 + hash(i + 9) * 70, s = 0.8 + hash(i + 3) * 0.6;
      ctx.fillStyle = "rgba(255,255,255,0.85)";
      ctx.beginPath();
      ctx.ellipse(x, y, 34 * s, 12 * s, 0, 0, Math.PI * 2);
      ctx.ellipse(x + 18 * s, y - 9 * s, 20 * s, 13 * s, 0, 0, Math.PI * 2);
      ctx.ellipse(x - 14 * s, y - 5 * s, 16 * s, 10 * s, 0, 0, Math.PI * 2);
      ctx.fill();
    }
    // far city (medium)
    const ct = S.scroll * 0.3;
    for (let i = Math.floor(ct / 34) - 1; i < Math.floor(ct / 34) + 16; i++) {
      const x = Math.round(i * 34 - ct), h = 40 + Math.floor(hash(i + 51) * 60), w = 30;
      ctx.fillStyle = "#a9d9c9";
      ctx.fillRect(x, GROUND - 26 - h, w, h + 26);
      ctx.fillStyle = "#cdeee2";
      for (let wy = GROUND - 20 - h; wy < GROUND - 30; wy += 10) {
        for (let wx = x + 5; wx < x + w - 6; wx += 8) ctx.fillRect(wx, wy, 4, 5);
      }
    }
    // bushes (faster)
    const bu = S.scroll * 0.55;
    ctx.fillStyle = "#5cbf60";
    for (let i = Math.floor(bu / 48) - 1; i < Math.floor(bu / 48) + 12; i++) {
      const x = i * 48 - bu, r = 18 + hash(i + 77) * 12;
      ctx.beginPath(); ctx.arc(x, GROUND - 4, r, Math.PI, 0); ctx.fill();
    }
    ctx.fillStyle = "#48a84f";
    ctx.fillRect(0, GROUND - 8, W, 8);
  }

  function drawGround() {
    ctx.fillStyle = groundGrad;
    ctx.fillRect(0, GROUND, W, H - GROUND);
    ctx.fillStyle = "#73c44a";
    ctx.fillRect(0, GROUND, W, 8);
    ctx.fillStyle = "#5aa338";
    const off = S.scroll % 24;
    for (let x = -off - 24; x < W + 24; x += 24) {
      ctx.beginPath();
      ctx.moveTo(x, GROUND + 8); ctx.lineTo(x + 12, GROUND + 8); ctx.lineTo(x + 18, GROUND); ctx.lineTo(x + 6, GROUND);
      ctx.fill();
    }
    ctx.fillStyle = "#8a6a2f";
    ctx.fillRect(0, GROUND + 8, W, 2);
    ctx.fillStyle = "rgba(120,85,30,0.35)";
    for (let i = 0; i < 18; i++) {
      const x = ((i * 53 - S.scroll) % (W + 40) + W + 40) % (W + 40) - 20;
      ctx.fillRect(Math.round(x), GROUND + 16 + (i % 3) * 10, 10, 3);
    }
  }

  function drawPipeBody(x, y0, y1) {
    const g = ctx.createLinearGradient(x, 0, x + PIPE_W, 0);
    g.addColorStop(0, "#3e8e2f");
    g.addColorStop(0.25, "#9ee06a");
    g.addColorStop(0.6, "#5cb83c");
    g.addColorStop(1, "#2f6e24");
    ctx.fillStyle = g;
    ctx.fillRect(x + 3, y0, PIPE_W - 6, y1 - y0);
    ctx.fillStyle = "#24541b";
    ctx.fillRect(x + 3, y0, 2, y1 - y0);
    ctx.fillRect(x + PIPE_W - 5, y0, 2, y1 - y0);
  }

  function drawLip(x, y) {
    const g = ctx.createLinearGradient(x - 3, 0, x + PIPE_W + 3, 0);
    g.addColorStop(0, "#3e8e2f");
    g.addColorStop(0.25, "#b5ef82");
    g.addColorStop(0.6, "#62c242");
    g.addColorStop(1, "#2f6e24");
    ctx.fillStyle = g;
    ctx.fillRect(x - 3, y, PIPE_W + 6, 22);
    ctx.strokeStyle = "#1f4a17";
    ctx.lineWidth = 2;
    ctx.strokeRect(x - 2, y + 1, PIPE_W + 4, 20);
  }

  function drawPipes() {
    for (const p of S.pipes) {
      const x = Math.round(p.x);
      if (x > W + 4 || x + PIPE_W < -4) continue;
      drawPipeBody(x, 0, p.top - 20);
      drawLip(x, p.top - 22);
      drawPipeBody(x, p.bottom + 20, GROUND);
      drawLip(x, p.bottom);
    }
  }

  function drawBird() {
    const dead = S.status === "terminal";
    const tilt = Math.max(-0.45, Math.min(1.3, S.vy * 0.16));
    ctx.save();
    ctx.translate(BX, Math.round(S.y));
    ctx.rotate(dead ? 1.4 : tilt);
    // body
    const g = ctx.createRadialGradient(-3, -4, 2, 0, 0, 14);
    g.addColorStop(0, "#fff3a6");
    g.addColorStop(0.55, "#ffd23f");
    g.addColorStop(1, "#f29f1b");
    ctx.fillStyle = g;
    ctx.beginPath(); ctx.ellipse(0, 0, 14, 11, 0, 0, Math.PI * 2); ctx.fill();
    ctx.strokeStyle = "#8a4b0c"; ctx.lineWidth = 1.5; ctx.stroke();
    // belly
    ctx.fillStyle = "#fff1c9";
    ctx.beginPath(); ctx.ellipse(2, 5, 8, 4.5, 0, 0, Math.PI * 2); ctx.fill();
    // wing: up just after a flap, then level, then down
    const phase = dead ? 1 : S.sinceFlap < 4 ? 0 : S.sinceFlap < 8 ? 1 : (Math.floor(S.ticks / 6) % 3 === 0 ? 2 : 1);
    const wy = [-7, -1, 4][phase];
    ctx.fillStyle = "#fbe6a2";
    ctx.beginPath(); ctx.ellipse(-6, wy, 7, phase === 1 ? 4 : 5, phase === 0 ? -0.5 : phase === 2 ? 0.5 : 0, 0, Math.PI * 2);
    ctx.fill(); ctx.strokeStyle = "#8a4b0c"; ctx.stroke();
    // eye
    ctx.fillStyle = "#fff";
    ctx.beginPath(); ctx.arc(6, -4, 4.5, 0, Math.PI * 2); ctx.fill();
    ctx.strokeStyle = "#5a3208"; ctx.lineWidth = 1; ctx.stroke();
    ctx.fillStyle = "#111";
    if (dead) {
      ctx.fillRect(4, -6, 5, 1.5); ctx.fillRect(4, -3, 5, 1.5);
    } else {
      ctx.fillRect(7, -5, 2.5, 3);
    }
    // beak
    ctx.fillStyle = "#f06a2a";
    ctx.beginPath(); ctx.moveTo(10, 0); ctx.lineTo(19, 2); ctx.lineTo(10, 5); ctx.closePath(); ctx.fill();
    ctx.fillStyle = "#c9481a";
    ctx.fillRect(10, 2, 8, 1);
    ctx.restore();
  }

  function drawPuffs() {
    for (const f of S.puffs) {
      ctx.fillStyle = "rgba(255,255,255," + (f.life / 18).toFixed(2) + ")";
      ctx.beginPath(); ctx.arc(f.x, f.y, 3 + (14 - f.life) * 0.3, 0, Math.PI * 2); ctx.fill();
    }
  }

  function outlined(text, x, y, size, fill) {
    ctx.font = "bold " + size + "px 'Trebuchet MS', Verdana, sans-serif";
    ctx.lineJoin = "round";
    ctx.lineWidth = Math.max(3, size / 6);
    ctx.strokeStyle = "#3b2209";
    ctx.strokeText(text, x, y);
    ctx.fillStyle = fill;
    ctx.fillText(text, x, y);
  }

  function medal(score) {
    if (score >= 14) return ["GOLD", "#ffd23f"];
    if (score >= 8) return ["SILVER", "#d9e2ea"];
    if (score >= 3) return ["BRONZE", "#d98b4a"];
    return null;
  }

  function drawHud() {
    ctx.textAlign = "center";
    ctx.textBaseline = "top";
    const s = S.pop > 0 ? 40 + Math.floor(S.pop / 3) : 40;
    outlined(String(S.score), W / 2, 14, s, "#ffffff");
    outlined("PIPES", W / 2, s + 16, 11, "#fff7d6");
    ctx.textAlign = "left";
    outlined("FLAPS " + S.flaps, 10, 10, 13, "#fff7d6");
    ctx.textAlign = "right";
    const m = medal(S.score);
    outlined(m ? m[0] + " MEDAL" : "NEXT MEDAL AT 3", W - 10, 10, 13, m ? m[1] : "#fff7d6");
    if (S.status === "playing" && S.ticks < 90) {
      ctx.textAlign = "center";
      outlined("SPACE to flap", W / 2, 76, 18, "#fff7d6");
      outlined("fly through the gaps", W / 2, 100, 13, "#fff7d6");
    }
    if (S.flash > 0) {
      ctx.fillStyle = "rgba(255,255,255," + (S.flash / 12).toFixed(2) + ")";
      ctx.fillRect(0, 0, W, H);
    }
    if (S.status === "terminal") {
      ctx.textAlign = "center";
      outlined("GAME OVER", W / 2, 78, 38, "#ff9a3c");
      // score card
      const x = W / 2 - 110, y = 130;
      ctx.fillStyle = "#3b2209";
      ctx.fillRect(x - 3, y - 3, 226, 96);
      ctx.fillStyle = "#f4e2b0";
      ctx.fillRect(x, y, 220, 90);
      ctx.fillStyle = "#e6cf8e";
      ctx.fillRect(x, y + 84, 220, 6);
      ctx.textAlign = "left";
      ctx.fillStyle = "#b5651d";
      ctx.font = "bold 13px 'Trebuchet MS', Verdana, sans-serif";
      ctx.fillText("MEDAL", x + 18, y + 10);
      ctx.textAlign = "right";
      ctx.fillText("PIPES", x + 202, y + 10);
      outlined(String(S.score), x + 202, y + 30, 30, "#ffffff");
      const m = medal(S.score);
      ctx.beginPath(); ctx.arc(x + 44, y + 52, 20, 0, Math.PI * 2);
      ctx.fillStyle = m ? m[1] : "#d9c48f"; ctx.fill();
      ctx.strokeStyle = "#8a6a2f"; ctx.lineWidth = 2; ctx.stroke();
      ctx.textAlign = "center";
      ctx.fillStyle = "#5a3a10";
      ctx.font = "bold 9px Verdana, sans-serif";
      ctx.fillText(m ? m[0] : "NONE", x + 44, y + 48);
      ctx.textAlign = "center";
      outlined("You " + S.reason + ".  Enter: fly again", W / 2, 236, 14, "#fff7d6");
    }
  }

  function draw() {
    // the canvas keeps its settings between draws: start every frame from the same ones
    ctx.lineJoin = "miter"; ctx.lineWidth = 1; ctx.textAlign = "left"; ctx.textBaseline = "top";
    drawBackground();
    drawPipes();
    drawGround();
    drawPuffs();
    drawBird();
    drawHud();
  }

  function rendering() {
    const gw = window.__gameworld;
    return !(gw && gw.rendering === false);
  }

  function catchUp() {
    const due = Math.floor((performance.now() - startMs) * TICKS_PER_MS + 1e-6);
    if (due - ticksDone > 600) ticksDone = due - 600;
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
      const a = upcoming(0), b = upcoming(1);
      const term = S.status === "terminal";
      return {
        status: S.status,
        actionable: S.status === "playing",
        terminal: { is_terminal: term, outcome: term ? "lose" : null, reason: term ? S.reason : null },
        score: S.score,
        bird_y: Math.round(S.y),
        bird_vy: Math.round(S.vy * 60),
        pipe_dx: a ? Math.round(a.x - BX) : null,
        gap_top: a ? a.top : null,
        gap_bottom: a ? a.bottom : null,
        next_gap_top: b ? b.top : null,
        next_gap_bottom: b ? b.bottom : null,
        flaps: S.flaps,
      };
    },
    reset() {
      flapPressed = false;
      newGame();
      draw();
    },
  };

  newGame();
  draw();
  requestAnimationFrame(frame);
})();
