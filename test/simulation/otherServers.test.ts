import { describe } from 'vitest';
import { onPath } from '../helpers/onPath.js';
import { describeSimulation } from './scenarios.js';

/**
 * The speculative-session scenarios on gopls and clangd, found on PATH. When one is missing its
 * tests are skipped, and both the console and the test title say so plainly.
 */

function server(binary: string, install: string): { installed: boolean; title: string } {
  const installed = onPath(binary);
  if (!installed) console.warn(`${binary} is not installed: its speculative-session tests did not run (${install})`);
  return { installed, title: installed ? `speculative sessions with ${binary}` : `speculative sessions with ${binary} (NOT INSTALLED — did not run)` };
}

const gopls = server('gopls', 'apt-get install gopls');
const clangd = server('clangd', 'apt-get install clangd');

describe.skipIf(!gopls.installed)(gopls.title, () => {
  describeSimulation('gopls', {
    fixture: 'go-basic',
    language: 'go',
    timeoutMs: 15_000,
    clean: { file: 'geometry/geometry.go', comment: '// note' },
    typeError: { file: 'geometry/geometry.go', line: 13, text: '\treturn "wrong"\n', message: /"wrong".*float64/ },
    broken: {
      file: 'broken/broken.go',
      line: 6,
      fix: { old_text: '\treturn 42', new_text: '\treturn "42"' },
      duplicate: { old_text: '\treturn 42\n}\n', new_text: '\treturn 42\n}\n\n// Other also should.\nfunc Other() string {\n\treturn 42\n}\n' },
    },
    signature: {
      file: 'geometry/geometry.go',
      old_text: 'func Distance(a, b Point) float64 {',
      new_text: 'func Distance(a, b Point, scale float64) float64 {',
      caller: 'report.go',
      message: /not enough arguments/,
    },
    chain: {
      file: 'geometry/geometry.go',
      safe: { old_text: '// Point is a position on the plane.\n', new_text: '// Point is a position on the plane.\n// It has two coordinates.\n' },
      breaking: { old_text: 'return math.Hypot(b.X-a.X, b.Y-a.Y)', new_text: 'return "wrong"' },
      fixing: { old_text: 'return "wrong"', new_text: 'return math.Hypot(b.X-a.X, b.Y-a.Y)' },
    },
  });
});

describe.skipIf(!clangd.installed)(clangd.title, () => {
  describeSimulation('clangd', {
    fixture: 'cpp-basic',
    language: 'cpp',
    timeoutMs: 30_000,
    clean: { file: 'person.cpp', comment: '// note' },
    typeError: { file: 'person.cpp', line: 7, text: 'int Person::ageIn(int year) const { return "wrong"; }\n', message: /int/ },
    broken: {
      file: 'broken.cpp',
      line: 7,
      fix: { old_text: 'return "wrong";', new_text: 'return 0;' },
      duplicate: { old_text: '  return "wrong";\n}\n', new_text: '  return "wrong";\n}\n\nint other() {\n  return "wrong";\n}\n' },
    },
    signature: {
      file: 'person.h',
      old_text: 'int ageIn(int year) const;',
      new_text: 'int ageIn(int year, int month) const;',
      caller: 'main.cpp',
      message: /argument/,
      // clangd builds other files against the header on disk unless started with --use-dirty-headers.
      unsaved: 'clangd reads headers from disk (its --use-dirty-headers option is off)',
    },
    chain: {
      file: 'person.cpp',
      safe: { old_text: '#include <utility>\n', new_text: '#include <utility>\n// a comment\n' },
      breaking: { old_text: 'return year - birthYear_;', new_text: 'return "wrong";' },
      fixing: { old_text: 'return "wrong";', new_text: 'return year - birthYear_;' },
    },
  });
});
