import { SessionError } from './errors.js';

/**
 * The message of a restore that failed, for a workspace whose intent record now blocks every write:
 * which files, where the record is, and the command that retries the restore or clears it.
 */
export function restoreFailedError(err: SessionError, where: { root: string; intentPath: string; recoveredDir: string }): SessionError {
  const home = process.env['AGENT_LSP_HOME'];
  const command = `${home ? `AGENT_LSP_HOME=${home} ` : ''}agent-lsp recover --root ${where.root}`;
  return new SessionError(
    'restore_failed',
    `${err.message} Until they are put back, every write in ${where.root} is refused: the unfinished transaction's record is ${where.intentPath}. ` +
      `Fix the cause (permissions, disk space, a directory in a file's place), then run \`${command}\` to restore them, ` +
      `or \`${command} --force\` to save their old content under ${where.recoveredDir} and clear the record.`,
    { cause: err },
  );
}
