// PolicyRAG web page: ask (progress in words, the answer first with numbered sources, the clause beside it) and
// compare two policy wordings. No dependencies; text from the server only ever goes in as text, never as HTML.
"use strict";

const $ = (id) => document.getElementById(id);
const state = { titles: {}, policies: [], opener: null, busy: false, quiet: false };

// An element with attributes and children (strings become text nodes); false, null and undefined are left out.
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined && value !== false) node.setAttribute(name, String(value));
  }
  node.append(...children.flat(Infinity).filter((child) => child !== null && child !== undefined && child !== false));
  return node;
}

function announce(text) {
  $("announcer").textContent = text;
}

// ---- Talking to the service --------------------------------------------------------------------------------

class HttpError extends Error {
  constructor(status, payload, retryAfter) {
    super(payload.detail || `HTTP ${status}`);
    this.status = status;
    this.payload = payload;
    this.retryAfter = retryAfter;
  }
}

function headers() {
  const h = { "Content-Type": "application/json" };
  const key = $("api-key").value.trim();
  if (key) h["X-API-Key"] = key;
  return h;
}

async function failure(response) {
  let payload = {};
  try { payload = await response.json(); } catch (_) { payload = { detail: response.statusText }; }
  return new HttpError(response.status, payload, response.headers.get("Retry-After"));
}

async function request(url, body) {
  const post = body === undefined ? {} : { method: "POST", body: JSON.stringify(body) };
  const response = await fetch(url, { headers: headers(), ...post });
  if (!response.ok) throw await failure(response);
  return response;
}

// Server-sent events over a POST: parse "event:" / "data:" blocks as they arrive.
async function streamQuery(body, onEvent) {
  const response = await request("/query/stream", body);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const dispatch = (block) => {
    let event = "message";
    const data = [];
    for (const line of block.split("\n")) {
      if (line.startsWith("event:")) event = line.slice(6).trim();
      else if (line.startsWith("data:")) data.push(line.slice(line.startsWith("data: ") ? 6 : 5));
    }
    if (data.length) onEvent(event, JSON.parse(data.join("\n")));
  };
  for (;;) {
    const { value, done } = await reader.read();
    // Normalise line ends on the whole buffer: a "\r\n" may be split across two reads.
    buffer = (buffer + decoder.decode(value, { stream: !done })).replace(/\r\n/g, "\n");
    let cut;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      dispatch(block);
    }
    if (done) break;
  }
  if (buffer.trim()) dispatch(buffer);  // a last event without its blank line
}

// ---- Errors: a banner with Retry ------------------------------------------------------------------------------

function describe(error) {
  if (!(error instanceof HttpError)) {
    return error instanceof TypeError
      ? "Could not reach the PolicyRAG service. Check your connection or that the service is running, then retry."
      : `The answer stopped part-way: ${error.message}`;
  }
  const { status, payload } = error;
  if (status === 401) {
    showKeyField();
    return "This server needs an API key. Enter it under Settings, then retry.";
  }
  if (status === 403) return "Your API key is not allowed to do this.";
  if (status === 429) return `Too many questions for now. Try again in ${error.retryAfter || "a few"} seconds.`;
  if (status === 422) return `The question could not be sent: ${(payload.problems || [payload.detail]).join("; ")}.`;
  if (status === 503) return "The document index is not available right now. Try again shortly.";
  if (status >= 500) return `The service had a problem${payload.reference ? ` (reference ${payload.reference})` : ""}.`;
  return payload.detail || `The service answered ${status}.`;
}

// The message in a banner; with `retry`, a Retry button that runs it again.
function showError(message, retry) {
  const button = retry ? el("button", { type: "button", id: "retry" }, "Retry") : null;
  if (button) button.addEventListener("click", () => { clearError(); retry(); });
  $("error-banner").replaceChildren(el("p", {}, message), button);
}

function clearError() {
  $("error-banner").replaceChildren();
}

function showKeyField() {
  $("key-field").hidden = false;
  $("settings").open = true;
}

function fieldError(id, message) {
  const field = $(id);
  const error = $(`${id === "question" ? "question" : "compare"}-error`);
  error.textContent = message;
  error.hidden = !message;
  if (message) {
    field.setAttribute("aria-invalid", "true");
    field.focus();
  } else {
    field.removeAttribute("aria-invalid");
  }
  return !message;
}

