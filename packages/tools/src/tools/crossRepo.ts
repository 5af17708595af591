import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { z } from 'zod';
import type { Location, LocationLink, Position } from 'vscode-languageserver-protocol';
import { isWithin, pathToUri, splitLines, UserError, uriToPath } from '@agent-lsp/protocol';
import type { LspConnection } from '@agent-lsp/lsp';
import { isNotReady, openReadyDocument, positionIn, type ReadyDocument } from '../project/documentQuery.js';
import { requestLocations } from '../project/freshAnswer.js';
import { compareLocations, locationsByFileText, PositionMapper } from '../output/locations.js';
import { awaitReady, notReadyText, type NotReadyResult } from '../project/readinessGate.js';
import { location, positionInput, readinessInput, readyOutput, type LocationOut } from '../catalog/schemas.js';
import { defineTool, READ_ONLY, type ToolContext } from '../catalog/toolDefinition.js';
import { positionAt } from '../analysis/typeHeads.js';

const SKIP_DIRS = new Set(['node_modules', '.git', '.venv', 'venv', '__pycache__', 'dist', 'build', 'out', 'target', '.mypy_cache']);
/** Files read per consumer root while looking for the symbol's name. */
const MAX_SCANNED = 5000;

function consumerRoot(input: string): string {
  let real: string;
  try {
    real = realpathSync(resolve(input));
  } catch {
    throw new UserError('file_not_found', `consumer root ${input} does not exist. Pass the absolute path of a checkout of the consuming repository.`);
  }
  if (!statSync(real).isDirectory()) throw new UserError('invalid_argument', `consumer root ${input} is not a directory.`);
  return real;
}

/** Files of the same server under `root` whose text names `word` (what the server must have loaded to see the uses). */
function filesNaming(ctx: ToolContext, conn: LspConnection, root: string, word: string): { files: string[]; cut: boolean } {
  const pattern = new RegExp(`(^|[^\\w$])${word.replace(/[$]/g, '\\$')}([^\\w$]|$)`);
  const found: string[] = [];
  let scanned = 0;
  let cut = false;
  const walk = (dir: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (scanned >= MAX_SCANNED) {
        cut = true;
        return;
      }
      const path = join(dir, e.name);
      if (e.isDirectory()) {
        if (!SKIP_DIRS.has(e.name) && !e.name.startsWith('.')) walk(path);
        continue;
      }
      if (!e.isFile() || ctx.workspace.registry.forFile(path)?.server.id !== conn.server.id) continue;
      scanned++;
      try {
        if (pattern.test(readFileSync(path, 'utf8'))) found.push(path);
      } catch {
        // unreadable: not a use we can report
      }
    }
  };
  walk(root);
  return { files: found, cut };
}

function wordAt(doc: ReadyDocument, p: Position): string {
  const line = splitLines(doc.handle.doc.text)[p.line] ?? '';
  const isWord = (c: string | undefined) => c !== undefined && /[\w$]/.test(c);
  let a = p.character;
  let b = p.character;
  while (a > 0 && isWord(line[a - 1])) a--;
  while (isWord(line[b])) b++;
  const word = line.slice(a, b);
  if (!/^[A-Za-z_$][\w$]*$/.test(word)) {
    throw new UserError('invalid_position', `No identifier at ${doc.label}:${p.line + 1}:${p.character + 1}. Put the position on the symbol's name.`);
  }
  return word;
}

const repositoryOutput = z.object({
  root: z.string(),
  references: z.number(),
  found_by_definition: z.number().optional().describe('Of these, found by resolving each mention of the name (the server\'s references missed them).'),
  locations: z.array(location),
});

function sameTarget(a: Location | LocationLink, b: Location | LocationLink): boolean {
  const at = (l: Location | LocationLink) => ('targetUri' in l ? { uri: l.targetUri, line: l.targetSelectionRange.start.line } : { uri: l.uri, line: l.range.start.line });
  const x = at(a);
  const y = at(b);
  return x.uri === y.uri && x.line === y.line;
}

/**
 * Uses in consumer files the server's references did not include (pyright answers references
 * within one workspace folder): each mention of the name whose definition is the symbol's own.
 */
async function usesByDefinition(
  ctx: ToolContext,
  conn: LspConnection,
  doc: ReadyDocument,
  position: Position,
  word: string,
  files: readonly string[],
  known: readonly (Location | LocationLink)[],
): Promise<Location[]> {
  if (!conn.supports('textDocument/definition') || files.length === 0) return [];
  const asDefs = (r: Location | Location[] | LocationLink[] | null) => (r ? (Array.isArray(r) ? r : [r]) : []);
  const origin = asDefs(await requestLocations(conn, ctx.workspace.registry, 'textDocument/definition', { textDocument: { uri: doc.handle.uri }, position }, ctx.signal));
  if (origin.length === 0) return [];
  const knownKeys = new Set(known.map((l) => ('targetUri' in l ? '' : `${l.uri}#${l.range.start.line}:${l.range.start.character}`)));
  const pattern = new RegExp(`(?<![\\w$])${word.replace(/[$]/g, '\\$')}(?![\\w$])`, 'g');
  const found: Location[] = [];
  for (const path of files) {
    const uri = pathToUri(path);
    const text = conn.documents.get(uri)?.text;
    if (text === undefined) continue;
    for (const m of text.matchAll(pattern)) {
      const start = positionAt(text, m.index);
      if (knownKeys.has(`${uri}#${start.line}:${start.character}`)) continue;
      const defs = asDefs(await requestLocations(conn, ctx.workspace.registry, 'textDocument/definition', { textDocument: { uri }, position: start }, ctx.signal));
      if (defs.some((d) => origin.some((o) => sameTarget(d, o)))) found.push({ uri, range: { start, end: { line: start.line, character: start.character + word.length } } });
    }
  }
  return found;
}

