import { z } from 'zod';
import { listDaemons } from '@agent-lsp/broker';
import { daemonsReportOut } from '../output/daemonReport.js';
import { readyOutput } from '../catalog/schemas.js';
import { defineTool, READ_ONLY } from '../catalog/toolDefinition.js';

const daemonOut = z.object({
  language: z.string(),
  root: z.string(),
  state: z.string().describe('starting | indexing | ready | restarting | stopping'),
  ready: z.boolean(),
  progress: z.object({ title: z.string().optional(), message: z.string().optional(), percentage: z.number().optional() }).optional(),
  clients: z.number().describe('Clients connected now: fronts, HTTP sessions, editors.'),
  client_list: z
    .array(z.object({ kind: z.enum(['front', 'http', 'editor']), pid: z.number().optional(), name: z.string().optional(), since: z.string() }))
    .optional()
    .describe('Who is connected, with pid and since when.'),
  uptime_seconds: z.number(),
  idle_seconds: z.number(),
  last_activity_at: z.string().optional().describe('Last client request or disconnect; idle brokers are evicted least recently used first.'),
  broker_pid: z.number(),
  server: z.string(),
  server_pid: z.number().optional(),
  companion_pid: z.number().optional().describe('A paired server\'s second process (vue-language-server beside vtsls).'),
  rss_mib: z.number().optional().describe('Resident memory of broker, server (and companion) and their children.'),
  socket: z.string().describe('The broker\'s Unix socket.'),
});

export const getDaemonStatus = defineTool({
  name: 'get_daemon_status',
  title: 'Broker daemon status',
  description: 'The warm language-server brokers on this machine: state, clients, memory, pids.',
  group: 'lifecycle',
  input: () => ({}),
  output: () => ({
    ...readyOutput,
    home: z.string().optional(),
    daemons: z.array(daemonOut).optional(),
    stale: z.array(z.object({ key: z.string(), dir: z.string(), reason: z.string() })).optional(),
    orphans: z.array(z.object({ pid: z.number(), key: z.string().optional() })).optional(),
  }),
  annotations: READ_ONLY,
  async handler() {
    return { ready: true, ...daemonsReportOut(await listDaemons()) };
  },
  text: (r) => {
    const lines = (r.daemons ?? []).map((d) => {
      const progress = d.ready ? '' : ` (${[d.progress?.title, d.progress?.message].filter(Boolean).join(': ')})`;
      return `${d.language} ${d.root}: ${d.state}${progress} · clients ${d.clients}${kinds(d.client_list)} · up ${d.uptime_seconds}s · idle ${d.idle_seconds}s · broker pid ${d.broker_pid}, ${d.server} pid ${d.server_pid ?? '-'}${d.companion_pid !== undefined ? `, companion pid ${d.companion_pid}` : ''} · ${d.rss_mib ?? '?'} MiB`;
    });
    if (lines.length === 0) lines.push(`No broker daemons running (home: ${r.home}).`);
    for (const s of r.stale ?? []) lines.push(`STALE ${s.dir}: ${s.reason}`);
    for (const o of r.orphans ?? []) lines.push(`ORPHAN broker pid ${o.pid}`);
    return lines.join('\n');
  },
});

/** ` (2 http, 1 editor)`: who the clients are, by kind. */
function kinds(list: readonly { kind: string }[] | undefined): string {
  if (!list?.length) return '';
  const counts = new Map<string, number>();
  for (const c of list) counts.set(c.kind, (counts.get(c.kind) ?? 0) + 1);
  return ` (${[...counts].map(([k, n]) => `${n} ${k}`).join(', ')})`;
}
