import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readModelCalls } from '../../../../src/api/models/modelCall';

void test('protocol, effort, sampling and extraBody are read per model', () => {
  const c = readModelCalls({
    'gpt-5': {
      protocol: 'responses',
      reasoningEffort: 'high',
      temperature: 1,
      maxTokens: 800,
      extraBody: { verbosity: 'low' },
    },
    other: { contextWindow: 1000 },
  });
  assert.deepEqual(c.byId['gpt-5'], {
    protocol: 'responses',
    reasoningEffort: 'high',
    sampling: { temperature: 1, max_tokens: 800 },
    extraBody: { verbosity: 'low' },
  });
  assert.deepEqual(c.byId.other, {});
  assert.deepEqual(c.problems, []);
});

void test('extraBody that is not an object is refused, naming the setting, and the entry cannot be used', () => {
  for (const bad of ['temperature: 0', 3, ['a'], null]) {
    const c = readModelCalls({ m: { extraBody: bad } });
    assert.match(c.byId.m!.problem ?? '', /gatewayStudio\.models\.overrides\["m"\]\.extraBody must be an object/);
    assert.equal(c.problems.length, 1);
  }
});

void test('extraBody may not rewrite the conversation, its tools, the model or where it is kept', () => {
  const c = readModelCalls({ m: { extraBody: { model: 'pricier', store: true } } });
  assert.match(c.byId.m!.problem ?? '', /may not set model, store/);
  assert.equal(c.byId.m!.extraBody, undefined);
});

void test('wrong values are named and left out', () => {
  const c = readModelCalls({ m: { protocol: 'grpc', reasoningEffort: 'max', temperature: 5 } });
  assert.deepEqual(c.byId.m, {});
  assert.equal(c.problems.length, 3);
  assert.match(c.problems.join('\n'), /protocol must be "chat" or "responses"/);
});

void test('variants inherit their model and override it; the wire model is the listed id', () => {
  const c = readModelCalls({
    'gpt-5': {
      extraBody: { a: { x: 1 }, keep: true },
      temperature: 1,
      variants: {
        thinking: { reasoningEffort: 'high', extraBody: { a: { y: 2 } } },
        fast: { reasoningEffort: 'minimal', extraBody: { keep: null } },
      },
    },
  });
  assert.deepEqual(c.variants['gpt-5'], ['gpt-5#thinking', 'gpt-5#fast']);
  assert.deepEqual(c.byId['gpt-5#thinking']!.extraBody, { a: { x: 1, y: 2 }, keep: true });
  assert.equal(c.byId['gpt-5#thinking']!.wireModel, 'gpt-5');
  assert.deepEqual(c.byId['gpt-5#thinking']!.sampling, { temperature: 1 });
  assert.deepEqual(c.byId['gpt-5#fast']!.extraBody, { a: { x: 1 } });
  assert.equal(c.byId['gpt-5#fast']!.reasoningEffort, 'minimal');
});

void test('webSearch is read per model (and per variant); anything but a boolean is a problem', () => {
  const c = readModelCalls({
    m: { webSearch: true, variants: { off: { webSearch: false } } },
    bad: { webSearch: 'yes' },
  });
  assert.equal(c.byId.m?.webSearch, true);
  assert.equal(c.byId['m#off']?.webSearch, false);
  assert.equal(c.byId.bad?.webSearch, undefined);
  assert.match(c.problems[0] ?? '', /\["bad"\]\.webSearch must be true or false; it is "yes"/);
});
