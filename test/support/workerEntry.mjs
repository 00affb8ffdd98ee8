// A worker thread's entry for inWorker() (inWorker.ts): registers tsx in this thread, as
// `--import tsx` does (the test process may run without it, transpiled by
// scripts/compileTests.mjs, so nothing is inherited): its CommonJS hooks for the modules (the
// package is CommonJS) and its ESM hooks for their lazy import()s. Then it requires the
// TypeScript module, calls the named export with the arguments, and posts back what it returns.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import { register as registerCjs } from 'tsx/cjs/api';
import { register as registerEsm } from 'tsx/esm/api';

registerCjs();
registerEsm();
const { module, fn, args } = workerData;
const mod = createRequire(import.meta.url)(fileURLToPath(module));
const run = mod[fn];
if (typeof run !== 'function') throw new Error(`${module} has no export ${fn}`);
parentPort.postMessage(await run(args));
