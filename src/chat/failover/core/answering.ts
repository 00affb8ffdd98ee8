/**
 * Which gateway and profile a chat backend's requests are billed to: a failover backend's last
 * target (before its first request, the conversation's own profile, which it asks first), a plain
 * client's base URL. The answer's price and the spend caps' quote before each request both ask
 * this, so a cap is checked against the account that will be charged.
 */
import { GatewayClient } from '../../../api/client';
import { FailoverBackend } from './failoverBackend';

export function answering(b: unknown): { gateway: string; profile?: string } {
  if (b instanceof FailoverBackend) return { gateway: b.answered.relay, profile: b.answered.profileId };
  return { gateway: b instanceof GatewayClient ? b.http.baseUrl : '' };
}
