#!/usr/bin/env node
// What the OCR resolution (`ingest.ocr.dpi`) buys: pages of PDFs *with* a text layer are rasterised at a source
// resolution (default 96 dpi, what slide decks exported as images carry; 150 or 300 for scans), wrapped into image-only
// PDFs, then OCRed the way ingest does (pdftoppm -gray at each resolution asked for, tesseract --psm 3 tsv, words of
// confidence >= 30, OMP_THREAD_LIMIT=1). The text layer is the truth: per resolution, the share of its words OCR finds
// (recall, multiset of lower-case letter/digit tokens), the share of OCR words that are in it (precision), and the CPU
// time of pdftoppm + tesseract per page, as a ratio to the reference resolution (200 dpi, ingest's default) measured in
// the same run. Needs pdftotext, pdftoppm and tesseract on PATH; any PDFs with a text layer will do (no eval data).
//
//   node tools/bench/ingest/bench-ocr-resolution.mjs --data DIR_OR_PDF [--data …] [--source-dpi 96] [--dpi 96,120,144,200]
//        [--pages-per-doc 1] [--max-pages 60] [--language eng] [--json]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
};
const many = (name) => args.flatMap((a, i) => (a === name && i + 1 < args.length ? [args[i + 1]] : []));
const usage = 'usage: bench-ocr-resolution.mjs --data DIR_OR_PDF [--data …] [--source-dpi 96] [--dpi 96,120,144,200] [--pages-per-doc 1] [--max-pages 60] [--language eng] [--json]';
const REFERENCE_DPI = 200;
const sourceDpi = Number(option('--source-dpi', '96'));
const dpis = [...new Set([...option('--dpi', '96,120,144,200').split(',').map(Number), REFERENCE_DPI])].sort((a, b) => a - b);
const perDoc = Number(option('--pages-per-doc', '1'));
const maxPages = Number(option('--max-pages', '60'));
const language = option('--language', 'eng');
const json = args.includes('--json');
if (many('--data').length === 0 || !(sourceDpi >= 36 && sourceDpi <= 600) || dpis.some((d) => !(Number.isInteger(d) && d >= 72 && d <= 600)) || !(perDoc >= 1) || !(maxPages >= 1) || !/^[A-Za-z][A-Za-z0-9_]*(\+[A-Za-z][A-Za-z0-9_]*)*$/.test(language)) {
  console.error(usage);
  process.exit(2);
}
for (const program of ['pdftotext', 'pdftoppm', 'tesseract', 'pdfinfo']) {
  if (spawnSync(program, ['-v']).error) {
    console.error(`bench-ocr-resolution: ${program} is not on PATH (sudo apt-get install poppler-utils tesseract-ocr)`);
    process.exit(2);
  }
}

/** PDFs named by --data (files, or the PDFs directly inside folders), in name order. */
const pdfs = many('--data').flatMap((p) => {
  if (!existsSync(p)) {
    console.error(`bench-ocr-resolution: ${p} does not exist`);
    process.exit(2);
  }
  return statSync(p).isDirectory()
    ? readdirSync(p)
        .filter((n) => n.toLowerCase().endsWith('.pdf'))
        .sort()
        .map((n) => join(p, n))
    : [p];
});

const words = (text) => text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
const run = (program, argv, env) => {
  const r = spawnSync(program, argv, { encoding: 'utf8', maxBuffer: 64 << 20, ...(env ? { env } : {}) });
  if (r.status !== 0) throw new Error(`${program} ${argv.join(' ')} failed: ${(r.stderr ?? '').trim().split('\n').pop()}`);
  return r.stdout;
};
/** CPU seconds (user + system) of finished children of this process, from /proc (Linux), else undefined. */
const childCpu = () => {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100; // cutime + cstime, clock ticks (100 Hz on Linux)
  } catch {
    return undefined;
  }
};

/** A one-page PDF showing a grey PGM (P5, 8 bit) at `dpi`: what a scanner or an image-only deck export produces. */
function pgmToPdf(pgm, dpi) {
  const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(pgm.subarray(0, 64).toString('latin1'));
  if (!header || header[3] !== '255') throw new Error('not an 8-bit grey PGM');
  const [width, height] = [Number(header[1]), Number(header[2])];
  const pixels = deflateSync(pgm.subarray(header[0].length));
  const [w, h] = [((width * 72) / dpi).toFixed(2), ((height * 72) / dpi).toFixed(2)];
  const content = Buffer.from(`q ${w} 0 0 ${h} 0 0 cm /Im0 Do Q`);
  const objects = [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    Buffer.from(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${w} ${h}] /Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>`),
    Buffer.concat([Buffer.from(`<< /Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode /Length ${pixels.length} >>\nstream\n`), pixels, Buffer.from('\nendstream')]),
    Buffer.concat([Buffer.from(`<< /Length ${content.length} >>\nstream\n`), content, Buffer.from('\nendstream')]),
  ];
  const parts = [Buffer.from('%PDF-1.4\n')];
  const offsets = [];
  let size = parts[0].length;
  objects.forEach((body, i) => {
    const chunk = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), body, Buffer.from('\nendobj\n')]);
    offsets.push(size);
    parts.push(chunk);
    size += chunk.length;
  });
  const xref = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${size}\n%%EOF\n`));
  return Buffer.concat(parts);
}

