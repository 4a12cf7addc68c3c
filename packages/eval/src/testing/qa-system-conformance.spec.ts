import { join } from 'node:path';

import { ScriptedQaSystem } from '../__fixtures__/scripted-qa-system.js';
import { fixtureQuestions } from '../__fixtures__/sample-run.js';
import { runQaSystemConformance } from './qa-system-conformance.js';

const documentPath = join(__dirname, '..', 'datasets', '__fixtures__', 'pdfs', 'northwind-annual-report-2023.pdf');

runQaSystemConformance('scripted system', async () => {
  const question = (await fixtureQuestions())[0]!;
  return {
    system: new ScriptedQaSystem({ id: 'scripted', answers: { [question.id]: { answer: '7', ranked: [3, 1] } }, description: { label: 'Scripted', config: { k: 1 } } }),
    question,
    documentPath,
  };
});
