import type { LanguageCase } from './languageCase.js';

/**
 * The matrix rows of the web, data and configuration languages (cases.ts has the programming
 * languages). Where a language has no references between files, the use is in the same file.
 */

const npm = (pkg: string) => `npm install -g ${pkg}`;

const stylesheet = (language: string, ext: string, symbol: string): LanguageCase => ({
  name: `${language.toLowerCase()} (vscode-css-language-server)`,
  language,
  fixture: ext,
  languageId: ext,
  serverId: 'vscode-css-language-server',
  install: 'agent-lsp devDependency vscode-langservers-extracted 4.10.0 (pnpm install)',
  symbol,
  declaration: { file: `theme.${ext}`, pattern: `@@${symbol}: #0a6` },
  use: { file: `theme.${ext}`, pattern: ext === 'css' ? `var(@@${symbol})` : `color: @@${symbol}` },
  broken: { file: `broken.${ext}`, pattern: '.title { color: }' },
  preview: { file: `theme.${ext}`, old_text: ext === 'css' ? `color: var(${symbol});` : `color: ${symbol};`, new_text: 'color: ;' },
  // A CSS outline lists rules by selector; custom properties are not in it.
  ...(ext === 'css' ? { outline: ':root' } : {}),
});

export const MORE_CASES: readonly LanguageCase[] = [
  stylesheet('CSS', 'css', '--accent'),
  stylesheet('SCSS', 'scss', '$accent'),
  stylesheet('LESS', 'less', '@accent'),
  {
    name: 'html (vscode-html-language-server)',
    language: 'HTML',
    fixture: 'html',
    languageId: 'html',
    serverId: 'vscode-html-language-server',
    install: 'agent-lsp devDependency vscode-langservers-extracted 4.10.0 (pnpm install)',
    symbol: 'section',
    declaration: { file: 'index.html', pattern: '<@@section id="area">' },
    use: { file: 'index.html', pattern: '<@@section id="area">' },
    broken: { file: 'broken.html', pattern: '.card { color: }' },
    preview: { file: 'index.html', old_text: '.area { color: green; }', new_text: '.area { color: }' },
    lacks: {
      definition: 'vscode-html-language-server answers definition only inside embedded scripts, not for elements',
      references: 'vscode-html-language-server answers references only inside embedded scripts, not for elements',
      diagnostics: 'vscode-html-language-server reports no diagnostics for markup, and none for embedded styles without client settings',
    },
  },
  {
    name: 'json (vscode-json-language-server)',
    language: 'JSON',
    fixture: 'json',
    languageId: 'json',
    serverId: 'vscode-json-language-server',
    install: 'agent-lsp devDependency vscode-langservers-extracted 4.10.0 (pnpm install)',
    symbol: 'scripts',
    declaration: { file: 'package.json', pattern: '"@@scripts"' },
    use: { file: 'package.json', pattern: '"@@scripts"' },
    broken: { file: 'broken.json', pattern: '1.0.0' },
    preview: { file: 'package.json', old_text: '"area": "node area.js"', new_text: '"area": node' },
    lacks: { hover: 'hover comes from a JSON schema; the fixture has none and this machine reaches no schema store' },
  },
  {
    name: 'yaml (yaml-language-server)',
    language: 'YAML',
    fixture: 'yaml',
    languageId: 'yaml',
    serverId: 'yaml-language-server',
    install: 'agent-lsp devDependency yaml-language-server 1.25.0 (pnpm install)',
    symbol: 'defaults',
    declaration: { file: 'config.yaml', pattern: 'defaults: &@@defaults' },
    use: { file: 'config.yaml', pattern: '<<: *@@defaults' },
    // An alias leads to the node its anchor names: the mapping under `defaults:`.
    definitionTargets: [{ file: 'config.yaml', pattern: 'width: 3' }],
    broken: { file: 'broken.yaml', pattern: 'width: 3' },
    preview: { file: 'config.yaml', old_text: 'name: area', new_text: 'name: [area' },
    lacks: { hover: 'hover comes from a JSON schema; the fixture has none and this machine reaches no schema store' },
  },


  {
    name: 'dockerfile (dockerfile-language-server)',
    language: 'Dockerfile',
    fixture: 'dockerfile',
    languageId: 'dockerfile',
    serverId: 'dockerfile-language-server',
    install: 'agent-lsp devDependency dockerfile-language-server-nodejs 0.15.0 (pnpm install)',
    symbol: 'AREA_WIDTH',
    declaration: { file: 'Dockerfile', pattern: 'ARG @@AREA_WIDTH=3' },
    use: { file: 'Dockerfile', pattern: '${@@AREA_WIDTH}' },
    broken: { file: 'broken/Dockerfile', pattern: 'RUNN' },
    preview: { file: 'Dockerfile', old_text: 'RUN echo', new_text: 'RUNN echo' },
    // Its outline lists instructions.
    outline: 'ARG',
  },
  {
    name: 'svelte (svelte-language-server)',
    language: 'Svelte',
    fixture: 'svelte',
    languageId: 'svelte',
    serverId: 'svelteserver',
    install: npm('svelte-language-server'),
    symbol: 'size',
    declaration: { file: 'src/App.svelte', pattern: 'const @@size' },
    use: { file: 'src/App.svelte', pattern: '<p>{@@size}' },
    broken: { file: 'src/Broken.svelte', pattern: "area(2, 'three')" },
    preview: { file: 'src/App.svelte', old_text: 'area(3, 4)', new_text: "area(3, '4')" },
  },





  {
    name: 'fortran (fortls)',
    language: 'Fortran',
    fixture: 'fortran',
    languageId: 'fortran',
    serverId: 'fortls',
    install: 'pip install fortls',
    symbol: 'area',
    declaration: { file: 'shapes.f90', pattern: 'integer function @@area(' },
    use: { file: 'main.f90', pattern: 'print *, @@area(3, 4)' },
    broken: { file: 'broken.f90', pattern: 'use missing_module' },
    preview: { file: 'main.f90', old_text: 'use shapes, only: area', new_text: 'use missing_module' },
    lacks: { preview_edit: 'fortls computes diagnostics when a file is opened or saved, not when it changes, so an unsaved edit cannot be checked (preview_edit answers partial)' },
  },



  {
    name: 'protobuf (buf)',
    language: 'Protocol Buffers',
    fixture: 'protobuf',
    languageId: 'proto',
    serverId: 'buf',
    install: 'go install github.com/bufbuild/buf/cmd/buf@latest',
    symbol: 'Rectangle',
    declaration: { file: 'proto/shapes/v1/shape.proto', pattern: 'message @@Rectangle {' },
    use: { file: 'proto/shapes/v1/service.proto', pattern: '  @@Rectangle rectangle = 1;' },
    broken: { file: 'proto/shapes/v1/broken.proto', pattern: 'Missing missing' },
    preview: { file: 'proto/shapes/v1/service.proto', old_text: '  Rectangle rectangle = 1;', new_text: '  Rectangl rectangle = 1;' },
  },
];

/**
 * Servers tried on this machine that are not in the matrix yet, and why: docs/languages.md lists
 * them so nobody takes their absence for a pass.
 */
export const NOT_IN_MATRIX: readonly { server: string; reason: string }[] = [
  { server: 'taplo (TOML)', reason: "npm's @taplo/cli and PyPI's taplo 0.9.3 are built without the language server (`taplo lsp stdio` exits 1: \"the LSP is not part of this build\"); cargo install taplo-cli --features lsp builds one in about 46 minutes here. tombi (PyPI) serves TOML instead" },
  { server: 'sqls (SQL)', reason: 'not on the Go module proxy (403); sql-language-server from npm is used' },
  { server: 'marksman (Markdown)', reason: 'a .NET binary from GitHub releases, not in any registry this machine reaches; rumdl (PyPI) is used' },
  { server: 'vscode-markdown-language-server (Markdown)', reason: 'it asks its client to parse Markdown into markdown-it tokens and to list and read the workspace (markdown/parse, markdown/findMarkdownFilesInWorkspace, markdown/fs/*: requests of VS Code\'s own client); rumdl serves Markdown instead' },
  { server: 'elm-language-server (Elm)', reason: 'needs the elm compiler, whose npm package downloads its binary' },
];
