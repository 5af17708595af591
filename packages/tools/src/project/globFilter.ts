import type { WorkspaceEdit } from 'vscode-languageserver-protocol';

/**
 * A glob as a RegExp: `**` any run of characters including `/` (`**\/` also none), `*` and `?`
 * within one path segment, everything else literal.
 */
export function globToRegExp(glob: string): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob.charAt(i);
    if (c === '*' && glob.charAt(i + 1) === '*') {
      const slash = glob.charAt(i + 2) === '/';
      out += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else out += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}

/** Whether a root-relative (or absolute) path matches one of the globs, by its whole path or its base name. */
export function matchesAnyGlob(path: string, globs: readonly RegExp[]): boolean {
  const base = path.slice(path.lastIndexOf('/') + 1);
  return globs.some((g) => g.test(path) || g.test(base));
}

/**
 * The edit without the changes to files `excluded` says to leave alone, and those files' URIs.
 * Resource operations (create, rename, delete) on such files are left out too.
 */
export function withoutExcludedFiles(edit: WorkspaceEdit, excluded: (uri: string) => boolean): { edit: WorkspaceEdit; excludedUris: string[] } {
  const excludedUris = new Set<string>();
  const out: WorkspaceEdit = {};
  if (edit.changes) {
    out.changes = {};
    for (const [uri, edits] of Object.entries(edit.changes)) {
      if (excluded(uri)) excludedUris.add(uri);
      else out.changes[uri] = edits;
    }
  }
  if (edit.documentChanges) {
    out.documentChanges = edit.documentChanges.filter((change) => {
      const uri = 'textDocument' in change ? change.textDocument.uri : 'oldUri' in change ? change.oldUri : change.uri;
      if (!excluded(uri)) return true;
      excludedUris.add(uri);
      return false;
    });
  }
  if (edit.changeAnnotations) out.changeAnnotations = edit.changeAnnotations;
  return { edit: out, excludedUris: [...excludedUris] };
}
