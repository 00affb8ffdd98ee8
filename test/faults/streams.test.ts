// Randomised differential streams: ≥ 10,000 generated chat streams per run (GWS_FAULTS_QUICK=1 or
// --quick: 1,000) through GatewayClient.streamChat, each compared with the spec's model
// (streamModel.ts) and, where the openai package is right (canonical ids and indexes, no
// reasoning), with its ChatCompletionStream on the same bytes. The seed is printed; set
// GWS_FAULTS_SEED to replay a run. A mismatch is shrunk (framing, pieces, chunks) and the smallest
// failing stream is printed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inWorker } from '../support/inWorker';
import type { StreamsReport } from './streamsRun';

const quick = process.argv.includes('--quick') || process.env.GWS_FAULTS_QUICK === '1';
const COUNT = Number(process.env.GWS_FAULTS_STREAMS ?? (quick ? 1_000 : 10_000));
const SEED = Number(process.env.GWS_FAULTS_SEED ?? Math.floor(Math.random() * 2 ** 31));

void describe('randomised differential streams', () => {
  void it(`${COUNT} generated streams: the client's answer equals the spec's model (seed ${SEED})`, async () => {
    process.stdout.write(`faults: ${COUNT} streams, seed ${SEED} (replay: GWS_FAULTS_SEED=${SEED})\n`);
    // The loop (streamsRun.ts) runs off this thread: see inWorker.ts for why.
    const r = await inWorker<StreamsReport>(new URL('./streamsRun.ts', import.meta.url), 'runStreams', {
      count: COUNT,
      seed: SEED,
    });
    process.stdout.write(
      `faults: ${COUNT} streams in ${r.secs.toFixed(1)} s; ${r.truncated} truncated; ${r.openaiCompared} also compared with openai; ${r.mismatches} mismatches\n`,
    );
    if (r.failure) assert.fail(r.failure);
    assert.ok(r.openaiCompared > COUNT / 10, `openai was compared on ${r.openaiCompared} streams only`);
    assert.ok(r.truncated > 0, 'the corpus includes truncated streams');
  });
});
