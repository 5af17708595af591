import { statSync } from 'node:fs';
import type { Disposable, Message, MessageReader, DataCallback, NotificationMessage } from 'vscode-jsonrpc/node';
import { uriToPath, FileChangeType, Range, TextDocumentContentChangeEvent, TextDocumentIdentifier, TextDocumentItem, VersionedTextDocumentIdentifier } from '@agent-lsp/protocol';

/**
 * The shapes of the client messages the broker interprets itself. Any LSP client may connect, and
 * the broker acts on these (reference counts, disk reads, leases): one that does not fit the
 * protocol would otherwise throw deep inside shared state. Each check returns what is wrong, or
 * undefined when the message fits; the session answers a request with InvalidParams and closes a
 * client whose notification does not fit (its documents could no longer be tracked).
 */
export type Problem = string | undefined;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function checkInitialize(p: unknown): Problem {
  if (!isObject(p)) return 'initialize: params must be an object';
  if (!isObject(p['capabilities'])) return 'initialize: capabilities must be an object';
  const textDocument = p['capabilities']['textDocument'];
  if (textDocument !== undefined && !isObject(textDocument)) return 'initialize: capabilities.textDocument must be an object';
  return undefined;
}

/**
 * Documents are files: the broker (and the server) read a document's file from disk, so a didOpen
 * must name a `file:` URI of an absolute path that is a regular file or does not exist yet. A
 * FIFO, a device or a directory is refused: reading one blocks, never ends, or fails. (Outside the
 * root is allowed: agents read the files a server names, such as typeshed stubs.) stat() itself
 * never blocks on a FIFO.
 */
export function checkDidOpen(p: unknown): Problem {
  if (!isObject(p) || !TextDocumentItem.is(p['textDocument'])) {
    return 'textDocument/didOpen: textDocument must be {uri: string, languageId: string, version: integer, text: string}';
  }
  const uri = p['textDocument'].uri;
  const path = uriToPath(uri);
  if (path === undefined || path.includes('\0')) return `textDocument/didOpen: ${JSON.stringify(uri.slice(0, 200))} is not a file: URI of an absolute path`;
  try {
    if (!statSync(path).isFile()) return `textDocument/didOpen: ${path} is not a regular file`;
  } catch {
    // Not there (a new, unsaved file) or not reachable: there is nothing on disk to read.
  }
  return undefined;
}

export function checkDidChange(p: unknown): Problem {
  if (!isObject(p) || !VersionedTextDocumentIdentifier.is(p['textDocument'])) {
    return 'textDocument/didChange: textDocument must be {uri: string, version: integer}';
  }
  const changes = p['contentChanges'];
  if (!Array.isArray(changes)) return 'textDocument/didChange: contentChanges must be an array';
  for (const c of changes as unknown[]) {
    if (!isObject(c)) return 'textDocument/didChange: each content change must be an object';
    const full = TextDocumentContentChangeEvent.isFull(c as never);
    const incremental = TextDocumentContentChangeEvent.isIncremental(c as never) && Range.is(c['range']);
    if (!full && !incremental) return 'textDocument/didChange: each content change must be {text: string} or {range: Range, text: string}';
  }
  return undefined;
}

export function checkDidClose(p: unknown): Problem {
  if (!isObject(p) || !TextDocumentIdentifier.is(p['textDocument'])) return 'textDocument/didClose: textDocument must be {uri: string}';
  return undefined;
}

const FILE_CHANGE_TYPES: readonly unknown[] = [FileChangeType.Created, FileChangeType.Changed, FileChangeType.Deleted];

export function checkDidChangeWatchedFiles(p: unknown): Problem {
  if (!isObject(p) || !Array.isArray(p['changes'])) return 'workspace/didChangeWatchedFiles: changes must be an array';
  for (const c of p['changes'] as unknown[]) {
    if (!isObject(c) || typeof c['uri'] !== 'string' || !FILE_CHANGE_TYPES.includes(c['type'])) {
      return 'workspace/didChangeWatchedFiles: each change must be {uri: string, type: 1 | 2 | 3}';
    }
  }
  return undefined;
}

const isFolders = (v: unknown) => v === undefined || (Array.isArray(v) && v.every((f) => isObject(f) && typeof f['uri'] === 'string'));

export function checkDidChangeWorkspaceFolders(p: unknown): Problem {
  if (!isObject(p) || !isObject(p['event']) || !isFolders(p['event']['added']) || !isFolders(p['event']['removed'])) {
    return 'workspace/didChangeWorkspaceFolders: event must be {added: WorkspaceFolder[], removed: WorkspaceFolder[]}';
  }
  return undefined;
}

const isLeaseMs = (v: unknown) => v === undefined || (typeof v === 'number' && Number.isFinite(v));

/** `$/agentLsp/acquire`: params may be absent. */
export function checkAcquire(p: unknown): Problem {
  if (p === null || p === undefined) return undefined;
  if (!isObject(p) || !isLeaseMs(p['leaseMs'])) return '$/agentLsp/acquire: params must be {leaseMs?: number}';
  return undefined;
}

/** `$/agentLsp/renew` and `$/agentLsp/release`. */
export function checkLease(method: string, p: unknown): Problem {
  if (!isObject(p) || typeof p['leaseId'] !== 'string' || !isLeaseMs(p['leaseMs'])) return `${method}: params must be {leaseId: string, leaseMs?: number}`;
  return undefined;
}

/**
 * `$/cancelRequest` is consumed inside vscode-jsonrpc, before any handler of ours: one with
 * params that are not `{id: number | string}` makes it throw. Checked on the way in.
 */
function checkEnvelope(message: Message): Problem {
  const n = message as NotificationMessage;
  if (n.method === '$/cancelRequest') {
    const id = isObject(n.params) ? n.params['id'] : undefined;
    if (typeof id !== 'number' && typeof id !== 'string') return '$/cancelRequest: params must be {id: number | string}';
  }
  return undefined;
}

/**
 * A message reader that passes on only messages whose envelope the connection can handle; for
 * the others it reports the problem (and the session closes that client).
 */
export function checkedReader(inner: MessageReader, onProblem: (problem: string) => void): MessageReader {
  return {
    onError: inner.onError,
    onClose: inner.onClose,
    onPartialMessage: inner.onPartialMessage,
    listen(callback: DataCallback): Disposable {
      return inner.listen((message) => {
        const problem = checkEnvelope(message);
        if (problem) onProblem(problem);
        else callback(message);
      });
    },
    dispose: () => inner.dispose(),
  };
}
