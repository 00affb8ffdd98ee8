import * as l10n from '@vscode/l10n';
import { fenceFor } from '../../../shared/fence';
import type { Conversation } from '../../../shared/protocol';
import { attachmentLabel, formatAttachment } from '../../conversation/core/attachments';
import { formatContext } from '../../conversation/core/request';
import { titleFor } from './store';

/**
 * The conversation as a Markdown document: every turn in order, with images listed by name (not
 * embedded: a data URL would make the file huge), tool calls and results fenced.
 */
export function conversationToMarkdown(c: Conversation): string {
  const words = {
    you: l10n.t('You'),
    assistant: l10n.t('Assistant'),
    tool: l10n.t('Tool'),
    stopped: l10n.t('(stopped)'),
    failed: l10n.t('(failed)'),
    reasoning: l10n.t('Reasoning'),
    untitled: l10n.t('Conversation'),
  };
  const out: string[] = [`# ${titleFor(c) || words.untitled}`, ''];
  const date = new Date(c.createdAt).toISOString().replace('T', ' ').slice(0, 16);
  out.push(`_${date} UTC${c.model ? ` · ${c.model}` : ''}_`, '');
  if (c.systemPrompt) out.push('> ' + c.systemPrompt.split('\n').join('\n> '), '');
  for (const m of c.messages) {
    if (m.role === 'user') {
      out.push(`## ${words.you}`, '');
      // What the model saw of each @-mention, in a fold so the question stays readable.
      for (const a of m.attachments ?? []) {
        out.push(`<details><summary>📎 ${attachmentLabel(a)}</summary>`, '', formatAttachment(a), '', '</details>', '');
      }
      out.push(m.text);
      for (const ctx of m.contexts) out.push('', formatContext(ctx));
      for (const img of m.images) out.push('', `- 🖼 ${img.name} (${img.mime}, ${Math.round(img.bytes / 1024)} KB)`);
      out.push('');
    } else if (m.role === 'assistant') {
      const model = m.model ?? m.requestedModel;
      const state = m.status === 'stopped' ? ` ${words.stopped}` : m.status === 'error' ? ` ${words.failed}` : '';
      out.push(`## ${words.assistant}${model ? ` (${model})` : ''}${state}`, '');
      if (m.reasoning) {
        out.push(`<details><summary>${words.reasoning}</summary>`, '', m.reasoning, '', '</details>', '');
      }
      if (m.content) out.push(m.content, '');
      for (const call of m.toolCalls ?? []) {
        let args = call.function.arguments;
        try {
          args = JSON.stringify(JSON.parse(args), null, 2);
        } catch {
          // Invalid JSON from the model is exported as it came.
        }
        const f = fenceFor(args);
        out.push(`**${words.tool}: ${call.function.name}**`, '', `${f}json`, args, f, '');
      }
      if (m.error) out.push(`> **${m.error.title}** ${m.error.detail}`, '');
    } else {
      const f = fenceFor(m.content);
      out.push(`<details><summary>${words.tool} ${m.name}</summary>`, '', f, m.content, f, '', '</details>', '');
    }
  }
  return (
    out
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trimEnd() + '\n'
  );
}
