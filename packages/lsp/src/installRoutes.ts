/**
 * How `agent-lsp servers install` gets a server, by server id: data only. Every version is pinned
 * to one that installed and started on our CI machine; a route names the executables it provides
 * (they are linked into `<servers home>/bin`, installedServers.ts).
 *
 * - npm, pip, go, cargo: installed into agent-lsp's own servers home (npm --prefix, a private
 *   venv, GOBIN, cargo --root), never into the user's global npm or Python.
 * - apt: Debian's package, system-wide, only when running as root.
 * - rustup: a component of the user's rustup toolchain (the only source of rust-analyzer builds).
 * - bundled: comes with agent-lsp (a dependency of the package).
 * - none: no route on a machine like ours; `manual` says what the user does.
 */
export type InstallRoute =
  | {
      kind: 'npm' | 'pip' | 'go' | 'cargo';
      packages: readonly InstallPackage[];
      binaries: readonly string[];
      features?: readonly string[];
      /** pip: a binary the package installs no script for, and the module `python -m` runs for it. */
      launchers?: Readonly<Record<string, string>>;
    }
  /** apt: no binaries when the package installs no executable of its own (a Perl module): the server's own resolution tells whether it is there. */
  | { kind: 'apt'; packages: readonly InstallPackage[]; binaries: readonly string[] }
  | { kind: 'rustup'; component: string; binaries: readonly string[] }
  | { kind: 'bundled' }
  | { kind: 'none'; manual: string };

/** A package as its registry names it (npm/pip name, Go module path, crate, Debian package) and its pinned version. */
export interface InstallPackage {
  name: string;
  /** Exact version; for apt, Debian's (not pinned: the distribution's current one). */
  version: string;
}

export type InstalledRouteKind = 'npm' | 'pip' | 'go' | 'cargo';

const npm = (binaries: readonly string[], ...specs: string[]): InstallRoute => ({ kind: 'npm', packages: specs.map(spec), binaries });
const pip = (binaries: readonly string[], ...specs: string[]): InstallRoute => ({ kind: 'pip', packages: specs.map(spec), binaries });
const go = (binary: string, module: string, version: string): InstallRoute => ({ kind: 'go', packages: [{ name: module, version }], binaries: [binary] });
const apt = (binary: string, name: string): InstallRoute => ({ kind: 'apt', packages: [{ name, version: "Debian's" }], binaries: [binary] });

/** `name@version`, the name possibly scoped (`@vue/language-server@3.3.11`). */
function spec(text: string): InstallPackage {
  const at = text.lastIndexOf('@');
  if (at <= 0) throw new Error(`install route ${text} has no version`);
  return { name: text.slice(0, at), version: text.slice(at + 1) };
}

const GOPLS = go('gopls', 'golang.org/x/tools/gopls', 'v0.23.0');

/** vscode-langservers-extracted serves CSS/SCSS/LESS, HTML and JSON: one install for the three. */
const VSCODE_LANGSERVERS = npm(
  ['vscode-css-language-server', 'vscode-html-language-server', 'vscode-json-language-server', 'vscode-eslint-language-server'],
  'vscode-langservers-extracted@4.10.0',
);

const VTSLS = npm(['vtsls'], '@vtsls/language-server@0.3.0');

