// PolicyRAG web page: ask (streamed progress, cited answer, clause viewer) and compare two wordings.
"use strict";

const $ = (id) => document.getElementById(id);
const escapeHtml = (text) => String(text ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));

function headers() {
  const h = { "Content-Type": "application/json" };
  const key = $("api-key").value.trim();
  if (key) h["X-API-Key"] = key;
  return h;
}

async function loadCollections() {
  try {
    const health = await (await fetch("/health")).json();
    const counts = (health.index && health.index.chunks_per_collection) || {};
    for (const [name, n] of Object.entries(counts).sort()) {
      const option = document.createElement("option");
      option.value = name;
      option.textContent = `${name} (${n} chunks)`;
      $("collection").appendChild(option);
    }
  } catch (error) {
    $("progress").textContent = "The service is not reachable.";
  }
}

// Server-sent events over a POST: parse "event:" / "data:" blocks as they arrive.
async function streamQuery(body, onEvent) {
  const response = await fetch("/query/stream", { method: "POST", headers: headers(), body: JSON.stringify(body) });
  if (!response.ok) {
    let detail = response.statusText;
    try { const payload = await response.json(); detail = payload.detail + (payload.problems ? ": " + payload.problems.join("; ") : ""); } catch (_) {}
    throw new Error(`${response.status}: ${detail}`);
  }
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

function step(text, route) {
  const span = document.createElement("span");
  span.className = "step" + (route ? ` route-${route}` : "");
  span.textContent = text;
  $("progress").appendChild(span);
}

// The answer with a citation button where each [Source N] stands.
function renderAnswer(record) {
  const answer = $("answer");
  answer.className = "answer" + (record.status === "answered" ? "" : " refusal");
  const parts = escapeHtml(record.answer).split(/(\[Source \d+\])/g);
  const bySource = Object.fromEntries((record.citations || []).map((c) => [c.source, c]));
  answer.innerHTML = parts.map((part) => {
    const match = part.match(/^\[Source (\d+)\]$/);
    if (!match) return part;
    const citation = bySource[match[1]];
    const label = citation ? escapeHtml(citation.citation) : `Source ${match[1]}`;
    return `<button type="button" class="cite" data-source="${match[1]}" title="${label}">[${label}]</button>`;
  }).join("");
  answer.querySelectorAll("button.cite").forEach((button) => {
    button.addEventListener("click", () => openClause(record, Number(button.dataset.source)));
  });
}

function renderBadges(record) {
  const trust = record.trust_grade || {};
  const route = record.initial_route && record.initial_route !== record.route ? `${record.initial_route} → ${record.route}` : record.route;
  $("badges").innerHTML = [
    `<span class="badge ${escapeHtml(record.status)}">${escapeHtml(record.status.replace("_", " "))}</span>`,
    `<span class="badge">route ${escapeHtml(route)}</span>`,
    `<span class="badge">confidence ${record.confidence == null ? "–" : Number(record.confidence).toFixed(2)}</span>`,
    `<span class="badge" title="${escapeHtml(trust.rationale)}">trust ${escapeHtml(trust.grade || "–")}</span>`,
    record.cache_hit ? `<span class="badge">cached</span>` : "",
    `<span class="badge">${escapeHtml(record.generator || "")}</span>`,
  ].join("");
}

function renderSources(record) {
  const list = $("sources");
  list.innerHTML = "";
  $("evidence-heading").textContent = record.evidence_used ? "Sources" : "Evidence found (too weak to answer from)";
  const items = record.evidence_used ? record.citations : record.evidence.map((e, i) => ({ source: i + 1, citation: e.citation, document: e.document, chunk_id: e.chunk_id }));
  for (const item of items) {
    const li = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "link";
    button.textContent = `${item.citation} — ${item.document}`;
    button.addEventListener("click", () => openClause(record, item.source, item.chunk_id));
    li.appendChild(button);
    list.appendChild(li);
  }
}

function highlight(text, sentences) {
  let html = escapeHtml(text);
  for (const sentence of sentences || []) {
    const safe = escapeHtml(sentence);
    if (safe && html.includes(safe)) html = html.replace(safe, () => `<mark>${safe}</mark>`);  // no "$&" patterns
  }
  return html;
}

function openClause(record, source, chunkId) {
  const citation = (record.citations || []).find((c) => c.source === source);
  const id = chunkId || (citation && citation.chunk_id);
  const evidence = record.evidence.find((e) => e.chunk_id === id) || record.evidence[source - 1];
  if (!evidence) return;
  $("clause-title").textContent = evidence.citation;
  const rows = [
    ["Document", evidence.document], ["Publisher", evidence.publisher], ["Jurisdiction", evidence.jurisdiction],
    ["Version", evidence.version], ["Effective from", evidence.effective_from], ["Hierarchy rank", evidence.hierarchy_rank],
    ["Page", evidence.page], ["Origin", evidence.origin], ["Confidence", evidence.confidence == null ? null : Number(evidence.confidence).toFixed(2)],
  ].filter(([, v]) => v !== null && v !== undefined && v !== "");
  // Only an http(s) address becomes a link: a "javascript:" URL from web evidence must never be clickable.
  const url = evidence.url || "";
  const link = /^https?:\/\//i.test(url) ? `<a href="${escapeHtml(url)}" rel="noopener noreferrer" target="_blank">${escapeHtml(url)}</a>` : escapeHtml(url);
  $("clause-provenance").innerHTML = rows.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join("")
    + (url ? `<dt>Source</dt><dd>${link}</dd>` : "");
  $("clause-text").innerHTML = highlight(evidence.text, evidence.highlights);
  $("clause").hidden = false;
}

async function ask(event) {
  event.preventDefault();
  const question = $("question").value.trim();
  if (!question) return;
  $("ask-button").disabled = true;
  $("progress").innerHTML = "";
  $("result").hidden = false;
  $("answer").className = "answer";
  $("answer").textContent = "";
  $("badges").innerHTML = "";
  $("sources").innerHTML = "";
  $("status-detail").textContent = "";
  const body = { question, collection: $("collection").value || null, allow_web: $("allow-web").checked };
  try {
    await streamQuery(body, (name, data) => {
      if (name === "progress") step(data.route ? `${data.node}: ${data.route}` : data.node, data.route);
      else if (name === "token") $("answer").textContent += data.text;
      else if (name === "final") {
        renderBadges(data);
        renderAnswer(data);
        renderSources(data);
        $("status-detail").textContent = data.status === "answered" ? "" : data.status_detail;
      } else if (name === "error") $("status-detail").textContent = `Error: ${data.detail}`;
    });
  } catch (error) {
    $("status-detail").textContent = `Error ${error.message}`;
  } finally {
    $("ask-button").disabled = false;
  }
}

// Compare mode: the same question against two wordings, side by side.
async function loadWordings() {
  try {
    const response = await fetch("/policies", { headers: headers() });
    if (!response.ok) return;
    const docs = (await response.json()).documents || [];
    for (const select of [$("doc-a"), $("doc-b")]) {
      select.innerHTML = docs.map((d) => `<option value="${escapeHtml(d.doc_id)}">${escapeHtml(d.title)}</option>`).join("");
    }
    if (docs.length > 1) $("doc-b").selectedIndex = 1;
  } catch (_) {}
}

function side(element, label, data) {
  const cites = (data.citations || []).map((c) => `<li>${escapeHtml(c.citation)}</li>`).join("");
  element.innerHTML = `<h3>${escapeHtml(label)}</h3><p class="answer">${escapeHtml(data.answer)}</p>`
    + `<p class="muted">${escapeHtml(data.coverage_type || "")}</p><ul>${cites}</ul>`;
}

async function compare(event) {
  event.preventDefault();
  $("compare-button").disabled = true;
  try {
    const body = { query: $("compare-question").value.trim(), document_a: $("doc-a").value, document_b: $("doc-b").value };
    const response = await fetch("/compare-policies", { method: "POST", headers: headers(), body: JSON.stringify(body) });
    const data = await response.json();
    if (!response.ok) throw new Error(data.detail || response.statusText);
    side($("side-a"), data.a.label, data.a);
    side($("side-b"), data.b.label, data.b);
    $("points").querySelector("tbody").innerHTML = data.points.map((p) => `<tr><td>${escapeHtml(p.point)}</td>`
      + `<td class="verdict-${escapeHtml(p.verdict)}">${escapeHtml(p.verdict.replace("_", " "))}</td>`
      + `<td>${p.a ? `${escapeHtml(p.a.value || "")}<br><span class="muted">${escapeHtml(p.a.citation)}</span>` : "–"}</td>`
      + `<td>${p.b ? `${escapeHtml(p.b.value || "")}<br><span class="muted">${escapeHtml(p.b.citation)}</span>` : "–"}</td></tr>`).join("");
    $("compare-result").hidden = false;
  } catch (error) {
    $("compare-result").hidden = false;
    $("side-a").textContent = `Error: ${error.message}`;
  } finally {
    $("compare-button").disabled = false;
  }
}

function setMode(mode) {
  const comparing = mode === "compare";
  $("ask-panel").hidden = comparing;
  $("compare-panel").hidden = !comparing;
  $("mode-ask").classList.toggle("active", !comparing);
  $("mode-compare").classList.toggle("active", comparing);
  $("mode-ask").setAttribute("aria-pressed", String(!comparing));
  $("mode-compare").setAttribute("aria-pressed", String(comparing));
  if (comparing && !$("doc-a").options.length) loadWordings();
}

$("api-key").value = sessionStorage.getItem("policyrag-key") || "";
$("api-key").addEventListener("change", () => sessionStorage.setItem("policyrag-key", $("api-key").value));
$("ask-form").addEventListener("submit", ask);
$("compare-form").addEventListener("submit", compare);
$("close-clause").addEventListener("click", () => { $("clause").hidden = true; });
$("mode-ask").addEventListener("click", () => setMode("ask"));
$("mode-compare").addEventListener("click", () => setMode("compare"));
loadCollections();
