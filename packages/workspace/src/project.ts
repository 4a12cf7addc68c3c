import { z } from 'zod';

/** Version of the tool written into `meta/project.json`, build manifests and query runs. */
export const WORKSPACE_TOOL_VERSION = '0.1.0' as const;
/** Name and version of the tool as recorded. */
export const WORKSPACE_TOOL = `@doctree/workspace@${WORKSPACE_TOOL_VERSION}` as const;

/** `meta/project.json`. */
export const ProjectFileSchema = z.object({
  format: z.literal('doctree.workspace-project'),
  version: z.literal(1),
  /** From the workspace folder's name unless given. */
  project_id: z.string().min(1),
  created_at: z.string().min(1),
  tool_version: z.string().min(1),
  /** Hash of the configuration written at init. */
  config_hash: z.string().min(1),
});
/** `meta/project.json`. */
export type ProjectFile = z.infer<typeof ProjectFileSchema>;

/** `YYYY-MM-DD` that names a real calendar day. */
export function isCalendarDate(value: string): boolean {
  const m = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** `YYYY`, `YYYY-MM` or a calendar `YYYY-MM-DD` (a publication date is often known to the year only). */
export function isPartialDate(value: string): boolean {
  if (/^[0-9]{4}$/.test(value)) return true;
  const m = /^([0-9]{4})-([0-9]{2})$/.exec(value);
  if (m) return Number(m[2]) >= 1 && Number(m[2]) <= 12;
  return isCalendarDate(value);
}

/** A compact UTC timestamp for ids: `20260102T030405Z`. */
export function compactTimestamp(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '').replace(/\.[0-9]{3}/, '');
}