export const INSTALL_ROUTES: Readonly<Record<string, InstallRoute>> = {
  // Python
  pyright: { kind: 'bundled' },
  basedpyright: pip(['basedpyright-langserver', 'basedpyright'], 'basedpyright@1.40.2'),
  pylsp: pip(['pylsp'], 'python-lsp-server[pyflakes]@1.15.0'),
  'jedi-language-server': pip(['jedi-language-server'], 'jedi-language-server@0.47.0'),
  ruff: pip(['ruff'], 'ruff@0.17.5'),
  ty: pip(['ty'], 'ty@0.0.104'),
  pyrefly: pip(['pyrefly'], 'pyrefly@1.4.1'),
  // TypeScript / JavaScript
  typescript: { kind: 'bundled' },
  'typescript-go': { kind: 'bundled' },
  'typescript-language-server': { kind: 'bundled' },
  vtsls: VTSLS,
  deno: { kind: 'none', manual: 'install Deno from deno.land and make sure `deno` is on PATH' },
  // Go, C family, Rust
  gopls: GOPLS,
  clangd: apt('clangd', 'clangd'),
  ccls: apt('ccls', 'ccls'),
  'rust-analyzer': { kind: 'rustup', component: 'rust-analyzer', binaries: ['rust-analyzer'] },
  // Web and data
  'bash-language-server': npm(['bash-language-server'], 'bash-language-server@5.8.1'),
  intelephense: npm(['intelephense'], 'intelephense@1.18.5'),
  // Its peer typescript would be npm's latest, 7, which has no JS API for it or the plugin: pinned to 5.9.
  'vue-language-server': npm(['vue-language-server'], '@vue/language-server@3.3.11', '@vue/typescript-plugin@3.3.11', 'typescript@5.9.3'),
  svelteserver: npm(['svelteserver'], 'svelte-language-server@0.18.4'),
  'astro-ls': npm(['astro-ls'], '@astrojs/language-server@2.17.1'),
  'vscode-css-language-server': VSCODE_LANGSERVERS,
  'vscode-html-language-server': VSCODE_LANGSERVERS,
  'vscode-json-language-server': VSCODE_LANGSERVERS,
  'yaml-language-server': npm(['yaml-language-server'], 'yaml-language-server@2.0.0'),
  // The wheel ships tombi's binary. PyPI's taplo and npm's @taplo/cli are built without the language server: crates.io's, compiled here (tens of minutes).
  tombi: pip(['tombi'], 'tombi@1.9.6'),
  taplo: { kind: 'cargo', packages: [spec('taplo-cli@0.10.0')], binaries: ['taplo'], features: ['lsp'] },
  'dockerfile-language-server': npm(['docker-langserver'], 'dockerfile-language-server-nodejs@0.15.0'),
  'tailwindcss-language-server': npm(['tailwindcss-language-server'], '@tailwindcss/language-server@0.16.0'),
  templ: go('templ', 'github.com/a-h/templ/cmd/templ', 'v0.3.1100'),
  'terraform-ls': go('terraform-ls', 'github.com/hashicorp/terraform-ls', 'v0.39.0'),
  buf: npm(['buf'], '@bufbuild/buf@1.75.0'),
  'sql-language-server': npm(['sql-language-server'], 'sql-language-server@1.7.1', 'vscode-languageserver-protocol@3.16.0'),
  'graphql-lsp': npm(['graphql-lsp'], 'graphql-language-service-cli@3.5.0'),
  'prisma-language-server': npm(['prisma-language-server'], '@prisma/language-server@31.12.10'),
  fortls: pip(['fortls'], 'fortls@3.2.2'),
  rumdl: pip(['rumdl'], 'rumdl@0.3.0'),
  // pygls 2 breaks it; cmakelang's cmake-format (on PATH, from the servers' bin) is what it formats with.
  'cmake-language-server': pip(['cmake-language-server', 'cmake-format'], 'cmake-language-server@0.1.11', 'pygls@1.3.1', 'cmakelang@0.6.13'),
  'solidity-language-server': npm(['nomicfoundation-solidity-language-server'], '@nomicfoundation/solidity-language-server@0.8.4'),
  'vim-language-server': npm(['vim-language-server'], 'vim-language-server@2.3.1'),
  'ansible-language-server': npm(['ansible-language-server'], '@ansible/ansible-language-server@26.6.0'),
  'elm-language-server': npm(['elm-language-server'], '@elm-tooling/elm-language-server@2.8.0'),
  // just-lsp formats by running `just --fmt`: PyPI's rust-just ships that binary.
  'just-lsp': pip(['just-lsp', 'just'], 'just-lsp@0.10.0', 'rust-just@1.59.0'),
  // It has a module and no console script: a launcher runs `python -m robotframework_ls`.
  'robotframework-lsp': { kind: 'pip', packages: [spec('robotframework-lsp@1.13.0'), spec('robotframework@7.5.0')], binaries: ['robotframework_ls'], launchers: { robotframework_ls: 'robotframework_ls' } },
  'compose-language-service': npm(['docker-compose-langserver'], '@microsoft/compose-language-service@1.0.0'),
  // 0.0.15 imports pygls 1's LanguageServer and iterates oelint-adv 5's list of issues (6 and later answer a tuple).
  'bitbake-language-server': pip(['bitbake-language-server'], 'bitbake-language-server@0.0.15', 'pygls@1.3.1', 'oelint-adv@5.7.2', 'oelint-parser@3.5.5'),
  'nginx-language-server': pip(['nginx-language-server'], 'nginx-language-server@0.9.0'),
  'systemd-language-server': pip(['systemd-language-server'], 'systemd-language-server@0.3.5'),
  // A Perl module run by the system's perl: no executable of its own.
  'perl-language-server': { kind: 'apt', packages: [{ name: 'libperl-languageserver-perl', version: "Debian's" }], binaries: [] },
  // Nothing on npm, PyPI, crates.io, the Go proxy or Debian builds these: their own downloads.
  jdtls: { kind: 'none', manual: 'download Eclipse JDT LS (download.eclipse.org/jdtls) and put `jdtls` on PATH' },
  'lua-language-server': { kind: 'none', manual: 'download lua-language-server from github.com/LuaLS/lua-language-server/releases and put it on PATH' },
  sqls: { kind: 'none', manual: 'build sqls from github.com/sqls-server/sqls (the Go module proxy does not serve it) and put it on PATH' },
  marksman: { kind: 'none', manual: 'download marksman from github.com/artempyanykh/marksman/releases and put it on PATH' },
};

/**
 * Tools a server runs from PATH that are not its own package, installed with it by `servers
 * install` (each into the servers home by its own route): ansible-language-server hovers with
 * ansible-doc, finds modules with ansible-config and validates with ansible-playbook --syntax-check;
 * vue-language-server answers only beside vtsls; templ's server answers through the gopls it finds on PATH.
 */
export const INSTALL_COMPANIONS: Readonly<Record<string, readonly InstallRoute[]>> = {
  // Vue's hybrid mode: vtsls runs @vue/typescript-plugin (installed with the server) for it (vueServer.ts).
  'vue-language-server': [VTSLS],
  templ: [GOPLS],
  'ansible-language-server': [pip(['ansible', 'ansible-config', 'ansible-doc', 'ansible-playbook', 'ansible-galaxy'], 'ansible-core@2.18.6')],
};

/** The directory name of a route's install under the servers home: one per package set. */
export function installUnitName(route: Extract<InstallRoute, { kind: InstalledRouteKind }>): string {
  const main = (route.packages[0]?.name ?? 'unknown').replace(/\[.*\]$/, '');
  return `${route.kind}-${main.replace(/^@/, '').replace(/[^A-Za-z0-9._-]+/g, '+')}`;
}

/** Whether a route installs into agent-lsp's servers home (and so can be staged and renamed into place). */
export function installsIntoHome(route: InstallRoute): route is Extract<InstallRoute, { kind: InstalledRouteKind }> {
  return route.kind === 'npm' || route.kind === 'pip' || route.kind === 'go' || route.kind === 'cargo';
}
