// The Customizations list's order (src/chat/customizations/core/customizationList.ts): groups by
// kind in a fixed order, applies before available before off, a failed reader shown as an error.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CustomizationSource } from '../../../../../src/contracts/customizations';
import { firstProblemLine, groupCustomizations } from '../../../../../src/chat/customizations/core/customizationList';

const src = (
  name: string,
  state: CustomizationSource['state'],
  kind: CustomizationSource['kind'] = 'instructions',
): CustomizationSource => ({
  kind,
  name,
  path: `/ws/${name}`,
  scope: 'workspace',
  state,
  problems: [],
});

void test('groups follow the kind order; in each, what applies comes first, then available, then off, by name', () => {
  const groups = groupCustomizations([
    { kind: 'hooks', sources: [src('settings.json', 'off', 'hooks')] },
    {
      kind: 'instructions',
      sources: [src('z.md', 'off'), src('b.md', 'available'), src('c.md', 'applies'), src('a.md', 'applies')],
    },
  ]);
  assert.deepEqual(
    groups.map((g) => [g.kind, g.sources.map((s) => s.name)]),
    [
      ['instructions', ['a.md', 'c.md', 'b.md', 'z.md']],
      ['hooks', ['settings.json']],
    ],
  );
});

void test('a reader that failed is a group with its error; a kind with nothing is left out', () => {
  const groups = groupCustomizations([
    { kind: 'skill', error: 'EACCES: .github/skills' },
    { kind: 'agent', sources: [] },
  ]);
  assert.deepEqual(groups, [{ kind: 'skill', sources: [], errors: ['EACCES: .github/skills'] }]);
  assert.deepEqual(groupCustomizations([]), []);
});

void test('a source opens at its first problem with a line', () => {
  const s = {
    ...src('x.instructions.md', 'off'),
    problems: [{ message: 'no line' }, { line: 4, message: 'bad' }, { line: 2, message: 'later' }],
  };
  assert.equal(firstProblemLine(s), 4);
  assert.equal(firstProblemLine(src('y.md', 'applies')), undefined);
});
