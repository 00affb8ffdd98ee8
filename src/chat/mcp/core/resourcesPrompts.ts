/**
 * MCP resources and prompts in the chat, without VS Code: resources (and resource templates) as
 * rows of the @-mention picker, a read resource as the attachment's text and images, prompts as
 * `/server.prompt` commands with their arguments, and a prompt's messages as the question's text.
 */
import { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import type { GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import type { MentionItem, SlashItem } from '../../../shared/protocol';
import type { McpConnection, Prompt } from './connection';

const RESOURCE_REF = 'mcp-resource:';
const TEMPLATE_REF = 'mcp-template:';
/** The protocol's limits of a mention row (label, ref). */
const LABEL_MAX = 500;
const REF_MAX = 4000;

/** A mention's reference to a resource (or a template) of a server. */
export function resourceRef(server: string, uri: string, template = false): string {
  return `${template ? TEMPLATE_REF : RESOURCE_REF}${encodeURIComponent(server)}|${uri}`;
}

export function parseResourceRef(ref: string): { server: string; uri: string; template: boolean } | undefined {
  const template = ref.startsWith(TEMPLATE_REF);
  if (!template && !ref.startsWith(RESOURCE_REF)) return undefined;
  const rest = ref.slice((template ? TEMPLATE_REF : RESOURCE_REF).length);
  const bar = rest.indexOf('|');
  if (bar <= 0) return undefined;
  try {
    return { server: decodeURIComponent(rest.slice(0, bar)), uri: rest.slice(bar + 1), template };
  } catch {
    return undefined;
  }
}

/** The picker's rows: each running server's resources, then its templates (which ask for their arguments). */
export function resourceRows(connections: readonly McpConnection[]): MentionItem[] {
  const rows: MentionItem[] = [];
  const add = (server: string, name: string, uri: string, template: boolean) => {
    const ref = resourceRef(server, uri, template);
    if (ref.length > REF_MAX) return;
    rows.push({
      kind: 'mcpResource',
      label: `${server}: ${name}`.slice(0, LABEL_MAX),
      detail: uri.slice(0, LABEL_MAX),
      ref,
    });
  };
  for (const c of connections) {
    if (c.state !== 'running') continue;
    for (const r of c.resources) add(c.name, r.title ?? r.name, r.uri, false);
    for (const t of c.templates) add(c.name, t.title ?? t.name, t.uriTemplate, true);
  }
  return rows;
}

/** The variables a URI template asks for (none when it does not parse). */
export function templateVariables(uriTemplate: string): string[] {
  try {
    return new UriTemplate(uriTemplate).variableNames;
  } catch {
    return [];
  }
}

export function expandTemplate(uriTemplate: string, values: Record<string, string>): string {
  return new UriTemplate(uriTemplate).expand(values);
}

export interface ResourceImage {
  mime: string;
  base64: string;
  bytes: number;
  uri: string;
}

/** A read resource as text for the model, its images (when the model takes them) and notes on what was not sent. */
export function resourceContents(
  r: ReadResourceResult,
  o: { acceptsImages: boolean | undefined; maxImageBytes: number },
): { text: string; images: ResourceImage[]; notes: string[] } {
  const texts: string[] = [];
  const images: ResourceImage[] = [];
  const notes: string[] = [];
  for (const c of r.contents) {
    if ('text' in c && typeof c.text === 'string') {
      texts.push(r.contents.length > 1 ? `${c.uri}:\n${c.text}` : c.text);
      continue;
    }
    const blob = 'blob' in c && typeof c.blob === 'string' ? c.blob : '';
    const bytes = Math.floor((blob.length * 3) / 4);
    const mime = c.mimeType ?? 'application/octet-stream';
    if (!/^image\/[a-z0-9.+-]+$/i.test(mime) || !/^[A-Za-z0-9+/=]*$/.test(blob)) {
      notes.push(`${c.uri} is binary (${mime}, ${bytes} bytes) and was not sent.`);
    } else if (o.acceptsImages === false) notes.push(`${c.uri} is an image; the model does not take images.`);
    else if (bytes > o.maxImageBytes) notes.push(`${c.uri} is an image of ${bytes} bytes, over the limit; not sent.`);
    else images.push({ mime, base64: blob, bytes, uri: c.uri });
  }
  return { text: texts.join('\n\n'), images, notes };
}

/** `/server.prompt`: both cleaned to what a command name may hold. */
export function promptCommandName(server: string, prompt: string): string {
  const clean = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, '_');
  return `${clean(server)}.${clean(prompt)}`.replace(/^[^A-Za-z0-9]+/, '').slice(0, 64);
}

/** The `/` menu's rows of the running servers' prompts. */
export function promptSlashItems(connections: readonly McpConnection[]): SlashItem[] {
  const items: SlashItem[] = [];
  for (const c of connections) {
    if (c.state !== 'running') continue;
    for (const p of c.prompts) {
      const hint = (p.arguments ?? []).map((a) => (a.required ? `${a.name}=…` : `[${a.name}=…]`)).join(' ');
      items.push({
        kind: 'prompt',
        name: promptCommandName(c.name, p.name),
        description: `${p.title ?? p.description ?? p.name} (MCP server ${c.name})`,
        ...(hint ? { argumentHint: hint } : {}),
        scope: c.server.def.scope === 'user' ? 'user' : 'workspace',
      });
    }
  }
  return items;
}

export function findPrompt(
  connections: readonly McpConnection[],
  command: string,
): { connection: McpConnection; prompt: Prompt } | undefined {
  for (const c of connections) {
    if (c.state !== 'running') continue;
    const prompt = c.prompts.find((p) => promptCommandName(c.name, p.name) === command);
    if (prompt) return { connection: c, prompt };
  }
  return undefined;
}

/**
 * A prompt's arguments from the text after its command: `name=value` (or `name="a value"`); text
 * with no `name=` goes to a prompt's only argument. `missing` lists the required ones not given.
 */
export function promptArguments(rest: string, prompt: Prompt): { values: Record<string, string>; missing: string[] } {
  const declared = prompt.arguments ?? [];
  const values: Record<string, string> = {};
  const pairs = [...rest.matchAll(/([A-Za-z_][\w.-]*)=(?:"((?:[^"\\]|\\.)*)"|(\S*))/g)];
  for (const m of pairs) {
    if (declared.some((a) => a.name === m[1])) values[m[1]!] = m[2]?.replace(/\\(.)/g, '$1') ?? m[3] ?? '';
  }
  if (pairs.length === 0 && rest !== '' && declared.length === 1) values[declared[0]!.name] = rest;
  const missing = declared.filter((a) => a.required && values[a.name] === undefined).map((a) => a.name);
  return { values, missing };
}

/** A prompt's messages as the question's text: one user text alone as it is; else each message by role. */
export function promptText(r: GetPromptResult): string {
  const part = (c: GetPromptResult['messages'][number]['content']): string => {
    switch (c.type) {
      case 'text':
        return c.text;
      case 'resource':
        return 'text' in c.resource
          ? `Resource ${c.resource.uri}:\n${c.resource.text}`
          : `[resource ${c.resource.uri}]`;
      case 'resource_link':
        return `[link ${c.uri}]`;
      default:
        return `[${c.type} ${c.mimeType}]`;
    }
  };
  const only = r.messages[0];
  if (r.messages.length === 1 && only?.role === 'user' && only.content.type === 'text') return only.content.text;
  return r.messages.map((m) => `${m.role === 'user' ? 'User' : 'Assistant'}: ${part(m.content)}`).join('\n\n');
}
