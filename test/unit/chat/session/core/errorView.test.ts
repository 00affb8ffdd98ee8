import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GatewayError } from '../../../../../src/api/transport/errors';
import { errorView } from '../../../../../src/chat/session/core/errorView';
import { RequestProblem } from '../../../../../src/chat/conversation/core/request';

void test('a gateway failure is shown in the shared words, with a copy of the actions the view may change', () => {
  const err = new GatewayError('auth', 'HTTP 401', { status: 401 });
  const view = errorView(err);
  assert.match(view.title, /API key was refused \(401\)/);
  assert.ok(view.actions.includes('setApiKey'), view.actions.join());
  view.actions.push('retry');
  assert.ok(!errorView(err).actions.includes('retry'), 'the shared words were changed through the view');
});

void test('a refused setting names itself and offers what fixes it; no model offers the model picker', () => {
  const noModel = errorView(new RequestProblem('No model is chosen.', 'model'));
  assert.deepEqual(noModel, {
    title: 'No chat model',
    detail: 'No model is chosen.',
    actions: ['selectModel', 'openSettings'],
  });
  const range = errorView(new RequestProblem('temperature must be at most 2', 'temperature'));
  assert.deepEqual(range.actions, ['openSettings']);
  assert.equal(range.title, 'Invalid chat setting');
});

void test('anything else still gets a title and a detail, never an empty box', () => {
  const view = errorView(new Error('socket hang up'));
  assert.ok(view.title.length > 0);
  assert.match(view.detail, /socket hang up/);
});
