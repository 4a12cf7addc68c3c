import { IdMapsSchema } from '@doctree/schema';

import { buildFixtureTree } from '../testing/fixture-tree.js';
import { buildIndexRecords } from './record-builder.js';
import { buildExtractiveSummary } from './summaries.js';
import { UNIT_ALIASES, findUnits } from './text-features.js';

// Labels, numberings and unit words come from documents: the id maps keep them as own entries (JSON-safe), and the
// unit alias table answers only for its own units.
describe('index records with labels and numberings named after Object.prototype properties', () => {
  const tree = buildFixtureTree({ doc_id: 'proto', title: 'Proto', page_count: 2 }, [
    { node_id: 'sec_0', role: 'document', parent: null, title: 'Proto' },
    { node_id: 'sec_1', role: 'section', parent: 'sec_0', title: '__proto__ Constructor', numbering: '__proto__', page: 0 },
    { node_id: 't_1', role: 'paragraph', parent: 'sec_1', text: 'The constructor of the bridge reports 12% growth; toString and valueOf are words.', page: 0 },
    { node_id: 'tab_1', role: 'table', parent: 'sec_1', label: 'constructor', text: 'constructor table', page: 1, table: { rows: [['constructor', 'valueOf'], ['1', '2']] } },
    { node_id: 'img_1', role: 'image', parent: 'sec_1', label: '__proto__', text: 'a figure', page: 1 },
    { node_id: 'img_2', role: 'image', parent: 'sec_1', label: 'Figure toString', text: 'another figure', page: 1 },
    { node_id: 'sec_2', role: 'section', parent: 'sec_0', title: 'constructor', numbering: 'constructor', page: 1 },
  ]);
  const records = buildIndexRecords(tree, buildExtractiveSummary(tree));

  it('keeps every label and numbering as an own entry, also `__proto__`, and survives JSON and its schema', () => {
    const maps = records.idMaps;
    expect(Object.hasOwn(maps.label2id, 'constructor')).toBe(true);
    expect(maps.label2id['constructor']).toBe('tab_1');
    expect(Object.hasOwn(maps.label2id, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(maps.label2id)).toBe(Object.prototype);
    expect(Object.hasOwn(maps.figure, 'toString')).toBe(true);
    expect(maps.section).toEqual(expect.objectContaining({ constructor: 'sec_2' }));
    expect(Object.hasOwn(maps.section, '__proto__')).toBe(true);
    expect(Object.keys(maps.section).sort()).toEqual(['__proto__', 'constructor']);
    const json = JSON.parse(JSON.stringify(maps)) as Record<string, Record<string, string>>;
    expect(Object.keys(json['label2id']!).sort()).toEqual(['Figure toString', '__proto__', 'constructor']);
    expect(IdMapsSchema.parse(json).label2id['constructor']).toBe('tab_1');
  });

  it('builds sparse docs of string fields only', () => {
    for (const doc of [...records.sparseCoarse, ...records.sparseLeaf]) {
      for (const [field, value] of Object.entries(doc)) {
        if (field === 'filters') continue;
        expect(typeof value).toBe('string');
        expect(value as string).not.toContain('[native code]');
      }
    }
  });

  it('UNIT_ALIASES answers for its own units only', () => {
    expect(Object.getPrototypeOf(UNIT_ALIASES)).toBeNull();
    expect(Object.isFrozen(UNIT_ALIASES)).toBe(true);
    expect(UNIT_ALIASES['%']).toBe('percent pct percentage');
    for (const word of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'prototype']) expect(UNIT_ALIASES[word]).toBeUndefined();
    expect(findUnits('constructor toString 5 valueOf')).toEqual([]);
  });
});
