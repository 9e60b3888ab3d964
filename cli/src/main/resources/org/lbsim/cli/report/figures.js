/*
 * lbsim report --interactive: each figure drawn again with uPlot from the CSV written next to it
 * (embedded in the page as <pre class="figure-csv">), so the numbers under the cursor are the
 * file's numbers. Zoom: drag over the plot (x; categories snap to whole cells); double-click resets.
 * Hover: the legend under the chart shows the values at the cursor; click a legend entry to hide
 * or show that series. The static SVG stays in the page: it is what prints, and the checkbox
 * "interactive figures" in the header switches between the two.
 * No template literals in this file: Maven filters the resources folder.
 */
(function () {
  "use strict";
  var PALETTE = ["#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#000000", "#787878",
    "#f0e442", "#8c564b", "#17becf", "#9467bd"];
  var DASH = "\u2013";

  /** RFC 4180 CSV: quoted fields may hold commas, quotes (doubled) and newlines. */
  function parseCsv(text) {
    var rows = [], row = [], field = "", quoted = false, i = 0, c;
    for (; i < text.length; i++) {
      c = text.charAt(i);
      if (quoted) {
        if (c === "\"") {
          if (text.charAt(i + 1) === "\"") { field += "\""; i++; } else { quoted = false; }
        } else { field += c; }
      } else if (c === "\"") { quoted = true; }
      else if (c === ",") { row.push(field); field = ""; }
      else if (c === "\n") { row.push(field); rows.push(row); row = []; field = ""; }
      else if (c !== "\r") { field += c; }
    }
    if (field !== "" || row.length > 0) { row.push(field); rows.push(row); }
    return rows;
  }

  function num(s) {
    if (s === undefined || s === null || s === "") { return null; }
    var v = Number(s);
    return isFinite(v) ? v : null;
  }

  /** Numbers as the static figures print them: thousands separators, about five significant digits. */
  function fmt(v) {
    if (v === null || v === undefined || !isFinite(v)) { return DASH; }
    var a = Math.abs(v);
    if (a !== 0 && (a >= 1e9 || a < 1e-3)) { return v.toExponential(3); }
    return Number(v.toPrecision(5)).toLocaleString("en-US", { maximumFractionDigits: 6 });
  }

  /** Reads the figure's CSV into series: names in order, and per series its points [x, y, low, high]. */
  function readData(spec, csvText) {
    var rows = parseCsv(csvText);
    var head = rows.shift() || [];
    function col(name) {
      if (name === null || name === undefined) { return -1; }
      var k = head.indexOf(name);
      if (k < 0) { throw new Error("column '" + name + "' is not in the figure's CSV (" + head.join(", ") + ")"); }
      return k;
    }
    var sc = col(spec.seriesColumn), xc = col(spec.xColumn), yc = col(spec.yColumn);
    var lc = col(spec.lowColumn), hc = col(spec.highColumn);
    var catIndex = new Map();
    spec.categories.forEach(function (c, k) { catIndex.set(c, k); });
    var series = new Map();
    rows.forEach(function (r) {
      if (r.length < head.length) { return; }
      var name = sc < 0 ? spec.yTitle : r[sc];
      var x = spec.categories.length > 0 ? catIndex.get(r[xc]) : num(r[xc]);
      if (x === undefined || x === null) { return; }
      if (!series.has(name)) { series.set(name, []); }
      series.get(name).push([x, num(r[yc]), lc < 0 ? null : num(r[lc]), hc < 0 ? null : num(r[hc])]);
    });
    return { names: Array.from(series.keys()), points: Array.from(series.values()), rows: rows.length };
  }

  /** uPlot wants one x array shared by all series: the union of the x values, null where a series has none. */
  function align(spec, d) {
    var xs;
    if (spec.categories.length > 0) {
      xs = spec.categories.map(function (c, k) { return k; });
    } else {
      var all = new Set();
      d.points.forEach(function (p) { p.forEach(function (q) { all.add(q[0]); }); });
      xs = Array.from(all).sort(function (a, b) { return a - b; });
    }
    var at = new Map();
    xs.forEach(function (x, k) { at.set(x, k); });
    var ys = [], lows = [], highs = [];
    d.points.forEach(function (p) {
      var y = new Array(xs.length).fill(null), lo = new Array(xs.length).fill(null), hi = new Array(xs.length).fill(null);
      p.forEach(function (q) { var k = at.get(q[0]); y[k] = q[1]; lo[k] = q[2]; hi[k] = q[3]; });
      ys.push(y); lows.push(lo); highs.push(hi);
    });
    return { data: [xs].concat(ys), lows: lows, highs: highs };
  }

  /** The narrowest category (CSS pixels) whose label is wrapped; narrower ones are rotated (Charts.MIN_WRAPPED_CATEGORY_PX). */
  var MIN_WRAPPED_CATEGORY_PX = 36;

  /** A category label wrapped at its spaces into lines of at most maxPx as ctx measures them, a longer word broken. */
  function wrapLabel(ctx, text, maxPx) {
    var lines = [];
    var line = "";
    String(text).split(" ").forEach(function (word) {
      var next = line ? line + " " + word : word;
      if (ctx.measureText(next).width <= maxPx) { line = next; return; }
      if (line) { lines.push(line); }
      while (word.length > 1 && ctx.measureText(word).width > maxPx) {
        var k = word.length - 1;
        while (k > 1 && ctx.measureText(word.slice(0, k)).width > maxPx) { k--; }
        lines.push(word.slice(0, k));
        word = word.slice(k);
      }
      line = word;
    });
    if (line) { lines.push(line); }
    return lines.join("\n");
  }

  /** An axis as wide as its longest tick label (uPlot's default is a fixed 50 px). */
  function axisSize(u, values, axisIdx, cycleNum) {
    var axis = u.axes[axisIdx];
    if (cycleNum > 1 && axis._size) { return axis._size; }
    var longest = (values || []).reduce(function (acc, v) { return String(v).length > acc.length ? String(v) : acc; }, "");
    u.ctx.font = axis.font[0];
    return Math.ceil(axis.ticks.size + axis.gap + u.ctx.measureText(longest).width / uPlot.pxRatio + 8);
  }

  /**
   * Ticks of a log axis that always carry numbers: decades when the range spans three or more,
   * else 1-2-5 steps, else every digit (uPlot labels decades only, so a range inside one decade
   * had a single number).
   */
  function logSplits(u, axisIdx, min, max) {
    var steps = [[1], [1, 2, 5], [1, 2, 3, 4, 5, 6, 7, 8, 9]];
    var out = [];
    for (var t = 0; t < steps.length; t++) {
      out = [];
      for (var e = Math.floor(Math.log10(min)); e <= Math.ceil(Math.log10(max)); e++) {
        steps[t].forEach(function (m) {
          var v = Number((m * Math.pow(10, e)).toPrecision(12));
          if (v >= min * (1 - 1e-9) && v <= max * (1 + 1e-9)) { out.push(v); }
        });
      }
      if (out.length >= 3) { break; }
    }
    return out;
  }

  function tickValues(u, splits) { return splits.map(fmt); }

  /** Keep every tick of logSplits (uPlot's log filter would drop the non-decades). */
  function everySplit(u, splits) { return splits; }

  /** The smallest axis title font (CSS pixels), as the static figures' Charts.MIN_AXIS_TITLE_PT. */
  var MIN_AXIS_TITLE_PX = 9;

  /**
   * As Charts.fitAxisTitles: a title longer than its axis in a smaller font, down to MIN_AXIS_TITLE_PX; a y title
   * that still does not fit is taken off the axis (the caller writes it above the plot). Changes the axes' options
   * and says whether it did (the chart is then drawn again).
   */
  function fitTitles(u, xAxis, yAxis) {
    var ctx = document.createElement("canvas").getContext("2d");
    var changed = false;
    [[xAxis, u.bbox.width / uPlot.pxRatio], [yAxis, u.bbox.height / uPlot.pxRatio]].forEach(function (p) {
      var axis = p[0], lengthPx = p[1];
      if (!axis.label || lengthPx <= 0) { return; }
      ctx.font = axis.labelFont;
      var w = ctx.measureText(axis.label).width;
      if (w <= lengthPx) { return; }
      var size = Math.floor(12.5 * lengthPx / w * 10) / 10;
      if (size >= MIN_AXIS_TITLE_PX || axis === xAxis) {
        axis.labelFont = axis.labelFont.replace("12.5px", Math.max(size, MIN_AXIS_TITLE_PX) + "px");
      } else {
        axis.label = null;
      }
      changed = true;
    });
    return changed;
  }

  function draw(fig) {
    var spec = JSON.parse(fig.getAttribute("data-chart"));
    var host = fig.querySelector(".chart");
    var d = readData(spec, fig.querySelector("pre.figure-csv").textContent);
    var a = align(spec, d);
    var bars = spec.kind === "BARS";
    var dots = spec.kind === "POINTS"; // categories on a log axis: markers side by side, drawn in the hook like the whiskers
    var cats = spec.categories;
    var n = d.names.length;
    var groupWidth = 0.8;
    function barCentre(s, k) { return k - groupWidth / 2 + (s + 0.5) * groupWidth / n; }
    // the static figure's points: JFreeChart's series offset with an item margin of 0.3 inside each category's 0.8
    function dotCentre(s, k) { return n === 1 ? k : k - groupWidth / 2 + (s * 1.3 + 0.5) * groupWidth / (n + 0.3 * (n - 1)); }
    var seriesOpts = [{
      label: spec.xTitle,
      value: function (u, v) { return v === null ? DASH : cats.length > 0 ? (cats[Math.round(v)] || "") : fmt(v); }
    }];
    d.names.forEach(function (name, s) {
      var colour = PALETTE[s % PALETTE.length];
      var o = {
        label: spec.legend[name] || name, stroke: colour, width: 1.6, spanGaps: true,
        value: function (u, v, si, idx) {
          if (v === null || v === undefined) { return DASH; }
          var lo = idx === null || idx === undefined ? null : a.lows[si - 1][idx];
          var hi = idx === null || idx === undefined ? null : a.highs[si - 1][idx];
          return fmt(v) + (lo !== null && hi !== null ? " [" + fmt(lo) + ", " + fmt(hi) + "]" : "");
        }
      };
      if (spec.kind === "STEP") {
        o.paths = uPlot.paths.stepped({ align: 1 });
        o.points = { show: false };
      } else if (spec.kind === "LINE") {
        o.points = { show: false };
      } else if (spec.kind === "LINE_POINTS") {
        o.points = { show: true, size: 7, fill: colour };
      } else if (dots) {
        o.paths = function () { return null; };
        o.points = { show: false };
      } else if (bars) {
        o.fill = colour;
        o.width = 0;
        o.points = { show: false };
        o.fillTo = function (u) { return spec.logY ? u.scales.y.min : 0; };
        o.paths = uPlot.paths.bars({
          disp: {
            x0: { unit: 1, values: function (u, si) { return u.data[0].map(function (k) { return barCentre(si - 1, k) - groupWidth / n / 2; }); } },
            size: { unit: 1, values: function () { return [groupWidth / n * 0.94]; } }
          }
        });
      }
      seriesOpts.push(o);
    });
    var highest = -Infinity, lowest = Infinity;
    a.data.slice(1).concat(a.highs, a.lows).forEach(function (arr) {
      // on a log axis an interval reaching 0 or below is drawn down to the axis, not ranged over (no 1e-12 decades)
      arr.forEach(function (v) { if (v !== null && (!spec.logY || v > 0)) { highest = Math.max(highest, v); lowest = Math.min(lowest, v); } });
    });
    var hasCap = spec.capY !== null && spec.capY !== undefined && isFinite(spec.capY);
    if (hasCap) { highest = Math.max(highest, spec.capY); }
    var yRange = function (u, mn, mx) {
      if (spec.kind === "STEP") { return [0, 1.02]; }
      // the error bars and the cap stay in view (the static figures do the same)
      mn = Math.min(mn, lowest);
      mx = Math.max(mx, highest);
      if (spec.logY) { return uPlot.rangeLog(mn > 0 ? mn : lowest, mx, 10, true); }
      if (bars || spec.kind === "LINE_POINTS") { mn = Math.min(0, mn); }
      return uPlot.rangeNum(mn, mx, 0.08, true);
    };
    var xScale = cats.length > 0
      ? { time: false, range: function (u, mn, mx) { return [Math.floor(mn + 0.5) - 0.5, Math.ceil(mx - 0.5) + 0.5]; } }
      : { time: false, distr: spec.logX ? 3 : 1 };
    var labelFont = "bold 12.5px system-ui, sans-serif";
    // the axis titles as the static figure draws them (its units and "(log scale)"), fitted below as it fits them
    var xAxis = { label: spec.xAxisTitle, labelFont: labelFont, size: axisSize, stroke: "#282828" };
    if (spec.logX) { xAxis.splits = logSplits; xAxis.values = tickValues; xAxis.filter = everySplit; }
    if (cats.length > 0) {
      xAxis.splits = function (u) {
        var out = [];
        for (var k = Math.max(0, Math.ceil(u.scales.x.min)); k <= Math.min(cats.length - 1, Math.floor(u.scales.x.max)); k++) { out.push(k); }
        return out;
      };
      // as the static figure: each label whole, wrapped within its category's width; rotated only where categories are too narrow
      var narrow = function (u, count) { return u.bbox.width / uPlot.pxRatio / Math.max(1, count) < MIN_WRAPPED_CATEGORY_PX; };
      xAxis.values = function (u, splits) {
        var wrap = !narrow(u, splits.length);
        u.ctx.font = u.axes[0].font[0];
        var maxPx = u.bbox.width / Math.max(1, splits.length) * 0.9;
        return splits.map(function (k) { return wrap ? wrapLabel(u.ctx, cats[k], maxPx) : cats[k]; });
      };
      xAxis.rotate = function (u, values) { return narrow(u, values.length) ? -45 : 0; };
      xAxis.size = function (u, values, axisIdx, cycleNum) {
        if (!values || narrow(u, values.length)) { return axisSize(u, values, axisIdx, cycleNum); }
        var axis = u.axes[axisIdx];
        var lines = values.reduce(function (m, v) { return Math.max(m, String(v).split("\n").length); }, 1);
        return Math.ceil(axis.ticks.size + axis.gap + lines * axis.font[1] / uPlot.pxRatio * axis.lineGap + 4);
      };
      xAxis.gap = 6;
    }
    var yAxis = { label: spec.yTitleAbove ? null : spec.yAxisTitle, labelFont: labelFont, size: axisSize, stroke: "#282828" };
    if (spec.logY) { yAxis.splits = logSplits; yAxis.values = tickValues; yAxis.filter = everySplit; }
    var width = Math.max(320, Math.floor(host.getBoundingClientRect().width || fig.clientWidth || 640));
    var opts = {
      title: spec.title,
      width: width,
      height: Math.round(width * 0.64),
      series: seriesOpts,
      scales: { x: xScale, y: { distr: spec.logY ? 3 : 1, range: yRange } },
      axes: [xAxis, yAxis],
      cursor: { drag: { x: true, y: false }, points: { size: 8 } },
      legend: { live: true },
      hooks: {
        draw: [function (u) {
          var ctx = u.ctx, r = uPlot.pxRatio;
          ctx.save();
          ctx.beginPath();
          ctx.rect(u.bbox.left, u.bbox.top, u.bbox.width, u.bbox.height);
          ctx.clip();
          ctx.strokeStyle = "#282828";
          ctx.lineWidth = 1.2 * r;
          for (var s = 0; s < n; s++) {
            if (!u.series[s + 1].show) { continue; }
            for (var k = 0; k < a.data[0].length; k++) {
              if (dots && a.data[s + 1][k] !== null) {
                ctx.fillStyle = PALETTE[s % PALETTE.length];
                ctx.beginPath();
                ctx.arc(u.valToPos(dotCentre(s, a.data[0][k]), "x", true), u.valToPos(a.data[s + 1][k], "y", true), 3.5 * r, 0, 2 * Math.PI);
                ctx.fill();
              }
              var lo = a.lows[s][k], hi = a.highs[s][k];
              if (lo === null || hi === null) { continue; }
              var open = spec.logY && lo <= 0; // below the log axis: drawn to its bottom, without a cap
              if (open) { lo = u.scales.y.min; }
              var x = u.valToPos(bars ? barCentre(s, a.data[0][k]) : dots ? dotCentre(s, a.data[0][k]) : a.data[0][k], "x", true);
              var y0 = u.valToPos(lo, "y", true), y1 = u.valToPos(hi, "y", true), cap = 4 * r;
              ctx.beginPath();
              ctx.moveTo(x, y0); ctx.lineTo(x, y1);
              if (!open) { ctx.moveTo(x - cap, y0); ctx.lineTo(x + cap, y0); }
              ctx.moveTo(x - cap, y1); ctx.lineTo(x + cap, y1);
              ctx.stroke();
            }
          }
          // fitted power laws y = a x^b, dashed in their series' colour (prefactor, slope, from, to)
          ctx.lineWidth = 1.2 * r;
          ctx.setLineDash([6 * r, 4 * r]);
          d.names.forEach(function (name, s) {
            var f = spec.fits[name];
            if (!f || !u.series[s + 1].show) { return; }
            ctx.strokeStyle = PALETTE[s % PALETTE.length];
            ctx.beginPath();
            for (var j = 0; j < 40; j++) {
              var fx = f[2] * Math.pow(f[3] / f[2], j / 39);
              var px = u.valToPos(fx, "x", true), py = u.valToPos(f[0] * Math.pow(fx, f[1]), "y", true);
              if (j === 0) { ctx.moveTo(px, py); } else { ctx.lineTo(px, py); }
            }
            ctx.stroke();
          });
          ctx.setLineDash([]);
          if (hasCap) {
            var yc = u.valToPos(spec.capY, "y", true);
            ctx.strokeStyle = "#c82828";
            ctx.setLineDash([3 * r, 3 * r]);
            ctx.beginPath(); ctx.moveTo(u.bbox.left, yc); ctx.lineTo(u.bbox.left + u.bbox.width, yc); ctx.stroke();
            ctx.setLineDash([]);
            ctx.fillStyle = "#c82828";
            ctx.font = Math.round(12 * r) + "px sans-serif";
            ctx.textAlign = "center";
            ctx.fillText(spec.capLabel || "cap", u.bbox.left + u.bbox.width / 2, yc + 14 * r);
          }
          ctx.restore();
        }]
      }
    };
    host.textContent = "";
    var plot = new uPlot(opts, a.data, host);
    var fitted = fitTitles(plot, xAxis, yAxis);
    if (fitted) {
      plot.destroy();
      plot = new uPlot(opts, a.data, host);
    }
    if (yAxis.label === null) {
      // too long for the plot's height even in the smallest font: above the plot, as the static figure writes it
      var above = document.createElement("div");
      above.className = "y-title-above";
      above.textContent = spec.yAxisTitle;
      above.style.font = labelFont;
      above.style.margin = "0 0 2px 6px";
      plot.root.insertBefore(above, plot.root.querySelector(".u-wrap")); // under the figure's title, as the static figure's
    }
    // what the page drew, for a reader and for the browser test: series and CSV rows
    fig.setAttribute("data-drawn-series", String(n));
    fig.setAttribute("data-drawn-rows", String(d.rows));
    return plot;
  }

  var plots = [];
  Array.prototype.forEach.call(document.querySelectorAll("figure[data-chart]"), function (fig) {
    try {
      plots.push({ fig: fig, plot: draw(fig) });
      fig.classList.add("live");
    } catch (e) {
      // the static figure stays; the reason goes under it and to the console
      var p = document.createElement("p");
      p.className = "note";
      p.textContent = "Interactive figure not drawn: " + e.message;
      fig.appendChild(p);
      console.error("lbsim report: figure " + fig.id + ": " + e.message);
    }
  });
  var toggle = document.getElementById("interactive-toggle");
  function apply() { document.body.classList.toggle("static-figures", toggle && !toggle.checked); }
  if (toggle) { toggle.addEventListener("change", apply); apply(); }
  var pending = 0;
  window.addEventListener("resize", function () {
    cancelAnimationFrame(pending);
    pending = requestAnimationFrame(function () {
      plots.forEach(function (p) {
        // drawn again at the new width: the axis titles are fitted to it
        p.plot.destroy();
        p.plot = draw(p.fig);
      });
    });
  });
})();
