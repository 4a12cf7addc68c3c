import { decodeHtmlEntities } from '../mineru/html-table.js';

/**
 * Inline Markdown → plain text, the way a reader sees it: emphasis, code-span backticks, link targets,
 * HTML tags and comments removed; images replaced by their alt text; entities and backslash escapes
 * decoded. Inline math (`$…$`) and code spans are kept verbatim.
 */

/** Link reference definitions (`[id]: url "title"`), by lower-case label. */
export type MarkdownLinkRefs = ReadonlyMap<string, string>;

const PH_OPEN = '\uE000';
const PH_CLOSE = '\uE001';
const PH_RE = /\uE000(\d+)\uE001/g;

/** Inline image `![alt](src "title")`; group 1 alt, group 2 src. */
const IMAGE_SRC = '!\\[((?:[^\\[\\]\\\\]|\\\\.)*)\\]\\(\\s*<?((?:[^\\s()<>[\\]]|\\([^\\s()<>[\\]]*\\))*)>?(?:\\s+(?:"[^"]*"|\'[^\']*\'|\\([^)]*\\)))?\\s*\\)';
/** Reference image `![alt][id]` / `![alt][]`; group 1 alt, group 2 id. */
const REF_IMAGE_SRC = '!\\[((?:[^\\[\\]\\\\]|\\\\.)*)\\]\\[([^\\[\\]]*)\\]';

/** One image found in Markdown. */
export interface MarkdownImage {
  /** Alt text, as plain text. */
  alt: string;
  /** Path or URL; empty when a reference image names an unknown definition. */
  src: string;
}

