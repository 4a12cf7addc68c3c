import { join } from 'node:path';

import type { Question } from '@doctree/schema';

import { loadDataset } from '../datasets/load-questions.js';
import { runEvaluation } from '../runner/run-evaluation.js';
import type { EvaluationResult } from '../runner/run-evaluation.js';
import { ScriptedQaSystem } from './scripted-qa-system.js';

/** The questions of `datasets/__fixtures__/questions.jsonl`. */
export async function fixtureQuestions(): Promise<Question[]> {
  return (await loadDataset(join(__dirname, '..', 'datasets', '__fixtures__', 'questions.jsonl'))).questions;
}

/**
 * A finished run of three scripted systems (one an ablation of another) over the fixture questions, with an answer
 * that tries to inject markup into the reports.
 */
export async function sampleRun(outDir: string): Promise<EvaluationResult> {
  const questions = await fixtureQuestions();
  const full = new ScriptedQaSystem({
    id: 'doctree',
    description: { label: 'DocTree', config: { planner: 'rules' } },
    answers: {
      'nw-001': { answer: '7', ranked: [3, 1] },
      'nw-002': { answer: 'Cold brew', ranked: [5, 2, 6] },
      'nw-003': { answer: 'Not answerable', ranked: [1] },
      'fb-90001': { answer: '412.5 million', ranked: [2, 9] },
    },
  });
  const ablation = new ScriptedQaSystem({
    id: 'doctree-no-replan',
    description: { label: 'DocTree − REPLAN', ablationOf: 'doctree' },
    answers: {
      'nw-001': { answer: '7', ranked: [1, 3] },
      'nw-002': { answer: 'Cold brew | espresso', ranked: [2, 5] },
      'nw-003': { answer: '3', ranked: [] },
      'fb-90001': { answer: '412.5 million', ranked: [1, 2, 9] },
    },
  });
  const rag = new ScriptedQaSystem({
    id: 'rag',
    description: { label: 'RAG hybrid (dense + BM25 chunks, reciprocal rank fusion)' },
    answers: {
      'nw-001': { answer: '8', ranked: [1, 2, 4, 5, 3] },
      'nw-002': { answer: '<script>alert("x")</script>', ranked: [7] },
      'nw-003': { answer: 'Not answerable', ranked: [] },
      'fb-90001': { answer: '$412.50', ranked: [9] },
    },
  });
  return runEvaluation({ questions, systems: [full, ablation, rag], outDir, dataset: 'fixture' });
}
