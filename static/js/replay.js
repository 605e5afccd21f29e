// Step through the frames of a finished run.
(() => {
  const root = document.getElementById("replay");
  if (!root) return;
  const count = Number(root.dataset.count);
  const image = document.getElementById("replay-frame"), slider = document.getElementById("replay-step");
  const label = document.getElementById("replay-label"), items = document.querySelectorAll("#replay-actions li");
  const button = document.getElementById("replay-play");
  let timer = null;
  function show(index) {
    slider.value = index;
    image.src = root.dataset.base + String(index).padStart(3, "0") + ".jpg";
    label.textContent = index === 0 ? "start" : `after action ${index} of ${count - 1}`;
    items.forEach((item, i) => item.classList.toggle("current", i === index - 1));
  }
  slider.addEventListener("input", () => show(Number(slider.value)));
  button.addEventListener("click", () => {
    if (timer) { clearInterval(timer); timer = null; button.textContent = "▶ Play"; return; }
    button.textContent = "❚❚ Pause";
    if (Number(slider.value) >= count - 1) show(0);
    timer = setInterval(() => {
      const next = Number(slider.value) + 1;
      if (next >= count) { clearInterval(timer); timer = null; button.textContent = "▶ Play"; return; }
      show(next);
    }, 250);
  });
})();
