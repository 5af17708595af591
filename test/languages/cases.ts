import type { LanguageCase } from './languageCase.js';
import { MORE_CASES } from './moreCases.js';
import { WEB_CASES } from './webCases.js';
import { OTHER_CASES } from './otherCases.js';
import { VUE_CASES } from './vueCases.js';
import { CONFIG_CASES } from './configCases.js';

/**
 * The rows of the language matrix. `install` says how the server got onto this machine (the
 * product finds it the normal way: bundled, on PATH, in the project or agent-lsp's state dir).
 */

const PY = {
  language: 'Python',
  fixture: 'python',
  languageId: 'python',
  symbol: 'area',
  declaration: { file: 'shapes.py', pattern: 'def @@area(' },
  use: { file: 'main.py', pattern: 'print(@@area(3, 4))' },
  broken: { file: 'broken.py', pattern: 'missing_total' },
  preview: { file: 'main.py', old_text: 'area(3, 4)', new_text: 'area(3, 4) + not_defined' },
} as const;

const python = (server: string, install: string, extra: Partial<LanguageCase> = {}): LanguageCase => ({
  ...PY,
  name: `python (${server})`,
  serverId: server,
  ...(server === 'pyright' ? {} : { args: ['--python-server', server] }),
  install,
  ...extra,
});

const TS = {
  languageId: 'typescript',
  symbol: 'area',
  declaration: { file: 'src/shapes.ts', pattern: 'function @@area(' },
  use: { file: 'src/main.ts', pattern: 'console.log(@@area(3, 4))' },
  broken: { file: 'src/broken.ts', pattern: "area(2, 'three')" },
  preview: { file: 'src/main.ts', old_text: 'area(3, 4)', new_text: "area(3, '4')" },
  language: 'TypeScript',
  fixture: 'typescript',
} as const;

const C_CASE = {
  language: 'C',
  fixture: 'c',
  languageId: 'c',
  symbol: 'area',
  declaration: { file: 'shapes.h', pattern: 'int @@area(' },
  use: { file: 'main.c', pattern: '@@area(3, 4)' },
  definitionTargets: [{ file: 'shapes.h', pattern: 'int area(' }, { file: 'shapes.c', pattern: 'int area(' }],
  broken: { file: 'broken.c', pattern: 'missing_height' },
  preview: { file: 'main.c', old_text: 'area(3, 4)', new_text: 'area(3, no_such_value)' },
} as const;

const CPP_CASE = {
  language: 'C++',
  fixture: 'cpp',
  languageId: 'cpp',
  symbol: 'area',
  declaration: { file: 'shapes.hpp', pattern: 'int @@area(' },
  use: { file: 'main.cpp', pattern: 'shapes::@@area(3, 4)' },
  definitionTargets: [{ file: 'shapes.hpp', pattern: 'int area(' }, { file: 'shapes.cpp', pattern: 'int area(' }],
  broken: { file: 'broken.cpp', pattern: 'missing_height' },
  preview: { file: 'main.cpp', old_text: 'area(3, 4)', new_text: 'area(3, no_such_value)' },
} as const;


