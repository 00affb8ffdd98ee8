// The local gateway as the host stage uses it: started in the runner's process, reached from the
// extension host and the browser over HTTP.
import { startGateway, type Gateway, type GatewayOptions } from '../gateway/server';
import { onCleanup } from './cleanup';

/** The local gateway (test/gateway/server.ts). */
export type HostGateway = Gateway;

/** Starts the local gateway on 127.0.0.1; it is closed at cleanup. */
export async function startHostGateway(opts: GatewayOptions = {}): Promise<HostGateway> {
  const gw = await startGateway(opts);
  onCleanup('local gateway', () => gw.close());
  return gw;
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
  };
}
