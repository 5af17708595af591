import { spawnSync } from 'node:child_process';
import { findExecutable } from '@agent-lsp/lsp';
import type { MachineProbe, PythonForVenvs } from './installPlan.js';

/** This machine, as the install routes see it: tools on PATH, root or not, python3's venv, rustup's components. */
export function machineProbe(): MachineProbe {
  let python: PythonForVenvs | undefined | null = null;
  return {
    which: (tool) => findExecutable(tool),
    isRoot: typeof process.getuid === 'function' && process.getuid() === 0,
    pythonWithVenv() {
      if (python !== null) return python;
      const candidate = findExecutable('python3');
      if (!candidate || spawnSync(candidate, ['-c', 'import venv'], { stdio: 'ignore', timeout: 30_000 }).status !== 0) return (python = undefined);
      // pip 22.3 and later install into another interpreter (--python): a venv without a pip of its
      // own then takes seconds where ensurepip takes a minute on a busy machine.
      const pip = spawnSync(candidate, ['-m', 'pip', '--version'], { encoding: 'utf8', timeout: 30_000 });
      const [major = 0, minor = 0] = (/^pip (\d+)\.(\d+)/.exec(pip.stdout ?? '') ?? []).slice(1).map(Number);
      const outerPip = pip.status === 0 && (major > 22 || (major === 22 && minor >= 3));
      // Without it, the venv needs ensurepip, which Debian's python3 lacks until python3-venv is installed.
      if (!outerPip && spawnSync(candidate, ['-c', 'import ensurepip'], { stdio: 'ignore', timeout: 30_000 }).status !== 0) return (python = undefined);
      return (python = { path: candidate, outerPip });
    },
    rustupHas(component) {
      return spawnSync('rustup', ['which', component], { stdio: 'ignore', timeout: 30_000 }).status === 0;
    },
  };
}
