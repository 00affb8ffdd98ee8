import * as vscode from 'vscode';
import { runErrorAction } from '../../../platform/gateway';
import { activeEditors } from '../../../platform/activeEditor';
import { readSettings } from '../../../platform/settings';
import type { Conversation, ErrorAction, HostMessage, ImageAttachment, ReplyTo } from '../../../shared/protocol';
import { conversationToMarkdown } from '../../history/core/export';
import type { Routes } from '../../conversation/core/routes';
import { askBeforeOpening, checkChatLink } from '../core/links';
import { titleFor } from '../../history/core/store';

/**
 * What the chat does in VS Code itself on the user's behalf: code into an editor, the clipboard,
 * links, image files, the Markdown export and the buttons of an error. Nothing here changes the
 * conversation.
 */
export class EditorActions implements vscode.Disposable {
  /**
   * @param notify shows a notice in every chat view (a link that is not opened).
   * @param shown the conversation shown now (copied from, exported).
   */
  constructor(
    private readonly notify: (msg: HostMessage) => void,
    private readonly shown: () => Conversation,
    private readonly log: { info(msg: string): void },
  ) {}

  /** The buttons on code blocks and messages, links, images and the export. */
  readonly routes: Routes<
    | 'history/export'
    | 'images/pick'
    | 'images/rejected'
    | 'code/copy'
    | 'code/insert'
    | 'code/open'
    | 'message/copy'
    | 'link/open'
  > = {
    'history/export': () => this.exportMarkdown(this.shown()),
    'images/pick': (_m, reply) => this.pickImages(reply),
    'images/rejected': (m) => this.log.info(`image not attached: ${m.reason}`),
    'code/copy': async (m) => await this.copy(m.code),
    'code/insert': (m) => this.insertAtCursor(m.code),
    'code/open': (m) => this.openCode(m.code, m.language),
    'message/copy': (m) => this.copyMessage(this.shown(), m.messageId),
    'link/open': (m) => this.openLink(m.href),
  };

  copy(text: string): Thenable<void> {
    return vscode.env.clipboard.writeText(text);
  }

  /** Copies a message's text (an answer's Markdown, a question as typed). */
  async copyMessage(c: Conversation, messageId: string): Promise<void> {
    const msg = c.messages.find((x) => x.id === messageId);
    if (msg?.role === 'assistant') await this.copy(msg.content);
    else if (msg?.role === 'user') await this.copy(msg.text);
  }