export const getCrossRepoReferences = defineTool({
  name: 'get_cross_repo_references',
  title: 'Cross-repository references',
  description: 'References to the symbol at a position from other repositories (consumer_roots), by repository.',
  group: 'analysis',
  input: () => ({
    ...positionInput,
    consumer_roots: z.array(z.string()).min(1).describe('Absolute paths.'),
    ...readinessInput,
  }),
  output: () => ({
    ...readyOutput,
    complete: z.boolean().optional().describe(`false when a consumer root has more than ${MAX_SCANNED} files of the language: those past them were not read, and uses there come only from the server's references.`),
    unread_roots: z.array(z.string()).optional(),
    total: z.number().optional(),
    repositories: z.array(repositoryOutput).optional().describe('Own root first, then each consumer root; files relative to their root.'),
  }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    const doc = await openReadyDocument(ctx, args);
    if (isNotReady(doc)) return doc;
    const { conn, uri } = doc.handle;
    const position = positionIn(doc, args);
    const word = wordAt(doc, position);
    const consumers = [...new Set(args.consumer_roots.map(consumerRoot))];
    const added = consumers.filter((r) => !ctx.workspace.rootList.includes(r));
    const opened: string[] = [];
    const naming: string[] = [];
    // Consumer roots with more files of the language than are read: uses in the rest come only from the server's references.
    const unread: string[] = [];
    try {
      for (const r of added) await ctx.workspace.addFolder(r);
      // A server loads another project only when one of its files is open (tsserver).
      for (const r of consumers) {
        const scan = filesNaming(ctx, conn, r, word);
        if (scan.cut) unread.push(r);
        for (const path of scan.files) {
          naming.push(path);
          if (conn.documents.get(pathToUri(path))) continue;
          await ctx.workspace.openDocument(path);
          opened.push(path);
        }
      }
      const notReady = await awaitReady(conn, args, ctx);
      if (notReady) return notReady;
      const params = { textDocument: { uri }, position, context: { includeDeclaration: false } };
      const result = (await requestLocations(conn, ctx.workspace.registry, 'textDocument/references', params, ctx.signal)) as Location[] | LocationLink[] | null;
      const mapper = new PositionMapper(ctx.workspace, conn);
      const own = ctx.workspace.rootList.filter((r) => !added.includes(r)).find((r) => isWithin(r, doc.handle.path)) ?? ctx.workspace.primaryRoot ?? dirname(doc.handle.path);
      const roots = [own, ...consumers.filter((c) => c !== own)];
      // The most specific root holding a file (a consumer may sit inside the main root).
      const bySpecificity = [...roots].sort((a, b) => b.length - a.length);
      const byRoot = new Map<string, LocationOut[]>(roots.map((r) => [r, []]));
      const seen = new Set<string>();
      const list: (Location | LocationLink)[] = result ? (Array.isArray(result) ? result : [result]) : [];
      const derived = await usesByDefinition(ctx, conn, doc, position, word, naming, list);
      const derivedKeys = new Set(derived.map((l) => `${l.uri}#${l.range.start.line}:${l.range.start.character}`));
      const derivedPerRoot = new Map<string, number>();
      for (const item of [...list, ...derived]) {
        const itemUri = 'targetUri' in item ? item.targetUri : item.uri;
        const range = 'targetUri' in item ? item.targetSelectionRange : item.range;
        const path = uriToPath(itemUri);
        if (!path) continue;
        const holder = bySpecificity.find((r) => isWithin(r, path));
        // Paths relative to the repository they are listed under.
        const loc = { ...mapper.location(itemUri, range), file: holder ? relative(holder, path) : path };
        const k = `${path}:${loc.line}:${loc.column}`;
        if (seen.has(k)) continue;
        seen.add(k);
        byRoot.get(holder ?? own)?.push(loc);
        if (derivedKeys.has(`${itemUri}#${range.start.line}:${range.start.character}`)) derivedPerRoot.set(holder ?? own, (derivedPerRoot.get(holder ?? own) ?? 0) + 1);
      }
      for (const locs of byRoot.values()) locs.sort(compareLocations);
      const all = [...byRoot.values()].flat();
      return {
        ready: true,
        complete: unread.length === 0,
        ...(unread.length > 0 ? { unread_roots: unread } : {}),
        total: all.length,
        repositories: roots.map((r) => ({
          root: r,
          references: byRoot.get(r)?.length ?? 0,
          ...(derivedPerRoot.has(r) ? { found_by_definition: derivedPerRoot.get(r) } : {}),
          locations: byRoot.get(r) ?? [],
        })),
      };
    } finally {
      for (const path of opened) await ctx.workspace.closeDocument(path).catch(() => undefined);
      for (const r of added) await ctx.workspace.removeFolder(r).catch(() => undefined);
    }
  },
  text: (r) => {
    if (!r.ready) return notReadyText(r as NotReadyResult);
    const out = [`${r.total ?? 0} reference(s)${r.complete === false ? ` (partial: more than ${MAX_SCANNED} files in ${(r.unread_roots ?? []).join(', ')}; uses in the files not read come only from the server's references)` : ''}:`];
    for (const repo of r.repositories ?? []) {
      out.push(`${repo.root} (${repo.references}${repo.found_by_definition ? `, ${repo.found_by_definition} found by resolving the name` : ''})`);
      if (repo.locations.length > 0) out.push(locationsByFileText(repo.locations).replace(/^/gm, '  '));
    }
    return out.join('\n');
  },
});
