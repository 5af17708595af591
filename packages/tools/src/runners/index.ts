/**
 * Build and test runners (run_build, run_tests, get_tests_for_file): project detection, the plan
 * of what to run, the process group it runs in, the output cap, and the parsers of each tool's
 * output (parsers/).
 */
export * from './detection.js';
export * from './outputCap.js';
export * from './plans.js';
export * from './processGroup.js';
export * from './runnerConfig.js';
export * from './runnerPaths.js';
export * from './testFiles.js';
export * from './parsers/index.js';
