import type { FailureParser, ParseContext, ParsedFailure } from './failure.js';
import { parseGcc } from './gcc.js';
import { parseGoTest } from './goTest.js';
import { parseJsTest } from './jsTest.js';
import { parseNodeTest } from './nodeTest.js';
import { parsePytest } from './pytest.js';
import { parsePythonCompile } from './pythonCompile.js';
import { parseTsc } from './tsc.js';
import { parseUnittest } from './unittest.js';

export type { ParseContext, ParsedFailure } from './failure.js';

export const PARSERS = {
  pytest: parsePytest,
  unittest: parseUnittest,
  pythonCompile: parsePythonCompile,
  jsTest: parseJsTest,
  nodeTest: parseNodeTest,
  tsc: parseTsc,
  goTest: parseGoTest,
  gcc: parseGcc,
} as const satisfies Record<string, FailureParser>;

export type ParserId = keyof typeof PARSERS;
export const ALL_PARSERS = Object.keys(PARSERS) as ParserId[];

/** The failures the given parsers find in a runner's output, each reported once. */
export function parseFailures(parsers: readonly ParserId[], output: string, ctx: ParseContext): ParsedFailure[] {
  const seen = new Set<string>();
  const out: ParsedFailure[] = [];
  for (const id of parsers) {
    for (const f of PARSERS[id](output, ctx)) {
      const key = `${f.test_id ?? ''}|${f.file ?? ''}|${f.line ?? ''}|${f.column ?? ''}|${f.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(f);
    }
  }
  return out;
}
