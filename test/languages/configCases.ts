import type { LanguageCase } from './languageCase.js';

/**
 * The matrix rows of configuration and template languages added with their `servers install`
 * routes (TOML, templ). Each project is the smallest one in which the server's cross-file features
 * work: a Cargo workspace for tombi, a Go module with templ's generated code for templ.
 */

export const CONFIG_CASES: readonly LanguageCase[] = [
  {
    name: 'toml (tombi)',
    language: 'TOML',
    fixture: 'toml',
    languageId: 'toml',
    serverId: 'tombi',
    install: 'agent-lsp servers install toml (pip tombi 1.9.6, whose wheel ships the binary, in a private venv)',
    // tombi follows a member's `workspace = true` dependency to the workspace's declaration of it.
    symbol: 'serde',
    declaration: { file: 'Cargo.toml', pattern: '@@serde = "1.0"' },
    use: { file: 'shapes/Cargo.toml', pattern: '@@serde = { workspace = true }' },
    broken: { file: 'broken/broken.toml', pattern: 'port = 9090' },
    preview: { file: 'shapes/Cargo.toml', old_text: 'version = "0.1.0"', new_text: 'version = "0.1.0"\nversion = "0.2.0"' },
  },
  {
    name: 'templ (templ)',
    language: 'templ',
    fixture: 'templ',
    languageId: 'templ',
    serverId: 'templ',
    install: 'agent-lsp servers install templ (go install github.com/a-h/templ/cmd/templ@v0.3.1100, with gopls v0.23.0)',
    symbol: 'Card',
    declaration: { file: 'components/card.templ', pattern: 'templ @@Card(' },
    use: { file: 'components/page.templ', pattern: '@C@@ard("rectangle", 12)' },
    broken: { file: 'components/broken.templ', pattern: '@Card("square", "nine")' },
    preview: { file: 'components/page.templ', old_text: '@Card("rectangle", 12)', new_text: '@Card("rectangle", "twelve")' },
  },
  {
    name: 'solidity (solidity-language-server)',
    language: 'Solidity',
    fixture: 'solidity',
    languageId: 'solidity',
    serverId: 'solidity-language-server',
    install: 'agent-lsp servers install solidity (npm @nomicfoundation/solidity-language-server 0.8.4)',
    symbol: 'area',
    declaration: { file: 'contracts/Shapes.sol', pattern: 'function @@area(' },
    use: { file: 'contracts/Main.sol', pattern: 'Shapes.@@area(3, 4)' },
    broken: { file: 'contracts/Broken.sol', pattern: 'Shapes.volume(3, 4)' },
    preview: { file: 'contracts/Main.sol', old_text: 'Shapes.area(3, 4)', new_text: 'Shapes.volume(3, 4)' },
    lacks: {
      diagnostics:
        "it validates by compiling with a solc its bundled Hardhat downloads from binaries.soliditylang.org (the version list, then the compiler), which this machine cannot reach (HH502): it publishes no diagnostics. No setting names a local solc; only Hardhat's own compiler cache is read, and seeding it is not done here",
    },
  },
  {
    name: 'bitbake (bitbake-language-server)',
    language: 'BitBake',
    fixture: 'bitbake',
    languageId: 'bitbake',
    serverId: 'bitbake-language-server',
    install: 'agent-lsp servers install bitbake (pip bitbake-language-server 0.0.15 with pygls 1.3.1 and oelint-adv 5.7.2, in a private venv)',
    // It knows only the files opened so far: a task calling a function of the same recipe.
    symbol: 'shapes_area',
    declaration: { file: 'recipes-shapes/area/area_1.0.bb', pattern: '@@shapes_area() {' },
    use: { file: 'recipes-shapes/area/area_1.0.bb', pattern: '    @@shapes_area' },
    broken: { file: 'recipes-shapes/broken/broken_1.0.bb', pattern: 'SUMMARY = "A recipe without its license"' },
    preview: { file: 'recipes-shapes/area/area_1.0.bb', old_text: 'LICENSE = "MIT"\n', new_text: '' },
    lacks: {
      preview_edit: "it lints the file on disk (oelint-adv reads the path, not the document's text): an unsaved edit is never checked (preview_edit answers partial)",
    },
  },
];

/** Servers for these languages tried here that are not in the matrix, and why (docs/languages.md lists them). */
export const CONFIG_NOT_IN_MATRIX: readonly { server: string; reason: string }[] = [
  {
    server: 'esbonio 2.1.0 (reStructuredText, PyPI)',
    reason:
      'it needs Sphinx in the project\'s Python (Sphinx 9.0.4 took 80 s to install here); with it, its sphinx-agent created the Sphinx app and never built the project: hover, definition and document symbols answered null after 45 s (also after a save), and it offers no references, rename or formatting. Without Sphinx the agent exits at once (RuntimeError: 1)',
  },
  { server: 'make-ls 0.4.0 (Makefile, PyPI)', reason: 'requires Python 3.12 or later; this machine has Python 3.11 and no registry it reaches ships a CPython' },
  { server: 'autotools-language-server 0.1.3 (PyPI)', reason: "serves configure.ac only (completion from autoconf's macro list), not Makefiles: nothing of the battery to run" },
];
