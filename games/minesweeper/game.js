// Mine Sweep: 9x9 minesweeper boards with 10 mines, for the GameWorld sandbox.
// A run is a series of boards: clearing a board deals the next one, and the score counts every safe
// cell revealed in the run; revealing a mine ends the run. Logic is event driven (one click = one move);
// time only drives the drawing (reveal ripple, banners) and comes from requestAnimationFrame.
(() => {
  'use strict';
  const COLS = 9, ROWS = 9, N = COLS * ROWS, MINES = 10, SAFE = N - MINES;
  const CELL = 32, TOP = 48, W = COLS * CELL, H = TOP + ROWS * CELL;
  const TICK = 1000 / 60;
  // Flag corner of a hidden cell (cell-local pixels): a click there plants/removes a flag.
  const CORNER_X = 20, CORNER_Y = 12;
  // Flag-mode button in the HUD.
  const BTN = {x: 210, y: 8, w: 70, h: 32};

  const canvas = document.getElementById('game');
  const ctx = canvas.getContext('2d');

  let g = null;          // the current board
  let run = null;        // the run: score over all boards, boards cleared
  let tick = 0;          // game-time ticks (drawing only)
  let acc = 0, lastT = null;
  let hover = -1, hoverCorner = false;

  function newGame() {
    g = {
      mine: new Uint8Array(N), adj: new Uint8Array(N),
      open: new Uint8Array(N), flag: new Uint8Array(N),
      openAt: new Int32Array(N),
      placed: false, revealed: 0, flags: 0, flagMode: false,
      over: false, boom: -1, endTick: -1,
    };
  }

  function newRun() {
    run = {score: 0, cleared: 0, clearTick: -1000};
    newGame();
  }

  function neighbours(i) {
    const c = i % COLS, r = (i / COLS) | 0, out = [];
    for (let dr = -1; dr <= 1; dr++) for (let dc = -1; dc <= 1; dc++) {
      if (!dr && !dc) continue;
      const cc = c + dc, rr = r + dr;
      if (cc >= 0 && cc < COLS && rr >= 0 && rr < ROWS) out.push(rr * COLS + cc);
    }
    return out;
  }

  // Mines go anywhere except the first cell and its eight neighbours, so the first click opens an area.
  function placeMines(first) {
    const keep = new Set(neighbours(first)); keep.add(first);
    const cand = [];
    for (let i = 0; i < N; i++) if (!keep.has(i)) cand.push(i);
    for (let k = 0; k < MINES; k++) {
      const j = k + Math.floor(Math.random() * (cand.length - k));
      const t = cand[k]; cand[k] = cand[j]; cand[j] = t;
      g.mine[cand[k]] = 1;
    }
    for (let i = 0; i < N; i++) {
      let n = 0; for (const j of neighbours(i)) n += g.mine[j];
      g.adj[i] = n;
    }
    g.placed = true;
  }

  function reveal(i) {
    if (g.over || g.open[i] || g.flag[i]) return;
    if (!g.placed) placeMines(i);
    if (g.mine[i]) {
      g.over = true; g.boom = i; g.endTick = tick;
      return;
    }
    // Flood fill from i; cells further away appear a little later (ripple, drawing only).
    const queue = [[i, 0]];
    g.open[i] = 1; g.openAt[i] = tick; g.revealed++; run.score++;
    while (queue.length) {
      const [j, d] = queue.shift();
      if (g.adj[j] !== 0) continue;
      for (const k of neighbours(j)) {
        if (g.open[k] || g.mine[k]) continue;
        if (g.flag[k]) { g.flag[k] = 0; g.flags--; }   // a flag next to a 0 is surely wrong
        g.open[k] = 1; g.openAt[k] = tick + 2 * (d + 1); g.revealed++; run.score++;
        queue.push([k, d + 1]);
      }
    }
    if (g.revealed === SAFE) {        // board cleared: the next board is dealt at once
      const mode = g.flagMode;
      run.cleared++; run.clearTick = tick;
      newGame();
      g.flagMode = mode;
    }
  }

  function toggleFlag(i) {
    if (g.over || g.open[i]) return;
    g.flag[i] ^= 1;
    g.flags += g.flag[i] ? 1 : -1;
  }

  function toggleMode() {
    if (g.over) return;
    g.flagMode = !g.flagMode;
  }

  function cellAt(x, y) {
    if (x < 0 || x >= W || y < TOP || y >= H) return null;
    const c = Math.floor(x / CELL), r = Math.floor((y - TOP) / CELL);
    const lx = x - c * CELL, ly = y - TOP - r * CELL;
    return {i: r * COLS + c, corner: lx >= CORNER_X && ly < CORNER_Y};
  }

  function canvasXY(e) {
    const rect = canvas.getBoundingClientRect();
    return [(e.clientX - rect.left) * canvas.width / rect.width,
            (e.clientY - rect.top) * canvas.height / rect.height];
  }

  canvas.addEventListener('mousedown', (e) => {
    e.preventDefault();
    const [x, y] = canvasXY(e);
    if (g.over) return;
    if (x >= BTN.x && x < BTN.x + BTN.w && y >= BTN.y && y < BTN.y + BTN.h) {
      if (e.button === 0) toggleMode();
      return;
    }
    const hit = cellAt(x, y);
    if (!hit) return;
    if (e.button === 2 || (e.button === 0 && (g.flagMode || hit.corner))) toggleFlag(hit.i);
    else if (e.button === 0) reveal(hit.i);
  });
  canvas.addEventListener('contextmenu', (e) => e.preventDefault());
  canvas.addEventListener('mousemove', (e) => {
    const [x, y] = canvasXY(e);
    const hit = cellAt(x, y);
    hover = hit ? hit.i : -1; hoverCorner = hit ? hit.corner : false;
  });
  canvas.addEventListener('mouseleave', () => { hover = -1; });
  window.addEventListener('keydown', (e) => {
    if (e.code === 'KeyF') {
      e.preventDefault();
      if (!e.repeat) toggleMode();
    }
  });

  // ---------------------------------------------------------------- state
  function boardRows() {
    const rows = [];
    for (let r = 0; r < ROWS; r++) {
      let s = '';
      for (let c = 0; c < COLS; c++) {
        const i = r * COLS + c;
        if (g.open[i]) s += String(g.adj[i]);
        else if (g.over && i === g.boom) s += 'X';
        else if (g.over && g.mine[i] && !g.flag[i]) s += '*';
        else if (g.flag[i]) s += 'F';
        else s += '#';
      }
      rows.push(s);
    }
    return rows;
  }

  window.gameAPI = {
    getState() {
      return {
        status: g.over ? 'terminal' : (g.placed ? 'playing' : 'ready'),
        actionable: !g.over,
        terminal: {
          is_terminal: g.over,
          outcome: g.over ? 'lose' : null,
          reason: g.over ? 'revealed a mine' : null,
        },
        score: run.score,
        boards_cleared: run.cleared,
        cells_left: SAFE - g.revealed,
        flags: g.flags,
        flag_mode: g.flagMode,
        mines_total: MINES,
        board: boardRows(),
        lost: g.over,
      };
    },
    // draw at once: the frame read right after a reset shows the new board, not the mine that ended the run
    reset(options) { newRun(); hover = -1; draw(); },
  };

  // ---------------------------------------------------------------- drawing
  const NUM_COL = ['', '#2563eb', '#15803d', '#dc2626', '#1e3a8a', '#9a3412', '#0e7490', '#111827', '#6b7280'];

  function rrect(x, y, w, h, r) {
    ctx.beginPath();
    ctx.moveTo(x + r, y); ctx.lineTo(x + w - r, y); ctx.quadraticCurveTo(x + w, y, x + w, y + r);
    ctx.lineTo(x + w, y + h - r); ctx.quadraticCurveTo(x + w, y + h, x + w - r, y + h);
    ctx.lineTo(x + r, y + h); ctx.quadraticCurveTo(x, y + h, x, y + h - r);
    ctx.lineTo(x, y + r); ctx.quadraticCurveTo(x, y, x + r, y);
    ctx.closePath();
  }

  function drawFlag(cx, cy, s, alpha) {
    ctx.save(); ctx.globalAlpha = alpha;
    ctx.fillStyle = '#1f2937';
    ctx.fillRect(cx - 6 * s, cy + 8 * s, 13 * s, 3 * s);          // base
    ctx.fillRect(cx - 1 * s, cy - 10 * s, 2 * s, 19 * s);         // pole
    ctx.fillStyle = '#ef4444';
    ctx.beginPath(); ctx.moveTo(cx + 1 * s, cy - 10 * s); ctx.lineTo(cx + 11 * s, cy - 5 * s);
    ctx.lineTo(cx + 1 * s, cy); ctx.closePath(); ctx.fill();
    ctx.fillStyle = 'rgba(255,255,255,0.35)';
    ctx.beginPath(); ctx.moveTo(cx + 1 * s, cy - 10 * s); ctx.lineTo(cx + 6 * s, cy - 7.5 * s);
    ctx.lineTo(cx + 1 * s, cy - 6 * s); ctx.closePath(); ctx.fill();
    ctx.restore();
  }

  function drawMine(cx, cy, s, body) {
    body = body || '#111827';
    ctx.strokeStyle = body; ctx.lineWidth = 2 * s; ctx.lineCap = 'round';
    for (let k = 0; k < 4; k++) {
      const a = k * Math.PI / 4;
      const dx = Math.cos(a) * 10 * s, dy = Math.sin(a) * 10 * s;
      ctx.beginPath(); ctx.moveTo(cx - dx, cy - dy); ctx.lineTo(cx + dx, cy + dy); ctx.stroke();
    }
    ctx.fillStyle = body;
    ctx.beginPath(); ctx.arc(cx, cy, 7 * s, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = 'rgba(255,255,255,0.8)';
    ctx.beginPath(); ctx.arc(cx - 2.5 * s, cy - 2.5 * s, 2 * s, 0, Math.PI * 2); ctx.fill();
  }

  function drawHUD() {
    const grd = ctx.createLinearGradient(0, 0, 0, TOP);
    grd.addColorStop(0, '#27324a'); grd.addColorStop(1, '#1b2336');
    ctx.fillStyle = grd; ctx.fillRect(0, 0, W, TOP);

    // mines counter
    ctx.fillStyle = '#0b0f18'; rrect(8, 8, 66, 32, 6); ctx.fill();
    drawMine(24, 24, 0.75, '#94a3b8');
    ctx.fillStyle = '#f87171'; ctx.font = 'bold 20px "DejaVu Sans Mono", monospace';
    ctx.textAlign = 'right'; ctx.textBaseline = 'middle';
    ctx.fillText(String(MINES - g.flags), 68, 25);

    // cleared count
    ctx.textAlign = 'center';
    ctx.fillStyle = '#f8fafc'; ctx.font = 'bold 20px "DejaVu Sans", sans-serif';
    ctx.fillText(String(run.score), 142, 19);
    ctx.fillStyle = '#94a3b8'; ctx.font = '10px "DejaVu Sans", sans-serif';
    ctx.fillText('BOARD ' + (run.cleared + 1) + '  \u00b7  ' + g.revealed + '/' + SAFE + ' safe', 142, 36);

    // flag-mode button
    const on = g.flagMode;
    ctx.fillStyle = on ? '#f97316' : '#334155';
    rrect(BTN.x, BTN.y, BTN.w, BTN.h, 7); ctx.fill();
    ctx.strokeStyle = on ? '#fdba74' : '#475569'; ctx.lineWidth = 1.5; ctx.stroke();
    drawFlag(BTN.x + 16, BTN.y + 16, 0.8, 1);
    ctx.fillStyle = on ? '#fff7ed' : '#cbd5e1'; ctx.font = 'bold 12px "DejaVu Sans", sans-serif';
    ctx.textAlign = 'left';
    ctx.fillText(on ? 'ON' : 'OFF', BTN.x + 32, BTN.y + 11);
    ctx.font = '9px "DejaVu Sans", sans-serif';
    ctx.fillText('key F', BTN.x + 32, BTN.y + 24);

    // progress bar
    ctx.fillStyle = '#0b0f18'; ctx.fillRect(0, TOP - 3, W, 3);
    ctx.fillStyle = g.over ? '#ef4444' : '#22c55e';
    ctx.fillRect(0, TOP - 3, Math.round(W * g.revealed / SAFE), 3);
  }

  function drawHidden(x, y, i) {
    const hot = i === hover && !g.over;
    const grd = ctx.createLinearGradient(x, y, x, y + CELL);
    grd.addColorStop(0, hot ? '#7fa3e6' : '#6488cf'); grd.addColorStop(1, hot ? '#5d83cf' : '#4667ad');
    ctx.fillStyle = grd; ctx.fillRect(x, y, CELL, CELL);
    ctx.fillStyle = 'rgba(255,255,255,0.28)';
    ctx.fillRect(x, y, CELL, 2); ctx.fillRect(x, y, 2, CELL);
    ctx.fillStyle = 'rgba(0,0,20,0.35)';
    ctx.fillRect(x, y + CELL - 2, CELL, 2); ctx.fillRect(x + CELL - 2, y, 2, CELL);
    // dog-ear: the flag corner
    const cornerHot = hot && (hoverCorner || g.flagMode);
    ctx.fillStyle = cornerHot ? 'rgba(251,146,60,0.95)' : 'rgba(255,255,255,0.16)';
    ctx.beginPath(); ctx.moveTo(x + CELL - 10, y + 2); ctx.lineTo(x + CELL - 2, y + 2);
    ctx.lineTo(x + CELL - 2, y + 10); ctx.closePath(); ctx.fill();
    if (g.flag[i]) drawFlag(x + 14, y + 17, 0.9, 1);
    else if (cornerHot) drawFlag(x + 14, y + 17, 0.9, 0.35);
  }

  function drawBoard() {
    ctx.textAlign = 'center'; ctx.textBaseline = 'middle';
    for (let r = 0; r < ROWS; r++) for (let c = 0; c < COLS; c++) {
      const i = r * COLS + c, x = c * CELL, y = TOP + r * CELL;
      const lost = g.over;
      if (g.open[i] && tick >= g.openAt[i]) {
        const fresh = Math.min(1, (tick - g.openAt[i]) / 12);
        ctx.fillStyle = (r + c) % 2 ? '#e9e3d5' : '#f2ede2';
        ctx.fillRect(x, y, CELL, CELL);
        if (fresh < 1) { ctx.fillStyle = 'rgba(255,255,255,' + (0.8 * (1 - fresh)) + ')'; ctx.fillRect(x, y, CELL, CELL); }
        ctx.strokeStyle = 'rgba(120,105,80,0.25)'; ctx.lineWidth = 1;
        ctx.strokeRect(x + 0.5, y + 0.5, CELL - 1, CELL - 1);
        if (g.adj[i]) {
          ctx.fillStyle = NUM_COL[g.adj[i]]; ctx.font = 'bold 20px "DejaVu Sans", sans-serif';
          ctx.fillText(String(g.adj[i]), x + CELL / 2, y + CELL / 2 + 1);
        }
      } else if (lost && g.mine[i]) {
        ctx.fillStyle = i === g.boom ? '#ef4444' : (g.flag[i] ? '#bbf7d0' : '#cbd5e1');
        ctx.fillRect(x, y, CELL, CELL);
        ctx.strokeStyle = 'rgba(0,0,0,0.2)'; ctx.strokeRect(x + 0.5, y + 0.5, CELL - 1, CELL - 1);
        drawMine(x + CELL / 2, y + CELL / 2, 1);
      } else {
        drawHidden(x, y, i);
        if (lost && g.flag[i]) {   // a wrong flag
          ctx.strokeStyle = '#111827'; ctx.lineWidth = 2.5;
          ctx.beginPath(); ctx.moveTo(x + 7, y + 7); ctx.lineTo(x + 25, y + 25);
          ctx.moveTo(x + 25, y + 7); ctx.lineTo(x + 7, y + 25); ctx.stroke();
        }
      }
    }
  }

  function banner(fill, title, line1, line2, alpha) {
    ctx.save(); ctx.globalAlpha = alpha;
    const h = line2 ? 70 : 56, y = TOP + 144 - h / 2;
    ctx.fillStyle = fill; rrect(22, y, W - 44, h, 12); ctx.fill();
    ctx.fillStyle = '#ffffff'; ctx.textAlign = 'center'; ctx.textBaseline = 'middle';
    ctx.font = 'bold 19px "DejaVu Sans", sans-serif';
    ctx.fillText(title, W / 2, y + 20);
    ctx.font = '11px "DejaVu Sans", sans-serif';
    ctx.fillText(line1, W / 2, y + 40);
    if (line2) { ctx.fillStyle = 'rgba(255,255,255,0.8)'; ctx.fillText(line2, W / 2, y + 56); }
    ctx.restore();
  }

  function drawBanner() {
    if (g.over) {
      banner('rgba(153,27,27,0.92)', 'BOOM!', 'run over: ' + run.score + ' safe cells swept',
             run.cleared + (run.cleared === 1 ? ' board' : ' boards') + ' cleared', Math.min(1, (tick - g.endTick) / 15));
    } else if (!g.placed && run.cleared > 0) {
      const pop = Math.min(1, (tick - run.clearTick) / 10);
      banner('rgba(21,128,61,0.92)', 'BOARD ' + run.cleared + ' CLEARED!',
             'click any cell to start board ' + (run.cleared + 1), 'score ' + run.score, 0.6 + 0.4 * pop);
    } else if (!g.placed) {
      banner('rgba(15,23,42,0.8)', 'Click any cell', 'the first click is always safe',
             'F or a tile\'s top-right corner: flag', 1);
    }
  }

  function draw() {
    ctx.fillStyle = '#141925'; ctx.fillRect(0, 0, W, H);
    drawHUD();
    drawBoard();
    drawBanner();
  }

  // The sandbox runs much of a step's game time unseen and sets window.__gameworld.rendering to false
  // meanwhile: skip the drawing then (never the logic). A plain browser has no __gameworld: always draw.
  function rendering() {
    const gw = window.__gameworld;
    return !(gw && gw.rendering === false);
  }

  // The tick count (ripple and banner timing) advances on every frame, drawn or not.
  function frame(t) {
    if (lastT === null) lastT = t;
    acc += Math.min(1000, Math.max(0, t - lastT)); lastT = t;
    while (acc >= TICK) { acc -= TICK; tick++; }
    if (rendering()) draw();
    requestAnimationFrame(frame);
  }

  newRun();
  draw();
  requestAnimationFrame(frame);
})();
