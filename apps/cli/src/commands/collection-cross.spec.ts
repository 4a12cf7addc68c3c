import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AnswerSchema } from '@doctree/schema';
import { cliRunner } from '../__fixtures__/cli-runner.js';

jest.setTimeout(180_000);

const doc = (company: string, year: number, revenue: string) => `<!-- page 1 -->\n\n# ${company} Annual Report ${year}\n\n## Overview\n\n${company} sells garden furniture.\n\n<!-- page 2 -->\n\n## Results\n\nTotal revenue was ${revenue} in ${year}.\n`;

describe('doctree collection over sub-folders, and cross-document answers', () => {
  let dir: string;
  const cli = cliRunner(() => dir);
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'doctree-cli-cross-'));
    mkdirSync(join(dir, 'in', 'alder'), { recursive: true });
    mkdirSync(join(dir, 'in', 'birch'), { recursive: true });
    writeFileSync(join(dir, 'in', 'alder', 'Alder_2022_10K.md'), doc('Alder Mills', 2022, '$30.0 million'));
    writeFileSync(join(dir, 'in', 'birch', 'Birch_2022_10K.md'), doc('Birch Labs', 2022, '$12.0 million'));
    writeFileSync(join(dir, 'in', 'Notes_2020.md'), doc('Notes Group', 2020, '$1.0 million'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('--no-recursive builds the folder only; without it, sub-folders are entered', async () => {
    const flat = await cli('collection', 'ingest', '--input-dir', 'in', '--collection-dir', 'col', '--jobs', '1', '--no-recursive', '--json');
    expect(flat.status).toBe(0);
    expect(JSON.parse(flat.out)).toMatchObject({ added: ['notes_2020'] });
    const status = JSON.parse((await cli('collection', 'status', '--collection-dir', 'col', '--json')).out) as { entries: Array<{ path: string; change: string }> };
    expect(status.entries.map((e) => [e.path, e.change])).toEqual([
      ['Notes_2020.md', 'unchanged'],
      ['alder/Alder_2022_10K.md', 'new'],
      ['birch/Birch_2022_10K.md', 'new'],
    ]);
    const synced = await cli('collection', 'sync', '--collection-dir', 'col', '--jobs', '1', '--json');
    expect(JSON.parse(synced.out)).toMatchObject({ added: ['alder_alder_2022_10k', 'birch_birch_2022_10k'], unchanged: ['notes_2020'] });
  });

  it('ask prints the parts of a cross-document answer with their documents and pages; --json and --trace cite both documents', async () => {
    const question = 'What is the difference between the revenue of Alder Mills and Birch Labs in 2022?';
    const text = await cli('ask', '--collection-dir', 'col', question);
    expect(text.status).toBe(0);
    expect(text.out).toContain('Cross-document answer: 2 parts by company, difference');
    expect(text.out).toMatch(/A = Alder: .*30\.0 million.*\[alder_alder_2022_10k, p\. 2\]/);
    expect(text.out).toMatch(/B = Birch: .*12\.0 million.*\[birch_birch_2022_10k, p\. 2\]/);
    expect(text.out).toContain('A - B = $18 million');
    expect(text.out).toContain('Cited: alder_alder_2022_10k p. 2; birch_birch_2022_10k p. 2');

    const json = JSON.parse((await cli('ask', '--collection-dir', 'col', question, '--json', '--trace', 'trace.json')).out) as Record<string, unknown>;
    expect(AnswerSchema.parse(json['answer'])).toMatchObject({ answer: 18, answer_format: 'Float' });
    expect(json['citations']).toEqual([expect.objectContaining({ doc_id: 'alder_alder_2022_10k', page: 2 }), expect.objectContaining({ doc_id: 'birch_birch_2022_10k', page: 2 })]);
    expect(json['cross']).toMatchObject({ by: 'company', operation: 'difference', expression: 'A - B', result: { text: '$18 million' } });
    expect((json['documents'] as unknown[]).length).toBe(2);
    const trace = JSON.parse(readFileSync(join(dir, 'trace.json'), 'utf8')) as { cross: unknown; combined: { events: Array<{ type: string; tool_id?: string }> }; documents: unknown[] };
    expect(trace.cross).toMatchObject({ parts: [expect.objectContaining({ doc_id: 'alder_alder_2022_10k' }), expect.objectContaining({ doc_id: 'birch_birch_2022_10k' })] });
    expect(trace.combined.events.map((e) => e.tool_id ?? e.type)).toEqual(['plan', 'collection.part', 'collection.part', 'compute.eval', 'finalize']);
    expect(trace.documents).toHaveLength(2);

    // --no-cross asks the question whole, of the selected document.
    const whole = JSON.parse((await cli('ask', '--collection-dir', 'col', question, '--no-cross', '--json')).out) as Record<string, unknown>;
    expect(whole['cross']).toBeUndefined();
    expect((whole['documents'] as unknown[]).length).toBe(1);

    // A question about one document keeps its own citation list.
    const one = JSON.parse((await cli('ask', '--collection-dir', 'col', 'What was the revenue of Birch Labs in 2022?', '--json')).out) as Record<string, unknown>;
    expect(one['cross']).toBeUndefined();
    expect(one['citations']).toEqual([expect.objectContaining({ doc_id: 'birch_birch_2022_10k', page: 2 })]);
  });
});
