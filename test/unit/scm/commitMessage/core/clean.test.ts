// The commit message in a model's answer (src/scm/commitMessage/core/clean.ts). The answers are
// the shapes real models give when asked for "the message only": a preamble, a fence, quotes,
// a closing note, a reasoning block; and the same answers as they stream.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CommitMessageStream, cleanCommitMessage } from '../../../../../src/scm/commitMessage/core/clean';

const MESSAGE = 'feat(api): retry idle streams once\n\nThe relay drops idle streams after 60 s.';

const ANSWERS: Record<string, string> = {
  bare: MESSAGE,
  'preamble and fence': `Here is a commit message for these changes:\n\n\`\`\`\n${MESSAGE}\n\`\`\``,
  'fence with an info string and a closing note': `\`\`\`git\n${MESSAGE}\n\`\`\`\n\nThis message follows the Conventional Commits format.`,
  'chatty start': `Sure! Here's a concise commit message:\n\n${MESSAGE}`,
  'bold label': `**Commit message:**\n\n${MESSAGE}`,
  'inline label': `Commit message: ${MESSAGE}`,
  'double quotes': `"${MESSAGE}"`,
  'reasoning block': `<think>The diff adds a retry. Conventional style.</think>\n\n${MESSAGE}`,
  'trailing note': `${MESSAGE}\n\nLet me know if you want a shorter subject.`,
  'bold subject': `**feat(api): retry idle streams once**\n\nThe relay drops idle streams after 60 s.`,
  'CRLF line ends': MESSAGE.replace(/\n/g, '\r\n'),
};

for (const [name, answer] of Object.entries(ANSWERS)) {
  void test(`an answer with ${name} gives the message alone`, () => {
    assert.equal(cleanCommitMessage(answer), MESSAGE);
  });

  void test(`streamed in small pieces, an answer with ${name} never shows its wrapping`, () => {
    const s = new CommitMessageStream();
    const shown: string[] = [];
    for (let i = 0; i < answer.length; i += 3) {
      const next = s.push(answer.slice(i, i + 3));
      if (next !== undefined) shown.push(next);
    }
    assert.equal(s.finish(), MESSAGE);
    for (const text of shown) {
      assert.doesNotMatch(
        text,
        /```|Here is|Here's|Sure|Commit message|<think|\*\*|^"/,
        `shown: ${JSON.stringify(text)}`,
      );
    }
    assert.ok(shown.length > 1, 'the message appears while it streams, not only at the end');
  });
}

void test('a message whose body has a code block keeps it', () => {
  const answer = 'docs: show the config\n\n```json\n{ "a": 1 }\n```';
  assert.equal(cleanCommitMessage(answer), answer);
});

void test('an answer that is only wrapping gives an empty message', () => {
  assert.equal(cleanCommitMessage('Here is a commit message:\n\n```\n```'), '');
  assert.equal(cleanCommitMessage(''), '');
  assert.equal(cleanCommitMessage('<think>still thinking'), '');
});

void test('a subject that merely starts like a preamble word is kept', () => {
  assert.equal(
    cleanCommitMessage('Okay button no longer closes the dialog'),
    'Okay button no longer closes the dialog',
  );
  assert.equal(cleanCommitMessage('Here: fix the map'), 'Here: fix the map');
  const withBody = 'Okay button closes the dialog again\n\nIt lost its handler in the refactor.';
  assert.equal(cleanCommitMessage(withBody), withBody);
});

void test('the final answer given whole replaces a stream that missed pieces', () => {
  const s = new CommitMessageStream();
  s.push('fix: a');
  assert.equal(s.finish('fix: a typo in the README'), 'fix: a typo in the README');
});
