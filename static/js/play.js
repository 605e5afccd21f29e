// The play page: one action per message, answered by the next frame. The game is paused in between.
(() => {
  const root = document.getElementById("play");
  if (!root) return;
  const keys = root.dataset.keys.split(" ").filter(Boolean);
  const pointer = root.dataset.pointer === "1";
  const width = Number(root.dataset.width), height = Number(root.dataset.height);
  const frame = document.getElementById("frame");
  const notice = document.getElementById("notice");
  // Game Boy games name their buttons; a keyboard reaches them through these keys.
  const buttons = {ArrowUp: "up", ArrowDown: "down", ArrowLeft: "left", ArrowRight: "right", KeyZ: "a", KeyX: "b",
                   Enter: "start", ShiftRight: "select", Backspace: "select"};
  let socket = null, step = null, pending = null, waiting = true, finished = false, lastUrl = null;
  let queued = null;  // one action pressed while a frame was on its way: sent as soon as the frame arrives

  const say = (text, isError) => { notice.textContent = text; notice.className = isError ? "error" : "muted"; };

  function send(action) {
    if (finished) return;
    if (waiting || step === null) {  // a fast second press is kept (one only), not dropped
      queued = action;
      say("Busy: your next action is queued and goes as soon as this frame arrives.");
      return;
    }
    waiting = true;
    say("…");
    socket.send(JSON.stringify({type: "action", step, action}));
  }

  function connect(delay) {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + root.dataset.ws);
    socket.binaryType = "blob";
    socket.onmessage = (event) => {
      if (typeof event.data !== "string") {  // the frame that goes with the last status: show both at once
        if (lastUrl) URL.revokeObjectURL(lastUrl);
        lastUrl = URL.createObjectURL(event.data);
        frame.src = lastUrl;
        const status = pending;
        step = status.step;
        document.getElementById("actions-left").textContent = status.actions_left;
        document.getElementById("attempt").textContent = status.attempt;
        document.getElementById("step").textContent = status.step;
        waiting = finished || status.done;
        say(status.done ? "The run is over." :
            status.reset ? `The game was lost: attempt ${status.attempt} starts.` : "Your move.");
        if (queued && !waiting) {
          const next = queued;
          queued = null;
          send(next);
        } else if (waiting) {
          queued = null;
        }
        return;
      }
      const message = JSON.parse(event.data);
      if (message.type === "status") {
        pending = message;
      } else if (message.type === "refused") {
        say(message.reason, true);
        waiting = false;
        queued = null;  // it was meant for a frame the refusal did not change
      } else if (message.type === "finished") {
        finished = true;
        say("The run is over. Loading your result…");
        setTimeout(() => location.reload(), 600);
      }
    };
    socket.onopen = () => { delay = 500; };
    socket.onclose = (event) => {
      if (finished || event.code >= 4400) return;  // refused for good: the reason is on screen
      waiting = true;
      queued = null;
      say("Connection lost; resuming where you were…", true);
      setTimeout(() => connect(Math.min(delay * 2, 8000)), delay);
    };
  }

  window.addEventListener("keydown", (event) => {
    if (event.repeat || event.target.tagName === "INPUT") return;
    const key = keys.includes(event.code) ? event.code : (keys.includes(buttons[event.code]) ? buttons[event.code] : null);
    if (!key) return;
    event.preventDefault();
    send({type: "press_key", key});
  });
  if (pointer) {
    // A press and release at one place is a click; one that moved is a drag from the press to the release.
    const DRAG_SLOP = 4;  // game pixels a hand may wobble in a click
    const point = (event) => {
      const box = frame.getBoundingClientRect();
      const clamp = (value, size) => Math.max(0, Math.min(size - 1, Math.floor(value)));
      return [clamp((event.clientX - box.left) * width / box.width, width),
              clamp((event.clientY - box.top) * height / box.height, height)];
    };
    let pressed = null;
    frame.draggable = false;           // the frame is an image: no native drag of it
    frame.style.touchAction = "none";  // nor a scroll of the page under a finger's stroke
    frame.addEventListener("dragstart", (event) => event.preventDefault());
    frame.addEventListener("pointerdown", (event) => { pressed = point(event); event.preventDefault(); });
    window.addEventListener("pointerup", (event) => {
      if (!pressed) return;
      const [x, y] = pressed, [toX, toY] = point(event);
      pressed = null;
      if (Math.abs(toX - x) <= DRAG_SLOP && Math.abs(toY - y) <= DRAG_SLOP) send({type: "left_click", x, y});
      else send({type: "drag", x, y, to_x: toX, to_y: toY});
    });
  }
  for (const button of document.querySelectorAll(".pad button[data-key]")) {  // the on-screen keys
    button.addEventListener("click", () => send({type: "press_key", key: button.dataset.key}));
  }
  for (const button of document.querySelectorAll(".semantic button[data-name]")) {
    button.addEventListener("click", () => {
      const args = {};
      for (const input of button.parentElement.querySelectorAll("input[data-arg]")) args[input.dataset.arg] = Number(input.value);
      send(Object.keys(args).length ? {type: "semantic", name: button.dataset.name, args}
                                    : {type: "semantic", name: button.dataset.name});
    });
  }
  // Buttons that send a whole message (the ROM capture page: save the start state, start again).
  for (const button of document.querySelectorAll("button[data-message]")) {
    button.addEventListener("click", () => {
      if (!socket || socket.readyState !== WebSocket.OPEN) return;
      waiting = true;
      socket.send(button.dataset.message);
    });
  }
  connect(500);
})();
