// The failover setting and the order of one request (src/chat/failover/core/failoverPlan.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  failoverSteps,
  hasList,
  MAX_LIST,
  readFailoverLists,
  type PlanProfile,
} from '../../../../../src/chat/failover/core/failoverPlan';

const P = (id: string, problems: string[] = []): PlanProfile => ({ id, name: id.toUpperCase(), problems });
const PROFILES = [P('default'), P('a'), P('b'), P('c'), P('broken', ['Profile "broken": baseUrl is not set.'])];
const time = (ms: number) => new Date(ms).toISOString().slice(11, 19);

void describe('readFailoverLists', () => {
  void it('reads model -> ordered profile ids, trimmed and lower-cased', () => {
    const l = readFailoverLists({ 'gw-chat': [' A ', 'b'], 'gw-vision': ['c'] });
    assert.deepEqual(
      [...l.byModel],
      [
        ['gw-chat', ['a', 'b']],
        ['gw-vision', ['c']],
      ],
    );
    assert.deepEqual(l.problems, []);
  });

  void it('names every bad entry and uses the rest', () => {
    const l = readFailoverLists({ 'gw-chat': ['a', 'a', 3, ''], 'gw-vision': 'b', empty: [] });
    assert.deepEqual([...l.byModel], [['gw-chat', ['a']]]);
    assert.equal(l.problems.length, 4, l.problems.join('\n'));
    assert.ok(l.problems.some((p) => /listed twice/.test(p)));
    assert.ok(l.problems.some((p) => /gw-vision.*must be a list/.test(p)));
  });

  void it('refuses a value that is not a map, and cuts a long list', () => {
    assert.equal(readFailoverLists(['a']).byModel.size, 0);
    assert.match(readFailoverLists('a').problems[0]!, /must map model ids/);
    const long = readFailoverLists({ m: Array.from({ length: 12 }, (_, i) => `p${i}`) });
    assert.equal(long.byModel.get('m')!.length, MAX_LIST);
    assert.equal(readFailoverLists(undefined).problems.length, 0);
  });
});

void describe('failoverSteps', () => {
  const lists = readFailoverLists({ 'gw-chat': ['default', 'ghost', 'broken', 'b', 'a'] });
  const none = () => undefined;

  void it('asks the list in order after the own profile, saying why any entry is skipped', () => {
    const steps = failoverSteps({
      model: 'gw-chat',
      primary: 'default',
      lists,
      profiles: PROFILES,
      coolDown: none,
      timeText: time,
    });
    assert.deepEqual(
      steps.map((s) => ('ask' in s ? `ask ${s.ask.id}` : 'skip')),
      ['skip', 'skip', 'ask b', 'ask a'],
    );
    const lines = steps.flatMap((s) => ('skip' in s ? [s.skip] : []));
    assert.match(lines[0]!, /"ghost", which is no profile/);
    assert.match(lines[1]!, /BROKEN cannot be used: .*baseUrl is not set/);
  });

  void it('the own profile is never asked again from the list, whichever profile the conversation is on', () => {
    const steps = failoverSteps({
      model: 'gw-chat',
      primary: 'b',
      lists,
      profiles: PROFILES,
      coolDown: none,
      timeText: time,
    });
    assert.deepEqual(
      steps.flatMap((s) => ('ask' in s ? [s.ask.id] : [])),
      ['default', 'a'],
    );
  });

  void it('skips a profile in its cool-down, naming until when and what it said', () => {
    const cd = { until: Date.parse('2026-11-28T12:05:30Z'), cause: 'rate_limit', said: 'HTTP 429 slow down' };
    const steps = failoverSteps({
      model: 'gw-chat',
      primary: 'default',
      lists,
      profiles: PROFILES,
      coolDown: (id) => (id === 'b' ? cd : undefined),
      timeText: time,
    });
    assert.deepEqual(
      steps.flatMap((s) => ('ask' in s ? [s.ask.id] : [])),
      ['a'],
    );
    assert.ok(
      steps.some((s) => 'skip' in s && s.skip === 'B is skipped until 12:05:30 (it said: HTTP 429 slow down).'),
    );
  });

  void it('asks profiles that are all cooling down anyway, saying so', () => {
    const cd = { until: 1, cause: 'quota', said: 'no quota' };
    const steps = failoverSteps({
      model: 'gw-chat',
      primary: 'default',
      lists,
      profiles: PROFILES,
      coolDown: (id) => (id === 'a' || id === 'b' ? cd : undefined),
      timeText: time,
    });
    assert.deepEqual(
      steps.flatMap((s) => ('ask' in s ? [s.ask.id] : [])),
      ['b', 'a'],
    );
    assert.ok(steps.some((s) => 'skip' in s && /asked anyway/.test(s.skip)));
  });

  void it('a model without a list has nowhere else to go', () => {
    assert.ok(hasList(lists, 'gw-chat'));
    assert.ok(!hasList(lists, 'gw-vision'));
    assert.deepEqual(
      failoverSteps({
        model: 'gw-vision',
        primary: 'default',
        lists,
        profiles: PROFILES,
        coolDown: none,
        timeText: time,
      }),
      [],
    );
  });
});
