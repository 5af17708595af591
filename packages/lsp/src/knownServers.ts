import type { ReadinessStrategy, ServerDefinition } from './serverProfile.js';
import { pythonEnvironmentDirs } from './pythonInterpreter.js';

/**
 * Language servers agent-lsp knows how to run when the user already has them: data only, one
 * entry each. They are found on PATH, in the project's node_modules/.bin or a virtualenv's bin
 * (knownServerDefinitions.ts) and rank after the built-in profiles (pyright, typescript, gopls,
 * clangd, rust-analyzer), which keep every extension they claim. Where two entries here claim the
 * same extension, each carries a `priority` (lower wins when both are installed).
 */
export interface KnownServer {
  id: string;
  /** The executable's name, looked up on PATH, node_modules/.bin, a virtualenv's bin. */
  command: string;
  args: readonly string[];
  /** Extension (with dot, lower case) → language id sent in didOpen; without a dot: a file name (`dockerfile`). */
  extensions: Readonly<Record<string, string>>;
  /** Every language id the server answers for: exactly the values of `extensions`. */
  languageIds: readonly string[];
  /** Files that mark a project of this language. */
  rootMarkers: readonly string[];
  installHint: string;
  /** Rank among the known servers sharing an extension (lower first); required when shared. */
  priority?: number;
  readiness?: ReadinessStrategy;
  /** Arguments that print the version when `--version` is not one; empty: it has none (initialize tells). */
  versionArgs?: readonly string[];
  /** Answers to workspace/configuration by section, when the server needs some to work. */
  settings?: Readonly<Record<string, unknown>>;
  /**
   * The `initialize` request's initializationOptions, when the server needs some to work. A string
   * value TYPESCRIPT_LIB stands for the TypeScript lib directory (the project's, else agent-lsp's own).
   */
  initializationOptions?: Readonly<Record<string, unknown>>;
  /** How the server's diagnostics, changes and formatting are asked (ServerDefinition's fields of the same names). */
  exactDiagnostics?: ServerDefinition['exactDiagnostics'];
  refreshAfterChange?: ServerDefinition['refreshAfterChange'];
  formatDocumentByRange?: ServerDefinition['formatDocumentByRange'];
  /** ServerDefinition.analysedWhenPublished: answers about a document only after publishing its diagnostics. */
  analysedWhenPublished?: boolean;
  /** ServerDefinition.indexesOpenedDirectories: workspace/symbol covers only directories a file was opened in. */
  indexesOpenedDirectories?: boolean;
  /**
   * Arguments to `command` that exit 0 only when the server is installed, where the command is a
   * language's interpreter that is there without it (perl for Perl::LanguageServer).
   */
  installedCheck?: readonly string[];
  /** ServerDefinition.claimsUnder: its extensions are its own only under a directory holding one of these files. */
  claimsUnder?: readonly string[];
  /** ServerDefinition.settingsPushedAfterInitialized: `settings` are sent by workspace/didChangeConfiguration after initialized. */
  settingsPushedAfterInitialized?: boolean;
  /** LSP methods whose `$/cancelRequest` the server mishandles (ServerDefinition.uncancellable). */
  uncancellable?: readonly string[];
  /** ServerDefinition.environmentDirs. */
  environmentDirs?: (rootDir: string) => string[];
  /** Built-in profiles that supersede this entry (same server, bundled or tuned): never listed twice. */
  builtin?: string;
}

/**
 * pyright keeps the cancellation source of its latest find-all-references and cancels it when the
 * next one arrives. A references request whose cancel pyright reads before it begins the request
 * leaves that source cancelled before its token was made, and cancelling it again throws: every
 * later references request fails ("this._token.cancel is not a function") until the server
 * restarts — for every client of a shared broker. Seen with pyright 1.1.414; basedpyright shares
 * the code. pyright itself drops a running references request when the next one arrives. Its
 * long-running commands (workspace/executeCommand) keep their source the same way.
 */
export const PYRIGHT_UNCANCELLABLE: readonly string[] = ['textDocument/references', 'workspace/executeCommand'];

