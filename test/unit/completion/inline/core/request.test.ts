// The two request shapes: fill-in-the-middle and the chat infill prompt.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validateChatRequest } from '../../../../../src/api/chat/validation';
import {
  chatInfillRequest,
  fimRequest,
  HOLE,
  lineComment,
  MAX_TOKENS,
} from '../../../../../src/completion/inline/core/request';

const ctx = {
  prefix: 'def f(x):\n    ',
  suffix: '\n\nprint(f(2))\n',
  path: 'pkg/m.py',
  languageId: 'python',
  snippets: [{ path: 'pkg/n.py', text: 'def g(y):\n    return y' }],
  multiline: true,
};

void describe('completion requests', () => {
  void it('FIM: prompt ends with the prefix after a commented header, suffix separate, small max_tokens', () => {
    const r = fimRequest(ctx, 'gw-coder');
    assert.equal(r.model, 'gw-coder');
    assert.ok(r.prompt.startsWith('# Path: pkg/m.py\n# Compare this snippet from pkg/n.py:\n# def g(y):'));
    assert.ok(r.prompt.endsWith('\ndef f(x):\n    '));
    assert.equal(r.suffix, ctx.suffix);
    assert.equal(r.max_tokens, MAX_TOKENS.block);
    assert.deepEqual(fimRequest({ ...ctx, multiline: false }, 'm').stop, ['\n']);
  });
  void it('chat: the file with the hole, the snippets, and a valid request', () => {
    const r = chatInfillRequest({ ...ctx, multiline: false }, 'gw-chat');
    validateChatRequest(r);
    const user = r.messages[1]!.content as string;
    assert.ok(user.includes(`def f(x):\n    ${HOLE}\n\nprint(f(2))`));
    assert.ok(user.includes('Related code from pkg/n.py'));
    assert.ok(user.includes('the rest of the current line only'));
    assert.equal(r.max_tokens, MAX_TOKENS.line);
  });
  void it('line comments per language', () => {
    assert.equal(lineComment('typescript', 'x'), '// x');
    assert.equal(lineComment('sql', 'x'), '-- x');
    assert.equal(lineComment('html', 'a -- b'), '<!-- a - - b -->');
  });
});
