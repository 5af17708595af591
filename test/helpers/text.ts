import { readFileSync } from 'node:fs';

/**
 * 1-based line and character column of the n-th occurrence of `needle` on a line of a file,
 * computed independently of agent-lsp (code points counted by spreading the string).
 */
export function positionOf(file: string, needle: string, lineHint?: number): { line: number; column: number } {
  const lines = readFileSync(file, 'utf8').split(/\r\n|\r|\n/);
  for (let i = 0; i < lines.length; i++) {
    if (lineHint !== undefined && i + 1 !== lineHint) continue;
    const at = (lines[i] ?? '').indexOf(needle);
    if (at >= 0) return { line: i + 1, column: [...(lines[i] ?? '').slice(0, at)].length + 1 };
  }
  throw new Error(`${needle} not found in ${file}`);
}
