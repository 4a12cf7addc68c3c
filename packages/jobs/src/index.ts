/** DocTree jobs on BullMQ. */
export const JOBS_FORMAT_VERSION = 1 as const;
