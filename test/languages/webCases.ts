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
  {
    name: 'graphql (graphql-language-service-cli)',
    language: 'GraphQL',
    fixture: 'graphql',
    languageId: 'graphql',
    serverId: 'graphql-lsp',
    install: installed('graphql', 'graphql-language-service-cli 3.5.0'),
    symbol: 'Rectangle',
    declaration: { file: 'schema.graphql', pattern: 'type @@Rectangle {' },
    use: { file: 'queries/shapes.graphql', pattern: 'on @@Rectangle {' },
    broken: { file: 'queries/broken.graphql', pattern: 'perimeter' },
    preview: { file: 'queries/main.graphql', old_text: '...RectangleArea', new_text: '...RectangleArea\n    perimeter' },
  },
  {
    name: 'prisma (prisma-language-server)',
    language: 'Prisma',
    fixture: 'prisma',
    languageId: 'prisma',
    serverId: 'prisma-language-server',
    install: installed('prisma', '@prisma/language-server 31.12.10'),
    // A multi-file schema: the models of schema/ refer to each other.
    symbol: 'Rectangle',
    declaration: { file: 'schema/main.prisma', pattern: 'model @@Rectangle {' },
    use: { file: 'schema/label.prisma', pattern: 'rectangle   @@Rectangle' },
    broken: { file: 'broken/schema.prisma', pattern: 'radius Missing' },
    preview: { file: 'schema/label.prisma', old_text: 'text        String', new_text: 'text        Strin' },
  },
  {
    name: 'astro (astro-ls)',
    language: 'Astro',
    fixture: 'astro',
    languageId: 'astro',
    serverId: 'astro-ls',
    install: installed('astro', '@astrojs/language-server 2.17.1'),
    symbol: 'size',
    declaration: { file: 'src/pages/index.astro', pattern: 'const @@size' },
    use: { file: 'src/pages/index.astro', pattern: '<p>{@@size}' },
    broken: { file: 'src/pages/broken.astro', pattern: "area(2, 'three')" },
    preview: { file: 'src/pages/index.astro', old_text: 'area(3, 4)', new_text: "area(3, '4')" },
    lacks: { format: 'astro-ls formats with the project\'s prettier-plugin-astro; the fixture has none, and the server then logs "Couldn\'t resolve parser astro" and answers no edits' },
  },
  {
    name: 'markdown (rumdl)',
    language: 'Markdown',
    fixture: 'markdown',
    languageId: 'markdown',
    serverId: 'rumdl',
    args: ['markdown:rumdl'],
    install: 'agent-lsp servers install markdown:rumdl (pip rumdl 0.3.0)',
    // Headings are the symbols; links to them (`file.md#anchor`) are their uses.
    symbol: 'Area',
    declaration: { file: 'docs/guide.md', pattern: '## @@Area' },
    use: { file: 'README.md', pattern: 'guide.md#@@area' },
    broken: { file: 'broken.md', pattern: '##Missing space' },
    preview: { file: 'README.md', old_text: '# Shapes', new_text: '#Shapes' },
  },
];