const npm = (pkg: string) => `npm install -g ${pkg}`;

/** In a known server's initializationOptions: the TypeScript lib directory (`typescript.tsdk`). */
export const TYPESCRIPT_LIB = '<typescript lib>';

export const KNOWN_SERVERS: readonly KnownServer[] = [
  // Python: pyright is bundled; these are alternatives a user may prefer with `python:pylsp`.
  { id: 'basedpyright', command: 'basedpyright-langserver', args: ['--stdio'], extensions: { '.py': 'python', '.pyi': 'python' }, languageIds: ['python'], rootMarkers: ['pyproject.toml', 'setup.py', 'requirements.txt'], installHint: 'pip install basedpyright', priority: 1, readiness: 'pyright', uncancellable: PYRIGHT_UNCANCELLABLE, environmentDirs: pythonEnvironmentDirs, versionArgs: [] },
  { id: 'pylsp', command: 'pylsp', args: [], extensions: { '.py': 'python', '.pyi': 'python' }, languageIds: ['python'], rootMarkers: ['pyproject.toml', 'setup.py', 'requirements.txt'], installHint: 'apt-get install python3-pylsp, or pip install python-lsp-server', priority: 2 },
  { id: 'jedi-language-server', command: 'jedi-language-server', args: [], extensions: { '.py': 'python', '.pyi': 'python' }, languageIds: ['python'], rootMarkers: ['pyproject.toml', 'setup.py', 'requirements.txt'], installHint: 'pip install jedi-language-server', priority: 3, readiness: 'initialized' },
  { id: 'ruff', command: 'ruff', args: ['server'], extensions: { '.py': 'python', '.pyi': 'python' }, languageIds: ['python'], rootMarkers: ['pyproject.toml', 'ruff.toml', '.ruff.toml'], installHint: 'pip install ruff', priority: 4 },
  { id: 'ty', command: 'ty', args: ['server'], extensions: { '.py': 'python', '.pyi': 'python' }, languageIds: ['python'], rootMarkers: ['pyproject.toml', 'ty.toml'], installHint: 'pip install ty', priority: 5 },
  { id: 'pyrefly', command: 'pyrefly', args: ['lsp'], extensions: { '.py': 'python', '.pyi': 'python' }, languageIds: ['python'], rootMarkers: ['pyproject.toml', 'pyrefly.toml'], installHint: 'pip install pyrefly', priority: 6, readiness: 'pyrefly' },
  // C family: clangd is the built-in profile.
  { id: 'ccls', command: 'ccls', args: [], extensions: { '.c': 'c', '.h': 'c', '.cc': 'cpp', '.cpp': 'cpp', '.cxx': 'cpp', '.hpp': 'cpp', '.hh': 'cpp', '.hxx': 'cpp' }, languageIds: ['c', 'cpp'], rootMarkers: ['compile_commands.json', '.ccls', 'CMakeLists.txt', 'Makefile'], installHint: 'apt-get install ccls', priority: 1, readiness: 'ccls' },
  { id: 'deno', command: 'deno', args: ['lsp'], extensions: { '.ts': 'typescript', '.tsx': 'typescriptreact', '.js': 'javascript', '.jsx': 'javascriptreact', '.mts': 'typescript', '.mjs': 'javascript' }, languageIds: ['typescript', 'typescriptreact', 'javascript', 'javascriptreact'], rootMarkers: ['deno.json', 'deno.jsonc'], installHint: 'curl -fsSL https://deno.land/install.sh | sh', priority: 1, settings: { deno: { enable: true } } },
  { id: 'rust-analyzer', builtin: 'rust-analyzer', command: 'rust-analyzer', args: [], extensions: { '.rs': 'rust' }, languageIds: ['rust'], rootMarkers: ['Cargo.toml'], installHint: 'rustup component add rust-analyzer' },
  { id: 'gopls', builtin: 'gopls', command: 'gopls', args: [], extensions: { '.go': 'go' }, languageIds: ['go'], rootMarkers: ['go.mod', 'go.work'], installHint: 'go install golang.org/x/tools/gopls@latest', versionArgs: ['version'] },
  { id: 'clangd', builtin: 'clangd', command: 'clangd', args: [], extensions: { '.c': 'c', '.h': 'c', '.cc': 'cpp', '.cpp': 'cpp', '.cxx': 'cpp', '.hpp': 'cpp', '.hh': 'cpp', '.hxx': 'cpp' }, languageIds: ['c', 'cpp'], rootMarkers: ['compile_commands.json', 'compile_flags.txt'], installHint: 'apt-get install clangd', priority: 0 },
  { id: 'typescript-language-server', builtin: 'typescript', command: 'typescript-language-server', args: ['--stdio'], extensions: { '.ts': 'typescript', '.tsx': 'typescriptreact', '.js': 'javascript', '.jsx': 'javascriptreact', '.mts': 'typescript', '.mjs': 'javascript' }, languageIds: ['typescript', 'typescriptreact', 'javascript', 'javascriptreact'], rootMarkers: ['tsconfig.json', 'package.json'], installHint: npm('typescript-language-server typescript'), priority: 0 },
  { id: 'pyright', builtin: 'pyright', command: 'pyright-langserver', args: ['--stdio'], extensions: { '.py': 'python', '.pyi': 'python' }, languageIds: ['python'], rootMarkers: ['pyproject.toml', 'pyrightconfig.json'], installHint: npm('pyright'), priority: 0 },
  { id: 'vtsls', command: 'vtsls', args: ['--stdio'], extensions: { '.ts': 'typescript', '.tsx': 'typescriptreact', '.js': 'javascript', '.jsx': 'javascriptreact', '.mts': 'typescript', '.mjs': 'javascript' }, languageIds: ['typescript', 'typescriptreact', 'javascript', 'javascriptreact'], rootMarkers: ['tsconfig.json', 'package.json'], installHint: npm('@vtsls/language-server'), priority: 2, readiness: 'vtsls', exactDiagnostics: 'tsserver', refreshAfterChange: 'reloadProjects', formatDocumentByRange: true, settings: { typescript: { tsserver: { useSyntaxServer: 'never' } }, javascript: { tsserver: { useSyntaxServer: 'never' } } } },
  { id: 'jdtls', command: 'jdtls', args: [], extensions: { '.java': 'java' }, languageIds: ['java'], rootMarkers: ['pom.xml', 'build.gradle', 'build.gradle.kts', 'settings.gradle'], installHint: 'install Eclipse JDT LS (brew install jdtls) and put `jdtls` on PATH' },
  { id: 'csharp-ls', command: 'csharp-ls', args: [], extensions: { '.cs': 'csharp' }, languageIds: ['csharp'], rootMarkers: ['global.json', 'Directory.Build.props'], installHint: 'dotnet tool install --global csharp-ls', priority: 1 },
  { id: 'omnisharp', command: 'OmniSharp', args: ['-lsp'], extensions: { '.cs': 'csharp' }, languageIds: ['csharp'], rootMarkers: ['global.json', 'Directory.Build.props'], installHint: 'download OmniSharp from github.com/OmniSharp/omnisharp-roslyn/releases and put `OmniSharp` on PATH', priority: 2 },
  { id: 'kotlin-language-server', command: 'kotlin-language-server', args: [], extensions: { '.kt': 'kotlin', '.kts': 'kotlin' }, languageIds: ['kotlin'], rootMarkers: ['build.gradle.kts', 'build.gradle', 'settings.gradle.kts', 'pom.xml'], installHint: 'brew install kotlin-language-server, or download it from github.com/fwcd/kotlin-language-server' },
  { id: 'lua-language-server', command: 'lua-language-server', args: [], extensions: { '.lua': 'lua' }, languageIds: ['lua'], rootMarkers: ['.luarc.json', '.luarc.jsonc', '.stylua.toml'], installHint: 'brew install lua-language-server, or download it from github.com/LuaLS/lua-language-server' },
  { id: 'bash-language-server', command: 'bash-language-server', args: ['start'], extensions: { '.sh': 'shellscript', '.bash': 'shellscript', '.zsh': 'shellscript' }, languageIds: ['shellscript'], rootMarkers: [], installHint: npm('bash-language-server') },
  { id: 'yaml-language-server', command: 'yaml-language-server', args: ['--stdio'], extensions: { '.yaml': 'yaml', '.yml': 'yaml' }, languageIds: ['yaml'], rootMarkers: [], installHint: npm('yaml-language-server'), priority: 1 },
  { id: 'vscode-json-language-server', command: 'vscode-json-language-server', args: ['--stdio'], extensions: { '.json': 'json', '.jsonc': 'jsonc' }, languageIds: ['json', 'jsonc'], rootMarkers: [], installHint: npm('vscode-langservers-extracted'), versionArgs: [], initializationOptions: { provideFormatter: true } },
  { id: 'vscode-css-language-server', command: 'vscode-css-language-server', args: ['--stdio'], extensions: { '.css': 'css', '.scss': 'scss', '.less': 'less' }, languageIds: ['css', 'scss', 'less'], rootMarkers: [], installHint: npm('vscode-langservers-extracted'), priority: 1, versionArgs: [], initializationOptions: { provideFormatter: true }, settings: { css: { validate: true }, scss: { validate: true }, less: { validate: true } } },
  { id: 'vscode-html-language-server', command: 'vscode-html-language-server', args: ['--stdio'], extensions: { '.html': 'html', '.htm': 'html' }, languageIds: ['html'], rootMarkers: [], installHint: npm('vscode-langservers-extracted'), versionArgs: [], initializationOptions: { provideFormatter: true } },
  // tombi keeps no index (definitions and references follow Cargo and uv workspaces): a canary answering means it is ready. It analyses a document after it opens
  // or changes, answering hover with null until then, and publishes the document's diagnostics when done (also to clients that pull them).
  { id: 'tombi', command: 'tombi', args: ['lsp'], extensions: { '.toml': 'toml' }, languageIds: ['toml'], rootMarkers: ['tombi.toml', 'Cargo.toml', 'pyproject.toml'], installHint: 'pip install tombi', priority: 1, analysedWhenPublished: true },
  { id: 'taplo', command: 'taplo', args: ['lsp', 'stdio'], extensions: { '.toml': 'toml' }, languageIds: ['toml'], rootMarkers: ['.taplo.toml', 'taplo.toml'], installHint: 'cargo install taplo-cli --locked --features lsp', priority: 2 },
  { id: 'marksman', command: 'marksman', args: ['server'], extensions: { '.md': 'markdown', '.markdown': 'markdown' }, languageIds: ['markdown'], rootMarkers: ['.marksman.toml'], installHint: 'brew install marksman, or download it from github.com/artempyanykh/marksman', priority: 1 },
  { id: 'zls', command: 'zls', args: [], extensions: { '.zig': 'zig', '.zon': 'zig' }, languageIds: ['zig'], rootMarkers: ['build.zig', 'build.zig.zon'], installHint: 'download zls from github.com/zigtools/zls (match your zig version)' },
  { id: 'ocamllsp', command: 'ocamllsp', args: [], extensions: { '.ml': 'ocaml', '.mli': 'ocaml' }, languageIds: ['ocaml'], rootMarkers: ['dune-project', 'dune-workspace'], installHint: 'opam install ocaml-lsp-server' },
  { id: 'haskell-language-server', command: 'haskell-language-server-wrapper', args: ['--lsp'], extensions: { '.hs': 'haskell', '.lhs': 'haskell' }, languageIds: ['haskell'], rootMarkers: ['stack.yaml', 'cabal.project', 'hie.yaml'], installHint: 'ghcup install hls' },
  { id: 'elixir-ls', command: 'elixir-ls', args: [], extensions: { '.ex': 'elixir', '.exs': 'elixir' }, languageIds: ['elixir'], rootMarkers: ['mix.exs'], installHint: 'download elixir-ls from github.com/elixir-lsp/elixir-ls and put `elixir-ls` (language_server.sh) on PATH' },
  { id: 'erlang_ls', command: 'erlang_ls', args: [], extensions: { '.erl': 'erlang', '.hrl': 'erlang' }, languageIds: ['erlang'], rootMarkers: ['rebar.config', 'erlang.mk', 'erlang_ls.config'], installHint: 'build erlang_ls from github.com/erlang-ls/erlang_ls and put it on PATH' },
  { id: 'ruby-lsp', command: 'ruby-lsp', args: [], extensions: { '.rb': 'ruby', '.rake': 'ruby', '.gemspec': 'ruby', gemfile: 'ruby', rakefile: 'ruby' }, languageIds: ['ruby'], rootMarkers: ['Gemfile', '.ruby-version'], installHint: 'gem install ruby-lsp', priority: 1 },
  { id: 'solargraph', command: 'solargraph', args: ['stdio'], extensions: { '.rb': 'ruby', '.rake': 'ruby', '.gemspec': 'ruby', gemfile: 'ruby', rakefile: 'ruby' }, languageIds: ['ruby'], rootMarkers: ['Gemfile', '.solargraph.yml'], installHint: 'gem install solargraph', priority: 2 },
  { id: 'intelephense', command: 'intelephense', args: ['--stdio'], extensions: { '.php': 'php', '.phtml': 'php' }, languageIds: ['php'], rootMarkers: ['composer.json'], installHint: npm('intelephense'), priority: 1, versionArgs: [], readiness: 'progress' },
  { id: 'phpactor', command: 'phpactor', args: ['language-server'], extensions: { '.php': 'php', '.phtml': 'php' }, languageIds: ['php'], rootMarkers: ['composer.json', '.phpactor.json'], installHint: 'download phpactor.phar from github.com/phpactor/phpactor and put `phpactor` on PATH', priority: 2 },
  { id: 'sourcekit-lsp', command: 'sourcekit-lsp', args: [], extensions: { '.swift': 'swift' }, languageIds: ['swift'], rootMarkers: ['Package.swift'], installHint: 'install a Swift toolchain from swift.org (sourcekit-lsp ships with it)', versionArgs: ['--help'] },
  { id: 'dart', command: 'dart', args: ['language-server', '--protocol=lsp'], extensions: { '.dart': 'dart' }, languageIds: ['dart'], rootMarkers: ['pubspec.yaml'], installHint: 'install the Dart SDK (or Flutter) from dart.dev' },
  { id: 'terraform-ls', command: 'terraform-ls', args: ['serve'], extensions: { '.tf': 'terraform', '.tfvars': 'terraform-vars' }, languageIds: ['terraform', 'terraform-vars'], rootMarkers: ['.terraform', 'main.tf'], installHint: 'download terraform-ls from releases.hashicorp.com/terraform-ls', versionArgs: ['version'], indexesOpenedDirectories: true },
  { id: 'dockerfile-language-server', command: 'docker-langserver', args: ['--stdio'], extensions: { '.dockerfile': 'dockerfile', dockerfile: 'dockerfile', containerfile: 'dockerfile' }, languageIds: ['dockerfile'], rootMarkers: ['Dockerfile'], installHint: npm('dockerfile-language-server-nodejs'), versionArgs: [] },
  { id: 'svelteserver', command: 'svelteserver', args: ['--stdio'], extensions: { '.svelte': 'svelte' }, languageIds: ['svelte'], rootMarkers: ['svelte.config.js', 'svelte.config.mjs'], installHint: npm('svelte-language-server'), versionArgs: [] },
  { id: 'vue-language-server', builtin: 'vue-language-server', command: 'vue-language-server', args: ['--stdio'], extensions: { '.vue': 'vue' }, languageIds: ['vue'], rootMarkers: ['vue.config.js', 'vite.config.ts', 'nuxt.config.ts'], installHint: npm('@vue/language-server'), versionArgs: [] },
  { id: 'tailwindcss-language-server', command: 'tailwindcss-language-server', args: ['--stdio'], extensions: { '.css': 'css' }, languageIds: ['css'], rootMarkers: ['tailwind.config.js', 'tailwind.config.ts', 'tailwind.config.cjs'], installHint: npm('@tailwindcss/language-server'), priority: 2, versionArgs: [] },
  { id: 'texlab', command: 'texlab', args: [], extensions: { '.tex': 'latex', '.bib': 'bibtex', '.sty': 'latex', '.cls': 'latex' }, languageIds: ['latex', 'bibtex'], rootMarkers: ['.latexmkrc', 'Tectonic.toml'], installHint: 'cargo install --locked texlab, or download it from github.com/latex-lsp/texlab' },
  { id: 'nil', command: 'nil', args: [], extensions: { '.nix': 'nix' }, languageIds: ['nix'], rootMarkers: ['flake.nix', 'default.nix'], installHint: 'nix profile install nixpkgs#nil' },
  { id: 'metals', command: 'metals', args: [], extensions: { '.scala': 'scala', '.sc': 'scala', '.sbt': 'scala' }, languageIds: ['scala'], rootMarkers: ['build.sbt', 'build.sc', '.scala-build'], installHint: 'cs install metals (coursier)' },
  { id: 'clojure-lsp', command: 'clojure-lsp', args: [], extensions: { '.clj': 'clojure', '.cljs': 'clojure', '.cljc': 'clojure', '.edn': 'clojure' }, languageIds: ['clojure'], rootMarkers: ['deps.edn', 'project.clj', 'shadow-cljs.edn'], installHint: 'brew install clojure-lsp/brew/clojure-lsp-native' },
  { id: 'gleam', command: 'gleam', args: ['lsp'], extensions: { '.gleam': 'gleam' }, languageIds: ['gleam'], rootMarkers: ['gleam.toml'], installHint: 'install Gleam from gleam.run' },
  { id: 'r-languageserver', command: 'R', args: ['--slave', '-e', 'languageserver::run()'], extensions: { '.r': 'r', '.rmd': 'rmd' }, languageIds: ['r', 'rmd'], rootMarkers: ['DESCRIPTION', '.Rproj.user'], installHint: 'in R: install.packages("languageserver")' },
  { id: 'sqls', command: 'sqls', args: [], extensions: { '.sql': 'sql' }, languageIds: ['sql'], rootMarkers: [], installHint: 'go install github.com/sqls-server/sqls@latest', priority: 1 },
  { id: 'sql-language-server', command: 'sql-language-server', args: ['up', '--method', 'stdio'], extensions: { '.sql': 'sql' }, languageIds: ['sql'], rootMarkers: ['.sqllsrc.json'], installHint: npm('sql-language-server'), priority: 2, versionArgs: [] },
  { id: 'astro-ls', command: 'astro-ls', args: ['--stdio'], extensions: { '.astro': 'astro' }, languageIds: ['astro'], rootMarkers: ['astro.config.mjs', 'astro.config.ts'], installHint: npm('@astrojs/language-server typescript'), versionArgs: [], readiness: 'volar', exactDiagnostics: 'pull', initializationOptions: { typescript: { tsdk: TYPESCRIPT_LIB } } },
  { id: 'graphql-lsp', command: 'graphql-lsp', args: ['server', '-m', 'stream'], extensions: { '.graphql': 'graphql', '.gql': 'graphql' }, languageIds: ['graphql'], rootMarkers: ['.graphqlrc', '.graphqlrc.yml', '.graphqlrc.json', 'graphql.config.js'], installHint: npm('graphql-language-service-cli'), versionArgs: [], readiness: 'graphql' },
  { id: 'prisma-language-server', command: 'prisma-language-server', args: ['--stdio'], extensions: { '.prisma': 'prisma' }, languageIds: ['prisma'], rootMarkers: ['schema.prisma'], installHint: npm('@prisma/language-server'), versionArgs: [], settings: { prisma: {} } },
  { id: 'solidity-language-server', command: 'nomicfoundation-solidity-language-server', args: ['--stdio'], extensions: { '.sol': 'solidity' }, languageIds: ['solidity'], rootMarkers: ['hardhat.config.js', 'hardhat.config.ts', 'foundry.toml', 'remappings.txt'], installHint: npm('@nomicfoundation/solidity-language-server'), versionArgs: [],
    // It analyses a document 240 ms after it opens or changes, answering null until then, and publishes its diagnostics (empty when solc cannot be had) just after.
    analysedWhenPublished: true },
  { id: 'vim-language-server', command: 'vim-language-server', args: ['--stdio'], extensions: { '.vim': 'vim', '.vimrc': 'vim' }, languageIds: ['vim'], rootMarkers: [], installHint: npm('vim-language-server'), versionArgs: [],
    // It parses each opened or changed document in a child process and answers empty until the parse lands, which it tells by publishing the document's diagnostics.
    analysedWhenPublished: true,
    // It finds the word under the cursor by Vim's 'iskeyword', which it only learns from here: without it every hover, definition and reference answers empty.
    initializationOptions: { isNeovim: false, iskeyword: '@,48-57,_,192-255,-#', vimruntime: '', runtimepath: '', diagnostic: { enable: true }, indexes: { runtimepath: true, gap: 100, count: 3 }, suggest: { fromVimruntime: true, fromRuntimepath: false } } },
  // Playbooks are YAML: routed here only in a project with an ansible.cfg (Ansible's own project configuration), elsewhere to yaml-language-server.
  { id: 'ansible-language-server', command: 'ansible-language-server', args: ['--stdio'], extensions: { '.yml': 'ansible', '.yaml': 'ansible' }, languageIds: ['ansible'], rootMarkers: ['ansible.cfg'], claimsUnder: ['ansible.cfg'], installHint: npm('@ansible/ansible-language-server'), priority: 2, versionArgs: [],
    // It validates with ansible-lint by default and, without it, not at all: ansible-playbook --syntax-check unless ansible-lint is installed.
    settings: { ansible: { validation: { enabled: true, lint: { enabled: false } } } } },
  { id: 'elm-language-server', command: 'elm-language-server', args: ['--stdio'], extensions: { '.elm': 'elm' }, languageIds: ['elm'], rootMarkers: ['elm.json'], installHint: npm('@elm-tooling/elm-language-server'), versionArgs: [] },
  { id: 'fortls', command: 'fortls', args: [], extensions: { '.f90': 'fortran', '.f95': 'fortran', '.f03': 'fortran', '.f08': 'fortran', '.f': 'fortran', '.for': 'fortran' }, languageIds: ['fortran'], rootMarkers: ['.fortls', 'fpm.toml'], installHint: 'pip install fortls' },
  { id: 'cmake-language-server', command: 'cmake-language-server', args: [], extensions: { '.cmake': 'cmake' }, languageIds: ['cmake'], rootMarkers: ['CMakeLists.txt'], installHint: 'pip install cmake-language-server', versionArgs: [] },
  // templ's server runs gopls (from PATH) on the Go it generates from each .templ file and relays none of gopls's progress: a workspace/symbol canary answers once gopls has loaded the module.
  { id: 'templ', command: 'templ', args: ['lsp'], extensions: { '.templ': 'templ' }, languageIds: ['templ'], rootMarkers: ['go.mod'], installHint: 'go install github.com/a-h/templ/cmd/templ@latest, with gopls on PATH', versionArgs: ['version'] },
  // It lints a file on disk with oelint-adv when the file opens or changes, and knows only the files opened so far (hover and definition look there).
  { id: 'bitbake-language-server', command: 'bitbake-language-server', args: [], extensions: { '.bb': 'bitbake', '.bbappend': 'bitbake', '.bbclass': 'bitbake' }, languageIds: ['bitbake'], rootMarkers: ['oe-init-build-env'], installHint: 'pip install bitbake-language-server "pygls<2" "oelint-adv<6"' },
  { id: 'buf', command: 'buf', args: ['lsp', 'serve'], extensions: { '.proto': 'proto' }, languageIds: ['proto'], rootMarkers: ['buf.yaml', 'buf.work.yaml'], installHint: 'go install github.com/bufbuild/buf/cmd/buf@latest' },
  { id: 'rumdl', command: 'rumdl', args: ['server'], extensions: { '.md': 'markdown', '.markdown': 'markdown' }, languageIds: ['markdown'], rootMarkers: ['.rumdl.toml', 'rumdl.toml'], installHint: 'pip install rumdl', priority: 2, readiness: 'progress' },
  { id: 'vscode-markdown-language-server', command: 'vscode-markdown-language-server', args: ['--stdio'], extensions: { '.md': 'markdown', '.markdown': 'markdown' }, languageIds: ['markdown'], rootMarkers: [], installHint: npm('vscode-langservers-extracted'), priority: 3, versionArgs: [], settings: { markdown: { validate: { enabled: true } } } },
  { id: 'just-lsp', command: 'just-lsp', args: [], extensions: { '.just': 'just', justfile: 'just' }, languageIds: ['just'], rootMarkers: ['justfile', 'Justfile'], installHint: 'pip install just-lsp (or cargo install just-lsp)' },
  // It analyses the workspace as soon as it initialized; the libraries' specs it builds after that (its own $/customProgress) only add the standard keywords.
  { id: 'robotframework-lsp', command: 'robotframework_ls', args: [], extensions: { '.robot': 'robotframework', '.resource': 'robotframework' }, languageIds: ['robotframework'], rootMarkers: ['robot.toml', 'pyproject.toml'], installHint: 'pip install robotframework-lsp robotframework, and run `python -m robotframework_ls`' },
  { id: 'nginx-language-server', command: 'nginx-language-server', args: [], extensions: { '.conf': 'nginx' }, languageIds: ['nginx'], rootMarkers: ['nginx.conf'], installHint: 'pip install nginx-language-server', versionArgs: [] },
  { id: 'systemd-language-server', command: 'systemd-language-server', args: [], extensions: { '.service': 'systemd', '.socket': 'systemd', '.timer': 'systemd', '.mount': 'systemd', '.path': 'systemd', '.target': 'systemd' }, languageIds: ['systemd'], rootMarkers: [], installHint: 'pip install systemd-language-server', versionArgs: [] },
  // Routed by file name ahead of yaml-language-server, which reads the same files as plain YAML.
  { id: 'compose-language-service', command: 'docker-compose-langserver', args: ['--stdio'], extensions: { 'compose.yaml': 'dockercompose', 'compose.yml': 'dockercompose', 'docker-compose.yaml': 'dockercompose', 'docker-compose.yml': 'dockercompose' }, languageIds: ['dockercompose'], rootMarkers: ['compose.yaml', 'compose.yml', 'docker-compose.yaml', 'docker-compose.yml'], installHint: npm('@microsoft/compose-language-service'), versionArgs: [] },
  // Perl::LanguageServer reads the workspace (perlInc, fileFilter) only from its settings pushed after initialized; with none, definition, references and workspace symbols stay empty.
  { id: 'perl-language-server', command: 'perl', args: ['-MPerl::LanguageServer', '-e', 'Perl::LanguageServer::run'], extensions: { '.pl': 'perl', '.pm': 'perl', '.t': 'perl' }, languageIds: ['perl'], rootMarkers: ['Makefile.PL', 'cpanfile', 'Build.PL'], installHint: 'apt-get install libperl-languageserver-perl, or cpanm Perl::LanguageServer', versionArgs: [], readiness: 'perl',
    installedCheck: ['-e', 'exit(grep({ -f "$_/Perl/LanguageServer.pm" } @INC) ? 0 : 1)'],
    settingsPushedAfterInitialized: true, settings: { perl: { perlInc: ['lib'], fileFilter: ['.pm', '.pl', '.t'], ignoreDirs: ['.git', '.vscode', 'node_modules'] } } },
];
