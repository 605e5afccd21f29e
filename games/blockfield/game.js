// Block Field: steer a glider through a field of coloured blocks at rising speed (Cubefield-style).
// The field is 11 slots wide between two rails. Every 1.3-1.6 s a gate comes: a row of blocks with one
// 3-slot opening, each opening at least 4 tiles across from the last; half the gates (from the third on)
// are doubled: a second row 0.5 s behind the first, its opening 2 slots to one side. Hold Left/Right to slide sideways
// (10 tiles/s); touching a block ends the run. Blocks outside the rails are scenery.
// Logic runs in fixed ticks of 1000/60 ms counted from the clock time at which the run started: every
// animation frame, input event and getState() first runs the ticks due by performance.now(). Chance comes
// only from Math.random, drawn when a gate is laid out (the field does not depend on the player's moves).
(() => {
  "use strict";
  const W = 480, H = 360;
  const TICKS_PER_MS = 0.06;
  const SLOTS = 11, HALF = SLOTS / 2;     // the field spans x in [-5.5, 5.5]
  const SHIP = 0.35;                      // half the glider's width
  const SIDE = 10;                        // tiles per second sideways while a key is held
  const V0 = 12, ACC = 0.3, VMAX = 20;    // tiles per second forwards; gained per second; top speed
  const GAP = 3;                          // slots in an opening
  const FIRST = 2.0;                      // seconds before the first gate

  const canvas = document.getElementById("game");
  const ctx = canvas.getContext("2d");
  let S = null;
  let startMs = 0, ticksDone = 0;
  const held = { left: false, right: false };

  function speedAt(ticks) { return Math.min(VMAX, V0 + ACC * ticks / 60); }

  // ---------------------------------------------------------------- the field
  function zAt(t) {            // tiles flown after t seconds (speed V0 + ACC t, capped at VMAX)
    const tc = (VMAX - V0) / ACC;
    if (t <= tc) return V0 * t + 0.5 * ACC * t * t;
    return V0 * tc + 0.5 * ACC * tc * tc + VMAX * (t - tc);
  }

  function layGate() {
    const last = S.gates[S.gates.length - 1];
    S.layT += last ? 1.3 + 0.3 * Math.random() : FIRST;   // when the glider will reach it
    const prev = last ? last.gap : 4;           // slot of the opening's first column (0..8); centre = gap - 4
    const far = [];
    for (let s = 0; s <= SLOTS - GAP; s++) if (Math.abs(s - prev) >= (last ? 4 : 3)) far.push(s);
    const gap = far[Math.floor(Math.random() * far.length)];
    const hue = Math.floor(Math.random() * 6);
    S.gates.push({ z: zAt(S.layT), gap, hue, passed: false });
    // from the third gate on, half of them are doubled: a second row 0.5 s behind, its opening 2 slots across
    if (S.gates.length > 2 && Math.random() < 0.5) {
      let gap2 = gap + (Math.random() < 0.5 ? -2 : 2);
      if (gap2 < 0 || gap2 > SLOTS - GAP) gap2 = 2 * gap - gap2;
      S.layT += 0.5;
      S.gates.push({ z: zAt(S.layT), gap: gap2, hue: (hue + 3) % 6, passed: false });
    }
  }

  function newGame() {
    startMs = performance.now(); ticksDone = 0;
    held.left = held.right = false;
    S = { status: "playing", reason: null, ticks: 0, z: 0, x: 0, gates: [], layT: 0, passed: 0,
          close: 0, popup: 0, popupText: "", boom: 0, tilt: 0 };
    while (S.gates.length < 6) layGate();
  }

  function nextGate() {
    for (const g of S.gates) if (!g.passed) return g;
    return null;
  }

  function blocked(g, x) {       // does the glider at x touch a block of gate g?
    const a = g.gap - HALF, b = a + GAP;   // the opening's edges
    return x - SHIP < a - 1e-6 || x + SHIP > b + 1e-6;
  }

  function tick() {
    if (S.popup > 0) S.popup--;
    const want = (held.right ? 1 : 0) - (held.left ? 1 : 0);
    S.tilt += (want - S.tilt) * 0.25;     // drawing only
    if (S.status !== "playing") { if (S.boom < 60) S.boom++; return; }
    S.ticks++;
    S.x = Math.max(-HALF + SHIP, Math.min(HALF - SHIP, S.x + want * SIDE / 60));
    S.z += speedAt(S.ticks) / 60;
    for (const g of S.gates) {
      if (g.passed) continue;
      if (S.z >= g.z + 1) {
        g.passed = true; S.passed++;
        const a = g.gap - HALF, b = a + GAP;
        const margin = Math.min(S.x - SHIP - a, b - S.x - SHIP);
        if (margin < 0.3) S.close++;
        S.popup = 30; S.popupText = margin < 0.3 ? "CLOSE ONE! +1" : "GATE +1";
      } else if (S.z >= g.z && blocked(g, S.x)) {
        S.status = "terminal"; S.reason = "hit a block"; S.boom = 0;
        return;
      }
    }
    while (S.gates.length > 2 && S.gates[0].z + 4 < S.z) S.gates.shift();
    while (S.gates[S.gates.length - 1].z < S.z + 160) layGate();
  }

  // ---------------------------------------------------------------- input
  const CODES = { ArrowLeft: "left", ArrowRight: "right" };
  window.addEventListener("keydown", (e) => {
    catchUp();
    if (e.code in CODES) e.preventDefault();
    if (e.code === "Enter" && S.status === "terminal") { newGame(); return; }
    if (e.code in CODES) held[CODES[e.code]] = true;
  });
  window.addEventListener("keyup", (e) => {
    catchUp();
    if (e.code in CODES) held[CODES[e.code]] = false;
  });

  // ---------------------------------------------------------------- drawing
  const F = 330, CX = W / 2, HOR = 128, CAM_H = 1.45, CAM_BACK = 2.6, FAR = 90;
  const HUES = [[240, 84, 84], [255, 170, 50], [250, 220, 70], [90, 210, 110], [70, 170, 250], [180, 110, 240]];

  function hash(n) {
    let t = (n * 2654435761) >>> 0;
    t = Math.imul(t ^ (t >>> 15), 2246822507) >>> 0;
    t = Math.imul(t ^ (t >>> 13), 3266489909) >>> 0;
    return ((t ^ (t >>> 16)) >>> 0) / 4294967296;
  }

  function P(x, y, z) {
    const zc = Math.max(0.3, z - (S.z - CAM_BACK));
    return [CX + F * (x - S.x) / zc, HOR + F * (CAM_H - y) / zc];
  }

  function rgb(c, k, fog) {
    const f = Math.min(1, Math.max(0, fog));
    const r = c[0] * k * (1 - f) + 226 * f, g = c[1] * k * (1 - f) + 232 * f, b = c[2] * k * (1 - f) + 240 * f;
    return "rgb(" + Math.round(r) + "," + Math.round(g) + "," + Math.round(b) + ")";
  }

  function poly(pts, fill) {
    ctx.fillStyle = fill;
    ctx.beginPath();
    ctx.moveTo(pts[0][0], pts[0][1]);
    for (let i = 1; i < pts.length; i++) ctx.lineTo(pts[i][0], pts[i][1]);
    ctx.closePath(); ctx.fill();
  }

  // one unit block with its near face at z, from x0 to x1
  function block(x0, x1, z, c) {
    const zc = z - (S.z - CAM_BACK);
    if (zc < 0.4 || zc > FAR) return;
    const fog = (zc - 20) / (FAR - 20);
    const hgt = 1;
    const a = P(x0, 0, z), b = P(x1, 0, z), c2 = P(x1, hgt, z), d = P(x0, hgt, z);
    const e = P(x0, hgt, z + 1), f = P(x1, hgt, z + 1);
    // the side facing the camera's x
    if (x1 < S.x) poly([b, c2, f, P(x1, 0, z + 1)], rgb(c, 0.62, fog));
    if (x0 > S.x) poly([a, d, e, P(x0, 0, z + 1)], rgb(c, 0.62, fog));
    if (hgt < CAM_H) poly([d, c2, f, e], rgb(c, 1.08, fog));
    poly([a, b, c2, d], rgb(c, 0.85, fog));
    if (zc < 25) {
      ctx.strokeStyle = "rgba(255,255,255,0.35)"; ctx.lineWidth = 1;
      ctx.strokeRect(Math.min(a[0], b[0]), d[1], Math.abs(b[0] - a[0]), a[1] - d[1]);
    }
  }

  function drawWorld() {
    const sky = ctx.createLinearGradient(0, -60, 0, HOR);
    sky.addColorStop(0, "#5b7fd6");
    sky.addColorStop(1, "#e3e8f2");
    ctx.fillStyle = sky;
    ctx.fillRect(-80, -80, W + 160, HOR + 80);
    const ground = ctx.createLinearGradient(0, HOR, 0, H + 80);
    ground.addColorStop(0, "#e2e8f0");
    ground.addColorStop(1, "#b9c3d3");
    ctx.fillStyle = ground;
    ctx.fillRect(-80, HOR, W + 160, H - HOR + 80);
    // ground lines, scrolling
    ctx.strokeStyle = "rgba(120,135,170,0.35)"; ctx.lineWidth = 1;
    for (let k = Math.ceil(S.z - CAM_BACK + 0.5); k < S.z + 60; k += 2) {
      const zz = k - (k % 2);
      const a = P(-40 + S.x, 0, zz), b = P(40 + S.x, 0, zz);
      ctx.beginPath(); ctx.moveTo(a[0], a[1]); ctx.lineTo(b[0], b[1]); ctx.stroke();
    }
    // the rails
    for (const rx of [-HALF - 0.15, HALF + 0.15]) {
      const a = P(rx, 0, S.z - CAM_BACK + 0.5), b = P(rx, 0, S.z + FAR);
      ctx.strokeStyle = "rgba(255,90,160,0.85)"; ctx.lineWidth = 3;
      ctx.beginPath(); ctx.moveTo(a[0], a[1]); ctx.lineTo(b[0], b[1]); ctx.stroke();
    }
    // scenery blocks outside the rails, and the gates, far to near
    const items = [];
    const base = Math.floor(S.z / 6);
    for (let r = base + 16; r >= base; r--) {
      for (let k = 0; k < 4; k++) {
        const h = hash(r * 13 + k);
        const side = k < 2 ? -1 : 1;
        const x = side * (HALF + 1.2 + hash(r * 29 + k * 7) * 9);
        items.push({ z: r * 6 + Math.floor(h * 6), x0: x - 0.5, x1: x + 0.5, c: HUES[Math.floor(h * 6)] });
      }
    }
    for (const g of S.gates) {
      for (let s = 0; s < SLOTS; s++) {
        if (s >= g.gap && s < g.gap + GAP) continue;
        items.push({ z: g.z, x0: s - HALF + 0.03, x1: s - HALF + 0.97, c: HUES[g.hue] });
      }
    }
    items.sort((p, q) => (q.z - p.z) || (Math.abs(q.x0 + 0.5 - S.x) - Math.abs(p.x0 + 0.5 - S.x)));
    for (const it of items) {
      if (it.z + 1 < S.z - CAM_BACK + 0.4) continue;
      block(it.x0, it.x1, it.z, it.c);
    }
  }

  function drawShip() {
    const p = P(S.x, 0.25, S.z);
    const k = F / CAM_BACK / 100;
    const dead = S.status === "terminal";
    ctx.save();
    ctx.translate(p[0], p[1]);
    if (dead) {
      for (let i = 0; i < 18; i++) {
        const ang = hash(i * 5 + 1) * Math.PI * 2, sp = 1.5 + hash(i * 5 + 2) * 3;
        const d = S.boom * sp;
        ctx.fillStyle = i % 3 === 0 ? "#ffd23f" : i % 3 === 1 ? "#ff6b4a" : "#3b4a78";
        ctx.fillRect(Math.cos(ang) * d, Math.sin(ang) * d * 0.6 - S.boom * 0.5, 6 * k, 6 * k);
      }
      ctx.restore();
      return;
    }
    ctx.scale(k, k);
    ctx.rotate(S.tilt * 0.25);
    ctx.fillStyle = "rgba(40,50,90,0.25)";
    ctx.beginPath(); ctx.ellipse(0, 22, 40, 7, 0, 0, Math.PI * 2); ctx.fill();
    const g = ctx.createLinearGradient(0, -40, 0, 10);
    g.addColorStop(0, "#4d5fa8");
    g.addColorStop(1, "#1e2750");
    ctx.fillStyle = g;
    ctx.beginPath(); ctx.moveTo(0, -36); ctx.lineTo(38, 10); ctx.lineTo(0, 2); ctx.lineTo(-38, 10); ctx.closePath(); ctx.fill();
    ctx.fillStyle = "#8fd6ff";
    ctx.beginPath(); ctx.moveTo(0, -26); ctx.lineTo(8, -6); ctx.lineTo(-8, -6); ctx.closePath(); ctx.fill();
    ctx.fillStyle = "#ff8a3d";
    ctx.fillRect(-14, 4, 8, 5 + (S.ticks % 4)); ctx.fillRect(6, 4, 8, 5 + ((S.ticks + 2) % 4));
    ctx.restore();
  }

  function drawHud() {
    ctx.fillStyle = "rgba(20,28,60,0.78)";
    ctx.fillRect(0, 0, W, 30);
    ctx.fillStyle = S.popup > 0 ? "#ffd23f" : "#5b6fb8";
    ctx.fillRect(0, 30, W, 2);
    ctx.font = "bold 15px monospace";
    ctx.textBaseline = "middle";
    ctx.textAlign = "left";
    ctx.fillStyle = S.popup > 0 ? "#ffd23f" : "#ffffff";
    ctx.fillText("GATES " + S.passed, 10, 16);
    ctx.fillStyle = "#ffffff";
    ctx.fillText("CLOSE " + S.close, 130, 16);
    ctx.textAlign = "right";
    ctx.fillText(Math.floor(S.z) + " m", W - 10, 16);
    ctx.fillStyle = "#aab8ec";
    ctx.font = "bold 12px monospace";
    ctx.fillText(speedAt(S.ticks).toFixed(1) + " m/s", W - 90, 16);
    ctx.textAlign = "center";
    if (S.status === "playing" && S.ticks < 100) {
      ctx.font = "bold 14px monospace";
      ctx.fillStyle = "rgba(20,28,60,0.85)";
      ctx.fillText("hold \u2190 \u2192 to steer through the gaps", W / 2, 52);
    }
    if (S.popup > 0 && S.status === "playing") {
      ctx.font = "bold 18px monospace";
      ctx.fillStyle = "rgba(255,150,40," + Math.min(1, S.popup / 12).toFixed(2) + ")";
      ctx.fillText(S.popupText, W / 2, 80 - (30 - S.popup) * 0.4);
    }
    if (S.status === "terminal") {
      ctx.fillStyle = "rgba(15,20,45,0.55)";
      ctx.fillRect(0, 0, W, H);
      ctx.fillStyle = "#ff6b6b";
      ctx.font = "bold 32px monospace";
      ctx.fillText("CRASHED!", W / 2, 130);
      ctx.fillStyle = "#ffffff";
      ctx.font = "bold 15px monospace";
      ctx.fillText("You " + S.reason + " after " + Math.floor(S.z) + " m", W / 2, 170);
      ctx.fillText("Gates " + S.passed + "   Close calls " + S.close, W / 2, 194);
      ctx.fillStyle = "#c8d2f4";
      ctx.font = "13px monospace";
      ctx.fillText("press Enter to fly again", W / 2, 226);
    }
  }

  function draw() {
    ctx.save();
    ctx.translate(CX, HOR);
    ctx.rotate(-S.tilt * 0.07);
    ctx.translate(-CX, -HOR);
    drawWorld();
    ctx.restore();
    drawShip();
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
      const g = nextGate();
      const term = S.status === "terminal";
      return {
        status: S.status,
        actionable: S.status === "playing",
        terminal: { is_terminal: term, outcome: term ? "lose" : null, reason: term ? S.reason : null },
        score: Math.floor(S.z),
        gates_passed: S.passed,
        close_calls: S.close,
        ship_x: Math.round(S.x * 100),
        speed: Math.round(speedAt(S.ticks) * 10),
        next_gate_distance: g ? Math.floor((g.z - S.z) * 10) : null,
        next_gap_left: g ? Math.round((g.gap - HALF) * 100) : null,
        next_gap_right: g ? Math.round((g.gap - HALF + GAP) * 100) : null,
      };
    },
    reset(options) {
      newGame();
      draw();
    },
  };

  newGame();
  draw();
  requestAnimationFrame(frame);
})();
