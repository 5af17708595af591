import { pathToUri, type Disposable } from '@agent-lsp/protocol';
import type { Logger } from '@agent-lsp/lsp';
import type { Workspace } from '@agent-lsp/workspace';
import type { ResourceReader } from './resourceReader.js';
import { parseResourceUri, ResourceUriError, type ParsedResource } from './resourceUris.js';

/** Quiet time after the last hint before diagnostics are read again. */
const DEBOUNCE_MS = 1_000;
/** A stream of hints still gets a read this often. */
const MAX_WAIT_MS = 2_000;
const READ_TIMEOUT_MS = 120_000;

interface Subscription {
  uri: string;
  resource: ParsedResource;
  /** The file's LSP URI; absent for `lsp-diagnostics://` (every open file). */
  fileUri?: string;
  /** The diagnostics last told (or read at subscribe time), as a comparable string. */
  last?: string;
  timer?: NodeJS.Timeout;
  firstHintAt?: number;
  reading?: Promise<void>;
  again?: boolean;
}

/**
 * resources/subscribe on diagnostics. "Changed" means the diagnostics read now differ from the
 * ones last told (compared by content), whatever the cause: servers that push say so for one
 * file, servers that only answer pulls (pyright) say nothing, so every hint — a push, a refresh
 * request, the agent's own write, the watcher's news, another broker client's write — leads to a
 * debounced read of the subscribed files, through get_diagnostics (fresh, settled), and a
 * `notifications/resources/updated` only when the content differs.
 */
export class DiagnosticsSubscriptions implements Disposable {
  private readonly subs = new Map<string, Subscription>();
  private readonly listeners: Disposable[];
  private disposed = false;

  constructor(
    private readonly workspace: Workspace,
    private readonly reader: ResourceReader,
    private readonly updated: (uri: string) => Promise<void>,
    private readonly logger: Logger,
  ) {
    this.listeners = [
      workspace.events.onDiagnosticsHint(({ uri }) => this.hint(uri)),
      workspace.events.onFilesChanged(() => this.hint(undefined)),
    ];
  }

  /** Starts watching a diagnostics resource; resolves once its current diagnostics are known. */
  async subscribe(uri: string): Promise<void> {
    const resource = parseResourceUri(uri);
    if (resource.kind !== 'diagnostics') throw new ResourceUriError(`Only diagnostics resources (lsp-diagnostics://) can be subscribed to; ${uri} is read with resources/read.`);
    if (this.subs.has(uri)) return;
    const sub: Subscription = { uri, resource };
    if (resource.filePath !== undefined) {
      await this.workspace.ensureRoots(resource.filePath);
      sub.fileUri = pathToUri(this.workspace.resolveFile(resource.filePath));
    }
    this.subs.set(uri, sub);
    try {
      sub.last = await this.fingerprint(sub);
    } catch (err) {
      // The first successful read after this one is told as a change.
      this.logger.warn(`subscribed to ${uri}, but its diagnostics could not be read yet: ${(err as Error).message}`);
    }
  }

  unsubscribe(uri: string): void {
    const sub = this.subs.get(uri);
    if (!sub) return;
    clearTimeout(sub.timer);
    this.subs.delete(uri);
  }

  private hint(uri: string | undefined): void {
    for (const sub of this.subs.values()) {
      if (uri === undefined || sub.fileUri === undefined || sub.fileUri === uri) this.schedule(sub);
    }
  }

  private schedule(sub: Subscription): void {
    if (this.disposed) return;
    const now = Date.now();
    if (sub.timer === undefined) sub.firstHintAt = now;
    clearTimeout(sub.timer);
    const wait = Math.max(0, Math.min(DEBOUNCE_MS, (sub.firstHintAt ?? now) + MAX_WAIT_MS - now));
    sub.timer = setTimeout(() => {
      sub.timer = undefined;
      this.check(sub);
    }, wait);
  }

  private check(sub: Subscription): void {
    if (sub.reading) {
      sub.again = true;
      return;
    }
    sub.reading = this.compare(sub).finally(() => {
      sub.reading = undefined;
      if (sub.again) {
        sub.again = false;
        this.schedule(sub);
      }
    });
  }

  private async compare(sub: Subscription): Promise<void> {
    let now: string;
    try {
      now = await this.fingerprint(sub);
    } catch (err) {
      this.logger.debug(`diagnostics of ${sub.uri} could not be read: ${(err as Error).message}`);
      return;
    }
    if (this.subs.get(sub.uri) !== sub || now === sub.last) return;
    sub.last = now;
    await this.updated(sub.uri).catch((err: Error) => this.logger.debug(`resources/updated for ${sub.uri} not sent: ${err.message}`));
  }

  /** The diagnostics as get_diagnostics answers them, without what says how they were settled. */
  private async fingerprint(sub: Subscription): Promise<string> {
    const data = await this.reader.readInBackground({ ...sub.resource, args: { ...sub.resource.args, limit: 10_000 } }, AbortSignal.timeout(READ_TIMEOUT_MS));
    const files = (data['files'] as { file: string; errors: number; warnings: number }[] | undefined)?.map((f) => [f.file, f.errors, f.warnings]);
    return JSON.stringify({ ready: data['ready'], files, diagnostics: data['diagnostics'] });
  }

  dispose(): void {
    this.disposed = true;
    for (const l of this.listeners) l.dispose();
    for (const sub of this.subs.values()) clearTimeout(sub.timer);
    this.subs.clear();
  }
}
