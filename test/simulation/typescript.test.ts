import { describeSimulation, TYPESCRIPT_CASE } from './scenarios.js';

describeSimulation('speculative sessions with typescript-language-server', TYPESCRIPT_CASE);