export const LANGUAGE_CASES: readonly LanguageCase[] = [
  python('pyright', 'bundled with agent-lsp (npm pyright)'),
  python('basedpyright', 'npm install -g basedpyright'),
  python('pylsp', 'apt-get install python3-pylsp'),
  python('jedi-language-server', 'pip install jedi-language-server', {
    lacks: { diagnostics: 'jedi-language-server reports syntax errors only; the planted error is an undefined name' },
  }),
  python('ruff', 'pip install ruff', { lacks: { hover: "ruff's hover explains only noqa rule codes, not symbols" } }),
  python('ty', 'pip install ty'),
  python('pyrefly', 'pip install pyrefly'),
  { ...TS, name: 'typescript (typescript-language-server)', serverId: 'typescript', install: 'bundled with agent-lsp (npm typescript-language-server, typescript)' },
  { ...TS, name: 'typescript (typescript-go)', serverId: 'typescript-go', args: ['--ts-server', 'tsgo'], install: 'bundled with agent-lsp (npm @typescript/native-preview)' },
  {
    name: 'javascript (typescript-language-server)',
    language: 'JavaScript',
    fixture: 'javascript',
    languageId: 'javascript',
    serverId: 'typescript',
    install: 'bundled with agent-lsp',
    symbol: 'area',
    declaration: { file: 'src/shapes.js', pattern: 'function @@area(' },
    use: { file: 'src/main.js', pattern: 'console.log(@@area(3, 4))' },
    broken: { file: 'src/broken.js', pattern: "area(2, 'three')" },
    preview: { file: 'src/main.js', old_text: 'area(3, 4)', new_text: "area(3, '4')" },
  },
  {
    name: 'go (gopls)',
    language: 'Go',
    fixture: 'go',
    languageId: 'go',
    serverId: 'gopls',
    install: 'go install golang.org/x/tools/gopls@v0.23 (GOBIN /root/go/bin)',
    symbol: 'Area',
    declaration: { file: 'shapes/shapes.go', pattern: 'func @@Area(' },
    use: { file: 'main.go', pattern: 'shapes.@@Area(3, 4)' },
    broken: { file: 'broken.go', pattern: '"three"' },
    preview: { file: 'main.go', old_text: 'shapes.Area(3, 4)', new_text: 'shapes.Area(3, "4")' },
  },
  { ...C_CASE, name: 'c (clangd)', serverId: 'clangd', install: 'apt-get install clangd' },
  { ...C_CASE, name: 'c (ccls)', serverId: 'ccls', args: ['c:ccls'], install: 'apt-get install ccls' },
  { ...CPP_CASE, name: 'c++ (clangd)', serverId: 'clangd', install: 'apt-get install clangd' },
  { ...CPP_CASE, name: 'c++ (ccls)', serverId: 'ccls', args: ['cpp:ccls'], install: 'apt-get install ccls' },
  {
    name: 'rust (rust-analyzer)',
    language: 'Rust',
    fixture: 'rust',
    languageId: 'rust',
    serverId: 'rust-analyzer',
    install: 'rustup component add rust-analyzer',
    symbol: 'area',
    declaration: { file: 'src/shapes.rs', pattern: 'pub fn @@area(' },
    use: { file: 'src/main.rs', pattern: 'shapes::@@area(3, 4)' },
    broken: { file: 'src/broken.rs', pattern: 'area(2, "three")' },
    preview: { file: 'src/main.rs', old_text: 'shapes::area(3, 4)', new_text: 'shapes::area(3, "4")' },
  },
  {
    name: 'bash (bash-language-server)',
    language: 'Bash',
    fixture: 'bash',
    languageId: 'shellscript',
    serverId: 'bash-language-server',
    install: 'agent-lsp devDependency bash-language-server 5.8.1 (pnpm install); shellcheck from Debian (apt-get install shellcheck)',
    symbol: 'area',
    declaration: { file: 'lib.sh', pattern: '@@area() {' },
    use: { file: 'main.sh', pattern: '@@area 3 4' },
    broken: { file: 'broken.sh', pattern: 'if [ -n' },
    preview: { file: 'main.sh', old_text: 'area 3 4', new_text: 'if area 3 4' },
  },
  {
    name: 'php (intelephense)',
    language: 'PHP',
    fixture: 'php',
    languageId: 'php',
    serverId: 'intelephense',
    install: 'npm install -g intelephense',
    symbol: 'area',
    declaration: { file: 'src/Geometry.php', pattern: 'function @@area(' },
    use: { file: 'src/main.php', pattern: 'Geometry::@@area(3, 4)' },
    broken: { file: 'src/broken.php', pattern: 'missing_total' },
    preview: { file: 'src/main.php', old_text: 'Geometry::area(3, 4)', new_text: 'Geometry::area(3, 4) + not_defined()' },
  },
  ...MORE_CASES,
  ...WEB_CASES,
  ...OTHER_CASES,
  ...VUE_CASES,
  ...CONFIG_CASES,
];
