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
    install: 'agent-lsp servers install just (pip just-lsp 0.10.0 and rust-just 1.59.0, whose `just --fmt` formats, in a private venv)',
    symbol: 'area',
    // just-lsp finds references and renames within one justfile (a definition follows imports).
    declaration: { file: 'justfile', pattern: '@@area width height:' },
    use: { file: 'justfile', pattern: 'build: (@@area "3" "4")' },
    broken: { file: 'broken/justfile', pattern: 'missing_height' },
    preview: { file: 'justfile', old_text: '(area "3" "4")', new_text: '(area "3")' },
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
];
