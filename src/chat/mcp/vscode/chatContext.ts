/**
 * MCP resources as @-mentions and MCP prompts as `/server.prompt` commands, over the running
 * servers: a template's arguments and a prompt's missing required arguments are asked in input
 * boxes; a resource's text (and images, when the model takes them) is what the attachment holds.
 */
import * as vscode from 'vscode';
import type { ContextAttachment, ImageAttachment, MentionItem, SlashItem } from '../../../shared/protocol';
import { makeAttachment, noteOnly } from '../../mentions/core/mentions';
import type { McpConnection } from '../core/connection';
import {
  expandTemplate,
  findPrompt,
  parseResourceRef,
  promptArguments,
  promptSlashItems,
  promptText,
  resourceContents,
  resourceRows,
  templateVariables,
} from '../core/resourcesPrompts';

/** How long a resource read or a prompt may take (ms). */
const READ_TIMEOUT_MS = 30_000;

export interface McpMentionOptions {
  acceptsImages: boolean | undefined;
  maxImageBytes: number;
}

export class McpChatContext {
  constructor(private readonly connections: () => McpConnection[]) {}

  mentionRows(): MentionItem[] {
    return resourceRows(this.connections());
  }

  /** A resource mention's content; a template's arguments are asked first. Throws on a failed read. */
  async resolveMention(item: MentionItem, o: McpMentionOptions, images: ImageAttachment[]): Promise<ContextAttachment> {
    const ref = parseResourceRef(item.ref);
    const c = ref && this.connections().find((x) => x.name === ref.server && x.state === 'running');
    if (!ref || !c) return noteOnly(item, vscode.l10n.t('Not read: its MCP server is not running.'));
    let uri = ref.uri;
    if (ref.template) {
      const values: Record<string, string> = {};
      for (const name of templateVariables(ref.uri)) {
        const v = await vscode.window.showInputBox({
          title: vscode.l10n.t('MCP resource {0}', item.label),
          prompt: vscode.l10n.t('A value for {0} in {1}', name, ref.uri),
          ignoreFocusOut: true,
        });
        if (v === undefined) return noteOnly(item, vscode.l10n.t('Not read: no value was given for {0}.', name));
        values[name] = v;
      }
      uri = expandTemplate(ref.uri, values);
    }
    const read = await c.readResource(uri, AbortSignal.timeout(READ_TIMEOUT_MS));
    const got = resourceContents(read, o);
    for (const img of got.images)
      images.push({
        name: img.uri.slice(0, 500),
        mime: img.mime,
        dataUrl: `data:${img.mime};base64,${img.base64}`,
        bytes: img.bytes,
      });
    const notes = [
      vscode.l10n.t('From the MCP server "{0}": {1}', ref.server, uri),
      ...(got.images.length ? [vscode.l10n.t('{0} image(s) attached below as image parts.', got.images.length)] : []),
      ...got.notes,
    ];
    return makeAttachment({ kind: 'mcpResource', label: item.label, note: notes.join(' ').slice(0, 2000) }, got.text);
  }

  slashItems(): SlashItem[] {
    return promptSlashItems(this.connections());
  }

  /** `/server.prompt rest` as the question's text; undefined when no running server has it. */
  async expand(command: string, rest: string): Promise<{ text: string; notes: string[] } | 'cancelled' | undefined> {
    const found = findPrompt(this.connections(), command);
    if (!found) return undefined;
    const { connection, prompt } = found;
    const { values, missing } = promptArguments(rest, prompt);
    for (const name of missing) {
      const arg = prompt.arguments?.find((a) => a.name === name);
      const v = await vscode.window.showInputBox({
        title: vscode.l10n.t('/{0}: {1}', command, name),
        prompt: arg?.description ?? vscode.l10n.t('A value for {0} of the MCP prompt /{1}.', name, command),
        ignoreFocusOut: true,
      });
      if (v === undefined) return 'cancelled';
      values[name] = v;
    }
    const r = await connection.getPrompt(prompt.name, values, AbortSignal.timeout(READ_TIMEOUT_MS));
    return { text: promptText(r), notes: [] };
  }
}
