import * as vscode from 'vscode';
import type { Services } from '../../platform/services';
import { pageHtml } from '../../platform/webviewPage';
import { CHAT_PANEL_TYPE, CHAT_VIEW_ID } from '../conversation/core/contracts';
import type { ChatController } from './controller';
import type { LoadedChat } from './loadChat';

function setHtml(webview: vscode.Webview, controller: ChatController, extensionUri: vscode.Uri): void {
  webview.options = controller.webviewOptions(extensionUri);
  webview.html = pageHtml(webview, extensionUri, {
    bundle: 'webview',
    title: vscode.l10n.t('Gateway Studio Chat'),
    module: true,
  });
}

/**
 * The chat: a view in its own activity-bar container, the same chat in an editor panel ("Open
 * Chat"), the editor commands, and its tools (with those other features add to `s.chatTools`, the video's).
 * Only the registrations happen at activation: the chat's code (session, history, checkpoints,
 * tools) is imported when the chat is first shown or one of its commands first runs, a chunk of
 * its own (see esbuild.js).
 */
export function registerChat(s: Services): void {
  const { context } = s;
  let loading: Promise<LoadedChat> | undefined;
  const load = () => (loading ??= import('./loadChat').then((m) => m.loadChat(s)));
  const chat = async () => (await load()).controller;
  let panel: vscode.WebviewPanel | undefined;

  const adoptPanel = (controller: ChatController, p: vscode.WebviewPanel) => {
    panel = p;
    p.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'chat.svg');
    setHtml(p.webview, controller, context.extensionUri);
    const sub = controller.attach(p.webview, () => p.visible);
    p.onDidDispose(() => {
      sub.dispose();
      if (panel === p) panel = undefined;
    });
  };

  const openPanel = async () => {
    const controller = await chat();
    // Checked after the load: a second click while it loaded finds the first one's panel.
    if (panel) {
      panel.reveal(undefined, false);
      return;
    }
    adoptPanel(
      controller,
      vscode.window.createWebviewPanel(
        CHAT_PANEL_TYPE,
        vscode.l10n.t('Gateway Studio Chat'),
        { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false },
        { ...controller.webviewOptions(context.extensionUri), retainContextWhenHidden: true },
      ),
    );
  };

  /** Shows the chat where the user has it: the open panel, else the sidebar view. */
  const reveal = async () => {
    if (panel) panel.reveal(undefined, false);
    else await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
  };

  context.subscriptions.push(
    vscode.window.registerWebviewViewProvider(
      CHAT_VIEW_ID,
      {
        async resolveWebviewView(view) {
          const controller = await chat();
          setHtml(view.webview, controller, context.extensionUri);
          const sub = controller.attach(view.webview, () => view.visible);
          view.onDidDispose(() => sub.dispose());
        },
      },
      // Kept alive while hidden: the host could replay the state on `webview/ready`, but a long
      // conversation would then be sent and mounted again at every switch (1,000 messages: ~4 s).
      { webviewOptions: { retainContextWhenHidden: true } },
    ),
    vscode.window.registerWebviewPanelSerializer(CHAT_PANEL_TYPE, {
      async deserializeWebviewPanel(p: vscode.WebviewPanel): Promise<void> {
        adoptPanel(await chat(), p);
      },
    }),
    vscode.commands.registerCommand('gatewayStudio.openChat', openPanel),
    vscode.commands.registerCommand('gatewayStudio.newChat', async () => {
      await reveal();
      await (await chat()).newChatFromCommand();
    }),
    vscode.commands.registerCommand('gatewayStudio.exportChat', async () => (await chat()).exportMarkdown()),
    vscode.commands.registerCommand('gatewayStudio.showSystemPrompt', async () => (await chat()).showSystemPrompt()),
    vscode.commands.registerCommand('gatewayStudio.showCustomizations', async () =>
      (await chat()).showCustomizations(),
    ),
    vscode.commands.registerCommand('gatewayStudio.manageTools', async () => (await load()).manageTools()),
    vscode.commands.registerCommand('gatewayStudio.mcpServers', async () => (await load()).mcp.showServers()),
    vscode.commands.registerCommand('gatewayStudio.manageWebDomains', async () =>
      (await import('../web/vscode/webTools')).manageWebDomains(s),
    ),
    ...contextCommands(chat, reveal),
  );
}

/** The commands that hand the chat a file or the selection as context, then show it. */
function contextCommands(chat: () => Promise<ChatController>, reveal: () => Promise<void>): vscode.Disposable[] {
  return [
    // From the explorer: the clicked file, or all selected ones; from an editor tab: its file.
    vscode.commands.registerCommand(
      'gatewayStudio.addFileToChat',
      async (clicked?: vscode.Uri, selected?: vscode.Uri[]) => {
        const target = clicked instanceof vscode.Uri ? clicked : vscode.window.activeTextEditor?.document.uri;
        const uris = Array.isArray(selected) && selected.length > 0 ? selected : target ? [target] : [];
        if (uris.length === 0) {
          void vscode.window.showInformationMessage(vscode.l10n.t('Choose a file in the explorer or open one first.'));
          return;
        }
        await reveal();
        await (await chat()).addFiles(uris);
      },
    ),
    vscode.commands.registerCommand('gatewayStudio.askAboutSelection', async () => {
      const editor = vscode.window.activeTextEditor;
      if (!editor) {
        void vscode.window.showInformationMessage(vscode.l10n.t('Open a file and select some code first.'));
        return;
      }
      const sel = editor.selection;
      const range = sel.isEmpty ? editor.document.lineAt(sel.active.line).range : sel;
      const text = editor.document.getText(range);
      if (!text.trim()) {
        void vscode.window.showInformationMessage(vscode.l10n.t('Select some code first.'));
        return;
      }
      await reveal();
      (await chat()).addContext({
        fileName: vscode.workspace.asRelativePath(editor.document.uri),
        language: editor.document.languageId,
        text,
        startLine: range.start.line,
        endLine: range.end.line,
      });
    }),
  ];
}
