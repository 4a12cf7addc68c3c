#!/usr/bin/env node
// Generates data/samples/northwind-annual-report-2023.pdf: a small, fictional annual report written by the
// project (freely redistributable, MIT like the code) with numbered headings, running headers, page numbers,
// a ruled table with a caption, a bar chart with a caption, lists and cross-references. It is the document the
// README's main command asks about, and a realistic fixture for ingest/index/agent tests.
//   node tools/samples/make-sample-report.mjs   (after `npm run setup`)
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeSimplePdf } from '../../packages/ingest/dist/index.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const out = join(root, 'data', 'samples', 'northwind-annual-report-2023.pdf');
const W = 612;
const H = 792;
const LEFT = 72;
const RIGHT = 540;

/** Greedy word wrap for Helvetica (average glyph width ≈ 0.5 em). */
function wrap(text, size, width = RIGHT - LEFT) {
  const max = Math.floor(width / (size * 0.5));
  const lines = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && (line + ' ' + word).length > max) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

const pages = [];
let page;
let y;
let pageNo = 0;
function newPage() {
  pageNo += 1;
  page = { width: W, height: H, runs: [], shapes: [] };
  pages.push(page);
  if (pageNo > 1) page.runs.push({ text: 'Northwind Instruments - Annual Report 2023', x: LEFT, y: 40, size: 8 });
  page.runs.push({ text: `Page ${pageNo} of PAGES`, x: 280, y: 760, size: 8 });
  y = pageNo > 1 ? 80 : 90;
}
function ensure(space) {
  if (y + space > 720) newPage();
}
function heading(text, level) {
  const size = level === 1 ? 16 : level === 2 ? 13 : 11.5;
  ensure(size * 3);
  y += level === 1 ? 14 : 10;
  page.runs.push({ text, x: LEFT, y, size, bold: true });
  y += size * 0.9 + 6;
}
function paragraph(text, size = 10.5) {
  const lines = wrap(text, size);
  ensure(lines.length * size * 1.35);
  for (const line of lines) {
    page.runs.push({ text: line, x: LEFT, y, size });
    y += size * 1.35;
  }
  y += 7;
}
function bullets(items) {
  for (const item of items) {
    const lines = wrap(item, 10.5, RIGHT - LEFT - 16);
    ensure(lines.length * 14.2);
    lines.forEach((line, i) => {
      if (i === 0) page.runs.push({ text: '\u2022', x: LEFT + 2, y, size: 10.5 });
      page.runs.push({ text: line, x: LEFT + 16, y, size: 10.5 });
      y += 14.2;
    });
  }
  y += 6;
}
function table(caption, header, rows) {
  const colX = [LEFT, 300, 380, 460];
  const rowH = 18;
  ensure((rows.length + 3) * rowH);
  page.runs.push({ text: caption, x: LEFT, y, size: 9.5, bold: true });
  y += 10;
  const top = y;
  const all = [header, ...rows];
  for (let r = 0; r <= all.length; r++) page.shapes.push({ kind: 'line', x: LEFT, y: top + r * rowH, width: RIGHT - LEFT, height: 0 });
  for (const x of [...colX, RIGHT]) page.shapes.push({ kind: "line", x, y: top, width: 0, height: all.length * rowH });
  all.forEach((row, r) => {
    row.forEach((cell, c) => page.runs.push({ text: cell, x: colX[c] + 4, y: top + r * rowH + 13, size: 9.5, bold: r === 0 }));
  });
  y = top + all.length * rowH + 16;
}
function barChart(caption, bars) {
  ensure(230);
  const x0 = LEFT + 40;
  const base = y + 170;
  page.shapes.push({ kind: 'line', x: x0, y: base, width: 380, height: 0 });
  page.shapes.push({ kind: "line", x: x0, y, width: 0, height: 170 });
  const max = Math.max(...bars.map((b) => b[1]));
  bars.forEach(([label, value], i) => {
    const h = (value / max) * 150;
    const x = x0 + 20 + i * 90;
    page.shapes.push({ kind: 'rect', x, y: base - h, width: 50, height: h });
    page.runs.push({ text: String(value), x: x + 10, y: base - h - 4, size: 8 });
    page.runs.push({ text: label, x: x + 2, y: base + 12, size: 8 });
  });
  page.runs.push({ text: caption, x: LEFT, y: base + 34, size: 9.5 });
  y = base + 52;
}

