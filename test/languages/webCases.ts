import type { LanguageCase } from './languageCase.js';

/**
 * The matrix rows of the web stack's servers installed by `agent-lsp servers install` (vtsls,
 * Vue, Astro, GraphQL, Prisma, Markdown). `install` is the command that installed them here.
 */

const installed = (lang: string, pkg: string) => `agent-lsp servers install ${lang} (npm ${pkg})`;

export const WEB_CASES: readonly LanguageCase[] = [
  {
    name: 'typescript (vtsls)',
    language: 'TypeScript',
    fixture: 'typescript',
    languageId: 'typescript',
    serverId: 'vtsls',
    args: ['typescript:vtsls'],
    install: installed('typescript:vtsls', '@vtsls/language-server 0.3.0'),
    symbol: 'area',
    declaration: { file: 'src/shapes.ts', pattern: 'function @@area(' },
    use: { file: 'src/main.ts', pattern: 'console.log(@@area(3, 4))' },
    broken: { file: 'src/broken.ts', pattern: "area(2, 'three')" },
    preview: { file: 'src/main.ts', old_text: 'area(3, 4)', new_text: "area(3, '4')" },
  },
];
