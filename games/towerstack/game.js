// Tower Stack: drop the sliding block onto the tower; whatever hangs over the edge is cut off (Stack-style).
// Logic runs in fixed ticks of 1000/60 ms counted from the clock time at which the attempt started:
// every animation frame, every input event and every getState() first runs the ticks that are due by
// performance.now(). Horizontal positions are integers in quarter pixels (QP). Chance comes only from
// Math.random: how far from the tower each new block starts sliding, and its speed a step either side.
(() => {
  "use strict";
  const W = 480, H = 360, HUD_H = 40;
  const QP = 4;                        // quarter pixels per pixel
  const BASE_W = 150;                  // px, the width of the base and of the first block
  const BLOCK_H = 22;                  // px
  const DEPTH = 10;                    // px of the drawn top face
  const SPAWN_MIN = 40, SPAWN_SPREAD = 91;   // a new block starts 40-130 px to the side of the tower: several
                                             // steps' worth, so a drop timed by counting steps misses
  const RANGE = 130;                   // px: the block turns back this far from the tower
  const SPEED0 = 8, SPEED_MAX = 14, SPEED_EVERY = 4;   // QP per tick; +1 every 4 blocks
  const PERFECT = 8;                   // px: a drop this close (rounded) snaps into place, nothing cut
  const GROW = 6;                      // px regained by a perfect drop after 2 perfects in a row
  const TOWER_Y = 300;                 // screen y of the base's top face at camera 0
  const SLIDER_Y = 150;                // where the camera keeps the sliding block
  const TICKS_PER_MS = 0.06;

  const canvas = document.getElementById("game");
  const ctx = canvas.getContext("2d");
  let S = null;
  let startMs = 0, ticksDone = 0;

  function speedFor(height) { return Math.min(SPEED_MAX, SPEED0 + Math.floor(height / SPEED_EVERY)); }

  function spawn() {
    const top = S.blocks[S.blocks.length - 1];
    S.dir = S.height % 2 === 0 ? 1 : -1;            // even blocks come from the left, odd from the right
    const r = SPAWN_MIN + Math.floor(Math.random() * SPAWN_SPREAD);
    S.slider = { l: top.l - S.dir * r * QP, w: top.w };
    S.speed = speedFor(S.height) + Math.floor(Math.random() * 3) - 1;   // 15 px/s either side, drawn a block
  }

  function newGame() {
    startMs = performance.now(); ticksDone = 0;
    const l = (W / 2 - BASE_W / 2) * QP;
    S = { status: "playing", reason: null, ticks: 0, height: 0, perfects: 0, streak: 0, bestStreak: 0,
          blocks: [{ l, w: BASE_W * QP, hue: 200 }], slider: null, dir: 1, speed: SPEED0,
          debris: [], cam: 0, pop: 0, popText: "", lastOffset: null, fall: null };
    spawn();
  }

  function offset() { return S.slider.l - S.blocks[S.blocks.length - 1].l; }   // QP
  function offsetPx(d) { return Math.round(d / QP); }

  function drop() {
    const top = S.blocks[S.blocks.length - 1];
    const d = offset(), dp = offsetPx(d);
    const hue = (200 + 17 * (S.height + 1)) % 360;
    S.lastOffset = dp;
    if (Math.abs(dp) <= PERFECT) {
      S.perfects++; S.streak++; S.bestStreak = Math.max(S.bestStreak, S.streak);
      let w = top.w, l = top.l;
      if (S.streak >= 3 && w < BASE_W * QP) {                // a streak of perfects widens the tower
        const g = Math.min(GROW * QP, BASE_W * QP - w);
        w += g; l -= Math.floor(g / 2);
      }
      S.blocks.push({ l, w, hue });
      S.pop = 40; S.popText = S.streak >= 2 ? "PERFECT x" + S.streak : "PERFECT!";
    } else {
      S.streak = 0;
      const w = top.w - Math.abs(d);
      if (w <= 0) {                                             // missed the tower entirely
        S.fall = { l: S.slider.l, w: S.slider.w, y: 0, vy: 0, hue };
        S.status = "terminal"; S.reason = "the block missed the tower";
        return;
      }
      const l = Math.max(S.slider.l, top.l);
      S.blocks.push({ l, w, hue });
      // the overhang falls away
      const cutL = d > 0 ? top.l + top.w : S.slider.l;
      S.debris.push({ l: cutL, w: Math.abs(d), level: S.height + 1, y: 0, vy: 0, hue, life: 90 });
      S.pop = 24; S.popText = "-" + Math.abs(dp) + " px";
    }
    S.height++;
    spawn();
  }

  function tick() {
    S.ticks++;
    if (S.pop > 0) S.pop--;
    for (let i = S.debris.length - 1; i >= 0; i--) {
      const p = S.debris[i];
      p.vy += 0.5; p.y += p.vy;
      if (--p.life <= 0) S.debris.splice(i, 1);
    }
    const camTarget = Math.max(0, (S.height + 1) * BLOCK_H - (TOWER_Y - SLIDER_Y));
    if (S.cam < camTarget) S.cam = Math.min(camTarget, S.cam + 3);
    if (S.fall) { S.fall.vy += 0.5; S.fall.y += S.fall.vy; }
    if (S.status !== "playing") return;
    const top = S.blocks[S.blocks.length - 1];
    let rel = S.slider.l - top.l + S.dir * S.speed;
    if (rel > RANGE * QP) { rel = 2 * RANGE * QP - rel; S.dir = -1; }
    if (rel < -RANGE * QP) { rel = -2 * RANGE * QP - rel; S.dir = 1; }
    S.slider.l = top.l + rel;
  }

  // ---------------------------------------------------------------- input
  window.addEventListener("keydown", (e) => {
    catchUp();
    if (e.code === "Space" || e.code === "Enter") e.preventDefault();
    if (e.code === "Enter" && S.status === "terminal") { newGame(); draw(); return; }
    if (e.code === "Space" && !e.repeat && S.status === "playing") drop();
  });

  // ---------------------------------------------------------------- drawing
  function levelY(level) { return TOWER_Y - level * BLOCK_H + S.cam; }   // top face y of a level

  function drawBlock(lq, wq, level, hue, yShift, alpha) {
    const x = lq / QP, w = wq / QP, y = levelY(level) + (yShift || 0);
    if (y > H + 20 || y < -40) return;
    ctx.globalAlpha = alpha === undefined ? 1 : alpha;
    const front = ctx.createLinearGradient(0, y, 0, y + BLOCK_H);
    front.addColorStop(0, "hsl(" + hue + ",62%,56%)");
    front.addColorStop(1, "hsl(" + hue + ",58%,42%)");
    ctx.fillStyle = front;
    ctx.fillRect(x, y, w, BLOCK_H);
    ctx.fillStyle = "hsl(" + hue + ",70%,72%)";                 // top face
    ctx.beginPath();
    ctx.moveTo(x, y); ctx.lineTo(x + DEPTH, y - DEPTH); ctx.lineTo(x + w + DEPTH, y - DEPTH); ctx.lineTo(x + w, y);
    ctx.closePath(); ctx.fill();
    ctx.fillStyle = "hsl(" + hue + ",55%,32%)";                 // side face
    ctx.beginPath();
    ctx.moveTo(x + w, y); ctx.lineTo(x + w + DEPTH, y - DEPTH); ctx.lineTo(x + w + DEPTH, y + BLOCK_H - DEPTH);
    ctx.lineTo(x + w, y + BLOCK_H); ctx.closePath(); ctx.fill();
    ctx.fillStyle = "rgba(255,255,255,0.18)";
    ctx.fillRect(x, y, w, 2);
    ctx.globalAlpha = 1;
  }

  function drawBackground() {
    const lift = Math.min(1, S.cam / 600);
    const sky = ctx.createLinearGradient(0, 0, 0, H);
    sky.addColorStop(0, "hsl(" + (230 - 40 * lift) + ",45%," + (22 + 8 * lift) + "%)");
    sky.addColorStop(1, "hsl(" + (200 - 30 * lift) + ",50%," + (48 - 10 * lift) + "%)");
    ctx.fillStyle = sky;
    ctx.fillRect(0, 0, W, H);
    // drifting stars and clouds that scroll with the camera (decoration only)
    for (let i = 0; i < 30; i++) {
      const x = (i * 131 + 47) % W, y = ((i * 89 + 23) + S.cam * 0.3) % H;
      ctx.fillStyle = "rgba(255,255,255," + (0.15 + 0.5 * lift * (i % 3) / 2) + ")";
      ctx.fillRect(x, y, 2, 2);
    }
    ctx.fillStyle = "rgba(255,255,255,0.10)";
    for (let i = 0; i < 4; i++) {
      const x = (i * 150 + 40) % (W + 120) - 60, y = ((i * 97 + 60) + S.cam * 0.5) % (H + 60) - 30;
      ctx.beginPath();
      ctx.ellipse(x, y, 48, 12, 0, 0, Math.PI * 2);
      ctx.ellipse(x + 30, y - 8, 28, 10, 0, 0, Math.PI * 2);
      ctx.fill();
    }
    // ground
    const gy = TOWER_Y + BLOCK_H + S.cam;
    if (gy < H) {
      ctx.fillStyle = "#23304a";
      ctx.fillRect(0, gy, W, H - gy);
      ctx.fillStyle = "#35507a";
      ctx.fillRect(0, gy, W, 3);
    }
  }

  function drawHud() {
    ctx.fillStyle = "rgba(10,14,32,0.55)";
    ctx.fillRect(0, 0, W, HUD_H);
    ctx.textBaseline = "middle";
    ctx.textAlign = "center";
    ctx.fillStyle = "#ffffff";
    ctx.font = "bold 26px sans-serif";
    ctx.fillText(String(S.height), W / 2, 21);
    ctx.font = "bold 14px monospace";
    ctx.textAlign = "left";
    ctx.fillStyle = "#ffe08a";
    ctx.fillText("PERFECT " + S.perfects, 12, 14);
    ctx.fillStyle = "rgba(255,255,255,0.8)";
    ctx.fillText("STREAK  " + S.streak, 12, 30);
    ctx.textAlign = "right";
    ctx.fillText("WIDTH " + Math.floor(S.slider.w / QP) + " px", W - 12, 14);
    ctx.fillText("SPEED " + S.speed * 15 + " px/s", W - 12, 30);
    if (S.pop > 0 && S.status === "playing") {
      const perfect = S.popText.startsWith("PERFECT");
      ctx.textAlign = "center";
      ctx.font = "bold " + (perfect ? 22 : 16) + "px sans-serif";
      ctx.fillStyle = perfect ? "rgba(255,232,140," + Math.min(1, S.pop / 20) + ")"
                              : "rgba(255,170,170," + Math.min(1, S.pop / 12) + ")";
      ctx.fillText(S.popText, W / 2, levelY(S.height) + BLOCK_H + 24);
    }
    if (S.status === "playing" && S.height === 0 && S.ticks < 120) {
      ctx.textAlign = "center";
      ctx.font = "bold 13px monospace";
      ctx.fillStyle = "rgba(255,255,255,0.85)";
      ctx.fillText("SPACE: drop the block", W / 2, 62);
    }
  }

  function drawLose() {
    ctx.fillStyle = "rgba(8,8,24,0.55)";
    ctx.fillRect(0, 0, W, H);
    ctx.fillStyle = "rgba(20,16,40,0.9)";
    ctx.fillRect(90, 110, W - 180, 110);
    ctx.strokeStyle = "#ff7a8a"; ctx.lineWidth = 2;
    ctx.strokeRect(90, 110, W - 180, 110);
    ctx.textAlign = "center"; ctx.textBaseline = "middle";
    ctx.fillStyle = "#ff8f9d";
    ctx.font = "bold 28px monospace";
    ctx.fillText("TOWER TOPPLED", W / 2, 140);
    ctx.fillStyle = "#ffffff";
    ctx.font = "bold 15px monospace";
    ctx.fillText("Height " + S.height + "   Perfect " + S.perfects, W / 2, 172);
    ctx.font = "12px monospace";
    ctx.fillStyle = "rgba(255,255,255,0.75)";
    ctx.fillText("press Enter to build again", W / 2, 198);
  }

  function draw() {
    drawBackground();
    const first = Math.max(0, S.blocks.length - 24);
    for (let i = first; i < S.blocks.length; i++) {
      const b = S.blocks[i];
      drawBlock(b.l, b.w, i, b.hue);
    }
    if (S.status === "playing") {
      const hue = (200 + 17 * (S.height + 1)) % 360;
      drawBlock(S.slider.l, S.slider.w, S.height + 1, hue);
      if (S.pop > 0 && S.popText.startsWith("PERFECT")) {
        const b = S.blocks[S.blocks.length - 1], y = levelY(S.height);
        ctx.strokeStyle = "rgba(255,245,200," + (S.pop / 40).toFixed(2) + ")";
        ctx.lineWidth = 3;
        const grow = (40 - S.pop) / 3;
        ctx.strokeRect(b.l / QP - grow, y - DEPTH - grow, b.w / QP + DEPTH + 2 * grow, BLOCK_H + DEPTH + 2 * grow);
      }
    }
    for (const p of S.debris) drawBlock(p.l, p.w, p.level, p.hue, p.y, Math.min(1, p.life / 30));
    if (S.fall) drawBlock(S.fall.l, S.fall.w, S.height + 1, S.fall.hue, S.fall.y, 1);
    drawHud();
    if (S.status === "terminal") drawLose();
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
      const term = S.status === "terminal";
      const top = S.blocks[S.blocks.length - 1];
      return {
        status: S.status,
        actionable: S.status === "playing",
        terminal: { is_terminal: term, outcome: term ? "lose" : null, reason: term ? S.reason : null },
        score: S.height,
        height: S.height,
        perfects: S.perfects,
        streak: S.streak,
        best_streak: S.bestStreak,
        block_width: Math.floor(S.slider.w / QP),
        block_offset: offsetPx(offset()),
        block_direction: S.dir,
        slide_speed: S.speed * 15,
        tower_left: Math.floor(top.l / QP),
        last_offset: S.lastOffset,
      };
    },
    reset() {
      newGame();
      draw();   // the frame read right after a reset shows the new attempt, not the fallen tower
    },
  };

  newGame();
  draw();
  requestAnimationFrame(frame);
})();
