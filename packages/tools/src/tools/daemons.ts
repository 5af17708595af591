import { z } from 'zod';
import { listDaemons } from '@agent-lsp/broker';
import { readyOutput } from '../schemas.js';
import { defineTool, READ_ONLY } from '../toolDefinition.js';

const daemonOut = z.object({
  language: z.string(),
  root: z.string(),
  state: z.string().describe('starting | indexing | ready | restarting | stopping'),
  ready: z.boolean(),
  progress: z.object({ title: z.string().optional(), message: z.string().optional(), percentage: z.number().optional() }).optional(),
  clients: z.number().describe('Front processes (agent sessions) connected now.'),
  uptime_seconds: z.number(),
  idle_seconds: z.number(),
  broker_pid: z.number(),
  server: z.string(),
  server_pid: z.number().optional(),
  rss_mib: z.number().optional().describe('Resident memory of broker, server and its children.'),
});

export const getDaemonStatus = defineTool({
  name: 'get_daemon_status',
  title: 'Broker daemon status',
  description: 'The warm language-server brokers on this machine: state, clients, memory, pids.',
  group: 'lifecycle',
  input: {},
  output: {
    ...readyOutput,
    home: z.string().optional(),
    daemons: z.array(daemonOut).optional(),
    stale: z.array(z.object({ dir: z.string(), reason: z.string() })).optional(),
    orphans: z.array(z.object({ pid: z.number(), key: z.string().optional() })).optional(),
  },
  annotations: READ_ONLY,
  async handler() {
    const report = await listDaemons();
    return {
      ready: true,
      home: report.home,
      daemons: report.daemons.map((d) => {
        const out: z.infer<typeof daemonOut> = {
          language: d.language,
          root: d.root,
          state: d.state,
          ready: d.ready,
          clients: d.clients,
          uptime_seconds: Math.round(d.uptimeMs / 1000),
          idle_seconds: Math.round(d.idleMs / 1000),
          broker_pid: d.brokerPid,
          server: d.server,
        };
        if (d.progress) out.progress = d.progress;
        if (d.serverPid !== undefined) out.server_pid = d.serverPid;
        if (d.rssBytes !== undefined) out.rss_mib = Math.round(d.rssBytes / 1048576);
        return out;
      }),
      stale: report.stale.map((s) => ({ dir: s.dir, reason: s.reason })),
      orphans: report.orphans.map((o) => (o.key ? { pid: o.pid, key: o.key } : { pid: o.pid })),
    };
  },
  text: (r) => {
    const lines = (r.daemons ?? []).map((d) => {
      const progress = d.ready ? '' : ` (${[d.progress?.title, d.progress?.message].filter(Boolean).join(': ')})`;
      return `${d.language} ${d.root}: ${d.state}${progress} · clients ${d.clients} · up ${d.uptime_seconds}s · idle ${d.idle_seconds}s · broker pid ${d.broker_pid}, ${d.server} pid ${d.server_pid ?? '-'} · ${d.rss_mib ?? '?'} MiB`;
    });
    if (lines.length === 0) lines.push(`No broker daemons running (home: ${r.home}).`);
    for (const s of r.stale ?? []) lines.push(`STALE ${s.dir}: ${s.reason}`);
    for (const o of r.orphans ?? []) lines.push(`ORPHAN broker pid ${o.pid}`);
    return lines.join('\n');
  },
});
