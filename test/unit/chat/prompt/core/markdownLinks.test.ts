// The local links of a rules file (src/chat/prompt/core/markdownLinks.ts), which the Customizations
// list judges by the inside-the-workspace rule.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { markdownLinks } from '../../../../../src/chat/prompt/core/markdownLinks';

void test('relative, absolute and file: links are found with their lines; web links, anchors and fenced examples are not', () => {
  const text = [
    '# Rules',
    'Apply the [general guidelines](./general-coding.instructions.md) and [the API](../../docs/api.md#auth "API").',
    'See [passwd](/etc/passwd), ![logo](img/logo%20big.png) and [home](file:///home/u/.ssh/id_rsa).',
    'Not files: [site](https://example.com/x.md), [mail](mailto:a@b.c), [here](#rules).',
    '```md',
    '[example](../../outside.md)',
    '```',
    '[after](<docs/with space.md>)',
  ].join('\n');
  assert.deepEqual(markdownLinks(text), [
    { target: './general-coding.instructions.md', line: 2 },
    { target: '../../docs/api.md', line: 2 },
    { target: '/etc/passwd', line: 3 },
    { target: 'img/logo big.png', line: 3 },
    { target: 'file:///home/u/.ssh/id_rsa', line: 3 },
    { target: 'docs/with space.md', line: 8 },
  ]);
});
