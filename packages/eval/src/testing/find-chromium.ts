import { accessSync, constants, statSync } from 'node:fs';

/** Where {@link findChromiumExecutable} looks, after `DOCTREE_CHROMIUM`. */
export const CHROMIUM_CANDIDATE_PATHS: readonly string[] = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/lib/chromium/chromium',
  '/snap/bin/chromium',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/opt/google/chrome/chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
];

/** Arguments for a headless, offline, sandbox-free Chromium (CI containers run as root). */
export const CHROMIUM_HEADLESS_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Result of {@link findChromiumExecutable}. */
export type ChromiumLookup = { found: true; path: string } | { found: false; reason: string };

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * Finds a Chromium or Chrome executable for browser checks of the HTML report: `DOCTREE_CHROMIUM` when set (it must
 * exist), else the first of {@link CHROMIUM_CANDIDATE_PATHS}. The reason says how to provide one when none is found.
 */
export function findChromiumExecutable(env: Readonly<Record<string, string | undefined>> = process.env): ChromiumLookup {
  const configured = env['DOCTREE_CHROMIUM'];
  if (configured !== undefined && configured !== '') {
    return executable(configured) ? { found: true, path: configured } : { found: false, reason: `DOCTREE_CHROMIUM=${configured} is not an executable file` };
  }
  const path = CHROMIUM_CANDIDATE_PATHS.find(executable);
  return path !== undefined
    ? { found: true, path }
    : { found: false, reason: 'no Chromium found (install Debian `chromium` — `npm run setup` does it as root — or set DOCTREE_CHROMIUM=/path/to/chrome)' };
}
