import { builtinDomainPack, detectDomainPack } from '@doctree/toolhub';
import { annualReportTree, buildFixtureIndex, corpusTree, type FixtureIndex } from '@doctree/toolhub/testing';

import { DocTreeAgent } from '../agent/doctree-agent.js';

// A small appliance manual, written for this test.
const MANUAL = corpusTree(
  [
    { node_id: 'sec_1', page_idx: 0, role: 'section', text: 'Kettle KX-3 — instructions for use' },
    { node_id: 't_1', page_idx: 0, role: 'paragraph', text: 'Fill the kettle to the MAX mark. Descale it every month with a citric acid solution.' },
    { node_id: 't_2', page_idx: 1, role: 'paragraph', text: 'The kettle switches itself off after boiling. Boiling 1.7 litres takes about 4 minutes.' },
  ],
  'kettle-manual',
);

describe('the agent and its domain pack', () => {
  let report: FixtureIndex;
  let manual: FixtureIndex;
  beforeAll(async () => {
    [report, manual] = await Promise.all([buildFixtureIndex(annualReportTree()), buildFixtureIndex(MANUAL)]);
  });
  afterAll(async () => {
    await Promise.all([report.cleanup(), manual.cleanup()]);
  });

  it('reads an annual report with the finance pack and a manual with the generic one, and traces the choice', async () => {
    expect(detectDomainPack(report.index.tree).pack.name).toBe('finance');
    const agent = new DocTreeAgent({ index: manual.index });
    expect(agent.domainPack).toMatchObject({ chosenBy: 'default', pack: { name: 'generic' } });
    const run = await agent.ask('How long does boiling 1.7 litres take?');
    const route = run.answer.trace.events.find((e) => e.type === 'route');
    expect(route?.message).toContain('domain pack generic');
    expect(route?.data?.['domain_pack']).toEqual({ name: 'generic', chosen_by: 'default' });
    expect((route?.data?.['analysis'] as { pack?: string } | undefined)?.pack).toBe('generic');
  });

  it('uses the pack it is given over the document', () => {
    const agent = new DocTreeAgent({ index: manual.index, domainPack: builtinDomainPack('finance') });
    expect(agent.domainPack).toMatchObject({ chosenBy: 'config', pack: { name: 'finance' } });
  });
});
