// Relic Lanes: a three-lane temple runner for GameWorld (Temple Run 2-style).
// The explorer runs by itself along a stone causeway above the jungle. The causeway is a chain of
// straights; each ends at a corner that turns left or right (press that way in the last tiles before the
// edge). On a straight: roots and chasms across the path (jump), branches across it at head height
// (slide), statues blocking two of the three lanes (be in the free lane), and lines of coins.
// Logic runs in fixed ticks of 1000/60 ms counted from the clock time at which the run started: every
// animation frame, input event and getState() first runs the ticks due by performance.now(). Chance comes
// only from Math.random, drawn when a straight is laid out (at the start and at each turn).
(() => {
  "use strict";
  const W = 480, H = 360;
  const TICKS_PER_MS = 0.06;
  const V0 = 8, ACC = 0.1, VMAX = 12;    // tiles per second; gained per second; top speed
  const JUMP_TICKS = 36, SLIDE_TICKS = 30;
  const RUN_UP = 24;                     // tiles before the first obstacle of the first straight

  const canvas = document.getElementById("game");
  const ctx = canvas.getContext("2d");
  let S = null;
  let startMs = 0, ticksDone = 0;

  function speedAt(ticks) { return Math.min(VMAX, V0 + ACC * ticks / 60); }

  // ---------------------------------------------------------------- the causeway
  // Obstacle sizes follow the speed when the straight is laid out (v): a jump covers 0.6 v tiles, a slide
  // 0.5 v, a step of 0.25 s 0.25 v; each obstacle leaves a window of one step and 0.4 tile to act in.
  function layStraight(first) {
    const v = speedAt(S.ticks);
    const step = 0.25 * (v + 1);
    const obs = [], coins = [];
    let z = first ? RUN_UP : 9;
    const n = 3 + Math.floor(Math.random() * 2);
    for (let i = 0; i < n; i++) {
      const r = Math.random();
      const kind = r < 0.28 ? "roots" : r < 0.5 ? "chasm" : r < 0.75 ? "branch" : "statues";
      let len, free = -1;
      if (kind === "roots" || kind === "chasm") len = 0.6 * v - step - 0.4;
      else if (kind === "branch") len = 0.5 * v - step - 0.4;
      else { len = 1; free = Math.floor(Math.random() * 3); }
      if (kind === "statues" && i > 0) z += Math.max(0, Math.ceil(0.8 * v) - 8);
      obs.push({ kind, z0: z, z1: z + len, len, free, passed: false });
      // a line of coins in a random lane before the next obstacle
      const lane = Math.floor(Math.random() * 3);
      const gap = 8 + Math.floor(Math.random() * 4);
      for (let k = 0; k < 4; k++) coins.push({ lane, z: z + len + 2 + k * 1.2, got: false });
      z += len + gap;
    }
    const dir = Math.random() < 0.5 ? -1 : 1;
    return { obs, coins, len: z, dir, turnZone: step + 0.4 };
  }

  function newGame() {
    startMs = performance.now(); ticksDone = 0;
    S = {
      status: "playing", reason: null, ticks: 0, z: 0, dist: 0, lane: 1, air: 0, slide: 0,
      cleared: 0, turns: 0, coins: 0, straight: null, swing: 0, swingDir: 0, slideFrom: 1, laneT: 0,
      popup: 0, popupText: "", coinFlash: 0, fall: 0,
    };
    S.straight = layStraight(true);
  }

  function nextObstacle() {
    for (const o of S.straight.obs) if (!o.passed) return o;
    return null;
  }

  function die(reason) { S.status = "terminal"; S.reason = reason; S.fall = 0; }

  function tick() {
    if (S.swing > 0) S.swing--;
    if (S.laneT > 0) S.laneT--;
    if (S.popup > 0) S.popup--;
    if (S.coinFlash > 0) S.coinFlash--;
    if (S.status !== "playing") { if (S.fall < 30) S.fall++; return; }
    S.ticks++;
    const d = speedAt(S.ticks) / 60;
    S.z += d; S.dist += d;
    if (S.air > 0) S.air--;
    if (S.slide > 0) S.slide--;
    const st = S.straight;
    for (const o of st.obs) {
      if (o.passed) continue;
      if (S.z >= o.z1) { o.passed = true; S.cleared++; S.popup = 30; S.popupText = "CLEARED +1"; continue; }
      if (S.z < o.z0) continue;
      if ((o.kind === "roots") && S.air === 0) return die("tripped over the roots");
      if ((o.kind === "chasm") && S.air === 0) return die("fell into a chasm");
      if (o.kind === "branch" && S.slide === 0) return die("hit a branch");
      if (o.kind === "statues" && S.lane !== o.free) return die("ran into a statue");
    }
    for (const c of st.coins) {
      if (!c.got && c.lane === S.lane && S.air === 0 && Math.abs(c.z - S.z) < 0.5) {
        c.got = true; S.coins++; S.coinFlash = 12;
      }
    }
    if (S.z >= st.len) return die("ran off the edge at a corner");
  }

  // ---------------------------------------------------------------- input
  function side(dir) {
    const st = S.straight;
    if (dir === st.dir && S.z >= st.len - st.turnZone) {
      S.turns++; S.z = 0; S.swing = 12; S.swingDir = dir;
      S.popup = 40; S.popupText = "TURN " + S.turns;
      S.straight = layStraight(false);
      return;
    }
    const to = Math.max(0, Math.min(2, S.lane + dir));
    if (to !== S.lane) { S.slideFrom = S.lane; S.lane = to; S.laneT = 5; }
  }

  window.addEventListener("keydown", (e) => {
    catchUp();
    if (["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Space"].includes(e.code)) e.preventDefault();
    if (e.code === "Enter" && S.status === "terminal") { newGame(); return; }
    if (S.status !== "playing" || e.repeat) return;
    if (e.code === "ArrowLeft") side(-1);
    else if (e.code === "ArrowRight") side(1);
    else if (e.code === "ArrowUp" && S.air === 0 && S.slide === 0) S.air = JUMP_TICKS;
    else if (e.code === "ArrowDown" && S.air === 0 && S.slide === 0) S.slide = SLIDE_TICKS;
  });

  // ---------------------------------------------------------------- drawing
  const F = 360, CX = W / 2, HOR = 122, CAM_H = 1.4, CAM_BACK = 2.6;

  function hash(n) {
    let t = (n * 2654435761) >>> 0;
    t = Math.imul(t ^ (t >>> 15), 2246822507) >>> 0;
    t = Math.imul(t ^ (t >>> 13), 3266489909) >>> 0;
    return ((t ^ (t >>> 16)) >>> 0) / 4294967296;
  }

  // world (x across, y up, z along the straight) to screen
  function P(x, y, z) {
    const zc = Math.max(0.25, z - (S.z - CAM_BACK));
    return [CX + F * x / zc, HOR + F * (CAM_H - y) / zc];
  }

  function quad(a, b, c, d, fill) {
    ctx.fillStyle = fill;
    ctx.beginPath();
    ctx.moveTo(a[0], a[1]); ctx.lineTo(b[0], b[1]); ctx.lineTo(c[0], c[1]); ctx.lineTo(d[0], d[1]);
    ctx.closePath(); ctx.fill();
  }

  function drawBackdrop() {
    const sky = ctx.createLinearGradient(0, 0, 0, HOR);
    sky.addColorStop(0, "#2d6a8f");
    sky.addColorStop(0.7, "#f2b36b");
    sky.addColorStop(1, "#f7d08a");
    ctx.fillStyle = sky;
    ctx.fillRect(0, 0, W, HOR);
    ctx.fillStyle = "rgba(255,240,190,0.8)";
    ctx.beginPath(); ctx.arc(360, HOR - 30, 22, 0, Math.PI * 2); ctx.fill();
    // far mountains and a temple on a hill
    const off = (S.turns * 137) % 480;
    ctx.fillStyle = "#6f7f8a";
    ctx.beginPath(); ctx.moveTo(0, HOR);
    for (let i = 0; i <= 12; i++) {
      const x = i * 40, hgt = 20 + hash(i + off) * 34;
      ctx.lineTo(x, HOR - hgt);
    }
    ctx.lineTo(W, HOR); ctx.fill();
    const tx = 40 + (off * 0.7) % 380;
    ctx.fillStyle = "#4d5a63";
    ctx.fillRect(tx, HOR - 58, 40, 46);
    ctx.fillRect(tx + 6, HOR - 70, 28, 12);
    ctx.fillRect(tx + 13, HOR - 80, 14, 10);
    // jungle far below
    const g = ctx.createLinearGradient(0, HOR, 0, H);
    g.addColorStop(0, "#7fa37a");
    g.addColorStop(0.25, "#2f5e3c");
    g.addColorStop(1, "#0c2416");
    ctx.fillStyle = g;
    ctx.fillRect(0, HOR, W, H - HOR);
    for (let i = 0; i < 26; i++) {
      const zz = 4 + hash(i * 7 + 1) * 40, x = (hash(i * 7 + 2) - 0.5) * 60;
      const zc = zz - ((S.dist * 0.3) % 40);
      const z2 = zc < 2 ? zc + 40 : zc;
      const sx = CX + F * x / z2, sy = HOR + F * (CAM_H + 6) / z2 * 0.35;
      const r = 260 / z2;
      ctx.fillStyle = hash(i) < 0.5 ? "rgba(46,98,56,0.9)" : "rgba(34,78,44,0.9)";
      ctx.beginPath(); ctx.arc(sx, sy, r, 0, Math.PI * 2); ctx.fill();
    }
    ctx.fillStyle = "rgba(230,240,220,0.18)";
    ctx.fillRect(0, HOR, W, 16);
  }

  function drawPath() {
    const st = S.straight;
    const camZ = S.z - CAM_BACK;
    const near = Math.floor(camZ + 0.3);
    const far = Math.min(st.len, S.z + 40);
    // side faces first, then the top
    for (let z = Math.floor(far); z >= near; z--) {
      const z0 = Math.max(z, camZ + 0.3), z1 = Math.min(z + 1, st.len);
      if (z1 <= z0) continue;
      for (const sx of [-1.5, 1.5]) {
        quad(P(sx, 0, z0), P(sx, 0, z1), P(sx, -0.7, z1), P(sx, -0.7, z0), "#5a4a3a");
      }
    }
    for (let z = Math.floor(far); z >= near; z--) {
      const z0 = Math.max(z, camZ + 0.3), z1 = Math.min(z + 1, st.len);
      if (z1 <= z0) continue;
      const fog = Math.max(0.45, 1 - (z0 - camZ) / 45);
      for (let l = 0; l < 3; l++) {
        const shadeV = ((z + l) & 1) ? 0.92 : 1;
        const k = fog * shadeV;
        quad(P(-1.5 + l, 0, z0), P(-0.5 + l, 0, z0), P(-0.5 + l, 0, z1), P(-1.5 + l, 0, z1),
          "rgb(" + Math.round(196 * k) + "," + Math.round(172 * k) + "," + Math.round(128 * k) + ")");
      }
      // mossy edges and lane grooves
      ctx.strokeStyle = "rgba(60,110,50," + fog.toFixed(2) + ")";
      ctx.lineWidth = Math.max(1, 5 / (z0 - camZ));
      for (const sx of [-1.5, 1.5]) {
        const a = P(sx, 0, z0), b = P(sx, 0, z1);
        ctx.beginPath(); ctx.moveTo(a[0], a[1]); ctx.lineTo(b[0], b[1]); ctx.stroke();
      }
      ctx.strokeStyle = "rgba(110,90,60,0.5)";
      ctx.lineWidth = 1;
      for (const sx of [-0.5, 0.5]) {
        const a = P(sx, 0, z0), b = P(sx, 0, z1);
        ctx.beginPath(); ctx.moveTo(a[0], a[1]); ctx.lineTo(b[0], b[1]); ctx.stroke();
      }
    }
    // the corner: the causeway carries on sideways over the last 3 tiles
    if (st.len - S.z < 42) {
      const z0 = st.len - 3, z1 = st.len, d = st.dir;
      const xa = 1.5 * d, xb = 30 * d;
      quad(P(xa, -0.7, z0), P(xb, -0.7, z0), P(xb, 0, z0), P(xa, 0, z0), "#5a4a3a");
      quad(P(xa, 0, z0), P(xb, 0, z0), P(xb, 0, z1), P(xa, 0, z1), "#b59c70");
      quad(P(-1.5, -0.7, z1), P(1.5, -0.7, z1), P(1.5, 0, z1), P(-1.5, 0, z1), "#4a3c2e");
      // a broken pillar at the far edge
      const pl = P(-d * 1.1 - 0.3, 0, z1), pr = P(-d * 1.1 + 0.3, 2.2, z1);
      ctx.fillStyle = "#8a8174";
      ctx.fillRect(Math.min(pl[0], pr[0]), pr[1], Math.abs(pr[0] - pl[0]), pl[1] - pr[1]);
      if (S.z >= st.len - st.turnZone - 6 && S.status === "playing") {
        ctx.fillStyle = "rgba(255,214,90,0.9)";
        const c = P(0, 1.8, z0);
        const s = Math.min(40, 300 / Math.max(1, z0 - S.z + CAM_BACK));
        ctx.beginPath();
        ctx.moveTo(c[0] + d * s, c[1]); ctx.lineTo(c[0], c[1] - s * 0.6); ctx.lineTo(c[0], c[1] + s * 0.6);
        ctx.closePath(); ctx.fill();
        ctx.fillRect(Math.min(c[0], c[0] - d * s * 0.9), c[1] - s * 0.22, s * 0.9, s * 0.44);
      }
    }
  }

  function drawRoots(o) {
    const n = Math.max(2, Math.round(o.len * 1.6));
    for (let i = n - 1; i >= 0; i--) {
      const z = o.z0 + (o.len * (i + 0.5)) / n;
      if (z < S.z - 0.2) continue;
      const a = P(-1.8, 0, z), b = P(1.8, 0, z), top = P(0, 0.32 + 0.08 * (i & 1), z);
      ctx.strokeStyle = i & 1 ? "#5b3a1e" : "#74502c";
      ctx.lineWidth = Math.max(2, 70 / (z - S.z + CAM_BACK));
      ctx.lineCap = "round";
      ctx.beginPath();
      ctx.moveTo(a[0], a[1]);
      ctx.quadraticCurveTo((a[0] + top[0]) / 2, top[1] - (i & 1 ? 0 : 6), top[0], top[1]);
      ctx.quadraticCurveTo((b[0] + top[0]) / 2, top[1] + 4, b[0], b[1]);
      ctx.stroke();
    }
    ctx.lineCap = "butt";
  }

  function drawChasm(o) {
    const z0 = Math.max(o.z0, S.z - CAM_BACK + 0.3), z1 = o.z1;
    if (z1 <= z0) return;
    const g0 = P(-1.5, 0, z0), g1 = P(1.5, 0, z1);
    const grad = ctx.createLinearGradient(0, g1[1], 0, g0[1]);
    grad.addColorStop(0, "#0b1a10");
    grad.addColorStop(1, "#1e3a26");
    quad(P(-1.52, 0, z0), P(1.52, 0, z0), P(1.52, 0, z1), P(-1.52, 0, z1), grad);
    // the far wall of the chasm, seen through the hole
    ctx.save();
    const h0 = P(-1.52, 0, z0), h1 = P(1.52, 0, z0), h2 = P(1.52, 0, z1), h3 = P(-1.52, 0, z1);
    ctx.beginPath();
    ctx.moveTo(h0[0], h0[1]); ctx.lineTo(h1[0], h1[1]); ctx.lineTo(h2[0], h2[1]); ctx.lineTo(h3[0], h3[1]);
    ctx.closePath(); ctx.clip();
    const wt = P(0, 0, z1), wb = P(0, -2.5, z1);
    const wg = ctx.createLinearGradient(0, wt[1], 0, wb[1]);
    wg.addColorStop(0, "#6a543a");
    wg.addColorStop(0.3, "#2e2418");
    wg.addColorStop(1, "#040805");
    quad(P(-1.5, 0, z1), P(1.5, 0, z1), P(1.5, -2.5, z1), P(-1.5, -2.5, z1), wg);
    ctx.restore();
    ctx.strokeStyle = "#e7c98e"; ctx.lineWidth = 2;
    for (const z of [z0, z1]) {
      const a = P(-1.5, 0, z), b = P(1.5, 0, z);
      ctx.beginPath(); ctx.moveTo(a[0], a[1]); ctx.lineTo(b[0], b[1]); ctx.stroke();
    }
  }

  function drawBranch(o) {
    const z = Math.max(o.z0, S.z - 0.2);
    const zb = o.z1;
    // the underside and front of a fallen trunk at head height
    quad(P(-2.4, 0.95, z), P(2.4, 0.95, z), P(2.4, 0.95, zb), P(-2.4, 0.95, zb), "#4a3018");
    const a = P(-2.4, 1.45, z), b = P(2.4, 0.95, z);
    const grad = ctx.createLinearGradient(0, a[1], 0, b[1]);
    grad.addColorStop(0, "#8a5a30");
    grad.addColorStop(1, "#5a3a1c");
    ctx.fillStyle = grad;
    ctx.fillRect(a[0], a[1], b[0] - a[0], b[1] - a[1]);
    ctx.strokeStyle = "rgba(40,25,10,0.6)"; ctx.lineWidth = 1;
    for (let i = 1; i < 4; i++) {
      const y = a[1] + (b[1] - a[1]) * i / 4;
      ctx.beginPath(); ctx.moveTo(a[0], y); ctx.lineTo(b[0], y); ctx.stroke();
    }
    // vines and leaves
    const k = F / (z - S.z + CAM_BACK);
    for (let i = 0; i < 7; i++) {
      const x = -1.3 + i * 0.43;
      const p = P(x, 0.95, z);
      ctx.strokeStyle = "#3f7d3a"; ctx.lineWidth = Math.max(1, k * 0.03);
      ctx.beginPath(); ctx.moveTo(p[0], p[1]); ctx.lineTo(p[0] + k * 0.04, p[1] + k * (0.1 + 0.12 * hash(i))); ctx.stroke();
      ctx.fillStyle = i & 1 ? "#4f9a45" : "#3a7a34";
      ctx.beginPath(); ctx.ellipse(p[0], a[1], k * 0.16, k * 0.07, 0, 0, Math.PI * 2); ctx.fill();
    }
  }

  function drawStatues(o) {
    const z = Math.max(o.z0, S.z - 0.2);
    for (let l = 0; l < 3; l++) {
      if (l === o.free) continue;
      const x0 = -1.5 + l + 0.08, x1 = -0.5 + l - 0.08;
      // top and front
      quad(P(x0, 1.7, z), P(x1, 1.7, z), P(x1, 1.7, o.z1), P(x0, 1.7, o.z1), "#a59c8a");
      const a = P(x0, 1.7, z), b = P(x1, 0, z);
      const grad = ctx.createLinearGradient(0, a[1], 0, b[1]);
      grad.addColorStop(0, "#948b7a");
      grad.addColorStop(1, "#6b6357");
      ctx.fillStyle = grad;
      ctx.fillRect(a[0], a[1], b[0] - a[0], b[1] - a[1]);
      // a carved face
      const w = b[0] - a[0], h = b[1] - a[1];
      ctx.fillStyle = "#3d372f";
      ctx.fillRect(a[0] + w * 0.2, a[1] + h * 0.2, w * 0.2, h * 0.08);
      ctx.fillRect(a[0] + w * 0.6, a[1] + h * 0.2, w * 0.2, h * 0.08);
      ctx.fillStyle = "#e2574c";
      ctx.fillRect(a[0] + w * 0.25, a[1] + h * 0.21, w * 0.1, h * 0.05);
      ctx.fillRect(a[0] + w * 0.65, a[1] + h * 0.21, w * 0.1, h * 0.05);
      ctx.fillStyle = "#3d372f";
      ctx.fillRect(a[0] + w * 0.3, a[1] + h * 0.45, w * 0.4, h * 0.06);
      ctx.fillRect(a[0] + w * 0.15, a[1] + h * 0.62, w * 0.7, h * 0.05);
      ctx.strokeStyle = "#4c463c"; ctx.lineWidth = 1;
      ctx.strokeRect(a[0], a[1], w, h);
    }
  }

  function drawCoin(c) {
    if (c.got || c.z < S.z - CAM_BACK + 0.6) return;
    const p = P(-1 + c.lane, 0.45, c.z);
    const r = Math.max(1.5, F * 0.16 / (c.z - S.z + CAM_BACK));
    const g = ctx.createRadialGradient(p[0] - r * 0.3, p[1] - r * 0.3, 1, p[0], p[1], r);
    g.addColorStop(0, "#fff4b0");
    g.addColorStop(1, "#e3a21a");
    ctx.fillStyle = g;
    ctx.beginPath(); ctx.arc(p[0], p[1], r, 0, Math.PI * 2); ctx.fill();
    ctx.strokeStyle = "#a86f0c"; ctx.lineWidth = Math.max(1, r * 0.18);
    ctx.stroke();
  }

  function drawExplorer() {
    let x = -1 + S.lane;
    if (S.laneT > 0) x += (S.slideFrom - S.lane) * (S.laneT / 5);
    const t = JUMP_TICKS - S.air;
    let hgt = S.air > 0 ? 1.0 * 4 * t * S.air / (JUMP_TICKS * JUMP_TICKS) : 0;
    const dead = S.status === "terminal";
    const feet = P(x, hgt, S.z), ground = P(x, 0, S.z);
    const k = F / CAM_BACK / 140;            // sprite scale
    ctx.fillStyle = "rgba(30,20,10,0.35)";
    ctx.beginPath(); ctx.ellipse(ground[0], ground[1] - 2, 30 * k * (1 - hgt * 0.3), 8 * k, 0, 0, Math.PI * 2); ctx.fill();
    ctx.save();
    ctx.translate(feet[0], feet[1] + (dead ? S.fall * 1.5 : 0));
    ctx.scale(k, k);
    if (dead) ctx.rotate(Math.min(1.2, S.fall * 0.06));
    const sliding = S.slide > 0;
    if (sliding) {
      // crouched low, seen from behind
      ctx.fillStyle = "#3b2a1a"; ctx.fillRect(-20, -14, 40, 12);          // legs folded
      ctx.fillStyle = "#c9a26b"; ctx.fillRect(-18, -34, 36, 22);          // shirt
      ctx.fillStyle = "#6e4a2a"; ctx.fillRect(-14, -36, 28, 18);          // backpack
      ctx.fillStyle = "#8a5a2e";
      ctx.beginPath(); ctx.ellipse(0, -40, 26, 6, 0, 0, Math.PI * 2); ctx.fill(); // hat brim
      ctx.fillRect(-11, -52, 22, 12);
      ctx.restore();
      return;
    }
    const stepP = S.air > 0 || dead ? 2 : Math.floor(S.ticks / 5) % 2;
    ctx.fillStyle = "#3b2a1a";
    if (stepP === 2) { ctx.fillRect(-14, -30, 10, 26); ctx.fillRect(4, -30, 10, 26); }
    else if (stepP === 0) { ctx.fillRect(-14, -30, 10, 30); ctx.fillRect(4, -30, 10, 18); }
    else { ctx.fillRect(-14, -30, 10, 18); ctx.fillRect(4, -30, 10, 30); }
    ctx.fillStyle = "#c9a26b"; ctx.fillRect(-18, -66, 36, 38);             // shirt
    ctx.fillStyle = "#e0b07c";                                            // arms
    const sw = stepP === 0 ? 6 : stepP === 1 ? -6 : -14;
    ctx.fillRect(-26, -62 + sw, 8, 24); ctx.fillRect(18, -62 - sw, 8, 24);
    ctx.fillStyle = "#6e4a2a"; ctx.fillRect(-14, -64, 28, 26);             // backpack
    ctx.fillStyle = "#4e321c"; ctx.fillRect(-14, -52, 28, 4);
    ctx.fillStyle = "#e0b07c"; ctx.fillRect(-8, -78, 16, 12);              // neck / head
    ctx.fillStyle = "#8a5a2e";
    ctx.beginPath(); ctx.ellipse(0, -80, 24, 6, 0, 0, Math.PI * 2); ctx.fill();  // hat
    ctx.fillRect(-12, -94, 24, 14);
    ctx.fillStyle = "#5a3a1c"; ctx.fillRect(-12, -84, 24, 3);
    ctx.restore();
  }

  function drawObjects() {
    const st = S.straight;
    const items = [];
    for (const o of st.obs) if (o.z1 > S.z - 0.2 && o.z0 < S.z + 44) items.push({ z: o.z0, o });
    for (const c of st.coins) if (!c.got && c.z > S.z - 0.3 && c.z < S.z + 44) items.push({ z: c.z, c });
    items.sort((a, b) => b.z - a.z);
    let drawnPlayer = false;
    for (const it of items) {
      if (!drawnPlayer && it.z < S.z) { drawExplorer(); drawnPlayer = true; }
      if (it.c) drawCoin(it.c);
      else if (it.o.kind === "roots") drawRoots(it.o);
      else if (it.o.kind === "chasm") drawChasm(it.o);
      else if (it.o.kind === "branch") drawBranch(it.o);
      else drawStatues(it.o);
    }
    if (!drawnPlayer) drawExplorer();
  }

  function drawHud() {
    ctx.fillStyle = "rgba(30,20,10,0.7)";
    ctx.fillRect(0, 0, W, 30);
    ctx.fillStyle = S.popup > 0 ? "#ffd35a" : "#8a6a3a";
    ctx.fillRect(0, 30, W, 2);
    ctx.font = "bold 14px monospace";
    ctx.textBaseline = "middle";
    ctx.textAlign = "left";
    ctx.fillStyle = "#fff4d8";
    ctx.fillText("CLEARED " + S.cleared, 10, 16);
    ctx.fillText("TURNS " + S.turns, 136, 16);
    ctx.fillStyle = S.coinFlash > 0 ? "#fff4b0" : "#ffcf4a";
    ctx.beginPath(); ctx.arc(246, 16, 7, 0, Math.PI * 2); ctx.fill();
    ctx.fillText(String(S.coins), 258, 16);
    ctx.textAlign = "right";
    ctx.fillStyle = "#fff4d8";
    ctx.fillText(Math.floor(S.dist) + " m", W - 10, 16);
    ctx.fillStyle = "#d9c09a";
    ctx.font = "bold 12px monospace";
    ctx.fillText(speedAt(S.ticks).toFixed(1) + " m/s", W - 80, 16);
    ctx.textAlign = "center";
    if (S.status === "playing" && S.ticks < 120 && S.turns === 0) {
      ctx.font = "bold 13px monospace";
      ctx.fillStyle = "rgba(40,25,10,0.55)";
      ctx.fillRect(40, 42, 400, 40);
      ctx.fillStyle = "#fff4d8";
      ctx.fillText("\u2190 \u2192 lane / turn at corners", W / 2, 54);
      ctx.fillText("\u2191 jump roots & chasms   \u2193 slide under branches", W / 2, 72);
    }
    if (S.popup > 0 && S.status === "playing") {
      ctx.font = "bold 18px monospace";
      ctx.fillStyle = "rgba(255,211,90," + Math.min(1, S.popup / 15).toFixed(2) + ")";
      ctx.fillText(S.popupText, W / 2, 58 - (40 - S.popup) * 0.3);
    }
    if (S.status === "terminal") {
      ctx.fillStyle = "rgba(20,10,5,0.6)";
      ctx.fillRect(0, 0, W, H);
      ctx.fillStyle = "#ff8a5c";
      ctx.font = "bold 30px monospace";
      ctx.fillText("THE RELIC IS LOST", W / 2, 130);
      ctx.fillStyle = "#fff4d8";
      ctx.font = "bold 15px monospace";
      ctx.fillText("You " + S.reason, W / 2, 170);
      ctx.fillText("Cleared " + S.cleared + "  Turns " + S.turns + "  Coins " + S.coins, W / 2, 194);
      ctx.fillStyle = "#d9c09a";
      ctx.font = "13px monospace";
      ctx.fillText("press Enter to run again", W / 2, 226);
    }
  }

  function draw() {
    ctx.save();
    if (S.swing > 0) ctx.translate(-S.swingDir * S.swing * 18, 0);
    drawBackdrop();
    drawPath();
    drawObjects();
    ctx.restore();
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
      const o = nextObstacle();
      const st = S.straight;
      const term = S.status === "terminal";
      return {
        status: S.status,
        actionable: S.status === "playing",
        terminal: { is_terminal: term, outcome: term ? "lose" : null, reason: term ? S.reason : null },
        score: Math.floor(S.dist),
        obstacles_cleared: S.cleared,
        turns_taken: S.turns,
        coins: S.coins,
        lane: S.lane,
        jump_ticks: S.air,
        slide_ticks: S.slide,
        speed: Math.round(speedAt(S.ticks) * 10),
        next_obstacle_kind: o ? o.kind : null,
        next_obstacle_distance: o ? Math.floor((o.z0 - S.z) * 10) : null,
        next_obstacle_length: o ? Math.ceil(o.len * 10) : null,
        free_lane: o ? o.free : null,
        corner_distance: Math.floor((st.len - S.z) * 10),
        corner_dir: st.dir,
        in_turn_zone: S.z >= st.len - st.turnZone,
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
