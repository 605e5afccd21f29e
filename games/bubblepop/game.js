// Bubble Reef: a bubble shooter on a coral reef. Click (or aim with the mouse and click) to fire the loaded bubble
// toward the pointer; it bounces off the side walls and sticks where it first touches a bubble or the ceiling.
// Three or more of a colour joined together pop, and bubbles no longer hanging from the ceiling fall. Every 5 shots
// the ceiling drops one row; a bubble below the red line loses, and so does running out of bubbles (each board
// adds 24 to the supply, what is left carries over). Space swaps the loaded and the next bubble. An emptied board
// brings the next one.
// Platform rules (games/README.md): fixed 1/60 s ticks from the rAF clock, chance only from Math.random (the layout
// at each board's start, and each new bubble's colour when it is loaded, in a fixed order), integer fixed-point
// flight (1/256 px), no drawing while window.__gameworld.rendering is false, the first frame drawn before the game
// is actionable and again at the end of reset().
(function () {
  "use strict";

  var W = 480, H = 360, HUD_H = 24;
  var TICK_MS = 1000 / 60;
  var MAX_CATCH_UP = 600;
  var FP = 256;
  var R = 11, D = 22, RH = 19;            // bubble radius, diameter, row height (px)
  var COLS = 10;                          // bubbles in an even row (odd rows hold 9, shifted by half a bubble)
  var FX = 130, FW = COLS * D;            // the field's left wall and width
  var TOP = 28;                           // the ceiling's first position (px)
  var MAX_ROWS = 16;
  var LX = 240, LY = 336;                 // the launcher
  var DEATH_Y = 281;                      // a bubble whose bottom passes this line loses
  var SUB = 10, SUB_PX = 2;               // substeps a tick, px a substep: 20 px a tick
  var HIT_D = 18;                         // a flying bubble sticks when its centre comes within 18 px of a bubble's
  var DROP_EVERY = 5;                     // shots between two drops of the ceiling
  var SUPPLY = 24;                        // bubbles each board adds to the supply (what is left carries over)
  var COLORS = [
    { name: "R", fill: "#ff4d5e", dark: "#a3182a", mark: "heart" },
    { name: "Y", fill: "#ffd23f", dark: "#b38600", mark: "star" },
    { name: "G", fill: "#3ddc84", dark: "#12804a", mark: "leaf" },
    { name: "B", fill: "#3fa7ff", dark: "#0b5aa8", mark: "drop" },
    { name: "P", fill: "#c77dff", dark: "#6c2bb0", mark: "ring" }
  ];

  var canvas = document.getElementById("game");
  var ctx = canvas.getContext("2d");
  var g = null;
  var lastTs = null, acc = 0;

  function randomInt(low, high) { return low + Math.floor(Math.random() * (high - low + 1)); }

  function rowCols(r) { return r % 2 === 0 ? COLS : COLS - 1; }
  function cellX(r, c) { return FX + R + c * D + (r % 2 === 0 ? 0 : R); }
  function cellY(r) { return g.ceil + R + r * RH; }

  function levelColors(level) { return level < 4 ? 4 : 5; }
  function levelRows(level) { return Math.min(7, 3 + level); }

  function newBoard() {
    var nc = levelColors(g.level), rows = levelRows(g.level);
    g.grid = [];
    for (var r = 0; r < MAX_ROWS; r++) {
      var row = [];
      for (var c = 0; c < rowCols(r); c++) row.push(-1);
      g.grid.push(row);
    }
    for (var r2 = 0; r2 < rows; r2++) {
      for (var c2 = 0; c2 < rowCols(r2); c2++) {
        var roll = randomInt(0, 9);
        var col;
        if (roll < 2 && c2 > 0) col = g.grid[r2][c2 - 1];
        else if (roll < 3 && r2 > 0) col = g.grid[r2 - 1][Math.min(c2, rowCols(r2 - 1) - 1)];
        else col = randomInt(0, nc - 1);
        g.grid[r2][c2] = col;
      }
    }
    g.ceil = TOP;
    g.drops = 0;
    g.sinceDrop = 0;
    g.supply += SUPPLY;
    g.current = pickColor();
    g.next = pickColor();
  }

  function colorsOnBoard() {
    var seen = [];
    for (var r = 0; r < MAX_ROWS; r++) for (var c = 0; c < g.grid[r].length; c++) {
      var v = g.grid[r][c];
      if (v >= 0 && seen.indexOf(v) < 0) seen.push(v);
    }
    seen.sort();
    return seen;
  }

  function pickColor() {
    var on = colorsOnBoard();
    if (!on.length) return randomInt(0, levelColors(g.level) - 1);
    return on[randomInt(0, on.length - 1)];
  }

  function newGame() {
    g = { tick: 0, level: 1, boards: 0, score: 0, popped: 0, dropped: 0, shots: 0, over: false, won: false,
          grid: [], supply: 0, outOfBubbles: false, ceil: TOP, drops: 0, sinceDrop: 0, current: 0, next: 0, shot: null,
          aim: { x: LX, y: 150 }, swaps: 0, swapFlash: 0, effects: [], marks: [], shake: 0, banner: 0, bestChain: 0 };
    newBoard();
  }

  function neighbours(r, c) {
    var out = [];
    var odd = r % 2 === 1;
    var cand = [[r, c - 1], [r, c + 1],
                [r - 1, odd ? c : c - 1], [r - 1, odd ? c + 1 : c],
                [r + 1, odd ? c : c - 1], [r + 1, odd ? c + 1 : c]];
    for (var i = 0; i < cand.length; i++) {
      var rr = cand[i][0], cc = cand[i][1];
      if (rr >= 0 && rr < MAX_ROWS && cc >= 0 && cc < rowCols(rr)) out.push([rr, cc]);
    }
    return out;
  }

  function attachable(r, c) {
    if (g.grid[r][c] >= 0) return false;
    if (r === 0) return true;
    var nb = neighbours(r, c);
    for (var i = 0; i < nb.length; i++) if (g.grid[nb[i][0]][nb[i][1]] >= 0) return true;
    return false;
  }

  function fire(x, y) {
    if (g.over || g.shot || g.banner > 0 || g.supply <= 0) return;
    var dx = x - LX, dy = y - LY;
    var minUp = Math.max(16, Math.floor(Math.abs(dx) / 5));
    if (dy > -minUp) dy = -minUp;
    var len = Math.sqrt(dx * dx + dy * dy);
    g.supply -= 1;
    g.shot = { x: LX * FP, y: LY * FP, vx: Math.floor(dx * SUB_PX * FP / len + 0.5), vy: Math.floor(dy * SUB_PX * FP / len + 0.5),
               color: g.current, age: 0 };
    g.current = g.next;
    g.next = pickColor();
  }

  function swap() {
    if (g.over || g.banner > 0) return;
    var t = g.current; g.current = g.next; g.next = t;
    g.swaps += 1;
    g.swapFlash = 10;
  }

  function land(px, py, color) {
    var best = null;
    for (var r = 0; r < MAX_ROWS; r++) {
      for (var c = 0; c < rowCols(r); c++) {
        if (!attachable(r, c)) continue;
        var ex = cellX(r, c) - px, ey = cellY(r) - py;
        var d2 = ex * ex + ey * ey;
        if (best === null || d2 < best[0]) best = [d2, r, c];
      }
    }
    var lr = best[1], lc = best[2];
    g.grid[lr][lc] = color;
    g.shots += 1;
    // the group of its colour
    var group = [[lr, lc]], seen = {}, k = 0;
    seen[lr + "," + lc] = true;
    while (k < group.length) {
      var nb = neighbours(group[k][0], group[k][1]);
      for (var i = 0; i < nb.length; i++) {
        var key = nb[i][0] + "," + nb[i][1];
        if (!seen[key] && g.grid[nb[i][0]][nb[i][1]] === color) { seen[key] = true; group.push(nb[i]); }
      }
      k++;
    }
    var popped = 0, fell = 0;
    if (group.length >= 3) {
      for (var p = 0; p < group.length; p++) {
        var gr = group[p][0], gc = group[p][1];
        g.grid[gr][gc] = -1;
        burst(cellX(gr, gc), cellY(gr), color, false);
      }
      popped = group.length;
      // what still hangs from the ceiling
      var hang = {}, stack = [];
      for (var c0 = 0; c0 < rowCols(0); c0++) if (g.grid[0][c0] >= 0) { hang["0," + c0] = true; stack.push([0, c0]); }
      while (stack.length) {
        var cur = stack.pop(), nbs = neighbours(cur[0], cur[1]);
        for (var j = 0; j < nbs.length; j++) {
          var kk = nbs[j][0] + "," + nbs[j][1];
          if (!hang[kk] && g.grid[nbs[j][0]][nbs[j][1]] >= 0) { hang[kk] = true; stack.push(nbs[j]); }
        }
      }
      for (var r3 = 0; r3 < MAX_ROWS; r3++) for (var c3 = 0; c3 < rowCols(r3); c3++) {
        if (g.grid[r3][c3] >= 0 && !hang[r3 + "," + c3]) {
          burst(cellX(r3, c3), cellY(r3), g.grid[r3][c3], true);
          g.grid[r3][c3] = -1;
          fell += 1;
        }
      }
      g.popped += popped;
      g.dropped += fell;
      var pts = 10 * popped + 20 * fell;
      g.score += pts;
      if (popped + fell > g.bestChain) g.bestChain = popped + fell;
      g.marks.push({ x: cellX(lr, lc), y: cellY(lr), t: 0, text: "+" + pts + (fell ? "  (" + fell + " fell)" : ""), c: "#fff6a8" });
    }
    if (!colorsOnBoard().length) {
      g.boards += 1;
      g.score += 100;
      g.banner = 30;
      g.marks.push({ x: W / 2, y: 150, t: 0, text: "BOARD CLEAR +100", c: "#9bf08a", big: true });
      return;
    }
    g.sinceDrop += 1;
    if (g.sinceDrop >= DROP_EVERY) {
      g.sinceDrop = 0;
      g.drops += 1;
      g.ceil += RH;
      g.shake = 12;
    }
    if (lowestBottom() > DEATH_Y) { g.over = true; g.shake = 20; }
    else if (g.supply <= 0) { g.over = true; g.outOfBubbles = true; }
    if (!g.over) {
      // the loaded bubbles keep to the colours still on the board
      var on = colorsOnBoard();
      if (on.indexOf(g.current) < 0) g.current = on[randomInt(0, on.length - 1)];
      if (on.indexOf(g.next) < 0) g.next = on[randomInt(0, on.length - 1)];
    }
  }

  function lowestRow() {
    for (var r = MAX_ROWS - 1; r >= 0; r--) for (var c = 0; c < rowCols(r); c++) if (g.grid[r][c] >= 0) return r;
    return -1;
  }

  function lowestBottom() {
    var r = lowestRow();
    return r < 0 ? 0 : cellY(r) + R;
  }

  function burst(x, y, color, falling) {
    g.effects.push({ x: x * 16, y: y * 16, vy: falling ? 0 : -8, color: color, t: 0, falling: falling });
  }

  function step() {
    g.tick++;
    if (g.shake > 0) g.shake--;
    if (g.swapFlash > 0) g.swapFlash--;
    for (var m = g.marks.length - 1; m >= 0; m--) if (++g.marks[m].t > 45) g.marks.splice(m, 1);
    for (var e = g.effects.length - 1; e >= 0; e--) {
      var ef = g.effects[e]; ef.t++;
      if (ef.falling) { ef.vy += 2; ef.y += ef.vy; }
      if (ef.t > (ef.falling ? 50 : 16)) g.effects.splice(e, 1);
    }
    if (g.over) return;
    if (g.banner > 0) {
      if (--g.banner === 0) { g.level += 1; newBoard(); }
      return;
    }
    if (!g.shot) return;
    var s = g.shot;
    s.age++;
    for (var k = 0; k < SUB; k++) {
      s.x += s.vx; s.y += s.vy;
      var px = Math.floor(s.x / FP), py = Math.floor(s.y / FP);
      if (px < FX + R) { s.x = 2 * (FX + R) * FP - s.x; s.vx = -s.vx; px = Math.floor(s.x / FP); }
      if (px > FX + FW - R) { s.x = 2 * (FX + FW - R) * FP - s.x; s.vx = -s.vx; px = Math.floor(s.x / FP); }
      var stick = py - R <= g.ceil;
      for (var r = 0; r < MAX_ROWS && !stick; r++) {
        var cy = cellY(r);
        if (Math.abs(cy - py) >= HIT_D) continue;
        for (var c = 0; c < rowCols(r); c++) {
          if (g.grid[r][c] < 0) continue;
          var ex = cellX(r, c) - px, ey = cy - py;
          if (ex * ex + ey * ey < HIT_D * HIT_D) { stick = true; break; }
        }
      }
      if (stick) {
        g.shot = null;
        land(px, py, s.color);
        return;
      }
    }
  }

  // ---------- drawing ----------

  function draw() {
    ctx.save();
    if (g.shake > 0) ctx.translate((g.shake % 4) - 2, 0);
    var sea = ctx.createLinearGradient(0, 0, 0, H);
    sea.addColorStop(0, "#0b3b5c");
    sea.addColorStop(1, "#052033");
    ctx.fillStyle = sea; ctx.fillRect(0, 0, W, H);
    // light rays
    ctx.fillStyle = "rgba(160,220,255,0.05)";
    for (var i = 0; i < 5; i++) {
      ctx.beginPath(); ctx.moveTo(20 + i * 100, 0); ctx.lineTo(60 + i * 100, 0); ctx.lineTo(i * 100 - 20, H); ctx.lineTo(i * 100 - 70, H); ctx.fill();
    }
    sidePanel(0, FX);
    sidePanel(FX + FW, W - FX - FW);
    // field
    ctx.fillStyle = "rgba(4,30,48,0.55)"; ctx.fillRect(FX, HUD_H, FW, H - HUD_H);
    ctx.fillStyle = "#2a6f6a"; ctx.fillRect(FX, HUD_H, FW, g.ceil - HUD_H);
    ctx.fillStyle = "#3d8f7f";
    for (var k = 0; k < 11; k++) ctx.fillRect(FX + k * 20 + 4, g.ceil - 5, 12, 5);
    ctx.fillStyle = "#9c6b3c"; ctx.fillRect(FX - 4, HUD_H, 4, H - HUD_H); ctx.fillRect(FX + FW, HUD_H, 4, H - HUD_H);
    // death line
    ctx.strokeStyle = "rgba(255,80,80,0.8)"; ctx.setLineDash([6, 5]); ctx.lineWidth = 2;
    ctx.beginPath(); ctx.moveTo(FX, DEATH_Y); ctx.lineTo(FX + FW, DEATH_Y); ctx.stroke(); ctx.setLineDash([]);
    // grid
    for (var r = 0; r < MAX_ROWS; r++) for (var c = 0; c < rowCols(r); c++) {
      if (g.grid[r][c] >= 0) bubble(cellX(r, c), cellY(r), g.grid[r][c], 1);
    }
    for (var e = 0; e < g.effects.length; e++) effect(g.effects[e]);
    // aim guide
    if (!g.over) guide();
    if (g.shot) bubble(Math.floor(g.shot.x / FP), Math.floor(g.shot.y / FP), g.shot.color, 1);
    launcher();
    for (var m = 0; m < g.marks.length; m++) mark(g.marks[m]);
    ctx.restore();
    hud();
    if (g.banner > 0) banner("BOARD CLEAR!", "level " + (g.level + 1) + " next: " + levelRows(g.level + 1) + " rows, " + levelColors(g.level + 1) + " colours", "#9bf08a");
    if (g.over) banner(g.outOfBubbles ? "OUT OF BUBBLES" : "THE REEF IS FULL", g.popped + g.dropped + " bubbles cleared  -  " + g.shots + " shots  -  score " + g.score, "#ff6b5e");
  }

  function sidePanel(x, w) {
    ctx.fillStyle = "#0a2c44"; ctx.fillRect(x, HUD_H, w, H - HUD_H);
    ctx.fillStyle = "#d9c08a"; ctx.fillRect(x, H - 26, w, 26);
    ctx.fillStyle = "#c7ab72";
    for (var s = 0; s < 6; s++) ctx.fillRect(x + 6 + s * 20, H - 18 + (s % 2) * 6, 8, 2);
    // coral
    var cx = x + w / 2;
    ctx.strokeStyle = x === 0 ? "#ff7a8a" : "#ffa24a"; ctx.lineWidth = 5; ctx.lineCap = "round";
    ctx.beginPath();
    ctx.moveTo(cx, H - 26); ctx.lineTo(cx, H - 70);
    ctx.moveTo(cx, H - 50); ctx.lineTo(cx - 18, H - 78);
    ctx.moveTo(cx, H - 58); ctx.lineTo(cx + 16, H - 90);
    ctx.moveTo(cx - 18, H - 78); ctx.lineTo(cx - 22, H - 96);
    ctx.stroke();
    ctx.lineCap = "butt";
    ctx.fillStyle = "#2f9e6a";
    for (var k = 0; k < 3; k++) {
      ctx.beginPath(); ctx.ellipse(x + 14 + k * 42, H - 34, 4, 16, 0.2 * (k - 1), 0, Math.PI * 2); ctx.fill();
    }
  }

  function bubble(x, y, ci, alpha) {
    var col = COLORS[ci];
    ctx.globalAlpha = alpha;
    ctx.fillStyle = col.dark;
    ctx.beginPath(); ctx.arc(x, y, R, 0, Math.PI * 2); ctx.fill();
    var grad = ctx.createRadialGradient(x - 3, y - 4, 2, x, y, R);
    grad.addColorStop(0, "#ffffff"); grad.addColorStop(0.25, col.fill); grad.addColorStop(1, col.dark);
    ctx.fillStyle = grad;
    ctx.beginPath(); ctx.arc(x, y, R - 1, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = "rgba(255,255,255,0.75)";
    ctx.strokeStyle = "rgba(255,255,255,0.75)"; ctx.lineWidth = 1.5;
    if (col.mark === "heart") {
      ctx.beginPath(); ctx.arc(x - 2, y, 2, 0, Math.PI * 2); ctx.arc(x + 2, y, 2, 0, Math.PI * 2); ctx.fill();
      ctx.beginPath(); ctx.moveTo(x - 4, y + 1); ctx.lineTo(x, y + 5); ctx.lineTo(x + 4, y + 1); ctx.fill();
    } else if (col.mark === "star") {
      ctx.beginPath();
      for (var i = 0; i < 10; i++) {
        var a = -Math.PI / 2 + i * Math.PI / 5, rr = i % 2 ? 2 : 5;
        ctx.lineTo(x + Math.cos(a) * rr, y + 1 + Math.sin(a) * rr);
      }
      ctx.fill();
    } else if (col.mark === "leaf") {
      ctx.beginPath(); ctx.ellipse(x, y + 1, 2.5, 5, 0.6, 0, Math.PI * 2); ctx.fill();
    } else if (col.mark === "drop") {
      ctx.beginPath(); ctx.moveTo(x, y - 4); ctx.quadraticCurveTo(x + 5, y + 3, x, y + 5); ctx.quadraticCurveTo(x - 5, y + 3, x, y - 4); ctx.fill();
    } else {
      ctx.beginPath(); ctx.arc(x, y + 1, 3.5, 0, Math.PI * 2); ctx.stroke();
    }
    ctx.globalAlpha = 1;
  }

  function effect(ef) {
    var x = Math.floor(ef.x / 16), y = Math.floor(ef.y / 16);
    if (ef.falling) { bubble(x, y, ef.color, Math.max(0, 1 - ef.t / 50)); return; }
    var a = 1 - ef.t / 17, rr = R + ef.t;
    ctx.strokeStyle = "rgba(255,255,255," + a + ")"; ctx.lineWidth = 2;
    ctx.beginPath(); ctx.arc(x, y, rr, 0, Math.PI * 2); ctx.stroke();
    ctx.fillStyle = COLORS[ef.color].fill;
    for (var i = 0; i < 6; i++) {
      var ang = i * Math.PI / 3;
      ctx.globalAlpha = a; ctx.fillRect(x + Math.cos(ang) * rr - 2, y + Math.sin(ang) * rr - 2, 4, 4);
    }
    ctx.globalAlpha = 1;
  }

  function guide() {
    var dx = g.aim.x - LX, dy = g.aim.y - LY;
    var minUp = Math.max(16, Math.floor(Math.abs(dx) / 5));
    if (dy > -minUp) dy = -minUp;
    var len = Math.sqrt(dx * dx + dy * dy);
    var ux = dx / len, uy = dy / len, x = LX, y = LY;
    ctx.fillStyle = "rgba(255,255,255,0.55)";
    for (var i = 0; i < 26; i++) {
      x += ux * 9; y += uy * 9;
      if (x < FX + R) { x = 2 * (FX + R) - x; ux = -ux; }
      if (x > FX + FW - R) { x = 2 * (FX + FW - R) - x; ux = -ux; }
      if (y < g.ceil + R) break;
      if (i > 1) { ctx.beginPath(); ctx.arc(x, y, 1.8, 0, Math.PI * 2); ctx.fill(); }
    }
  }

  function launcher() {
    ctx.fillStyle = "#7a5230";
    ctx.beginPath(); ctx.arc(LX, LY + 14, 24, Math.PI, 0); ctx.fill();
    ctx.fillStyle = "#5a3a20"; ctx.fillRect(LX - 26, LY + 12, 52, 14);
    ctx.fillStyle = "#f2e3c0";
    ctx.beginPath(); ctx.ellipse(LX, LY + 2, 15, 5, 0, 0, Math.PI * 2); ctx.fill();
    if (!g.shot && !g.over) bubble(LX, LY, g.current, 1);
    // the next bubble, waiting in its shell
    ctx.fillStyle = "#5a3a20"; ctx.beginPath(); ctx.arc(LX + 44, LY + 10, 13, 0, Math.PI * 2); ctx.fill();
    bubble(LX + 44, LY + 10, g.next, 0.9);
    ctx.fillStyle = "#cfe8f5"; ctx.font = "bold 9px monospace"; ctx.textAlign = "center"; ctx.textBaseline = "middle";
    ctx.fillText("NEXT", LX + 44, LY - 8);
    ctx.fillText("SPACE: SWAP", LX - 62, LY + 14);
    if (g.swapFlash > 0) {
      ctx.strokeStyle = "rgba(255,255,255," + (g.swapFlash / 10) + ")"; ctx.lineWidth = 2;
      ctx.beginPath(); ctx.moveTo(LX + 14, LY - 4); ctx.quadraticCurveTo(LX + 22, LY - 16, LX + 36, LY - 2); ctx.stroke();
    }
  }

  function mark(mk) {
    var a = 1 - mk.t / 46;
    ctx.font = mk.big ? "bold 18px monospace" : "bold 12px monospace";
    ctx.textAlign = "center"; ctx.textBaseline = "middle";
    var x = Math.max(FX + 50, Math.min(FX + FW - 50, mk.x)), y = mk.y - 14 - Math.floor(mk.t / 3);
    ctx.globalAlpha = a;
    ctx.lineWidth = 3; ctx.strokeStyle = "#04121d"; ctx.strokeText(mk.text, x, y);
    ctx.fillStyle = mk.c; ctx.fillText(mk.text, x, y);
    ctx.globalAlpha = 1;
  }

  function hud() {
    ctx.fillStyle = "#06192a"; ctx.fillRect(0, 0, W, HUD_H);
    ctx.fillStyle = "#3fc1c9"; ctx.fillRect(0, HUD_H - 2, W, 2);
    ctx.font = "bold 13px monospace"; ctx.textBaseline = "middle"; ctx.textAlign = "left"; ctx.fillStyle = "#fff";
    ctx.fillText("LEVEL " + g.level, 8, 12);
    ctx.fillStyle = "#ffe08a";
    ctx.fillText("CLEARED " + (g.popped + g.dropped), 100, 12);
    ctx.fillStyle = "#9bf08a";
    ctx.fillText("BOARDS " + g.boards, 240, 12);
    ctx.textAlign = "right"; ctx.fillStyle = "#fff";
    ctx.fillText("SCORE " + g.score, W - 8, 12);
    // side panel figures
    ctx.textAlign = "center";
    ctx.fillStyle = "#cfe8f5"; ctx.font = "bold 11px monospace";
    ctx.fillText("BUBBLES", FX / 2, 52);
    ctx.fillText("CEILING", FX / 2, 110);
    ctx.fillText("DROPS IN", FX / 2, 124);
    ctx.fillText("POPPED", W - (W - FX - FW) / 2, 52);
    ctx.fillText("FELL", W - (W - FX - FW) / 2, 110);
    ctx.font = "bold 20px monospace"; ctx.fillStyle = "#fff";
    ctx.fillStyle = g.supply <= 5 ? "#ff7a6a" : "#fff";
    ctx.fillText(String(g.supply), FX / 2, 74);
    ctx.fillStyle = "#fff";
    ctx.fillText(String(g.popped), W - (W - FX - FW) / 2, 74);
    ctx.fillText(String(g.dropped), W - (W - FX - FW) / 2, 132);
    // shots before the ceiling drops, as pips
    var left = DROP_EVERY - g.sinceDrop;
    ctx.fillText(String(left), FX / 2, 146);
    for (var p = 0; p < DROP_EVERY; p++) {
      ctx.fillStyle = p < left ? "#ffb24a" : "#24455c";
      ctx.fillRect(FX / 2 - 33 + p * 11, 162, 9, 6);
    }
  }

  function banner(title, sub, color) {
    ctx.fillStyle = "rgba(4,18,30,0.85)"; ctx.fillRect(0, H / 2 - 42, W, 84);
    ctx.textAlign = "center"; ctx.textBaseline = "middle";
    ctx.fillStyle = color; ctx.font = "bold 28px monospace"; ctx.fillText(title, W / 2, H / 2 - 10);
    ctx.fillStyle = "#fff"; ctx.font = "bold 13px monospace"; ctx.fillText(sub, W / 2, H / 2 + 22);
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

  function point(e) {
    var r = canvas.getBoundingClientRect();
    return { x: Math.round(e.clientX - r.left), y: Math.round(e.clientY - r.top) };
  }

  canvas.addEventListener("mousedown", function (e) {
    var p = point(e);
    if (!g.over) g.aim = p;
    fire(p.x, p.y);
    e.preventDefault();
  });
  canvas.addEventListener("mousemove", function (e) {
    if (!g.over) g.aim = point(e);
  });
  window.addEventListener("keydown", function (e) {
    if (e.code !== "Space") return;
    e.preventDefault();
    swap();
  });

  window.gameAPI = {
    getState: function () {
      var rows = [];
      for (var r = 0; r < MAX_ROWS; r++) {
        var s = "";
        for (var c = 0; c < rowCols(r); c++) s += g.grid[r][c] < 0 ? "." : COLORS[g.grid[r][c]].name;
        rows.push(s);
      }
      return {
        status: g.over ? "terminal" : "playing",
        actionable: true,
        terminal: { is_terminal: g.over, outcome: g.over ? "lose" : null, reason: g.over ? (g.outOfBubbles ? "out of bubbles" : "a bubble crossed the line") : null },
        score: g.score,
        cleared: g.popped + g.dropped,
        popped: g.popped,
        fell: g.dropped,
        shots: g.shots,
        bubbles_left: g.supply,
        level: g.level,
        boards_cleared: g.boards,
        shots_to_drop: DROP_EVERY - g.sinceDrop,
        ceiling_drops: g.drops,
        ceiling_y: g.ceil,
        lowest_row: lowestRow(),
        current: COLORS[g.current].name,
        next: COLORS[g.next].name,
        flying: !!g.shot,
        swaps: g.swaps,
        phase: g.over ? "over" : g.banner > 0 ? "clear" : g.shot ? "flying" : "aim",
        grid: rows
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
