// The phone page. Everything that comes from the assistant is shown with textContent,
// never innerHTML: transcripts and model replies are untrusted text.
"use strict";

const $ = (id) => document.getElementById(id);
const MAX_EVENTS = 120;
const MAX_REPLIES = 6;
// how long a new question's buttons ignore taps (browsers guard their own prompts the same way)
const ARM_MS = 600;
// colour of an event in the list, by what it says about the agent or command
const KIND = {
  COMMAND_RECEIVED: "info", PLAN_READY: "info", AGENT_SPAWNED: "running", AGENT_STARTED: "running",
  AGENT_RETRY: "warn", AGENT_VERIFIED: "ok", AGENT_DONE: "ok", AGENT_FAILED: "bad", AGENT_EXPIRED: "bad",
  SAFETY_REFUSED: "bad", COMMAND_REJECTED: "bad", PLANNER_FAULT: "warn", SPEAK_START: "info",
  RECOVERY_STARTED: "warn", RECOVERY_DONE: "info", REMOTE_BANNED: "bad",
  CONFIRM_REQUESTED: "warn", CONFIRM_ANSWERED: "info",
  TIMER_SET: "info", TIMER_FIRED: "warn", TIMER_CANCELLED: "info",
};
// an alert older than this (replayed when the page connects) goes to the replies, not the banner
const ALERT_FRESH_MS = 60000;
// what the phone says when a question ends, by how it ended
const ENDED = {
  yes: (by) => `Answered yes${by}.`,
  no: (by) => `Answered no${by}: nothing ran.`,
  timeout: () => "No answer in time, so nothing ran.",
  nobody: () => "Nobody could answer, so nothing ran.",
  stopped: () => "Stopped.",
  replaced: (by) => `A new command came instead${by}: nothing ran.`,
};
// noisy events the phone does not list
// (VOICE_HEARD is listed: the assistant only sends phrases said to it, never the room's chatter)
const HIDDEN = new Set(["SPEAK_END", "REMOTE_VIEWERS", "SPECULATION_MISS"]);
// the wake gate's decisions as the orb words them (anovax/orb/heardline.py)
const HEARD_ACTIONS = new Map([["command", "command"], ["wake", "awake"], ["sleep", "asleep"],
  ["barge_in", "stop speaking"]]);

let source = null;
let lastId = 0;
let screenOn = true;
let paired = false;
// the question a held plan waits on (null: none). Its countdown runs on the server's clock:
// a phone's own clock may be minutes off, so the page keeps the offset from GET /api/state.
let question = null;
let clockOffsetMs = 0;
let countdown = null;
// the pending timers and reminders by id: {name, due} (due: seconds since the epoch, server clock)
const timers = new Map();
let timerTick = null;

function setStatus(state, text) {
  const el = $("status");
  el.dataset.state = state;
  el.textContent = text;
}

function showUnpaired(why) {
  paired = false;
  if (source) { source.close(); source = null; }
  if (question) hideQuestion(question.question_id);  // an unpaired page can answer nothing
  $("screen").removeAttribute("src");
  $("remote").hidden = true;
  $("unpaired").hidden = false;
  if (why) $("unpaired-why").textContent = why;
  setStatus("unpaired", "not paired");
}

