let pending: Promise<void> | undefined;

/**
 * Resolves in the check phase that follows the event loop's current poll phase (or, called from
 * elsewhere in the loop, the next one): by then every I/O callback of that poll has run, fs.watch's
 * included. A query read in a poll phase can therefore wait for this instead of whole turns of the
 * loop to know that the OS's file news queued before its bytes arrived has been read: a file
 * written before the query was sent queued its inotify event before the query's bytes, so the
 * epoll wait that returned those bytes returned that event too, or an earlier one did. One
 * setImmediate serves everyone who asks in one phase.
 */
export function afterCurrentPoll(): Promise<void> {
  pending ??= new Promise((resolve) =>
    setImmediate(() => {
      pending = undefined;
      resolve();
    }),
  );
  return pending;
}
