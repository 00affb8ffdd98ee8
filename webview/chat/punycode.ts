/**
 * What markdown-it asks of punycode.js, without its 2.3 KB in the chat page's first paint: a link's
 * host to ASCII by the browser's own IDNA (URL), and a link's text left as written. Never turning
 * `xn--` into Unicode in the text also keeps a look-alike domain from passing as the real one.
 * esbuild.js maps `punycode.js` here for the page.
 */
function toASCII(host: string): string {
  try {
    return new URL(`http://${host}/`).hostname;
  } catch {
    return host;
  }
}

function toUnicode(host: string): string {
  return host;
}

export default { toASCII, toUnicode };