  async insertAtCursor(code: string): Promise<void> {
    // The editor the user last worked in: the chat has focus when Insert is clicked.
    const editor = activeEditors().current() ?? vscode.window.visibleTextEditors[0];
    if (!editor || editor.document.isClosed) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t('Open a file and place the cursor where the code should go, then try again.'),
      );
      return;
    }
    await editor.edit((b) => {
      for (const sel of editor.selections) b.replace(sel, code);
    });
    await vscode.window.showTextDocument(editor.document, editor.viewColumn);
  }

  /** A code block in a new untitled editor, in its fence's language. */
  async openCode(code: string, language: string): Promise<void> {
    const doc = await vscode.workspace.openTextDocument({ content: code, language: languageId(language) });
    await vscode.window.showTextDocument(doc, { preview: false, viewColumn: vscode.ViewColumn.Active });
  }

  async openLink(href: string): Promise<void> {
    const verdict = checkChatLink(href);
    const shown = href.slice(0, 200);
    if (!verdict.ok) {
      const text =
        verdict.reason === 'scheme'
          ? vscode.l10n.t('Only http, https and mailto links are opened from the chat; "{0}" was not.', shown)
          : verdict.reason === 'userInfo'
            ? vscode.l10n.t(
                'Links with a user name before the host are not opened from the chat (they hide the real host): {0}',
                shown,
              )
            : vscode.l10n.t('Not a valid link: {0}', shown);
      this.notify({ type: 'chat/notice', level: 'warning', text });
      return;
    }
    let uri: vscode.Uri;
    try {
      uri = vscode.Uri.parse(href.trim(), true);
    } catch {
      this.notify({ type: 'chat/notice', level: 'warning', text: vscode.l10n.t('Not a valid link: {0}', shown) });
      return;
    }
    // VS Code asks the user before opening a domain they have not trusted yet, but not before a
    // mail link or localhost: those the chat asks about itself.
    if (!(await this.confirmLink(href.trim()))) return;
    await vscode.env.openExternal(uri);
  }

  /** A modal for a link VS Code would open without asking; true when the user chose Open. */
  private async confirmLink(href: string): Promise<boolean> {
    const ask = askBeforeOpening(href);
    if (!ask) return true;
    const open = vscode.l10n.t('Open');
    const message =
      ask === 'mail'
        ? vscode.l10n.t(
            'Open this mail link from the answer? Your mail program starts with the address, subject and text the answer chose.',
          )
        : vscode.l10n.t(
            'Open this link into your own machine or network from the answer? A page there (a dev server, a router) may act on what the link asks.',
          );
    const choice = await vscode.window.showWarningMessage(message, { modal: true, detail: href.slice(0, 500) }, open);
    return choice === open;
  }

  async errorAction(a: ErrorAction): Promise<void> {
    // Retry arrives as `chat/retry` (it needs a request id); every other button is shared.
    // The context window's buttons go to the session (controller).
    if (a === 'retry' || a === 'compact' || a === 'toolsOff' || a === 'toolsReadOnly') return;
    await runErrorAction(a);
  }

  /** Asks for image files; the answer (images and why others were left out) goes to `reply`. */
  async pickImages(reply: (msg: ReplyTo<'images/pick'>) => void): Promise<void> {
    const uris = await vscode.window.showOpenDialog({
      canSelectMany: true,
      openLabel: vscode.l10n.t('Attach'),
      filters: { [vscode.l10n.t('Images')]: ['png', 'jpg', 'jpeg', 'gif', 'webp'] },
    });
    if (!uris) return;
    const max = readSettings().chat.maxImageMegabytes * 1024 * 1024;
    const images: ImageAttachment[] = [];
    const problems: string[] = [];
    for (const uri of uris) {
      const name = uri.path.split('/').pop() ?? 'image';
      const mime = mimeFor(name);
      if (!mime) {
        problems.push(vscode.l10n.t('{0} is not an image.', name));
        continue;
      }
      const stat = await vscode.workspace.fs.stat(uri);
      if (stat.size > max) {
        problems.push(
          vscode.l10n.t(
            '{0} is {1} MB; the limit is {2} MB (setting gatewayStudio.chat.maxImageMegabytes).',
            name,
            (stat.size / 1048576).toFixed(1),
            (max / 1048576).toFixed(1),
          ),
        );
        continue;
      }
      const bytes = await vscode.workspace.fs.readFile(uri);
      images.push({
        name,
        mime,
        dataUrl: `data:${mime};base64,${Buffer.from(bytes).toString('base64')}`,
        bytes: bytes.byteLength,
      });
    }
    reply({ type: 'images/picked', images, problems });
  }

  /** Export to Markdown: asks where, never overwrites without VS Code's own confirmation. */
  async exportMarkdown(c: Conversation): Promise<void> {
    if (c.messages.length === 0) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('This conversation is empty; there is nothing to export.'),
      );
      return;
    }
    const base =
      (titleFor(c) || 'conversation')
        .replace(/[^\p{L}\p{N}._ -]+/gu, '')
        .trim()
        .slice(0, 60) || 'conversation';
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const target = await vscode.window.showSaveDialog({
      defaultUri: folder ? vscode.Uri.joinPath(folder, `${base}.md`) : undefined,
      filters: { Markdown: ['md'] },
      saveLabel: vscode.l10n.t('Export'),
    });
    if (!target) return;
    await vscode.workspace.fs.writeFile(target, Buffer.from(conversationToMarkdown(c), 'utf8'));
    void vscode.window.showInformationMessage(
      vscode.l10n.t('Conversation exported to {0}.', vscode.workspace.asRelativePath(target)),
    );
  }

  dispose(): void {
    // Nothing held: the editor tracker is the extension's (platform/activeEditor.ts).
  }
}

function mimeFor(name: string): string | undefined {
  const ext = name.toLowerCase().split('.').pop() ?? '';
  return { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' }[ext];
}

/** Fence languages to VS Code language ids where they differ. */
function languageId(lang: string): string {
  const l = lang.toLowerCase();
  const map: Record<string, string> = {
    ts: 'typescript',
    js: 'javascript',
    py: 'python',
    sh: 'shellscript',
    bash: 'shellscript',
    shell: 'shellscript',
    zsh: 'shellscript',
    yml: 'yaml',
    md: 'markdown',
    'c#': 'csharp',
    cs: 'csharp',
    rs: 'rust',
    golang: 'go',
    html: 'html',
    xml: 'xml',
  };
  return map[l] ?? (l || 'plaintext');
}
