/** DocTree evidence workspace. */
export const WORKSPACE_FORMAT_VERSION = 1 as const;
