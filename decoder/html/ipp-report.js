/* ipp-report.js -- draws the flame graph of `ipp html`'s index page with
 * d3-flame-graph (vendored from npm: decoder/html/assets.txt).  The data,
 * IPP_FLAME, is written by ipp into data.js: the prefix tree of the
 * recorded paths, each node a frame (a run of a path in one function
 * activation) whose value is the executions of the paths through it.
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING). */
(function () {
	"use strict";
	var el = document.getElementById("flame");
	if (!el || typeof IPP_FLAME === "undefined")
		return;
	var chart = flamegraph.default()
		.width(Math.max(600, el.clientWidth || 960))
		.cellHeight(18)
		.transitionDuration(0)
		.minFrameSize(1)
		.selfValue(false)
		.title("");
	d3.select(el).datum(IPP_FLAME).call(chart);
	el.setAttribute("data-drawn", "yes");
})();
