export { run } from './main.js';
