import { realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { findProjectExecutable } from './projectExecutables.js';
import { typescriptLibDir } from './typescriptLib.js';
import type { ResolvedServer, ServerDefinition } from './serverProfile.js';

/** A Vue project: its package.json depends on vue (claimsUnder's `file#dependency` form). */
export const VUE_PROJECT_MARKERS = ['package.json#vue'] as const;

const TS_EXTENSIONS = { '.ts': 'typescript', '.tsx': 'typescriptreact', '.js': 'javascript', '.jsx': 'javascriptreact', '.mts': 'typescript', '.mjs': 'javascript' } as const;

/** The directory tsserver resolves @vue/typescript-plugin from: @vue/language-server's own package, which depends on it. */
function pluginLocation(vueServer: string): string | undefined {
  try {
    // node_modules/.bin/vue-language-server → node_modules/@vue/language-server/bin/vue-language-server.js
    const packageDir = dirname(dirname(realpathSync(vueServer)));
    createRequire(join(packageDir, 'package.json')).resolve('@vue/typescript-plugin');
    return packageDir;
  } catch {
    return undefined;
  }
}

/**
 * Vue (hybrid mode): @vue/language-server 3 serves templates and styles and asks a tsserver
 * running @vue/typescript-plugin about scripts, which that tsserver (vtsls here, as in Neovim's
 * and the Vue docs' setups) answers for .vue and .ts files alike. The two run as one profile
 * (CompanionServer): vtsls is the main server (readiness, definitions,
 * references, rename, workspace symbols), vue-language-server the companion (a .vue file's
 * outline, formatting, links, colours; what vtsls has nothing for). In a Vue project the pair also
 * takes the .ts and .js files: only its tsserver sees the .vue files that import them.
 */
export const vueServer: ServerDefinition = {
  id: 'vue-language-server',
  displayName: 'vue-language-server (with vtsls)',
  languageIds: ['vue', 'typescript', 'typescriptreact', 'javascript', 'javascriptreact'],
  extensions: { '.vue': 'vue', ...TS_EXTENSIONS },
  rootMarkers: ['vue.config.js', 'vite.config.ts', 'nuxt.config.ts', 'package.json'],
  projectOnly: true,
  claimsUnder: VUE_PROJECT_MARKERS,
  readiness: 'vtsls',
  refreshAfterChange: 'reloadProjects',
  formatDocumentByRange: true,
  installHint: 'Install it with `agent-lsp servers install vue` (@vue/language-server, @vue/typescript-plugin and vtsls), or `npm install -g @vue/language-server @vtsls/language-server` and make sure both are on PATH.',
  versionArgs: [],
  resolve(rootDir): ResolvedServer | undefined {
    const vue = findProjectExecutable('vue-language-server', rootDir);
    const vtsls = findProjectExecutable('vtsls', rootDir);
    const location = vue ? pluginLocation(vue.path) : undefined;
    const tsdk = typescriptLibDir(rootDir);
    if (!vue || !vtsls || !location || !tsdk) return undefined;
    const plugin = { name: '@vue/typescript-plugin', location, languages: ['vue'], configNamespace: 'typescript', enableForWorkspaceTypeScriptVersions: true };
    const tsserver = { useSyntaxServer: 'never' };
    return {
      command: [vtsls.path, '--stdio'],
      source: vue.where,
      settings: { vtsls: { tsserver: { globalPlugins: [plugin] } }, typescript: { tsserver }, javascript: { tsserver } },
      profileFingerprint: ['vue-language-server', vue.path, vtsls.path, location, tsdk].join('|'),
      details: { ...vue.details, vtsls: vtsls.path, plugin: location, tsdk },
      companion: {
        // It needs a TypeScript with the JS API (typescript 7 has none): the project's, else agent-lsp's.
        command: [vue.path, '--stdio', `--tsdk=${tsdk}`],
        languageIds: ['vue'],
        answersFirst: ['textDocument/documentSymbol', 'textDocument/formatting', 'textDocument/rangeFormatting', 'textDocument/documentLink', 'textDocument/documentColor', 'textDocument/foldingRange', 'textDocument/linkedEditingRange'],
        relay: 'tsserver',
      },
    };
  },
};
