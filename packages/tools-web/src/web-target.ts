import { isIP } from 'node:net';
import { checkTargetUrl, classifyAddress, type ResolvedAddress } from '@oneclaw/js-tools';

/**
 * Where the web tools may go: the tools' fetch policy (SafeFetch's ResolvedFetchPolicy fits), so the
 * browser follows the same rules as webfetch and the JS fetch bridge.
 */
export interface WebPolicy {
  readonly allowPrivateNetwork: boolean;
  readonly allowedHosts?: readonly string[] | undefined;
  /** The operator's outbound proxy: it resolves names itself, so names are not resolved here. */
  readonly proxyUrl?: string | undefined;
  readonly caCertificates?: readonly string[];
  readonly resolve: (hostname: string) => Promise<readonly ResolvedAddress[]>;
}

export type TargetVerdict =
  | {
      readonly allowed: true;
      /** Lower-case, no IPv6 brackets. */
      readonly host: string;
      /** The checked addresses a connection must use (pinned); undefined when going through the operator's proxy. */
      readonly addresses: readonly ResolvedAddress[] | undefined;
    }
  | {
      readonly allowed: false;
      readonly code: 'forbidden_url' | 'invalid_url' | 'unresolvable';
      /** What is wrong and what to do; names the origin, never the path or query. */
      readonly reason: string;
    };

/**
 * The js-tools address policy applied to one URL, DNS included, as SafeFetch applies it: scheme,
 * literal and local host names, the allow-list, then every address the name resolves to must be
 * public (unless private networks are allowed). The addresses returned are the ones to connect to,
 * so a second lookup cannot swap the target (DNS rebinding).
 */
export async function checkWebTarget(url: URL, policy: WebPolicy): Promise<TargetVerdict> {
  const verdict = checkTargetUrl(url, { allowPrivateNetwork: policy.allowPrivateNetwork, allowedHosts: policy.allowedHosts });
  if (!verdict.allowed) {
    return { allowed: false, code: verdict.code === 'invalid_request' ? 'invalid_url' : 'forbidden_url', reason: verdict.reason };
  }
  const host = verdict.host;
  const family = isIP(host);
  if (family !== 0) return { allowed: true, host, addresses: [{ address: host, family: family === 6 ? 6 : 4 }] };
  if (policy.proxyUrl !== undefined) return { allowed: true, host, addresses: undefined };
  let answers: readonly ResolvedAddress[];
  try {
    answers = await policy.resolve(host);
  } catch (error) {
    return { allowed: false, code: 'unresolvable', reason: `The host name ${host} could not be resolved (${messageOf(error)}); check the spelling of the URL.` };
  }
  if (answers.length === 0) return { allowed: false, code: 'unresolvable', reason: `The host name ${host} has no addresses; check the URL.` };
  if (!policy.allowPrivateNetwork) {
    for (const answer of answers) {
      const cls = classifyAddress(answer.address);
      if (!cls.isPublic) {
        return {
          allowed: false,
          code: 'forbidden_url',
          reason:
            `${host} resolves to ${answer.address}, a non-public address (${cls.range}); tools may only reach public internet hosts. ` +
            'Use a public URL (an operator can set ONECLAW_TOOLS_ALLOW_PRIVATE_NETWORK=true for the local network).',
        };
      }
    }
  }
  return { allowed: true, host, addresses: answers };
}

/** One lookup per host name for the life of the returned resolver (one browser call): fast, and a page cannot rebind mid-call. */
export function memoizedResolver(resolve: WebPolicy['resolve']): WebPolicy['resolve'] {
  const answers = new Map<string, Promise<readonly ResolvedAddress[]>>();
  return (hostname) => {
    let pending = answers.get(hostname);
    if (!pending) {
      pending = resolve(hostname);
      answers.set(hostname, pending);
    }
    return pending;
  };
}

function messageOf(error: unknown): string {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (typeof e?.code === 'string') return e.code;
  return typeof e?.message === 'string' ? e.message : String(error);
}
