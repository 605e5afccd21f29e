// Live verification progress: the server pushes a snapshot over a WebSocket whenever it changes.
(() => {
  const live = document.getElementById("live");
  if (!live) return;
  const fmt = (value, digits) => (value === null || value === undefined) ? "–" : Number(value).toFixed(digits);
  const yesno = (value) => value === null || value === undefined ? "–" : (value ? "yes" : "no");
  function render(s) {
    const status = document.getElementById("status");
    status.textContent = s.status_display;
    status.className = "status status-" + s.status;
    document.getElementById("count").textContent = `${s.runs_done} of ${s.runs_total} runs replayed`;
    document.getElementById("bar").style.width = (s.runs_total ? 100 * s.runs_done / s.runs_total : 0) + "%";
    document.querySelector(".progress").setAttribute("aria-valuenow", s.runs_done);
    document.getElementById("mismatches").textContent =
      s.mismatches ? `· ${s.mismatches} ${s.mismatches > 1 ? "claims differ" : "claim differs"} from the replay` : "";
    document.getElementById("reason").textContent = s.reason || "";
    for (const run of s.runs) {
      const row = document.getElementById("run-" + run.id);
      if (!row) continue;
      const set = (field, text) => { row.querySelector(`[data-f="${field}"]`).textContent = text; };
      const badge = row.querySelector('[data-f="status"]');
      badge.textContent = run.status; badge.className = "status status-" + run.status;
      set("progress", fmt(run.progress, 3)); set("success", yesno(run.success));
      set("attempts", run.attempts ?? "–"); set("actions", run.actions ?? "–"); set("iar", fmt(run.iar, 3));
      set("flag", run.mismatch ? "claim differs" : run.error ? run.error : run.status === "verified" ? "matches" : "");
      row.classList.toggle("mismatch", run.mismatch);
    }
  }
  function connect(delay) {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    const socket = new WebSocket(scheme + location.host + live.dataset.ws);
    let finished = false;
    socket.onmessage = (event) => {
      const data = JSON.parse(event.data);
      if (data.error) { document.getElementById("reason").textContent = data.error; return; }
      render(data);
      finished = data.finished;
    };
    socket.onclose = () => { if (!finished) setTimeout(() => connect(Math.min(delay * 2, 10000)), delay); };
  }
  connect(500);
})();