// Pages: evenly spaced through each document, those with at least 20 words in their text layer.
const sample = [];
for (const pdf of pdfs) {
  const pages = Number(/Pages:\s+(\d+)/.exec(run('pdfinfo', [pdf]))?.[1] ?? 0);
  for (let k = 0; k < Math.min(perDoc, pages) && sample.length < maxPages; k++) {
    const page = Math.max(1, Math.round(((k + 0.5) * pages) / perDoc));
    const truth = words(run('pdftotext', ['-f', String(page), '-l', String(page), pdf, '-']));
    if (truth.length >= 20) sample.push({ pdf, page, truth });
  }
}
if (sample.length === 0) {
  console.error('bench-ocr-resolution: no page with a text layer of 20 words or more');
  process.exit(1);
}

const env = { ...process.env, OMP_THREAD_LIMIT: '1' };
const work = mkdtempSync(join(tmpdir(), 'doctree-bench-ocr-'));
const totals = new Map(dpis.map((d) => [d, { found: 0, read: 0, cpu: 0, wall: 0 }]));
let truthWords = 0;
try {
  sample.forEach(({ pdf, page, truth }, i) => {
    const base = join(work, `p${i}`);
    run('pdftoppm', ['-f', String(page), '-l', String(page), '-r', String(sourceDpi), '-gray', '-singlefile', pdf, base]);
    writeFileSync(`${base}.pdf`, pgmToPdf(readFileSync(`${base}.pgm`), sourceDpi));
    const expected = new Map();
    for (const w of truth) expected.set(w, (expected.get(w) ?? 0) + 1);
    truthWords += truth.length;
    for (const dpi of dpis) {
      const t = totals.get(dpi);
      const [cpu0, wall0] = [childCpu(), performance.now()];
      run('pdftoppm', ['-r', String(dpi), '-gray', '-singlefile', `${base}.pdf`, `${base}-${dpi}`]);
      const tsv = run('tesseract', [`${base}-${dpi}.pgm`, 'stdout', '-l', language, '--psm', '3', 'tsv'], env);
      const [cpu1, wall1] = [childCpu(), performance.now()];
      t.wall += (wall1 - wall0) / 1000;
      t.cpu += cpu0 !== undefined && cpu1 !== undefined ? cpu1 - cpu0 : (wall1 - wall0) / 1000;
      const seen = new Map(expected);
      for (const row of tsv.split('\n').slice(1)) {
        const cells = row.split('\t');
        if (cells.length < 12 || cells[0] !== '5' || !(Number(cells[10]) >= 30)) continue;
        for (const w of words(cells.slice(11).join(' '))) {
          t.read++;
          const left = seen.get(w) ?? 0;
          if (left > 0) {
            t.found++;
            seen.set(w, left - 1);
          }
        }
      }
      rmSync(`${base}-${dpi}.pgm`, { force: true });
    }
    process.stderr.write(`  ${i + 1}/${sample.length} page(s) read at ${dpis.join(', ')} dpi\n`);
  });
} finally {
  rmSync(work, { recursive: true, force: true });
}

const reference = totals.get(REFERENCE_DPI);
const rows = dpis.map((dpi) => {
  const t = totals.get(dpi);
  return {
    dpi,
    recall: t.found / truthWords,
    precision: t.read > 0 ? t.found / t.read : 0,
    cpu_s_per_page: t.cpu / sample.length,
    cpu_ratio: reference.cpu > 0 ? t.cpu / reference.cpu : null,
  };
});
const report = { source_dpi: sourceDpi, language, documents: new Set(sample.map((s) => s.pdf)).size, pages: sample.length, text_layer_words: truthWords, reference_dpi: REFERENCE_DPI, rows };
if (json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
else {
  const pct = (x) => `${(100 * x).toFixed(1)} %`;
  console.log(`${sample.length} page(s) of ${report.documents} PDF(s) (${truthWords} words in their text layer), rasterised at ${sourceDpi} dpi, OCRed (${language})`);
  console.log('render dpi  words found  precision  CPU s/page  CPU vs 200 dpi');
  for (const r of rows) console.log(`${String(r.dpi).padStart(10)}  ${pct(r.recall).padStart(11)}  ${pct(r.precision).padStart(9)}  ${r.cpu_s_per_page.toFixed(2).padStart(10)}  ${r.cpu_ratio === null ? '-' : `${r.cpu_ratio.toFixed(2)}x`.padStart(14)}`);
}
