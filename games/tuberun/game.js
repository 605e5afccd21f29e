// Tube Run: a runner in a square tunnel floating in space, for GameWorld.
// The tunnel has 4 sides of 3 lanes each (12 lanes around); stepping off the edge of the side you run on
// takes you onto the next side, which becomes your floor (the view turns with you). Holes in the tunnel:
// "gap" (a ring of 2 missing rows: jump it), "pit" (8-10 rows missing everywhere but a 3-lane strip
// on one side: be on the strip) and "narrow" (the same with a 2-lane strip that may straddle a corner).
// Logic runs in fixed ticks of 1000/60 ms counted from the clock time at which the run started: every
// animation frame, input event and getState() first runs the ticks due by performance.now(). Chance comes
// only from Math.random, drawn when a hole is laid out (the tunnel does not depend on the player's moves).
(() => {
  "use strict";
  const W = 480, H = 360;
  const SIDES = 4, PER_SIDE = 3, LANES = SIDES * PER_SIDE;
  const TICKS_PER_MS = 0.06;
  const V0 = 7, ACC = 0.12, VMAX = 11;   // tiles per second; gained per second; top speed
  const JUMP_TICKS = 40;                 // a jump lasts 2/3 s
  const SEG_LEN = 50;                    // tiles in a segment of the tunnel
  const RUN_UP = 14;                     // solid tiles before the first hole
  const ROT_T = 9, SLIDE_T = 5;          // drawing only: ticks of the turn / lane slide animation

  const canvas = document.getElementById("game");
  const ctx = canvas.getContext("2d");
  let S = null;
  let startMs = 0, ticksDone = 0;

  function speedAt(ticks) { return Math.min(VMAX, V0 + ACC * ticks / 60); }
  function mod(a, n) { return ((a % n) + n) % n; }
  function sideOf(lane) { return Math.floor(lane / PER_SIDE); }

  // ---------------------------------------------------------------- the tunnel
  function layHole() {
    const last = S.holes[S.holes.length - 1];
    const n = S.holes.length;
    const from = last ? last.z1 : RUN_UP;
    // the speed when the runner will be about here (a fair estimate is enough: spacing only)
    const v = speedAt(Math.max(0, (from - S.z) / V0 * 60 + S.ticks));
    let kind;
    if (n === 0) kind = "pit";
    else {
      const r = Math.random();
      kind = r < 0.4 ? "gap" : r < 0.7 ? "pit" : "narrow";
    }
    let lead, len, safeFirst = -1, safeCount = 0;
    if (kind === "gap") {
      lead = 7 + Math.floor(Math.random() * 5);
      len = 2;
    } else {
      lead = Math.ceil(1.7 * v) + Math.floor(Math.random() * 4);
      len = 8 + Math.floor(Math.random() * 3);
      if (kind === "pit") {
        // a whole side, never the side of the hole before (the start side for the first pit)
        let side = Math.floor(Math.random() * (SIDES - 1));
        if (side >= S.lastSide) side++;
        S.lastSide = side;
        safeFirst = side * PER_SIDE; safeCount = PER_SIDE;
      } else {
        safeFirst = Math.floor(Math.random() * LANES); safeCount = 2;
        S.lastSide = sideOf(mod(safeFirst + 1, LANES));
      }
    }
    if (!last) lead = 0;
    const z0 = from + lead;
    S.holes.push({ kind, z0, z1: z0 + len, len, safeFirst, safeCount, passed: false });
  }

  function safeLane(h, lane) {
    return h.safeCount > 0 && mod(lane - h.safeFirst, LANES) < h.safeCount;
  }

  function tileAt(row, lane) {   // is there a tile at this row and lane?
    for (const h of S.holes) {
      if (row >= h.z0 && row < h.z1 && !safeLane(h, lane)) return false;
      if (h.z0 > row) break;
    }
    return true;
  }

  function newGame() {
    startMs = performance.now(); ticksDone = 0;
    S = {
      status: "playing", reason: null, ticks: 0, z: 0, lane: 1, air: 0, holes: [],
      cleared: 0, lastSide: 0, rot: 0, rotDir: 0, slide: 0, slideFrom: 0, popup: 0, banner: 0, fall: 0,
    };
    while (S.holes.length === 0 || S.holes[S.holes.length - 1].z0 < S.z + 40) layHole();
  }

  function nextHole() {
    for (const h of S.holes) if (!h.passed) return h;
    return null;
  }

  function tick() {
    if (S.rot > 0) S.rot--;
    if (S.slide > 0) S.slide--;
    if (S.popup > 0) S.popup--;
    if (S.banner > 0) S.banner--;
    if (S.status !== "playing") { if (S.fall < 40) S.fall++; return; }
    S.ticks++;
    const segBefore = Math.floor(S.z / SEG_LEN);
    S.z += speedAt(S.ticks) / 60;
    if (Math.floor(S.z / SEG_LEN) > segBefore) S.banner = 90;
    if (S.air > 0) S.air--;
    for (const h of S.holes) {
      if (!h.passed && S.z >= h.z1) { h.passed = true; S.cleared++; S.popup = 36; }
    }
    if (S.air === 0 && !tileAt(Math.floor(S.z), S.lane)) {
      let hole = null;
      for (const h of S.holes) if (S.z >= h.z0 && S.z < h.z1) hole = h;
      S.status = "terminal";
      S.reason = hole && hole.kind === "gap" ? "fell through a gap" : "fell into a pit";
      S.fall = 0;
      return;
    }
    while (S.holes.length > 1 && S.holes[0].z1 < S.z - 4) S.holes.shift();
    while (S.holes[S.holes.length - 1].z0 < S.z + 40) layHole();
  }

  // ---------------------------------------------------------------- input
  function move(dir) {
    const from = S.lane;
    S.lane = mod(S.lane + dir, LANES);
    if (sideOf(from) !== sideOf(S.lane)) { S.rot = ROT_T; S.rotDir = dir; S.slide = 0; }
    else { S.slide = SLIDE_T; S.slideFrom = mod(from, PER_SIDE); }
  }

  window.addEventListener("keydown", (e) => {
    catchUp();
    if (["ArrowLeft", "ArrowRight", "Space", "ArrowUp"].includes(e.code)) e.preventDefault();
    if (e.code === "Enter" && S.status === "terminal") { newGame(); return; }
    if (S.status !== "playing" || e.repeat) return;
    if (e.code === "ArrowLeft") move(-1);
    else if (e.code === "ArrowRight") move(1);
    else if ((e.code === "Space" || e.code === "ArrowUp") && S.air === 0) S.air = JUMP_TICKS;
  });

  // ---------------------------------------------------------------- drawing
  const F = 300, CX = W / 2, CY = 150;   // focal length, vanishing point
  const HALF = 1.5;                      // half the tunnel's width, in tiles
  const CAM_BACK = 2.5;                  // the camera is this many tiles behind the runner
  const PALETTES = [
    [[64, 170, 220], [40, 120, 185]],
    [[170, 96, 220], [120, 64, 180]],
    [[235, 150, 60], [200, 105, 40]],
    [[80, 200, 130], [45, 150, 95]],
    [[230, 80, 110], [180, 50, 80]],
  ];

  function hash(n) {
    let t = (n * 2654435761) >>> 0;
    t = Math.imul(t ^ (t >>> 15), 2246822507) >>> 0;
    t = Math.imul(t ^ (t >>> 13), 3266489909) >>> 0;
    return ((t ^ (t >>> 16)) >>> 0) / 4294967296;
  }

  // a point of the cross-section: relative side r (0 floor, 1 right wall, 2 ceiling, 3 left wall), u in 0..3
  function ring(r, u) {
    if (r === 0) return [-HALF + u, HALF];
    if (r === 1) return [HALF, HALF - u];
    if (r === 2) return [HALF - u, -HALF];
    return [-HALF, -HALF + u];
  }

  function proj(p, z) { return [CX + F * p[0] / z, CY + F * p[1] / z]; }

  function drawSpace() {
    const g = ctx.createRadialGradient(CX, CY, 10, CX, CY, 420);
    g.addColorStop(0, "#1c1640");
    g.addColorStop(1, "#03030c");
    ctx.fillStyle = g;
    ctx.fillRect(-W, -H, 3 * W, 3 * H);
    for (let i = 0; i < 90; i++) {
      const x = hash(i * 3 + 1) * W * 1.6 - W * 0.3, y = hash(i * 3 + 2) * H * 1.6 - H * 0.3;
      const b = hash(i * 3 + 3);
      ctx.fillStyle = b > 0.8 ? "#fff6c8" : b > 0.4 ? "#c8d4ff" : "#7a80b8";
      ctx.fillRect(Math.round(x), Math.round(y), b > 0.85 ? 2 : 1, b > 0.85 ? 2 : 1);
    }
  }

  function shade(c, k) {
    return "rgb(" + Math.round(c[0] * k + 8 * (1 - k)) + "," + Math.round(c[1] * k + 6 * (1 - k)) + "," +
      Math.round(c[2] * k + 24 * (1 - k)) + ")";
  }

  function drawTunnel() {
    const camZ = S.z - CAM_BACK;
    const ps = sideOf(S.lane);
    const first = Math.floor(camZ + 0.3), last = Math.floor(S.z) + 30;
    for (let row = last; row >= first; row--) {
      const z0 = Math.max(0.35, row - camZ), z1 = row + 1 - camZ;
      if (z1 <= 0.35) continue;
      const seg = Math.floor(Math.max(0, row) / SEG_LEN);
      const pal = PALETTES[seg % PALETTES.length];
      const fog = Math.max(0, 1 - (z0 - 1) / 30);
      for (let lane = 0; lane < LANES; lane++) {
        if (!tileAt(row, lane)) continue;
        const r = mod(sideOf(lane) - ps, SIDES), u = mod(lane, PER_SIDE);
        const a = ring(r, u), b = ring(r, u + 1);
        const p0 = proj(a, z0), p1 = proj(b, z0), p2 = proj(b, z1), p3 = proj(a, z1);
        const base = pal[(row + lane) & 1];
        const wall = r === 0 ? 1 : r === 2 ? 0.62 : 0.8;
        ctx.fillStyle = shade(base, fog * wall);
        ctx.beginPath();
        ctx.moveTo(p0[0], p0[1]); ctx.lineTo(p1[0], p1[1]); ctx.lineTo(p2[0], p2[1]); ctx.lineTo(p3[0], p3[1]);
        ctx.closePath();
        ctx.fill();
        ctx.strokeStyle = shade([20, 20, 50], 1);
        ctx.lineWidth = z0 < 6 ? 2 : 1;
        ctx.stroke();
        // a glowing edge where the tunnel breaks off
        if (!tileAt(row - 1, lane)) {
          ctx.strokeStyle = "rgba(255,230,140," + (0.9 * fog).toFixed(2) + ")";
          ctx.lineWidth = 2;
          ctx.beginPath(); ctx.moveTo(p0[0], p0[1]); ctx.lineTo(p1[0], p1[1]); ctx.stroke();
        }
        if (!tileAt(row + 1, lane)) {
          ctx.strokeStyle = "rgba(255,120,90," + (0.9 * fog).toFixed(2) + ")";
          ctx.lineWidth = 2;
          ctx.beginPath(); ctx.moveTo(p3[0], p3[1]); ctx.lineTo(p2[0], p2[1]); ctx.stroke();
        }
      }
    }
  }

  function drawRunner() {
    const u = mod(S.lane, PER_SIDE) + 0.5;
    let x = -HALF + u;
    if (S.slide > 0) x += (S.slideFrom - mod(S.lane, PER_SIDE)) * (S.slide / SLIDE_T);
    const z = CAM_BACK;
    const k = F / z;                      // px per tile at the runner
    const t = JUMP_TICKS - S.air;
    let hgt = S.air > 0 ? 1.1 * 4 * t * S.air / (JUMP_TICKS * JUMP_TICKS) : 0;
    const dead = S.status === "terminal";
    if (dead) hgt = -0.04 * S.fall * S.fall - 0.3;
    const sx = CX + k * x, floorY = CY + k * HALF;
    // shadow
    if (!dead) {
      ctx.fillStyle = "rgba(0,0,20," + (0.35 - 0.15 * hgt).toFixed(2) + ")";
      ctx.beginPath(); ctx.ellipse(sx, floorY - 2, 26 - 8 * hgt, 7, 0, 0, Math.PI * 2); ctx.fill();
    }
    const by = floorY - k * hgt;         // feet
    const s = dead ? Math.max(0.2, 1 - S.fall / 40) : 1;
    ctx.save();
    ctx.translate(sx, by);
    ctx.scale(s, s);
    const step = S.air > 0 || dead ? 2 : Math.floor(S.ticks / 6) % 2;
    // legs
    ctx.fillStyle = "#5b6078";
    if (step === 2) { ctx.fillRect(-14, -18, 9, 14); ctx.fillRect(5, -18, 9, 14); }
    else if (step === 0) { ctx.fillRect(-14, -20, 9, 20); ctx.fillRect(5, -20, 9, 10); }
    else { ctx.fillRect(-14, -20, 9, 10); ctx.fillRect(5, -20, 9, 20); }
    // body
    const body = ctx.createLinearGradient(-22, -64, 22, -14);
    body.addColorStop(0, "#e4e8f4");
    body.addColorStop(1, "#8d94b0");
    ctx.fillStyle = body;
    ctx.beginPath(); ctx.ellipse(0, -40, 21, 25, 0, 0, Math.PI * 2); ctx.fill();
    // antenna
    ctx.strokeStyle = "#8d94b0"; ctx.lineWidth = 3;
    ctx.beginPath(); ctx.moveTo(0, -64); ctx.lineTo(6, -76); ctx.stroke();
    ctx.fillStyle = "#ffd23f";
    ctx.beginPath(); ctx.arc(6, -78, 4, 0, Math.PI * 2); ctx.fill();
    // visor seen from behind: a band, and arms
    ctx.fillStyle = "#2e3350";
    ctx.fillRect(-16, -50, 32, 8);
    ctx.fillStyle = "#6ad7ff";
    ctx.fillRect(-12, -49, 8, 3);
    ctx.fillStyle = "#5b6078";
    const swing = step === 0 ? 4 : step === 1 ? -4 : -10;
    ctx.fillRect(-27, -40 + swing, 7, 14);
    ctx.fillRect(20, -40 - swing, 7, 14);
    ctx.restore();
  }

  function drawHud() {
    ctx.fillStyle = "rgba(6,6,24,0.72)";
    ctx.fillRect(0, 0, W, 30);
    ctx.fillStyle = S.popup > 0 ? "#ffd23f" : "#3f4a8c";
    ctx.fillRect(0, 30, W, 2);
    ctx.font = "bold 15px monospace";
    ctx.textBaseline = "middle";
    ctx.textAlign = "left";
    ctx.fillStyle = S.popup > 0 ? "#ffd23f" : "#ffffff";
    ctx.fillText("GAPS " + S.cleared, 10, 16);
    ctx.fillStyle = "#ffffff";
    ctx.fillText("SEG " + (Math.floor(S.z / SEG_LEN) + 1), 120, 16);
    ctx.textAlign = "right";
    ctx.fillText(Math.floor(S.z) + " m", W - 10, 16);
    ctx.fillStyle = "#9aa6e0";
    ctx.font = "bold 12px monospace";
    ctx.fillText((speedAt(S.ticks)).toFixed(1) + " m/s", W - 90, 16);
    // where on the ring you are: a little square with your side lit
    const mx = 232, my = 6, ms = 18;
    ctx.strokeStyle = "#6f7bc0"; ctx.lineWidth = 2;
    ctx.strokeRect(mx, my, ms, ms);
    ctx.fillStyle = "#ffd23f";
    ctx.fillRect(mx + 2 + mod(S.lane, PER_SIDE) * 5, my + ms - 5, 4, 4);
    ctx.fillStyle = "#9aa6e0";
    ctx.font = "bold 12px monospace";
    ctx.textAlign = "left";
    ctx.fillText("WALL " + (sideOf(S.lane) + 1), mx + ms + 6, 16);

    ctx.textAlign = "center";
    if (S.status === "playing" && S.ticks < 120) {
      ctx.font = "bold 14px monospace";
      ctx.fillStyle = "rgba(255,255,255,0.92)";
      ctx.fillText("\u2190 \u2192 move: step off the edge onto the wall", W / 2, 52);
      ctx.fillText("SPACE jump the gaps", W / 2, 70);
    }
    if (S.popup > 0 && S.status === "playing") {
      ctx.font = "bold 18px monospace";
      ctx.fillStyle = "rgba(255,210,63," + Math.min(1, S.popup / 18).toFixed(2) + ")";
      ctx.fillText("GAP CLEARED +1", W / 2, 96 - (36 - S.popup) * 0.6);
    }
    if (S.banner > 0 && S.status === "playing") {
      ctx.font = "bold 22px monospace";
      ctx.fillStyle = "rgba(140,240,255," + Math.min(1, S.banner / 30).toFixed(2) + ")";
      ctx.fillText("SEGMENT " + (Math.floor(S.z / SEG_LEN) + 1), W / 2, 128);
    }
    if (S.status === "terminal") {
      ctx.fillStyle = "rgba(3,3,15,0.62)";
      ctx.fillRect(0, 0, W, H);
      ctx.fillStyle = "#ff6b8a";
      ctx.font = "bold 32px monospace";
      ctx.fillText("LOST IN SPACE", W / 2, 130);
      ctx.fillStyle = "#ffffff";
      ctx.font = "bold 15px monospace";
      ctx.fillText("You " + S.reason + " after " + Math.floor(S.z) + " m", W / 2, 170);
      ctx.fillText("Gaps cleared: " + S.cleared + "   Segment " + (Math.floor(S.z / SEG_LEN) + 1), W / 2, 194);
      ctx.fillStyle = "#9aa6e0";
      ctx.font = "13px monospace";
      ctx.fillText("press Enter to run again", W / 2, 226);
    }
  }

  function draw() {
    ctx.save();
    if (S.rot > 0) {
      ctx.translate(CX, CY);
      ctx.rotate(-S.rotDir * (Math.PI / 2) * (S.rot / ROT_T));
      ctx.translate(-CX, -CY);
    }
    drawSpace();
    drawTunnel();
    ctx.restore();
    drawRunner();
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
      const h = nextHole();
      const term = S.status === "terminal";
      return {
        status: S.status,
        actionable: S.status === "playing",
        terminal: { is_terminal: term, outcome: term ? "lose" : null, reason: term ? S.reason : null },
        score: Math.floor(S.z),
        gaps_cleared: S.cleared,
        segments_passed: Math.floor(S.z / SEG_LEN),
        lane: S.lane,
        side: sideOf(S.lane),
        jump_ticks: S.air,
        speed: Math.round(speedAt(S.ticks) * 10),
        next_gap_distance: h ? Math.floor((h.z0 - S.z) * 10) : null,
        next_gap_length: h ? h.len : null,
        next_gap_kind: h ? h.kind : null,
        safe_lane_first: h ? h.safeFirst : null,
        safe_lane_count: h ? h.safeCount : null,
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
