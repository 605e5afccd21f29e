// Crate Push levels: a walled room drawn from Math.random, crates pulled backwards off their spots (so every
// level can be solved), then checked by a breadth-first search whose shortest solution (in worker steps) must
// fall inside the level's bounds. Pure logic, no drawing: game.js (and a test harness) use it.
(function (root) {
  "use strict";

  // Interior size, crates, inner wall blocks, the bounds of the shortest solution (worker steps).
  var SPECS = [
    { w: 5, h: 4, crates: 1, walls: 1, min: 12, max: 15 },
    { w: 6, h: 5, crates: 2, walls: 2, min: 14, max: 18 },
    { w: 6, h: 5, crates: 2, walls: 3, min: 18, max: 23 },
    { w: 7, h: 5, crates: 3, walls: 3, min: 22, max: 28 },
    { w: 7, h: 6, crates: 3, walls: 4, min: 26, max: 34 }
  ];
  var DX = [0, 0, -1, 1], DY = [-1, 1, 0, 0];   // up, down, left, right

  function rint(n) { return Math.floor(Math.random() * n); }

  // The cells from which a crate can still reach some spot (pushed, other crates ignored); every other floor
  // cell is dead: a crate there can never be saved.
  function liveCells(lv) {
    var W = lv.W, n = lv.W * lv.H, live = new Array(n).fill(false), queue = [];
    var steps = [-W, W, -1, 1];
    for (var i = 0; i < n; i++) if (lv.spot[i]) { live[i] = true; queue.push(i); }
    while (queue.length) {
      var q = queue.shift();
      for (var d = 0; d < 4; d++) {
        var a = q - steps[d], b = q - 2 * steps[d];
        if (a < 0 || b < 0 || a >= n || b >= n) continue;
        if (lv.wall[a] || lv.wall[b] || live[a]) continue;
        live[a] = true; queue.push(a);
      }
    }
    return live;
  }

  // A crate frozen in a 2x2 block of walls and crates, off its spot: none of that block can ever move.
  function frozen(lv, crateAt, c) {
    var W = lv.W;
    var corners = [c, c - 1, c - W, c - W - 1];
    for (var k = 0; k < 4; k++) {
      var tl = corners[k], cells = [tl, tl + 1, tl + W, tl + W + 1], solid = true, off = false;
      for (var j = 0; j < 4; j++) {
        var x = cells[j];
        if (lv.wall[x]) continue;
        if (crateAt(x)) { if (!lv.spot[x]) off = true; continue; }
        solid = false; break;
      }
      if (solid && off) return true;
    }
    return false;
  }

  // The crate (index into crates) that can no longer reach a spot, or -1.
  function stuckCrate(lv, crates) {
    var set = {};
    for (var i = 0; i < crates.length; i++) set[crates[i]] = true;
    var at = function (x) { return set[x] === true; };
    for (i = 0; i < crates.length; i++) {
      var c = crates[i];
      if (lv.spot[c]) continue;
      if (!lv.live[c] || frozen(lv, at, c)) return i;
    }
    return -1;
  }

  function key(worker, crates) {
    var s = crates.slice().sort(function (a, b) { return a - b; });
    var k = worker;
    for (var i = 0; i < s.length; i++) k = k * 128 + s[i];
    return k;
  }

  // The length (worker steps) of the shortest solution, or -1 if none within maxDepth.
  function shortest(lv, worker, crates, maxDepth) {
    var W = lv.W, steps = [-W, W, -1, 1];
    var seen = new Set([key(worker, crates)]);
    var frontier = [[worker, crates]];
    for (var depth = 0; depth <= maxDepth; depth++) {
      var next = [];
      for (var f = 0; f < frontier.length; f++) {
        var w = frontier[f][0], cs = frontier[f][1];
        var done = true;
        for (var i = 0; i < cs.length; i++) if (!lv.spot[cs[i]]) { done = false; break; }
        if (done) return depth;
        if (depth === maxDepth) continue;
        for (var d = 0; d < 4; d++) {
          var nw = w + steps[d];
          if (lv.wall[nw]) continue;
          var ci = cs.indexOf(nw), ncs = cs;
          if (ci >= 0) {
            var nc = nw + steps[d];
            if (lv.wall[nc] || cs.indexOf(nc) >= 0) continue;
            ncs = cs.slice(); ncs[ci] = nc;
            if (stuckCrate(lv, ncs) >= 0) continue;
          }
          var k = key(nw, ncs);
          if (seen.has(k)) continue;
          seen.add(k);
          next.push([nw, ncs]);
        }
      }
      frontier = next;
      if (!frontier.length) break;
    }
    return -1;
  }

  function connected(lv) {
    var n = lv.W * lv.H, start = -1, count = 0, total = 0;
    for (var i = 0; i < n; i++) if (!lv.wall[i]) { total++; if (start < 0) start = i; }
    var seen = new Array(n).fill(false), queue = [start];
    seen[start] = true;
    var steps = [-lv.W, lv.W, -1, 1];
    while (queue.length) {
      var q = queue.pop(); count++;
      for (var d = 0; d < 4; d++) {
        var x = q + steps[d];
        if (!lv.wall[x] && !seen[x]) { seen[x] = true; queue.push(x); }
      }
    }
    return count === total;
  }

  // Every position the solved room can be pulled back to, by the length of its shortest solution: a
  // breadth-first search of pulls from the crates on their spots (the worker anywhere), up to spec.max steps.
  // Returns the positions whose shortest solution lies in [spec.min, spec.max] with no crate on a spot.
  function candidates(lv, spec, spots) {
    var W = lv.W, steps = [-W, W, -1, 1], n = W * H_(lv), out = [];
    function H_(l) { return l.H; }
    var seen = new Set(), frontier = [];
    for (var i = 0; i < n; i++) {
      if (lv.wall[i] || spots.indexOf(i) >= 0) continue;
      var k = key(i, spots);
      seen.add(k); frontier.push([i, spots]);
    }
    for (var depth = 0; depth < spec.max; depth++) {
      var next = [];
      for (var f = 0; f < frontier.length; f++) {
        var w = frontier[f][0], cs = frontier[f][1];
        for (var d = 0; d < 4; d++) {
          var nw = w + steps[d];
          if (lv.wall[nw] || cs.indexOf(nw) >= 0) continue;
          var moves = [cs];
          var behind = cs.indexOf(w - steps[d]);
          if (behind >= 0) { var pulled = cs.slice(); pulled[behind] = w; moves.push(pulled); }
          for (var m = 0; m < moves.length; m++) {
            var kk = key(nw, moves[m]);
            if (seen.has(kk)) continue;
            seen.add(kk);
            next.push([nw, moves[m]]);
          }
        }
      }
      frontier = next;
      if (depth + 1 >= spec.min) {
        for (f = 0; f < frontier.length; f++) {
          var ok = true, c2 = frontier[f][1];
          for (var j = 0; j < c2.length; j++) if (lv.spot[c2[j]]) { ok = false; break; }
          if (ok) out.push([frontier[f][0], c2, depth + 1]);
        }
      }
    }
    return out;
  }

  function tryLevel(spec) {
    var W = spec.w + 2, H = spec.h + 2, n = W * H, i;
    var lv = { W: W, H: H, wall: new Array(n).fill(false), spot: new Array(n).fill(false) };
    for (i = 0; i < n; i++) {
      var x = i % W, y = (i - x) / W;
      if (x === 0 || y === 0 || x === W - 1 || y === H - 1) lv.wall[i] = true;
    }
    var floor = function () {
      var out = [];
      for (var j = 0; j < n; j++) if (!lv.wall[j]) out.push(j);
      return out;
    };
    for (i = 0; i < spec.walls; i++) {
      var cells = floor(), c = cells[rint(cells.length)];
      lv.wall[c] = true;
      if (!connected(lv)) lv.wall[c] = false;
    }
    var free = floor(), spots = [];
    for (i = 0; i < spec.crates; i++) {
      var pick = free.splice(rint(free.length), 1)[0];
      lv.spot[pick] = true; spots.push(pick);
    }
    var found = candidates(lv, spec, spots);
    if (!found.length) return null;
    var chosen = found[rint(found.length)];
    lv.live = liveCells(lv);
    lv.worker = chosen[0];
    lv.crates = chosen[1].slice();
    lv.best = chosen[2];
    return lv;
  }

  // Level `index` (0-based): a fresh room drawn from Math.random, retried until its shortest solution fits.
  function makeLevel(index) {
    var spec = SPECS[Math.min(index, SPECS.length - 1)];
    for (var tries = 0; tries < 200; tries++) {
      var lv = tryLevel(spec);
      if (lv) { lv.index = index; lv.tries = tries; return lv; }
    }
    throw new Error("no level");
  }

  root.CratePushLevels = { SPECS: SPECS, DX: DX, DY: DY, makeLevel: makeLevel, stuckCrate: stuckCrate,
                           shortest: shortest };
})(typeof window !== "undefined" ? window : globalThis);
