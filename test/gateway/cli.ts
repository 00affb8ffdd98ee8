/**
 * `npm run gateway`: the local gateway for demos and manual testing, with video timing slow
 * enough to watch. Flags: --port N, --video-port N, --step-ms N, --steps N, --chunk-delay-ms N,
 * --second (the second instance for gateway profiles: its own keys, model and required header).
 */
import { SECOND_GATEWAY } from './keys';
import { startGateway } from './server';

function parseFlags(argv: string[]): Record<string, number> {
  const known = new Set(['port', 'video-port', 'step-ms', 'steps', 'chunk-delay-ms']);
  const out: Record<string, number> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--second') {
      out.second = 1;
      continue;
    }
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (!m || !known.has(m[1]!)) {
      throw new Error(`unknown argument "${arg}"; flags: ${[...known].map((k) => `--${k} N`).join(', ')}, --second`);
    }
    const value = m[2] ?? argv[++i];
    const n = Number(value);
    if (value === undefined || value === '' || !Number.isInteger(n) || n < 0) {
      throw new Error(
        `--${m[1]} needs a non-negative integer (got ${value === undefined ? 'nothing' : JSON.stringify(value)})`,
      );
    }
    out[m[1]!] = n;
  }
  return out;
}

async function main(): Promise<void> {
  let flags: Record<string, number>;
  try {
    flags = parseFlags(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exitCode = 2;
    return;
  }
  const gw = await startGateway({
    port: flags.port ?? 0,
    videoPort: flags['video-port'] ?? 0,
    videoStepMs: flags['step-ms'] ?? 3000,
    videoSteps: flags.steps ?? 4,
    chatChunkDelayMs: flags['chunk-delay-ms'] ?? 30,
    ...(flags.second ? SECOND_GATEWAY : {}),
  });
  const header = gw.requiredHeader;
  process.stdout.write(
    [
      'Gateway Studio local gateway',
      `  chat base URL:  ${gw.url}/v1`,
      `  video base URL: ${gw.videoUrl}/v1`,
      `  demo API key:   ${gw.keys.valid}`,
      `  403 keys:       ${gw.keys.noPermission} (no permission), ${gw.keys.noBalance} (no balance)`,
      ...(header
        ? [`  required header: ${header.name}: ${header.value} (401 without it, 403 with another value)`]
        : []),
      ...(flags.second ? [`  own model:      ${Object.keys(SECOND_GATEWAY.models).join(', ')}`] : []),
      'Try "#markdown", "#long 500", "#reasoning" with gw-reasoner, or a video prompt with "#fail".',
      'Ctrl+C stops it.',
      '',
    ].join('\n'),
  );
  const stop = (): void => {
    void gw.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

void main();
