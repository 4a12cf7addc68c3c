import { resolveConfig, type CollectionManifest } from '@doctree/schema';
import { buildSettingsChanged, collectionBuildSettings } from './build-settings.js';
import { planChanges, type ScannedFile } from './collection-scan.js';
import { conformanceRow } from './collection-store-conformance.js';

const ingestOf = (file: unknown = {}) => resolveConfig({ file, env: {} }).config.ingest;
const file = (path: string, sha = 'a'): ScannedFile => ({ path, absolute: `/in/${path}`, kind: 'pdf', sha256: sha.repeat(64), size: 10, mtime: new Date().toISOString() });

describe('collection build settings', () => {
  it('changes with the limits for every document and with OCR only for documents with pages OCR reads; key order is no change', () => {
    const base = ingestOf();
    const text = collectionBuildSettings(base, { ocr: false });
    const scan = collectionBuildSettings(base, { ocr: true });
    expect(text).toEqual({ limits: expect.stringMatching(/^[0-9a-f]{16}$/) });
    expect(scan).toEqual({ limits: text.limits, ocr: expect.stringMatching(/^[0-9a-f]{16}$/) });
    const sharper = ingestOf({ ingest: { ocr: { dpi: 300 } } });
    expect(buildSettingsChanged(text, sharper)).toBe(false);
    expect(buildSettingsChanged(scan, sharper)).toBe(true);
    expect(buildSettingsChanged(text, ingestOf({ ingest: { limits: { max_pages: 9000 } } }))).toBe(true);
    expect(buildSettingsChanged(scan, ingestOf({ ingest: { ocr: { language: 'eng', dpi: 200 } } }))).toBe(false);
    // The index configuration (embedder, analyser, summarizer, format): every document that recorded one.
    const indexed = collectionBuildSettings(base, { ocr: false, indexConfig: 'a'.repeat(64) });
    expect(indexed).toEqual({ limits: text.limits, index: 'a'.repeat(16) });
    expect(buildSettingsChanged(indexed, base, 'a'.repeat(64))).toBe(false);
    expect(buildSettingsChanged(indexed, base, 'b'.repeat(64))).toBe(true);
    expect(buildSettingsChanged(text, base, 'b'.repeat(64))).toBe(false);
    // Rows written before settings were recorded are current: an upgrade rebuilds nothing.
    expect(buildSettingsChanged(undefined, sharper)).toBe(false);
  });

  it('plans a rebuild of documents built with other settings and a new try of files that failed under other settings', () => {
    const before = ingestOf();
    const after = ingestOf({ ingest: { ocr: { language: 'eng+deu' }, limits: { max_pages: 200 } } });
    const manifest: CollectionManifest = {
      format: 'doctree.collection',
      version: 1,
      input_dir: '/in',
      created_at: new Date().toISOString(),
      updated_at: new Date().toISOString(),
      documents: [
        { ...conformanceRow('scan', 'b1', 'scan.pdf'), build_settings: collectionBuildSettings(before, { ocr: true }) },
        { ...conformanceRow('text', 'b2', 'text.pdf'), build_settings: collectionBuildSettings(before, { ocr: false }) },
        { ...conformanceRow('old', 'b3', 'old.pdf') },
        { ...conformanceRow('edited', 'b4', 'edited.pdf'), build_settings: collectionBuildSettings(before, { ocr: false }) },
      ],
      failures: [{ path: 'huge.pdf', sha256: 'a'.repeat(64), code: 'SCHEMA_INVALID', message: 'too many pages', at: new Date().toISOString(), build_settings: collectionBuildSettings(before, { ocr: true }) }],
    };
    const files = [file('scan.pdf'), file('text.pdf'), file('old.pdf'), file('edited.pdf', 'b'), file('huge.pdf')];
    const summary = (ingest?: typeof before) => planChanges(manifest, files, ingest ? { ingest } : {}).map((p) => [p.path, p.change, p.reason]);
    expect(summary(before)).toEqual([
      ['scan.pdf', 'unchanged', undefined],
      ['text.pdf', 'unchanged', undefined],
      ['old.pdf', 'unchanged', undefined],
      ['edited.pdf', 'modified', 'content'],
      ['huge.pdf', 'failed', undefined],
    ]);
    // OCR language changed: only the scanned document; the page cap raised: every document with settings, and the failure.
    expect(summary(ingestOf({ ingest: { ocr: { language: 'eng+deu' } } }))).toEqual([
      ['scan.pdf', 'modified', 'settings'],
      ['text.pdf', 'unchanged', undefined],
      ['old.pdf', 'unchanged', undefined],
      ['edited.pdf', 'modified', 'content'],
      ['huge.pdf', 'new', 'settings'],
    ]);
    expect(summary(after).filter(([, change]) => change !== 'unchanged').map(([path]) => path)).toEqual(['scan.pdf', 'text.pdf', 'edited.pdf', 'huge.pdf']);
    // Another embedder than the manifest's: every document (its vectors cannot be queried with the new one).
    const embedded = { ...manifest, embedder: { id: 'hashing-v2:d512', dimension: 512 } };
    expect(planChanges(embedded, files, { ingest: before, embedderId: 'sif-v1:d100' }).filter((p) => p.change === 'modified').map((p) => [p.path, p.reason])).toEqual([
      ['scan.pdf', 'settings'],
      ['text.pdf', 'settings'],
      ['old.pdf', 'settings'],
      ['edited.pdf', 'content'],
    ]);
    expect(planChanges(embedded, files, { ingest: before, embedderId: 'hashing-v2:d512' }).filter((p) => p.change === 'modified').map((p) => p.path)).toEqual(['edited.pdf']);
    // Without settings to compare (a queue producer), only content counts.
    expect(summary(undefined).map(([, change]) => change)).toEqual(['unchanged', 'unchanged', 'unchanged', 'modified', 'failed']);
  });
});
