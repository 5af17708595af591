import { describeSimulation } from './scenarios.js';

describeSimulation('speculative sessions with pyright', {
  fixture: 'python-basic',
  language: 'python',
  clean: { file: 'app/geometry.py', comment: '# note' },
  typeError: { file: 'app/geometry.py', line: 13, text: '    return "wrong"\n', message: /"float"/ },
  broken: {
    file: 'app/broken.py',
    line: 3,
    fix: { old_text: 'count: int = "three"', new_text: 'count: int = 3' },
    duplicate: { old_text: 'count: int = "three"\n', new_text: 'count: int = "three"\nagain: int = "three"\n' },
  },
  signature: {
    file: 'app/geometry.py',
    old_text: 'def distance(a: Point, b: Point) -> float:',
    new_text: 'def distance(a: Point, b: Point, scale: float) -> float:',
    caller: 'app/routes.py',
    message: /scale/,
  },
  chain: {
    file: 'app/geometry.py',
    safe: { old_text: '@dataclass\n', new_text: '# a point\n@dataclass\n' },
    breaking: { old_text: 'return ((a.x - b.x) ** 2 + (a.y - b.y) ** 2) ** 0.5', new_text: 'return "wrong"' },
    fixing: { old_text: 'return "wrong"', new_text: 'return 0.0' },
  },
});
