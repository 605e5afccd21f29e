// The run page's step-by-step replay: ask the server for the replay (it renders the frames once, in the
// background), show its progress, then step through the frames with the action and state at each step.
(function () {
  "use strict";
  var root = document.getElementById("replay");
  if (!root) return;
  var $ = function (id) { return document.getElementById(id); };
  var data = null, index = 0, timer = null, retry = false;

  function poll() {
    var url = root.dataset.statusUrl + (retry ? "?retry=1" : "");
    retry = false;
    fetch(url, { headers: { Accept: "application/json" } })
      .then(function (r) { return r.json(); })
      .then(function (status) {
        if (status.state === "ready") return start(status);
        if (status.state === "error" || status.state === "unavailable") return failed(status);
        progress(status);
        setTimeout(poll, 400);
      })
      .catch(function () { setTimeout(poll, 1500); });
  }

  function progress(status) {
    var total = status.total || Number(root.dataset.total) || 1;
    var done = status.done || 0;
    $("rendering-title").textContent = status.state === "rendering" ? "Rendering the replay…" : "Waiting for the sandbox…";
    $("rendering-bar").style.width = Math.round(100 * done / total) + "%";
    root.querySelector("[role=progressbar]").setAttribute("aria-valuenow", String(done));
    $("rendering-count").textContent = done + " of " + total + " frames";
  }

  function failed(status) {
    $("rendering-title").textContent = "The replay could not be rendered";
    var error = $("rendering-error");
    error.hidden = false;
    error.textContent = status.error || "unknown error";
    if (status.state === "error") {
      var again = document.createElement("button");
      again.type = "button";
      again.textContent = "Try again";
      again.addEventListener("click", function () { retry = true; error.hidden = true; again.remove(); poll(); });
      error.after(again);
    }
  }

  function start(status) {
    data = status;
    $("rendering").hidden = true;
    $("frame").hidden = false;
    $("controls").hidden = false;
    $("panel").hidden = false;
    $("scrub").max = String(data.steps.length - 1);
    $("replay-check").textContent = data.matches_verified
      ? "Replayed now: the state trace matches the verified one (sha256 " + data.trace_sha256.slice(0, 12) + "…)."
      : "Replayed now: the state trace differs from the verified one (" + data.trace_sha256.slice(0, 12) + "…).";
    var list = $("step-list");
    data.steps.forEach(function (step, i) {
      var item = document.createElement("button");
      item.type = "button";
      item.setAttribute("role", "option");
      item.textContent = String(step.index).padStart(3, " ") + "  " + step.label;
      if (step.invalid) item.classList.add("invalid");
      if (step.reset) item.classList.add("reset");
      item.addEventListener("click", function () { show(i); });
      list.appendChild(item);
    });
    data.steps.forEach(function (_, i) { new Image().src = frameUrl(i); });  // warm the browser cache
    show(0);
  }

  function frameUrl(i) { return data.frame_url + data.steps[i].index + ".png?v=" + data.version; }

  function format(value) {
    if (typeof value === "number") return Number.isInteger(value) ? String(value) : value.toFixed(2);
    if (typeof value === "boolean") return value ? "yes" : "no";
    return value === null || value === undefined ? "–" : String(value);
  }

  function show(i) {
    index = Math.max(0, Math.min(data.steps.length - 1, i));
    var step = data.steps[index], before = data.steps[Math.max(0, index - 1)];
    $("frame").src = frameUrl(index);
    $("scrub").value = String(index);
    $("counter").textContent = "Step " + step.index + " / " + (data.steps.length - 1);
    $("step-title").textContent = step.index === 0 ? "Ready (before the first action)" : "Action " + step.index;
    var action = $("step-action");
    action.textContent = step.label;
    action.classList.toggle("invalid", step.invalid);
    var flags = $("step-flags");
    flags.innerHTML = "";
    var add = function (text, cls) {
      var tag = document.createElement("span");
      tag.className = "badge " + cls;
      tag.textContent = text;
      flags.appendChild(tag);
    };
    if (step.invalid) add("invalid: " + (step.invalid_reason || "outside the action space"), "flag-badge");
    if (step.reset) add("game lost: attempt " + step.attempt + " starts", "partial-badge");
    if (step.success) add("target reached", "human-badge");
    if (step.truncated && !step.success) add("budget spent", "partial-badge");
    $("step-progress").style.width = Math.round(100 * (step.progress || 0)) + "%";
    var rows = [["progress", Math.round(100 * (step.progress || 0)) + " %"], ["attempt", step.attempt],
                ["actions left", step.actions_left]];
    Object.keys(step.fields).forEach(function (name) { rows.push([name, step.fields[name], before.fields[name]]); });
    var body = $("step-fields");
    body.innerHTML = "";
    rows.forEach(function (row) {
      var tr = document.createElement("tr");
      var changed = row.length === 3 && index > 0 && row[1] !== row[2];
      if (changed) tr.className = "changed";
      var name = document.createElement("td"), value = document.createElement("td");
      name.textContent = row[0];
      value.textContent = format(row[1]);
      tr.append(name, value);
      body.appendChild(tr);
    });
    var items = $("step-list").children;
    for (var k = 0; k < items.length; k++) items[k].classList.toggle("on", k === index);
    var current = items[index];
    if (current) {
      var list = $("step-list");
      // The item's top inside the list's scrolled content (offsetTop would count from the page's positioned parent).
      var top = current.getBoundingClientRect().top - list.getBoundingClientRect().top + list.scrollTop;
      if (top < list.scrollTop || top + current.offsetHeight > list.scrollTop + list.clientHeight) {
        list.scrollTop = top - list.clientHeight / 2;
      }
    }
    if (index === data.steps.length - 1) stop();
  }

  function play() {
    if (timer) return stop();
    if (index === data.steps.length - 1) show(0);
    $("play").textContent = "❚❚ Pause";
    timer = setInterval(function () { show(index + 1); }, 350);
  }
  function stop() { clearInterval(timer); timer = null; $("play").textContent = "▶ Play"; }

  $("first").addEventListener("click", function () { stop(); show(0); });
  $("prev").addEventListener("click", function () { stop(); show(index - 1); });
  $("next").addEventListener("click", function () { stop(); show(index + 1); });
  $("last").addEventListener("click", function () { stop(); show(data.steps.length - 1); });
  $("play").addEventListener("click", play);
  $("scrub").addEventListener("input", function (e) { stop(); show(Number(e.target.value)); });
  document.addEventListener("keydown", function (e) {
    if (!data || e.target.tagName === "INPUT" && e.target.type !== "range") return;
    if (e.key === "ArrowRight") { stop(); show(index + 1); e.preventDefault(); }
    else if (e.key === "ArrowLeft") { stop(); show(index - 1); e.preventDefault(); }
    else if (e.key === "Home") { stop(); show(0); e.preventDefault(); }
    else if (e.key === "End") { stop(); show(data.steps.length - 1); e.preventDefault(); }
    else if (e.key === " " && e.target === document.body) { play(); e.preventDefault(); }
  });
  poll();
})();
