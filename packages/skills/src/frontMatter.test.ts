import { describe, expect, it } from 'vitest';
import { splitFrontMatter } from './frontMatter.js';
import { parseSkill } from './skill.js';

const GOOD = [
  '---',
  'name: lsp-demo',
  'title: Demo',
  'description: "A demo: with a colon"',
  'arguments:',
  '  - name: file_path',
  '    description: The file.',
  '    required: true',
  '  # a comment between items',
  '  - name: note',
  '    description: Optional text.',
  '    required: false',
  'phases:',
  '  - name: look',
  '    allowed: [list_symbols, go_to_*]',
  '    advance_on: [preview_edit]',
  '  - name: write',
  '    allowed: [apply_edit]',
  '    advance_on: []',
  '---',
  '',
  'Look at {{file_path}} ({{ note }}).',
].join('\n');

describe('skill files', () => {
  it('parse front matter and body', () => {
    const skill = parseSkill(GOOD, 'demo.md');
    expect(skill).toMatchObject({
      name: 'lsp-demo',
      description: 'A demo: with a colon',
      arguments: [
        { name: 'file_path', required: true },
        { name: 'note', required: false },
      ],
      phases: [
        { name: 'look', allowed: ['list_symbols', 'go_to_*'], advance_on: ['preview_edit'] },
        { name: 'write', allowed: ['apply_edit'], advance_on: [] },
      ],
    });
    expect(skill.body).toBe('Look at {{file_path}} ({{ note }}).');
  });

  it.each([
    ['no opening fence', GOOD.replace('---\n', ''), /must start with a '---'/],
    ['no closing fence', GOOD.replace('\n---\n', '\n'), /no closing '---'/],
    ['a key given twice', GOOD.replace('title: Demo', 'title: Demo\ntitle: Again'), /demo\.md:4: 'title' is given twice/],
    ['ambiguous plain text', GOOD.replace('title: Demo', 'title: Demo: part two'), /demo\.md:3: ': ' and ' #' are ambiguous/],
    ['single-quoted YAML', GOOD.replace('title: Demo', "title: 'Demo'"), /unsupported YAML syntax/],
    ['a badly indented item line', GOOD.replace('    description: The file.', '   description: The file.'), /demo\.md:7: a list item starts with/],
    ['an unknown key', GOOD.replace('title: Demo', 'title: Demo\ncolour: red'), /colour/],
    ['a required flag that is not a boolean', GOOD.replace('required: true', 'required: yes'), /required/],
    ['an undeclared placeholder', GOOD.replace('{{file_path}}', '{{path}}'), /uses \{\{path\}\}, which is not a declared argument/],
    ['a phase without allowed tools', GOOD.replace('allowed: [apply_edit]', 'allowed: []'), /allowed/],
    ['one phase only', GOOD.replace(/ {2}- name: write\n.*\n.*\n/, ''), /phases/],
  ])('refuse %s with the file and line', (_, text, message) => {
    expect(() => parseSkill(text, 'demo.md')).toThrow(message);
  });

  it('keep the body as written after the front matter', () => {
    expect(splitFrontMatter('---\nname: x\n---\n\n# Heading\n\ntext\n', 'x.md').body).toBe('# Heading\n\ntext\n');
  });
});