newPage();
page.runs.push({ text: 'Northwind Instruments', x: LEFT, y, size: 22, bold: true });
y += 30;
page.runs.push({ text: 'Annual Report 2023', x: LEFT, y, size: 16 });
y += 30;
paragraph('Northwind Instruments designs and manufactures precision sensors for laboratories, factories and field research. This fictional report was written for the DocTree project as a sample document; every company, number and event in it is invented.');
heading('1 Letter to Shareholders', 1);
paragraph('2023 was a year of disciplined growth. Total revenue rose 12.4% to $482.6 million, driven by the Industrial Sensors segment, while operating margin improved to 17.8% from 16.1% in 2022. We opened a second plant in Tampere, Finland, and returned $41.0 million to shareholders through dividends.');
paragraph('Our priorities for 2024 are to expand the field research product line, to reduce the carbon intensity of our plants by a further 10%, and to keep research and development spending at about 9% of revenue.');
heading('2 Business Overview', 1);
heading('2.1 Segments', 2);
paragraph('We report three segments: Laboratory Systems, Industrial Sensors and Field Research. Revenue by segment is shown in Table 1 and in Figure 1. Industrial Sensors became our largest segment in 2023 for the first time.');
bullets([
  'Laboratory Systems: benchtop analysers and calibration services for universities and hospitals.',
  'Industrial Sensors: pressure, flow and vibration sensors for process industries.',
  'Field Research: rugged data loggers and weather stations for environmental monitoring.',
]);
table('Table 1: Revenue by segment (in millions of USD)', ['Segment', '2023', '2022', 'Change'], [
  ['Laboratory Systems', '171.2', '165.0', '3.8%'],
  ['Industrial Sensors', '204.9', '170.3', '20.3%'],
  ['Field Research', '106.5', '94.1', '13.2%'],
  ['Total', '482.6', '429.4', '12.4%'],
]);
heading('2.2 Employees', 2);
paragraph('At December 31, 2023 we employed 2,140 people in nine countries, of whom 38% work in manufacturing, 24% in research and development and 21% in sales and service. Voluntary employee turnover was 6.2%.');
newPage();
heading('3 Financial Review', 1);
heading('3.1 Results of Operations', 2);
paragraph('Gross margin was 46.3% compared with 45.1% in 2022, reflecting higher volumes and lower component costs. Operating income was $85.9 million. Net income was $63.2 million, or $2.87 per diluted share, compared with $51.7 million in 2022.');
barChart('Figure 1: Revenue by segment, 2023 (in millions of USD)', [
  ['Laboratory', 171.2],
  ['Industrial', 204.9],
  ['Field', 106.5],
]);
heading('3.2 Liquidity and Capital Resources', 2);
paragraph('Cash and cash equivalents were $96.4 million at year end. Net cash provided by operating activities was $92.8 million and capital expenditures were $37.5 million, mainly for the Tampere plant. We have no borrowings under our $150 million revolving credit facility, which matures in 2027.');
heading('3.3 Outlook', 2);
paragraph('For 2024 we expect revenue growth of 6% to 8% and an operating margin of about 18%. The outlook assumes stable exchange rates and no major disruption in the supply of semiconductors.');
heading('4 Sustainability', 1);
paragraph('Scope 1 and 2 emissions fell 14% to 9,820 tonnes of CO2 equivalent. 71% of the electricity used by our plants came from renewable sources, up from 58% in 2022. We target net zero operational emissions by 2035.');
heading('5 Risk Factors', 1);
paragraph('Our results depend on the supply of electronic components, on demand from process industries, and on exchange rates between the US dollar, the euro and the Chinese yuan. A prolonged shortage of semiconductors could delay deliveries and reduce revenue.');

const total = pages.length;
for (const p of pages) for (const run of p.runs) run.text = run.text.replace('of PAGES', `of ${total}`);
const bytes = writeSimplePdf(pages, {
  title: 'Northwind Instruments Annual Report 2023',
  outline: [
    { title: '1 Letter to Shareholders', pageIdx: 0 },
    { title: '2 Business Overview', pageIdx: 0 },
    { title: '3 Financial Review', pageIdx: 1 },
    { title: '4 Sustainability', pageIdx: total - 1 },
    { title: '5 Risk Factors', pageIdx: total - 1 },
  ],
});
mkdirSync(dirname(out), { recursive: true });
writeFileSync(`${out}.tmp`, bytes);
renameSync(`${out}.tmp`, out);
console.log(`wrote ${out} (${total} pages, ${bytes.byteLength} bytes)`);
