// The overview's charts: messages put and got per second and the total depth over the last hour, drawn with uPlot
// (vendored, loaded by the page before this module runs) from the JSON the server samples. The table beside the
// charts holds the same latest values as text; this module keeps it current too.

const root = document.getElementById("charts");
const REFRESH_MS = 10000;

function css(name, fallback) {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return value || fallback;
}

function width(element) {
  return Math.max(280, Math.floor(element.getBoundingClientRect().width) || 480);
}

function options(element, title, series) {
  const axis = { stroke: css("--fg", "#161616"), grid: { stroke: css("--line", "#c6c6c6"), width: 1 }, ticks: { stroke: css("--line", "#c6c6c6") } };
  return {
    title,
    width: width(element),
    height: 220,
    scales: { x: { time: true } },
    axes: [axis, axis],
    series: [{}, ...series],
    legend: { show: true },
  };
}

function setText(id, text) {
  const element = document.getElementById(id);
  if (element) {
    element.textContent = text;
  }
}

const charts = {};

function draw(data) {
  const time = data.time;
  const rates = [time, data.put_rate, data.get_rate];
  const depth = [time, data.depth];
  if (!window.uPlot) {
    return;
  }
  const rateArea = document.getElementById("rate-chart");
  const depthArea = document.getElementById("depth-chart");
  if (!charts.rate) {
    charts.rate = new window.uPlot(options(rateArea, "", [
      { label: "Put/s", stroke: css("--accent", "#0f62fe"), width: 2 },
      { label: "Got/s", stroke: css("--ok", "#0e6027"), width: 2, dash: [6, 3] },
    ]), rates, rateArea);
    charts.depth = new window.uPlot(options(depthArea, "", [
      { label: "Depth", stroke: css("--warn", "#8a3800"), width: 2 },
    ]), depth, depthArea);
  } else {
    charts.rate.setData(rates);
    charts.depth.setData(depth);
  }
}

function summarise(data) {
  const last = data.time.length - 1;
  setText("latest-samples", String(data.time.length));
  if (last >= 0) {
    setText("latest-put", data.put_rate[last].toFixed(1));
    setText("latest-get", data.get_rate[last].toFixed(1));
    setText("latest-at", new Date(data.time[last] * 1000).toLocaleString());
  }
  setText("latest-depth", String(data.depth_now));
  setText("total-puts", String(data.puts));
  setText("total-gets", String(data.gets));
}

let timer = 0;

// The charts stopped: say so where they are, so that a wall display never shows stale figures as current.
function stopped(text, signIn) {
  const note = document.getElementById("charts-stopped");
  if (!note) {
    return;
  }
  note.textContent = text + " ";
  if (signIn) {
    const link = document.createElement("a");
    link.href = root.dataset.login;
    link.textContent = "Sign in again";
    note.append(link);
    clearInterval(timer);
  }
  note.hidden = false;
  root.dataset.stopped = signIn ? "session" : "server";
}

async function refresh() {
  let answer;
  try {
    answer = await fetch(root.dataset.series, { credentials: "same-origin", headers: { Accept: "application/json" } });
  } catch (error) {
    stopped("The server does not answer: the charts show what it last sent, and try again every few seconds.", false);
    return;
  }
  const json = (answer.headers.get("Content-Type") || "").startsWith("application/json");
  if (answer.status === 401 || answer.status === 403 || (answer.ok && !json) || answer.redirected) {
    stopped("Your session has ended: the charts stopped at the time shown below.", true);
    return;
  }
  if (!answer.ok) {
    stopped(`The server answered ${answer.status}: the charts show what it last sent.`, false);
    return;
  }
  const data = await answer.json();
  draw(data);
  summarise(data);
  root.dataset.drawn = "true";
  const note = document.getElementById("charts-stopped");
  if (note && root.dataset.stopped === "server") {
    note.hidden = true;
    delete root.dataset.stopped;
  }
}

function start() {
  refresh();
  timer = setInterval(refresh, REFRESH_MS);
  window.addEventListener("resize", () => {
    for (const chart of Object.values(charts)) {
      chart.setSize({ width: width(chart.root.parentElement), height: 220 });
    }
  });
}

if (root) {
  if (document.readyState === "complete") {
    start();
  } else {
    window.addEventListener("load", start);
  }
}

export {};
