// Panels marked data-fold-on-phone are rendered open (as they stay without JavaScript): on a phone they are folded,
// so that what the page is for comes first; on a wider screen, where their summary may be hidden, they open again.
(() => {
  const phone = window.matchMedia("(max-width: 700px)");
  const panels = document.querySelectorAll("details[data-fold-on-phone]");
  const fit = () => { for (const panel of panels) panel.open = !phone.matches; };
  fit();
  phone.addEventListener("change", fit);
})();
