import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { carriesKey, headerProblem, readHeaders } from '../../../../src/api/transport/headerRules';

void describe('extra headers (issue 22)', () => {
  void it('refuses Authorization and Content-Type in any case, with the reason', () => {
    for (const name of ['Authorization', 'authorization', 'AUTHORIZATION', 'Content-Type', 'content-TYPE']) {
      const p = headerProblem(name, 'x', 'Profile "Work"');
      assert.ok(p, `${name} must be refused`);
      assert.match(p, /Profile "Work"/);
      assert.match(p, /Gateway Studio sets itself/);
    }
  });

  void it('refuses a bad name, a non-text value and a value with a line break or non-ASCII', () => {
    assert.match(headerProblem('x token', 'a', 'w') ?? '', /not a valid header name/);
    assert.match(headerProblem('x-a', 3, 'w') ?? '', /must be text/);
    assert.match(headerProblem('x-a', 'a\r\nHost: evil', 'w') ?? '', /line break/);
    assert.match(headerProblem('x-a', 'café', 'w') ?? '', /not plain ASCII/);
    assert.equal(headerProblem('X-Relay-Token', 'Bearer ${apiKey}', 'w'), undefined);
  });

  void it('keeps the good headers of a map and names each refused one', () => {
    const r = readHeaders({ 'x-a': '1', Authorization: 'Bearer other', 'x-b': '${apiKey}' }, 'S');
    assert.deepEqual(r.headers, { 'x-a': '1', 'x-b': '${apiKey}' });
    assert.equal(r.problems.length, 1);
    assert.match(r.problems[0]!, /Authorization/);
    assert.equal(readHeaders(['x'], 'S').problems.length, 1, 'a list is not a header map');
    assert.deepEqual(readHeaders(undefined, 'S'), { headers: {}, problems: [] });
  });

  void it('tells a header map that carries the key', () => {
    assert.equal(carriesKey({ a: 'x${apiKey}' }), true);
    assert.equal(carriesKey({ a: 'x' }), false);
  });
});
