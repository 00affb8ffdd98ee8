// The local gateway as the host stage uses it: started in the runner's process, reached from the
// extension host and the browser over HTTP.
import { SECOND_GATEWAY } from '../gateway/keys';
import { startGateway, type Gateway, type GatewayOptions } from '../gateway/server';
import { onCleanup } from './cleanup';

/** The local gateway (test/gateway/server.ts), with the second instance the profile tests use. */
export type HostGateway = Gateway & { second: Gateway };

/** Starts the local gateway and its second instance on 127.0.0.1; both are closed at cleanup. */
export async function startHostGateway(opts: GatewayOptions = {}): Promise<HostGateway> {
  const gw = await startGateway(opts);
  onCleanup('local gateway', () => gw.close());
  const second = await startGateway({ ...opts, ...SECOND_GATEWAY });
  onCleanup('second local gateway', () => second.close());
  return Object.assign(gw, { second });
}

/**
 * The variables the extension host gets (`extensionEnvironment`): the URLs. Not the keys: the
 * payload is part of the workbench URL, which code-server stores in its user data (coder.json),
 * where the host stage's key scan would rightly find them; the suite imports them instead.
 */
export function gatewayEnvironment(gw: HostGateway): Record<string, string> {
  return {
    GWS_GATEWAY_URL: gw.url,
    GWS_GATEWAY_VIDEO_URL: gw.videoUrl,
    GWS_GATEWAY2_URL: gw.second.url,
    GWS_GATEWAY2_VIDEO_URL: gw.second.videoUrl,
  };
}
