// Pulse Dash: a rhythm runner for GameWorld (Geometry Dash-style).
// The cube slides right on its own over a level of 30 px columns built from patterns (spikes, blocks,
// pits, jump pads, low spiked ceilings). Logic runs in fixed ticks of 1000/60 ms counted from the clock
// time at which the attempt started: every animation frame, key event and getState() first runs the
// ticks that are due by performance.now(). Chance comes only from Math.random, drawn when the level is built.
(() => {
  "use strict";
  const W = 480, H = 360;
  const TILE = 30;
  const GY = 280;                  // screen y of the ground line
  const CUBE_SX = 120;             // screen x of the cube's left edge
  const S = 28;                    // cube size (px)
  const SPEED = 5;                 // px per tick
  const GRAV = 0.625, JUMP_V = 9.375, PAD_V = 13.75, MAX_FALL = 15;
  const SNAP = 6;                  // a ledge this much above the cube's bottom is stepped onto, higher is a wall
  const SPK_X0 = 9, SPK_X1 = 21, SPK_H = 16;   // a spike's deadly core in its column
  const HB = 2;                    // the cube's hitbox is 2 px narrower on each side
  const CEIL = 46;                 // a low ceiling's spike tips, px above its floor
  const HEIGHT = { ".": 0, "_": null, "^": 0, "=": 30, "#": 60, "A": 30, "*": 0, "v": 0 };
  const START_RUN = 12;            // ground columns before the first pattern
  const N_PATTERNS = 11;
  const EASY = ["^..vvv", "vvv..^", "^^..vvv", "vvv..^^", "^..vv..^"];
  const MID = ["__..vvv", "vv..^^", "=#...vv", "^..vv..^", "^^^..vvv", "==A==..vv"];
  const HARD = ["*^^^^^..vvv", "vvv..^^^", "vvv.*^^^^^", "^^^", "__..vvv"];
  const NAMES = { "^": "spike", "v": "ceiling", "_": "pit", "=": "block", "#": "tall block", "A": "spike on a block", "*": "jump pad" };
  const TICKS_PER_MS = 0.06;
  const DEBRIS = [[4, 2], [3, 5], [1, 6], [-1, 6], [-3, 5], [-4, 2], [-4, -1], [-2, -3], [2, -3], [4, -1],
                  [2, 4], [-2, 4], [5, 4], [-5, 4]];

  const canvas = document.getElementById("game");
  const ctx = canvas.getContext("2d");
  let G = null;
  let held = false, pressed = false;
  let startMs = 0, ticksDone = 0;

  function buildLevel() {
    let s = ".".repeat(START_RUN);
    const pats = [];
    for (let k = 0; k < N_PATTERNS; k++) {
      const pool = k < 3 ? EASY : k < 7 ? MID : HARD;
      const p = pool[Math.floor(Math.random() * pool.length)];
      const start = s.length;
      s += p;
      pats.push({ start, end: s.length * TILE, text: p });
      const last = p[p.length - 1];
      s += ".".repeat((last === "^" || last === "*" || last === "=" ? 7 : 6) + Math.floor(Math.random() * 2));
    }
    const finish = (s.length + 2) * TILE;
    s += ".".repeat(60);
    return { cols: s, pats, finish };
  }

  function col(i) { return i >= 0 && i < G.cols.length ? G.cols[i] : "."; }

  function newGame() {
    startMs = performance.now(); ticksDone = 0;
    const lvl = buildLevel();
    G = { status: "playing", outcome: null, reason: null, ticks: 0, x: 0, y: 0, vy: 0, ground: true,
          cols: lvl.cols, pats: lvl.pats, finish: lvl.finish, score: 0, jumps: 0,
          bits: [], flash: 0, pop: 0, trail: [] };
  }

  function die(reason) {
    G.status = "terminal"; G.outcome = "lose"; G.reason = reason; G.flash = 12;
    const cx = G.x + S / 2, cy = G.y + S / 2;
    for (const [vx, vy] of DEBRIS) G.bits.push({ x: cx, y: cy, vx, vy, life: 40 });   // a fixed burst
  }

  // one tick of the cube's physics (solver.py has the same model)
  function physics() {
    if ((held || pressed) && G.ground) { G.vy = JUMP_V; G.ground = false; G.jumps++; }
    pressed = false;
    if (!G.ground) { G.vy = Math.max(G.vy - GRAV, -MAX_FALL); G.y += G.vy; }
    G.x += SPEED;
    const x = G.x, i0 = Math.floor(x / TILE), i1 = Math.floor((x + S - 1) / TILE);
    let sup = null;
    for (let i = i0; i <= i1; i++) { const h = HEIGHT[col(i)]; if (h !== null && (sup === null || h > sup)) sup = h; }
    for (let i = i0; i <= i1; i++) { const h = HEIGHT[col(i)]; if (h !== null && h > G.y + SNAP) return "crashed into a block"; }
    if (G.ground) {
      if (sup === null || sup < G.y) { G.ground = false; G.vy = 0; }
      else if (sup > G.y) G.y = sup;
    } else if (G.vy <= 0 && sup !== null && G.y <= sup) { G.y = sup; G.vy = 0; G.ground = true; }
    if (G.ground) {
      for (let i = i0; i <= i1; i++) {
        if (col(i) === "*" && G.y === 0) { G.vy = PAD_V; G.ground = false; G.pop = 8; break; }
      }
    }
    for (let i = i0; i <= i1; i++) {
      const c = col(i);
      if (c === "^" || c === "A") {
        const h = HEIGHT[c], sx0 = i * TILE + SPK_X0, sx1 = i * TILE + SPK_X1;
        if (x + HB < sx1 && x + S - HB > sx0 && G.y < h + SPK_H && G.y + S > h) return "hit a spike";
      }
      if (c === "v" && x + HB < (i + 1) * TILE && x + S - HB > i * TILE && G.y + S > CEIL) return "hit the spiked ceiling";
    }
    if (G.y < -60) return "fell into a pit";
    return null;
  }

  function tick() {
    G.ticks++;
    if (G.flash > 0) G.flash--;
    if (G.pop > 0) G.pop--;
    for (const b of G.bits) { b.x += b.vx; b.y += b.vy; b.vy -= 0.35; b.life--; }
    G.bits = G.bits.filter((b) => b.life > 0);
    if (G.status !== "playing") { pressed = false; return; }
    const dead = physics();
    if (G.ticks % 3 === 0) { G.trail.push({ x: G.x, y: G.y }); if (G.trail.length > 6) G.trail.shift(); }
    if (dead) { die(dead); return; }
    let n = 0;
    for (const p of G.pats) if (G.x > p.end) n++;
    if (n > G.score) { G.score = n; G.pop = 14; }
    if (G.x > G.finish) { G.status = "terminal"; G.outcome = "win"; G.reason = "reached the finish"; }
  }

  function nextPattern() {
    for (const p of G.pats) if (G.x <= p.end) return p;
    return null;
  }

  // ---------------------------------------------------------------- input
  const JUMP = ["Space", "ArrowUp"];
  window.addEventListener("keydown", (e) => {
    catchUp();
    if (JUMP.includes(e.code)) e.preventDefault();
    if (e.code === "Enter" && G.status === "terminal") { newGame(); draw(); return; }
    if (G.status !== "playing") return;
    if (JUMP.includes(e.code)) { if (!e.repeat) pressed = true; held = true; }
  });
  window.addEventListener("keyup", (e) => {
    catchUp();
    if (JUMP.includes(e.code)) held = false;
  });

  // ---------------------------------------------------------------- drawing
  const BEAT = 30;   // ticks per beat of the background pulse
  let bgGrad = null, floorGrad = null;

  function beat() { return 1 - (G.ticks % BEAT) / BEAT; }

  function drawBackground(cam) {
    if (!bgGrad) {
      bgGrad = ctx.createLinearGradient(0, 0, 0, GY);
      bgGrad.addColorStop(0, "#1b0f4d");
      bgGrad.addColorStop(1, "#3a1f8f");
      floorGrad = ctx.createLinearGradient(0, GY, 0, H);
      floorGrad.addColorStop(0, "#2a1670");
      floorGrad.addColorStop(1, "#120838");
    }
    ctx.fillStyle = bgGrad;
    ctx.fillRect(0, 0, W, GY);
    // pulsing glow on the beat
    const b = G.status === "playing" ? beat() : 0;
    ctx.fillStyle = "rgba(120,80,255," + (0.12 * b).toFixed(3) + ")";
    ctx.fillRect(0, 0, W, GY);
    // parallax squares
    const far = cam * 0.2;
    ctx.strokeStyle = "rgba(160,140,255,0.18)";
    ctx.lineWidth = 2;
    for (let i = Math.floor(far / 90) - 1; i < Math.floor(far / 90) + 7; i++) {
      const x = i * 90 - far, y = 30 + ((i * 37) % 5) * 34;
      const sz = 34 + ((i * 13) % 3) * 12;
      ctx.strokeRect(Math.round(x), y, sz, sz);
    }
    const mid = cam * 0.45;
    ctx.fillStyle = "rgba(90,60,200,0.35)";
    for (let i = Math.floor(mid / 70) - 1; i < Math.floor(mid / 70) + 9; i++) {
      const x = i * 70 - mid, h = 40 + ((i * 29) % 4) * 22;
      ctx.fillRect(Math.round(x), GY - h, 50, h);
    }
  }

  function drawFloor(cam) {
    ctx.fillStyle = floorGrad;
    ctx.fillRect(0, GY, W, H - GY);
    ctx.strokeStyle = "rgba(150,120,255,0.35)";
    ctx.lineWidth = 1;
    const off = cam % TILE;
    for (let x = -off; x < W; x += TILE) { ctx.beginPath(); ctx.moveTo(Math.round(x) + 0.5, GY); ctx.lineTo(Math.round(x) + 0.5, H); ctx.stroke(); }
    ctx.beginPath(); ctx.moveTo(0, GY + 30.5); ctx.lineTo(W, GY + 30.5); ctx.stroke();
    ctx.fillStyle = "#d8ccff";
    ctx.fillRect(0, GY, W, 2);
  }

  function spike(x, base, up) {   // a triangle spike in a 30 px column; tip up (or down for ceilings)
    ctx.beginPath();
    if (up) { ctx.moveTo(x + 3, base); ctx.lineTo(x + 15, base - 26); ctx.lineTo(x + 27, base); }
    else { ctx.moveTo(x + 3, base); ctx.lineTo(x + 15, base + 12); ctx.lineTo(x + 27, base); }
    ctx.closePath();
    const g = ctx.createLinearGradient(0, base - (up ? 26 : 0), 0, base + (up ? 0 : 12));
    g.addColorStop(0, up ? "#ffffff" : "#0b0620");
    g.addColorStop(0.25, "#1a0d3a");
    g.addColorStop(1, up ? "#0b0620" : "#ffffff");
    ctx.fillStyle = "#0b0620";
    ctx.fill();
    ctx.strokeStyle = "#f2eaff";
    ctx.lineWidth = 2;
    ctx.stroke();
  }

  function block(x, top, h) {
    const g = ctx.createLinearGradient(0, top, 0, top + h);
    g.addColorStop(0, "#3d2aa8");
    g.addColorStop(1, "#180c4a");
    ctx.fillStyle = g;
    ctx.fillRect(x, top, TILE, h);
    ctx.strokeStyle = "#b9a6ff";
    ctx.lineWidth = 2;
    ctx.strokeRect(x + 1, top + 1, TILE - 2, h - 2);
    ctx.strokeStyle = "rgba(185,166,255,0.35)";
    ctx.strokeRect(x + 7, top + 7, TILE - 14, Math.max(2, h - 14));
  }

  function drawLevel(cam) {
    const i0 = Math.floor(cam / TILE) - 1, i1 = Math.floor((cam + W) / TILE) + 1;
    for (let i = i0; i <= i1; i++) {
      const c = col(i), x = Math.round(i * TILE - cam);
      if (c === "_") {
        ctx.fillStyle = "#05020f";
        ctx.fillRect(x, GY, TILE, H - GY);
        ctx.fillStyle = "rgba(255,60,120,0.25)";
        ctx.fillRect(x, H - 10, TILE, 10);
        continue;
      }
      if (c === "=" || c === "A") block(x, GY - 30, 30);
      if (c === "#") block(x, GY - 60, 60);
      if (c === "^") spike(x, GY, true);
      if (c === "A") spike(x, GY - 30, true);
      if (c === "*") {
        ctx.fillStyle = G.pop > 0 ? "#fff7a0" : "#ffd23f";
        ctx.beginPath(); ctx.ellipse(x + 15, GY, 13, 7, 0, Math.PI, 0); ctx.fill();
        ctx.fillStyle = "rgba(255,210,63,0.35)";
        ctx.fillRect(x + 4, GY - 22, 22, 14);
        ctx.fillStyle = "#ffd23f";
        ctx.beginPath(); ctx.moveTo(x + 15, GY - 24); ctx.lineTo(x + 8, GY - 14); ctx.lineTo(x + 22, GY - 14); ctx.fill();
      }
      if (c === "v") {
        const bottom = GY - CEIL - 12;
        const g = ctx.createLinearGradient(0, 0, 0, bottom);
        g.addColorStop(0, "#140a3a"); g.addColorStop(1, "#3d2aa8");
        ctx.fillStyle = g;
        ctx.fillRect(x, 0, TILE, bottom);
        ctx.fillStyle = "#b9a6ff";
        ctx.fillRect(x, bottom - 2, TILE, 2);
        spike(x, bottom, false);
      }
    }
    // finish line
    const fx = Math.round(G.finish - cam);
    if (fx > -20 && fx < W + 20) {
      for (let y = 0; y < GY; y += 12) {
        ctx.fillStyle = (y / 12) % 2 ? "#ffffff" : "#1b0f4d";
        ctx.fillRect(fx, y, 6, 12);
        ctx.fillStyle = (y / 12) % 2 ? "#1b0f4d" : "#ffffff";
        ctx.fillRect(fx + 6, y, 6, 12);
      }
    }
  }

  function drawCube(cam) {
    if (G.status === "terminal" && G.outcome === "lose") return;
    const sx = Math.round(G.x - cam), sy = Math.round(GY - G.y - S);
    // trail
    for (let k = 0; k < G.trail.length; k++) {
      const t = G.trail[k];
      ctx.fillStyle = "rgba(120,255,210," + (0.06 * (k + 1)).toFixed(2) + ")";
      ctx.fillRect(Math.round(t.x - cam) + 6, Math.round(GY - t.y - S) + 6, S - 12, S - 12);
    }
    ctx.save();
    ctx.translate(sx + S / 2, sy + S / 2);
    if (!G.ground) ctx.rotate((G.ticks % 30) / 30 * Math.PI);   // spins in the air
    const g = ctx.createLinearGradient(-S / 2, -S / 2, S / 2, S / 2);
    g.addColorStop(0, "#7dffcf");
    g.addColorStop(1, "#19b88a");
    ctx.fillStyle = g;
    ctx.fillRect(-S / 2, -S / 2, S, S);
    ctx.strokeStyle = "#0b3d30";
    ctx.lineWidth = 2;
    ctx.strokeRect(-S / 2 + 1, -S / 2 + 1, S - 2, S - 2);
    ctx.fillStyle = "#ffe24a";
    ctx.fillRect(-8, -8, 16, 16);
    ctx.strokeRect(-8, -8, 16, 16);
    ctx.fillStyle = "#0b3d30";
    ctx.fillRect(-5, -4, 3, 4);
    ctx.fillRect(2, -4, 3, 4);
    ctx.fillRect(-4, 3, 8, 2);
    ctx.restore();
  }

  function drawBits(cam) {
    for (const b of G.bits) {
      ctx.fillStyle = "rgba(125,255,207," + (b.life / 40).toFixed(2) + ")";
      ctx.fillRect(Math.round(b.x - cam) - 3, Math.round(GY - b.y) - 3, 6, 6);
    }
  }

  function percent() { return Math.max(0, Math.min(100, Math.floor(100 * G.x / G.finish))); }

  function text(str, x, y, size, color, align) {
    ctx.font = "bold " + size + "px Verdana, sans-serif";
    ctx.textAlign = align || "left";
    ctx.lineWidth = 3;
    ctx.strokeStyle = "#0b0620";
    ctx.strokeText(str, x, y);
    ctx.fillStyle = color;
    ctx.fillText(str, x, y);
  }

  function drawHud() {
    ctx.textBaseline = "top";
    // progress bar
    const pc = percent();
    ctx.fillStyle = "rgba(11,6,32,0.7)";
    ctx.fillRect(120, 10, 240, 14);
    const g = ctx.createLinearGradient(120, 0, 360, 0);
    g.addColorStop(0, "#7dffcf"); g.addColorStop(1, "#ffe24a");
    ctx.fillStyle = g;
    ctx.fillRect(122, 12, Math.round(236 * pc / 100), 10);
    ctx.strokeStyle = "#d8ccff"; ctx.lineWidth = 1;
    ctx.strokeRect(120.5, 10.5, 240, 14);
    text(pc + "%", 370, 9, 13, "#ffffff");
    const big = G.pop > 0 && G.status === "playing" ? 16 : 14;
    text("OBSTACLES " + G.score + "/" + N_PATTERNS, 10, 32, big, G.pop > 0 ? "#ffe24a" : "#ffffff");
    text("JUMPS " + G.jumps, W - 10, 32, 12, "#d8ccff", "right");
    if (G.status === "playing" && G.ticks < 80) {
      text("SPACE jump  -  clear spikes, pits, blocks", W / 2, 70, 14, "#ffffff", "center");
      text("stay low under spiked ceilings", W / 2, 92, 13, "#d8ccff", "center");
    }
    if (G.flash > 0) {
      ctx.fillStyle = "rgba(255,255,255," + (G.flash / 16).toFixed(2) + ")";
      ctx.fillRect(0, 0, W, H);
    }
    if (G.status === "terminal") {
      ctx.fillStyle = "rgba(11,6,32,0.6)";
      ctx.fillRect(0, 110, W, 110);
      if (G.outcome === "win") {
        text("LEVEL COMPLETE!", W / 2, 124, 32, "#ffe24a", "center");
        text("all " + N_PATTERNS + " obstacles cleared in " + G.jumps + " jumps", W / 2, 170, 14, "#ffffff", "center");
      } else {
        text("CRASHED  " + pc + "%", W / 2, 124, 32, "#ff5c8a", "center");
        text("You " + G.reason + " after " + G.score + " obstacles", W / 2, 168, 14, "#ffffff", "center");
        text("press Enter to try again", W / 2, 192, 12, "#d8ccff", "center");
      }
    }
  }

  function draw() {
    ctx.lineJoin = "miter"; ctx.lineWidth = 1; ctx.textAlign = "left"; ctx.textBaseline = "top";
    const cam = G.x - CUBE_SX;
    drawBackground(cam);
    drawFloor(cam);
    drawLevel(cam);
    drawCube(cam);
    drawBits(cam);
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
      const p = nextPattern();
      const i0 = Math.floor(G.x / TILE);
      let ahead = "";
      for (let i = i0; i < i0 + 24; i++) ahead += col(i);
      return {
        status: G.status,
        actionable: G.status === "playing",
        terminal: { is_terminal: term, outcome: term ? G.outcome : null, reason: term ? G.reason : null },
        score: G.score,
        percent: percent(),
        cube_x: G.x,
        cube_y: Math.round(G.y),
        cube_vy: Math.round(G.vy * 60),
        on_ground: G.ground,
        next_obstacle_dx: p ? p.start * TILE - (G.x + S) : null,
        next_obstacle: p ? p.text : null,
        ahead,
        obstacles_total: N_PATTERNS,
      };
    },
    reset() {
      held = false; pressed = false;
      newGame();
      draw();
    },
  };

  newGame();
  draw();
  requestAnimationFrame(frame);
})();
