// Numeric settings read from a hand-edited settings.json: package.json's ranges are only advice to
// the settings editor, so readSettings() bounds them itself (src/platform/settingValues.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { boundedNumber, settingsFrom } from '../../../src/platform/settingValues';

void test('a poll interval of 0 or below is raised to the minimum, so polling never runs in a tight loop', () => {
  assert.equal(boundedNumber(0, 5, 0.1, 600), 0.1);
  assert.equal(boundedNumber(-3, 5, 0.1, 600), 0.1);
});

void test('values above the maximum are lowered to it', () => {
  assert.equal(boundedNumber(1e9, 2, 0, 10, true), 10);
});

void test('a value that is not a number falls back to the default instead of becoming NaN (an instant timeout)', () => {
  assert.equal(boundedNumber('abc', 60, 1, 600), 60);
  assert.equal(boundedNumber(null, 60, 1, 600), 60);
  assert.equal(boundedNumber(undefined, 60, 1, 600), 60);
  assert.equal(boundedNumber('', 60, 1, 600), 60);
  assert.equal(boundedNumber(Number.NaN, 60, 1, 600), 60);
  assert.equal(boundedNumber({}, 60, 1, 600), 60);
});

void test('a quoted number is read as that number; integer settings are rounded', () => {
  assert.equal(boundedNumber('30', 60, 1, 600), 30);
  assert.equal(boundedNumber(2.6, 2, 0, 10, true), 3);
  assert.equal(boundedNumber(7.5, 5, 0.1, 600), 7.5);
});

void test('a command time limit written as text gets the default of 120 s (not an instant kill), and the log is told', () => {
  const problems: string[] = [];
  const values: Record<string, unknown> = { 'tools.commandTimeoutSeconds': 'two minutes' };
  const s = settingsFrom(
    (key) => values[key],
    (p) => problems.push(p),
  );
  assert.equal(s.tools.commandTimeoutSeconds, 120);
  assert.equal(problems.length, 1);
  assert.match(problems[0] ?? '', /gatewayStudio\.tools\.commandTimeoutSeconds.*"two minutes".*default 120/);
});

void test('settings left unset or holding numbers are read without a problem', () => {
  const problems: string[] = [];
  const values: Record<string, unknown> = { 'tools.commandTimeoutSeconds': '30', 'network.maxRetries': 4 };
  const s = settingsFrom(
    (key) => values[key],
    (p) => problems.push(p),
  );
  assert.equal(s.tools.commandTimeoutSeconds, 30);
  assert.equal(s.network.maxRetries, 4);
  assert.equal(s.network.requestTimeoutSeconds, 60);
  assert.deepEqual(problems, []);
});

void test('the utility model is read as written and is empty by default, which means the chat model', () => {
  const none = settingsFrom(
    () => undefined,
    () => undefined,
  );
  assert.equal(none.utilityModel, '');
  const values: Record<string, unknown> = { utilityModel: 'gw-small', chatModel: 'gw-chat' };
  assert.equal(
    settingsFrom(
      (key) => values[key],
      () => undefined,
    ).utilityModel,
    'gw-small',
  );
});

void test('a chat.systemPrompt that is not text (a hand-edited number or object) is no prompt rather than a crash', () => {
  const read = (v: unknown) =>
    settingsFrom(
      (k) => (k === 'chat.systemPrompt' ? v : undefined),
      () => {},
    ).chat;
  assert.equal(read(42).systemPrompt, '');
  assert.equal(read({ a: 1 }).systemPrompt, '');
  assert.equal(read('Be brief.').systemPrompt, 'Be brief.');
});
