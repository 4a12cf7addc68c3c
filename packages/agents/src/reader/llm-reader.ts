import { z } from 'zod';
import {
  AnswerFormatSchema,
  DocTreeError,
  redactSecrets,
  type AnswerReader,
  type AnswerValue,
  type ChatModelClient,
  type ReadRequest,
  type ReadResult,
  type Support,
} from '@doctree/schema';
import { parseJsonReply } from '../llm/json-reply.js';
import { BaseReader, NOT_ANSWERABLE, type BaseReaderOptions } from './base-reader.js';
import { ExtractiveReader } from './extractive-reader.js';
import { findNumbers, SCALE_FACTORS } from './numbers.js';
import { locateQuote, observationText, supportFor } from './observation-text.js';
import { profileQuestion } from './question-profile.js';
import { injectionSpans, READER_PROMPT_DEFAULTS, renderReaderPrompt, type ReaderPromptOptions } from './reader-prompt.js';

/** Options of {@link LlmReader}. */
export interface LlmReaderOptions extends BaseReaderOptions, ReaderPromptOptions {
  /** The chat model. */
  client: ChatModelClient;
  /** Reader used when the model fails, replies badly or gives an unsupported answer. Default `new ExtractiveReader()`. */
  fallback?: AnswerReader;
  /** Most completion tokens. Default 500. */
  maxTokens?: number;
  /** On a model error (timeout, 429s, unreachable): `fallback` (default) answers with the fallback reader; `throw` propagates it. */
  onModelError?: 'fallback' | 'throw';
  /** Strings never to show in notes (API keys). */
  secrets?: readonly string[];
}

/** Defaults of {@link LlmReaderOptions}. */
export const LLM_READER_DEFAULTS = { ...READER_PROMPT_DEFAULTS, maxTokens: 500, onModelError: 'fallback' } as const satisfies Partial<LlmReaderOptions>;

/** What the model must reply (validated with zod: model output is untrusted). */
export const LlmReaderReplySchema = z.object({
  answer: z.union([z.string(), z.number(), z.array(z.union([z.string(), z.number()]))]),
  answer_format: AnswerFormatSchema,
  confidence: z.number().min(0).max(1),
  support_node_ids: z.array(z.string()).default([]),
  quote: z.string().default(''),
});
/** A validated model reply. */
export type LlmReaderReply = z.infer<typeof LlmReaderReplySchema>;

/** Operations whose result need not be written in the evidence. */
const COMPUTED = new Set(['count', 'sum', 'difference', 'ratio', 'percent', 'percent_change', 'average']);

function overlaps(a: { start: number; end: number }, b: { start: number; end: number }): boolean {
  return a.start < b.end && b.start < a.end;
}

/** True when `value` (or it in another scale) is written among the numbers of `text`. */
function numberWritten(value: number, text: string): boolean {
  // Same value in another scale (`1,482` million = 1.482 billion) or as a fraction/percentage (0.042 = 4.2%).
  const factors = [1, 100, 0.01, ...Object.values(SCALE_FACTORS).flatMap((f) => [f, 1 / f])];
  return findNumbers(text, { words: true }).some((m) =>
    factors.some((f) => {
      const v = Math.abs(m.value) * f;
      return Math.abs(v - Math.abs(value)) <= Math.max(1e-6, Math.abs(value) * 0.005);
    }),
  );
}

/**
 * The LLM reader: asks the chat model ("You are an analyst reasoning over structured evidence") with the question
 * and the observations fenced as data, trimmed to a token budget, in JSON mode; validates the reply with zod; then
 * grounds it: the quote must occur in a cited (or any) observation and must not come from text that reads as an
 * injected instruction, and a looked-up number must be written in the quoted evidence. The support is the quote's
 * exact span. Malformed or unsupported replies and model failures fall back to the extractive reader, with a note
 * saying why; cancellation propagates.
 *
 * @example
 * ```ts
 * const reader = new LlmReader({ client: new OpenAIChatClient({ baseURL, apiKey, model: 'gpt-4o-mini' }) });
 * const result = await reader.read({ question, observations, decision });
 * ```
 */
export class LlmReader extends BaseReader {
  readonly id: string;
  private readonly options: LlmReaderOptions & Required<Pick<LlmReaderOptions, 'maxTokens' | 'onModelError' | 'maxEvidenceTokens' | 'maxTokensPerItem'>>;
  private readonly fallback: AnswerReader;

  /** @param options the chat client, the fallback reader, prompt budget and error policy. */
  constructor(options: LlmReaderOptions) {
    super(options);
    if (!options?.client) throw new DocTreeError('CONFIG_INVALID', 'LlmReader needs a chat client', { hint: 'Pass { client } (see createChatClient).' });
    this.options = { ...LLM_READER_DEFAULTS, ...options };
    this.fallback = options.fallback ?? new ExtractiveReader();
    this.id = `llm:${options.client.model}`;
  }

