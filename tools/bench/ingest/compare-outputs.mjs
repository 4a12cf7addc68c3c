#!/usr/bin/env node
// Compares two `doctree ingest --out` folders (e.g. before and after a change to ingest): for every document folder
// present in both, the content lists (`content_list.adapted.json`, `content_list.enhanced.json`) and the DocTree
// (`doctree.mm.json`) are compared value by value. Prints, per document and file, `same` or the number of differing
// values with the first few paths (`nodes[12].bboxes[0].bbox[3]: 401.2 -> 401.3`), and for the DocTree a summary of what
// differs, node by node (`node_id`): nodes added or removed, node text, boxes or pages, roles, tables. Numbers are compared exactly unless `--tolerance T`
// (absolute) is given. Exit status 1 when anything differs, 2 on bad usage.
//
//   node tools/bench/ingest/compare-outputs.mjs BEFORE_DIR AFTER_DIR [--only DOC_ID] [--show N] [--tolerance T] [--json]
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const valued = new Set(['--only', '--show', '--tolerance']);
const positional = args.filter((a, i) => !a.startsWith('--') && !valued.has(args[i - 1]));
if (positional.length !== 2) {
  console.error('usage: compare-outputs.mjs BEFORE_DIR AFTER_DIR [--only DOC_ID] [--show N] [--tolerance T] [--json]');
  process.exit(2);
}
const [before, after] = positional;
const only = option('--only', undefined);
const show = Number(option('--show', '8'));
const tolerance = Number(option('--tolerance', '0'));
const json = args.includes('--json');
const FILES = ['content_list.adapted.json', 'content_list.enhanced.json', 'doctree.mm.json'];

const isDir = (p) => existsSync(p) && statSync(p).isDirectory();
for (const dir of [before, after]) {
  if (!isDir(dir)) {
    console.error(`compare-outputs: ${dir} is not a folder`);
    process.exit(2);
  }
}

/** Document folders (those holding at least one of FILES) of an output folder. */
const docsOf = (dir) => readdirSync(dir).filter((name) => isDir(join(dir, name)) && FILES.some((f) => existsSync(join(dir, name, f))));

/** Every differing leaf between a and b, as `{ path, a, b }` (arrays compared by index, objects by key). */
function diff(a, b, path, out) {
  if (a === b) return out;
  if (typeof a === 'number' && typeof b === 'number') {
    if (Math.abs(a - b) > tolerance || Number.isNaN(a) !== Number.isNaN(b)) out.push({ path, a, b });
    return out;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    const n = Math.max(a.length, b.length);
    for (let i = 0; i < n; i++) {
      if (i >= a.length) out.push({ path: `${path}[${i}]`, a: undefined, b: b[i] });
      else if (i >= b.length) out.push({ path: `${path}[${i}]`, a: a[i], b: undefined });
      else diff(a[i], b[i], `${path}[${i}]`, out);
    }
    return out;
  }
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const key of keys) {
      if (!Object.hasOwn(a, key)) out.push({ path: `${path}.${key}`, a: undefined, b: b[key] });
      else if (!Object.hasOwn(b, key)) out.push({ path: `${path}.${key}`, a: a[key], b: undefined });
      else diff(a[key], b[key], `${path}.${key}`, out);
    }
    return out;
  }
  out.push({ path, a, b });
  return out;
}

/** What differs between two DocTrees, node by node (matched by `node_id`): added, removed, text, boxes or pages, role, table. */
function treeSummary(a, b) {
  const nodesA = new Map((a.nodes ?? []).map((n) => [n.node_id, n]));
  const nodesB = new Map((b.nodes ?? []).map((n) => [n.node_id, n]));
  const summary = { nodes_before: nodesA.size, nodes_after: nodesB.size, added: 0, removed: 0, text: 0, bbox: 0, role: 0, table: 0 };
  for (const [id, node] of nodesA) {
    const other = nodesB.get(id);
    if (!other) {
      summary.removed++;
      continue;
    }
    if ((node.text ?? '') !== (other.text ?? '')) summary.text++;
    if (JSON.stringify(node.bboxes ?? null) !== JSON.stringify(other.bboxes ?? null) || JSON.stringify(node.page_span ?? null) !== JSON.stringify(other.page_span ?? null)) summary.bbox++;
    if (node.role !== other.role) summary.role++;
    if (JSON.stringify(node.table ?? null) !== JSON.stringify(other.table ?? null)) summary.table++;
  }
  for (const id of nodesB.keys()) if (!nodesA.has(id)) summary.added++;
  return summary;
}

const short = (v) => {
  const s = v === undefined ? 'undefined' : JSON.stringify(v);
  return s.length > 100 ? `${s.slice(0, 97)}...` : s;
};

const docsBefore = docsOf(before);
const docsAfter = new Set(docsOf(after));
const results = [];
let differing = 0;
for (const doc of docsBefore.filter((d) => !only || d === only)) {
  if (!docsAfter.has(doc)) {
    results.push({ doc, missing_after: true });
    differing++;
    continue;
  }
  for (const file of FILES) {
    const fa = join(before, doc, file);
    const fb = join(after, doc, file);
    if (!existsSync(fa) && !existsSync(fb)) continue;
    if (!existsSync(fa) || !existsSync(fb)) {
      results.push({ doc, file, missing: existsSync(fa) ? 'after' : 'before' });
      differing++;
      continue;
    }
    const a = JSON.parse(readFileSync(fa, 'utf8'));
    const b = JSON.parse(readFileSync(fb, 'utf8'));
    const diffs = diff(a, b, '', []);
    const row = { doc, file, differences: diffs.length, first: diffs.slice(0, show).map((d) => ({ path: d.path, before: d.a, after: d.b })) };
    if (file === 'doctree.mm.json') row.tree = treeSummary(a, b);
    if (diffs.length > 0) differing++;
    results.push(row);
  }
}
for (const doc of docsAfter) if (!docsBefore.includes(doc) && (!only || doc === only)) results.push({ doc, missing_before: true });

if (json) console.log(JSON.stringify({ before, after, tolerance, differing, results }, null, 2));
else {
  for (const r of results) {
    if (r.missing_after || r.missing_before) {
      console.log(`${r.doc}: only in ${r.missing_after ? 'BEFORE' : 'AFTER'}`);
      continue;
    }
    if (r.missing) {
      console.log(`${r.doc}/${r.file}: missing ${r.missing}`);
      continue;
    }
    const tree = r.tree && r.differences > 0 ? ` (nodes ${r.tree.nodes_before} -> ${r.tree.nodes_after}; added ${r.tree.added}, removed ${r.tree.removed}, text ${r.tree.text}, bbox ${r.tree.bbox}, role ${r.tree.role}, table ${r.tree.table})` : '';
    console.log(`${r.doc}/${r.file}: ${r.differences === 0 ? 'same' : `${r.differences} differing value(s)${tree}`}`);
    for (const d of r.first) console.log(`    ${d.path}: ${short(d.before)} -> ${short(d.after)}`);
  }
  console.log(differing === 0 ? 'all the same' : `${differing} file(s) differ`);
}
process.exit(differing === 0 ? 0 : 1);
