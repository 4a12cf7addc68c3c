// What ran in the long blocking stretches of an ask: an in-process CPU profile (node:inspector) read against the gaps
// the heartbeat of event-loop.mjs recorded. The profile's sample times and `process.hrtime` are the same monotonic
// clock (µs), so every gap [start, end] selects the samples taken inside it. Used by `event-loop.mjs --cpu-prof DIR`.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Session } from 'node:inspector/promises';

/** Microseconds on the profiler's clock. */
export const nowMicros = () => Number(process.hrtime.bigint() / 1000n);

/** Starts a sampling CPU profile of this process; `stop()` returns the profile. */
export async function startProfile(intervalMicros = 200) {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: intervalMicros });
  await session.post('Profiler.start');
  return {
    stop: async () => {
      const { profile } = await session.post('Profiler.stop');
      session.disconnect();
      return profile;
    },
  };
}

const frameName = (node) => {
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url.replace(/^.*\/(packages|node_modules)\//, '$1/').replace(/^file:\/\/.*\/tools\//, 'tools/');
  return `${functionName || '(anonymous)'}${where ? ` ${where}:${lineNumber + 1}` : ''}`;
};

/**
 * For each gap (`{ startMicros, endMicros, ms, label }`): the functions with the most self time in it and, among
 * DocTree's own (`packages/`), the most inclusive time — where to put a pause.
 */
export function summarizeStretches(profile, gaps, { top = 6 } = {}) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const times = [];
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i];
    times.push(t);
  }
  return gaps.map((gap) => {
    const self = new Map();
    const inclusive = new Map();
    for (let i = 0; i < times.length; i++) {
      if (times[i] < gap.startMicros || times[i] > gap.endMicros) continue;
      const dt = (times[i + 1] ?? times[i]) - times[i];
      const leaf = byId.get(profile.samples[i]);
      const leafName = frameName(leaf);
      self.set(leafName, (self.get(leafName) ?? 0) + dt);
      const seen = new Set();
      for (let id = leaf.id; id !== undefined; id = parent.get(id)) {
        const name = frameName(byId.get(id));
        if (seen.has(name) || !name.includes('packages/')) continue;
        seen.add(name);
        inclusive.set(name, (inclusive.get(name) ?? 0) + dt);
      }
    }
    const best = (map) => [...map].sort((a, b) => b[1] - a[1]).slice(0, top).map(([name, us]) => `${(us / 1000).toFixed(1)} ms ${name}`);
    return { ms: gap.ms, label: gap.label, self: best(self), ours: best(inclusive) };
  });
}

/** Writes the profile (open it in Chrome DevTools) and returns its path. */
export function writeProfile(dir, name, profile) {
  const file = join(dir, `${name.replace(/[^\w.-]+/g, '_')}.cpuprofile`);
  writeFileSync(file, JSON.stringify(profile));
  return file;
}
