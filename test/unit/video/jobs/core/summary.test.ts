import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  statusBarModel,
  stateLabel,
  formatElapsed,
  canResume,
  taskTooltip,
} from '../../../../../src/video/jobs/core/summary';
import type { VideoTaskRecord } from '../../../../../src/video/jobs/core/record';

const T0 = 1_700_000_000_000;

function rec(p: Partial<VideoTaskRecord> & { prompt?: string }): VideoTaskRecord {
  const { prompt, ...rest } = p;
  return {
    v: 1,
    key: Math.random().toString(36).slice(2),
    state: 'polling',
    request: { model: 'vendor-image-video', prompt: prompt ?? 'a red fox running through snow at dawn', images: [] },
    warnings: [],
    polls: 0,
    transientErrors: 0,
    createdAt: T0,
    updatedAt: T0,
    ...rest,
  };
}

void describe('status-bar texts per state', () => {
  void it('no tasks: hidden', () => {
    assert.equal(statusBarModel([], T0).visible, false);
  });

  void it('one task polling: spinner, short prompt, percent', () => {
    const m = statusBarModel([rec({ progress: 35, status: 'in_progress', videoId: 'video_svc_v1_abc' })], T0 + 65_000);
    assert.equal(m.text, '$(sync~spin) a red fox running throu… · 35%');
    assert.equal(m.mood, 'spinning');
    assert.match(m.tooltip, /Model: vendor-image-video/);
    assert.match(m.tooltip, /Id: video_svc_v1_abc/);
    assert.match(m.tooltip, /Status: in_progress 35%/);
    assert.match(m.tooltip, /Elapsed: 1m 05s/);
  });

  void it('creating and downloading say sending and saving', () => {
    assert.equal(statusBarModel([rec({ state: 'creating', prompt: 'cat' })], T0).text, '$(sync~spin) cat · sending');
    assert.equal(statusBarModel([rec({ state: 'downloading', prompt: 'cat' })], T0).text, '$(sync~spin) cat · saving');
  });

  void it('several active tasks are summarised as "2 videos · 35%" (mean progress)', () => {
    const m = statusBarModel([rec({ progress: 20 }), rec({ progress: 50 }), rec({ state: 'saved' })], T0);
    assert.equal(m.text, '$(sync~spin) 2 videos · 35%');
  });

  void it('a timed-out task shows check later', () => {
    const m = statusBarModel([rec({ state: 'timed_out', videoId: 'video_svc_v1_x' })], T0);
    assert.equal(m.text, '$(clock) 1 video · check later');
    assert.match(m.tooltip, /still running — check later/);
  });

  void it('the latest end shows saved or failed', () => {
    assert.equal(statusBarModel([rec({ state: 'saved' })], T0).text, '$(check) Video saved');
    const failed = statusBarModel(
      [rec({ state: 'failed', outcome: 'expired', createdAt: T0 + 1 }), rec({ state: 'saved' })],
      T0,
    );
    assert.equal(failed.text, '$(error) Video failed');
    assert.equal(failed.mood, 'failed');
  });

  void it('state labels name cancelled, expired and the error title', () => {
    assert.equal(stateLabel(rec({ state: 'failed', outcome: 'cancelled' })), 'cancelled');
    assert.equal(
      stateLabel(rec({ state: 'error', error: { kind: 'not_found', title: 'Not found (404)', detail: '' } })),
      'Not found (404)',
    );
  });

  void it('a finished task stops its elapsed clock', () => {
    assert.match(taskTooltip(rec({ state: 'saved', finishedAt: T0 + 3000 }), T0 + 999_000), /Elapsed: 3s/);
    assert.equal(formatElapsed(3_723_000), '1h 02m');
  });

  void it('resume is offered only with an id and an unfinished task', () => {
    assert.equal(canResume(rec({ state: 'timed_out', videoId: 'v' })), true);
    assert.equal(canResume(rec({ state: 'timed_out' })), false);
    assert.equal(canResume(rec({ state: 'saved', videoId: 'v' })), false);
  });
});
