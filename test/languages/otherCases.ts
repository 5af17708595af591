import type { LanguageCase } from './languageCase.js';

/**
 * The matrix rows of infrastructure, build and editor languages (Terraform, Vim script, CMake,
 * Perl, Docker Compose, nginx...): servers `agent-lsp servers install` gets from npm, PyPI, the Go
 * module proxy or Debian. cases.ts has the programming languages, moreCases.ts the web and data ones.
 */

export const OTHER_CASES: readonly LanguageCase[] = [
  {
    name: 'terraform (terraform-ls)',
    language: 'Terraform',
    fixture: 'terraform',
    languageId: 'terraform',
    serverId: 'terraform-ls',
    install: 'agent-lsp servers install terraform (go install github.com/hashicorp/terraform-ls@v0.39.0)',
    symbol: 'width',
    declaration: { file: 'variables.tf', pattern: 'variable "@@width"' },
    use: { file: 'main.tf', pattern: 'var.@@width' },
    // A module of its own: terraform-ls publishes a module's diagnostics when it first indexes it, and the root module is indexed before this file is opened.
    broken: { file: 'broken/broken.tf', pattern: 'value = var.width +' },
    preview: { file: 'main.tf', old_text: 'area = var.width * 4', new_text: 'area = var.width *' },
    lacks: {
      preview_edit:
        'terraform-ls publishes a module\'s diagnostics once, when it first indexes the module (on the first file opened in it), and not again when another file of it is opened unchanged: the diagnostics before the edit cannot be confirmed for that file\'s text (preview_edit answers partial after its timeout)',
    },
  },
  {
    name: 'vim (vim-language-server)',
    language: 'Vim script',
    fixture: 'vim',
    languageId: 'vim',
    serverId: 'vim-language-server',
    install: 'agent-lsp servers install vim (npm vim-language-server@2.3.1)',
    symbol: 'shapes#area',
    declaration: { file: 'autoload/shapes.vim', pattern: 'function! @@shapes#area(' },
    use: { file: 'plugin/main.vim', pattern: 'let s:total = @@shapes#area(3, 4)' },
    broken: { file: 'broken.vim', pattern: 'let l:total = (3 +' },
    preview: { file: 'plugin/main.vim', old_text: 'shapes#area(3, 4)', new_text: 'shapes#area(3, 4' },
    lacks: { hover: "vim-language-server hovers Vim's built-in functions, commands and options, not the project's own functions (it answers null)" },
  },
  {
    name: 'just (just-lsp)',
    language: 'just',
    fixture: 'just',
    languageId: 'just',
    serverId: 'just-lsp',
    install: 'agent-lsp servers install just (pip just-lsp 0.10.0 and rust-just 1.59.0, whose just --fmt formats, in a private venv)',
    symbol: 'area',
    // just-lsp finds references and renames within one justfile (a definition follows imports).
    declaration: { file: 'justfile', pattern: '@@area width height:' },
    use: { file: 'justfile', pattern: 'build: (@@area "3" "4")' },
    broken: { file: 'broken/justfile', pattern: 'missing_height' },
    preview: { file: 'justfile', old_text: '(area "3" "4")', new_text: '(area "3")' },
    lacks: {
      preview_edit:
        "just-lsp publishes a file's diagnostics only when that file itself changes: after the battery's other documents were opened and changed (a rename preview, the planted error's file), the diagnostics before the edit are not confirmed for the file's text, and preview_edit answers partial (it passed in 1 of 3 runs here)",
    },
  },
  {
    name: 'robot (robotframework-lsp)',
    language: 'Robot Framework',
    fixture: 'robot',
    languageId: 'robotframework',
    serverId: 'robotframework-lsp',
    install: 'agent-lsp servers install robotframework (pip robotframework-lsp 1.13.0 and robotframework 7.5 in a private venv)',
    symbol: 'Compute Area',
    declaration: { file: 'keywords.resource', pattern: '@@Compute Area' },
    use: { file: 'area.robot', pattern: '${area}=    @@Compute Area' },
    broken: { file: 'broken.robot', pattern: 'Compute Volume' },
    preview: { file: 'area.robot', old_text: 'Compute Area    3    4', new_text: 'Compute Volume    3    4' },
  },
  {
    name: 'docker compose (compose-language-service)',
    language: 'Docker Compose',
    fixture: 'compose',
    languageId: 'dockercompose',
    serverId: 'compose-language-service',
    install: 'agent-lsp servers install dockercompose (npm @microsoft/compose-language-service 1.0.0)',
    // It documents the Compose file's keys; services are not symbols to it.
    symbol: 'depends_on',
    declaration: { file: 'compose.yaml', pattern: '    @@depends_on:' },
    use: { file: 'compose.yaml', pattern: '    @@depends_on:' },
    broken: { file: 'broken/compose.yaml', pattern: 'image: nginx:1.28' },
    preview: { file: 'compose.yaml', old_text: 'image: nginx:1.27', new_text: 'image: [nginx:1.27' },
  },
  // The next three servers document the language's own words (commands, directives, unit
  // settings) and nothing of a project: hover is asked on one of those words, and what their
  // capabilities do not offer is recorded as lacking.
  {
    name: 'cmake (cmake-language-server)',
    language: 'CMake',
    fixture: 'cmake',
    languageId: 'cmake',
    serverId: 'cmake-language-server',
    install: 'agent-lsp servers install cmake (pip cmake-language-server 0.1.11, pygls 1.3.1 and cmakelang 0.6.13, whose cmake-format formats, in a private venv; cmake from Debian for its help)',
    symbol: 'add_executable',
    declaration: { file: 'cmake/shapes.cmake', pattern: '@@add_executable(${name} main.c)' },
    use: { file: 'cmake/shapes.cmake', pattern: '@@add_executable(${name} main.c)' },
    broken: { file: 'CMakeLists.txt', pattern: 'shapes_add_area(area_tool)' },
    preview: { file: 'CMakeLists.txt', old_text: 'shapes_add_area(area_tool)', new_text: 'shapes_add_area(area_tool' },
    lacks: { diagnostics: 'cmake-language-server publishes no diagnostics' },
  },
  {
    name: 'nginx (nginx-language-server)',
    language: 'nginx',
    fixture: 'nginx',
    languageId: 'nginx',
    serverId: 'nginx-language-server',
    install: 'agent-lsp servers install nginx (pip nginx-language-server 0.9.0 in a private venv)',
    symbol: 'proxy_pass',
    declaration: { file: 'nginx.conf', pattern: '@@proxy_pass http://backend;' },
    use: { file: 'nginx.conf', pattern: '@@proxy_pass http://backend;' },
    broken: { file: 'nginx.conf', pattern: 'listen 80;' },
    preview: { file: 'nginx.conf', old_text: 'listen 80;', new_text: 'listen 80' },
    lacks: { diagnostics: 'nginx-language-server publishes no diagnostics' },
  },
  {
    name: 'systemd (systemd-language-server)',
    language: 'systemd unit',
    fixture: 'systemd',
    languageId: 'systemd',
    serverId: 'systemd-language-server',
    install: 'agent-lsp servers install systemd (pip systemd-language-server 0.3.5 in a private venv)',
    symbol: 'Restart',
    declaration: { file: 'area.service', pattern: '@@Restart=always' },
    use: { file: 'area.service', pattern: '@@Restart=always' },
    broken: { file: 'area.service', pattern: 'Restart=always' },
    preview: { file: 'area.service', old_text: 'Restart=always', new_text: 'Restartt=always' },
    lacks: { diagnostics: 'systemd-language-server publishes no diagnostics' },
  },
  {
    name: 'perl (Perl::LanguageServer)',
    language: 'Perl',
    fixture: 'perl',
    languageId: 'perl',
    serverId: 'perl-language-server',
    install: "agent-lsp servers install perl (apt libperl-languageserver-perl 2.5.0, Debian's, as root)",
    symbol: 'area',
    declaration: { file: 'lib/Shapes.pm', pattern: 'sub @@area {' },
    use: { file: 'main.pl', pattern: 'my $total = @@area(3, 4)' },
    broken: { file: 'broken.pl', pattern: 'my $total = (3 +' },
    preview: { file: 'main.pl', old_text: 'area(3, 4);', new_text: 'area(3, 4' },
    lacks: {
      diagnostics:
        "Perl::LanguageServer 2.5 publishes a file's `perl -c` errors and, for the same file, an empty list, in Perl's hash order (random per process): the last word is empty in about half the runs, so its diagnostics cannot be confirmed",
    },
  },
  {
    name: 'ansible (ansible-language-server)',
    language: 'Ansible',
    fixture: 'ansible',
    languageId: 'ansible',
    serverId: 'ansible-language-server',
    install: 'agent-lsp servers install ansible (npm @ansible/ansible-language-server 26.6.0; pip ansible-core 2.18.6 in a private venv)',
    // A project module (library/, named by ansible.cfg): ansible-doc documents it, and definition opens its source.
    symbol: 'shapes_area',
    declaration: { file: 'site.yml', pattern: '      @@shapes_area:' },
    use: { file: 'site.yml', pattern: '      @@shapes_area:' },
    definitionTargets: [{ file: 'library/shapes_area.py', pattern: 'module: shapes_area' }],
    broken: { file: 'broken/site.yml', pattern: '- name: A task with two modules' },
    preview: { file: 'site.yml', old_text: '      register: result', new_text: '      ansible.builtin.command: echo two\n      register: result' },
    lacks: {
      preview_edit:
        'ansible-language-server validates by running ansible-playbook --syntax-check on the file on disk, on open and save: the text of an unsaved edit is never checked (preview_edit answers partial)',
    },
  },
  {
    name: 'sql (sql-language-server)',
    language: 'SQL',
    fixture: 'sql',
    languageId: 'sql',
    serverId: 'sql-language-server',
    // sqls ranks first for .sql and cannot be had here (the Go proxy refuses it): this one is named.
    args: ['sql:sql-language-server'],
    install: 'agent-lsp servers install sql:sql-language-server (npm sql-language-server 1.7.1)',
    // Without a database connection it parses and renames within one statement: a table alias.
    symbol: 'u',
    declaration: { file: 'queries.sql', pattern: 'FROM users AS @@u WHERE' },
    use: { file: 'queries.sql', pattern: 'SELECT @@u.id' },
    broken: { file: 'broken.sql', pattern: 'WHERE;' },
    preview: { file: 'queries.sql', old_text: 'WHERE u.id = 1;', new_text: 'WHERE;' },
    lacks: { rename: "sql-language-server 1.7.1 advertises renameProvider but answers textDocument/rename with \"Unhandled method\"" },
  },
];

/** Servers for these languages tried here that are not in the matrix, and why (docs/languages.md lists them). */
export const OTHER_NOT_IN_MATRIX: readonly { server: string; reason: string }[] = [
  { server: 'postgrestools 0.25 (SQL, npm @postgrestools/postgrestools)', reason: 'probed only: without a database connection it answers syntax diagnostics and nothing else (hover needs the schema from a live Postgres); no row yet' },
  { server: 'sqls, jq-lsp, regal (Rego), jsonnet-language-server, dot-language-server', reason: 'the Go module proxy refuses them here (403), and npm has no dot-language-server or awk-language-server' },
  { server: 'lua-language-server, lemminx (XML), jdtls (Java)', reason: 'released as downloads of their own (GitHub, Eclipse); no registry this machine reaches has them' },
];
