import { escapeRegExp, type Observation, type Support } from '@doctree/schema';

/**
 * The searchable text of an observation and where it sits in the document. Supports quote this text: their
 * `snippet` is a slice of it, and their offsets point into the document's canonical text when the slice lies in
 * the anchored part (`anchor`), else into this text.
 */
export interface ObservationText {
  text: string;
  /** The first `length` characters of `text` are the canonical text at `start`. */
  anchor?: { start: number; length: number };
}

/**
 * Text of an observation: a text payload's text; a table's canonical text (rows joined by ` | `), else its
 * Markdown; a figure's caption, a new line, then its description. Anchored by the payload's `char_span` when the
 * span's length matches.
 */
export function observationText(observation: Observation): ObservationText {
  const p = observation.payload;
  if (p.kind === 'text') {
    const span = p.char_span;
    return span && span[1] - span[0] === p.text.length ? { text: p.text, anchor: { start: span[0], length: p.text.length } } : { text: p.text };
  }
  if (p.kind === 'table') {
    if (p.text !== undefined) {
      const span = p.char_span;
      return span && span[1] - span[0] === p.text.length ? { text: p.text, anchor: { start: span[0], length: p.text.length } } : { text: p.text };
    }
    return { text: [p.caption, p.markdown].filter(Boolean).join('\n') };
  }
  const text = p.caption ? `${p.caption}\n${p.description}` : p.description;
  const span = p.char_span;
  return p.caption && span && span[1] - span[0] === p.caption.length ? { text, anchor: { start: span[0], length: p.caption.length } } : { text };
}

/** Builds the support for `[start, end)` of an observation's {@link observationText}. */
export function supportFor(observation: Observation, start: number, end: number, text: ObservationText = observationText(observation)): Support {
  const s = Math.max(0, Math.min(start, text.text.length));
  const e = Math.max(s, Math.min(end, text.text.length));
  const anchored = text.anchor && e <= text.anchor.length;
  return {
    node_id: observation.node_id,
    page: observation.page,
    bbox: observation.bbox,
    char_start: anchored ? text.anchor!.start + s : s,
    char_end: anchored ? text.anchor!.start + e : e,
    snippet: text.text.slice(s, e),
  };
}

/**
 * True when a support quotes an observation exactly: same node, its snippet equals the observation text at its
 * offsets (canonical offsets for the anchored part, else offsets into the observation text).
 */
export function supportMatches(support: Support, observation: Observation, text: ObservationText = observationText(observation)): boolean {
  if (support.node_id !== observation.node_id || support.snippet.length === 0) return false;
  const { char_start: start, char_end: end, snippet } = support;
  if (end - start !== snippet.length) return false;
  if (text.anchor) {
    const local = start - text.anchor.start;
    if (local >= 0 && local + snippet.length <= text.anchor.length && text.text.slice(local, local + snippet.length) === snippet) return true;
  }
  return text.text.slice(start, end) === snippet;
}

/** Finds a quote in an observation text: exact, then case- and whitespace-insensitive. Returns local offsets. */
export function locateQuote(text: string, quote: string): { start: number; end: number } | undefined {
  const q = quote.trim();
  if (!q) return undefined;
  const exact = text.indexOf(q);
  if (exact >= 0) return { start: exact, end: exact + q.length };
  const words = q.split(/\s+/).map(escapeRegExp);
  if (words.length === 0) return undefined;
  const re = new RegExp(words.join('[\\s|]+'), 'i');
  const m = re.exec(text);
  return m ? { start: m.index, end: m.index + m[0].length } : undefined;
}
