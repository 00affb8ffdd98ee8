/**
 * Masks credentials in free text: `Authorization: Bearer …` headers, bare `Bearer …` tokens and
 * `sk-…`-style keys. Used by the logger and by every error message that quotes a server body,
 * because servers sometimes echo the header back.
 */
export function redact(text: string, secrets: readonly string[] = []): string {
  let out = text
    .replace(
      /(authorization["']?\s*[:=]\s*["']?)(bearer\s+)?[^\s"',}]+/gi,
      (_m, a: string, b: string | undefined) => `${a}${b ?? ''}***`,
    )
    .replace(/\bbearer\s+[A-Za-z0-9._~+/=-]{4,}/gi, 'Bearer ***')
    .replace(/\bsk-[A-Za-z0-9_-]{8,}/g, 'sk-***');
  for (const s of secrets) {
    if (s && s.length >= 4) out = out.split(s).join('***');
  }
  return out;
}
