// Sky Raider: a vertical shooter (Restless Wing Syndrome-style). Waves of raiders fly in, hold formation
// and drift from side to side while they fire down at you; shoot them all to clear the wave.
// Logic runs in fixed ticks of 1000/60 ms counted from the clock time at which the attempt started:
// every animation frame, every input event and every getState() first runs the ticks that are due by
// performance.now(). Speeds are multiples of 1/4 px per tick, so positions stay exact. Chance comes only
// from Math.random, in a fixed order (each wave's drift phase, direction and speed, which enemy carries the
// power-up, enemy fire timers).
(() => {
  "use strict";
  const W = 480, H = 360, HUD_H = 30;
  const TICKS_PER_MS = 0.06;
  const P_SPEED = 3;                        // px per tick while an arrow is held
  const P_MIN_X = 16, P_MAX_X = W - 16, P_MIN_Y = 220, P_MAX_Y = H - 18;
  const HIT_W = 6, HIT_H = 7;               // half-size of the ship's hitbox (the core of the sprite)
  const SHOT_V = 12, SHOT_COOLDOWN = 6;   // Space held: a volley every 6 ticks
  const E_BULLET_V = 2.5;
  const LIVES = 3, INVULN = 90;
  const WAVE_PAUSE = 30;
  const SCOUT = { w: 26, h: 20, hp: 1, points: 10 };
  const BRUISER = { w: 40, h: 28, hp: 4, points: 40 };
  const WAVE_BONUS = 100;
  // Waves: [kind, home x, home y] rows, the formation's drift speed and fire intervals (ticks).
  const WAVES = [
    { drift: 0.5, fire: [90, 170], ships: [["s", 90, 70], ["s", 150, 70], ["s", 210, 70], ["s", 270, 70], ["s", 330, 70],
                                           ["s", 390, 70]] },
    { drift: 0.75, fire: [80, 150], ships: [["s", 130, 60], ["s", 240, 60], ["s", 350, 60],
                                            ["s", 185, 105], ["s", 295, 105], ["s", 240, 150]] },
    { drift: 0.75, fire: [70, 140], ships: [["b", 240, 75], ["s", 130, 70], ["s", 350, 70], ["s", 180, 125], ["s", 300, 125]] },
    { drift: 1, fire: [80, 150], ships: [["s", 110, 60], ["s", 180, 60], ["s", 250, 60], ["s", 320, 60],
                                         ["s", 145, 110], ["s", 215, 110], ["s", 285, 110], ["s", 355, 110]] },
    { drift: 1, fire: [60, 120], ships: [["b", 160, 70], ["b", 320, 70], ["s", 110, 125], ["s", 200, 125],
                                         ["s", 280, 125], ["s", 370, 125]] },
  ];
  const DRIFT_MAX = 70;

  const canvas = document.getElementById("game");
  const ctx = canvas.getContext("2d");
  const held = { ArrowLeft: false, ArrowRight: false, ArrowUp: false, ArrowDown: false };
  let firePressed = false, fireHeld = false;
  let S = null;
  let startMs = 0, ticksDone = 0;

  function rint(lo, hi) { return lo + Math.floor(Math.random() * (hi - lo + 1)); }
  function waveDef(n) { return WAVES[(n - 1) % WAVES.length]; }

  function startWave(n) {
    const def = waveDef(n), loop = Math.floor((n - 1) / WAVES.length);
    // the seed sets where the formation starts its drift (fx, in quarter px), which way it drifts first and how
    // fast (a quarter px a tick either side of the wave's speed, never under half a px)
    const phase = rint(-240, 240) / 4, way = Math.random() < 0.5 ? -1 : 1;
    const speed = Math.max(0.5, def.drift + 0.25 * loop + 0.25 * rint(-1, 1));
    S.wave = n; S.fx = phase; S.fvx = way * speed; S.pause = 0;
    const fire = [Math.max(60, def.fire[0] - 20 * loop), Math.max(100, def.fire[1] - 30 * loop)];
    S.fireRange = fire;
    S.enemies = [];
    const carrier = rint(0, def.ships.length - 1);       // this one drops a power-up
    def.ships.forEach(([kind, hx, hy], i) => {
      const k = kind === "b" ? BRUISER : SCOUT;
      S.enemies.push({ kind, hx, hy, x: hx, y: -30 - (i % 3) * 24, hp: k.hp, w: k.w, h: k.h,
                       cool: rint(fire[0], fire[1]) + 40, carrier: i === carrier, flash: 0 });
    });
  }

  function newGame() {
    startMs = performance.now(); ticksDone = 0;
    for (const k in held) held[k] = false;
    firePressed = false; fireHeld = false;
    S = { status: "playing", reason: null, ticks: 0, score: 0, kills: 0, wave: 1, wavesCleared: 0,
          lives: LIVES, hits: 0, weapon: 1, invuln: 0, px: 240, py: 318, shotCool: 0,
          shots: [], bullets: [], powerups: [], enemies: [], parts: [], fx: 0, fvx: 0.5, pause: 0,
          fireRange: [150, 260], banner: 60, bannerText: "WAVE 1", streak: 0 };
    startWave(1);
  }

  function boom(x, y, n, colour) {            // particles on a fixed pattern (no chance involved)
    for (let i = 0; i < n; i++) {
      const dx = [-2, -1, 0, 1, 2, 1.5, -1.5, 0.5][i % 8], dy = [-1, -2, -2.5, -2, -1, 1, 1, 1.5][i % 8];
      S.parts.push({ x, y, vx: dx * (1 + (i >> 3)), vy: dy * (1 + (i >> 3)), life: 22, c: colour });
    }
  }

  function fire() {
    const x = S.px, y = S.py - 14;
    if (S.weapon === 1) S.shots.push({ x, y, vx: 0 });
    else if (S.weapon === 2) { S.shots.push({ x: x - 6, y, vx: 0 }); S.shots.push({ x: x + 6, y, vx: 0 }); }
    else { S.shots.push({ x, y, vx: 0 }); S.shots.push({ x: x - 4, y, vx: -1.5 }); S.shots.push({ x: x + 4, y, vx: 1.5 }); }
    S.shotCool = SHOT_COOLDOWN;
  }

  function hitPlayer() {
    S.lives--; S.hits++; S.streak = 0;
    S.invuln = INVULN; S.bullets = [];
    boom(S.px, S.py, 12, "#7fe7ff");
    if (S.lives <= 0) { S.status = "terminal"; S.reason = "the ship was shot down"; }
  }

  function tick() {
    S.ticks++;
    if (S.banner > 0) S.banner--;
    for (let i = S.parts.length - 1; i >= 0; i--) {
      const p = S.parts[i];
      p.x += p.vx; p.y += p.vy; if (--p.life <= 0) S.parts.splice(i, 1);
    }
    if (S.status !== "playing") return;
    // the ship
    const mx = (held.ArrowRight ? 1 : 0) - (held.ArrowLeft ? 1 : 0);
    const my = (held.ArrowDown ? 1 : 0) - (held.ArrowUp ? 1 : 0);
    S.px = Math.max(P_MIN_X, Math.min(P_MAX_X, S.px + P_SPEED * mx));
    S.py = Math.max(P_MIN_Y, Math.min(P_MAX_Y, S.py + P_SPEED * my));
    if (S.shotCool > 0) S.shotCool--;
    if ((firePressed || fireHeld) && S.shotCool === 0) fire();
    firePressed = false;
    if (S.invuln > 0) S.invuln--;
    // formation drift
    S.fx += S.fvx;
    if (S.fx > DRIFT_MAX || S.fx < -DRIFT_MAX) { S.fvx = -S.fvx; S.fx += 2 * S.fvx; }
    for (const e of S.enemies) {
      e.x = e.hx + S.fx;
      if (e.y < e.hy) e.y = Math.min(e.hy, e.y + 4);
      if (e.flash > 0) e.flash--;
      if (--e.cool <= 0 && e.y >= e.hy) {
        e.cool = rint(S.fireRange[0], S.fireRange[1]);
        const by = e.y + e.h / 2;
        if (e.kind === "b") for (const vx of [-0.75, 0, 0.75]) S.bullets.push({ x: e.x, y: by, vx, vy: E_BULLET_V });
        else S.bullets.push({ x: e.x, y: by, vx: 0, vy: E_BULLET_V });
      }
    }
    // player shots
    for (let i = S.shots.length - 1; i >= 0; i--) {
      const s = S.shots[i];
      s.x += s.vx; s.y -= SHOT_V;
      let gone = s.y < HUD_H - 10 || s.x < -10 || s.x > W + 10;
      for (const e of S.enemies) {
        if (gone || e.hp <= 0) continue;
        if (Math.abs(s.x - e.x) <= e.w / 2 + 2 && Math.abs(s.y - e.y) <= e.h / 2 + 4) {
          gone = true; e.hp--; e.flash = 6;
          if (e.hp <= 0) {
            const k = e.kind === "b" ? BRUISER : SCOUT;
            S.score += k.points; S.kills++; S.streak++;
            boom(e.x, e.y, e.kind === "b" ? 16 : 10, e.kind === "b" ? "#ffb347" : "#ff6b8b");
            if (e.carrier) S.powerups.push({ x: e.x, y: e.y });
          }
        }
      }
      if (gone) S.shots.splice(i, 1);
    }
    S.enemies = S.enemies.filter((e) => e.hp > 0);
    // enemy bullets
    for (let i = S.bullets.length - 1; i >= 0; i--) {
      const b = S.bullets[i];
      b.x += b.vx; b.y += b.vy;
      if (b.y > H + 8 || b.x < -8 || b.x > W + 8) { S.bullets.splice(i, 1); continue; }
      if (S.invuln === 0 && Math.abs(b.x - S.px) <= HIT_W + 3 && Math.abs(b.y - S.py) <= HIT_H + 3) {
        S.bullets.splice(i, 1);
        hitPlayer();                      // clears the bullets on screen
        if (S.status !== "playing") return;
        break;
      }
    }
    // power-ups
    for (let i = S.powerups.length - 1; i >= 0; i--) {
      const p = S.powerups[i];
      p.y += 3;
      if (Math.abs(p.x - S.px) <= 16 && Math.abs(p.y - S.py) <= 16) {
        S.powerups.splice(i, 1);
        if (S.weapon < 3) S.weapon++;
        S.banner = 40; S.bannerText = "POWER UP!";
        boom(S.px, S.py - 10, 8, "#9dff8a");
      } else if (p.y > H + 10) S.powerups.splice(i, 1);
    }
    // wave cleared
    if (S.enemies.length === 0) {
      if (S.pause === 0) {
        S.pause = WAVE_PAUSE; S.wavesCleared++; S.score += WAVE_BONUS;
        S.banner = WAVE_PAUSE; S.bannerText = "WAVE " + S.wave + " CLEAR +" + WAVE_BONUS;
      } else if (--S.pause === 0) {
        startWave(S.wave + 1);
        S.banner = 50; S.bannerText = "WAVE " + S.wave;
      }
    }
  }

  // ---------------------------------------------------------------- input
  window.addEventListener("keydown", (e) => {
    catchUp();
    if (e.code in held || e.code === "Space" || e.code === "Enter") e.preventDefault();
    if (e.code === "Enter" && S.status === "terminal") { newGame(); draw(); return; }
    if (S.status !== "playing") return;
    if (e.code in held) held[e.code] = true;
    if (e.code === "Space") { if (!e.repeat) firePressed = true; fireHeld = true; }
  });
  window.addEventListener("keyup", (e) => {
    catchUp();
    if (e.code in held) held[e.code] = false;
    if (e.code === "Space") fireHeld = false;
  });

  // ---------------------------------------------------------------- drawing
  function drawBackground() {
    const g = ctx.createLinearGradient(0, 0, 0, H);
    g.addColorStop(0, "#060a24");
    g.addColorStop(0.6, "#0e1a44");
    g.addColorStop(1, "#1b2b5e");
    ctx.fillStyle = g;
    ctx.fillRect(0, 0, W, H);
    // nebula
    const n = ctx.createRadialGradient(120, 200, 10, 120, 200, 180);
    n.addColorStop(0, "rgba(120,60,180,0.22)");
    n.addColorStop(1, "rgba(120,60,180,0)");
    ctx.fillStyle = n; ctx.fillRect(0, 0, W, H);
    const n2 = ctx.createRadialGradient(390, 90, 10, 390, 90, 150);
    n2.addColorStop(0, "rgba(40,140,200,0.18)");
    n2.addColorStop(1, "rgba(40,140,200,0)");
    ctx.fillStyle = n2; ctx.fillRect(0, 0, W, H);
    // scrolling stars in two layers
    for (let layer = 1; layer <= 2; layer++) {
      ctx.fillStyle = layer === 1 ? "rgba(255,255,255,0.45)" : "rgba(200,230,255,0.85)";
      for (let i = 0; i < 36; i++) {
        const x = (i * 113 + layer * 57) % W;
        const y = ((i * 71 + layer * 31) + S.ticks * layer * 0.6) % H;
        ctx.fillRect(x, y, layer, layer + (layer === 2 ? 1 : 0));
      }
    }
  }

  function drawPlayer() {
    if (S.invuln > 0 && Math.floor(S.invuln / 5) % 2) return;
    const x = S.px, y = S.py;
    // engine flame
    const f = 6 + (S.ticks % 6);
    ctx.fillStyle = "#ffb347";
    ctx.beginPath(); ctx.moveTo(x - 5, y + 10); ctx.lineTo(x, y + 10 + f); ctx.lineTo(x + 5, y + 10); ctx.fill();
    ctx.fillStyle = "#fff3b0";
    ctx.beginPath(); ctx.moveTo(x - 2, y + 10); ctx.lineTo(x, y + 8 + f / 2); ctx.lineTo(x + 2, y + 10); ctx.fill();
    // wings
    ctx.fillStyle = "#2f7fd8";
    ctx.beginPath(); ctx.moveTo(x, y - 4); ctx.lineTo(x + 18, y + 8); ctx.lineTo(x + 16, y + 12); ctx.lineTo(x, y + 8);
    ctx.lineTo(x - 16, y + 12); ctx.lineTo(x - 18, y + 8); ctx.closePath(); ctx.fill();
    // body
    const b = ctx.createLinearGradient(x - 7, 0, x + 7, 0);
    b.addColorStop(0, "#9fe8ff"); b.addColorStop(0.5, "#e9fbff"); b.addColorStop(1, "#5bb8e8");
    ctx.fillStyle = b;
    ctx.beginPath(); ctx.moveTo(x, y - 16); ctx.lineTo(x + 7, y + 4); ctx.lineTo(x + 5, y + 11); ctx.lineTo(x - 5, y + 11);
    ctx.lineTo(x - 7, y + 4); ctx.closePath(); ctx.fill();
    ctx.fillStyle = "#1b3a7a";
    ctx.beginPath(); ctx.ellipse(x, y - 3, 3, 6, 0, 0, Math.PI * 2); ctx.fill();
    if (S.weapon >= 2) {
      ctx.fillStyle = "#9dff8a";
      ctx.fillRect(x - 15, y + 4, 3, 6); ctx.fillRect(x + 12, y + 4, 3, 6);
    }
  }

  function drawEnemy(e) {
    const x = e.x, y = e.y, white = e.flash > 0;
    if (e.kind === "b") {
      ctx.fillStyle = white ? "#ffffff" : "#c45a1a";
      ctx.beginPath(); ctx.moveTo(x - 20, y - 8); ctx.lineTo(x + 20, y - 8); ctx.lineTo(x + 14, y + 10);
      ctx.lineTo(x - 14, y + 10); ctx.closePath(); ctx.fill();
      ctx.fillStyle = white ? "#ffffff" : "#ff9a3c";
      ctx.fillRect(x - 10, y - 14, 20, 22);
      ctx.fillStyle = "#3a1606";
      ctx.fillRect(x - 4, y + 8, 8, 6);
      ctx.fillStyle = "#ffe066";
      ctx.beginPath(); ctx.arc(x, y - 3, 5, 0, Math.PI * 2); ctx.fill();
      // hit points
      for (let i = 0; i < e.hp; i++) { ctx.fillStyle = "#9dff8a"; ctx.fillRect(x - 14 + i * 8, y - 22, 6, 3); }
    } else {
      const flap = Math.floor((S.ticks + e.hx) / 8) % 2;
      ctx.fillStyle = white ? "#ffffff" : (e.carrier ? "#b06bff" : "#e0365f");
      ctx.beginPath(); ctx.moveTo(x - 13, y - 6 + flap * 3); ctx.lineTo(x - 4, y); ctx.lineTo(x - 11, y + 8); ctx.closePath(); ctx.fill();
      ctx.beginPath(); ctx.moveTo(x + 13, y - 6 + flap * 3); ctx.lineTo(x + 4, y); ctx.lineTo(x + 11, y + 8); ctx.closePath(); ctx.fill();
      ctx.fillStyle = white ? "#ffffff" : (e.carrier ? "#d9b3ff" : "#ff7a95");
      ctx.beginPath(); ctx.ellipse(x, y, 7, 10, 0, 0, Math.PI * 2); ctx.fill();
      ctx.fillStyle = "#2a0a18";
      ctx.fillRect(x - 4, y + 1, 3, 3); ctx.fillRect(x + 1, y + 1, 3, 3);
    }
  }

  function drawHud() {
    ctx.fillStyle = "rgba(5,8,28,0.8)";
    ctx.fillRect(0, 0, W, HUD_H);
    ctx.fillStyle = "#3b5bb5";
    ctx.fillRect(0, HUD_H - 2, W, 2);
    ctx.font = "bold 15px monospace";
    ctx.textBaseline = "middle";
    ctx.textAlign = "left";
    ctx.fillStyle = "#ffffff";
    ctx.fillText("SCORE " + S.score, 10, 15);
    ctx.textAlign = "center";
    ctx.fillStyle = "#ffe08a";
    ctx.fillText("WAVE " + S.wave, 215, 15);
    ctx.fillStyle = "#9dff8a";
    ctx.fillText("GUN " + "\u25b2".repeat(S.weapon), 315, 15);
    ctx.textAlign = "right";
    ctx.fillStyle = "#ff7a95";
    ctx.fillText("\u2665".repeat(Math.max(0, S.lives)) + "\u2661".repeat(Math.max(0, LIVES - S.lives)), W - 10, 15);
    if (S.banner > 0 && S.status === "playing") {
      ctx.textAlign = "center";
      ctx.font = "bold 22px monospace";
      ctx.fillStyle = "rgba(255,230,140," + Math.min(1, S.banner / 15) + ")";
      ctx.fillText(S.bannerText, W / 2, 190);
    }
    if (S.status === "playing" && S.ticks < 120 && S.wave === 1) {
      ctx.textAlign = "center";
      ctx.font = "bold 12px monospace";
      ctx.fillStyle = "rgba(255,255,255,0.8)";
      ctx.fillText("ARROWS move   SPACE fire", W / 2, 214);
    }
  }

  function drawLose() {
    ctx.fillStyle = "rgba(10,0,20,0.6)";
    ctx.fillRect(0, 0, W, H);
    ctx.fillStyle = "rgba(20,10,40,0.9)";
    ctx.fillRect(90, 120, W - 180, 104);
    ctx.strokeStyle = "#ff6b8b"; ctx.lineWidth = 2;
    ctx.strokeRect(90, 120, W - 180, 104);
    ctx.textAlign = "center"; ctx.textBaseline = "middle";
    ctx.fillStyle = "#ff8fa3";
    ctx.font = "bold 28px monospace";
    ctx.fillText("SHOT DOWN", W / 2, 150);
    ctx.fillStyle = "#ffffff";
    ctx.font = "bold 14px monospace";
    ctx.fillText("Score " + S.score + "   Wave " + S.wave + "   Kills " + S.kills, W / 2, 180);
    ctx.font = "12px monospace";
    ctx.fillStyle = "rgba(255,255,255,0.75)";
    ctx.fillText("press Enter to fly again", W / 2, 204);
  }

  function draw() {
    drawBackground();
    for (const p of S.powerups) {
      ctx.fillStyle = "#2e7d32";
      ctx.beginPath(); ctx.arc(p.x, p.y, 9, 0, Math.PI * 2); ctx.fill();
      ctx.strokeStyle = "#9dff8a"; ctx.lineWidth = 2; ctx.stroke();
      ctx.fillStyle = "#ffffff"; ctx.font = "bold 11px sans-serif"; ctx.textAlign = "center"; ctx.textBaseline = "middle";
      ctx.fillText("P", p.x, p.y + 1);
    }
    for (const e of S.enemies) drawEnemy(e);
    ctx.fillStyle = "#fff59d";
    for (const s of S.shots) { ctx.fillRect(s.x - 1.5, s.y - 6, 3, 10); }
    for (const b of S.bullets) {
      ctx.fillStyle = "#ff4f6d";
      ctx.beginPath(); ctx.arc(b.x, b.y, 4, 0, Math.PI * 2); ctx.fill();
      ctx.fillStyle = "#ffd0d8";
      ctx.beginPath(); ctx.arc(b.x, b.y, 1.8, 0, Math.PI * 2); ctx.fill();
    }
    if (S.status === "playing") drawPlayer();
    for (const p of S.parts) {
      ctx.globalAlpha = Math.min(1, p.life / 12);
      ctx.fillStyle = p.c;
      ctx.fillRect(p.x - 2, p.y - 2, 4, 4);
    }
    ctx.globalAlpha = 1;
    drawHud();
    if (S.status === "terminal") drawLose();
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

  const r = Math.round;
  window.gameAPI = {
    getState() {
      if (catchUp() && rendering()) draw();
      const term = S.status === "terminal";
      return {
        status: S.status,
        actionable: S.status === "playing",
        terminal: { is_terminal: term, outcome: term ? "lose" : null, reason: term ? S.reason : null },
        score: S.score,
        kills: S.kills,
        kill_streak: S.streak,
        wave: S.wave,
        waves_cleared: S.wavesCleared,
        lives: S.lives,
        hits_taken: S.hits,
        weapon: S.weapon,
        player_x: r(S.px),
        player_y: r(S.py),
        invulnerable: S.invuln > 0,
        formation_vx: S.fvx * 60,
        formation_dx: S.fx,
        enemies: S.enemies.map((e) => [r(e.x), r(e.y), e.hp, e.w]),
        enemy_bullets: S.bullets.map((b) => [r(b.x), r(b.y), r(b.vx * 60)]),
        powerups: S.powerups.map((p) => [r(p.x), r(p.y)]),
        shots: S.shots.map((s) => [r(s.x), r(s.y), r(s.vx * 60)]),
      };
    },
    reset() {
      newGame();
      draw();   // the frame read right after a reset shows the new attempt
    },
  };

  newGame();
  draw();
  requestAnimationFrame(frame);
})();
