// Slope Surf: a downhill snow-surfer for GameWorld (Edge Surf-style).
// The surfer slides down a winding trail lined with pine trees; Left/Right turn the board one notch
// (seven headings). After the opening S-bend there is a gate every 144 px of trail; leaving the trail
// means hitting the trees.
// Logic runs in fixed ticks of 1000/60 ms counted from the clock time at which the attempt started:
// every animation frame, key event and getState() first runs the ticks due by performance.now().
// Chance comes only from Math.random, drawn when a trail segment is laid out.
(() => {
  "use strict";
  const W = 480, H = 360;
  const SY = 110;                  // screen y of the surfer
  const SPD = 3;                   // px down the slope per tick
  const NMAX = 3;                  // headings -3..3; heading n moves n px sideways per tick
  const SEG = 144;                 // trail length between gates (48 ticks, 4 steps)
  const HALF = 36;                 // trail half width
  const HW = 6;                    // surfer half width (hitbox)
  const XMIN = 110, XMAX = 370;    // gate centres stay in this band
  const BOOST_R = 14;
  const TICKS_PER_MS = 0.06;

  const canvas = document.getElementById("game");
  const ctx = canvas.getContext("2d");
  let G = null;
  let startMs = 0, ticksDone = 0;

  // trail points: pts[i] = {y, x, k}; segment i (from pts[i-1] to pts[i]) has slope k (px sideways per 3 px down)
  function addPoint() {
    const prev = G.pts[G.pts.length - 1];
    let k;
    if (G.pts.length === 1) k = Math.random() < 0.5 ? -2 : 2;   // the run opens with an S-bend
    else if (G.pts.length === 2) k = prev.k > 0 ? -1 : 1;
    else {
      k = prev.k + Math.floor(Math.random() * 5) - 2;
      k = Math.max(-2, Math.min(2, k));
      if (prev.x + 48 * k < XMIN || prev.x + 48 * k > XMAX) k = -k;
      if (prev.x + 48 * k < XMIN || prev.x + 48 * k > XMAX) k = 0;
    }
    const pt = { y: prev.y + SEG, x: prev.x + 48 * k, k };
    G.pts.push(pt);
    // a boost on some segments, beside the centre line at the segment's middle
    if (G.pts.length > 2 && Math.random() < 0.5) {
      const side = Math.random() < 0.5 ? -1 : 1;
      G.boosts.push({ y: prev.y + SEG / 2, x: prev.x + 24 * k + side * 18, taken: false });
    }
  }

  function centreAt(y) {
    for (let i = 1; i < G.pts.length; i++) {
      const a = G.pts[i - 1], b = G.pts[i];
      if (y <= b.y) return a.x + (b.k * (y - a.y)) / 3;
    }
    return G.pts[G.pts.length - 1].x;
  }

  function newGame() {
    startMs = performance.now(); ticksDone = 0;
    G = { status: "playing", reason: null, ticks: 0, x: 240, y: 0, n: 0, gates: 0, boostsTaken: 0,
          pts: [{ y: 0, x: 240, k: 0 }], boosts: [], tracks: [], puff: [], flash: 0, pop: 0, zoom: 0 };
    while (G.pts[G.pts.length - 1].y < G.y + H + 2 * SEG) addPoint();
  }

  function crash(reason) {
    G.status = "terminal"; G.reason = reason; G.flash = 10;
    const SNOW = [[3, -2], [2, -3], [0, -3.5], [-2, -3], [-3, -2], [4, -1], [-4, -1], [1, -2], [-1, -2], [2, -1.5]];
    for (const [vx, vy] of SNOW) G.puff.push({ x: G.x, y: G.y, vx, vy, life: 30 });
  }

  function tick() {
    G.ticks++;
    if (G.flash > 0) G.flash--;
    if (G.pop > 0) G.pop--;
    if (G.zoom > 0) G.zoom--;
    for (const p of G.puff) { p.x += p.vx; p.y += p.vy; p.vy += 0.2; p.life--; }
    G.puff = G.puff.filter((p) => p.life > 0);
    if (G.status !== "playing") return;
    G.x += G.n;
    G.y += SPD;
    if (G.ticks % 2 === 0) { G.tracks.push({ x: G.x, y: G.y }); if (G.tracks.length > 70) G.tracks.shift(); }
    if (Math.abs(G.x - centreAt(G.y)) > HALF - HW) { crash("hit the trees"); return; }
    // gates: pts[1..] are gate centres
    const passed = Math.max(0, Math.floor(G.y / SEG) - 1);   // the first gate ends the S-bend
    if (passed > G.gates) { G.gates = passed; G.pop = 16; }
    for (const b of G.boosts) {
      if (!b.taken && Math.abs(b.y - G.y) <= 8 && Math.abs(b.x - G.x) <= BOOST_R) { b.taken = true; G.boostsTaken++; G.zoom = 24; }
    }
    while (G.pts.length > 3 && G.pts[1].y < G.y - SY - SEG) G.pts.shift();
    G.boosts = G.boosts.filter((b) => b.y > G.y - SY - 40);
    while (G.pts[G.pts.length - 1].y < G.y + H + 2 * SEG) addPoint();
  }

  // ---------------------------------------------------------------- input
  window.addEventListener("keydown", (e) => {
    catchUp();
    if (e.code === "ArrowLeft" || e.code === "ArrowRight") e.preventDefault();
    if (e.code === "Enter" && G.status === "terminal") { newGame(); draw(); return; }
    if (G.status !== "playing" || e.repeat) return;
    if (e.code === "ArrowLeft") G.n = Math.max(-NMAX, G.n - 1);
    if (e.code === "ArrowRight") G.n = Math.min(NMAX, G.n + 1);
  });
  window.addEventListener("keyup", () => { catchUp(); });

  // ---------------------------------------------------------------- drawing
  function hash(n) {
    let t = (n * 2654435761) >>> 0;
    t = Math.imul(t ^ (t >>> 15), 2246822507) >>> 0;
    t = Math.imul(t ^ (t >>> 13), 3266489909) >>> 0;
    return ((t ^ (t >>> 16)) >>> 0) / 4294967296;
  }

  let snowGrad = null;
  function tree(x, y, s) {
    ctx.fillStyle = "rgba(60,90,120,0.18)";
    ctx.beginPath(); ctx.ellipse(x + 4, y + 2, 9 * s, 3 * s, 0, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = "#6b4424";
    ctx.fillRect(x - 2 * s, y - 5 * s, 4 * s, 6 * s);
    const tiers = [["#1f6b45", 0], ["#27845a", 7], ["#34a06d", 13]];
    for (const [c, o] of tiers) {
      ctx.fillStyle = c;
      ctx.beginPath();
      ctx.moveTo(x, y - (22 + o) * s);
      ctx.lineTo(x - (11 - o / 3) * s, y - (4 + o) * s);
      ctx.lineTo(x + (11 - o / 3) * s, y - (4 + o) * s);
      ctx.closePath(); ctx.fill();
    }
    ctx.fillStyle = "rgba(255,255,255,0.85)";
    ctx.beginPath(); ctx.moveTo(x, y - 35 * s); ctx.lineTo(x - 3 * s, y - 30 * s); ctx.lineTo(x + 3 * s, y - 30 * s); ctx.fill();
  }

  function drawSlope(top) {
    if (!snowGrad) {
      snowGrad = ctx.createLinearGradient(0, 0, W, H);
      snowGrad.addColorStop(0, "#e8f3fb");
      snowGrad.addColorStop(1, "#cfe3f2");
    }
    ctx.fillStyle = snowGrad;
    ctx.fillRect(0, 0, W, H);
    // the groomed trail, in 8 px slices
    ctx.fillStyle = "#f9fcff";
    for (let sy = -8; sy < H + 8; sy += 8) {
      const c = centreAt(top + sy);
      ctx.fillRect(Math.round(c - HALF), sy, HALF * 2, 9);
    }
    // corduroy lines
    ctx.fillStyle = "rgba(170,200,225,0.35)";
    const first = Math.ceil(top / 16) * 16;
    for (let wy = first; wy < top + H; wy += 16) {
      const c = centreAt(wy);
      ctx.fillRect(Math.round(c - HALF + 4), Math.round(wy - top), HALF * 2 - 8, 1);
    }
  }

  function drawTrees(top) {
    // trees line both edges of the trail every 24 px, and dot the open slope
    const first = Math.floor(top / 24) * 24 - 24;
    for (let wy = first; wy < top + H + 40; wy += 24) {
      const c = centreAt(wy), sy = wy - top;
      const j = Math.floor(wy / 24);
      tree(Math.round(c - HALF - 8 - hash(j) * 5), sy, 0.8 + hash(j + 7) * 0.25);
      tree(Math.round(c + HALF + 8 + hash(j + 3) * 5), sy, 0.8 + hash(j + 9) * 0.25);
      for (let m = 0; m < 2; m++) {
        const ox = hash(j * 5 + m) * W;
        if (Math.abs(ox - c) > HALF + 40) tree(Math.round(ox), sy + Math.round(hash(j + m + 11) * 20), 0.7 + hash(j + m) * 0.4);
      }
    }
  }

  function drawGates(top) {
    for (let i = 1; i < G.pts.length; i++) {
      const p = G.pts[i], sy = p.y - top;
      if (sy < -30 || sy > H + 30 || p.y < 2 * SEG) continue;
      const idx = Math.round(p.y / SEG) - 1;
      const done = idx <= G.gates;
      const col = idx % 2 ? "#e63946" : "#2b6cd9";
      for (const side of [-1, 1]) {
        const x = Math.round(p.x + side * (HALF - 2));
        ctx.fillStyle = "#333";
        ctx.fillRect(x - 1, sy - 24, 2, 26);
        ctx.fillStyle = done ? "rgba(120,120,120,0.6)" : col;
        ctx.beginPath(); ctx.moveTo(x, sy - 24); ctx.lineTo(x - side * 14, sy - 19); ctx.lineTo(x, sy - 13); ctx.fill();
      }
      if (!done) {
        ctx.strokeStyle = "rgba(230,57,70,0.25)";
        ctx.setLineDash([4, 4]);
        ctx.beginPath(); ctx.moveTo(p.x - HALF + 2, sy); ctx.lineTo(p.x + HALF - 2, sy); ctx.stroke();
        ctx.setLineDash([]);
      }
    }
  }

  function drawBoosts(top) {
    for (const b of G.boosts) {
      if (b.taken) continue;
      const sy = b.y - top;
      if (sy < -20 || sy > H + 20) continue;
      ctx.fillStyle = "rgba(40,160,255,0.25)";
      ctx.beginPath(); ctx.arc(b.x, sy, 11, 0, Math.PI * 2); ctx.fill();
      ctx.fillStyle = "#1e90ff";
      for (let k = 0; k < 2; k++) {
        ctx.beginPath();
        ctx.moveTo(b.x - 7, sy - 6 + k * 6); ctx.lineTo(b.x, sy + k * 6); ctx.lineTo(b.x + 7, sy - 6 + k * 6);
        ctx.lineTo(b.x + 7, sy - 2 + k * 6); ctx.lineTo(b.x, sy + 4 + k * 6); ctx.lineTo(b.x - 7, sy - 2 + k * 6);
        ctx.fill();
      }
    }
  }

  function drawSurfer(top) {
    // tracks
    ctx.strokeStyle = "rgba(120,150,190,0.45)";
    ctx.lineWidth = 2;
    ctx.beginPath();
    let started = false;
    for (const t of G.tracks) {
      const sx = t.x, sy = t.y - top;
      if (!started) { ctx.moveTo(sx, sy); started = true; } else ctx.lineTo(sx, sy);
    }
    if (started) ctx.lineTo(G.x, SY);
    ctx.stroke();
    ctx.lineWidth = 1;
    if (G.status === "terminal") {
      ctx.fillStyle = "#ffffff";
      for (const p of G.puff) { ctx.beginPath(); ctx.arc(p.x, p.y - top, 4, 0, Math.PI * 2); ctx.fill(); }
    }
    ctx.save();
    ctx.translate(G.x, SY);
    ctx.rotate(-G.n * 0.32);
    // board
    ctx.fillStyle = "rgba(60,90,120,0.25)";
    ctx.beginPath(); ctx.ellipse(2, 3, 7, 15, 0, 0, Math.PI * 2); ctx.fill();
    const bg = ctx.createLinearGradient(-6, 0, 6, 0);
    bg.addColorStop(0, "#ff8c1a"); bg.addColorStop(1, "#ffb347");
    ctx.fillStyle = bg;
    ctx.beginPath(); ctx.ellipse(0, 0, 6, 15, 0, 0, Math.PI * 2); ctx.fill();
    ctx.strokeStyle = "#a34f00"; ctx.stroke();
    // rider from above: shoulders, head, scarf
    ctx.fillStyle = "#3a3f8f";
    ctx.beginPath(); ctx.ellipse(0, -1, 9, 5, 0, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = "#e63946";
    ctx.fillRect(-3, -2, 6, 6);
    ctx.fillStyle = "#f2c9a0";
    ctx.beginPath(); ctx.arc(0, 3, 4, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = "#222";
    ctx.beginPath(); ctx.arc(0, 1.5, 4, Math.PI, 0); ctx.fill();
    ctx.restore();
    if (G.zoom > 0) {
      ctx.strokeStyle = "rgba(30,144,255," + (G.zoom / 30).toFixed(2) + ")";
      ctx.lineWidth = 2;
      for (let k = -2; k <= 2; k++) { ctx.beginPath(); ctx.moveTo(G.x + k * 6, SY - 22); ctx.lineTo(G.x + k * 6, SY - 40); ctx.stroke(); }
      ctx.lineWidth = 1;
    }
  }

  function text(str, x, y, size, color, align) {
    ctx.font = "bold " + size + "px Verdana, sans-serif";
    ctx.textAlign = align || "left";
    ctx.lineWidth = 3;
    ctx.strokeStyle = "rgba(20,40,70,0.85)";
    ctx.strokeText(str, x, y);
    ctx.fillStyle = color;
    ctx.fillText(str, x, y);
    ctx.lineWidth = 1;
  }

  function drawHud() {
    ctx.textBaseline = "top";
    ctx.fillStyle = "rgba(20,40,70,0.55)";
    ctx.fillRect(0, 0, W, 30);
    text("GATES " + G.gates, 10, 7, G.pop > 0 ? 17 : 15, G.pop > 0 ? "#ffd23f" : "#ffffff");
    text("BOOSTS " + G.boostsTaken, 150, 8, 14, G.zoom > 0 ? "#7cc4ff" : "#ffffff");
    text(Math.floor(G.y / 30) + " m", W - 10, 8, 14, "#ffffff", "right");
    // heading dial
    const hx = 300;
    for (let n = -NMAX; n <= NMAX; n++) {
      ctx.fillStyle = n === G.n ? "#ffd23f" : "rgba(255,255,255,0.35)";
      ctx.fillRect(hx + (n + NMAX) * 12, 10 + Math.abs(n) * 2, 9, 12 - Math.abs(n) * 2);
    }
    if (G.status === "playing" && G.ticks < 80) {
      text("\u2190 \u2192 turn the board", W / 2, 150, 15, "#ffffff", "center");
      text("follow the trail through the gates", W / 2, 172, 12, "#ffffff", "center");
    }
    if (G.flash > 0) {
      ctx.fillStyle = "rgba(255,255,255," + (G.flash / 12).toFixed(2) + ")";
      ctx.fillRect(0, 0, W, H);
    }
    if (G.status === "terminal") {
      ctx.fillStyle = "rgba(20,40,70,0.6)";
      ctx.fillRect(0, 190, W, 96);
      text("WIPEOUT!", W / 2, 198, 32, "#ffd23f", "center");
      text("You " + G.reason + " after " + G.gates + " gates and " + G.boostsTaken + " boosts", W / 2, 240, 13, "#ffffff", "center");
      text("press Enter to ride again", W / 2, 262, 12, "#cfe3f2", "center");
    }
  }

  function draw() {
    ctx.lineJoin = "miter"; ctx.lineWidth = 1; ctx.textAlign = "left"; ctx.textBaseline = "top"; ctx.setLineDash([]);
    const top = G.y - SY;
    drawSlope(top);
    drawGates(top);
    drawBoosts(top);
    drawSurfer(top);
    drawTrees(top);
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
      const ahead = G.pts.filter((p) => p.y > G.y).slice(0, 4);   // trail bends (the first is not a gate)
      let nb = null;
      for (const b of G.boosts) if (!b.taken && b.y >= G.y) { if (!nb || b.y < nb.y) nb = b; }
      return {
        status: G.status,
        actionable: G.status === "playing",
        terminal: { is_terminal: term, outcome: term ? "lose" : null, reason: term ? G.reason : null },
        score: G.gates,
        gates: G.gates,
        boosts: G.boostsTaken,
        distance: G.y,
        surfer_x: G.x,
        heading: G.n,
        trail_x: Math.round(centreAt(G.y)),
        bend_dy: ahead.length ? ahead[0].y - G.y : null,
        bends_ahead: ahead.map((p) => p.x),
        boost_dy: nb ? nb.y - G.y : null,
        boost_x: nb ? nb.x : null,
      };
    },
    reset() {
      newGame();
      draw();
    },
  };

  newGame();
  draw();
  requestAnimationFrame(frame);
})();
