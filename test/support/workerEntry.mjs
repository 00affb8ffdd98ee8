// A worker thread's entry for inWorker() (inWorker.ts): registers tsx in this thread (a worker
// does not inherit the parent's --import hooks), calls the named export of the TypeScript module
// with the arguments, and posts back what it returns.
import { parentPort, workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { module, fn, args } = workerData;
const mod = await import(module);
// The package is CommonJS: tsx gives a TypeScript module's exports as the namespace's default.
const run = mod[fn] ?? mod.default?.[fn];
if (typeof run !== 'function') throw new Error(`${module} has no export ${fn}`);
parentPort.postMessage(await run(args));
