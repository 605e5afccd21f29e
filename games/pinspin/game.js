// Pin Spin: shoot pins into a spinning core without touching the pins already there (Core Ball-style).
// Logic runs in fixed ticks of 1000/60 ms counted from the clock time at which the attempt started:
// every animation frame, every input event and every getState() first runs the ticks that are due by
// performance.now(), so the state at a given clock time never depends on when frames fired.
// Angles are integers in tenths of a degree (0-3599, clockwise from "pointing right"); the logic uses no
// trigonometry (only drawing does). Chance comes only from Math.random (the layout of a stage's pins).
(() => {
  "use strict";
  const W = 480, H = 360, HUD_H = 34;
  const TURN = 3600;                 // angle units in a full turn (0.1 degree each)
  const BOTTOM = 900;                // screen angle of the landing point (straight down)
  const SEP = 150;                   // two pin heads closer than 15 degrees touch
  const FLIGHT = 6;                  // ticks a shot pin takes to reach the core
  const CLEAR_TICKS = 36;            // stage-clear pause before the next stage
  const STAGE_BONUS = 10;
  const CX = 240, CY = 148;          // core centre
  const CORE_R = 34, ORBIT = 92, HEAD_R = 12;
  const LAUNCH_Y = 306;              // the waiting pin's head
  const TICKS_PER_MS = 0.06;
  // Stages: pins already on the core, pins to shoot, and the spin program as [ticks, speed] segments
  // that repeat (speed in tenths of a degree per tick; negative spins anticlockwise). Stage 6 repeats.
  const STAGES = [
    { pre: 3, shots: 7, spin: [[9999, 6]] },
    { pre: 4, shots: 6, spin: [[9999, -7]] },
    { pre: 4, shots: 6, spin: [[90, 5], [90, 12]] },
    { pre: 5, shots: 6, spin: [[120, 12], [120, -12]] },
    { pre: 5, shots: 7, spin: [[70, 14], [50, -6], [90, 10]] },
    { pre: 6, shots: 7, spin: [[60, 14], [60, -10]] },
  ];

  const canvas = document.getElementById("game");
  const ctx = canvas.getContext("2d");
  let S = null;
  let startMs = 0, ticksDone = 0;

  function stageDef(n) { return STAGES[Math.min(n, STAGES.length) - 1]; }

  function spinAt(n, t) {            // speed of stage n at stage tick t, turned and stepped by this attempt's draw
    const prog = stageDef(n).spin;
    let total = 0;
    for (const [len] of prog) total += len;
    t %= total;
    let v = prog[prog.length - 1][1];
    for (const [len, speed] of prog) { if (t < len) { v = speed; break; } t -= len; }
    return S.spinSign * (v + Math.sign(v) * S.spinDelta);
  }

  function mod(a) { return ((a % TURN) + TURN) % TURN; }
  function gap(a, b) { const d = mod(a - b); return d > TURN / 2 ? TURN - d : d; }

  function newStage(n) {
    const def = stageDef(n);
    S.stage = n; S.stageTicks = 0; S.rot = 0;
    S.shotsLeft = def.shots; S.flight = -1; S.clearing = 0;
    const base = Math.floor(Math.random() * TURN), spacing = Math.floor(TURN / def.pre);
    S.pins = [];
    for (let i = 0; i < def.pre; i++) {
      const jitter = Math.floor((Math.random() - 0.5) * spacing * 0.4);
      S.pins.push({ a: mod(base + i * spacing + jitter), label: 0, age: 999 });
    }
  }

  function newGame() {
    startMs = performance.now(); ticksDone = 0;
    S = { status: "playing", reason: null, ticks: 0, score: 0, placed: 0, cleared: 0, streak: 0,
          stage: 1, stageTicks: 0, rot: 0, pins: [], shotsLeft: 0, flight: -1, clearing: 0,
          hitPin: null, missAngle: null, flash: 0, sparks: [] };
    // each attempt spins its own way, at its speed or a step slower: shots timed on one seed clash on another
    // (never a step faster: stage 1 would then turn more than a pin's clearance between every other step's shot)
    S.spinSign = Math.random() < 0.5 ? -1 : 1;
    S.spinDelta = -Math.floor(Math.random() * 2);
    newStage(1);
  }

  // Where a pin shot now lands on the core (core angle), from the spin of the next FLIGHT ticks.
  function landingAngle() {
    let r = S.rot;
    for (let i = 0; i < FLIGHT; i++) r += spinAt(S.stage, S.stageTicks + i);
    return mod(BOTTOM - r);
  }

  function nearestGap(a) {
    let best = TURN;
    for (const p of S.pins) best = Math.min(best, gap(a, p.a));
    return best;
  }

  function canShoot() {
    return S.status === "playing" && S.clearing === 0 && S.flight < 0 && S.shotsLeft > 0;
  }

  function tick() {
    S.ticks++;
    if (S.flash > 0) S.flash--;
    for (const p of S.pins) if (p.age < 999) p.age++;
    for (let i = S.sparks.length - 1; i >= 0; i--) {
      const s = S.sparks[i];
      s.x += s.vx; s.y += s.vy; s.vy += 1; s.life--;
      if (s.life <= 0) S.sparks.splice(i, 1);
    }
    if (S.status !== "playing") return;
    if (S.clearing > 0) {
      S.clearing--;
      if (S.clearing === 0) newStage(S.stage + 1);
      return;
    }
    S.rot = mod(S.rot + spinAt(S.stage, S.stageTicks));
    S.stageTicks++;
    if (S.flight >= 0 && ++S.flight >= FLIGHT) {
      S.flight = -1;
      const a = mod(BOTTOM - S.rot);
      let hit = null;
      for (const p of S.pins) if (gap(a, p.a) < SEP) { hit = p; break; }
      if (hit) {
        S.status = "terminal"; S.reason = "the pin touched another pin";
        S.hitPin = hit; S.missAngle = a; S.flash = 12;
        return;
      }
      const def = stageDef(S.stage);
      S.pins.push({ a, label: def.shots - S.shotsLeft + 1, age: 0 });
      S.shotsLeft--; S.placed++; S.streak++; S.score += 1;
      // sparks at the landing point (straight below the core): fixed pattern, no chance involved
      for (let i = 0; i < 6; i++) {
        S.sparks.push({ x: CX, y: CY + ORBIT, vx: (i - 2.5) * 1.3, vy: -2 - (i % 3), life: 14,
                        c: i % 2 ? "#ffe08a" : "#ffffff" });
      }
      if (S.shotsLeft === 0) {
        S.cleared++; S.score += STAGE_BONUS; S.clearing = CLEAR_TICKS; S.flash = 10;
      }
    }
  }

  // ---------------------------------------------------------------- input
  window.addEventListener("keydown", (e) => {
    catchUp();
    if (e.code === "Space" || e.code === "Enter") e.preventDefault();
    if (e.code === "Enter" && S.status === "terminal") { newGame(); draw(); return; }
    if (e.code === "Space" && !e.repeat && canShoot()) S.flight = 0;
  });

  // ---------------------------------------------------------------- drawing
  const PALETTE = [
    ["#ff6b8b", "#c2185b"], ["#5ec8ff", "#1565c0"], ["#8be07a", "#2e7d32"],
    ["#ffb74d", "#e65100"], ["#c792ff", "#6a1b9a"], ["#5fe3d0", "#00796b"],
  ];
  function stageColours(n) { return PALETTE[(n - 1) % PALETTE.length]; }
  function rad(a) { return (a / TURN) * Math.PI * 2; }

  function drawBackground() {
    const bg = ctx.createRadialGradient(CX, CY, 20, CX, CY, 360);
    bg.addColorStop(0, "#2a2350");
    bg.addColorStop(0.55, "#171436");
    bg.addColorStop(1, "#0b0a1c");
    ctx.fillStyle = bg;
    ctx.fillRect(0, 0, W, H);
    // faint guide rings and stars (fixed decoration)
    ctx.strokeStyle = "rgba(160,150,255,0.08)";
    ctx.lineWidth = 1;
    for (const r of [ORBIT + 26, ORBIT + 52, ORBIT + 90]) {
      ctx.beginPath(); ctx.arc(CX, CY, r, 0, Math.PI * 2); ctx.stroke();
    }
    for (let i = 0; i < 40; i++) {
      const x = (i * 97 + 31) % W, y = HUD_H + ((i * 61 + 17) % (H - HUD_H));
      ctx.fillStyle = i % 3 ? "rgba(255,255,255,0.25)" : "rgba(255,230,160,0.35)";
      ctx.fillRect(x, y, i % 4 ? 1 : 2, i % 4 ? 1 : 2);
    }
  }

  function drawHead(x, y, fill, edge, label, r) {
    const g = ctx.createRadialGradient(x - r * 0.35, y - r * 0.35, 1, x, y, r);
    g.addColorStop(0, "#ffffff");
    g.addColorStop(0.25, fill);
    g.addColorStop(1, edge);
    ctx.fillStyle = g;
    ctx.beginPath(); ctx.arc(x, y, r, 0, Math.PI * 2); ctx.fill();
    if (label) {
      ctx.fillStyle = "#1a1030";
      ctx.font = "bold 11px sans-serif";
      ctx.textAlign = "center"; ctx.textBaseline = "middle";
      ctx.fillText(String(label), x, y + 1);
    }
  }

  function drawPin(a, fill, edge, label, grow) {
    const t = rad(a + S.rot), c = Math.cos(t), s = Math.sin(t);
    const len = ORBIT * grow;
    ctx.strokeStyle = "#d9d4ff";
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.moveTo(CX + c * (CORE_R - 2), CY + s * (CORE_R - 2));
    ctx.lineTo(CX + c * len, CY + s * len);
    ctx.stroke();
    drawHead(CX + c * len, CY + s * len, fill, edge, label, HEAD_R);
  }

  function drawCore() {
    const [fill, edge] = stageColours(S.stage);
    const pulse = S.clearing > 0 ? 1 + 0.12 * (S.clearing / CLEAR_TICKS) : 1;
    const r = CORE_R * pulse;
    ctx.fillStyle = "rgba(255,255,255,0.06)";
    ctx.beginPath(); ctx.arc(CX, CY, r + 10, 0, Math.PI * 2); ctx.fill();
    const g = ctx.createRadialGradient(CX - 10, CY - 12, 4, CX, CY, r);
    g.addColorStop(0, "#ffffff");
    g.addColorStop(0.3, fill);
    g.addColorStop(1, edge);
    ctx.fillStyle = g;
    ctx.beginPath(); ctx.arc(CX, CY, r, 0, Math.PI * 2); ctx.fill();
    // a notch ring that turns with the core, so the spin is visible
    ctx.strokeStyle = "rgba(255,255,255,0.35)";
    ctx.lineWidth = 3;
    for (let k = 0; k < 3; k++) {
      const t0 = rad(S.rot + k * 1200);
      ctx.beginPath(); ctx.arc(CX, CY, r - 7, t0, t0 + 0.9); ctx.stroke();
    }
    ctx.fillStyle = "#ffffff";
    ctx.font = "bold 22px sans-serif";
    ctx.textAlign = "center"; ctx.textBaseline = "middle";
    ctx.fillText(String(S.stage), CX, CY + 1);
  }

  function drawShooter() {
    const [fill, edge] = stageColours(S.stage);
    // landing marker under the core
    ctx.strokeStyle = "rgba(255,255,255,0.18)";
    ctx.setLineDash([4, 6]);
    ctx.lineWidth = 1;
    ctx.beginPath(); ctx.moveTo(CX, CY + ORBIT + HEAD_R + 4); ctx.lineTo(CX, LAUNCH_Y - HEAD_R - 4); ctx.stroke();
    ctx.setLineDash([]);
    // the pin in flight
    if (S.flight >= 0) {
      const y = LAUNCH_Y - (LAUNCH_Y - (CY + ORBIT)) * (S.flight / FLIGHT);
      ctx.strokeStyle = "#d9d4ff"; ctx.lineWidth = 2;
      ctx.beginPath(); ctx.moveTo(CX, y); ctx.lineTo(CX, y - 40); ctx.stroke();
      drawHead(CX, y, fill, edge, S.shotsLeft, HEAD_R);
    }
    // the queue of pins still to shoot
    const waiting = S.shotsLeft - (S.flight >= 0 ? 1 : 0);
    for (let i = Math.min(waiting, 3) - 1; i >= 0; i--) {
      const y = LAUNCH_Y + i * 24;
      if (y > H + HEAD_R) continue;
      drawHead(CX, y, fill, edge, waiting - i, i === 0 ? HEAD_R : HEAD_R - 2);
    }
  }

  function drawHud() {
    const hud = ctx.createLinearGradient(0, 0, 0, HUD_H);
    hud.addColorStop(0, "#2d2660");
    hud.addColorStop(1, "#1c1842");
    ctx.fillStyle = hud;
    ctx.fillRect(0, 0, W, HUD_H);
    ctx.fillStyle = S.flash > 0 && S.status === "playing" ? "#ffe08a" : "#5b4fb0";
    ctx.fillRect(0, HUD_H - 2, W, 2);
    ctx.font = "bold 16px monospace";
    ctx.textBaseline = "middle";
    ctx.textAlign = "left";
    ctx.fillStyle = "#ffffff";
    ctx.fillText("STAGE " + S.stage, 12, 17);
    ctx.textAlign = "center";
    ctx.fillText("SCORE " + S.score, W / 2, 17);
    ctx.textAlign = "right";
    ctx.fillStyle = "#ffe08a";
    ctx.fillText("PINS " + S.shotsLeft, W - 12, 17);
    // side panels: stage progress dots and spin direction
    ctx.font = "bold 12px monospace";
    ctx.textAlign = "left";
    ctx.fillStyle = "rgba(255,255,255,0.7)";
    ctx.fillText("STAGES", 14, 56);
    for (let i = 0; i < 6; i++) {
      const n = i + 1, y = 78 + i * 22;
      const done = n < S.stage || (n === S.stage && S.clearing > 0);
      ctx.fillStyle = done ? "#ffe08a" : n === S.stage ? stageColours(n)[0] : "rgba(255,255,255,0.15)";
      ctx.beginPath(); ctx.arc(22, y, 7, 0, Math.PI * 2); ctx.fill();
      ctx.fillStyle = "rgba(255,255,255,0.75)";
      ctx.fillText(String(n), 36, y + 1);
    }
    const v = spinAt(S.stage, S.stageTicks);
    ctx.textAlign = "right";
    ctx.fillStyle = "rgba(255,255,255,0.7)";
    ctx.fillText("SPIN", W - 14, 56);
    ctx.font = "bold 22px sans-serif";
    ctx.fillStyle = stageColours(S.stage)[0];
    ctx.fillText(v >= 0 ? "\u21bb" : "\u21ba", W - 14, 82);
    ctx.font = "bold 12px monospace";
    ctx.fillStyle = "rgba(255,255,255,0.75)";
    ctx.fillText(Math.abs(v * 6) + "\u00b0/s", W - 14, 106);
    ctx.fillText("PLACED " + S.placed, W - 14, 330);
    if (S.status === "playing" && S.ticks < 100 && S.stage === 1) {
      ctx.textAlign = "left";
      ctx.fillStyle = "rgba(255,255,255,0.8)";
      ctx.fillText("SPACE: shoot", 14, 330);
    }
    if (S.clearing > 0) {
      ctx.textAlign = "center";
      ctx.fillStyle = "rgba(20,16,50,0.7)";
      ctx.fillRect(CX - 110, 262, 220, 30);
      ctx.fillStyle = "#ffe08a";
      ctx.font = "bold 18px monospace";
      ctx.fillText("STAGE CLEAR +" + STAGE_BONUS, CX, 278);
    }
  }

  function drawLose() {
    ctx.fillStyle = "rgba(30,5,20,0.55)";
    ctx.fillRect(0, HUD_H, W, H - HUD_H);
    // the two pins that touched, ringed in red
    for (const a of [S.missAngle, S.hitPin.a]) {
      const t = rad(a + S.rot);
      ctx.strokeStyle = "#ff3b5c"; ctx.lineWidth = 3;
      ctx.beginPath(); ctx.arc(CX + Math.cos(t) * ORBIT, CY + Math.sin(t) * ORBIT, HEAD_R + 4, 0, Math.PI * 2); ctx.stroke();
    }
    ctx.fillStyle = "rgba(20,8,30,0.85)";
    ctx.fillRect(90, 258, W - 180, 84);
    ctx.strokeStyle = "#ff3b5c"; ctx.lineWidth = 2;
    ctx.strokeRect(90, 258, W - 180, 84);
    ctx.textAlign = "center"; ctx.textBaseline = "middle";
    ctx.fillStyle = "#ff6b8b";
    ctx.font = "bold 26px monospace";
    ctx.fillText("PINS CLASHED!", W / 2, 282);
    ctx.fillStyle = "#ffffff";
    ctx.font = "bold 14px monospace";
    ctx.fillText("Stage " + S.stage + "   Score " + S.score + "   Pins " + S.placed, W / 2, 308);
    ctx.font = "12px monospace";
    ctx.fillStyle = "rgba(255,255,255,0.75)";
    ctx.fillText("press Enter to play again", W / 2, 328);
  }

  function draw() {
    drawBackground();
    const [fill, edge] = stageColours(S.stage);
    for (const p of S.pins) {
      const grow = p.age < 4 ? 0.9 + 0.025 * p.age : 1;
      if (p.label) drawPin(p.a, fill, edge, p.label, grow);
      else drawPin(p.a, "#e8e4ff", "#6f6a99", 0, 1);
    }
    if (S.status === "terminal") {
      const t = rad(S.missAngle + S.rot);
      ctx.strokeStyle = "#ff9aa9"; ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.moveTo(CX + Math.cos(t) * (CORE_R - 2), CY + Math.sin(t) * (CORE_R - 2));
      ctx.lineTo(CX + Math.cos(t) * ORBIT, CY + Math.sin(t) * ORBIT); ctx.stroke();
      drawHead(CX + Math.cos(t) * ORBIT, CY + Math.sin(t) * ORBIT, "#ff6b8b", "#b0002a", 0, HEAD_R);
    }
    drawCore();
    if (S.status === "playing") drawShooter();
    for (const s of S.sparks) {
      ctx.fillStyle = s.c;
      ctx.fillRect(Math.round(s.x) - 1, Math.round(s.y) - 1, 3, 3);
    }
    if (S.flash > 0 && S.status === "playing" && S.clearing === 0) {
      ctx.strokeStyle = "rgba(255,240,180," + (S.flash / 12).toFixed(2) + ")";
      ctx.lineWidth = 3;
      ctx.beginPath(); ctx.arc(CX, CY, ORBIT + HEAD_R + 6, 0, Math.PI * 2); ctx.stroke();
    }
    drawHud();
    if (S.status === "terminal") drawLose();
  }

  // The sandbox runs much of a step's game time unseen and sets window.__gameworld.rendering to false
  // meanwhile: skip the drawing then (never the logic). A plain browser has no __gameworld: always draw.
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
      const playing = S.status === "playing" && S.clearing === 0;
      return {
        status: S.status,
        actionable: S.status === "playing",
        terminal: { is_terminal: term, outcome: term ? "lose" : null, reason: term ? S.reason : null },
        score: S.score,
        pins_placed: S.placed,
        stages_cleared: S.cleared,
        stage: S.stage,
        pins_left: S.shotsLeft,
        pins_on_core: S.pins.length,
        core_angle: Math.floor(S.rot / 10),
        spin_speed: spinAt(S.stage, S.stageTicks) * 6,
        pin_angles: S.pins.map((p) => Math.floor(p.a / 10)),
        shot_clearance: playing ? Math.floor(nearestGap(landingAngle()) / 10) : null,
        ready_to_shoot: canShoot(),
      };
    },
    reset() {
      newGame();
      draw();   // the frame read right after a reset shows the new attempt, not the clash
    },
  };

  newGame();
  draw();
  requestAnimationFrame(frame);
})();
