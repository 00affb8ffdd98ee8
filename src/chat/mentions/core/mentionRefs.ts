/**
 * Which file references of the chat page the host will read. The page is not trusted with file
 * names: a message from it (or from a page compromised by a crafted answer) could name any path.
 * The host reads only references it issued itself (the picker's rows, the chips of a drop or of
 * Add File to Chat), and remembers how each came about: `listed` ones (found in the workspace)
 * must still be inside it when read, `user` ones (a file the user chose or confirmed outside the
 * workspace) may be elsewhere. UNC paths are never read: opening one sends the user's Windows
 * credentials to the server it names.
 */

export type RefOrigin = 'listed' | 'user';

/** The references issued to one chat's pages, most recent last; bounded so a long session cannot grow it forever. */
export class IssuedRefs {
  private readonly refs = new Map<string, RefOrigin>();

  constructor(private readonly max = 20_000) {}

  issue(ref: string, origin: RefOrigin): void {
    if (ref === '') return;
    // A reference once confirmed by the user stays so when the picker lists it again.
    const kept = this.refs.get(ref) === 'user' ? 'user' : origin;
    this.refs.delete(ref);
    this.refs.set(ref, kept);
    while (this.refs.size > this.max) {
      const oldest = this.refs.keys().next().value;
      if (oldest === undefined) break;
      this.refs.delete(oldest);
    }
  }

  /** How the reference was issued, or undefined when the host never issued it. */
  origin(ref: string): RefOrigin | undefined {
    return this.refs.get(ref);
  }
}

/**
 * A UNC path (`\\server\share`, `//server/share`, `\\?\UNC\server\share`) or a `file:` URI with a
 * host (`file://server/share`): reading it reaches another machine.
 */
export function isUncReference(ref: string, fsPath?: string): boolean {
  if (/^file:\/\/[^/]/i.test(ref) && !/^file:\/\/localhost\//i.test(ref)) return true;
  const p = fsPath ?? ref;
  return /^[\\/]{2}/.test(p);
}