  protected async _read(request: ReadRequest): Promise<ReadResult> {
    const prompt = renderReaderPrompt(request.question, request.observations, request.decision, this.options, request.computed ?? []);
    const notes = [`prompt: ${prompt.included.length} evidence item(s), ~${prompt.tokens} tokens${prompt.dropped.length ? `, ${prompt.dropped.length} left out by the budget` : ''}`];
    let text: string;
    let usage: ReadResult['usage'];
    try {
      const reply = await this.options.client.chat({
        messages: prompt.messages,
        json: true,
        purpose: 'chat',
        maxTokens: this.options.maxTokens,
        ...(request.signal ? { signal: request.signal } : {}),
      });
      text = reply.text;
      usage = reply.usage;
    } catch (error) {
      if (request.signal?.aborted || (DocTreeError.isInstance(error) && error.code === 'CANCELLED')) {
        throw DocTreeError.isInstance(error) ? error : new DocTreeError('CANCELLED', 'reading was cancelled', { cause: error });
      }
      if (this.options.onModelError === 'throw') throw error;
      return this.fallBack(request, [...notes, `model call failed (${this.describe(error)}); ${this.fallback.id} answered`]);
    }
    let reply: LlmReaderReply;
    try {
      reply = parseJsonReply(text, LlmReaderReplySchema, 'reader answer');
    } catch (error) {
      return this.fallBack(request, [...notes, `model reply rejected (${this.describe(error)}); ${this.fallback.id} answered`], usage);
    }
    if (reply.answer_format === 'None') {
      return { answer: NOT_ANSWERABLE, answer_format: 'None', confidence: reply.confidence, support: [], ...(usage ? { usage } : {}), notes: [...notes, 'the model found the question not answerable from the evidence'] };
    }
    const grounded = this.ground(request, reply);
    if (!grounded.ok) {
      return this.fallBack(request, [...notes, `model answer ${JSON.stringify(reply.answer)} rejected: ${grounded.reason}; ${this.fallback.id} answered`], usage);
    }
    return {
      answer: reply.answer,
      answer_format: reply.answer_format,
      confidence: reply.confidence,
      support: grounded.support,
      ...(usage ? { usage } : {}),
      notes: [...notes, `quote found in ${grounded.support.map((s) => s.node_id).join(', ')}`],
    };
  }

  /** Checks the reply against the evidence; returns the quote's supports. */
  private ground(request: ReadRequest, reply: LlmReaderReply): { ok: true; support: Support[] } | { ok: false; reason: string } {
    const observed = request.observations;
    const cited = observed.filter((o) => reply.support_node_ids.includes(o.node_id));
    const order = [...cited, ...observed.filter((o) => !cited.includes(o))];
    const support: Support[] = [];
    let injected = false;
    const quotes = reply.quote.trim() ? [reply.quote] : [];
    // Without a usable quote, the answer itself written in a cited item is the support.
    const answers: AnswerValue[] = Array.isArray(reply.answer) ? reply.answer : [reply.answer];
    const fallbackQuotes = answers.map((a) => String(a)).filter((a) => a.trim().length >= 2);
    for (const quote of [...quotes, ...(quotes.length ? [] : fallbackQuotes)]) {
      for (const observation of quote === reply.quote ? order : cited) {
        const text = observationText(observation);
        const at = locateQuote(text.text, quote);
        if (!at) continue;
        if (injectionSpans(text.text).some((span) => overlaps(span, at))) {
          injected = true;
          continue;
        }
        support.push(supportFor(observation, at.start, at.end, text));
        break;
      }
      if (support.length > 0) break;
    }
    if (support.length === 0) {
      return { ok: false, reason: injected ? 'its quote comes from text that reads as an injected instruction' : 'its quote does not occur in the evidence' };
    }
    const profile = profileQuestion(request.question, request.decision);
    const computed = profile.operations.some((o) => COMPUTED.has(o));
    if ((reply.answer_format === 'Int' || reply.answer_format === 'Float') && !computed) {
      const value = typeof reply.answer === 'number' ? reply.answer : Number(String(reply.answer).replace(/[^\d.-]/g, ''));
      const quoted = support.map((s) => s.snippet).join('\n');
      if (!Number.isFinite(value) || !numberWritten(value, quoted)) {
        return { ok: false, reason: 'the number is not written in the quoted evidence' };
      }
    }
    return { ok: true, support };
  }

  private async fallBack(request: ReadRequest, notes: string[], usage?: ReadResult['usage']): Promise<ReadResult> {
    const result = await this.fallback.read(request);
    return { ...result, ...(usage ? { usage } : {}), notes: [...notes, ...(result.notes ?? [])] };
  }

  private describe(error: unknown): string {
    const text = DocTreeError.isInstance(error) ? `${error.code}: ${error.message}` : error instanceof Error ? error.message : String(error);
    return redactSecrets(text, [...(this.options.secrets ?? [])]);
  }
}
