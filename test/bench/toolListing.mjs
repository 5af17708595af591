// tools/list side by side: ours, ours before output schemas were outlined (each tool's full output
// schema, as sent until issue 33), and the original agent-lsp's. For each: its size, and what the MCP
// SDK client does with it at listTools — parse the JSON and compile every output schema with ajv
// (cacheToolMetadata, the SDK's AjvJsonSchemaValidator) — in fresh processes, as an agent pays it
// once per session: ajv's own code is cold. `node test/bench/run.mjs --only toolslist`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { fullOutputSchema } from '../../packages/server/dist/toolList.js';
import { selectTools } from '../../packages/tools/dist/index.js';
import { originalBinary } from './originalBinary.mjs';
import { BIN } from './programFront.mjs';
import { summarize } from './stats.mjs';

const median = (xs) => summarize(xs).p50;

export const TOOLS_LIST_HEADING = '## tools/list: its size and the client\'s work on it';

/** Run in a fresh node: the SDK client's work on a tools/list answer read from a file (JSON text). */
const CLIENT_WORK = `
const { readFileSync } = require('node:fs');
const { AjvJsonSchemaValidator } = require('@modelcontextprotocol/sdk/validation/ajv');
const text = readFileSync(process.argv[1], 'utf8');
const t0 = performance.now(); const c0 = process.cpuUsage();
const { tools } = JSON.parse(text);
const validator = new AjvJsonSchemaValidator();
for (const tool of tools) if (tool.outputSchema) validator.getValidator(tool.outputSchema);
const cpu = process.cpuUsage(c0);
process.stdout.write(JSON.stringify({ wallMs: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000 }));
`;

/** The tools a front lists, through the SDK client (which compiles them too). */
async function listedTools(command, args, env) {
  const transport = new StdioClientTransport({ command, args, env, stderr: 'ignore' });
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(transport);
  try {
    return (await client.listTools()).tools;
  } finally {
    await client.close();
  }
}

function clientWork(file) {
  const r = spawnSync(process.execPath, ['-e', CLIENT_WORK, file], { encoding: 'utf8', cwd: new URL('../..', import.meta.url).pathname });
  if (r.status !== 0) throw new Error(`client work on ${file}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

export async function toolListingSection(log, runs = 15) {
  const tmp = mkdtempSync(join(tmpdir(), 'agent-lsp-bench-list-'));
  try {
    const home = join(tmp, 'home');
    const env = { ...process.env, AGENT_LSP_HOME: home };
    const ours = await listedTools(BIN, ['serve'], env);
    const defs = new Map(selectTools().map((d) => [d.name, d]));
    // Before: every tool's full output schema and every annotation, as sent until this change.
    const before = ours.map((t) => ({ ...t, outputSchema: fullOutputSchema(defs.get(t.name)), annotations: { ...defs.get(t.name).annotations } }));
    const original = originalBinary();
    const listings = [
      { label: 'ours', tools: ours },
      { label: 'ours before (full output schemas)', tools: before },
      ...('notRun' in original ? [] : [{ label: original.label, tools: await listedTools(original.bin, [], env) }]),
    ];
    for (const l of listings) {
      l.file = join(tmp, `${listings.indexOf(l)}.json`);
      l.json = JSON.stringify({ tools: l.tools });
      writeFileSync(l.file, l.json);
      l.samples = [];
    }
    log(`tools/list: ${listings.map((l) => `${l.label} ${l.json.length} B`).join(', ')}`);
    // Interleaved, so that a shared machine's load falls on all alike.
    for (let i = 0; i < runs; i++) for (const l of listings) l.samples.push(clientWork(l.file));
    const bytes = (tools, pick) => tools.reduce((n, t) => n + (pick(t) === undefined ? 0 : JSON.stringify(pick(t)).length), 0);
    const rows = listings.map((l) => {
      const withOutput = l.tools.filter((t) => t.outputSchema).length;
      return `| ${l.label} | ${l.tools.length} | ${(l.json.length / 1000).toFixed(1)} KB | ${(bytes(l.tools, (t) => t.inputSchema) / 1000).toFixed(1)} KB | ${(bytes(l.tools, (t) => t.outputSchema) / 1000).toFixed(1)} KB (${withOutput} tools) | ${median(l.samples.map((s) => s.wallMs)).toFixed(1)} ms | ${median(l.samples.map((s) => s.cpuMs)).toFixed(1)} ms |`;
    });
    return `${TOOLS_LIST_HEADING}

What an agent's MCP client receives at tools/list, and its work on it before the first call: the MCP
SDK client parses the answer and compiles every tool's output schema with ajv (it validates each
result's structuredContent against it). Measured in fresh node processes (ajv's code cold, as in
an agent's session), median of ${runs}, the rows interleaved. Our output schemas are outlines of the
results (packages/server/src/outputOutline.ts): the names of their top-level fields (which are always
present is in docs/tools.md: a \`required\` list cost the client as much again as every name); every
result is checked against the tool's full schema on our side before it is sent, and an outline
accepts whatever the full schema accepts (outputOutline.test.ts). The client's work is mostly a
fixed cost per output schema it compiles (~0.5 ms of CPU each, ajv's code still cold), so it grows
with the number of tools more than with their size.
${'notRun' in original ? `\nThe original: not run (${original.notRun}).\n` : ''}
| listing | tools | JSON | input schemas | output schemas | client: parse + compile, wall | client: its CPU |
| --- | --- | --- | --- | --- | --- | --- |
${rows.join('\n')}

Targets (issue 33): the client's work on our listing ≤ 50 ms; the listing ≤ the original's.
`;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
