import type { Command } from 'commander';

interface RecoverCommandOptions {
  root: string;
  force?: boolean;
}

/** `agent-lsp recover [--root dir] [--force]`: clears a workspace blocked by a failed restore. */
export function registerRecoverCommand(program: Command, out: (s: string) => void, err: (s: string) => void): void {
  program
    .command('recover')
    .description('finish rolling back a transaction whose restore failed, which blocks every write in the workspace')
    .option('--root <dir>', 'the workspace root', process.cwd())
    .option('--force', 'if files still cannot be restored, save their old content in the state dir and clear the record')
    .action(async (opts: RecoverCommandOptions) => {
      process.exitCode = await runRecover(opts, out, err);
    });
}

async function runRecover(opts: RecoverCommandOptions, out: (s: string) => void, err: (s: string) => void): Promise<number> {
  const [{ createLogger }, session] = await Promise.all([import('@agent-lsp/lsp'), import('@agent-lsp/session')]);
  const logger = createLogger({ level: 'warn', sink: (line) => err(line) });
  try {
    const r = await session.recoverWorkspaceJournal({ root: opts.root, home: session.stateHome(), logger, writer: session.atomicFileWriter, force: opts.force === true });
    if (!r.found) {
      out(`Nothing to recover in ${r.root}: no unfinished transaction (${r.intentPath} does not exist).`);
      return 0;
    }
    if (r.recovery) out(session.describeRecovery(r.recovery));
    else {
      const restored = r.restored.length > 0 ? `restored ${r.restored.join(', ')}` : 'every file already read as before';
      out(`Recovered ${r.root}: ${restored}.`);
    }
    for (const s of r.saved) out(s.savedTo ? `Not restored: ${s.path}; its old content is saved in ${s.savedTo}.` : `Not removed: ${s.path} (it did not exist before the transaction).`);
    out(`Cleared ${r.intentPath}; writes in this workspace work again.`);
    return 0;
  } catch (e) {
    err(e instanceof Error ? e.message : String(e));
    return 1;
  }
}