// ---- Start-up: collections by their titles, whether a key is needed ---------------------------------------

async function loadConfig() {
  try {
    const [health, listed] = await Promise.all([
      request("/health").then((r) => r.json()),
      request("/collections").then((r) => r.json()),
    ]);
    if (health.anonymous_read === false) showKeyField();
    const select = $("collection");
    select.replaceChildren(select.options[0]);
    for (const { name, title } of listed.collections) {
      state.titles[name] = title;
      select.append(el("option", { value: name }, title));
    }
  } catch (error) {
    showError(describe(error), loadConfig);
  }
}

// ---- Reading an answer: sentences, lists, citations -----------------------------------------------------------

const MARKER = /\s*\[Sources?\s+(\d+(?:\s*(?:,|;|&|and)\s*(?:Sources?\s+)?\d+)*)\]/gi;
const SENTENCE_END = /(?<=[.!?])\s+(?=[A-Z"“‘(])/;
const LIST_LINE = /^\s*(?:[-*•]|\d{1,2}[.)])\s+/;
const POINT_SPLIT = /;\s*(?:and\s+|or\s+)?(?=\((?:[a-z]|\d{1,2}|[ivx]{1,4})\)\s)/;
const STOP_WORDS = new Set(
  "a an and are as at be by for from has have in is it its of on or that the this to was were which with".split(" "));

const sourcesIn = (text) => [...text.matchAll(MARKER)].flatMap((m) => m[1].match(/\d+/g).map(Number));
const withoutMarkers = (text) => text.replace(MARKER, "").trim();
const sentences = (text) => text.split(SENTENCE_END).map((s) => s.trim()).filter(Boolean);

// The source numbers in the order the answer first cites them (shown as 1, 2, 3 ...).
function citationOrder(answer) {
  return [...new Set(sourcesIn(answer))];
}

// "… must: (a) x; (b) y; (c) z. Then more." -> the lead-in, the points and what follows them; null if no list.
function splitPoints(text) {
  const start = text.search(/\((?:a|1|i)\)\s/);
  if (start < 0) return null;
  const points = text.slice(start).split(POINT_SPLIT);
  if (points.length < 2) return null;
  const [last, ...after] = points.pop().split(SENTENCE_END);
  return { lead: text.slice(0, start).trim(), items: [...points, last], after: after.join(" ") };
}

// The answer as blocks: paragraphs and lists (lines starting "- " or "1. ", or "(a) …; (b) …" inside a sentence).
function blocks(answer) {
  const out = [];
  for (const line of answer.split(/\n+/).map((l) => l.trim()).filter(Boolean)) {
    const previous = out[out.length - 1];
    if (LIST_LINE.test(line)) {
      const item = line.replace(LIST_LINE, "");
      if (previous && previous.type === "list" && !previous.points) previous.items.push(item);
      else out.push({ type: "list", items: [item] });
      continue;
    }
    const split = splitPoints(line);
    if (!split) { out.push({ type: "p", text: line }); continue; }
    if (split.lead) out.push({ type: "p", text: split.lead });
    out.push({ type: "list", items: split.items, points: true });
    if (split.after) out.push({ type: "p", text: split.after });
  }
  return out;
}

// Text with its [Source N] markers turned into numbered citation buttons made by `cite`.
function inline(text, cite) {
  const parts = text.split(new RegExp(MARKER.source, "i"));
  return parts.map((part, i) => (i % 2 ? part.match(/\d+/g).map((n) => cite(Number(n))) : part));
}

// Paragraphs and lists with citations; the first sentence of the answer stands out as its lead.
function renderAnswer(container, answer, cite) {
  const nodes = [];
  blocks(answer).forEach((block, i) => {
    if (block.type === "list") {
      const items = block.items.map((item) => el("li", {}, inline(item, cite)));
      nodes.push(el("ul", { class: block.points ? "points" : null }, items));
      return;
    }
    const [first, ...rest] = i === 0 ? sentences(block.text) : [block.text];
    nodes.push(el("p", { class: i === 0 ? "lead" : null }, inline(first, cite)));
    if (rest.length) nodes.push(el("p", {}, inline(rest.join(" "), cite)));
  });
  container.replaceChildren(...nodes);
}

// ---- Which sentence of a clause the answer quotes -------------------------------------------------------------

const words = (text) => new Set((text.toLowerCase().match(/[a-z0-9]+/g) || []).filter((w) => !STOP_WORDS.has(w)));

function cover(part, whole) {
  if (!part.size) return 0;
  let found = 0;
  for (const word of part) if (whole.has(word)) found += 1;
  return found / part.size;
}

// Pieces of a clause: lines, then sentences and "; (b)" points (each a substring of the text). A title line
// "Caldicott Principle 7 - The duty to share ..." is its name and its rule: an answer may quote the rule alone.
function pieces(text) {
  const [first = "", ...rest] = text.split(/\n+/);
  const lines = [...first.split(/\s[-–—]\s/), ...rest];
  const split = lines.flatMap((line) => line.split(/(?<=[.;!?])\s+(?=[A-Z(])/));
  return split.map((p) => p.trim()).filter(Boolean);
}

// The answer's sentences that cite this source, without their markers.
function citingSentences(answer, source) {
  return sentences(answer).filter((s) => sourcesIn(s).includes(source)).map(withoutMarkers);
}

const plain = (text) => text.toLowerCase().replace(/[^a-z0-9]+/g, " ").trim();

// The pieces of the clause an answer sentence quotes: those it quotes word for word when there are any (the
// offline answerer; a note that repeats the rule in other words is not what was quoted), else those it
// nearly quotes (a chat model paraphrases).
function quotedPieces(text, answerSentences) {
  const said = answerSentences.map(plain);
  const verbatim = pieces(text).filter((piece) => {
    const own = plain(piece);
    return own.split(" ").length >= 3 && said.some((sentence) => sentence.includes(own));
  });
  if (verbatim.length) return verbatim;
  const claims = answerSentences.map(words);
  const scored = pieces(text).map((piece) => {
    const own = words(piece);
    // Either the piece is (nearly) all in the sentence, or the sentence (nearly) all in the piece; a piece of
    // one or two words is too short to count as quoted on its own.
    const each = claims.map((claim) => Math.max(own.size >= 3 ? cover(own, claim) : 0, cover(claim, own)));
    const score = Math.max(0, ...each);
    return { piece, score };
  });
  const quoted = scored.filter((s) => s.score >= 0.7);
  if (quoted.length) return quoted.map((s) => s.piece);
  const best = scored.reduce((a, b) => (b.score > a.score ? b : a), { score: 0 });
  return best.score >= 0.5 ? [best.piece] : [];
}

// Ranges to mark: the quoted pieces first, then the related (supporting) sentences that do not overlap them.
function markRanges(text, quoted, related) {
  const ranges = [];
  const add = (piece, kind) => {
    const start = text.indexOf(piece);
    const end = start + piece.length;
    if (start < 0 || !piece || ranges.some((r) => start < r.end && r.start < end)) return;
    ranges.push({ start, end, kind });
  };
  quoted.forEach((piece) => add(piece, "quoted"));
  related.forEach((piece) => add(piece.trim(), "related"));
  return ranges.sort((a, b) => a.start - b.start);
}

function markedText(text, ranges) {
  const nodes = [];
  let at = 0;
  for (const { start, end, kind } of ranges) {
    nodes.push(text.slice(at, start), el("mark", { class: kind }, text.slice(start, end)));
    at = end;
  }
  nodes.push(text.slice(at));
  return nodes;
}

// ---- Sources: authority in words ----------------------------------------------------------------------------

const AUTHORITY = {
  recital: "Recital", guidance: "Guidance", record: "Patient record", commentary: "Commentary", web: "Web",
};

function authorityLabel(evidence) {
  if (evidence.authority === "binding") return evidence.document_type === "policy_wording" ? "Policy clause" : "Law";
  return AUTHORITY[evidence.authority] || "Source";
}

function evidenceFor(record, source) {
  const citation = (record.citations || []).find((c) => c.source === source);
  const id = citation && citation.chunk_id;
  return (id && record.evidence.find((e) => e.chunk_id === id)) || record.evidence[source - 1];
}

function sourceItem(number, evidence, open) {
  const button = el("button", { type: "button", class: "source-link" }, evidence.citation);
  button.addEventListener("click", () => open(button));
  const tag = authorityLabel(evidence);
  return el("li", {},
    number ? el("span", { class: "num", "aria-hidden": "true" }, `${number}`) : null,
    button,
    el("span", { class: `tag ${tag.split(" ")[0].toLowerCase()}` }, tag),
    el("span", { class: "doc" }, evidence.document));
}

// A citation button for source `source` of `record`, shown as its number in the answer's own order.
function citeMaker(record, order) {
  return (source) => {
    const evidence = evidenceFor(record, source);
    const number = order.indexOf(source) + 1;
    if (!evidence || !number) return null;
    const label = `Source ${number}: ${evidence.citation}`;
    const button = el("button", { type: "button", class: "cite", "aria-label": label }, `${number}`);
    const quoted = () => quotedPieces(evidence.text, citingSentences(record.answer, source));
    button.addEventListener("click", () => openClause(evidence, quoted(), button));
    const preview = () => showPreview(button, evidence, quoted());
    button.addEventListener("mouseenter", preview);
    button.addEventListener("focus", preview);
    button.addEventListener("mouseleave", (event) => { if (event.relatedTarget !== $("preview")) hidePreview(); });
    button.addEventListener("blur", hidePreview);
    return el("sup", {}, button);
  };
}

// ---- Preview on hover or focus ---------------------------------------------------------------------------------

// At most `limit` characters, cut between words.
function shorten(text, limit) {
  if (text.length <= limit) return text;
  return `${text.slice(0, text.lastIndexOf(" ", limit)).replace(/[,;:]$/, "")} …`;
}

function showPreview(button, evidence, quoted) {
  if (state.quiet) return;  // focus coming back from the drawer does not reopen the preview
  const preview = $("preview");
  const excerpt = shorten(quoted[0] || evidence.text, 220);
  preview.replaceChildren(el("strong", {}, `${evidence.citation} · ${authorityLabel(evidence)}`), excerpt,
    el("span", { class: "tip" }, "Select to read the whole clause"));
  preview.hidden = false;
  const box = button.getBoundingClientRect();
  const left = Math.min(box.left, document.documentElement.clientWidth - preview.offsetWidth - 8);
  // Above the citation (the text still to read is below it), below when there is no room; touching the button,
  // so the pointer can move onto the preview.
  const top = box.top - preview.offsetHeight + 1 >= 0 ? box.top - preview.offsetHeight + 1 : box.bottom - 1;
  preview.style.left = `${Math.max(8, left) + window.scrollX}px`;
  preview.style.top = `${top + window.scrollY}px`;
  button.setAttribute("aria-describedby", "preview");
}

function hidePreview() {
  $("preview").hidden = true;
  document.querySelectorAll("[aria-describedby='preview']").forEach((b) => b.removeAttribute("aria-describedby"));
}

// ---- The clause drawer ----------------------------------------------------------------------------------------

function provenanceRows(evidence) {
  const rows = [
    ["Document", evidence.document], ["Publisher", evidence.publisher], ["Jurisdiction", evidence.jurisdiction],
    ["Version", evidence.version], ["In force from", evidence.effective_from], ["Page", evidence.page],
  ]
    .filter(([, value]) => value !== null && value !== undefined && value !== "")
    .flatMap(([term, value]) => [el("dt", {}, term), el("dd", {}, `${value}`)]);
  // Only an http(s) address becomes a link: a "javascript:" URL from web evidence must never be clickable.
  const url = evidence.url || "";
  if (url) {
    const safe = /^https?:\/\//i.test(url);
    const link = safe ? el("a", { href: url, rel: "noopener noreferrer", target: "_blank" }, url) : url;
    rows.push(el("dt", {}, "Official text"), el("dd", {}, link));
  }
  return rows;
}

function openClause(evidence, quoted, opener) {
  hidePreview();
  state.opener = opener || null;
  const ranges = markRanges(evidence.text, quoted, evidence.highlights || []);
  $("clause-title").textContent = evidence.citation;
  $("clause-kind").textContent = `${authorityLabel(evidence)} · ${evidence.document || ""}`;
  $("clause-text").replaceChildren(...markedText(evidence.text, ranges));
  for (const kind of ["quoted", "related"]) $(`legend-${kind}`).hidden = !ranges.some((r) => r.kind === kind);
  $("clause-legend").hidden = !ranges.length;
  $("clause-provenance").replaceChildren(...provenanceRows(evidence));
  $("clause").hidden = false;
  document.body.classList.add("drawer-open");
  $("clause").scrollTop = 0;
  $("clause").focus();
}

function closeClause(restoreFocus = true) {
  if ($("clause").hidden) return;
  $("clause").hidden = true;
  document.body.classList.remove("drawer-open");
  if (restoreFocus && state.opener && state.opener.isConnected) {
    state.quiet = true;
    state.opener.focus();
    state.quiet = false;
  }
  state.opener = null;
}

// ---- Ask ------------------------------------------------------------------------------------------------------

const AFTER_STEP = {
  retrieve: () => "Checking the evidence…",
  grade: (step) => (step.route === "CORRECT" ? "Writing the answer…" : "No strong match yet: looking further…"),
  web_search: () => "Writing the answer…",
  generate: () => "Checking the answer against the sources…",
  requery: () => "Trying a wider search…",
  cache: () => "This was asked a moment ago: showing that answer…",
};

function setProgress(id, text) {
  $(id).textContent = text;
  $(id).hidden = !text;
}

function startWaiting(body) {
  closeClause(false);
  hidePreview();
  announce("");
  const where = body.collection ? state.titles[body.collection] || body.collection : "all the documents";
  setProgress("progress", `Searching ${where}…`);
  $("result").hidden = false;
  $("result").setAttribute("aria-busy", "true");
  $("placeholder").hidden = false;
  $("answer").replaceChildren();
  for (const id of ["reason", "support", "how", "sources-col"]) $(id).hidden = true;
  $("ask-button").disabled = true;
}

function stopWaiting() {
  setProgress("progress", "");
  $("placeholder").hidden = true;
  $("result").removeAttribute("aria-busy");
  $("ask-button").disabled = false;
}

function showPartial(text) {
  $("placeholder").hidden = true;
  $("answer").replaceChildren(el("p", { class: "partial" }, withoutMarkers(text.replace(/\[[^\]]*$/, ""))));
}

const SUPPORT = {
  high: ["Strong support", "the answer rests on the clauses listed."],
  medium: ["Some support", "read the clause before relying on it."],
  low: ["Weak support", "treat this answer with care."],
};
const ROUTES = {
  CORRECT: "strong match",
  AMBIGUOUS: "partial match, so it looked further",
  INCORRECT: "no good match, so it looked further",
};

function renderSupport(record) {
  const support = record.status === "answered" && record.trust_grade && SUPPORT[record.trust_grade.grade];
  $("support").hidden = !support;
  if (support) $("support").replaceChildren(el("strong", {}, `${support[0]}:`), ` ${support[1]}`);
}

function writer(generator) {
  if (!generator || generator === "none") return "not written: no evidence strong enough";
  if (generator === "offline-extractive") return "quoted from the sources, no chat model (offline-extractive)";
  return `chat model (${generator})`;
}

function renderHow(record) {
  const changed = record.initial_route && record.initial_route !== record.route;
  const route = changed ? `${record.initial_route} → ${record.route}` : record.route;
  const facts = [
    ["Evidence", route ? `${ROUTES[record.route] || record.route} (route ${route})` : null],
    ["Written by", writer(record.generator)],
    ["Best passage score", record.confidence == null ? null : `${Number(record.confidence).toFixed(2)} of 1`],
    ["Answer score", record.answer_confidence == null ? null
      : `${Number(record.answer_confidence).toFixed(2)} of 1 (one passage stands out and the answer quotes it)`],
    ["Trust", record.trust_grade ? `${record.trust_grade.grade}: ${record.trust_grade.rationale}` : null],
    ["From the cache", record.cache_hit ? "yes: the same question was answered a moment ago" : null],
    ["Time", record.latency_ms && record.latency_ms.total ? `${(record.latency_ms.total / 1000).toFixed(1)} s` : null],
  ].filter(([, value]) => value);
  $("how-facts").replaceChildren(...facts.flatMap(([term, value]) => [el("dt", {}, term), el("dd", {}, value)]));
  $("trace").replaceChildren(...(record.trace || []).map((line) => el("li", {}, line)));
  $("how").hidden = false;
  $("how").open = false;
}

// The cited sources, numbered in the answer's order; each opens its clause with the quoted sentence marked.
function citedItems(record, order) {
  const cited = order.map((source) => [source, evidenceFor(record, source)]).filter(([, e]) => e);
  return cited.map(([source, e], i) => sourceItem(i + 1, e, (button) =>
    openClause(e, quotedPieces(e.text, citingSentences(record.answer, source)), button)));
}

// What else the record holds, beside the cited sources: the rest of the evidence an answer was given, or, with no
// answer, the five closest weak passages (never a patient's record, and none at all for medical advice).
function otherEvidence(record, citedIds) {
  const reason = record.refusal_reason && record.refusal_reason.kind;
  if (!record.evidence_used && reason === "medical_advice") return [];
  const others = record.evidence.filter((e) => !citedIds.has(e.chunk_id));
  return record.evidence_used ? others : others.filter((e) => e.authority !== "record").slice(0, 5);
}

const MORE = {
  answered: "Also given to the answer, not cited",
  evidence_only: "Clauses found",
  weak: "Closest passages found, too weak to answer from",
};

// The sources the answer cites, numbered, then the other evidence folded (open when it is all there is to read).
function renderSources(record, order) {
  const cited = citedItems(record, order);
  const citedIds = new Set(order.map((source) => evidenceFor(record, source)).filter(Boolean).map((e) => e.chunk_id));
  const others = otherEvidence(record, citedIds);
  const kind = !record.evidence_used ? "weak" : record.status === "answered" ? "answered" : "evidence_only";
  $("sources").replaceChildren(...cited);
  $("sources").hidden = !cited.length;
  $("sources-heading").textContent = cited.length ? "Sources" : "What was found";
  $("more-list").replaceChildren(...others.map((e) => sourceItem(0, e, (button) => openClause(e, [], button))));
  $("more-summary").textContent = `${MORE[kind]} (${others.length})`;
  $("more-sources").hidden = !others.length;
  $("more-sources").open = kind === "evidence_only";
  $("sources-col").hidden = !cited.length && !others.length;
}

function renderReason(record) {
  const reason = record.refusal_reason ? record.refusal_reason.text : record.status_detail;
  $("reason").hidden = record.status === "answered" || !reason;
  $("reason").textContent = reason || "";
  return reason;
}

function renderRecord(record) {
  stopWaiting();
  const order = citationOrder(record.answer);
  renderAnswer($("answer"), record.answer, citeMaker(record, order));
  const reason = renderReason(record);
  renderSupport(record);
  renderSources(record, order);
  renderHow(record);
  const lead = withoutMarkers(sentences(record.answer)[0] || "");
  announce(record.status === "answered" ? `Answer ready. ${lead}` : `No answer. ${reason || lead}`);
}

async function runAsk(body) {
  clearError();
  startWaiting(body);
  let final = null;
  let partial = "";
  try {
    await streamQuery(body, (name, data) => {
      if (name === "progress" && AFTER_STEP[data.node]) setProgress("progress", AFTER_STEP[data.node](data));
      else if (name === "token") showPartial((partial += data.text));
      else if (name === "final") final = data;
      else if (name === "error") throw new Error(data.detail);
    });
    if (!final) throw new Error("the answer did not arrive");
    renderRecord(final);
  } catch (error) {
    stopWaiting();
    $("result").hidden = true;
    showError(describe(error), () => runAsk(body));
  }
}

async function ask(event) {
  event.preventDefault();
  const question = $("question").value.trim();
  const valid = fieldError("question", question ? "" : "Type a question first, or choose an example below.");
  if (!valid || state.busy) return;
  state.busy = true;
  try {
    await runAsk({ question, collection: $("collection").value || null, allow_web: $("allow-web").checked });
  } finally {
    state.busy = false;
  }
}

// Enter asks; Shift+Enter is a new line.
function onQuestionKey(event) {
  if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    $("ask-form").requestSubmit();
  }
}

// ---- Compare --------------------------------------------------------------------------------------------------

const COVERAGE = {
  covered: "Covered",
  not_covered: "Not covered",
  conditional: "Covered with conditions: within the limits and conditions the clause sets",
};
const capitalise = (text) => (text ? text[0].toUpperCase() + text.slice(1) : "");

// A short label that tells the two wordings apart: the variant when they share a product, else product and variant.
function shortLabel(doc) {
  const sameProduct = state.policies.every((d) => d.product === doc.product);
  const product = (doc.title || doc.doc_id).split(" - ")[0];
  return sameProduct && doc.variant ? capitalise(doc.variant) : `${product}${doc.variant ? ` (${doc.variant})` : ""}`;
}

// Neither list offers the wording already chosen in the other.
function excludeChosen() {
  for (const [self, other] of [["doc-a", "doc-b"], ["doc-b", "doc-a"]]) {
    for (const option of $(self).options) option.disabled = option.value === $(other).value;
  }
}

async function loadWordings() {
  try {
    state.policies = (await (await request("/policies")).json()).documents || [];
  } catch (error) {
    showError(describe(error), loadWordings);
    return;
  }
  for (const select of [$("doc-a"), $("doc-b")]) {
    select.replaceChildren(...state.policies.map((d) => el("option", { value: d.doc_id, title: d.title },
      `${shortLabel(d)}: ${(d.title || "").split(" - ")[0]}`)));
  }
  if (state.policies.length > 1) $("doc-b").selectedIndex = 1;
  excludeChosen();
}

const labelOf = (docId) => shortLabel(state.policies.find((d) => d.doc_id === docId) || { doc_id: docId });

// The sentences of a clause that state its values, values in bold, those about the question first.
function valueSentences(clause, question) {
  const values = (clause.values || []).filter(Boolean);
  const asked = words(question);
  const found = pieces(clause.text || "").filter((p) => values.some((v) => p.toLowerCase().includes(v.toLowerCase())));
  const ranked = found.map((p, i) => ({ p, i, hits: cover(asked, words(p)) }));
  ranked.sort((a, b) => b.hits - a.hits || a.i - b.i);
  return { shown: ranked.slice(0, 3).map((r) => r.p), more: Math.max(0, ranked.length - 3), values };
}

function withValues(text, values) {
  const pattern = new RegExp(`(${values.map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})`, "i");
  return values.length ? text.split(pattern).map((part, i) => (i % 2 ? el("strong", {}, part) : part)) : [text];
}

function clauseEvidence(side, clause) {
  return side.evidence.find((e) => e.chunk_id === clause.chunk_id)
    || { ...clause, authority: "binding", document_type: "policy_wording", highlights: [] };
}

function pointSide(label, clause, side, question) {
  if (!clause) return el("div", {}, el("p", {}, el("strong", {}, `${label}: `), "not in this wording."));
  const { shown, more, values } = valueSentences(clause, question);
  const evidence = clauseEvidence(side, clause);
  const link = el("button", { type: "button", class: "source-link" }, clause.citation);
  link.addEventListener("click", () => openClause(evidence, shown, link));
  const lines = shown.length
    ? shown.map((s) => el("p", {}, withValues(s, values)))
    : [el("p", {}, clause.value || "No value stated.")];
  return el("div", {}, el("p", {}, el("strong", {}, `${label}:`)), lines,
    more ? el("p", { class: "muted" }, `and ${more} more in the clause`) : null, el("p", {}, link));
}

function verdictLine(point, labels) {
  const text = {
    same: "Same in both", different: "Differs", only_a: `Only in ${labels.a}`, only_b: `Only in ${labels.b}`,
  }[point.verdict];
  return el("p", { class: `verdict ${point.verdict.startsWith("only") ? "only" : point.verdict}` }, text);
}

// One line: what differs, what is the same, what only one wording has.
function summaryLine(points, labels) {
  // a point compared on two clauses (a benefit's clause and its Table of Benefits line) is named once
  const names = (verdict) => [...new Set(points.filter((p) => p.verdict === verdict).map((p) => p.point))];
  const [different, same] = [names("different"), names("same")];
  const parts = [];
  if (different.length) parts.push(`${different.join(", ")} ${different.length > 1 ? "differ" : "differs"}`);
  if (same.length) parts.push(`${same.join(", ")} ${same.length > 1 ? "are" : "is"} the same`);
  for (const side of ["a", "b"]) {
    const only = names(`only_${side}`);
    if (only.length) parts.push(`only ${labels[side]} has ${only.join(", ")}`);
  }
  return parts.length ? `${capitalise(parts.join("; "))}.` : "No clause on this question was found in either wording.";
}

function renderSide(container, label, side) {
  const answer = el("div", { class: "answer" });
  const order = citationOrder(side.answer || "");
  renderAnswer(answer, side.answer || "", citeMaker(side, order));
  const coverage = COVERAGE[side.coverage_type];
  const sources = citedItems(side, order);
  container.replaceChildren(...[el("h3", {}, label), el("p", { class: "title" }, side.label), answer,
    side.status !== "answered" && side.status_detail && el("p", { class: "reason" }, side.status_detail),
    coverage && el("p", { class: "coverage" }, coverage),
    sources.length && el("ol", { class: "sources" }, sources),
  ].filter(Boolean));
}

function renderComparison(data, labels) {
  renderSide($("side-a"), labels.a, data.a);
  renderSide($("side-b"), labels.b, data.b);
  const sides = { a: data.a, b: data.b };
  $("points").replaceChildren(...data.points.map((point) => el("article", { class: "point" }, el("h4", {}, point.point),
    verdictLine(point, labels), el("div", { class: "point-sides" },
      ["a", "b"].map((s) => pointSide(labels[s], point[s], sides[s], data.question))))));
  const conditional = [data.a, data.b].some((s) => s.coverage_type === "conditional")
    || data.points.some((p) => ["a", "b"].some((s) => p[s] && p[s].coverage_type === "conditional"));
  $("conditional-note").hidden = !conditional;
  $("compare-summary").textContent = summaryLine(data.points, labels);
  $("compare-result").hidden = false;
  announce(`Comparison ready. ${$("compare-summary").textContent}`);
}

async function runCompare(body) {
  clearError();
  closeClause(false);
  announce("");
  const labels = { a: labelOf(body.document_a), b: labelOf(body.document_b) };
  const progress = `Reading the ${labels.a} and ${labels.b} wordings and comparing them point by point…`;
  setProgress("compare-progress", progress);
  $("compare-placeholder").hidden = false;
  $("compare-result").hidden = true;
  $("compare-button").disabled = true;
  try {
    renderComparison(await (await request("/compare-policies", body)).json(), labels);
  } catch (error) {
    showError(describe(error), () => runCompare(body));
  } finally {
    setProgress("compare-progress", "");
    $("compare-placeholder").hidden = true;
    $("compare-button").disabled = false;
  }
}

async function compare(event) {
  event.preventDefault();
  const query = $("compare-question").value.trim();
  if (!fieldError("compare-question", query ? "" : "Type a question about the two policies first.")) return;
  if (!$("doc-a").value || $("doc-a").value === $("doc-b").value) {
    showError("Choose two different policies to compare.");
    return;
  }
  await runCompare({ query, document_a: $("doc-a").value, document_b: $("doc-b").value });
}

// ---- Modes (tabs), keys, start-up -----------------------------------------------------------------------------

function setMode(mode) {
  for (const name of ["ask", "compare"]) {
    const selected = name === mode;
    $(`tab-${name}`).setAttribute("aria-selected", String(selected));
    $(`tab-${name}`).tabIndex = selected ? 0 : -1;
    $(`${name}-panel`).hidden = !selected;
  }
  closeClause(false);
  if (mode === "compare" && !$("doc-a").options.length) loadWordings();
}

// Arrow keys, Home and End move between the tabs (the tabs pattern of the ARIA practices).
function onTabKey(event) {
  const order = ["ask", "compare"];
  const current = order.indexOf(event.target.id.replace("tab-", ""));
  const next = { ArrowRight: current + 1, ArrowLeft: current - 1, Home: 0, End: order.length - 1 }[event.key];
  if (next === undefined) return;
  event.preventDefault();
  const mode = order[(next + order.length) % order.length];
  setMode(mode);
  $(`tab-${mode}`).focus();
}

function onKey(event) {
  if (event.key !== "Escape") return;
  if (!$("preview").hidden) hidePreview();
  else closeClause();
}

function wire() {
  $("api-key").value = sessionStorage.getItem("policyrag-key") || "";
  $("api-key").addEventListener("change", () => sessionStorage.setItem("policyrag-key", $("api-key").value));
  $("ask-form").addEventListener("submit", ask);
  $("question").addEventListener("keydown", onQuestionKey);
  $("compare-form").addEventListener("submit", compare);
  for (const select of [$("doc-a"), $("doc-b")]) select.addEventListener("change", excludeChosen);
  $("close-clause").addEventListener("click", () => closeClause());
  $("preview").addEventListener("mouseleave", hidePreview);
  document.addEventListener("keydown", onKey);
  for (const mode of ["ask", "compare"]) {
    $(`tab-${mode}`).addEventListener("click", () => setMode(mode));
    $(`tab-${mode}`).addEventListener("keydown", onTabKey);
  }
  document.querySelectorAll(".example").forEach((button) => button.addEventListener("click", () => {
    $("question").value = button.textContent;
    fieldError("question", "");
    $("question").focus();
  }));
}

wire();
loadConfig();