function shortParams(params) {
  if (!params) return "";
  for (const key of ["name", "text", "query", "address", "keys", "goal", "seconds"]) {
    if (key in params) return String(params[key]).replace(/^https?:\/\//i, "").slice(0, 40);
  }
  return "";
}

// 'heard "open notepad" → command': the words and what the wake gate did with them
function heardLine(data) {
  let words = String(data.heard || data.text || "").split(/\s+/).join(" ").trim();
  if (words.length > 48) words = words.slice(0, 47) + "…";
  const action = String(data.action || ""), reason = String(data.reason || "");
  let what = HEARD_ACTIONS.get(action);
  if (!what && action === "answer") what = `answered ${data.text || "?"}`;
  if (!what && action === "drop") what = reason ? `dropped: ${reason}` : "dropped";
  return `heard "${words}" → ${what || reason || action || "?"}`;
}

function describe(ev) {
  const data = ev.data || {};
  if (ev.type === "VOICE_HEARD") return heardLine(data);
  if (ev.type === "COMMAND_RECEIVED") return data.text || "";
  if (ev.type === "COMMAND_DONE") return data.message || data.status || "";
  if (ev.type === "SPEAK_START") return data.text || "";
  if (ev.type === "CONFIRM_REQUESTED") return data.question || "";
  if (ev.type.startsWith("TIMER_")) return data.message || data.name || "";
  if (ev.type === "CONFIRM_ANSWERED") return [data.answer, data.frontend].filter(Boolean).join(" · ");
  if (ev.error) return [ev.tool, ev.error].filter(Boolean).join(": ");
  return [ev.tool, shortParams(ev.params)].filter(Boolean).join(" ");
}

// a stop is the user's own choice: neither the command nor its agents are shown as errors;
// nor is a request nothing was done for ("not_done": its reply says why)
function kindOf(ev) {
  const data = ev.data || {};
  if (ev.type === "COMMAND_DONE") return ["done", "planned", "stopped", "not_done"].includes(data.status) ? "" : "bad";
  if (ev.type === "AGENT_FAILED" && data.code === "stopped") return "";
  return KIND[ev.type] || "";
}

function addEvent(ev) {
  if (HIDDEN.has(ev.type)) return;
  if (ev.type === "COMMAND_DONE" && ev.data && ev.data.status === "stopped") {
    // the person stopped this command: what failed on the way there is not an error
    for (const li of document.querySelectorAll("#events li.bad")) {
      if (li.dataset.command === ev.command_id) li.classList.remove("bad");
    }
  }
  const li = document.createElement("li");
  li.className = kindOf(ev);
  li.dataset.type = ev.type;
  if (ev.command_id) li.dataset.command = ev.command_id;
  const type = document.createElement("span");
  type.className = "type";
  type.textContent = ev.type;
  const detail = document.createElement("span");
  detail.className = "detail";
  detail.textContent = describe(ev);
  li.append(type, detail);
  const list = $("events");
  list.prepend(li);
  while (list.children.length > MAX_EVENTS) list.lastElementChild.remove();
}

function addReply(text) {
  if (!text) return;
  const li = document.createElement("li");
  li.textContent = text;
  const list = $("replies");
  list.prepend(li);
  while (list.children.length > MAX_REPLIES) list.lastElementChild.remove();
}

function serverNow() { return Date.now() + clockOffsetMs; }

function showQuestion(q) {
  if (!q || typeof q.question_id !== "string") return;
  if (Number(q.expires_ts) * 1000 <= serverNow()) return;  // replayed, and already over
  if (question && question.question_id === q.question_id) return;
  question = q;
  $("confirm-question").textContent = q.question || "";
  $("confirm-target").textContent = q.target || "the active window";
  const steps = $("confirm-steps");
  steps.replaceChildren();
  for (const step of q.steps || []) {
    const li = document.createElement("li");
    li.textContent = [step.tool, shortParams(step.params)].filter(Boolean).join(" ");
    steps.append(li);
  }
  // the card appears above everything and pushes the page down: a tap meant for what was there
  // a moment ago must not land on Yes, so the buttons only take taps once they have been seen
  $("confirm-yes").disabled = $("confirm-no").disabled = true;
  setTimeout(() => {
    if (question === q) $("confirm-yes").disabled = $("confirm-no").disabled = false;
  }, ARM_MS);
  $("confirm-note").textContent = "";
  $("confirm").hidden = false;
  clearInterval(countdown);
  countdown = setInterval(tick, 250);
  tick();
}

function hideQuestion(questionId, note) {
  if (!question || question.question_id !== questionId) return;
  question = null;
  clearInterval(countdown);
  countdown = null;
  $("confirm").hidden = true;
  if (note) $("confirm-note").textContent = note;
}

function tick() {
  if (!question) return;
  const left = Math.max(0, Math.ceil((Number(question.expires_ts) * 1000 - serverNow()) / 1000));
  $("confirm-countdown").textContent = `${left} s left`;
  if (left <= 0) hideQuestion(question.question_id, ENDED.timeout());
}

async function answer(yes) {
  if (!question) return;
  const id = question.question_id;
  $("confirm-yes").disabled = $("confirm-no").disabled = true;  // one tap is one answer
  let response;
  try {
    response = await fetch("/api/confirm", {
      method: "POST", credentials: "same-origin", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ question_id: id, answer: yes ? "yes" : "no" }),
    });
  } catch (_) {
    $("confirm-note").textContent = "Could not reach AnovaX: try again.";
    $("confirm-yes").disabled = $("confirm-no").disabled = false;
    return;
  }
  let body = {};
  try { body = await response.json(); } catch (_) { /* keep {} */ }
  if (response.status === 401) { showUnpaired(); return; }
  // 404/409: the question is over (answered elsewhere, timed out); the page stops offering it
  hideQuestion(id, response.ok ? body.message : (body.error || `Refused (${response.status}).`));
}

