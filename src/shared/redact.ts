/**
 * Masks credentials in free text: `Authorization: Bearer …` headers, bare `Bearer …` tokens and
 * `sk-…`-style keys. Used by the logger and by every error message that quotes a server body,
 * because servers sometimes echo the header back.
 */
/**
 * The keys this process sends, masked in every `redact` call even where the caller does not know
 * them: an error built from a stream event or a video failure reason may quote a key that is not
 * `sk-`-shaped. Only the client that sends a key adds it.
 */
const known = new Set<string>();

export function rememberSecret(secret: string | undefined): void {
  if (secret && secret.length >= 4) known.add(secret);
}

export function redact(text: string, secrets: readonly string[] = []): string {
  let out = text
    .replace(
      /(authorization["']?\s*[:=]\s*["']?)(bearer\s+)?[^\s"',}]+/gi,
      (_m, a: string, b: string | undefined) => `${a}${b ?? ''}***`,
    )
    .replace(/\bbearer\s+[A-Za-z0-9._~+/=-]{4,}/gi, 'Bearer ***')
    .replace(/\bsk-[A-Za-z0-9_-]{8,}/g, 'sk-***');
  for (const s of [...secrets, ...known]) {
    if (s && s.length >= 4) out = out.split(s).join('***');
  }
  return out;
}
