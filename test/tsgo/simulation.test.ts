// The speculative-session scenarios every language runs (test/simulation/scenarios.ts), on typescript-go.
import { describeSimulation, TYPESCRIPT_CASE } from '../simulation/scenarios.js';

describeSimulation('speculative sessions (preview_edit, simulate_edit, simulate_chain) with typescript-go', {
  ...TYPESCRIPT_CASE,
  serveArgs: ['--ts-server', 'tsgo'],
  server: /typescript-go/,
});
