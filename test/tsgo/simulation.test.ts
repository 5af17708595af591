// The speculative-session scenarios every language runs (test/simulation/scenarios.ts), on typescript-go.
import { describeSimulation } from '../simulation/scenarios.js';

describeSimulation('speculative sessions (preview_edit, simulate_edit, simulate_chain) with typescript-go', {
  fixture: 'ts-basic',
  language: 'typescript',
  serveArgs: ['--ts-server', 'tsgo'],
  server: /typescript-go/,
  clean: { file: 'src/main.ts', comment: '// note' },
  typeError: { file: 'src/shapes.ts', line: 20, text: '  return "wrong";\n', message: /not assignable to type 'number'/ },
  broken: {
    file: 'src/broken.ts',
    line: 3,
    fix: { old_text: "export const n: number = 'not a number';", new_text: 'export const n: number = 3;' },
    duplicate: { old_text: "export const n: number = 'not a number';\n", new_text: "export const n: number = 'not a number';\nexport const m: number = 'not a number';\n" },
  },
  signature: {
    file: 'src/shapes.ts',
    old_text: 'export function totalArea(shapes: Shape[]): number {',
    new_text: 'export function totalArea(shapes: Shape[], scale: number): number {',
    caller: 'src/main.ts',
    message: /Expected 2 arguments, but got 1/,
  },
  chain: {
    file: 'src/shapes.ts',
    safe: { old_text: 'export interface Shape {', new_text: '/** A shape. */\nexport interface Shape {' },
    breaking: { old_text: 'return this.side * this.side;', new_text: 'return "wrong";' },
    fixing: { old_text: 'return "wrong";', new_text: 'return 0;' },
  },
});
