#!/usr/bin/env node
// Writes docs/schemas/<name>.json from @doctree/schema's built dist (run through `npm run schemas`).
import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { artifactJsonSchemas } from '../../packages/schema/dist/index.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dir = join(root, 'docs', 'schemas');
mkdirSync(dir, { recursive: true });
const schemas = artifactJsonSchemas();
for (const file of readdirSync(dir)) {
  if (file.endsWith('.json') && !(file.slice(0, -5) in schemas)) rmSync(join(dir, file));
}
for (const [name, schema] of Object.entries(schemas)) {
  const target = join(dir, `${name}.json`);
  const temp = `${target}.tmp-${process.pid}`;
  writeFileSync(temp, `${JSON.stringify(schema, null, 2)}\n`);
  renameSync(temp, target);
}
console.log(`wrote ${Object.keys(schemas).length} JSON Schemas to docs/schemas/`);
