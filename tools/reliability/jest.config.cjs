const { readFileSync } = require('node:fs');

const swcJestConfig = JSON.parse(readFileSync(`${__dirname}/.spec.swcrc`, 'utf-8'));
swcJestConfig.swcrc = false;

module.exports = {
  displayName: 'reliability',
  preset: '../../jest.preset.cjs',
  transform: { '^.+\\.[tj]s$': ['@swc/jest', swcJestConfig] },
  moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json'],
  coverageDirectory: 'test-output/jest/coverage',
  // The cases run the built CLI in child processes; one file, in band, keeps them from competing for the cores.
  maxWorkers: 1,
  reporters: require('../../jest.preset.cjs').reportersFor('reliability'),
};
