import type { FileEvent, LogMessageParams } from 'vscode-languageserver-protocol';
import { Emitter, type Disposable } from '@agent-lsp/protocol';
import type { RegistrationChange } from './serverHandlers.js';

/** What a connection tells its listeners of (LspConnection's `on…` members). */
export class ConnectionEvents implements Disposable {
  readonly log = new Emitter<LogMessageParams>();
  readonly crash = new Emitter<Error>();
  readonly notification = new Emitter<{ method: string; params: unknown }>();
  readonly refresh = new Emitter<void>();
  readonly registration = new Emitter<RegistrationChange>();
  readonly watchedFiles = new Emitter<readonly FileEvent[]>();

  dispose(): void {
    for (const e of [this.log, this.crash, this.notification, this.refresh, this.registration, this.watchedFiles]) e.dispose();
  }
}
