import { createHash } from 'node:crypto';
import { z } from 'zod';
import { canonicalJson } from '@doctree/index';

/** Version of `workspace.config.json`. */
export const WORKSPACE_CONFIG_VERSION = 1 as const;

/**
 * `workspace.config.json`: written once by `workspace init` with these defaults and never overwritten by the tool.
 * Keys of LLM endpoints are never stored here: they come from the environment (`OPENAI_API_KEY`, …).
 */
export const WorkspaceConfigSchema = z
  .object({
    format: z.literal('doctree.workspace-config'),
    version: z.literal(WORKSPACE_CONFIG_VERSION),
    verify_citations: z
      .object({
        /** Chunks of the cited document searched per citing sentence. */
        k: z.number().int().min(1).max(100).default(10),
        /** Support score at or above which a citation is OK. */
        threshold: z.number().min(0).max(1).default(0.55),
      })
      .strict()
      .default({ k: 10, threshold: 0.55 }),
    rerank: z
      .object({
        enabled: z.boolean().default(true),
        /** Candidates (children) taken from the first stage. */
        candidate_k: z.number().int().min(1).max(1000).default(50),
        /** Children kept after reranking. */
        top_n: z.number().int().min(1).max(200).default(10),
      })
      .strict()
      .default({ enabled: true, candidate_k: 50, top_n: 10 }),
    /** Audit: look for evidence against claims (`soft` lists it, `strict` also flags the claim). */
    counterevidence_mode: z.enum(['off', 'soft', 'strict']).default('off'),
    embedding: z
      .object({
        /** DocTree embedder: `sif` and `hashing` run offline, `openai` uses the configured endpoint. */
        kind: z.enum(['sif', 'hashing', 'openai']).default('sif'),
        /** Dimension of the `hashing` embedder. */
        dimension: z.number().int().min(8).max(4096).default(256),
        batch_size: z.number().int().min(1).max(2048).default(64),
      })
      .strict()
      .default({ kind: 'sif', dimension: 256, batch_size: 64 }),
    chunk: z
      .object({
        target_tokens: z.number().int().min(20).max(2000).default(200),
        min_tokens: z.number().int().min(1).max(2000).default(80),
        max_tokens: z.number().int().min(20).max(4000).default(300),
        /** Largest share of a child repeated from the previous one. */
        max_overlap: z.number().min(0).max(0.1).default(0.1),
      })
      .strict()
      .default({ target_tokens: 200, min_tokens: 80, max_tokens: 300, max_overlap: 0.1 }),
    /** Locators in order of preference. */
    locator_priority: z.array(z.enum(['page', 'char_anchor'])).default(['page', 'char_anchor']),
    /** Share of pages a line must repeat on to count as a running header or footer. */
    furniture_repeat_threshold: z.number().min(0).max(1).default(0.6),
    /**
     * A DocTree collection folder (relative to the workspace root, or absolute) that is the evidence store: its
     * documents are the citable sources and evidence is retrieved through it (`doctree workspace … ` open it through
     * the CLI). Absent: the workspace's own `raw/evidence`, `chunks/` and `index/`.
     */
    collection: z.string().min(1).optional(),
  })
  .strict();

/** The parsed workspace configuration. */
export type WorkspaceConfig = z.infer<typeof WorkspaceConfigSchema>;

/** The configuration `workspace init` writes (with `collection` when one is given). */
export function defaultWorkspaceConfig(options: { collection?: string } = {}): WorkspaceConfig {
  return WorkspaceConfigSchema.parse({ format: 'doctree.workspace-config', version: WORKSPACE_CONFIG_VERSION, ...(options.collection !== undefined ? { collection: options.collection } : {}) });
}

/** sha256 (hex, first 16 digits) of the canonical JSON of a configuration: recorded in every build and query run. */
export function workspaceConfigHash(config: WorkspaceConfig): string {
  return createHash('sha256').update(canonicalJson(config)).digest('hex').slice(0, 16);
}
