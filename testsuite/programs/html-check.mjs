// html-check.mjs PAGE SCREENSHOT EXPECTED-FRAMES -- loads an `ipp html`
// page in headless Chromium (Debian's /usr/bin/chromium, driven by
// playwright-core) and checks what a reader sees, for html.sh:
//   - the page and every script load without a console error or an
//     uncaught exception, and no request fails;
//   - the hottest path (#hot-1) shows EXPECTED-FRAMES, the frames the test
//     derived from the program;
//   - d3-flame-graph drew the flame graph: an <svg> with a bar (a <g> with
//     a <title>, or a label) for each frame of the hottest path;
//   - the screenshot: written to SCREENSHOT, then read back into a canvas
//     of the page: the pixels under the flame graph's first bar must be
//     colored (not the white background), so a blank picture fails.
// Prints "ok: ..." lines, or "error: ..." and exits 1.
//
// Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
import { chromium } from "playwright-core";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [page_path, shot, expected] = process.argv.slice(2);
const fail = (msg) => { console.log("error: " + msg); process.exitCode = 1; };
const browser = await chromium.launch({
	executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
	headless: true,
	args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
	       "--disable-component-update", "--disable-sync", "--no-first-run"],
});
try {
	const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
	const page = await context.newPage();
	const problems = [];
	page.on("console", (m) => { if (m.type() === "error") problems.push("console: " + m.text()); });
	page.on("pageerror", (e) => problems.push("exception: " + e.message));
	page.on("requestfailed", (r) => problems.push("request failed: " + r.url()));
	await page.goto(pathToFileURL(page_path).href, { waitUntil: "load" });
	await page.waitForSelector("#flame[data-drawn=yes] svg", { timeout: 10000 })
		.catch(() => problems.push("the flame graph was not drawn in 10 s"));
	if (problems.length)
		fail(problems.join("; "));
	else
		console.log("ok: loaded without console errors");

	const hot = (await page.textContent("#hot-1 .frames")).replace(/\s+/g, " ").trim();
	if (hot !== expected)
		fail(`the hottest path shows "${hot}", expected "${expected}"`);
	else
		console.log(`ok: the hottest path shows ${hot}`);

	const bars = await page.$$eval("#flame svg g", (gs) => gs.map((g) => {
		const t = g.querySelector("title");
		const label = g.querySelector("div, text");
		return (t ? t.textContent : "") + " | " + (label ? label.textContent : "");
	}));
	const frames = expected.split(" → ");
	const missing = frames.filter((f) => !bars.some((b) => b.includes(f)));
	if (bars.length < 2 || missing.length)
		fail(`the flame graph has ${bars.length} bars; no bar for ${missing.join(", ")}`);
	else
		console.log(`ok: the flame graph has ${bars.length} bars, one for each frame of the hottest path`);

	await page.screenshot({ path: shot, fullPage: false });
	const box = await page.$eval("#flame svg rect", (r) => {
		const b = r.getBoundingClientRect();
		return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
	});
	const png = readFileSync(shot).toString("base64");
	const rgb = await page.evaluate(async ({ png, box }) => {
		const img = new Image();
		img.src = "data:image/png;base64," + png;
		await img.decode();
		const c = document.createElement("canvas");
		c.width = img.width;
		c.height = img.height;
		const ctx = c.getContext("2d");
		ctx.drawImage(img, 0, 0);
		return Array.from(ctx.getImageData(Math.round(box.x), Math.round(box.y), 1, 1).data);
	}, { png, box });
	if (rgb[0] > 240 && rgb[1] > 240 && rgb[2] > 240)
		fail(`the screenshot is white under the flame graph's first bar (${rgb})`);
	else
		console.log(`ok: screenshot ${shot}: the flame graph's first bar is drawn (rgb ${rgb.slice(0, 3)})`);
} finally {
	await browser.close();
}
