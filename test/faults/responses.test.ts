// Randomised differential Responses API streams: ≥ 10,000 generated streams per run (--quick or
// GWS_FAULTS_QUICK=1: 1,000) through GatewayClient.streamChat on a model set to `responses`, each
// compared with the plain model of responsesModel.ts. The seed is printed; GWS_FAULTS_SEED replays.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inWorker } from '../support/inWorker';
import type { ResponsesReport } from './responsesRun';

const quick = process.argv.includes('--quick') || process.env.GWS_FAULTS_QUICK === '1';
const COUNT = Number(process.env.GWS_FAULTS_STREAMS ?? (quick ? 1_000 : 10_000));
const SEED = Number(process.env.GWS_FAULTS_SEED ?? Math.floor(Math.random() * 2 ** 31));

void describe('randomised differential Responses streams', () => {
  void it(`${COUNT} generated Responses streams: the client's answer equals the model (seed ${SEED})`, async () => {
    process.stdout.write(`faults: ${COUNT} responses streams, seed ${SEED} (replay: GWS_FAULTS_SEED=${SEED})\n`);
    // The loop (responsesRun.ts) runs off this thread: see inWorker.ts for why.
    const r = await inWorker<ResponsesReport>(new URL('./responsesRun.ts', import.meta.url), 'runResponses', {
      count: COUNT,
      seed: SEED,
    });
    process.stdout.write(
      `faults: ${COUNT} responses streams in ${r.secs.toFixed(1)} s; ${r.truncated} truncated, ${r.withCalls} with calls, ${r.tagged} with <think>; ${r.mismatches.length} mismatches\n`,
    );
    assert.deepEqual(r.mismatches, []);
    assert.ok(r.truncated > 0 && r.withCalls > 0 && r.tagged > 0, 'the corpus covers truncation, calls and think tags');
  });
});
