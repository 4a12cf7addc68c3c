import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACT_SCHEMAS, artifactJsonSchemas } from './json-schemas.js';

const docsDir = join(__dirname, '..', '..', '..', 'docs', 'schemas');

describe('JSON Schema export', () => {
  const schemas = artifactJsonSchemas();

  it('covers every artifact with a draft 2020-12 schema', () => {
    expect(Object.keys(schemas).sort()).toEqual(Object.keys(ARTIFACT_SCHEMAS).sort());
    for (const schema of Object.values(schemas)) {
      expect(schema).toMatchObject({ $schema: 'https://json-schema.org/draft/2020-12/schema' });
    }
  });

  it('matches the committed docs/schemas (run `npm run schemas` after changing a schema)', () => {
    expect(existsSync(docsDir)).toBe(true);
    const committed = readdirSync(docsDir).filter((f) => f.endsWith('.json')).sort();
    expect(committed).toEqual(Object.keys(schemas).map((n) => `${n}.json`).sort());
    for (const [name, schema] of Object.entries(schemas)) {
      const onDisk = JSON.parse(readFileSync(join(docsDir, `${name}.json`), 'utf8'));
      expect({ name, schema: onDisk }).toEqual({ name, schema: JSON.parse(JSON.stringify(schema)) });
    }
  });
});