function onConfirmEvent(ev) {
  const data = ev.data || {};
  if (ev.type === "CONFIRM_REQUESTED" && (data.frontends || []).length) showQuestion(data);
  if (ev.type === "CONFIRM_ANSWERED") {
    const by = data.frontend ? ` on the ${data.frontend}` : "";
    hideQuestion(data.question_id, (ENDED[data.answer] || ENDED.stopped)(by));
  }
}

function leftText(seconds) {
  const h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
  const two = (n) => String(n).padStart(2, "0");
  return h ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}

function renderTimers() {
  const list = $("timer-list");
  list.replaceChildren();
  for (const [id, t] of [...timers.entries()].sort((a, b) => a[1].due - b[1].due)) {
    const li = document.createElement("li");
    li.dataset.timer = id;
    const left = Math.min(t.due - serverNow() / 1000, Number.isFinite(t.set) ? t.due - t.set : Infinity);
    li.textContent = `${t.name} · ${leftText(Math.max(0, Math.ceil(left)))}`;
    list.append(li);
  }
  $("timers").hidden = !timers.size && $("timer-alert").hidden;
  if (timers.size && !timerTick) timerTick = setInterval(renderTimers, 1000);
  if (!timers.size && timerTick) { clearInterval(timerTick); timerTick = null; }
}

function onTimerEvent(ev) {
  const data = ev.data || {};
  if (!ev.type.startsWith("TIMER_") || typeof data.timer_id !== "string") return;
  // `set`: the server's time when it said so. The page's estimate of the server clock can lag by
  // a moment, and a 10-minute timer must never show 10:01
  if (ev.type === "TIMER_SET") {
    timers.set(data.timer_id, { name: String(data.name || "timer"), due: Number(data.due), set: Number(ev.ts) });
  }
  else timers.delete(data.timer_id);
  if (ev.type === "TIMER_FIRED") {
    addReply(data.message);
    if (serverNow() - Number(ev.ts) * 1000 < ALERT_FRESH_MS) {
      $("timer-alert").textContent = data.message || "A timer finished.";
      $("timer-alert").hidden = false;
      if (navigator.vibrate) navigator.vibrate([300, 150, 300]);
    }
  }
  renderTimers();
}

function onEvent(message) {
  let ev;
  try { ev = JSON.parse(message.data); } catch (_) { return; }
  lastId = Math.max(lastId, Number(message.lastEventId) || 0);
  addEvent(ev);
  onConfirmEvent(ev);
  onTimerEvent(ev);
  if (ev.type === "COMMAND_DONE" && ev.data) addReply(ev.data.message);
  if (ev.type === "REMOTE_VIEWERS" && ev.data) $("screen-note").textContent = `${ev.data.viewers} watching`;
}

