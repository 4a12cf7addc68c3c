const { readFileSync } = require('node:fs');

const swcJestConfig = JSON.parse(readFileSync(`${__dirname}/.spec.swcrc`, 'utf-8'));
swcJestConfig.swcrc = false;

module.exports = {
  displayName: 'jobs',
  preset: '../../jest.preset.cjs',
  transform: { '^.+\\.[tj]s$': ['@swc/jest', swcJestConfig] },
  moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json'],
  coverageDirectory: 'test-output/jest/coverage',
  reporters: require('../../jest.preset.cjs').reportersFor('jobs'),
};
