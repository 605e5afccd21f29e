// Corner Market: a small top-down shop. Fetch stock from the storeroom crates, fill the shelves,
// and ring up the customers who queue at the till. Unhappy customers cost reputation; at zero the
// shop closes. Game logic runs in fixed 1/60 s ticks taken from requestAnimationFrame timestamps;
// chance comes only from Math.random, drawn in a fixed order.
(() => {
  "use strict";

  const W = 480, H = 360, TILE = 40, COLS = 12, ROWS = 8, TOP = 40;
  const TICK_MS = 1000 / 60;

  const KINDS = ["apples", "bread", "milk"];
  const PRICE = { apples: 2, bread: 3, milk: 4 };
  const LABEL = { apples: "Apples", bread: "Bread", milk: "Milk" };

  // # wall, . floor, C storeroom crates, S shelves, T till, D door. Which good each crate and each shelf holds
  // is the seed's (layShop), like where the shopkeeper starts: the way to a good is read off the screen.
  const MAP = [
    "############",
    "C..........#",
    "#..S..S..S.#",
    "C..........#",
    "#..........#",
    "C......T...#",
    "#..........D",
    "############",
  ];

  const SHELF_CAP = 5;          // items a shelf holds
  const CARRY_CAP = 4;          // items the shopkeeper carries (one kind at a time)
  const START_STOCK = { apples: 1, bread: 1, milk: 1 };  // $9: earning more needs a restock
  const REP_MAX = 5;            // reputation hearts
  const QUEUE_PATIENCE = 600;   // ticks a customer waits in the queue (10 s)
  const SHELF_PATIENCE = 240;   // ticks a customer waits at an empty shelf (4 s)
  const BROWSE_TICKS = 18;      // ticks spent choosing at the shelf
  const WALK_TICKS = 12;        // ticks per tile for customers
  const PLAYER_ANIM = 6;        // ticks of the shopkeeper's step animation
  const FIRST_SPAWN = 30;
  const SPAWN_MIN = 60, SPAWN_SPREAD = 61;  // next arrival in 60..120 ticks
  const MAX_CUSTOMERS = 8;
  const HOLD_DELAY = 20, HOLD_REPEAT = 10;  // a held arrow walks on after 20 ticks, every 10 ticks

  const DOOR = [11, 6];
  const QUEUE_SPOTS = [[7, 6], [6, 6], [5, 6], [4, 6], [3, 6]];
  const START_ROW = 4, START_COLS = [1, 10];  // the shopkeeper starts somewhere on this row (seeded)

  const tileAt = (x, y) => (x < 0 || y < 0 || x >= COLS || y >= ROWS) ? "#" : MAP[y][x];
  const playerWalkable = (x, y) => tileAt(x, y) === ".";
  const customerWalkable = (x, y) => { const t = tileAt(x, y); return t === "." || t === "D"; };

  const SHELVES = {};   // kind -> {x, y, spot: [x, y]}: this game's (layShop)
  const CRATES = {};    // kind -> {x, y}: this game's (layShop)
  const SHELF_SPOTS = [], CRATE_SPOTS = [];
  let TILL = null;
  for (let y = 0; y < ROWS; y++) {
    for (let x = 0; x < COLS; x++) {
      const t = MAP[y][x];
      if (t === "S") SHELF_SPOTS.push([x, y]);
      if (t === "C") CRATE_SPOTS.push([x, y]);
      if (t === "T") TILL = { x, y };
    }
  }

  // The first draws of nearby seeds are alike: each choice mixes four of them.
  function seededInt(n) { let v = 0; for (let k = 0; k < 4; k++) v += Math.floor(Math.random() * n); return v % n; }
  function shuffled(list) {
    const out = list.slice();
    for (let i = out.length - 1; i > 0; i--) { const j = seededInt(i + 1); [out[i], out[j]] = [out[j], out[i]]; }
    return out;
  }
  function layShop() {  // returns where the shopkeeper starts
    shuffled(KINDS).forEach((k, i) => { CRATES[k] = { x: CRATE_SPOTS[i][0], y: CRATE_SPOTS[i][1] }; });
    shuffled(KINDS).forEach((k, i) => { const [x, y] = SHELF_SPOTS[i]; SHELVES[k] = { x, y, spot: [x, y + 1] }; });
    return [START_COLS[0] + seededInt(START_COLS[1] - START_COLS[0] + 1), START_ROW];
  }
  const kindAt = (places, x, y) => KINDS.find(k => places[k].x === x && places[k].y === y);

  // Distance fields for customer walking, one per destination tile.
  const DIRS = [[0, -1], [-1, 0], [1, 0], [0, 1]];
  const fieldCache = {};
  function distField(tx, ty) {
    const key = tx + "," + ty;
    if (fieldCache[key]) return fieldCache[key];
    const d = new Array(COLS * ROWS).fill(-1);
    d[ty * COLS + tx] = 0;
    const q = [[tx, ty]];
    for (let i = 0; i < q.length; i++) {
      const [x, y] = q[i];
      for (const [dx, dy] of DIRS) {
        const nx = x + dx, ny = y + dy;
        if (!customerWalkable(nx, ny) || d[ny * COLS + nx] >= 0) continue;
        d[ny * COLS + nx] = d[y * COLS + x] + 1;
        q.push([nx, ny]);
      }
    }
    return (fieldCache[key] = d);
  }

  // ---------------------------------------------------------------- state
  let g;

  function newGame() {
    const [startX, startY] = layShop();
    g = {
      tick: 0,
      score: 0,
      served: 0,
      restocks: 0,
      unhappy: 0,
      reputation: REP_MAX,
      carrying: null,
      carryCount: 0,
      stock: { apples: START_STOCK.apples, bread: START_STOCK.bread, milk: START_STOCK.milk },
      px: startX, py: startY, fromX: startX, fromY: startY,
      pAnim: 0, facing: "down",
      customers: [],
      queue: [],
      nextId: 1,
      spawnTimer: FIRST_SPAWN,
      floaters: [],
      message: "Shop's open! Serve customers at the till.",
      messageT: 240,
      over: false,
      reason: null,
      flash: {},   // shelf kind -> ticks of "restocked" glow
    };
    inputs.length = 0;
  }

  const inputs = [];
  let heldKey = null, heldTicks = 0;
  const ARROWS = { ArrowUp: [0, -1, "up"], ArrowDown: [0, 1, "down"], ArrowLeft: [-1, 0, "left"], ArrowRight: [1, 0, "right"] };

  function say(text) { g.message = text; g.messageT = 180; }

  function floater(x, y, text, color) { g.floaters.push({ x, y, text, color, t: 0 }); }

  // ---------------------------------------------------------------- shopkeeper
  function tryMove(code) {
    const [dx, dy, dir] = ARROWS[code];
    g.facing = dir;
    const nx = g.px + dx, ny = g.py + dy;
    if (!playerWalkable(nx, ny)) return;
    g.fromX = g.px; g.fromY = g.py; g.px = nx; g.py = ny; g.pAnim = PLAYER_ANIM;
  }

  function neighbours(x, y) { return DIRS.map(([dx, dy]) => [x + dx, y + dy, tileAt(x + dx, y + dy)]); }

  function interact() {
    const near = neighbours(g.px, g.py);
    if (near.some(n => n[2] === "T")) return serve();
    const shelf = near.find(n => n[2] === "S");
    if (shelf) return restock(kindAt(SHELVES, shelf[0], shelf[1]));
    const crate = near.find(n => n[2] === "C");
    if (crate) return pickUp(kindAt(CRATES, crate[0], crate[1]));
    say("Nothing to use here. Stand next to a crate, shelf or the till.");
  }

  function serve() {
    const c = g.queue[0];
    if (!c) return say("Nobody is waiting at the till.");
    if (c.x !== QUEUE_SPOTS[0][0] || c.y !== QUEUE_SPOTS[0][1]) return say("The next customer is still walking up.");
    const price = PRICE[c.wants];
    g.score += price;
    g.served += 1;
    g.queue.shift();
    c.stage = "leaving"; c.mood = "happy"; c.patience = null;
    floater(TILL.x, TILL.y, "+$" + price, "#ffd84a");
    say("Sold " + LABEL[c.wants].toLowerCase() + " for $" + price + ".");
  }

  function restock(kind) {
    if (!g.carrying) return say("Your hands are empty: fetch " + LABEL[kind].toLowerCase() + " from the storeroom crates.");
    if (g.carrying !== kind) return say("This shelf is for " + LABEL[kind].toLowerCase() + ", you carry " + LABEL[g.carrying].toLowerCase() + ".");
    const room = SHELF_CAP - g.stock[kind];
    if (room <= 0) return say("The " + LABEL[kind].toLowerCase() + " shelf is already full.");
    const put = Math.min(room, g.carryCount);
    g.stock[kind] += put;
    g.carryCount -= put;
    if (g.carryCount === 0) g.carrying = null;
    g.restocks += 1;
    g.flash[kind] = 20;
    say("Stocked " + put + " " + LABEL[kind].toLowerCase() + ".");
  }

  function pickUp(kind) {
    if (g.carrying === kind && g.carryCount >= CARRY_CAP) return say("Your arms are full.");
    const swapped = g.carrying && g.carrying !== kind;
    const took = CARRY_CAP - (g.carrying === kind ? g.carryCount : 0);
    g.carrying = kind; g.carryCount = CARRY_CAP;
    say((swapped ? "Put the rest back and took " : "Took ") + took + " " + LABEL[kind].toLowerCase() + ".");
  }

  // ---------------------------------------------------------------- customers
  function spawnCustomer() {
    const wants = KINDS[Math.floor(Math.random() * KINDS.length)];
    const id = g.nextId++;
    g.customers.push({
      id, wants, x: DOOR[0], y: DOOR[1], fx: DOOR[0], fy: DOOR[1], mt: 0,
      stage: "to_shelf", timer: 0, patience: null, mood: "calm", look: id,
    });
  }

  function stepToward(c, tx, ty) {
    if (c.x === tx && c.y === ty) return true;
    const d = distField(tx, ty);
    const here = d[c.y * COLS + c.x];
    for (const [dx, dy] of DIRS) {
      const nx = c.x + dx, ny = c.y + dy;
      if (customerWalkable(nx, ny) && d[ny * COLS + nx] === here - 1) {
        c.fx = c.x; c.fy = c.y; c.x = nx; c.y = ny; c.mt = WALK_TICKS;
        return false;
      }
    }
    return false;
  }

  function makeUnhappy(c, why) {
    g.unhappy += 1;
    g.reputation = Math.max(0, g.reputation - 1);
    const qi = g.queue.indexOf(c);
    if (qi >= 0) g.queue.splice(qi, 1);
    c.stage = "leaving"; c.mood = "sad"; c.patience = null;
    floater(c.x, c.y, "-1 \u2665", "#ff5a5a");
    say(why);
    if (g.reputation <= 0) {
      g.over = true;
      g.reason = "reputation reached 0";
      say("Too many unhappy customers: the shop is closed.");
    }
  }

  function takeItem(c) {
    const s = g.stock[c.wants];
    if (s <= 0) return false;
    g.stock[c.wants] = s - 1;
    if (g.queue.length >= QUEUE_SPOTS.length) {
      g.stock[c.wants] += 1;   // puts it back and walks out
      makeUnhappy(c, "The queue was too long: a customer gave up.");
      return true;
    }
    g.queue.push(c);
    c.stage = "queue"; c.patience = QUEUE_PATIENCE; c.mood = "calm";
    return true;
  }

  function updateCustomer(c) {
    if (c.mt > 0) c.mt--;
    const moving = c.mt > 0;
    switch (c.stage) {
      case "to_shelf": {
        if (moving) break;
        const sp = SHELVES[c.wants].spot;
        if (stepToward(c, sp[0], sp[1])) { c.stage = "browsing"; c.timer = BROWSE_TICKS; }
        break;
      }
      case "browsing":
        if (--c.timer <= 0 && !takeItem(c)) { c.stage = "waiting"; c.timer = SHELF_PATIENCE; c.patience = SHELF_PATIENCE; c.mood = "worried"; }
        break;
      case "waiting":
        if (takeItem(c)) break;
        c.timer--; c.patience = c.timer;
        if (c.timer <= 0) makeUnhappy(c, "A customer found no " + LABEL[c.wants].toLowerCase() + " and left unhappy.");
        break;
      case "queue": {
        c.patience--;
        if (c.patience <= 0) { makeUnhappy(c, "A customer waited too long at the till and left."); break; }
        if (c.patience === 200) c.mood = "worried";
        if (moving) break;
        const spot = QUEUE_SPOTS[g.queue.indexOf(c)];
        stepToward(c, spot[0], spot[1]);
        break;
      }
      case "leaving":
        if (moving) break;
        if (stepToward(c, DOOR[0], DOOR[1])) c.stage = "gone";
        break;
    }
  }

  // ---------------------------------------------------------------- tick
  function tick() {
    g.tick++;
    for (const f of g.floaters) f.t++;
    g.floaters = g.floaters.filter(f => f.t < 50);
    if (g.messageT > 0) g.messageT--;
    for (const k of KINDS) if (g.flash[k] > 0) g.flash[k]--;
    if (g.pAnim > 0) g.pAnim--;
    if (g.over) { inputs.length = 0; return; }

    while (inputs.length) {
      const a = inputs.shift();
      if (a === "Space") interact(); else tryMove(a);
      if (g.over) return;
    }
    if (heldKey) {
      heldTicks++;
      if (heldTicks >= HOLD_DELAY && (heldTicks - HOLD_DELAY) % HOLD_REPEAT === 0) tryMove(heldKey);
    }

    if (--g.spawnTimer <= 0) {
      if (g.customers.length < MAX_CUSTOMERS) spawnCustomer();
      g.spawnTimer = SPAWN_MIN + Math.floor(Math.random() * SPAWN_SPREAD);
    }
    for (const c of g.customers.slice()) {
      updateCustomer(c);
      if (g.over) break;
    }
    g.customers = g.customers.filter(c => c.stage !== "gone");
  }

  // ---------------------------------------------------------------- input
  window.addEventListener("keydown", e => {
    if (ARROWS[e.code] || e.code === "Space") e.preventDefault();
    if (e.repeat || !g || g.over) return;
    advance();
    if (ARROWS[e.code]) { inputs.push(e.code); heldKey = e.code; heldTicks = 0; }
    else if (e.code === "Space") inputs.push("Space");
  });
  window.addEventListener("keyup", e => {
    advance();
    if (e.code === heldKey) { heldKey = null; heldTicks = 0; }
  });

  // ---------------------------------------------------------------- drawing
  const canvas = document.getElementById("game");
  const ctx = canvas.getContext("2d");

  function rr(x, y, w, h, r) {
    ctx.beginPath();
    ctx.moveTo(x + r, y); ctx.lineTo(x + w - r, y); ctx.quadraticCurveTo(x + w, y, x + w, y + r);
    ctx.lineTo(x + w, y + h - r); ctx.quadraticCurveTo(x + w, y + h, x + w - r, y + h);
    ctx.lineTo(x + r, y + h); ctx.quadraticCurveTo(x, y + h, x, y + h - r);
    ctx.lineTo(x, y + r); ctx.quadraticCurveTo(x, y, x + r, y); ctx.closePath();
  }
  function circle(x, y, r, fill) { ctx.beginPath(); ctx.arc(x, y, r, 0, Math.PI * 2); ctx.fillStyle = fill; ctx.fill(); }

  function drawItem(kind, cx, cy, s) {
    ctx.save();
    ctx.translate(cx, cy);
    ctx.scale(s / 10, s / 10);
    if (kind === "apples") {
      circle(0, 1, 4.6, "#d7263d");
      circle(-1.5, -0.3, 1.4, "rgba(255,255,255,0.45)");
      ctx.strokeStyle = "#5b3a1a"; ctx.lineWidth = 1; ctx.beginPath(); ctx.moveTo(0, -3); ctx.lineTo(0.6, -5.2); ctx.stroke();
      ctx.fillStyle = "#3aa845"; ctx.beginPath(); ctx.ellipse(2.2, -4.4, 1.9, 0.9, -0.5, 0, Math.PI * 2); ctx.fill();
    } else if (kind === "bread") {
      ctx.fillStyle = "#c98a3c"; ctx.beginPath(); ctx.ellipse(0, 0.5, 5.4, 3.6, 0, 0, Math.PI * 2); ctx.fill();
      ctx.fillStyle = "#e3ad62"; ctx.beginPath(); ctx.ellipse(-0.6, -0.2, 4.2, 2.4, 0, 0, Math.PI * 2); ctx.fill();
      ctx.strokeStyle = "#8a5520"; ctx.lineWidth = 0.8;
      for (const dx of [-2.4, 0, 2.4]) { ctx.beginPath(); ctx.moveTo(dx - 0.8, -1.4); ctx.lineTo(dx + 0.8, 1.2); ctx.stroke(); }
    } else {
      ctx.fillStyle = "#f4f7fb"; rr(-3, -2.5, 6, 8, 1.5); ctx.fill();
      ctx.fillStyle = "#f4f7fb"; ctx.fillRect(-1.7, -4.5, 3.4, 2.4);
      ctx.fillStyle = "#2f7de1"; ctx.fillRect(-1.9, -5.8, 3.8, 1.6);
      ctx.fillStyle = "#2f7de1"; ctx.fillRect(-3, 0.5, 6, 2.3);
      ctx.strokeStyle = "#9aa7b8"; ctx.lineWidth = 0.6; rr(-3, -2.5, 6, 8, 1.5); ctx.stroke();
    }
    ctx.restore();
  }

  function drawHeart(x, y, s, full) {
    ctx.save(); ctx.translate(x, y); ctx.scale(s / 10, s / 10);
    ctx.beginPath();
    ctx.moveTo(0, 3.5);
    ctx.bezierCurveTo(-6, -1, -4, -6.5, 0, -3);
    ctx.bezierCurveTo(4, -6.5, 6, -1, 0, 3.5);
    ctx.fillStyle = full ? "#ff4d6d" : "rgba(255,255,255,0.15)";
    ctx.fill();
    if (full) { ctx.fillStyle = "rgba(255,255,255,0.45)"; ctx.beginPath(); ctx.arc(-2.3, -2.6, 1, 0, Math.PI * 2); ctx.fill(); }
    ctx.restore();
  }

  function drawFloorAndWalls() {
    for (let y = 0; y < ROWS; y++) {
      for (let x = 0; x < COLS; x++) {
        const t = MAP[y][x], X = x * TILE, Y = TOP + y * TILE;
        if (t === "#" || t === "C") {
          ctx.fillStyle = "#74493a"; ctx.fillRect(X, Y, TILE, TILE);
          ctx.fillStyle = "#5a372a";   // mortar lines of a running bond
          for (let r = 0; r < 4; r++) {
            ctx.fillRect(X, Y + r * 10 + 9, TILE, 1);
            for (let bx = (r % 2) ? 10 : 0; bx < TILE; bx += 20) ctx.fillRect(X + bx, Y + r * 10, 1, 9);
          }
          continue;
        }
        const storeroom = x === 1;
        if (storeroom) ctx.fillStyle = ((x + y) % 2) ? "#c9c3b8" : "#bfb8ac";
        else ctx.fillStyle = ((x + y) % 2) ? "#f0dfbb" : "#e6d1a6";
        ctx.fillRect(X, Y, TILE, TILE);
        if (t === "D") {
          ctx.fillStyle = "#3d8b4f"; rr(X + 4, Y + 6, 32, 28, 4); ctx.fill();
          ctx.fillStyle = "#57b26b"; ctx.fillRect(X + 8, Y + 10, 24, 20);
          ctx.fillStyle = "#fff"; ctx.font = "bold 8px sans-serif"; ctx.textAlign = "center"; ctx.fillText("OPEN", X + 20, Y + 23);
        }
      }
    }
    // storeroom divider stripe and sign
    ctx.fillStyle = "rgba(60,60,60,0.25)"; ctx.fillRect(2 * TILE - 2, TOP + TILE, 3, 6 * TILE);
    ctx.fillStyle = "#f2c94c";
    for (let y = TOP + TILE; y < TOP + 7 * TILE; y += 12) ctx.fillRect(2 * TILE - 2, y, 3, 6);
    // top wall decoration: windows and sign
    ctx.fillStyle = "#9fd3f0";
    for (const wx of [3, 8]) { rr(wx * TILE + 4, TOP + 6, 72, 26, 3); ctx.fill(); }
    ctx.strokeStyle = "#f5efe0"; ctx.lineWidth = 2;
    for (const wx of [3, 8]) { rr(wx * TILE + 4, TOP + 6, 72, 26, 3); ctx.stroke(); ctx.beginPath(); ctx.moveTo(wx * TILE + 40, TOP + 6); ctx.lineTo(wx * TILE + 40, TOP + 32); ctx.stroke(); }
    ctx.fillStyle = "#2d6a4f"; rr(5 * TILE + 20, TOP + 8, 100, 22, 4); ctx.fill();
    ctx.fillStyle = "#ffe8a3"; ctx.font = "bold 12px sans-serif"; ctx.textAlign = "center";
    ctx.fillText("CORNER MARKET", 6 * TILE + 30, TOP + 23);
  }

  function drawCrates() {
    for (const k of KINDS) {
      const c = CRATES[k], X = c.x * TILE, Y = TOP + c.y * TILE;
      ctx.fillStyle = "#a8713f"; rr(X + 3, Y + 3, 34, 34, 3); ctx.fill();
      ctx.strokeStyle = "#6e4522"; ctx.lineWidth = 2; rr(X + 3, Y + 3, 34, 34, 3); ctx.stroke();
      ctx.beginPath(); ctx.moveTo(X + 5, Y + 5); ctx.lineTo(X + 35, Y + 35); ctx.moveTo(X + 35, Y + 5); ctx.lineTo(X + 5, Y + 35); ctx.stroke();
      ctx.fillStyle = "rgba(255,245,225,0.92)"; circle(X + 20, Y + 20, 11, "rgba(255,245,225,0.92)");
      drawItem(k, X + 20, Y + 20, 17);
    }
  }

  function drawShelves() {
    for (const k of KINDS) {
      const s = SHELVES[k], X = s.x * TILE, Y = TOP + s.y * TILE, n = g.stock[k];
      ctx.fillStyle = "rgba(0,0,0,0.18)"; rr(X + 3, Y + 6, 36, 34, 4); ctx.fill();
      ctx.fillStyle = n === 0 ? "#b55a4c" : "#8a5a3b"; rr(X + 1, Y + 2, 38, 36, 4); ctx.fill();
      ctx.fillStyle = "#f6ead2"; ctx.fillRect(X + 4, Y + 5, 32, 12); ctx.fillRect(X + 4, Y + 20, 32, 12);
      const slots = [[10, 11], [20, 11], [30, 11], [14, 26], [26, 26]];
      for (let i = 0; i < SHELF_CAP; i++) {
        const [sx, sy] = slots[i];
        if (i < n) drawItem(k, X + sx, Y + sy, 10);
        else { ctx.globalAlpha = 0.25; drawItem(k, X + sx, Y + sy, 10); ctx.globalAlpha = 1; }  // its good, even empty
      }
      if (g.flash[k] > 0) { ctx.strokeStyle = "rgba(255,240,120," + (g.flash[k] / 20) + ")"; ctx.lineWidth = 3; rr(X, Y + 1, 40, 38, 5); ctx.stroke(); }
      // price tag and count below the shelf
      ctx.fillStyle = n === 0 ? "#e63946" : "#264653"; rr(X + 4, Y + 33, 32, 12, 3); ctx.fill();
      ctx.fillStyle = "#fff"; ctx.font = "bold 9px sans-serif"; ctx.textAlign = "center";
      ctx.fillText(n === 0 ? "EMPTY" : n + "/" + SHELF_CAP + "  $" + PRICE[k], X + 20, Y + 42);
    }
  }

  function drawTill() {
    const X = TILL.x * TILE, Y = TOP + TILL.y * TILE;
    ctx.fillStyle = "rgba(0,0,0,0.18)"; rr(X + 2, Y + 6, 38, 34, 4); ctx.fill();
    ctx.fillStyle = "#3a5a78"; rr(X + 1, Y + 3, 38, 34, 4); ctx.fill();
    ctx.fillStyle = "#4f7aa0"; rr(X + 3, Y + 5, 34, 10, 3); ctx.fill();
    ctx.fillStyle = "#d9dde3"; rr(X + 9, Y + 15, 22, 16, 2); ctx.fill();
    ctx.fillStyle = "#1b4332"; ctx.fillRect(X + 12, Y + 17, 16, 6);
    ctx.fillStyle = "#7ef0a5"; ctx.font = "bold 6px monospace"; ctx.textAlign = "center"; ctx.fillText("$" + g.score, X + 20, Y + 22);
    ctx.fillStyle = "#8d99ae";
    for (let i = 0; i < 3; i++) ctx.fillRect(X + 12 + i * 6, Y + 25, 4, 3);
    ctx.fillStyle = "#fff"; ctx.font = "bold 8px sans-serif"; ctx.fillText("TILL", X + 20, Y + 13);
    // queue markers on the floor
    ctx.strokeStyle = "rgba(60,90,120,0.35)"; ctx.lineWidth = 2; ctx.setLineDash([4, 3]);
    for (const [qx, qy] of QUEUE_SPOTS) { rr(qx * TILE + 6, TOP + qy * TILE + 6, 28, 28, 6); ctx.stroke(); }
    ctx.setLineDash([]);
  }

  const SHIRTS = ["#e76f51", "#2a9d8f", "#8e6cc9", "#f4a261", "#3a86ff", "#ef476f", "#06a77d", "#ffb703"];
  const SKINS = ["#f1c7a5", "#d9a074", "#a8704a", "#7a4a2c", "#f6d3b8"];
  const HAIR = ["#2b2118", "#6b3e26", "#d4a24c", "#1d1d1d", "#9a9a9a"];

  function lerpPos(fx, fy, x, y, left, total) {
    const f = 1 - left / total;
    return [(fx + (x - fx) * f) * TILE + 20, TOP + (fy + (y - fy) * f) * TILE + 20];
  }

  function drawPerson(cx, cy, shirt, skin, hair, apron) {
    ctx.fillStyle = "rgba(0,0,0,0.2)"; ctx.beginPath(); ctx.ellipse(cx, cy + 14, 11, 4, 0, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = shirt; rr(cx - 10, cy - 3, 20, 17, 7); ctx.fill();
    if (apron) { ctx.fillStyle = apron; rr(cx - 6, cy, 12, 14, 3); ctx.fill(); }
    circle(cx, cy - 8, 8, skin);
    ctx.fillStyle = hair; ctx.beginPath(); ctx.arc(cx, cy - 10, 8, Math.PI, 0); ctx.fill();
    ctx.fillStyle = "#222"; ctx.fillRect(cx - 4, cy - 8, 2, 2); ctx.fillRect(cx + 2, cy - 8, 2, 2);
  }

  function drawCustomer(c, i) {
    let [cx, cy] = lerpPos(c.fx, c.fy, c.x, c.y, c.mt, WALK_TICKS);
    if (c.stage === "browsing" || c.stage === "waiting") cx += ((c.id % 3) - 1) * 7;
    cy += 2;
    const k = c.look;
    drawPerson(cx, cy, SHIRTS[k % SHIRTS.length], SKINS[(k * 7) % SKINS.length], HAIR[(k * 3) % HAIR.length], null);
    // mouth
    ctx.strokeStyle = "#5a2a1a"; ctx.lineWidth = 1.2; ctx.beginPath();
    if (c.mood === "happy") ctx.arc(cx, cy - 6, 3, 0.2, Math.PI - 0.2);
    else if (c.mood === "sad") ctx.arc(cx, cy - 2, 3, Math.PI + 0.3, -0.3);
    else { ctx.moveTo(cx - 2, cy - 4); ctx.lineTo(cx + 2, cy - 4); }
    ctx.stroke();
    if (c.stage === "leaving") {
      if (c.mood === "happy") { ctx.fillStyle = "#c8a165"; rr(cx + 6, cy + 2, 9, 10, 2); ctx.fill(); drawItem(c.wants, cx + 10, cy + 1, 7); }
      else { ctx.fillStyle = "#4a90e2"; ctx.font = "bold 11px sans-serif"; ctx.textAlign = "center"; ctx.fillText("\u2639", cx + 11, cy - 12); }
      return;
    }
    if (c.stage === "queue") {
      drawItem(c.wants, cx + 10, cy + 6, 9);
      const f = Math.max(0, c.patience) / QUEUE_PATIENCE;
      ctx.fillStyle = "rgba(0,0,0,0.55)"; ctx.fillRect(cx - 13, cy - 24, 26, 5);
      ctx.fillStyle = f > 0.5 ? "#52d273" : f > 0.25 ? "#f4c542" : "#ef4444";
      ctx.fillRect(cx - 12, cy - 23, Math.round(24 * f), 3);
      return;
    }
    // thought bubble with the wanted item
    const bx = cx + 10, by = cy - 24;
    ctx.fillStyle = c.stage === "waiting" ? "#ffe1e1" : "#ffffff";
    circle(cx + 4, cy - 15, 2, ctx.fillStyle);
    ctx.beginPath(); ctx.arc(bx, by, 9, 0, Math.PI * 2); ctx.fill();
    ctx.strokeStyle = c.stage === "waiting" ? "#e63946" : "#8895a7"; ctx.lineWidth = 1.2; ctx.stroke();
    drawItem(c.wants, bx, by, 11);
    if (c.stage === "waiting") {
      ctx.fillStyle = "#e63946"; ctx.font = "bold 12px sans-serif"; ctx.textAlign = "center"; ctx.fillText("!", bx + 11, by - 2);
      const f = Math.max(0, c.timer) / SHELF_PATIENCE;
      ctx.fillStyle = "rgba(0,0,0,0.55)"; ctx.fillRect(cx - 13, cy + 17, 26, 4);
      ctx.fillStyle = "#ef4444"; ctx.fillRect(cx - 12, cy + 18, Math.round(24 * f), 2);
    }
  }

  function drawPlayer() {
    const [cx, cy] = lerpPos(g.fromX, g.fromY, g.px, g.py, g.pAnim, PLAYER_ANIM);
    const bob = g.pAnim > 0 ? -2 : 0;
    drawPerson(cx, cy + bob, "#f1faee", "#f1c7a5", "#3b2a20", "#2d9d5b");
    // cap
    ctx.fillStyle = "#2d9d5b"; ctx.beginPath(); ctx.arc(cx, cy + bob - 11, 8, Math.PI, 0); ctx.fill();
    ctx.fillRect(cx - 2, cy + bob - 13, 12, 3);
    ctx.fillStyle = "#5a2a1a"; ctx.fillRect(cx - 2, cy + bob - 4, 4, 1.5);
    if (g.carrying) {
      ctx.fillStyle = "#b7834c"; rr(cx - 11, cy + bob - 34, 22, 14, 3); ctx.fill();
      ctx.strokeStyle = "#6e4522"; ctx.lineWidth = 1; rr(cx - 11, cy + bob - 34, 22, 14, 3); ctx.stroke();
      drawItem(g.carrying, cx - 4, cy + bob - 27, 10);
      ctx.fillStyle = "#fff"; ctx.font = "bold 9px sans-serif"; ctx.textAlign = "center"; ctx.fillText("" + g.carryCount, cx + 6, cy + bob - 23);
    }
    // a soft ring showing the shopkeeper's tile
    ctx.strokeStyle = "rgba(45,157,91,0.55)"; ctx.lineWidth = 2;
    ctx.beginPath(); ctx.ellipse(cx, cy + 16, 14, 5, 0, 0, Math.PI * 2); ctx.stroke();
  }

  function drawHUD() {
    const grd = ctx.createLinearGradient(0, 0, 0, TOP);
    grd.addColorStop(0, "#1f4e3d"); grd.addColorStop(1, "#163a2d");
    ctx.fillStyle = grd; ctx.fillRect(0, 0, W, TOP);
    ctx.fillStyle = "#0f2a20"; ctx.fillRect(0, TOP - 2, W, 2);
    // money
    circle(20, 20, 11, "#f2c94c"); circle(20, 20, 8, "#e0a928");
    ctx.fillStyle = "#fff6cf"; ctx.font = "bold 12px sans-serif"; ctx.textAlign = "center"; ctx.fillText("$", 20, 24);
    ctx.fillStyle = "#ffe08a"; ctx.font = "bold 22px sans-serif"; ctx.textAlign = "left"; ctx.fillText("$" + g.score, 36, 28);
    // served / queue
    ctx.fillStyle = "#d8f3dc"; ctx.font = "bold 11px sans-serif";
    ctx.fillText("Served " + g.served, 108, 17);
    ctx.fillText("Queue " + g.queue.length, 108, 32);
    // reputation
    ctx.fillStyle = "#b7e4c7"; ctx.font = "9px sans-serif"; ctx.fillText("REPUTATION", 186, 13);
    for (let i = 0; i < REP_MAX; i++) drawHeart(193 + i * 17, 27, 15, i < g.reputation);
    // carrying
    ctx.fillStyle = "#b7e4c7"; ctx.font = "9px sans-serif"; ctx.fillText("CARRYING", 288, 13);
    ctx.fillStyle = "rgba(0,0,0,0.25)"; rr(286, 17, 64, 19, 4); ctx.fill();
    if (g.carrying) {
      for (let i = 0; i < g.carryCount; i++) drawItem(g.carrying, 296 + i * 14, 27, 12);
    } else { ctx.fillStyle = "#7fa99a"; ctx.font = "10px sans-serif"; ctx.fillText("nothing", 297, 30); }
    // stock summary
    ctx.fillStyle = "#b7e4c7"; ctx.font = "9px sans-serif"; ctx.fillText("SHELVES", 364, 13);
    ctx.fillStyle = "#ffe08a"; ctx.font = "bold 9px sans-serif"; ctx.fillText("RESTOCKED " + g.restocks, 408, 13);
    KINDS.forEach((k, i) => {
      const x = 368 + i * 37;
      drawItem(k, x, 27, 12);
      ctx.fillStyle = g.stock[k] === 0 ? "#ff6b6b" : "#ffffff"; ctx.font = "bold 12px sans-serif"; ctx.textAlign = "left";
      ctx.fillText("" + g.stock[k], x + 8, 32);
    });
    ctx.textAlign = "left";
  }

  function drawMessageBar() {
    const Y = TOP + 7 * TILE;
    ctx.fillStyle = "rgba(20,12,8,0.55)"; ctx.fillRect(0, Y + 6, W, 28);
    ctx.font = "12px sans-serif"; ctx.textAlign = "center";
    if (g.messageT > 0) { ctx.fillStyle = "#fff3c4"; ctx.fillText(g.message, W / 2, Y + 24); }
    else { ctx.fillStyle = "#d9c7b0"; ctx.fillText("Arrows: walk   Space: take stock / fill shelf / serve at till", W / 2, Y + 24); }
  }

  function drawFloaters() {
    ctx.textAlign = "center"; ctx.font = "bold 14px sans-serif";
    for (const f of g.floaters) {
      const a = 1 - f.t / 50;
      ctx.globalAlpha = Math.max(0, a);
      ctx.fillStyle = "#000"; ctx.fillText(f.text, f.x * TILE + 21, TOP + f.y * TILE + 5 - f.t * 0.5);
      ctx.fillStyle = f.color; ctx.fillText(f.text, f.x * TILE + 20, TOP + f.y * TILE + 4 - f.t * 0.5);
    }
    ctx.globalAlpha = 1;
  }

  function drawGameOver() {
    ctx.fillStyle = "rgba(15,10,8,0.72)"; ctx.fillRect(0, 0, W, H);
    ctx.fillStyle = "#f7ede2"; rr(110, 105, 260, 150, 12); ctx.fill();
    ctx.fillStyle = "#9d0208"; ctx.font = "bold 26px sans-serif"; ctx.textAlign = "center";
    ctx.fillText("SHOP CLOSED", W / 2, 145);
    ctx.fillStyle = "#3d2b1f"; ctx.font = "13px sans-serif";
    ctx.fillText("Too many unhappy customers.", W / 2, 170);
    ctx.font = "bold 16px sans-serif";
    ctx.fillText("Earned $" + g.score + "  \u00b7  Served " + g.served, W / 2, 200);
    ctx.font = "11px sans-serif"; ctx.fillStyle = "#6c584c";
    ctx.fillText("Keep shelves stocked and the queue moving.", W / 2, 228);
  }

  function draw() {
    drawFloorAndWalls();
    drawCrates();
    drawTill();
    drawShelves();
    const order = g.customers.slice().sort((a, b) => (a.y - b.y) || (a.id - b.id));
    order.forEach(drawCustomer);
    drawPlayer();
    drawFloaters();
    drawHUD();
    drawMessageBar();
    if (g.over) drawGameOver();
  }

  // ---------------------------------------------------------------- loop
  // Game time is the number of whole ticks since the shop opened, read from performance.now(). It is
  // brought up to date on every animation frame and also on every key event, so an input always lands
  // on the tick its moment in time calls for, whatever the phase of the animation frames.
  let base = null, ticksDone = 0;
  // The sandbox runs much of a step's game time unseen and sets window.__gameworld.rendering to false
  // meanwhile: skip the drawing then (never the logic). A plain browser has no __gameworld: always draw.
  function rendering() {
    const gw = window.__gameworld;
    return !(gw && gw.rendering === false);
  }
  function advance() {
    const now = performance.now();
    if (base === null) base = now;
    let due = Math.floor((now - base) / TICK_MS + 1e-6);
    if (due - ticksDone > 120) { base += (due - ticksDone - 120) * TICK_MS; due = ticksDone + 120; }  // a hidden tab
    while (ticksDone < due) { tick(); ticksDone++; }
  }
  function frame() {
    advance();
    if (rendering()) draw();
    requestAnimationFrame(frame);
  }

  // ---------------------------------------------------------------- API
  function customerView(c) {
    return { id: c.id, x: c.x, y: c.y, wants: c.wants, stage: c.stage, patience: c.patience };
  }

  window.gameAPI = {
    getState() {
      return {
        status: g.over ? "terminal" : "playing",
        actionable: !g.over,
        terminal: { is_terminal: g.over, outcome: g.over ? "lose" : null, reason: g.reason },
        score: g.score,
        customers_served: g.served,
        restocks: g.restocks,
        unhappy: g.unhappy,
        reputation: g.reputation,
        carrying: g.carrying || "none",
        carry_count: g.carryCount,
        stock: { apples: g.stock.apples, bread: g.stock.bread, milk: g.stock.milk },
        crates: Object.fromEntries(KINDS.map(k => [k, [CRATES[k].x, CRATES[k].y]])),
        shelves: Object.fromEntries(KINDS.map(k => [k, [SHELVES[k].x, SHELVES[k].y]])),
        player_x: g.px,
        player_y: g.py,
        queue_length: g.queue.length,
        customers: g.customers.map(customerView),
        message: g.messageT > 0 ? g.message : "",
        tick: g.tick,
      };
    },
    // draw at once: the frame read right after a reset shows the new shop, not "SHOP CLOSED"
    reset(options) { newGame(); heldKey = null; heldTicks = 0; base = performance.now(); ticksDone = 0; draw(); },
  };

  newGame();
  draw();
  requestAnimationFrame(frame);
})();
