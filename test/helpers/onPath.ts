import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Whether an executable of that name is on PATH (tests of optional servers say when they did not run). */
export function onPath(binary: string): boolean {
  return (process.env['PATH'] ?? '')
    .split(delimiter)
    .filter(Boolean)
    .some((dir) => {
      try {
        accessSync(join(dir, binary), constants.X_OK);
        return statSync(join(dir, binary)).isFile();
      } catch {
        return false;
      }
    });
}
