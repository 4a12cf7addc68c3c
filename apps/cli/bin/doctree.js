#!/usr/bin/env node
// Thin launcher so the `doctree` bin exists before the first build; all logic lives in dist/.
import { run } from '../dist/main.js';

process.exitCode = await run(process.argv.slice(2));
