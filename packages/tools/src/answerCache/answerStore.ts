import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { writeFileAtomic } from '@agent-lsp/lsp';
import { workspaceKey } from '@agent-lsp/session';

/** One answer of a read-only tool, as it was computed on one exact state of the workspace's files. */
export interface CachedAnswer {
  tool: string;
  /** The call's arguments, its file root-relative and its readiness arguments left out. */
  args: Record<string, unknown>;
  /** The server that answered: its id and a hash of its settings (see serverIdentity). */
  server: string;
  /** The workspace state it was computed on (workspaceState's hash). */
  state: string;
  /** The structured result, paths root-relative as every tool gives them. */
  result: Record<string, unknown>;
  computed_at: string;
}

/** Entries kept per workspace, and their size in all (JSON); the least recently computed go first. */
export const MAX_ANSWERS = 5000;
export const MAX_ANSWER_BYTES = 64 * 1024 * 1024;
const FILE_FORMAT = 'agent-lsp-answers';

/** JSON with object keys sorted, so equal arguments give equal keys. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

export function answerKey(a: Pick<CachedAnswer, 'tool' | 'args' | 'server' | 'state'>): string {
  return createHash('sha256').update(canonicalJson([a.tool, a.args, a.server, a.state])).digest('hex');
}

/** Where the answers of every workspace are kept: `$AGENT_LSP_HOME/answers`, else the XDG cache dir. */
export function answersHome(env: NodeJS.ProcessEnv = process.env): string {
  const home = env['AGENT_LSP_HOME'];
  if (home) return join(home, 'answers');
  return join(env['XDG_CACHE_HOME'] || join(homedir(), '.cache'), 'agent-lsp', 'answers');
}

interface AnswersFile {
  /** Whether answers are kept and served in this workspace (see AnswerStore.enabled). */
  enabled: boolean;
  entries: CachedAnswer[];
}

/** A gzip'd answers file; empty and off when it is missing or unreadable (a cache starts over). */
function readAnswersFile(file: string): AnswersFile {
  try {
    const parsed = JSON.parse(gunzipSync(readFileSync(file)).toString('utf8')) as { format?: unknown; enabled?: unknown; entries?: unknown };
    if (parsed.format === FILE_FORMAT && Array.isArray(parsed.entries)) return { enabled: parsed.enabled === true, entries: parsed.entries as CachedAnswer[] };
  } catch {
    // Missing or damaged: an empty cache.
  }
  return { enabled: false, entries: [] };
}

/**
 * The persistent answers of one workspace, shared by every front of this home: loaded on first
 * use, written (merged with what other fronts wrote meanwhile, atomically) after each new answer.
 */
export class AnswerStore {
  private readonly answers = new Map<string, CachedAnswer>();
  private saving: Promise<void> = Promise.resolve();

  /**
   * Answers are kept and served in a workspace once it opted in: import_cache or export_cache was
   * called there (or AGENT_LSP_ANSWER_CACHE=on). Elsewhere nothing is hashed nor kept, and every
   * answer is live as before.
   */
  private on: boolean;

  private constructor(readonly file: string) {
    const read = readAnswersFile(file);
    this.on = read.enabled;
    for (const a of read.entries) this.answers.set(answerKey(a), a);
  }

  /** Whether this workspace opted in (another front of this home may have turned it on since). */
  get enabled(): boolean {
    if (!this.on) {
      const read = readAnswersFile(this.file);
      this.on = read.enabled;
      if (read.enabled) for (const a of read.entries) if (!this.answers.has(answerKey(a))) this.answers.set(answerKey(a), a);
    }
    return this.on;
  }

  /** Turns the cache on for this workspace, for every front of this home from now on. */
  async enable(): Promise<void> {
    this.on = true;
    await this.save();
  }

  private static readonly open = new Map<string, AnswerStore>();

  /** The store of the workspace at `root` (one per process). */
  static forRoot(root: string, env: NodeJS.ProcessEnv = process.env): AnswerStore {
    const file = join(answersHome(env), `${workspaceKey(root)}.json.gz`);
    let store = AnswerStore.open.get(file);
    if (!store) AnswerStore.open.set(file, (store = new AnswerStore(file)));
    return store;
  }

  get size(): number {
    return this.answers.size;
  }

  get(key: string): CachedAnswer | undefined {
    return this.answers.get(key);
  }

  all(): CachedAnswer[] {
    return [...this.answers.values()];
  }

  /** Adds answers (an equal key is replaced) and writes the store. */
  async add(answers: readonly CachedAnswer[]): Promise<void> {
    for (const a of answers) this.answers.set(answerKey(a), a);
    await this.save();
  }

  private save(): Promise<void> {
    // A failed write (disk full) fails its own caller only, not every later one.
    this.saving = this.saving.catch(() => undefined).then(async () => {
      const onDisk = readAnswersFile(this.file);
      this.on ||= onDisk.enabled;
      for (const a of onDisk.entries) if (!this.answers.has(answerKey(a))) this.answers.set(answerKey(a), a);
      let bytes = 0;
      const kept = [...this.answers.values()]
        .sort((a, b) => (a.computed_at < b.computed_at ? 1 : -1))
        .slice(0, MAX_ANSWERS)
        .filter((a) => (bytes += JSON.stringify(a.result).length) <= MAX_ANSWER_BYTES);
      this.answers.clear();
      for (const a of kept) this.answers.set(answerKey(a), a);
      mkdirSync(join(this.file, '..'), { recursive: true, mode: 0o700 });
      await writeFileAtomic(this.file, gzipSync(JSON.stringify({ format: FILE_FORMAT, enabled: this.on, entries: kept })), { mode: 0o600 });
    });
    return this.saving;
  }
}
