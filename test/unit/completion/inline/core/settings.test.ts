// The completion settings as read from hand-edited values, the per-language switch and the way a
// model is asked.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  askWay,
  completionModel,
  completionSettingsFrom,
  languageEnabled,
} from '../../../../../src/completion/inline/core/settings';

const from = (values: Record<string, unknown>) => completionSettingsFrom((k) => values[k]);

void describe('completion settings', () => {
  void it('defaults: on, 250 ms debounce, 1 MB files, prose languages off', () => {
    const s = from({});
    assert.equal(s.enabled, true);
    assert.equal(s.debounceMs, 250);
    assert.equal(s.maxFileKilobytes, 1024);
    assert.equal(languageEnabled(s, 'typescript'), true);
    assert.equal(languageEnabled(s, 'markdown'), false);
  });
  void it('a per-language switch wins over "*", bad values are ignored', () => {
    const s = from({ 'completions.languages': { '*': false, python: true, go: 'yes' } });
    assert.equal(languageEnabled(s, 'python'), true);
    assert.equal(languageEnabled(s, 'typescript'), false);
    assert.equal(languageEnabled(s, 'go'), false);
  });
  void it('numbers out of range are clamped, non-numbers fall back', () => {
    assert.equal(from({ 'completions.debounceMs': -5 }).debounceMs, 0);
    assert.equal(from({ 'completions.debounceMs': 'abc' }).debounceMs, 250);
    assert.equal(from({ 'completions.debounceMs': '120' }).debounceMs, 120);
  });
  void it('the completion model falls back to the chat model', () => {
    assert.equal(completionModel(from({ 'completions.model': ' ' }), 'gw-chat'), 'gw-chat');
    assert.equal(completionModel(from({ 'completions.model': 'gw-coder' }), 'gw-chat'), 'gw-coder');
  });
  void it('fill-in-the-middle only for models the overrides mark so', () => {
    assert.equal(askWay('gw-coder', { 'gw-coder': { completion: 'fim' } }), 'fim');
    assert.equal(askWay('gw-chat', { 'gw-coder': { completion: 'fim' } }), 'chat');
  });
});
