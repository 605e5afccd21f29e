// Draw the leaderboard's plotly figures (JSON built by the server) and keep the task-set choice in the URL.
(function () {
  "use strict";

  function draw() {
    if (!window.Plotly) return;
    document.querySelectorAll("[data-chart]").forEach(function (el) {
      var source = document.getElementById(el.dataset.chart);
      if (!source || el.dataset.drawn) return;
      var fig = JSON.parse(source.textContent);
      el.dataset.drawn = "1";
      window.Plotly.newPlot(el, fig.data, fig.layout, {
        displaylogo: false, responsive: true,
        modeBarButtonsToRemove: ["select2d", "lasso2d", "autoScale2d", "toggleSpikelines"],
      });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var form = document.getElementById("taskset-form");
    if (form) {
      form.querySelector("select").addEventListener("change", function () { form.submit(); });
    }
    draw();
  });
  window.gwDrawCharts = draw;
})();
