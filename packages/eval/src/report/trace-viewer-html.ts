import type { BBox, Trace, TraceAnswer } from '@doctree/schema';

import { escapeHtml } from './html-escape.js';
import { answerText, buildTraceView, type HitView, type PathStep, type ResolvedNode, type TraceView } from './trace-view.js';

/** A rendered PDF page with the boxes to highlight on it. */
export interface TraceViewerPage {
  /** 1-based page. */
  page: number;
  /** Page size in PDF points (the boxes' coordinate space, origin top-left). */
  widthPt: number;
  heightPt: number;
  /** The page image as a `data:image/png;base64,…` or `data:image/jpeg;base64,…` URI (anything else is dropped). */
  src: string;
  /** Boxes drawn over the page: `support` (the answer's) and `evidence` (packed evidence). */
  boxes: Array<{ bbox: BBox; nodeId: string; kind: 'support' | 'evidence' }>;
}

/** What {@link renderTraceViewerHtml} draws. */
export interface TraceViewerInput {
  trace: Trace;
  /** The final answer when the trace file does not carry it (e.g. an eval prediction's answer and supports). */
  answer?: TraceAnswer;
  /** Resolves node text and boxes the trace does not store (from the document). */
  nodeText?: (nodeId: string) => ResolvedNode | undefined;
  /** Rendered pages of the evidence, in the order shown. */
  pages?: readonly TraceViewerPage[];
  /** One line under the title (e.g. why no page is rendered). */
  note?: string;
  /** Extra lines shown with the answer (e.g. the gold answer and the score of an eval prediction). */
  facts?: ReadonlyArray<[string, string]>;
}

/** Characters of tool arguments shown per call. */
const ARGS_CHARS = 600;

const DATA_IMAGE = /^data:image\/(png|jpeg);base64,[A-Za-z0-9+/]+=*$/;

const e = escapeHtml;
const fmt = (x: number | null, digits = 2): string => (x === null ? '?' : x.toFixed(digits));
const pct = (x: number): string => `${(Math.round(x * 10000) / 100).toString()}%`;

/** Whether a page image is an inline image URI (no network, nothing else can be loaded). */
export function isInlineImage(src: string): boolean {
  return DATA_IMAGE.test(src);
}

function hitList(hits: readonly HitView[], cls = 'hits'): string {
  if (hits.length === 0) return '';
  const rows = hits.map((h) => `<li data-node="${e(h.nodeId)}" data-page="${h.page}"><span class="id">${e(h.nodeId)}</span> <span class="pg">p.${h.page}</span> <span class="sc">${fmt(h.score, 3)}</span>${h.text !== null ? ` <span class="tx">${e(h.text)}</span>` : ''}</li>`);
  return `<ol class="${cls}">${rows.join('')}</ol>`;
}

function argsText(args: Record<string, unknown>): string {
  let text = JSON.stringify(args, null, 1) ?? '{}';
  if (text.length > ARGS_CHARS) text = `${text.slice(0, ARGS_CHARS - 1)}…`;
  return text;
}

function pathStep(step: PathStep): string {
  const attempt = step.attempt > 0 ? ` <span class="att">attempt ${step.attempt}</span>` : '';
  const time = `<span class="t">${step.tMs.toFixed(0)} ms</span>`;
  if (step.call) {
    const c = step.call;
    return `<li class="step call ${c.status}"><details${c.status === 'error' || c.hits.length > 0 ? ' open' : ''}><summary><span class="kind">tool</span> ${c.index}. <b>${e(c.toolId)}</b> <span class="st">${c.status}</span> · ${c.nHits} hit(s) · ${c.latencyMs.toFixed(1)} ms${attempt} ${time}</summary><pre class="args">${e(argsText(c.args))}</pre>${c.error ? `<p class="err">${e(c.error)}</p>` : ''}${hitList(c.hits)}</details></li>`;
  }
  const hits = step.hits && step.hits.length > 0 ? `<details><summary>${step.hits.length} node(s)</summary>${hitList(step.hits)}</details>` : '';
  return `<li class="step ${e(step.kind)}"><span class="kind">${e(step.kind)}</span> ${e(step.title)}${attempt} ${time}${hits}</li>`;
}