function connectEvents() {
  if (source) source.close();
  // a new EventSource does not carry the old one's Last-Event-ID: pass it along
  source = new EventSource(lastId ? `/api/events?last_event_id=${lastId}` : "/api/events");
  source.onopen = () => setStatus("live", "live");
  source.onmessage = onEvent;
  source.addEventListener("reconnect", () => connectEvents());
  source.onerror = () => {
    if (source && source.readyState === EventSource.CLOSED) {
      source = null;
      checkPaired().then((ok) => { if (ok && !document.hidden) setTimeout(connectEvents, 2000); });
    } else {
      setStatus("connecting", "reconnecting…");
    }
  };
}

// The open event stream is what tells AnovaX that this phone can be asked (remote/confirm.py):
// a hidden page (screen off, another app) lets go of it, so no question waits for a phone
// nobody is looking at; coming back replays what was missed and shows a question still open.
function updateEvents() {
  if (!paired) return;
  if (document.hidden && source) {
    source.close();
    source = null;
    setStatus("connecting", "paused");
  } else if (!document.hidden && !source) {
    checkPaired().then((ok) => { if (ok && paired && !document.hidden && !source) connectEvents(); });
  }
}

function updateScreen() {
  const img = $("screen");
  const want = paired && screenOn && !document.hidden;
  if (want && !img.getAttribute("src")) img.src = `/api/screen?t=${Date.now()}`;
  if (!want && img.getAttribute("src")) img.removeAttribute("src");  // stops the capture when nobody watches
  $("screen-toggle").textContent = screenOn ? "Pause screen" : "Show screen";
}

async function checkPaired() {
  let response;
  try {
    response = await fetch("/api/state", { credentials: "same-origin" });
  } catch (_) {
    setStatus("connecting", "offline");
    return false;
  }
  if (response.status === 401) { showUnpaired(); return false; }
  if (response.status === 403) {
    showUnpaired("This device was locked out after failed attempts. Unban it on the desktop.");
    setStatus("blocked", "blocked");
    return false;
  }
  if (!response.ok) { setStatus("connecting", `error ${response.status}`); return false; }
  let info = null;
  try { info = await response.json(); } catch (_) { /* an old server: no questions */ }
  const confirm = info && info.confirm;
  if (confirm) {
    clockOffsetMs = Number(confirm.server_time) * 1000 - Date.now();
    if (confirm.can_answer && confirm.pending) showQuestion(confirm.pending);
  }
  return true;
}

async function send(text) {
  text = text.trim();
  if (!text) return;
  const note = $("command-note");
  note.textContent = `Sending “${text}”…`;
  let response;
  try {
    response = await fetch("/api/command", {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json" }, body: JSON.stringify({ text }),
    });
  } catch (_) {
    note.textContent = "Could not reach AnovaX.";
    return;
  }
  let body = {};
  try { body = await response.json(); } catch (_) { /* keep {} */ }
  if (response.status === 202) note.textContent = `Queued: “${text}”`;
  else if (response.status === 200) note.textContent = body.message || "Done.";
  else if (response.status === 401) showUnpaired();
  else note.textContent = body.message || body.error || `Refused (${response.status}).`;
}

async function start() {
  for (const button of document.querySelectorAll("[data-command]")) {
    button.addEventListener("click", () => send(button.dataset.command));
  }
  $("command-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const input = $("command-text");
    send(input.value);
    input.value = "";
  });
  $("confirm-yes").addEventListener("click", () => answer(true));
  $("confirm-no").addEventListener("click", () => answer(false));
  $("screen-toggle").addEventListener("click", () => { screenOn = !screenOn; updateScreen(); });
  $("timer-alert").addEventListener("click", () => { $("timer-alert").hidden = true; renderTimers(); });
  document.addEventListener("visibilitychange", () => { updateScreen(); updateEvents(); });
  if (!(await checkPaired())) return;
  paired = true;
  $("unpaired").hidden = true;
  $("remote").hidden = false;
  if (!document.hidden) connectEvents();
  updateScreen();
}

start();
