// The completion settings as read from hand-edited values, the per-language switch and the way a
// model is asked.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  askWay,
  completionModel,
  completionSettingsFrom,
  completionSettingsFromLayers,
  languageEnabled,
  offByWorkspace,
  userText,
} from '../../../../../src/completion/inline/core/settings';

const from = (values: Record<string, unknown>) => completionSettingsFrom((k) => values[k]);
type Layers = {
  globalValue?: unknown;
  remoteValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
};
const layered = (values: Record<string, Layers>) => completionSettingsFromLayers((k) => values[k]);

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

  void describe('what a workspace may set (a cloned repository is not trusted to spend)', () => {
    void it('it may turn completion off, not on', () => {
      assert.equal(layered({ 'completions.enabled': { globalValue: true, workspaceValue: false } }).enabled, false);
      assert.equal(layered({ 'completions.enabled': { workspaceFolderValue: false } }).enabled, false);
      assert.equal(layered({ 'completions.enabled': { globalValue: false, workspaceValue: true } }).enabled, false);
      assert.equal(offByWorkspace({ globalValue: true, workspaceValue: false }), true);
      assert.equal(offByWorkspace({ globalValue: false }), false);
    });
    void it('it may turn languages off, not on', () => {
      const s = layered({
        'completions.languages': {
          globalValue: { '*': true, python: false },
          workspaceValue: { python: true, markdown: true, '*': false, go: true },
          workspaceFolderValue: { rust: false },
        },
      });
      assert.equal(languageEnabled(s, 'python'), false);
      assert.equal(languageEnabled(s, 'markdown'), false);
      assert.equal(languageEnabled(s, 'typescript'), false, 'its "*": false narrows');
      assert.equal(languageEnabled(s, 'go'), false, 'its true for go is ignored once "*" is off');
      assert.equal(languageEnabled(s, 'rust'), false);
      assert.equal(languageEnabled(layered({}), 'typescript'), true);
    });
    void it('it may lengthen the debounce, not shorten it (0 would be a request per keystroke)', () => {
      assert.equal(layered({ 'completions.debounceMs': { workspaceValue: 0 } }).debounceMs, 250);
      assert.equal(layered({ 'completions.debounceMs': { globalValue: 100, workspaceValue: 10 } }).debounceMs, 100);
      assert.equal(layered({ 'completions.debounceMs': { globalValue: 100, workspaceValue: 600 } }).debounceMs, 600);
      assert.equal(layered({ 'completions.debounceMs': { workspaceValue: 'junk' } }).debounceMs, 250);
      assert.equal(layered({ 'completions.debounceMs': { globalValue: 0 } }).debounceMs, 0, 'the user may');
    });
    void it('it may lower the size limit, not raise it', () => {
      assert.equal(layered({ 'completions.maxFileKilobytes': { workspaceValue: 100_000 } }).maxFileKilobytes, 1024);
      assert.equal(layered({ 'completions.maxFileKilobytes': { workspaceValue: 64 } }).maxFileKilobytes, 64);
    });
    void it('it does not choose the model: only the user value of completions.model and chatModel count', () => {
      const s = layered({ 'completions.model': { workspaceValue: 'gw-very-expensive' } });
      assert.equal(s.model, '');
      assert.equal(completionModel(s, userText({ globalValue: 'gw-chat', workspaceValue: 'gw-pricey' })), 'gw-chat');
      assert.equal(
        layered({ 'completions.model': { globalValue: ' gw-coder ', workspaceValue: 'x' } }).model,
        'gw-coder',
      );
      assert.equal(userText({ workspaceFolderValue: 'gw-pricey' }), '');
    });

    void it("a dev container's settings (the remote machine's layer) may only narrow it too", () => {
      const s = layered({
        'completions.enabled': { globalValue: false, remoteValue: true },
        'completions.debounceMs': { remoteValue: 0 },
        'completions.maxFileKilobytes': { remoteValue: 100_000 },
        'completions.model': { remoteValue: 'gw-very-expensive' },
      });
      assert.equal(s.enabled, false);
      assert.equal(s.debounceMs, 250);
      assert.equal(s.maxFileKilobytes, 1024);
      assert.equal(s.model, '');
      assert.equal(layered({ 'completions.enabled': { remoteValue: false } }).enabled, false);
      assert.equal(offByWorkspace({ remoteValue: false }), true);
      assert.equal(userText({ remoteValue: 'gw-pricey' }), '');
    });
  });
});
