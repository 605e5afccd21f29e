// Word Grid: find the hidden five-letter word in six tries. Each submitted guess colours its letters:
// green = right letter in the right place, amber = the letter is in the word elsewhere, slate = not in
// the word. A solved word leaves its board on show until the next letter (or Enter) starts a new word;
// six wrong guesses end the run.
// Platform rules kept (games/README.md): time only from rAF timestamps in fixed 1/60 s ticks, chance only
// from Math.random (one draw per word, in logic), no drawing while window.__gameworld.rendering is false,
// the first frame drawn before actionable, reset() redraws, integer state, no transcendental maths in logic.
(function () {
  "use strict";

  var W = 480, H = 360, HUD_H = 34;
  var TICK_MS = 1000 / 60;
  var MAX_CATCH_UP = 600;
  var COLS = 5, ROWS = 6, QUICK = 4;
  // board
  var TILE = 32, GAP = 4, BX = 42, BY = 44;
  // on-screen keyboard: A..M on row 0, N..Z on row 1; key centre x = 24 + 36 * col, y = 283 + 36 * row
  var KEY_W = 32, KEY_H = 30, KEY_X0 = 24, KEY_Y0 = 283, KEY_PITCH = 36;
  // buttons in the side panel
  var DEL_BTN = { x: 244, y: 222, w: 84, h: 34 };
  var ENTER_BTN = { x: 336, y: 222, w: 132, h: 34 };
  var LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

  var WORDS = window.WORDGRID_WORDS;
  var ANSWERS = WORDS.answers;
  var VALID = {};
  ANSWERS.concat(WORDS.extra).forEach(function (w) { VALID[w] = true; });

  var COLOR = {
    G: "#3fa45b", Y: "#d69e2e", "-": "#3a4152",
    Gtop: "#58c776", Ytop: "#f0bd4c", "-top": "#4c5468"
  };

  var canvas = document.getElementById("game");
  var ctx = canvas.getContext("2d");
  var g = null;
  var lastTs = null, acc = 0;

  // ---------------------------------------------------------------- logic

  function drawAnswer() {
    var pick = ANSWERS[Math.floor(Math.random() * ANSWERS.length)];
    var tries = 0;
    while (g.used[pick] && tries < 20) {   // no word twice in a run
      pick = ANSWERS[Math.floor(Math.random() * ANSWERS.length)];
      tries++;
    }
    g.used[pick] = true;
    return pick;
  }

  function startWord() {
    g.round += 1;
    g.answer = drawAnswer();
    g.rows = [];
    g.marks = [];
    g.current = "";
    g.greenSeen = [false, false, false, false, false];
    g.keys = {};
    g.phase = "guessing";
    g.revealTick = -1000;
    g.roundTick = g.tick;
  }

  function newGame() {
    g = { tick: 0, round: 0, solved: 0, greens: 0, quick: 0, guessesTotal: 0, used: {},
          message: "", msgTick: -1000, shakeTick: -1000, popTick: -1000, solveTick: -1000,
          lastSolvedIn: 0, over: false };
    startWord();
    g.message = "Type a five-letter word";
    g.msgTick = 0;
  }

  function evaluate(guess, answer) {
    var marks = ["-", "-", "-", "-", "-"], left = {}, i;
    for (i = 0; i < COLS; i++) {
      if (guess[i] === answer[i]) marks[i] = "G";
      else left[answer[i]] = (left[answer[i]] || 0) + 1;
    }
    for (i = 0; i < COLS; i++) {
      if (marks[i] !== "G" && left[guess[i]] > 0) { marks[i] = "Y"; left[guess[i]] -= 1; }
    }
    return marks.join("");
  }

  var RANK = { "-": 1, Y: 2, G: 3 };

  function say(text) { g.message = text; g.msgTick = g.tick; }

  function submit() {
    if (g.current.length < COLS) { say("Not enough letters"); g.shakeTick = g.tick; return; }
    var word = g.current.toLowerCase();
    if (!VALID[word]) { say("Not in the word list"); g.shakeTick = g.tick; return; }
    var marks = evaluate(word, g.answer);
    g.rows.push(g.current);
    g.marks.push(marks);
    g.current = "";
    g.guessesTotal += 1;
    g.revealTick = g.tick;
    for (var i = 0; i < COLS; i++) {
      var ch = word[i].toUpperCase(), m = marks[i];
      if (!g.keys[ch] || RANK[m] > RANK[g.keys[ch]]) g.keys[ch] = m;
      if (m === "G" && !g.greenSeen[i]) { g.greenSeen[i] = true; g.greens += 1; }
    }
    if (marks === "GGGGG") {
      g.solved += 1;
      if (g.rows.length <= QUICK) g.quick += 1;
      g.lastSolvedIn = g.rows.length;
      g.phase = "solved";
      g.solveTick = g.tick;
      var praise = ["Genius!", "Brilliant!", "Splendid!", "Great!", "Nice!", "Phew!"][g.rows.length - 1];
      say(praise + " Solved in " + g.rows.length);
    } else if (g.rows.length >= ROWS) {
      g.phase = "lost";
      g.over = true;
      say("Out of tries");
    } else {
      say("");
    }
  }

  function typeLetter(ch) {
    if (g.over) return;
    if (g.phase === "solved") startWord();
    if (g.current.length < COLS) {
      g.current += ch;
      g.popTick = g.tick;
      if (g.message) say("");
    }
  }

  function pressEnter() {
    if (g.over) return;
    if (g.phase === "solved") { startWord(); say("Next word: go!"); return; }
    submit();
  }

  function pressBackspace() {
    if (g.over || g.phase !== "guessing") return;
    if (g.current.length > 0) g.current = g.current.slice(0, -1);
  }

  function step() { g.tick++; }

  // ---------------------------------------------------------------- input

  window.addEventListener("keydown", function (e) {
    var code = e.code || "";
    if (code.length === 4 && code.slice(0, 3) === "Key") {
      var ch = code[3];
      if (ch >= "A" && ch <= "Z") { typeLetter(ch); e.preventDefault(); }
    } else if (code === "Enter" || code === "NumpadEnter") {
      pressEnter(); e.preventDefault();
    } else if (code === "Backspace") {
      pressBackspace(); e.preventDefault();
    }
  });

  function inside(b, x, y) { return x >= b.x && x < b.x + b.w && y >= b.y && y < b.y + b.h; }

  canvas.addEventListener("mousedown", function (e) {
    var r = canvas.getBoundingClientRect();
    var x = Math.floor(e.clientX - r.left), y = Math.floor(e.clientY - r.top);
    if (inside(DEL_BTN, x, y)) { pressBackspace(); return; }
    if (inside(ENTER_BTN, x, y)) { pressEnter(); return; }
    for (var i = 0; i < 26; i++) {
      var cx = KEY_X0 + KEY_PITCH * (i % 13), cy = KEY_Y0 + KEY_PITCH * Math.floor(i / 13);
      if (Math.abs(x - cx) <= KEY_W / 2 && Math.abs(y - cy) <= KEY_H / 2) { typeLetter(LETTERS[i]); return; }
    }
  });

  // ---------------------------------------------------------------- drawing

  function roundRect(x, y, w, h, r) {
    ctx.beginPath();
    ctx.moveTo(x + r, y);
    ctx.arcTo(x + w, y, x + w, y + h, r);
    ctx.arcTo(x + w, y + h, x, y + h, r);
    ctx.arcTo(x, y + h, x, y, r);
    ctx.arcTo(x, y, x + w, y, r);
    ctx.closePath();
  }

  function fillTile(x, y, w, h, mark) {
    var grad = ctx.createLinearGradient(0, y, 0, y + h);
    grad.addColorStop(0, COLOR[mark + "top"]);
    grad.addColorStop(1, COLOR[mark]);
    ctx.fillStyle = grad;
    roundRect(x, y, w, h, 4);
    ctx.fill();
  }

  function drawBoard() {
    var t = g.tick;
    // backing card
    ctx.fillStyle = "rgba(255,255,255,0.04)";
    roundRect(BX - 10, BY - 8, COLS * TILE + (COLS - 1) * GAP + 20, ROWS * TILE + (ROWS - 1) * GAP + 16, 10);
    ctx.fill();
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.font = "bold 20px sans-serif";
    for (var r = 0; r < ROWS; r++) {
      var shake = 0;
      if (r === g.rows.length && g.phase === "guessing" && t - g.shakeTick < 18) {
        var k = t - g.shakeTick;
        shake = ((k >> 1) % 2 ? -1 : 1) * (18 - k) / 3;
      }
      for (var c = 0; c < COLS; c++) {
        var x = BX + c * (TILE + GAP) + shake, y = BY + r * (TILE + GAP);
        var letter = "", mark = null;
        if (r < g.rows.length) { letter = g.rows[r][c]; mark = g.marks[r][c]; }
        else if (r === g.rows.length && g.phase === "guessing") letter = g.current[c] || "";
        var scaleY = 1;
        if (mark && r === g.rows.length - 1) {
          var local = t - g.revealTick - c;                // staggered flip, 4 ticks a tile: done in 8 ticks
          if (local < 0) { mark = null; }
          else if (local < 4) {
            scaleY = Math.abs(2 - local) / 2;
            if (local < 2) mark = null;
          }
        }
        var hh = TILE * scaleY, yy = y + (TILE - hh) / 2;
        if (mark) {
          var bounce = 0;
          if (g.phase === "solved" && r === g.rows.length - 1) {
            var b = t - g.solveTick - 9 - c * 2;
            if (b >= 0 && b < 10) bounce = -Math.sin(b / 10 * Math.PI) * 8;
          }
          fillTile(x, yy + bounce, TILE, hh, mark);
          ctx.fillStyle = "#ffffff";
          if (scaleY > 0.3) ctx.fillText(letter, x + TILE / 2, y + TILE / 2 + 1 + bounce);
        } else {
          var pop = (letter && r === g.rows.length && c === g.current.length - 1 && t - g.popTick < 6) ? 2 : 0;
          ctx.fillStyle = letter ? "#1d2338" : "#141a2c";
          roundRect(x - pop, yy - pop, TILE + 2 * pop, hh + 2 * pop, 4);
          ctx.fill();
          ctx.lineWidth = 2;
          ctx.strokeStyle = letter ? "#8793bf" : (r === g.rows.length && g.phase === "guessing" ? "#3c4670" : "#2a3150");
          ctx.stroke();
          if (letter && scaleY > 0.3) {
            ctx.fillStyle = "#eef1ff";
            ctx.fillText(letter, x + TILE / 2, y + TILE / 2 + 1);
          }
        }
      }
    }
  }

  function drawKeyboard() {
    ctx.font = "bold 15px sans-serif";
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    for (var i = 0; i < 26; i++) {
      var ch = LETTERS[i];
      var cx = KEY_X0 + KEY_PITCH * (i % 13), cy = KEY_Y0 + KEY_PITCH * Math.floor(i / 13);
      var x = cx - KEY_W / 2, y = cy - KEY_H / 2;
      var mark = g.keys[ch];
      if (mark && g.marks.length && g.tick - g.revealTick < 20) {
        // show a key's new colour only once this guess's tiles have flipped
        var last = g.rows[g.rows.length - 1];
        var idx = last.indexOf(ch);
        if (idx >= 0) {
          var prev = null;
          for (var rr = 0; rr < g.rows.length - 1; rr++) {
            for (var cc = 0; cc < COLS; cc++) {
              if (g.rows[rr][cc] === ch && (!prev || RANK[g.marks[rr][cc]] > RANK[prev])) prev = g.marks[rr][cc];
            }
          }
          if (g.tick - g.revealTick < idx + 2) mark = prev;
        }
      }
      if (mark) fillTile(x, y, KEY_W, KEY_H, mark);
      else {
        var grad = ctx.createLinearGradient(0, y, 0, y + KEY_H);
        grad.addColorStop(0, "#5d6790");
        grad.addColorStop(1, "#434c72");
        ctx.fillStyle = grad;
        roundRect(x, y, KEY_W, KEY_H, 5);
        ctx.fill();
      }
      ctx.fillStyle = "rgba(0,0,0,0.25)";
      ctx.fillRect(x + 3, y + KEY_H - 3, KEY_W - 6, 2);
      ctx.fillStyle = mark === "-" ? "#9aa1b4" : "#ffffff";
      ctx.fillText(ch, cx, cy);
    }
  }

  function button(b, label, accent) {
    var grad = ctx.createLinearGradient(0, b.y, 0, b.y + b.h);
    grad.addColorStop(0, accent ? "#6c7dff" : "#5d6790");
    grad.addColorStop(1, accent ? "#4453c9" : "#434c72");
    ctx.fillStyle = grad;
    roundRect(b.x, b.y, b.w, b.h, 7);
    ctx.fill();
    ctx.fillStyle = "#ffffff";
    ctx.font = "bold 15px sans-serif";
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillText(label, b.x + b.w / 2, b.y + b.h / 2 + 1);
  }

  function drawPanel() {
    var px = 244, pw = 224;
    // stats card
    ctx.fillStyle = "rgba(255,255,255,0.05)";
    roundRect(px, 44, pw, 64, 10);
    ctx.fill();
    var stats = [["SOLVED", g.solved, "#7ee2a0"], ["GREENS", g.greens, "#58c776"], ["QUICK", g.quick, "#f0bd4c"]];
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    for (var i = 0; i < 3; i++) {
      var cx = px + 38 + i * 74;
      ctx.fillStyle = "#8a94bd";
      ctx.font = "bold 10px sans-serif";
      ctx.fillText(stats[i][0], cx, 58);
      ctx.fillStyle = stats[i][2];
      ctx.font = "bold 26px sans-serif";
      ctx.fillText(String(stats[i][1]), cx, 86);
    }
    // round and guesses
    ctx.fillStyle = "rgba(255,255,255,0.05)";
    roundRect(px, 116, pw, 40, 10);
    ctx.fill();
    ctx.textAlign = "left";
    ctx.fillStyle = "#dfe4ff";
    ctx.font = "bold 14px sans-serif";
    ctx.fillText("WORD " + g.round, px + 12, 136);
    ctx.fillStyle = "#8a94bd";
    ctx.font = "bold 11px sans-serif";
    ctx.fillText("TRIES", px + 92, 136);
    for (var k = 0; k < ROWS; k++) {
      var used = k < g.rows.length;
      ctx.beginPath();
      ctx.arc(px + 140 + k * 14, 136, 5, 0, Math.PI * 2);
      ctx.fillStyle = used ? (g.marks[k] === "GGGGG" ? COLOR.G : "#e06a6a") : "#2c3454";
      ctx.fill();
    }
    // message
    ctx.fillStyle = "rgba(255,255,255,0.05)";
    roundRect(px, 164, pw, 50, 10);
    ctx.fill();
    ctx.textAlign = "center";
    var msg = g.message, sub = "";
    if (g.phase === "solved") sub = "Type a letter or Enter: next word";
    else if (g.phase === "lost") sub = "The run is over";
    else if (!msg) { msg = "Guess " + (g.rows.length + 1) + " of " + ROWS; sub = "Enter submits, Del erases"; }
    else if (msg === "Type a five-letter word") sub = "Enter submits, Del erases";
    var warn = msg === "Not in the word list" || msg === "Not enough letters";
    ctx.fillStyle = warn ? "#ff8a8a" : (g.phase === "solved" ? "#7ee2a0" : "#ffffff");
    ctx.font = "bold 15px sans-serif";
    ctx.fillText(msg, px + pw / 2, sub ? 182 : 189);
    if (sub) {
      ctx.fillStyle = "#8a94bd";
      ctx.font = "12px sans-serif";
      ctx.fillText(sub, px + pw / 2, 201);
    }
    button(DEL_BTN, "DEL", false);
    button(ENTER_BTN, "ENTER", true);
  }

  function drawHud() {
    var grad = ctx.createLinearGradient(0, 0, W, 0);
    grad.addColorStop(0, "#1a2150");
    grad.addColorStop(1, "#2a1a4a");
    ctx.fillStyle = grad;
    ctx.fillRect(0, 0, W, HUD_H);
    ctx.fillStyle = "#6c7dff";
    ctx.fillRect(0, HUD_H - 2, W, 2);
    // logo: five little tiles
    var logo = "WORD", colours = ["G", "Y", "G", "-"];
    ctx.font = "bold 13px sans-serif";
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    for (var i = 0; i < 4; i++) {
      fillTile(10 + i * 21, 7, 19, 19, colours[i]);
      ctx.fillStyle = "#ffffff";
      ctx.fillText(logo[i], 19.5 + i * 21, 17);
    }
    ctx.textAlign = "left";
    ctx.font = "bold 17px sans-serif";
    ctx.fillStyle = "#ffffff";
    ctx.fillText("GRID", 98, 17);
    ctx.textAlign = "right";
    ctx.font = "bold 13px sans-serif";
    ctx.fillStyle = "#c9d0f5";
    ctx.fillText("SOLVED " + g.solved + "   WORD " + g.round + "   TRY " + Math.min(g.rows.length + (g.phase === "guessing" ? 1 : 0), ROWS) + "/6", W - 12, 17);
  }

  function drawCelebration() {
    var k = g.tick - g.solveTick - 9;
    if (g.phase !== "solved" || k < 0 || k > 60) return;
    for (var i = 0; i < 24; i++) {
      var sx = BX + 8 + (i * 37) % 160, sy = BY + (g.rows.length - 1) * (TILE + GAP) + 16;
      var vx = ((i * 53) % 29 - 14) * 0.35, vy = -3.5 - (i * 17 % 7) * 0.4;
      var x = sx + vx * k, y = sy + vy * k + 0.09 * k * k;
      ctx.globalAlpha = Math.max(0, 1 - k / 60);
      ctx.fillStyle = ["#58c776", "#f0bd4c", "#6c7dff", "#ff8ab3"][i % 4];
      ctx.fillRect(x, y, 5, 5);
    }
    ctx.globalAlpha = 1;
  }

  function drawLost() {
    if (!g.over) return;
    ctx.fillStyle = "rgba(8,10,24,0.82)";
    roundRect(BX - 18, BY + 70, 212, 84, 12);
    ctx.fill();
    ctx.strokeStyle = "#e06a6a";
    ctx.lineWidth = 2;
    ctx.stroke();
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillStyle = "#ff8a8a";
    ctx.font = "bold 22px sans-serif";
    ctx.fillText("OUT OF TRIES", BX + 88, BY + 92);
    ctx.fillStyle = "#c9d0f5";
    ctx.font = "13px sans-serif";
    ctx.fillText("The word was", BX + 88, BY + 115);
    ctx.fillStyle = "#ffffff";
    ctx.font = "bold 18px sans-serif";
    ctx.fillText(g.answer.toUpperCase(), BX + 88, BY + 136);
  }

  function draw() {
    var bg = ctx.createLinearGradient(0, 0, 0, H);
    bg.addColorStop(0, "#141a3a");
    bg.addColorStop(1, "#0a0d1e");
    ctx.fillStyle = bg;
    ctx.fillRect(0, 0, W, H);
    // faint letter grid in the background
    ctx.fillStyle = "rgba(255,255,255,0.025)";
    for (var y = HUD_H + 6; y < 262; y += 18) for (var x = 6; x < W; x += 18) ctx.fillRect(x, y, 2, 2);
    drawHud();
    drawBoard();
    drawPanel();
    drawKeyboard();
    ctx.fillStyle = "#5d6690";
    ctx.font = "11px sans-serif";
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillText("green: right place   amber: elsewhere in the word   grey: not in the word", W / 2, 349);
    drawCelebration();
    drawLost();
  }

  function rendering() {
    var gw = window.__gameworld;
    return !(gw && gw.rendering === false);
  }

  function frame(ts) {
    if (lastTs !== null) {
      acc += ts - lastTs;
      var n = 0;
      while (acc >= TICK_MS) { acc -= TICK_MS; if (n++ < MAX_CATCH_UP) step(); }
    }
    lastTs = ts;
    if (rendering()) draw();
    requestAnimationFrame(frame);
  }

  function keyboardString() {
    var s = "";
    for (var i = 0; i < 26; i++) s += g.keys[LETTERS[i]] || ".";
    return s;
  }

  window.gameAPI = {
    getState: function () {
      return {
        status: g.over ? "terminal" : "playing",
        actionable: true,
        terminal: { is_terminal: g.over, outcome: g.over ? "lose" : null, reason: g.over ? "six wrong guesses" : null },
        score: g.solved,
        solved: g.solved,
        greens: g.greens,
        quick_solves: g.quick,
        round: g.round,
        phase: g.phase,
        guesses: g.rows.length,
        current: g.current,
        rows: g.rows.slice(),
        marks: g.marks.slice(),
        keyboard: keyboardString(),
        message: g.message
      };
    },
    reset: function () {
      newGame();
      acc = 0;
      draw();
    }
  };

  newGame();
  draw();
  requestAnimationFrame(frame);
})();
