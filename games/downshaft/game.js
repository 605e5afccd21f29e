// Down Shaft: keep going down a shaft whose platforms rise toward a spiked ceiling (NS-Shaft-style).
// Left/Right walk (and steer while falling). Each row of the shaft has one safe stone platform and
// spiked traps; landing on spikes or touching the ceiling costs health, falling out of the bottom ends
// the attempt. A floor counts when the player steps down from one safe platform to the safe platform
// of the very next row. Logic runs in fixed ticks of 1000/60 ms counted from the clock time at which
// the attempt started; chance comes only from Math.random, drawn when a row is laid out.
(() => {
  "use strict";
  const W = 480, H = 360;
  const L = 16, R = 464;           // the shaft's inner walls
  const TOP = 46;                  // the ceiling spikes' tips
  const PW = 20, PH = 24;          // player box
  const MOVE = 3, GRAV = 0.25, MAX_FALL = 5;
  const RISE = 1.5;                // platforms rise, px per tick
  const ROW = 90;                  // rows are 90 px apart
  const SAFE_W = 70, TRAP_W = 70, SLAB = 10;
  const LEDGE_W = 280, LEDGE_Y = 280;
  const HP_MAX = 10, SPIKE_DMG = 4, CEIL_DMG = 3;
  const TICKS_PER_MS = 0.06;

  const canvas = document.getElementById("game");
  const ctx = canvas.getContext("2d");
  const held = { ArrowLeft: false, ArrowRight: false };
  let G = null;
  let startMs = 0, ticksDone = 0;

  function clampX(x, w) { return Math.max(L, Math.min(R - w, x)); }

  function addRow() {
    const k = G.nextRow++;
    const y = G.lowest + ROW;
    G.lowest = y;
    const prev = G.safeX;           // left edge of the previous row's safe platform
    let x;
    if (k === 1) {
      // just beyond the far end of the starting ledge
      x = G.side < 0 ? L + LEDGE_W + 20 + Math.floor(Math.random() * 30) : R - LEDGE_W - SAFE_W - 20 - Math.floor(Math.random() * 30);
      // traps under the ledge
      const a = G.side < 0 ? L + 20 : R - LEDGE_W + 20;
      G.plats.push({ row: k, x: a + Math.floor(Math.random() * 20), y, w: TRAP_W, spiked: true });
      G.plats.push({ row: k, x: a + 130 + Math.floor(Math.random() * 20), y, w: TRAP_W, spiked: true });
    } else {
      const d = 100 + Math.floor(Math.random() * 41);
      const dir = Math.random() < 0.5 ? -1 : 1;
      x = prev + dir * d;
      if (x < L || x + SAFE_W > R) x = prev - dir * d;
      x = clampX(x, SAFE_W);
      const t = clampX(prev - 20 + Math.floor(Math.random() * 41), TRAP_W);   // a trap right under the last one
      if (Math.abs(t - x) >= SAFE_W + 10) G.plats.push({ row: k, x: t, y, w: TRAP_W, spiked: true });
    }
    G.plats.push({ row: k, x, y, w: SAFE_W, spiked: false });
    G.safeX = x;
  }

  function newGame() {
    startMs = performance.now(); ticksDone = 0;
    const side = Math.random() < 0.5 ? -1 : 1;    // -1: the ledge hangs from the left wall
    const lx = side < 0 ? L : R - LEDGE_W;
    G = { status: "playing", reason: null, ticks: 0, side, hp: HP_MAX, floors: 0, last: 0, depth: 0,
          x: side < 0 ? L + 10 : R - 10 - PW, y: LEDGE_Y - PH, vy: 0, on: null, facing: -side,
          plats: [{ row: 0, x: lx, y: LEDGE_Y, w: LEDGE_W, spiked: false, ledge: true }],
          nextRow: 1, lowest: LEDGE_Y, safeX: lx, hurt: 0, pop: 0, sparks: [] };
    G.on = G.plats[0];
    while (G.lowest < H + ROW) addRow();
  }

  function overlapX(p) { return G.x + PW > p.x && G.x < p.x + p.w; }

  function hurt(n) {
    G.hp = Math.max(0, G.hp - n); G.hurt = 20;
    for (let k = 0; k < 6; k++) G.sparks.push({ x: G.x + PW / 2, y: G.y + PH / 2, vx: k - 2.5, vy: -2 - (k % 3), life: 20 });
  }

  function tick() {
    G.ticks++;
    if (G.hurt > 0) G.hurt--;
    if (G.pop > 0) G.pop--;
    for (const s of G.sparks) { s.x += s.vx; s.y += s.vy; s.vy += 0.3; s.life--; }
    G.sparks = G.sparks.filter((s) => s.life > 0);
    if (G.status !== "playing") return;
    for (const p of G.plats) p.y -= RISE;
    G.lowest -= RISE;
    G.depth += RISE;
    G.plats = G.plats.filter((p) => p.y > -20);
    while (G.lowest < H + ROW) addRow();

    const dx = (held.ArrowRight ? MOVE : 0) - (held.ArrowLeft ? MOVE : 0);
    if (dx) G.facing = dx > 0 ? 1 : -1;
    G.x = clampX(G.x + dx, PW);
    if (G.on) {
      if (!G.plats.includes(G.on) || !overlapX(G.on)) { G.on = null; G.vy = 0; }
      else G.y = G.on.y - PH;
    }
    if (!G.on) {
      const oy = G.y;
      G.vy = Math.min(MAX_FALL, G.vy + GRAV);
      G.y += G.vy;
      for (const p of G.plats) {
        if (overlapX(p) && oy + PH <= p.y + RISE && G.y + PH >= p.y) {
          G.y = p.y - PH; G.vy = 0; G.on = p;
          if (p.spiked) hurt(SPIKE_DMG);
          else {
            G.hp = Math.min(HP_MAX, G.hp + 1);
            if (p.row === G.last + 1) { G.floors++; G.pop = 18; }
            G.last = p.row;
          }
          break;
        }
      }
    }
    if (G.y < TOP) {
      // the ceiling's spikes: hurt, and knocked down through the platform
      hurt(CEIL_DMG);
      G.on = null; G.vy = 1;
      G.y = TOP + SLAB + 2;
      for (const p of G.plats) if (overlapX(p) && p.y < G.y + PH && p.y + SLAB > TOP) G.y = Math.max(G.y, p.y + SLAB + 1);
    }
    if (G.hp <= 0) { G.status = "terminal"; G.reason = "ran out of health"; return; }
    if (G.y > H) { G.status = "terminal"; G.reason = "fell to the bottom"; }
  }

  function nextSafe() {
    for (const p of G.plats) if (!p.spiked && p.row === G.last + 1) return p;
    return null;
  }

  // ---------------------------------------------------------------- input
  window.addEventListener("keydown", (e) => {
    catchUp();
    if (e.code in held) { e.preventDefault(); if (G.status === "playing") held[e.code] = true; }
    if (e.code === "Enter" && G.status === "terminal") { newGame(); draw(); }
  });
  window.addEventListener("keyup", (e) => {
    catchUp();
    if (e.code in held) held[e.code] = false;
  });

  // ---------------------------------------------------------------- drawing
  let bgGrad = null;
  function drawShaft() {
    if (!bgGrad) {
      bgGrad = ctx.createLinearGradient(0, 0, 0, H);
      bgGrad.addColorStop(0, "#1d2633");
      bgGrad.addColorStop(1, "#0c1118");
    }
    ctx.fillStyle = bgGrad;
    ctx.fillRect(0, 0, W, H);
    // back wall bricks, scrolling up with the depth
    const off = G.depth % 32;
    ctx.fillStyle = "rgba(255,255,255,0.035)";
    for (let y = -off - 32; y < H; y += 32) {
      const row = Math.floor((y + G.depth) / 32);
      for (let x = L + ((row % 2) ? 0 : 24); x < R; x += 48) ctx.fillRect(x, Math.round(y), 44, 28);
    }
    // side walls
    for (const [x0, x1] of [[0, L], [R, W]]) {
      const g = ctx.createLinearGradient(x0, 0, x1, 0);
      g.addColorStop(0, "#5b4636"); g.addColorStop(1, "#3a2c22");
      ctx.fillStyle = g;
      ctx.fillRect(x0, 0, x1 - x0, H);
      ctx.fillStyle = "rgba(0,0,0,0.3)";
      for (let y = -off; y < H; y += 16) ctx.fillRect(x0, Math.round(y), x1 - x0, 2);
    }
  }

  function drawCeiling() {
    ctx.fillStyle = "#2b3440";
    ctx.fillRect(0, 0, W, TOP - 14);
    ctx.fillStyle = "#8d99a6";
    ctx.fillRect(0, TOP - 16, W, 3);
    for (let x = 0; x < W; x += 16) {
      ctx.beginPath();
      ctx.moveTo(x, TOP - 14); ctx.lineTo(x + 8, TOP); ctx.lineTo(x + 16, TOP - 14);
      ctx.closePath();
      ctx.fillStyle = "#c9d2dc"; ctx.fill();
      ctx.strokeStyle = "#56606b"; ctx.lineWidth = 1; ctx.stroke();
    }
  }

  function drawPlatform(p) {
    const x = Math.round(p.x), y = Math.round(p.y);
    if (y > H + 10 || y < -20) return;
    const target = !p.spiked && p.row === G.last + 1 && G.status === "playing";
    const g = ctx.createLinearGradient(0, y, 0, y + SLAB);
    if (p.spiked) { g.addColorStop(0, "#8a5a5a"); g.addColorStop(1, "#4a2a2a"); }
    else if (p.ledge) { g.addColorStop(0, "#a08560"); g.addColorStop(1, "#5e4a32"); }
    else { g.addColorStop(0, "#9fb7a0"); g.addColorStop(1, "#4e6a52"); }
    ctx.fillStyle = g;
    ctx.fillRect(x, y, p.w, SLAB);
    ctx.fillStyle = "rgba(255,255,255,0.25)";
    ctx.fillRect(x, y, p.w, 2);
    ctx.fillStyle = "rgba(0,0,0,0.25)";
    for (let k = x + 14; k < x + p.w - 4; k += 18) ctx.fillRect(k, y + 3, 2, SLAB - 4);
    if (p.spiked) {
      for (let k = x + 2; k + 8 <= x + p.w; k += 10) {
        ctx.beginPath(); ctx.moveTo(k, y); ctx.lineTo(k + 4, y - 9); ctx.lineTo(k + 8, y); ctx.closePath();
        ctx.fillStyle = "#e4e9ee"; ctx.fill();
        ctx.strokeStyle = "#6b7580"; ctx.stroke();
      }
    }
    if (target) {
      ctx.strokeStyle = "rgba(255,226,74,0.8)";
      ctx.lineWidth = 2;
      ctx.strokeRect(x - 1, y - 1, p.w + 2, SLAB + 2);
      ctx.lineWidth = 1;
      ctx.fillStyle = "#ffe24a";
      const cx = x + p.w / 2;
      ctx.beginPath(); ctx.moveTo(cx - 5, y + SLAB + 4); ctx.lineTo(cx + 5, y + SLAB + 4); ctx.lineTo(cx, y + SLAB + 10); ctx.fill();
    }
  }

  function drawPlayer() {
    const x = Math.round(G.x), y = Math.round(G.y);
    const blink = G.hurt > 0 && Math.floor(G.hurt / 3) % 2 === 0;
    if (blink) return;
    const f = G.facing;
    // legs
    const walk = G.on && (held.ArrowLeft || held.ArrowRight) ? Math.floor(G.ticks / 5) % 2 : 0;
    ctx.fillStyle = "#2d3b6e";
    ctx.fillRect(x + 4, y + 17, 5, 7 - walk * 2);
    ctx.fillRect(x + 11, y + 17, 5, 5 + walk * 2);
    // body
    ctx.fillStyle = "#e85d3a";
    ctx.fillRect(x + 3, y + 9, 14, 10);
    ctx.fillStyle = "#ffd0a8";
    ctx.beginPath(); ctx.arc(x + 10, y + 6, 6, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = "#3b2a1a";
    ctx.fillRect(x + 4, y, 12, 3);
    ctx.fillStyle = "#111";
    ctx.fillRect(x + 10 + f * 2, y + 5, 2, 2);
    // arms up while falling
    ctx.fillStyle = "#e85d3a";
    if (!G.on) { ctx.fillRect(x, y + 4, 3, 8); ctx.fillRect(x + 17, y + 4, 3, 8); }
    else { ctx.fillRect(x, y + 10, 3, 7); ctx.fillRect(x + 17, y + 10, 3, 7); }
  }

  function text(str, x, y, size, color, align) {
    ctx.font = "bold " + size + "px Verdana, sans-serif";
    ctx.textAlign = align || "left";
    ctx.lineWidth = 3;
    ctx.strokeStyle = "#0c1118";
    ctx.strokeText(str, x, y);
    ctx.fillStyle = color;
    ctx.fillText(str, x, y);
    ctx.lineWidth = 1;
  }

  function drawHud() {
    ctx.textBaseline = "top";
    ctx.fillStyle = "rgba(12,17,24,0.85)";
    ctx.fillRect(0, 0, W, 28);
    text("FLOOR " + G.floors, 10, 6, G.pop > 0 ? 17 : 15, G.pop > 0 ? "#ffe24a" : "#ffffff");
    text("HP", 150, 7, 13, "#ffffff");
    for (let k = 0; k < HP_MAX; k++) {
      ctx.fillStyle = k < G.hp ? (G.hp <= 3 ? "#ff5252" : "#5ee07a") : "#333c47";
      ctx.fillRect(176 + k * 14, 8, 11, 12);
    }
    text(Math.floor(G.depth / 30) + " m", W - 10, 7, 13, "#c9d2dc", "right");
    for (const s of G.sparks) {
      ctx.fillStyle = "rgba(255,90,90," + (s.life / 20).toFixed(2) + ")";
      ctx.fillRect(Math.round(s.x), Math.round(s.y), 3, 3);
    }
    if (G.hurt > 0) {
      ctx.fillStyle = "rgba(255,40,40," + (G.hurt / 60).toFixed(2) + ")";
      ctx.fillRect(0, 0, W, H);
    }
    if (G.status === "playing" && G.ticks < 80) {
      text("\u2190 \u2192 walk off the ledge's far end", W / 2, 190, 14, "#ffffff", "center");
      text("step down to the glowing platform, row by row", W / 2, 210, 12, "#ffe24a", "center");
    }
    if (G.status === "terminal") {
      ctx.fillStyle = "rgba(12,17,24,0.7)";
      ctx.fillRect(0, 130, W, 96);
      text("GAME OVER", W / 2, 138, 32, "#ff5252", "center");
      text("You " + G.reason + " on floor " + G.floors, W / 2, 180, 14, "#ffffff", "center");
      text("press Enter to climb back in", W / 2, 202, 12, "#c9d2dc", "center");
    }
  }

  function draw() {
    ctx.lineJoin = "miter"; ctx.lineWidth = 1; ctx.textAlign = "left"; ctx.textBaseline = "top";
    drawShaft();
    for (const p of G.plats) drawPlatform(p);
    drawPlayer();
    drawCeiling();
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
      const term = G.status === "terminal";
      const t = nextSafe();
      return {
        status: G.status,
        actionable: G.status === "playing",
        terminal: { is_terminal: term, outcome: term ? "lose" : null, reason: term ? G.reason : null },
        score: G.floors,
        floors: G.floors,
        hp: G.hp,
        player_x: Math.round(G.x),
        player_y: Math.round(G.y),
        player_vy: Math.round(G.vy * 60),
        on_platform: G.on ? (G.on.spiked ? "spiked" : "safe") : "none",
        target_x: t ? Math.round(t.x) : null,
        target_y: t ? Math.round(t.y) : null,
        platforms: G.plats.filter((p) => p.y < H + 20).map((p) => [Math.round(p.x), Math.round(p.y), p.w, p.spiked ? 1 : 0]),
        depth: Math.floor(G.depth),
      };
    },
    reset() {
      held.ArrowLeft = false; held.ArrowRight = false;
      newGame();
      draw();
    },
  };

  newGame();
  draw();
  requestAnimationFrame(frame);
})();