function pageFigure(page: TraceViewerPage): string {
  const boxes = page.boxes
    .filter((b) => b.bbox[2] > b.bbox[0] && b.bbox[3] > b.bbox[1])
    .map((b) => {
      const [x0, y0, x1, y1] = b.bbox.map((v, i) => Math.min(Math.max(v, 0), i % 2 === 0 ? page.widthPt : page.heightPt)) as [number, number, number, number];
      return `<div class="box ${b.kind}" data-node="${e(b.nodeId)}" title="${e(`${b.kind} ${b.nodeId}`)}" style="left:${pct(x0 / page.widthPt)};top:${pct(y0 / page.heightPt)};width:${pct((x1 - x0) / page.widthPt)};height:${pct((y1 - y0) / page.heightPt)}"></div>`;
    });
  return `<figure class="page" id="page-${page.page}"><div class="sheet"><img alt="page ${page.page}" src="${e(page.src)}">${boxes.join('')}</div><figcaption>page ${page.page} · ${page.boxes.filter((b) => b.kind === 'support').length} supporting box(es), ${page.boxes.filter((b) => b.kind === 'evidence').length} evidence box(es)</figcaption></figure>`;
}

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1d2330;background:#f5f6f8}
header{background:#1d2b45;color:#fff;padding:14px 24px}header h1{font-size:18px;margin:0 0 4px}header p{margin:2px 0;opacity:.85}
main{display:grid;grid-template-columns:minmax(420px,1fr) minmax(360px,1fr);gap:18px;padding:18px 24px}
section{background:#fff;border:1px solid #dde1e8;border-radius:6px;padding:12px 16px;margin-bottom:14px}
h2{font-size:15px;margin:0 0 8px}table{border-collapse:collapse}td,th{padding:2px 8px 2px 0;text-align:left;vertical-align:top}
.answer{font-size:18px;font-weight:600}.muted{color:#687083}ol.steps{padding-left:18px}ol.steps li{margin:4px 0}
.kind{display:inline-block;min-width:58px;font-size:11px;text-transform:uppercase;color:#5a6477}
.call .st{color:#1a7f37}.call.error .st,.err{color:#c62828}.att{background:#fff3cd;padding:0 4px;border-radius:3px;font-size:12px}
.t{color:#9aa1ad;font-size:12px}pre.args{background:#f3f4f7;padding:6px;white-space:pre-wrap;word-break:break-all;max-height:180px;overflow:auto;font-size:12px}
ol.hits{font-size:13px;padding-left:22px}ol.hits li{margin:2px 0}.id{font-family:monospace;color:#33509a}.pg{color:#687083}.sc{color:#9aa1ad;font-size:12px}.tx{color:#2d3340}
ol.evidence li,ol.support li{cursor:pointer}li.active{background:#fff3cd}
.page{margin:0 0 16px}.sheet{position:relative;display:block;width:100%;border:1px solid #c9ced8;background:#fff}.sheet img{display:block;width:100%;height:auto}
.box{position:absolute;box-sizing:border-box;pointer-events:none}.box.evidence{border:2px solid rgba(37,99,235,.8);background:rgba(37,99,235,.10)}
.box.support{border:3px solid rgba(220,38,38,.95);background:rgba(250,204,21,.25)}.box.flash{outline:4px solid #f59e0b}
figcaption{font-size:12px;color:#687083;margin-top:4px}
`;

/** Clicking an evidence or support line flashes its box on the rendered page (ids are compared as strings, never parsed). */
const SCRIPT = `
document.addEventListener('click',function(ev){var li=ev.target&&ev.target.closest?ev.target.closest('li[data-node]'):null;if(!li)return;
var id=li.getAttribute('data-node');document.querySelectorAll('li.active').forEach(function(x){x.classList.remove('active')});li.classList.add('active');
var hit=null;document.querySelectorAll('.box').forEach(function(b){var on=b.getAttribute('data-node')===id;b.classList.toggle('flash',on);if(on&&!hit)hit=b});
if(hit)hit.scrollIntoView({block:'center',behavior:'smooth'});});
`;

/**
 * One self-contained HTML page (no network, no external assets: inline CSS and JS, page images as `data:` URIs) showing
 * a trace: the question and final answer, the route, the plan as steps, every tool call with its arguments and hits,
 * the evidence with its snippets, the reader, judger and replans, and the PDF pages of the evidence with the
 * supporting boxes highlighted. Every text of the document, question and trace is HTML-escaped.
 *
 * @example
 * ```ts
 * await writeFile('trace.html', renderTraceViewerHtml({ trace, pages }));
 * ```
 */
export function renderTraceViewerHtml(input: TraceViewerInput): string {
  const trace: Trace = input.answer && !input.trace.answer ? { ...input.trace, answer: input.answer } : input.trace;
  const view: TraceView = buildTraceView(trace, input.nodeText ? { nodeText: input.nodeText } : {});
  const f = view.final;
  const facts: Array<[string, string]> = [
    ['confidence', f.confidence === null ? '?' : `${fmt(f.confidence)}${f.format === 'None' ? ' (that the document does not answer this)' : ' (probability the answer is right)'}`],
    ['pages', f.pages.join(', ') || '-'],
    ...(f.abstentionReason ? ([['declined', f.abstentionReason]] as Array<[string, string]>) : []),
    ...(input.facts ?? []),
  ];
  const answerSection = `<section id="answer"><h2>Answer</h2><p class="answer">${e(f.answer || '(none)')}${f.format ? ` <span class="muted">(${e(f.format)})</span>` : ''}${f.display && f.display !== f.answer ? ` — ${e(f.display)}` : ''}</p>
<table>${facts.map(([k, v]) => `<tr><th>${e(k)}</th><td>${e(v)}</td></tr>`).join('')}</table>
${f.support.length > 0 ? `<h2>Support</h2>${hitList(f.support, 'support')}` : ''}</section>`;
  const r = view.route;
  const routeSection = r
    ? `<section id="route"><h2>Route</h2><p><b>${e(r.queryType)}</b> by ${e(r.source)}${r.confidence !== null ? `, confidence ${fmt(r.confidence)}` : ''}${r.domainPack ? ` · domain pack ${e(r.domainPack)}` : ''}</p>
<table>${[...r.signals, ...r.analysis.map(([k, v]) => [`analysis ${k}`, v] as [string, string]), ...(r.risk ? [['risk', r.risk] as [string, string]] : []), ['candidates', r.candidates.map((c) => `${c.type} ${fmt(c.score)}`).join(', ')] as [string, string]].map(([k, v]) => `<tr><th>${e(k)}</th><td>${e(v)}</td></tr>`).join('')}</table></section>`
    : '';
  const planSection = view.plans.length
    ? `<section id="plan"><h2>Plan</h2>${view.plans
        .map((p) => `<p>${p.attempt > 0 ? `<span class="att">attempt ${p.attempt}</span> ` : ''}<b>${e(p.template)}</b> by ${e(p.planner)}</p><ol class="plan">${[...p.stages.map((s) => `<li>stage <b>${e(s)}</b></li>`), ...p.steps.map((s) => `<li>step <b>${e(s)}</b></li>`)].join('')}</ol>`)
        .join('')}</section>`
    : '';
  const ev = view.evidence;
  const evidenceSection = ev
    ? `<section id="evidence"><h2>Evidence pack</h2><p class="muted">${ev.items.length} item(s) · ${ev.totalTokens ?? '?'} of ${ev.budgetTokens ?? '?'} tokens · coverage ${fmt(ev.coverage)}${ev.needsMissing.length ? ` · missing ${e(ev.needsMissing.join(', '))}` : ''}</p>${hitList(ev.items, 'evidence')}</section>`
    : '';
  const judgeSection = `<section id="reader"><h2>Reader and judger</h2><ul>${view.reads.map((x) => `<li>${x.attempt > 0 ? `<span class="att">attempt ${x.attempt}</span> ` : ''}read: ${e(x.message)}${x.notes.length ? `<ul>${x.notes.map((n) => `<li class="muted">${e(n)}</li>`).join('')}</ul>` : ''}</li>`).join('')}${view.verdicts.map((v) => `<li>${v.attempt > 0 ? `<span class="att">attempt ${v.attempt}</span> ` : ''}judge ${e(v.judge)}: ${e(v.message)}</li>`).join('')}${view.replanSteps.map((x) => `<li><span class="att">replan</span> ${e(x.message)}${x.reason ? ` <span class="muted">(${e(x.reason)})</span>` : ''}</li>`).join('')}${view.warnings.map((w) => `<li class="err">${e(w)}</li>`).join('')}</ul></section>`;
  const pathSection = `<section id="path"><h2>Path (${view.path.length} steps, ${view.path.filter((s) => s.call).length} tool calls)</h2><ol class="steps">${view.path.map(pathStep).join('')}</ol></section>`;
  const pages = (input.pages ?? []).filter((p) => isInlineImage(p.src) && p.widthPt > 0 && p.heightPt > 0);
  const pagesSection = `<section id="pages"><h2>Pages</h2>${pages.length > 0 ? pages.map(pageFigure).join('') : `<p class="muted">${e(input.note ?? 'No page rendered (run `doctree trace <trace.json> --html out.html --doc <doc_dir|file.pdf>`).')}</p>`}</section>`;
  const llm = view.mode === 'offline' ? 'offline' : `llm ${view.llm.calls} call(s), ${view.llm.prompt_tokens} + ${view.llm.completion_tokens} tokens`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>DocTree trace: ${e(view.question.slice(0, 120))}</title>
<style>${STYLE}</style></head>
<body><header><h1>${e(view.question)}</h1><p>document ${e(view.docId)} · ${e(view.startedAt)} · ${e(llm)} · ${view.replans} replan(s) · trace ${e(view.traceId)}</p>${input.note && pages.length > 0 ? `<p>${e(input.note)}</p>` : ''}</header>
<main><div>${answerSection}${routeSection}${planSection}${pathSection}</div><div>${pagesSection}${evidenceSection}${judgeSection}</div></main>
<script>${SCRIPT}</script></body></html>
`;
}

/** The answer of a trace as one line (`204.9 (Float)`), for links and summaries. */
export function traceAnswerLine(answer: TraceAnswer): string {
  return `${answerText(answer.answer)} (${answer.answer_format})`;
}
