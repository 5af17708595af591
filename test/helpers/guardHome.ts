// vitest setup file (every project): no test may write into the user's agent-lsp state dir.
import { installForgottenHomeGuard } from './testHome.js';

installForgottenHomeGuard();
