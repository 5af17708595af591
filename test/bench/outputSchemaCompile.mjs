// What a client's compile of our tools' output schemas costs, the way the MCP SDK client does it at
// listTools (its AjvJsonSchemaValidator: ajv, allErrors, formats): `pnpm build`, then
// `node test/bench/outputSchemaCompile.mjs [--per-tool]`. Prints the first compile in this fresh
// process (what an agent that lists tools once pays: ajv's own code is still cold), the warm
// compile (median), the schemas' size, and the share of the envelope every tool's output repeats.
import { performance } from 'node:perf_hooks';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { toolSchemas } from '../../packages/server/dist/toolList.js';
import { selectTools } from '../../packages/tools/dist/index.js';

const schemas = Object.entries(toolSchemas(selectTools())).map(([name, s]) => [name, s.outputSchema]);
/** Schema objects (each may carry keywords a validator compiles). */
const nodes = (n) => (Array.isArray(n) ? n.reduce((a, x) => a + nodes(x), 0) : n && typeof n === 'object' ? 1 + Object.values(n).reduce((a, x) => a + nodes(x), 0) : 0);
/** What runTool, the phase gate and the readiness gate may add to any result. */
const ENVELOPE = new Set(['workspace_root', 'root_inferred', 'phase_warning', 'ready', 'progress', 'state']);
const withoutEnvelope = (s) => ({ ...s, properties: Object.fromEntries(Object.entries(s.properties ?? {}).filter(([k]) => !ENVELOPE.has(k))), required: (s.required ?? []).filter((k) => !ENVELOPE.has(k)) });

/** Compiles every schema with a new validator (a new client), from the JSON a client receives. */
function compileAll(list) {
  const parsed = JSON.parse(JSON.stringify(list));
  const validator = new AjvJsonSchemaValidator();
  const times = [];
  const t0 = performance.now();
  for (const [name, schema] of parsed) {
    const t = performance.now();
    validator.getValidator(schema);
    times.push([name, performance.now() - t]);
  }
  return { total: performance.now() - t0, times };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const cold = compileAll(schemas);
// Interleaved, so that a shared machine's load falls on both alike.
const bareSchemas = schemas.map(([n, s]) => [n, withoutEnvelope(s)]);
const warm = [];
const bare = [];
for (let i = 0; i < 11; i++) {
  warm.push(compileAll(schemas));
  bare.push(compileAll(bareSchemas).total);
}
const total = schemas.reduce((a, [, s]) => a + nodes(s), 0);
const envelope = total - schemas.reduce((a, [, s]) => a + nodes(withoutEnvelope(s)), 0);
console.log(`${schemas.length} output schemas, ${total} schema nodes, ${JSON.stringify(schemas.map(([, s]) => s)).length} bytes of JSON`);
console.log(`first compile in this process: ${cold.total.toFixed(1)} ms; warm: ${median(warm.map((w) => w.total)).toFixed(1)} ms (median of ${warm.length})`);
console.log(`the envelope (${[...ENVELOPE].join(', ')}): ${envelope} nodes; warm compile without it: ${median(bare).toFixed(1)} ms`);
if (process.argv.includes('--per-tool')) {
  const perTool = new Map(schemas.map(([name]) => [name, median(warm.map((w) => w.times.find(([n]) => n === name)[1]))]));
  for (const [name, s] of [...schemas].sort((a, b) => perTool.get(b[0]) - perTool.get(a[0]))) console.log(`${name.padEnd(30)} ${perTool.get(name).toFixed(2).padStart(6)} ms ${String(nodes(s)).padStart(4)} nodes`);
}