function unescapeMd(text: string): string {
  return text.replace(/\\([!-/:-@[-`{-~])/g, '$1');
}

/**
 * When a line holds only images (`![a](x.png)`, `[![a](x.png)](link)`, `![a][id]`, `<img src alt>`),
 * returns them; otherwise undefined.
 */
export function imagesOnLine(line: string, refs: MarkdownLinkRefs): MarkdownImage[] | undefined {
  const found: MarkdownImage[] = [];
  const re = new RegExp(`\\[(?:${IMAGE_SRC}|${REF_IMAGE_SRC})\\]\\([^)]*\\)|${IMAGE_SRC}|${REF_IMAGE_SRC}|<img\\b(?:[^>"']|"[^"]*"|'[^']*')*>`, 'gi');
  const direct = new RegExp(IMAGE_SRC);
  const byRef = new RegExp(REF_IMAGE_SRC);
  let rest = '';
  let last = 0;
  for (const m of line.matchAll(re)) {
    rest += line.slice(last, m.index);
    last = m.index + m[0].length;
    const token = m[0];
    if (/^<img\b/i.test(token)) {
      const attr = (name: string): string => {
        const a = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(token);
        return decodeHtmlEntities(a?.[1] ?? a?.[2] ?? a?.[3] ?? '');
      };
      found.push({ alt: attr('alt').trim(), src: attr('src') });
      continue;
    }
    // the first image inside the token (a linked image is `[![alt](src)](href)`)
    const image = direct.exec(token);
    if (image) {
      found.push({ alt: inlineText(image[1]!, refs), src: unescapeMd(image[2]!) });
      continue;
    }
    const ref = byRef.exec(token);
    if (ref) {
      const id = (ref[2] || ref[1]!).trim().toLowerCase();
      found.push({ alt: inlineText(ref[1]!, refs), src: refs.get(id) ?? '' });
    }
  }
  rest += line.slice(last);
  return found.length > 0 && rest.trim() === '' ? found : undefined;
}

/**
 * Replaces code spans (a backtick run closed by the next run of the same length) with `keep(content)`,
 * one padding space each side removed. Linear: each run's closing run is found from a precomputed table.
 */
function codeSpans(s: string, keep: (text: string) => string): string {
  const runs = [...s.matchAll(/`+/g)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
  if (runs.length < 2) return s;
  const next: number[] = new Array<number>(runs.length).fill(-1);
  const seen = new Map<number, number>();
  for (let r = runs.length - 1; r >= 0; r--) {
    const len = runs[r]!.end - runs[r]!.start;
    next[r] = seen.get(len) ?? -1;
    seen.set(len, r);
  }
  let out = '';
  let copied = 0;
  for (let r = 0; r < runs.length; r++) {
    const close = next[r]!;
    if (close < 0) continue;
    const open = runs[r]!;
    const body = s.slice(open.end, runs[close]!.start);
    out += s.slice(copied, open.start) + keep(/^ [\s\S]* $/.test(body) && body.trim() !== '' ? body.slice(1, -1) : body);
    copied = runs[close]!.end;
    r = close;
  }
  return out + s.slice(copied);
}

/** Removes closed HTML comments (an unclosed `<!--` stays as text); linear in the length. */
function stripComments(s: string): string {
  let out = '';
  let from = 0;
  for (;;) {
    const open = s.indexOf('<!--', from);
    if (open < 0) break;
    const close = s.indexOf('-->', open + 4);
    if (close < 0) break;
    out += s.slice(from, open);
    from = close + 3;
  }
  return out + s.slice(from);
}

/**
 * Plain text of inline Markdown: `**Net** [sales](x.html) of \`x\` &amp; ![logo](l.png)` → `Net sales of x & logo`.
 * Whitespace is collapsed and trimmed.
 */
export function inlineText(markdown: string, refs: MarkdownLinkRefs = new Map()): string {
  const kept: string[] = [];
  const keep = (text: string): string => `${PH_OPEN}${kept.push(text) - 1}${PH_CLOSE}`;
  let s = markdown;
  s = codeSpans(s, keep);
  // inline math stays as written
  s = s.replace(/\$(?=\S)[^$\n]*?\S\$(?!\d)/g, (m) => keep(m));
  // backslash escapes
  s = s.replace(/\\([!-/:-@[-`{-~])/g, (_m, c: string) => keep(c));
  s = stripComments(s);
  // linked images, images, links
  s = s.replace(new RegExp(`\\[${IMAGE_SRC}\\]\\([^)]*\\)`, 'g'), (_m, alt: string) => alt);
  s = s.replace(new RegExp(IMAGE_SRC, 'g'), (_m, alt: string) => alt);
  s = s.replace(new RegExp(REF_IMAGE_SRC, 'g'), (_m, alt: string) => alt);
  s = s.replace(/\[((?:[^[\]\\]|\\.)*)\]\(\s*<?(?:[^\s()<>[\]]|\([^\s()<>[\]]*\))*>?(?:\s+(?:"[^"\n]*"|'[^'\n]*'|\([^)]*\)))?\s*\)/g, '$1');
  s = s.replace(/\[((?:[^[\]\\]|\\.)*)\]\[([^[\]]*)\]/g, (m, text: string, id: string) => (refs.has((id || text).trim().toLowerCase()) ? text : m));
  s = s.replace(/<((?:https?|ftp|mailto):[^\s<>]+)>/gi, '$1');
  // HTML
  s = s.replace(/<br\s*\/?>/gi, ' ');
  s = s.replace(/<\/?[A-Za-z][A-Za-z0-9-]*(?:\s(?:[^<>"']|"[^"<>]*"|'[^'<>]*')*)?\/?>/g, '');
  // emphasis and strikethrough
  for (let pass = 0; pass < 2; pass++) {
    // a delimited run never crosses its own delimiter, which keeps these linear
    s = s.replace(/\*\*(?=\S)((?:[^*]|\*(?!\*))*?\S)\*\*/g, '$1');
    s = s.replace(/__(?=\S)((?:[^_]|_(?!_))*?\S)__/g, '$1');
    s = s.replace(/\*(?=[^\s*])([^*]*?[^\s*])\*/g, '$1');
    s = s.replace(/(^|[^\p{L}\p{N}_])_(?=[^\s_])([^_]*?[^\s_])_(?![\p{L}\p{N}_])/gu, '$1$2');
    s = s.replace(/~~(?=\S)((?:[^~]|~(?!~))*?\S)~~/g, '$1');
  }
  s = decodeHtmlEntities(s);
  for (let depth = 0; depth < 3 && s.includes(PH_OPEN); depth++) s = s.replace(PH_RE, (_m, n: string) => kept[Number(n)] ?? '');
  return s.replace(/\s+/g, ' ').trim();
}
