import { createHash } from 'node:crypto';
import { z } from 'zod';
import { inNotIndexedDir, resolveScoped, type ServerDefinition } from '@agent-lsp/lsp';
import { defineTool, type AnyToolDefinition, type ToolContext } from '../catalog/toolDefinition.js';
import { AnswerStore, answerKey, type CachedAnswer } from './answerStore.js';
import { workspaceState } from './workspaceState.js';

/** The read-only tools whose answers are kept (the original agent-lsp's reference and symbol cache, and more). */
export const CACHED_TOOLS: ReadonlySet<string> = new Set(['find_references', 'go_to_definition', 'go_to_type_definition', 'go_to_implementation', 'go_to_declaration', 'list_symbols']);

/** Arguments that change how long a call waits, never its answer. */
const NOT_IN_KEY = new Set(['wait_for_ready', 'ready_timeout_seconds']);

export const fromCacheOutput = z
  .object({ computed_at: z.string(), workspace_files: z.number() })
  .optional()
  .describe('Set when the answer was served from the answer cache: it was computed then on exactly the files the workspace has now (this many, every one hashed).');

/** AGENT_LSP_ANSWER_CACHE=on: kept and served in every workspace; off: in none; else where a workspace opted in (import_cache, export_cache). */
export function answerCacheEnabled(store: AnswerStore, env: NodeJS.ProcessEnv = process.env): boolean {
  const setting = env['AGENT_LSP_ANSWER_CACHE'];
  return setting === 'on' || (setting !== 'off' && store.enabled);
}

const identities = new Map<string, string | undefined>();

/**
 * The server as far as its answers go: its id and a hash of its settings with the root written
 * `<root>` (machine-independent where the settings are), so a teammate's cache matches.
 */
function serverIdentity(server: ServerDefinition, root: string, scope: readonly string[]): string | undefined {
  const memoKey = `${server.id}\0${root}\0${scope.join('\0')}`;
  if (!identities.has(memoKey)) {
    const resolved = resolveScoped(server, root, scope);
    const settings = resolved ? JSON.stringify([resolved.settings, resolved.initializationOptions ?? null]).split(root).join('<root>') : undefined;
    identities.set(memoKey, settings === undefined ? undefined : `${server.id}|${createHash('sha256').update(settings).digest('hex').slice(0, 16)}`);
  }
  return identities.get(memoKey);
}

interface Probe {
  store: AnswerStore;
  root: string;
  entry: Omit<CachedAnswer, 'result' | 'computed_at'>;
  files: number;
}

/**
 * What a call would be cached under, or undefined where its answer cannot be keyed on the
 * workspace's files alone: a file outside the one root or in a directory nobody indexes, a
 * workspace of several roots, a server that is not installed.
 */
async function probe(tool: string, args: Record<string, unknown>, ctx: ToolContext): Promise<Probe | undefined> {
  const filePath = args['file_path'];
  if (typeof filePath !== 'string') return undefined;
  await ctx.workspace.ensureRoots(filePath);
  const root = ctx.workspace.primaryRoot;
  if (root === undefined || ctx.workspace.rootList.length !== 1) return undefined;
  // Off (the default) before anything else: a query of a workspace that did not opt in does not
  // resolve its server and hash its settings for a key nobody reads (a fresh front's first query).
  const store = AnswerStore.forRoot(root);
  if (!answerCacheEnabled(store)) return undefined;
  const path = ctx.workspace.resolveFile(filePath);
  const file = ctx.workspace.display(path);
  if (file.startsWith('/') || inNotIndexedDir(root, path)) return undefined;
  const language = args['language_id'];
  const server = typeof language === 'string' ? ctx.workspace.registry.forLanguage(language) : ctx.workspace.registry.forFile(path)?.server;
  const identity = server ? serverIdentity(server, root, ctx.workspace.indexScope) : undefined;
  if (identity === undefined) return undefined;
  const keyArgs = Object.fromEntries(Object.entries({ ...args, file_path: file }).filter(([k, v]) => !NOT_IN_KEY.has(k) && v !== undefined));
  const state = await workspaceState(root, ctx.signal);
  return { store, root, entry: { tool, args: keyArgs, server: identity, state: state.hash }, files: state.files };
}

/**
 * The tool, answering from the answer cache when the workspace's files are exactly those an
 * earlier answer was computed on, and keeping each live answer computed while they did not change
 * and the server's index was whole (the state is taken again after it: a file written meanwhile keeps it out).
 */
export function withAnswerCache(def: AnyToolDefinition): AnyToolDefinition {
  return defineTool({
    name: def.name,
    ...(def.aliases ? { aliases: def.aliases } : {}),
    title: def.title,
    description: def.description,
    group: def.group,
    annotations: def.annotations,
    ...(def.concurrency ? { concurrency: def.concurrency } : {}),
    input: () => def.input,
    output: () => ({ ...def.output, from_cache: fromCacheOutput }),
    async handler(args: Record<string, unknown>, ctx) {
      // A call the probe cannot key (or a bad argument) goes live, where its error is said properly.
      const p = await probe(def.name, args, ctx).catch(() => undefined);
      const hit = p ? p.store.get(answerKey(p.entry)) : undefined;
      if (p && hit) return { ...hit.result, from_cache: { computed_at: hit.computed_at, workspace_files: p.files } };
      const result = (await def.handler(args, ctx)) as Record<string, unknown>;
      // An answer from a partial index (partialIndex.ts) is kept out: served after the index filled
      // in, it would say "incomplete" of what the server now answers whole.
      if (p && result['ready'] !== false && result['partial'] === undefined && (await workspaceState(p.root, ctx.signal)).hash === p.entry.state) {
        // Written in the background: the answer does not wait for the cache file.
        void p.store.add([{ ...p.entry, result, computed_at: new Date().toISOString() }]).catch((err: unknown) => ctx.logger.warn(`answer cache not written: ${String(err)}`));
      }
      return result;
    },
    text(r: Record<string, unknown>) {
      const fromCache = r['from_cache'] as { computed_at: string } | undefined;
      return def.text(r) + (fromCache ? `\n(From the answer cache: computed at ${fromCache.computed_at} on exactly the files the workspace has now.)` : '');
    },
  });
}
