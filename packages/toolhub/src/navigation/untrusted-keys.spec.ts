import { createToolContext, type ToolContext } from '../context/tool-context.js';
import { ToolExecutor } from '../executor/tool-executor.js';
import { ROLE_GROUPS, ROLE_MODALITY, expandRoles } from '../hits/node-hit.js';
import { createDefaultRegistry } from '../hub/default-cards.js';
import { buildFixtureIndex, type FixtureIndex } from '../testing/fixture-index.js';
import { annualReportTree } from '../testing/fixture-trees.js';
import { ABBREVIATIONS, conceptQueryTerms, normalizeLabel } from '../vocabulary/concept-vocabulary.js';
import { navigatorFor } from './doc-navigator.js';

// Labels, section numberings, roles and queries come from questions and tool args: a word naming an Object.prototype
// property is looked up like any other and found nowhere (or found as document text).
const PROTO_WORDS = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'prototype'];

describe('lookups with Object.prototype names', () => {
  let fixture: FixtureIndex;
  let executor: ToolExecutor<ToolContext>;
  beforeAll(async () => {
    fixture = await buildFixtureIndex(annualReportTree());
    executor = new ToolExecutor({ registry: createDefaultRegistry(), context: createToolContext({ index: fixture.index }) });
  });
  afterAll(() => fixture.cleanup());

  it('DocNavigator resolves no label or section numbering from them, and still resolves real ones', () => {
    const nav = navigatorFor(fixture.index);
    for (const word of PROTO_WORDS) {
      expect(nav.resolveLabel(word)).toBeUndefined();
      expect(nav.sectionIdByNumber(word)).toBeUndefined();
    }
    expect(nav.resolveLabel('Table 1')).toBe('tab_1');
    expect(nav.resolveLabel('fig. 2')).toBe('img_2');
    expect(nav.sectionIdByNumber('2.2')).toBe('sec_4');
  });

  it('role groups and modalities answer only for their own entries', () => {
    expect(Object.getPrototypeOf(ROLE_GROUPS)).toBeNull();
    expect(Object.getPrototypeOf(ROLE_MODALITY)).toBeNull();
    expect(expandRoles(['figure', ...PROTO_WORDS])).toEqual(['image', 'chart', ...PROTO_WORDS]);
    for (const word of PROTO_WORDS) expect(ROLE_MODALITY[word]).toBeUndefined();
  });

  it('the abbreviation table holds its own entries only', () => {
    expect(Object.getPrototypeOf(ABBREVIATIONS)).toBeNull();
    expect(ABBREVIATIONS['capex']).toBe('capital expenditures');
    for (const word of PROTO_WORDS) expect(ABBREVIATIONS[word]).toBeUndefined();
    expect(normalizeLabel('constructor toString valueOf')).toBe(' constructor tostring valueof ');
    expect(conceptQueryTerms('What is the constructor of toString and capex?')).toContain('capital expenditures');
  });

  it('tools given them as args answer (an error result, or nothing) instead of failing inside', async () => {
    for (const word of PROTO_WORDS) {
      const children = await executor.call({ tool_id: 'structure.children', args: { title: word } });
      expect(children.error?.code ?? 'none').not.toBe('INTERNAL');
      const column = await executor.call({ tool_id: 'extract.column', args: { node_id: word } });
      expect(column).toMatchObject({ status: 'error', error: { code: 'TOOL_ARGS_INVALID' } });
      const search = await executor.call({ tool_id: 'bm25_node.search', args: { query: `${word} capital expenditures`, roles: [word, 'paragraph'], k: 5 } });
      expect(search.status).toBe('ok');
      expect(search.hits?.map((h) => h.node_id)).toContain('t_4');
      const figures = await executor.call({ tool_id: 'figure_finder.find_regions', args: { query: `${word} figure`, labels: [word, 'Figure 1'], roles: [word, 'figure'] } });
      expect(figures.status).toBe('ok');
    }
  });
});
