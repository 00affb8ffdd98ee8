// The local gateway as the host stage uses it: started in the runner's process, reached from the
// extension host and the browser over HTTP.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { onCleanup } from './cleanup';
import { projectRoot } from './install';

/** The part of test/gateway/server.ts's contract the host stage needs. */
export interface HostGateway {
  url: string;
  videoUrl: string;
  keys: { valid: string; noPermission: string; noBalance: string };
  clearFaults(): void;
  resetCounts(): void;
  close(): Promise<void>;
}

/** Options passed through to `startGateway` (see test/gateway/README.md). */
export interface HostGatewayOptions {
  port?: number;
  videoPort?: number;
  videoSteps?: number;
  videoStepMs?: number;
  chatChunkDelayMs?: number;
}

type StartGateway = (o?: HostGatewayOptions) => Promise<HostGateway>;

/** Starts the local gateway on 127.0.0.1; it is closed at cleanup. */
export async function startHostGateway(opts: HostGatewayOptions = {}): Promise<HostGateway> {
  const file = join(projectRoot, 'test', 'gateway', 'server.ts');
  if (!existsSync(file)) throw new Error(`the local gateway is missing: ${file}`);
  const mod = (await import(file)) as { startGateway?: StartGateway };
  if (typeof mod.startGateway !== 'function') throw new Error(`${file} does not export startGateway`);
  const gw = await mod.startGateway(opts);
  onCleanup('local gateway', () => gw.close());
  return gw;
}

/** The variables the extension host gets (`extensionEnvironment`): URLs and test keys. */
export function gatewayEnvironment(gw: HostGateway): Record<string, string> {
  return {
    GWS_GATEWAY_URL: gw.url,
    GWS_GATEWAY_VIDEO_URL: gw.videoUrl,
    GWS_KEY_VALID: gw.keys.valid,
    GWS_KEY_NO_PERMISSION: gw.keys.noPermission,
    GWS_KEY_NO_BALANCE: gw.keys.noBalance,
  };
}
