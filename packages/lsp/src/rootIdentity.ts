import { statSync } from 'node:fs';

/**
 * A directory's identity on disk: its device, inode and birth time, or undefined when it is not
 * there. The inode alone is not enough: ext4 gives a directory made right after one was removed the
 * freed inode (199 of 200 `rm -rf d && mkdir d` here), and the copy then looked like the old root.
 */
function identify(dir: string): string | undefined {
  const st = statSync(dir, { throwIfNoEntry: false, bigint: true });
  return st ? `${st.dev}:${st.ino}:${st.birthtimeNs}` : undefined;
}

/**
 * A workspace root removed and made again (`rm -rf repo && git clone … repo`, a fresh copy of a
 * fixture) is another directory at the same path: the watchers on the old one see nothing of it,
 * and a server keeps answering from the tree it loaded. Whoever holds servers for a root checks
 * this at each query's door (one stat) and starts them again.
 */
export class RootIdentity {
  private readonly at: string | undefined;

  constructor(readonly root: string) {
    this.at = identify(root);
  }

  /** The root was removed, or replaced by another directory, since this was made. */
  replaced(): boolean {
    return this.at !== undefined && identify(this.root) !== this.at;
  }
}
