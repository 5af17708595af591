import { createTwoFilesPatch } from 'diff';

/**
 * A unified diff of one file between two states (null: the file does not exist), `a/` and `b/`
 * prefixed as git writes them; /dev/null for a side where the file is absent.
 */
export function unifiedDiff(label: string, before: Buffer | null, after: Buffer | null): string {
  const oldName = before === null ? '/dev/null' : `a/${label}`;
  const newName = after === null ? '/dev/null' : `b/${label}`;
  if (isBinary(before) || isBinary(after)) return `Binary files ${oldName} and ${newName} differ\n`;
  const patch = createTwoFilesPatch(oldName, newName, before?.toString('utf8') ?? '', after?.toString('utf8') ?? '', undefined, undefined, { context: 3 });
  // jsdiff starts with an "Index:"-less "===" separator line; git's form starts at "---".
  return patch.replace(/^=+\n/, '');
}

function isBinary(data: Buffer | null): boolean {
  return data !== null && data.subarray(0, 8000).includes(0);
}
