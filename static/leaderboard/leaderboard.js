// Draw the leaderboard's plotly figures (JSON built by the server) and keep the task-set choice in the URL.
(function () {
  "use strict";

  // Plotly does not wrap a title: one longer than its chart is wide (on a phone) is broken into lines here, and the
  // chart grows by the lines added.
  var LINE_HEIGHT = 20;
  function wrapTitle(layout, width) {
    var title = layout.title;
    if (!title || !title.text) return;
    var measure = document.createElement("canvas").getContext("2d");
    measure.font = (title.font && title.font.size || 15) + "px " + (layout.font && layout.font.family || "sans-serif");
    var lines = [""];
    title.text.split(" ").forEach(function (word) {
      var last = lines[lines.length - 1], longer = last ? last + " " + word : word;
      if (last && measure.measureText(longer).width > width - 24) lines.push(word);
      else lines[lines.length - 1] = longer;
    });
    var added = (lines.length - 1) * LINE_HEIGHT;
    title.text = lines.join("<br>");
    title.pad.t += added / 2;  // plotly centres a title's lines where its first line would be
    layout.margin.t += added;
    layout.height += added;
  }

  // An axis with more labels than its chart's width holds (the campaign's tasks on a phone) is drawn without them, and
  // without the margin they took: each cell's hover names it.
  var LABEL_SPACING = 16, BARE_MARGIN = 30;
  function dropCrowdedLabels(layout, width) {
    var axis = layout.xaxis;
    if (!axis || !axis.ticktext || axis.ticktext.length * LABEL_SPACING <= width) return;
    axis.showticklabels = false;
    layout.height -= layout.margin.b - BARE_MARGIN;
    layout.margin.b = BARE_MARGIN;
  }

  function draw() {
    if (!window.Plotly) return;
    document.querySelectorAll("[data-chart]").forEach(function (el) {
      var source = document.getElementById(el.dataset.chart);
      if (!source || el.dataset.drawn) return;
      var fig = JSON.parse(source.textContent);
      el.dataset.drawn = "1";
      wrapTitle(fig.layout, el.clientWidth);
      dropCrowdedLabels(fig.layout, el.clientWidth);
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
