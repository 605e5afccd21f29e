// Merge 2048: the classic 4x4 sliding-tile puzzle, written for the GameWorld sandbox.
// A game draws its target corner at reset; corner_streak counts the moves in a row after which the biggest
// tile sat there. One arrow a step: a press settles a moment after its keydown (a zero timer), and two or
// more arrows at once slide nothing. The slide/pop animation is drawn from the (fake) clock.
(() => {
  "use strict";
  const N = 4;
  const W = 400, H = 460;
  const BOARD_X = 12, BOARD_Y = 72, BOARD = 376, GAP = 8;
  const CELL = (BOARD - GAP * (N + 1)) / N; // 84
  const SLIDE_MS = 90, POP_MS = 70, GAIN_MS = 600;
  const FONT = "'DejaVu Sans', 'Liberation Sans', Arial, sans-serif";

  const canvas = document.getElementById("game");
  const ctx = canvas.getContext("2d");

  const CHORD_MS = 450;

  let board, score, moves, over, anim, gain, chord;
  // The corner strategy: the biggest tile kept in one corner. Each game draws its target corner at reset
  // (the first random draw); streak counts the board-changing moves in a row after which the biggest tile
  // sat in that corner, and drops to 0 after a move that leaves it anywhere else.
  let target, streak;
  const CORNERS = [[3, 0, "bottom-left"], [3, 3, "bottom-right"], [0, 0, "top-left"], [0, 3, "top-right"]];

  // ---------------------------------------------------------------- logic
  function emptyCells() {
    const out = [];
    for (let r = 0; r < N; r++) for (let c = 0; c < N; c++) if (board[r][c] === 0) out.push([r, c]);
    return out;
  }

  // A new tile: one random draw for the cell (row-major order of empty cells), one for the value.
  function spawn() {
    const empty = emptyCells();
    if (!empty.length) return null;
    const [r, c] = empty[Math.floor(Math.random() * empty.length)];
    const v = Math.random() < 0.9 ? 2 : 4;
    board[r][c] = v;
    return { r, c };
  }

  // The cells of each line, listed from the edge the tiles slide towards.
  function lines(dir) {
    const out = [];
    for (let i = 0; i < N; i++) {
      const line = [];
      for (let j = 0; j < N; j++) {
        if (dir === "left") line.push([i, j]);
        else if (dir === "right") line.push([i, N - 1 - j]);
        else if (dir === "up") line.push([j, i]);
        else line.push([N - 1 - j, i]);
      }
      out.push(line);
    }
    return out;
  }

  function slide(dir) {
    const next = board.map((row) => row.map(() => 0));
    const slides = [], merged = [];
    let gained = 0, changed = false;
    for (const line of lines(dir)) {
      const tiles = [];
      for (const [r, c] of line) if (board[r][c]) tiles.push({ r, c, v: board[r][c] });
      let k = 0;
      for (let i = 0; i < tiles.length; k++) {
        const [tr, tc] = line[k];
        const a = tiles[i];
        if (i + 1 < tiles.length && tiles[i + 1].v === a.v) {
          const b = tiles[i + 1];
          next[tr][tc] = a.v * 2;
          gained += a.v * 2;
          slides.push({ fr: a.r, fc: a.c, tr, tc, v: a.v }, { fr: b.r, fc: b.c, tr, tc, v: b.v });
          merged.push([tr, tc]);
          i += 2;
        } else {
          next[tr][tc] = a.v;
          slides.push({ fr: a.r, fc: a.c, tr, tc, v: a.v });
          i += 1;
        }
      }
    }
    for (let r = 0; r < N; r++) for (let c = 0; c < N; c++) if (next[r][c] !== board[r][c]) changed = true;
    return { next, slides, merged, gained, changed };
  }

  function canMove() {
    for (let r = 0; r < N; r++)
      for (let c = 0; c < N; c++) {
        const v = board[r][c];
        if (v === 0) return true;
        if (c + 1 < N && board[r][c + 1] === v) return true;
        if (r + 1 < N && board[r + 1][c] === v) return true;
      }
    return false;
  }

  function maxTile() {
    let m = 0;
    for (const row of board) for (const v of row) if (v > m) m = v;
    return m;
  }

  function updateStreak() {
    streak = board[target[0]][target[1]] === maxTile() ? streak + 1 : 0;
  }

  function newGame() {
    board = [];
    for (let r = 0; r < N; r++) board.push([0, 0, 0, 0]);
    score = 0;
    moves = 0;
    over = false;
    gain = null;
    chord = null;
    // the target corner: the game's first random draw, before the opening tiles
    target = CORNERS[Math.floor(Math.random() * CORNERS.length)];
    streak = 0;
    spawn();
    spawn();
    // no pop-in for the opening tiles: an attempt's first frame shows its board at full size
    anim = { t0: performance.now(), slides: [], merged: [], spawned: [] };
  }

  function move(dir) {
    if (over) return;
    const res = slide(dir);
    const now = performance.now();
    if (!res.changed) {
      anim = { t0: now, slides: [], merged: [], spawned: [], bump: dir };
      return;
    }
    board = res.next;
    score += res.gained;
    moves += 1;
    if (res.gained) gain = { t0: now, v: res.gained };
    const s = spawn();
    updateStreak();
    anim = { t0: now, slides: res.slides, merged: res.merged, spawned: s ? [s] : [] };
    if (!canMove()) over = true;
  }

  // One arrow at a time: a press is settled a moment after its keydown (a zero timer), and an arrow pressed
  // while another is held (two or more at once) cancels the slide: nothing moves, the board flashes a note.
  const KEYS = { ArrowLeft: "left", ArrowRight: "right", ArrowUp: "up", ArrowDown: "down" };
  const held = new Set();
  let pending = null;

  function refuse() {
    chord = { t0: performance.now() };
  }

  function settle() {
    const p = pending;
    pending = null;
    if (!p || over) return;
    if (p.chord) refuse();
    else move(p.dir);
  }

  window.addEventListener("keydown", (e) => {
    const dir = KEYS[e.code];
    if (!dir) return;
    e.preventDefault();
    if (e.repeat) return;
    held.add(e.code);
    if (held.size > 1) {
      if (pending) pending.chord = true;
      else if (!over) refuse();
      return;
    }
    pending = { dir, chord: false };
    setTimeout(settle, 0);
  });
  window.addEventListener("keyup", (e) => { held.delete(e.code); });
  window.addEventListener("blur", () => { held.clear(); });

  // ---------------------------------------------------------------- drawing
  const COLORS = {
    2: ["#f4efe6", "#4a4a5a"], 4: ["#ede0c2", "#4a4a5a"], 8: ["#f7b267", "#ffffff"],
    16: ["#f79d65", "#ffffff"], 32: ["#f4845f", "#ffffff"], 64: ["#f25c54", "#ffffff"],
    128: ["#5cc8e8", "#ffffff"], 256: ["#3f96d8", "#ffffff"], 512: ["#5e60ce", "#ffffff"],
    1024: ["#8a3fd1", "#ffffff"], 2048: ["#ffd23f", "#3a2d00"],
  };
  const tileColor = (v) => COLORS[v] || ["#1e1e2e", "#ffd23f"];

  function roundRect(x, y, w, h, r) {
    ctx.beginPath();
    ctx.moveTo(x + r, y);
    ctx.arcTo(x + w, y, x + w, y + h, r);
    ctx.arcTo(x + w, y + h, x, y + h, r);
    ctx.arcTo(x, y + h, x, y, r);
    ctx.arcTo(x, y, x + w, y, r);
    ctx.closePath();
  }

  const cellX = (c) => BOARD_X + GAP + c * (CELL + GAP);
  const cellY = (r) => BOARD_Y + GAP + r * (CELL + GAP);

  function drawTile(v, x, y, scale) {
    const [bg, fg] = tileColor(v);
    const s = CELL * scale, o = (CELL - s) / 2;
    ctx.fillStyle = "rgba(0,0,0,0.25)";
    roundRect(x + o, y + o + 3, s, s, 8 * scale);
    ctx.fill();
    ctx.fillStyle = bg;
    roundRect(x + o, y + o, s, s, 8 * scale);
    ctx.fill();
    const text = String(v);
    const size = (text.length <= 2 ? 40 : text.length === 3 ? 32 : 25) * scale;
    ctx.fillStyle = fg;
    ctx.font = `bold ${size}px ${FONT}`;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillText(text, x + CELL / 2, y + CELL / 2 + 2 * scale);
  }

  function statBox(x, w, label, value, labelColor) {
    ctx.fillStyle = "#2d3650";
    roundRect(x, 10, w, 48, 7);
    ctx.fill();
    ctx.textAlign = "center";
    ctx.textBaseline = "alphabetic";
    ctx.fillStyle = labelColor || "#9fb0d0";
    ctx.font = `bold ${labelColor ? 13 : 11}px ${FONT}`;
    ctx.fillText(label, x + w / 2, 26);
    ctx.fillStyle = "#ffffff";
    ctx.font = `bold ${String(value).length > 5 ? 17 : 21}px ${FONT}`;
    ctx.fillText(String(value), x + w / 2, 50);
  }

  function drawHud(now) {
    // the target corner of this game, by name, in gold like its marks on the board
    ctx.fillStyle = "#ffd23f";
    roundRect(12, 10, 118, 48, 8);
    ctx.fill();
    ctx.fillStyle = "#3a2d00";
    ctx.textAlign = "center";
    ctx.textBaseline = "alphabetic";
    ctx.font = `bold 11px ${FONT}`;
    ctx.fillText("TARGET CORNER", 71, 25);
    const name = target[2].toUpperCase();
    let size = 17;
    do ctx.font = `bold ${size}px ${FONT}`; while (ctx.measureText(name).width > 106 && --size > 9);
    ctx.fillText(name, 71, 49);
    // the points of the last merge replace the SCORE label for a moment
    if (gain && now - gain.t0 < GAIN_MS) statBox(138, 86, "+" + gain.v, score, "#7CFC9A");
    else statBox(138, 86, "SCORE", score);
    statBox(230, 80, "BEST TILE", maxTile());
    statBox(316, 72, "CORNER", streak, streak ? "#ffd23f" : null);
  }

  function drawBoard(now) {
    ctx.fillStyle = "#2d3650";
    roundRect(BOARD_X, BOARD_Y, BOARD, BOARD, 12);
    ctx.fill();
    for (let r = 0; r < N; r++)
      for (let c = 0; c < N; c++) {
        ctx.fillStyle = "#3b4562";
        roundRect(cellX(c), cellY(r), CELL, CELL, 8);
        ctx.fill();
      }
    // the target corner: its cell tinted gold, a gold bracket on the board's edge around it
    const [tr, tc] = target;
    ctx.fillStyle = "#7a6420";
    roundRect(cellX(tc), cellY(tr), CELL, CELL, 8);
    ctx.fill();
    ctx.fillStyle = "#ffd23f";
    ctx.font = `bold 15px ${FONT}`;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillText("TARGET", cellX(tc) + CELL / 2, cellY(tr) + CELL / 2);
    drawBracket();
    const t = now - anim.t0;
    if (anim.slides.length && t < SLIDE_MS) {
      const k = t / SLIDE_MS, e = 1 - (1 - k) * (1 - k);
      for (const s of anim.slides) {
        const x = cellX(s.fc) + (cellX(s.tc) - cellX(s.fc)) * e;
        const y = cellY(s.fr) + (cellY(s.tr) - cellY(s.fr)) * e;
        drawTile(s.v, x, y, 1);
      }
      drawRing();
      return;
    }
    const tp = anim.slides.length ? t - SLIDE_MS : t;
    const isAt = (list, r, c) => list.some((p) => p && p[0] === r && p[1] === c);
    const spawned = anim.spawned.filter(Boolean).map((p) => [p.r, p.c]);
    for (let r = 0; r < N; r++)
      for (let c = 0; c < N; c++) {
        const v = board[r][c];
        if (!v) continue;
        let scale = 1;
        if (tp < POP_MS) {
          const k = tp / POP_MS;
          if (isAt(spawned, r, c)) scale = 0.2 + 0.8 * k;
          else if (isAt(anim.merged, r, c)) scale = 1 + 0.14 * (1 - Math.abs(2 * k - 1));
        }
        drawTile(v, cellX(c), cellY(r), scale);
      }
    drawRing();
    // a slide that changed nothing: a small nudge of the board edge
    if (anim.bump && t < 120) {
      ctx.strokeStyle = "rgba(255,120,120," + (0.8 * (1 - t / 120)).toFixed(3) + ")";
      ctx.lineWidth = 4;
      ctx.beginPath();
      const x0 = BOARD_X + 2, y0 = BOARD_Y + 2, x1 = BOARD_X + BOARD - 2, y1 = BOARD_Y + BOARD - 2;
      if (anim.bump === "left") { ctx.moveTo(x0, y0); ctx.lineTo(x0, y1); }
      if (anim.bump === "right") { ctx.moveTo(x1, y0); ctx.lineTo(x1, y1); }
      if (anim.bump === "up") { ctx.moveTo(x0, y0); ctx.lineTo(x1, y0); }
      if (anim.bump === "down") { ctx.moveTo(x0, y1); ctx.lineTo(x1, y1); }
      ctx.stroke();
    }
  }

  // The target corner's ring: solid gold, drawn over the tiles (thicker while the streak runs).
  function drawRing() {
    const [tr, tc] = target;
    ctx.strokeStyle = "#ffd23f";
    ctx.lineWidth = streak > 0 ? 5 : 3;
    roundRect(cellX(tc) - 4, cellY(tr) - 4, CELL + 8, CELL + 8, 11);
    ctx.stroke();
  }

  // A thick gold L on the board's frame at the target corner.
  function drawBracket() {
    const [tr, tc] = target;
    const x = tc ? BOARD_X + BOARD : BOARD_X, y = tr ? BOARD_Y + BOARD : BOARD_Y;
    const dx = tc ? -1 : 1, dy = tr ? -1 : 1, len = 120;
    ctx.strokeStyle = "#ffd23f";
    ctx.lineWidth = 6;
    ctx.lineCap = "round";
    ctx.beginPath();
    ctx.moveTo(x + dx * len, y);
    ctx.lineTo(x, y);
    ctx.lineTo(x, y + dy * len);
    ctx.stroke();
    ctx.lineCap = "butt";
  }

  // Two or more arrows at once: a note across the board for a moment; nothing slid.
  function drawChord(now) {
    if (!chord || now - chord.t0 >= CHORD_MS) return;
    ctx.fillStyle = "rgba(120,20,30,0.85)";
    roundRect(BOARD_X + 40, BOARD_Y + BOARD / 2 - 26, BOARD - 80, 52, 10);
    ctx.fill();
    ctx.fillStyle = "#ffffff";
    ctx.font = `bold 18px ${FONT}`;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillText("One arrow at a time!", W / 2, BOARD_Y + BOARD / 2);
  }

  function drawOver() {
    ctx.fillStyle = "rgba(20,26,40,0.72)";
    roundRect(BOARD_X, BOARD_Y, BOARD, BOARD, 12);
    ctx.fill();
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillStyle = "#ffffff";
    ctx.font = `bold 38px ${FONT}`;
    ctx.fillText("No moves left", W / 2, BOARD_Y + BOARD / 2 - 22);
    ctx.fillStyle = "#f7b267";
    ctx.font = `bold 22px ${FONT}`;
    ctx.fillText("Final score " + score, W / 2, BOARD_Y + BOARD / 2 + 26);
  }

  // The sandbox runs much of a step's game time unseen and sets window.__gameworld.rendering to false
  // meanwhile: skip the drawing then (never the logic). A plain browser has no __gameworld: always draw.
  function rendering() {
    const gw = window.__gameworld;
    return !(gw && gw.rendering === false);
  }

  // The slide/pop animations are functions of the clock (anim.t0), so unseen frames need no catching up.
  function draw() {
    const now = performance.now();
    ctx.fillStyle = "#1b2233";
    ctx.fillRect(0, 0, W, H);
    drawHud(now);
    drawBoard(now);
    drawChord(now);
    if (over && now - anim.t0 >= SLIDE_MS + POP_MS) drawOver();
  }

  function frame() {
    if (rendering()) draw();
    requestAnimationFrame(frame);
  }

  // ---------------------------------------------------------------- bridge
  window.gameAPI = {
    getState() {
      const empty = emptyCells().length;
      return {
        status: over ? "terminal" : "playing",
        actionable: !over,
        terminal: over
          ? { is_terminal: true, outcome: "lose", reason: "no moves left" }
          : { is_terminal: false, outcome: null, reason: null },
        score,
        max_tile: maxTile(),
        moves,
        empty_cells: empty,
        corner_streak: streak,
        corner: target[2],
        board: board.map((row) => row.slice()),
      };
    },
    reset() {
      newGame();
      draw();   // the frame read right after a reset shows the new board, not the last one
    },
  };

  newGame();
  draw();   // the first frame exists before the game reports actionable
  requestAnimationFrame(frame);
})();
