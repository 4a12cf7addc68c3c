import nx from '@nx/eslint-plugin';

/**
 * Layering (one way only): schema <- ingest, index <- toolhub <- agents;
 * rag-baseline uses schema + index; eval uses schema only; pipeline composes every library for the apps;
 * apps may use every library;
 * nothing imports an app. See AGENTS.md.
 */
export const layeringConstraints = [
  { sourceTag: 'scope:schema', onlyDependOnLibsWithTags: ['scope:schema'] },
  { sourceTag: 'scope:ingest', onlyDependOnLibsWithTags: ['scope:schema'] },
  { sourceTag: 'scope:index', onlyDependOnLibsWithTags: ['scope:schema'] },
  { sourceTag: 'scope:toolhub', onlyDependOnLibsWithTags: ['scope:schema', 'scope:index'] },
  { sourceTag: 'scope:agents', onlyDependOnLibsWithTags: ['scope:schema', 'scope:index', 'scope:toolhub'] },
  { sourceTag: 'scope:rag-baseline', onlyDependOnLibsWithTags: ['scope:schema', 'scope:index'] },
  { sourceTag: 'scope:eval', onlyDependOnLibsWithTags: ['scope:schema'] },
  {
    sourceTag: 'scope:pipeline',
    onlyDependOnLibsWithTags: ['scope:schema', 'scope:ingest', 'scope:index', 'scope:toolhub', 'scope:agents', 'scope:rag-baseline', 'scope:eval'],
  },
  {
    sourceTag: 'scope:langchain',
    onlyDependOnLibsWithTags: ['scope:schema', 'scope:index', 'scope:toolhub', 'scope:agents', 'scope:pipeline'],
  },
  {
    sourceTag: 'scope:evidence-workspace',
    onlyDependOnLibsWithTags: ['scope:schema', 'scope:ingest', 'scope:index', 'scope:toolhub', 'scope:agents', 'scope:pipeline'],
  },
  { sourceTag: 'scope:store-postgres', onlyDependOnLibsWithTags: ['scope:schema', 'scope:index', 'scope:pipeline'] },
  { sourceTag: 'scope:jobs', onlyDependOnLibsWithTags: ['scope:schema', 'scope:pipeline', 'scope:store-postgres'] },
  { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
  { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
  { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:lib'] },
];

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  {
    ignores: ['**/dist', '**/out-tsc', '**/test-output', '**/node_modules', '**/*.cjs', '**/*.mjs'],
  },
  {
    files: ['**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: true,
          allow: [],
          depConstraints: layeringConstraints,
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
];
