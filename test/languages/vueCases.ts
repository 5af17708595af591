import type { LanguageCase } from './languageCase.js';

/**
 * The Vue row: @vue/language-server paired with vtsls running @vue/typescript-plugin (one profile,
 * vueServer.ts). The symbol is declared in a .ts file and used in a .vue component's
 * <script setup lang="ts">: definition crosses from .vue to .ts, references from .ts to .vue.
 */
export const VUE_CASES: readonly LanguageCase[] = [
  {
    name: 'vue (vue-language-server with vtsls)',
    language: 'Vue',
    fixture: 'vue',
    languageId: 'vue',
    serverId: 'vue-language-server',
    install: 'agent-lsp servers install vue (npm @vue/language-server 3.3.11, @vue/typescript-plugin 3.3.11, typescript 5.9.3; @vtsls/language-server 0.3.0)',
    symbol: 'area',
    declaration: { file: 'src/shapes.ts', pattern: 'export function @@area(' },
    use: { file: 'src/App.vue', pattern: 'const size: number = @@area(3, 4)' },
    broken: { file: 'src/Broken.vue', pattern: "area(2, 'three')" },
    preview: { file: 'src/App.vue', old_text: 'area(3, 4)', new_text: "area(3, '4')" },
  },
];
