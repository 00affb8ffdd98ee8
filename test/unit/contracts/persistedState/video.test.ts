// The video feature's persisted keys (src/contracts/persistedState/video.ts), among them the
// approved storyboard runs, whose version 1 (bare units) must still read without being lost.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  agentSpentTodayKey,
  clipCostsKey,
  storyboardRunsKey,
  unreadableVideoTasksKey,
  videoTasksKey,
} from '../../../../src/contracts/persistedState/video';
import { decodeState, loadState } from '../../../../src/contracts/persistedState/state';
import { parseApprovedRun } from '../../../../src/video/storyboard/core/approved';

const stored = (value: unknown) => ({ get: () => value, update: () => Promise.resolve() });

void describe('video keys keep the names and stores earlier versions wrote', () => {
  void it('names, stores and versions', () => {
    assert.deepEqual(
      [agentSpentTodayKey, clipCostsKey, videoTasksKey, unreadableVideoTasksKey, storyboardRunsKey].map((k) => [
        k.key,
        k.store,
        k.version,
      ]),
      [
        ['gatewayStudio.spend.agentSpentToday', 'global', 2],
        ['gatewayStudio.video.costs.v1', 'workspace', 1],
        ['gatewayStudio.video.tasks', 'workspace', 1],
        ['gatewayStudio.video.tasks.unreadable', 'workspace', 1],
        ['gatewayStudio.storyboard.runs', 'workspace', 2],
      ],
    );
  });
});

void describe('video keys read what is stored', () => {
  void it("agents' spend is a day and a finite amount in dollars, absent otherwise; version 1's sum reads as dollars", () => {
    assert.deepEqual(loadState(stored({ day: '2026-11-28', usd: 0.5 }), agentSpentTodayKey), {
      day: '2026-11-28',
      usd: 0.5,
    });
    assert.deepEqual(loadState(stored({ day: '2026-11-28', spent: 0.5 }), agentSpentTodayKey), {
      day: '2026-11-28',
      usd: 0.5,
    });
    assert.equal(loadState(stored({ day: '2026-11-28', usd: 'lots' }), agentSpentTodayKey), undefined);
    assert.equal(loadState(stored({ day: '2026-11-28', spent: 'lots' }), agentSpentTodayKey), undefined);
    assert.equal(loadState(stored(3), agentSpentTodayKey), undefined);
  });

  void it('task records are kept as stored, every entry, readable or not (a newer version’s task is billed)', () => {
    const all = { a: { v: 1, key: 'a' }, b: { v: 9, future: true }, c: 'corrupt' };
    const read = loadState(stored(all), videoTasksKey);
    assert.deepEqual(read, all);
    assert.notEqual(read, all, 'a copy: changing it does not change what the store holds');
    assert.deepEqual(loadState(stored([1, 2]), videoTasksKey), {});
  });

  void it('clip costs are a map (their entries are cleaned by video/jobs/core/costs), empty otherwise', () => {
    assert.deepEqual(loadState(stored({ k: { charged: '¥1' } }), clipCostsKey), { k: { charged: '¥1' } });
    assert.deepEqual(loadState(stored('x'), clipCostsKey), {});
  });

  void it('whatever was set aside as unreadable tasks is read as it is', () => {
    assert.deepEqual(decodeState(unreadableVideoTasksKey, ['old', 'list']), ['old', 'list']);
  });
});

void describe('approved storyboard runs', () => {
  const frozen = { shotId: 's1', take: 1, model: 'm', prompt: 'p', images: [] };

  void it('version 2 runs are read per board', () => {
    assert.deepEqual(loadState(stored({ 'a.storyboard.json': [frozen] }), storyboardRunsKey), {
      'a.storyboard.json': [frozen],
    });
    assert.deepEqual(parseApprovedRun(loadState(stored({ b: [frozen] }), storyboardRunsKey).b), [frozen]);
  });

  void it('a version 1 run (bare units) is kept as stored but not resumed: what was approved cannot be shown', () => {
    const runs = loadState(stored({ old: [{ shotId: 's1', take: 1 }], now: [frozen] }), storyboardRunsKey);
    assert.deepEqual(runs.old, [{ shotId: 's1', take: 1 }], 'nothing stored is lost by reading it');
    assert.deepEqual(parseApprovedRun(runs.old), []);
    assert.deepEqual(parseApprovedRun(runs.now), [frozen]);
  });

  void it('a board whose value is not a list is dropped; a value that is not a map reads as no runs', () => {
    assert.deepEqual(loadState(stored({ a: 'x', b: [frozen] }), storyboardRunsKey), { b: [frozen] });
    assert.deepEqual(loadState(stored([frozen]), storyboardRunsKey), {});
  });
});
